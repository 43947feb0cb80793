//! The npm packages, installed for real: `packaging/npm/pack` packs the
//! main package `@agentc/cli` and platform packages, a fresh project
//! installs them from the tarballs (offline: nothing is fetched), and
//! `npx agentc` runs the binary with its arguments, streams and exit code;
//! `npx @agentc/cli mcp` starts the MCP server, which answers `initialize`.
//!
//! The platform package of this machine holds this build's binary; in CI,
//! the static musl builds of `packaging/build` (under `AGENTC_DIST_DIR`)
//! are packed and installed too, the aarch64 one run under qemu-user.
//! Needs node and npm, which a fresh clone may not have, so the tests are
//! `#[ignore]`d; `.ci/run` runs them (`cargo test -- --include-ignored`).
//! Run so without them, they say why and return, unless
//! `AGENTC_REQUIRE_PACKAGING=1`.

mod common;

use common::packaging::{
    dist_binary, elf_needs_interpreter, has, host, platform, platforms, run, scratch, skip, text,
};
use common::root;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn tools() -> bool {
    has("node") && has("npm")
}

fn pack(args: &[&str]) -> PathBuf {
    let printed = run(Command::new(root().join("packaging/npm/pack")).args(args));
    PathBuf::from(printed.lines().last().expect("a tarball path"))
}

fn pack_main(out: &Path) -> PathBuf {
    pack(&["main", out.to_str().expect("utf-8")])
}

fn pack_platform(out: &Path, target: &str, binary: &Path) -> PathBuf {
    pack(&[
        "platform",
        out.to_str().expect("utf-8"),
        target,
        binary.to_str().expect("utf-8"),
    ])
}

/// npm without its notices, in `dir`.
fn npm(dir: &Path) -> Command {
    tool("npm", dir)
}

/// `npx agentc`, as a user types it: offline, and never fetching a package
/// (the project's own `agentc` or nothing).
fn npx_agentc(dir: &Path) -> Command {
    let mut command = tool("npx", dir);
    command.args(["--offline", "--no", "--", "agentc"]);
    command
}

fn tool(program: &str, dir: &Path) -> Command {
    let mut command = Command::new(program);
    command
        .current_dir(dir)
        .env("npm_config_update_notifier", "false")
        .env("npm_config_fund", "false")
        .env("npm_config_audit", "false");
    command
}

/// A fresh project with the tarballs installed as dev dependencies, offline.
fn project(name: &str, tarballs: &[&Path], extra: &[&str]) -> tempfile::TempDir {
    let folder = scratch(name);
    let dir = folder.path();
    std::fs::write(
        dir.join("package.json"),
        r#"{ "name": "an-agent-app", "version": "1.0.0", "private": true }"#,
    )
    .expect("write package.json");
    run(npm(dir)
        .args(["install", "--offline", "--save-dev"])
        .args(extra)
        .args(tarballs));
    folder
}

fn npx(dir: &Path, args: &[&str]) -> Output {
    npx_agentc(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("AGENTC_BINARY")
        .output()
        .expect("run npx agentc")
}

/// This machine's platform package, holding this build's binary.
fn host_package(out: &Path) -> Option<(Value, PathBuf)> {
    let Some(row) = host() else {
        skip("this machine is not one of packaging/platforms.json's platforms");
        return None;
    };
    let target = row["target"].as_str().expect("a target").to_string();
    let tarball = pack_platform(out, &target, Path::new(env!("CARGO_BIN_EXE_agentc")));
    Some((row, tarball))
}

fn package_json(tarball: &Path) -> Value {
    let printed = run(Command::new("tar")
        .arg("-xzOf")
        .arg(tarball)
        .arg("package/package.json"));
    serde_json::from_str(&printed).expect("package.json is JSON")
}

fn assert_no_install_scripts(manifest: &Value) {
    for hook in ["preinstall", "install", "postinstall", "prepare"] {
        assert!(
            manifest["scripts"][hook].is_null(),
            "{} has a {hook} script",
            manifest["name"]
        );
    }
}

#[test]
#[ignore = "needs node and npm (CI runs it)"]
fn npx_agentc_runs_the_binary_with_its_arguments_and_exit_codes() {
    if !tools() {
        return;
    }
    let out_folder = scratch("npm-tarballs");
    let out = out_folder.path();
    let main = pack_main(out);
    let Some((_, platform_tarball)) = host_package(out) else {
        return;
    };
    let dir_folder = project("npm-app", &[&main, &platform_tarball], &[]);
    let dir = dir_folder.path();
    for installed in [
        "@agentc/cli",
        &format!(
            "@agentc/cli-{}",
            host().expect("host")["npm"].as_str().expect("npm")
        ),
    ] {
        let manifest: Value = serde_json::from_str(
            &std::fs::read_to_string(
                dir.join("node_modules")
                    .join(installed)
                    .join("package.json"),
            )
            .expect("installed package.json"),
        )
        .expect("json");
        assert_eq!(manifest["version"], VERSION, "{installed}");
        assert_no_install_scripts(&manifest);
    }

    let version = npx(dir, &["--version"]);
    assert_eq!(
        String::from_utf8_lossy(&version.stdout),
        format!("agentc {VERSION}\n")
    );
    assert_eq!(version.status.code(), Some(0));

    // What editors call (the VS Code extension does): the exported resolver.
    let resolved = run(Command::new("node")
        .args([
            "-e",
            "console.log(require('@agentc/cli/resolve').binaryPath())",
        ])
        .current_dir(dir)
        .env_remove("AGENTC_BINARY"));
    let suffix = host().expect("host")["npm"]
        .as_str()
        .expect("npm")
        .to_string();
    let installed = dir
        .join("node_modules/@agentc")
        .join(format!("cli-{suffix}"));
    assert_eq!(
        Path::new(resolved.trim()),
        std::fs::canonicalize(installed)
            .expect("the platform package")
            .join("agentc"),
    );

    std::fs::create_dir_all(dir.join("agents")).expect("agents folder");
    common::copy_dir(
        &root().join("protocols/shop-assistant"),
        &dir.join("agents/shop"),
    );
    let clean = npx(dir, &["check", "agents/shop"]);
    assert_eq!(clean.status.code(), Some(0), "{}", text(&clean));
    assert!(
        text(&clean).contains("checked 7 files: no problems"),
        "{}",
        text(&clean)
    );

    std::fs::create_dir_all(dir.join("agents/broken")).expect("folder");
    std::fs::write(
        dir.join("agents/broken/protocol.yaml"),
        "types:\n  Ticket:\n    status: { type: Staus }\n",
    )
    .expect("write");
    let broken = npx(dir, &["check", "--format", "short", "agents"]);
    assert_eq!(broken.status.code(), Some(1), "{}", text(&broken));
    assert!(
        String::from_utf8_lossy(&broken.stdout)
            .contains("agents/broken/protocol.yaml:3:21: error[unknown-type]"),
        "{}",
        text(&broken)
    );
    let usage = npx(dir, &["check", "does-not-exist"]);
    assert_eq!(usage.status.code(), Some(2), "{}", text(&usage));

    // Standard input reaches the binary: data to validate, on stdin.
    let mut child = npx_agentc(dir)
        .arg("validate")
        .args(["agents/shop/protocol.yaml", "-", "--tool", "add-to-cart"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn npx");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(b"{}").expect("write stdin");
    }
    let piped = child.wait_with_output().expect("wait");
    assert_eq!(piped.status.code(), Some(1), "{}", text(&piped));
    assert!(
        text(&piped).contains("missing required property `cartItems`"),
        "{}",
        text(&piped)
    );

    // The MCP server, as a client's configuration starts it (docs/mcp.md):
    // `npx @agentc/cli mcp`, and `npx agentc mcp` in a project that has it;
    // each answers `initialize` as agentc and exits when its input closes.
    let mut by_package = tool("npx", dir);
    by_package
        .args(["--offline", "--no", "--", "@agentc/cli", "mcp"])
        .env_remove("AGENTC_BINARY");
    common::mcp_stdio::answers_initialize(by_package);
    let mut by_command = npx_agentc(dir);
    by_command.arg("mcp").env_remove("AGENTC_BINARY");
    common::mcp_stdio::answers_initialize(by_command);
}

#[test]
#[cfg(unix)]
#[ignore = "needs node and npm (CI runs it)"]
fn agentc_binary_overrides_the_package_and_signals_pass_through() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::ExitStatusExt;
    if !tools() {
        return;
    }
    let out_folder = scratch("npm-override-tarballs");
    let out = out_folder.path();
    let main = pack_main(out);
    // Only the main package: the override must not need a platform package.
    let dir_folder = project("npm-override", &[&main], &[]);
    let dir = dir_folder.path();
    let script = dir.join("my-agentc");
    std::fs::write(
        &script,
        "#!/bin/sh\necho \"built by me: $*\"\n[ \"$1\" = die ] && kill -TERM $$\nexit 7\n",
    )
    .expect("write");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let run_with = |args: &[&str]| {
        npx_agentc(dir)
            .args(args)
            .env("AGENTC_BINARY", &script)
            .output()
            .expect("run npx agentc")
    };
    let output = run_with(&["check", "a b"]);
    assert_eq!(output.status.code(), Some(7), "{}", text(&output));
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "built by me: check a b\n"
    );
    // npm exec reports a signal as 128+N; the launcher itself dies of it.
    let launcher = dir.join("node_modules/@agentc/cli/bin/agentc");
    let direct = Command::new("node")
        .arg(&launcher)
        .arg("die")
        .env("AGENTC_BINARY", &script)
        .output()
        .expect("run the launcher");
    assert_eq!(
        direct.status.signal(),
        Some(15),
        "{:?} {}",
        direct.status,
        text(&direct)
    );

    let missing = npx_agentc(dir)
        .arg("--version")
        .env("AGENTC_BINARY", dir.join("not-there"))
        .output()
        .expect("run");
    assert_eq!(missing.status.code(), Some(2), "{}", text(&missing));
    assert!(
        text(&missing).contains("AGENTC_BINARY is"),
        "{}",
        text(&missing)
    );
}

#[test]
#[ignore = "needs node and npm (CI runs it)"]
fn without_its_platform_package_the_launcher_names_the_platform() {
    if !tools() {
        return;
    }
    let Some(row) = host() else {
        skip("this machine is not one of packaging/platforms.json's platforms");
        return;
    };
    let out_folder = scratch("npm-nobinary-tarballs");
    let out = out_folder.path();
    let main = pack_main(out);
    let dir_folder = project("npm-nobinary", &[&main], &[]);
    let dir = dir_folder.path();
    let output = npx(dir, &["--version"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    let message = String::from_utf8_lossy(&output.stderr).into_owned();
    let named = match row["libc"].as_str() {
        Some(libc) => format!(
            "no agentc binary is installed for {} {} ({libc})",
            row["os"].as_str().unwrap_or_default(),
            row["cpu"].as_str().unwrap_or_default()
        ),
        None => format!(
            "no agentc binary is installed for {} {}",
            row["os"].as_str().unwrap_or_default(),
            row["cpu"].as_str().unwrap_or_default()
        ),
    };
    assert!(message.contains(&named), "{message}");
    assert!(
        message.contains(&format!(
            "@agentc/cli-{}",
            row["npm"].as_str().unwrap_or_default()
        )),
        "{message}"
    );
    assert!(message.contains("AGENTC_BINARY"), "{message}");
    assert!(output.stdout.is_empty());
}

#[test]
#[ignore = "needs node and npm (CI runs it)"]
fn every_package_carries_its_platform_row() {
    if !tools() {
        return;
    }
    let out_folder = scratch("npm-every-platform");
    let out = out_folder.path();
    let main = package_json(&pack_main(out));
    assert_eq!(main["name"], "@agentc/cli");
    assert_eq!(main["version"], VERSION);
    assert_eq!(main["bin"]["agentc"], "bin/agentc");
    assert_no_install_scripts(&main);
    let rows = platforms();
    let optional = main["optionalDependencies"]
        .as_object()
        .expect("optionalDependencies");
    assert_eq!(optional.len(), rows.len(), "{optional:?}");
    // A stand-in binary: what is checked here is each package's manifest.
    let binary = &out.join("stand-in");
    std::fs::write(binary, "#!/bin/sh\nexit 0\n").expect("write the stand-in");
    for row in &rows {
        let target = row["target"].as_str().expect("target");
        let name = format!("@agentc/cli-{}", row["npm"].as_str().expect("npm"));
        assert_eq!(optional[&name], VERSION, "{name}");
        let tarball = pack_platform(out, target, binary);
        let manifest = package_json(&tarball);
        assert_eq!(manifest["name"], name.as_str());
        assert_eq!(manifest["version"], VERSION);
        assert_eq!(manifest["os"], serde_json::json!([row["os"]]), "{name}");
        assert_eq!(manifest["cpu"], serde_json::json!([row["cpu"]]), "{name}");
        match row.get("libc") {
            Some(libc) => assert_eq!(manifest["libc"], serde_json::json!([libc]), "{name}"),
            None => assert!(manifest["libc"].is_null(), "{name}"),
        }
        assert_no_install_scripts(&manifest);
        let exe = if row["os"] == "win32" {
            "agentc.exe"
        } else {
            "agentc"
        };
        let listing = run(Command::new("tar").arg("-tvzf").arg(&tarball));
        let line = listing
            .lines()
            .find(|l| l.ends_with(&format!("package/{exe}")))
            .unwrap_or_else(|| panic!("{name} has no {exe}:\n{listing}"));
        assert!(line.starts_with("-rwxr-xr-x"), "{name}: {line}");
    }
    // A target that is not a platform is refused.
    let refused = Command::new(root().join("packaging/npm/pack"))
        .args([
            "platform",
            out.to_str().expect("utf-8"),
            "riscv64gc-unknown-linux-gnu",
        ])
        .arg(binary)
        .output()
        .expect("run pack");
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused));
    assert!(
        text(&refused).contains("not in packaging/platforms.json"),
        "{}",
        text(&refused)
    );
}

/// The static musl x86-64 build of CI installs and runs on this glibc
/// machine, found by the launcher's fallback from the glibc package.
#[test]
#[cfg(all(target_os = "linux", target_arch = "x86_64", target_env = "gnu"))]
#[ignore = "needs node, npm and CI's static musl build: packaging/build into AGENTC_DIST_DIR (CI runs it)"]
fn the_static_musl_package_serves_a_glibc_linux() {
    if !tools() {
        return;
    }
    let target = "x86_64-unknown-linux-musl";
    let Some(binary) = dist_binary(target) else {
        skip(&format!(
            "AGENTC_DIST_DIR has no {target} build (packaging/build makes it; .ci/run sets it)"
        ));
        return;
    };
    assert!(
        !elf_needs_interpreter(&binary),
        "{} is not static",
        binary.display()
    );
    let out_folder = scratch("npm-musl-tarballs");
    let out = out_folder.path();
    let main = pack_main(out);
    let musl = pack_platform(out, target, &binary);
    // npm refuses a package for another libc when it is named directly;
    // --force stands for what does reach such a machine (a lockfile, a
    // node_modules folder copied from a musl build stage).
    let dir_folder = project("npm-musl", &[&main, &musl], &["--force"]);
    let dir = dir_folder.path();
    assert!(!dir.join("node_modules/@agentc/cli-linux-x64").exists());
    let version = npx(dir, &["--version"]);
    assert_eq!(
        String::from_utf8_lossy(&version.stdout),
        format!("agentc {VERSION}\n"),
        "{}",
        text(&version)
    );
    common::copy_dir(&root().join("protocols/shop-assistant"), &dir.join("shop"));
    let clean = npx(dir, &["check", "shop"]);
    assert_eq!(clean.status.code(), Some(0), "{}", text(&clean));
}

/// The aarch64 musl build of CI: its package installs for an arm64 machine,
/// and its binary runs under qemu-user where that is installed.
#[test]
#[ignore = "needs node, npm, CI's aarch64 build (packaging/build into AGENTC_DIST_DIR) and qemu-aarch64 (CI runs it)"]
fn the_aarch64_package_installs_and_its_binary_runs_under_qemu() {
    if !tools() {
        return;
    }
    let target = "aarch64-unknown-linux-musl";
    let Some(binary) = dist_binary(target) else {
        skip(&format!(
            "AGENTC_DIST_DIR has no {target} build (packaging/build makes it; .ci/run sets it)"
        ));
        return;
    };
    let row = platform(target);
    let out_folder = scratch("npm-arm-tarballs");
    let out = out_folder.path();
    let main = pack_main(out);
    let arm = pack_platform(out, target, &binary);
    // npm refuses a package for another cpu when it is named directly.
    let dir_folder = project("npm-arm", &[&main, &arm], &["--force"]);
    let dir = dir_folder.path();
    let installed = dir
        .join("node_modules/@agentc")
        .join(format!("cli-{}", row["npm"].as_str().expect("npm")))
        .join("agentc");
    assert!(
        installed.is_file(),
        "{} was not installed",
        installed.display()
    );
    assert!(!elf_needs_interpreter(&installed), "not static");
    assert_eq!(
        common::packaging::elf_machine(&installed),
        183,
        "not aarch64"
    );
    if !common::packaging::qemu_aarch64() {
        return;
    }
    common::copy_dir(&root().join("protocols/shop-assistant"), &dir.join("shop"));
    let version = Command::new("qemu-aarch64")
        .arg(&installed)
        .arg("--version")
        .output()
        .expect("qemu");
    assert_eq!(
        String::from_utf8_lossy(&version.stdout),
        format!("agentc {VERSION}\n"),
        "{}",
        text(&version)
    );
    let check = Command::new("qemu-aarch64")
        .arg(&installed)
        .args(["check", "shop"])
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("qemu");
    assert_eq!(check.status.code(), Some(0), "{}", text(&check));
    assert!(
        text(&check).contains("checked 7 files: no problems"),
        "{}",
        text(&check)
    );
}
