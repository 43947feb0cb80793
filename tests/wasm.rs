//! `@agentc/wasm`, the library built for JavaScript (`wasm/build`), run
//! for real under Node.js:
//! - `wasm/tests/verdicts.mjs`: the package's reports and schemas, over
//!   every protocol fixture, are the `agentc` binary's `--format json`
//!   and `emit` output, byte for byte;
//! - `wasm/tests/package.mjs`: every sample compiles, each call does what
//!   its type says, hostile requests are refused and never stop the
//!   module, and the gzipped module fits its budget (1.5 MB);
//! - its types (`index.d.ts`) under `tsc --strict`, with a page's code
//!   written against them (`wasm/tests/consumer.ts`).
//!
//! They need Node.js and the built package (`wasm/build`, into
//! `target/wasm-pkg/`, or `AGENTC_WASM_PKG`): `#[ignore]`d, and required
//! by `.ci/run` (`AGENTC_REQUIRE_WASM=1`), which builds it first.

mod common;

use common::{client, root};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

const PATIENCE: Duration = Duration::from_secs(600);

/// The built package's folder, or why there is none.
fn package() -> Result<PathBuf, String> {
    let dir = match std::env::var_os("AGENTC_WASM_PKG") {
        Some(dir) => PathBuf::from(dir),
        None => std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .map(|target| match target.is_absolute() {
                true => target,
                false => root().join(target),
            })
            .unwrap_or_else(|| root().join("target"))
            .join("wasm-pkg"),
    };
    if !dir.join("agentc_wasm_bg.wasm").is_file() || !dir.join("index.js").is_file() {
        return Err(format!(
            "{} holds no built package (run wasm/build)",
            dir.display()
        ));
    }
    let node = Command::new("node").arg("--version").output();
    match node {
        Ok(output) if output.status.success() => Ok(dir),
        _ => Err("node is not installed".to_string()),
    }
}

fn node(script: &str, args: &[&std::ffi::OsStr]) -> Option<String> {
    let dir = match package() {
        Ok(dir) => dir,
        Err(reason) => {
            common::unavailable("AGENTC_REQUIRE_WASM", &reason);
            return None;
        }
    };
    let mut command = Command::new("node");
    command
        .arg(root().join(script))
        .arg(&dir)
        .args(args)
        .current_dir(root());
    let ran = client::run(command, PATIENCE);
    ran.assert_ok(&format!("node {script}"));
    Some(ran.stdout)
}

#[test]
#[ignore = "needs node and the built package: wasm/build (CI runs it)"]
fn the_package_gives_the_cli_s_verdicts_byte_for_byte() {
    let binary = std::ffi::OsStr::new(env!("CARGO_BIN_EXE_agentc"));
    if let Some(out) = node("wasm/tests/verdicts.mjs", &[binary]) {
        println!("{out}");
        assert!(out.contains("checked alike"), "{out}");
    }
}

#[test]
#[ignore = "needs node and the built package: wasm/build (CI runs it)"]
fn the_package_works_in_node_and_fits_its_budget() {
    if let Some(out) = node("wasm/tests/package.mjs", &[]) {
        println!("{out}");
        assert!(out.contains("all answered"), "{out}");
    }
}

#[test]
#[ignore = "needs node, tsc (tests/codegen/ts/install) and the built package: wasm/build (CI runs both)"]
fn the_package_s_types_compile_under_tsc_strict() {
    let dir = match package() {
        Ok(dir) => dir,
        Err(reason) => return common::unavailable("AGENTC_REQUIRE_WASM", &reason),
    };
    let modules = root().join("tests/codegen/ts/node_modules");
    if !modules.join(".bin/tsc").exists() {
        return common::unavailable(
            "AGENTC_REQUIRE_CODEGEN",
            "tsc is not installed (run tests/codegen/ts/install)",
        );
    }
    // The package as a page's project installs it: under node_modules.
    let project = common::scratch("wasm-types");
    let installed = project.path().join("node_modules/@agentc/wasm");
    std::fs::create_dir_all(&installed).expect("make node_modules");
    for file in ["package.json", "index.d.ts", "index.js"] {
        std::fs::copy(dir.join(file), installed.join(file)).expect("copy the package");
    }
    std::fs::copy(
        root().join("wasm/tests/consumer.ts"),
        project.path().join("consumer.ts"),
    )
    .expect("copy consumer.ts");
    let output = Command::new(modules.join(".bin/tsc"))
        .args([
            "--strict",
            "--noEmit",
            "--target",
            "es2022",
            "--module",
            "nodenext",
            "--moduleResolution",
            "nodenext",
            "--lib",
            "es2022,dom",
            "consumer.ts",
        ])
        .current_dir(project.path())
        .output()
        .expect("run tsc");
    assert!(
        output.status.success(),
        "tsc --strict:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    // And it fails on a misuse, so the check above is a check.
    std::fs::write(
        project.path().join("consumer.ts"),
        "import { emit } from '@agentc/wasm';\nemit({ files: {}, path: 'p', target: 'cobol' });\n",
    )
    .expect("write");
    let wrong = Command::new(modules.join(".bin/tsc"))
        .args([
            "--strict",
            "--noEmit",
            "--module",
            "nodenext",
            "--moduleResolution",
            "nodenext",
            "consumer.ts",
        ])
        .current_dir(project.path())
        .output()
        .expect("run tsc");
    assert!(!wrong.status.success(), "an unknown target type-checks");
}

/// The package as the release makes it (release.yml's `Pack @agentc/wasm`
/// step, run as written in a checkout holding the built package) and as a
/// user gets it: the tarball installed by npm into a new project, imported
/// by name, and run.
#[test]
#[cfg(unix)]
#[ignore = "needs node, npm, a Python with PyYAML and the built package: wasm/build (CI runs it)"]
fn the_released_tarball_installs_and_runs() {
    let dir = match package() {
        Ok(dir) => dir,
        Err(reason) => return common::unavailable("AGENTC_REQUIRE_WASM", &reason),
    };
    if !common::packaging::has("npm") {
        return common::unavailable("AGENTC_REQUIRE_WASM", "npm is not installed");
    }
    let Some(workflow) =
        common::packaging::yaml_as_json(&root().join(".github/workflows/release.yml"))
    else {
        return common::unavailable("AGENTC_REQUIRE_WASM", "no Python with PyYAML");
    };
    let step = workflow["jobs"]["browser"]["steps"]
        .as_array()
        .expect("the browser job's steps")
        .iter()
        .find(|s| s["name"] == "Pack @agentc/wasm")
        .expect("release.yml packs @agentc/wasm")["run"]
        .as_str()
        .expect("a run step")
        .to_string();
    let checkout_folder = common::scratch("wasm-release");
    let checkout = checkout_folder.path();
    std::fs::create_dir_all(checkout.join("target")).expect("make target/");
    std::os::unix::fs::symlink(&dir, checkout.join("target/wasm-pkg")).expect("link the package");
    let packed = Command::new("bash")
        .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", &step])
        .current_dir(checkout)
        .env("npm_config_update_notifier", "false")
        .output()
        .expect("bash");
    assert!(
        packed.status.success(),
        "`{step}`:\n{}",
        String::from_utf8_lossy(&packed.stderr)
    );
    let version = env!("CARGO_PKG_VERSION");
    let tarball = checkout.join(format!("dist/npm/agentc-wasm-{version}.tgz"));
    assert!(tarball.is_file(), "the step wrote no {}", tarball.display());

    let project = checkout.join("project");
    std::fs::create_dir_all(&project).expect("make the project");
    std::fs::write(
        project.join("package.json"),
        r#"{"name": "uses-agentc", "private": true, "type": "module"}"#,
    )
    .expect("write package.json");
    let installed = Command::new("npm")
        .args(["install", "--no-audit", "--no-fund", "--offline"])
        .arg(&tarball)
        .current_dir(&project)
        .env("npm_config_update_notifier", "false")
        .output()
        .expect("npm install");
    assert!(
        installed.status.success(),
        "npm install {}:\n{}",
        tarball.display(),
        String::from_utf8_lossy(&installed.stderr)
    );
    let script = "import { load, check, emit, about } from '@agentc/wasm';\n\
        await load();\n\
        const files = { 'types.yaml': 'types:\\n  Order:\\n    id:\\n      type: strng\\n' };\n\
        const found = check({ files, paths: ['types.yaml'] }).diagnostics.map((d) => d.code);\n\
        files['types.yaml'] = files['types.yaml'].replace('strng', 'string');\n\
        const schema = emit({ files, path: 'types.yaml', target: 'json-schema' }).output;\n\
        console.log(JSON.stringify({ version: about().version, found, keys: Object.keys(schema) }));\n";
    std::fs::write(project.join("use.mjs"), script).expect("write use.mjs");
    let ran = Command::new("node")
        .arg("use.mjs")
        .current_dir(&project)
        .output()
        .expect("node");
    let out = String::from_utf8_lossy(&ran.stdout);
    assert!(
        ran.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&ran.stderr)
    );
    assert!(
        out.contains(&format!("\"version\":\"{version}\"")) && out.contains("\"unknown-type\""),
        "{out}"
    );
}

/// `wasm/build` and `playground/build` empty their output folder first, so
/// they refuse one they did not make: a folder holding someone's file, or
/// a file, is left as it was, with exit code 2, before anything is built.
#[test]
fn the_builds_refuse_an_out_folder_they_did_not_make() {
    for script in ["wasm/build", "playground/build"] {
        let dir = common::scratch("build-out");
        let folder = dir.path().join("folder");
        std::fs::create_dir(&folder).expect("a folder");
        std::fs::write(folder.join("notes.txt"), "mine").expect("a file in it");
        let file = dir.path().join("file");
        std::fs::write(&file, "mine too").expect("a file");
        for out in [&folder, &file] {
            let output = Command::new("bash")
                .arg(root().join(script))
                .arg(out)
                .output()
                .expect("bash runs");
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(
                output.status.code(),
                Some(2),
                "{script} {}: {stderr}",
                out.display()
            );
            assert!(stderr.contains("was not made by"), "{script}: {stderr}");
        }
        assert_eq!(
            std::fs::read_to_string(folder.join("notes.txt"))
                .ok()
                .as_deref(),
            Some("mine")
        );
        assert_eq!(
            std::fs::read_to_string(&file).ok().as_deref(),
            Some("mine too")
        );
    }
}
