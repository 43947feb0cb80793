//! The PyPI distribution `agentc-lint`, installed for real: the wheels
//! `packaging/build` made in CI (under `AGENTC_DIST_DIR`) go into a fresh
//! venv with pip, and the `agentc` there checks a protocol and serves MCP
//! (`agentc mcp`, what `uvx --from agentc-lint agentc mcp` starts); the pre-commit
//! mirror that `release.py mirror` publishes runs with pre-commit and
//! installs the local wheel; the sdist holds what a source build needs.
//!
//! Needs `AGENTC_DIST_DIR` (the wheels), Python 3 with venv, and for the
//! mirror `$AGENTC_CI_TOOLS_BIN/pre-commit`, for the sdist
//! `$AGENTC_PACKAGING_BIN/maturin`, which a fresh clone has not, so the
//! tests are `#[ignore]`d; `.ci/run` runs them (`cargo test --
//! --include-ignored`). Run so without them, each says why and returns,
//! unless `AGENTC_REQUIRE_PACKAGING=1`.

mod common;

use common::packaging::{dist, elf_machine, elf_needs_interpreter, run, scratch, skip, text};
use common::root;
use std::path::PathBuf;
use std::process::Command;

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The wheel CI built for `arch` (x86_64, aarch64).
fn wheel(arch: &str) -> Option<PathBuf> {
    let Some(dist) = dist() else {
        skip("AGENTC_DIST_DIR is not set (packaging/build fills it; .ci/run sets it)");
        return None;
    };
    let found = std::fs::read_dir(dist.join("wheels"))
        .ok()
        .into_iter()
        .flatten()
        .map(|e| e.expect("entry").path())
        .find(|p| {
            let name = p
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            name.starts_with(&format!("agentc_lint-{VERSION}-py3-none-"))
                && name.ends_with(&format!("musllinux_1_2_{arch}.whl"))
        });
    if found.is_none() {
        skip(&format!(
            "AGENTC_DIST_DIR has no {arch} musl wheel of agentc-lint {VERSION}"
        ));
    }
    found
}

fn python() -> String {
    std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string())
}

fn venv(name: &str) -> tempfile::TempDir {
    let dir = scratch(name);
    run(Command::new(python()).args(["-m", "venv"]).arg(dir.path()));
    dir
}

#[test]
#[ignore = "needs python3 and CI's wheels: packaging/build into AGENTC_DIST_DIR (CI runs it)"]
fn the_wheel_installs_with_pip_and_runs_agentc() {
    let Some(wheel) = wheel("x86_64") else { return };
    let name = wheel
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    // One static binary serves every Linux: both tags on one wheel.
    for tag in [
        "manylinux2014_x86_64",
        "manylinux_2_17_x86_64",
        "musllinux_1_2_x86_64",
    ] {
        assert!(name.contains(tag), "{name} lacks {tag}");
    }
    let members = common::packaging::zip_names(&wheel);
    let script = format!("agentc_lint-{VERSION}.data/scripts/agentc");
    assert!(members.contains(&script), "{members:?}");
    assert!(
        members
            .iter()
            .all(|m| m == &script || m.starts_with(&format!("agentc_lint-{VERSION}.dist-info/"))),
        "the wheel holds more than the binary and its metadata: {members:?}"
    );

    let env_folder = venv("pypi-venv");
    let env = env_folder.path();
    run(Command::new(env.join("bin/pip"))
        .args([
            "install",
            "--quiet",
            "--no-index",
            "--disable-pip-version-check",
        ])
        .arg(&wheel));
    let agentc = env.join("bin/agentc");
    assert!(
        !elf_needs_interpreter(&agentc),
        "the installed agentc is not static"
    );
    let version = run(Command::new(&agentc).arg("--version"));
    assert_eq!(version, format!("agentc {VERSION}\n"));
    let clean = Command::new(&agentc)
        .args(["check", "protocols/shop-assistant"])
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .expect("run agentc");
    assert_eq!(clean.status.code(), Some(0), "{}", text(&clean));
    assert!(
        text(&clean).contains("checked 7 files: no problems"),
        "{}",
        text(&clean)
    );
    let broken = Command::new(&agentc)
        .args([
            "check",
            "--format",
            "short",
            "protocols/invalid/unknown-type.yaml",
        ])
        .current_dir(root())
        .output()
        .expect("run agentc");
    assert_eq!(broken.status.code(), Some(1), "{}", text(&broken));
    assert!(
        text(&broken).contains("error[unknown-type]"),
        "{}",
        text(&broken)
    );

    // The MCP server as `uvx --from agentc-lint agentc mcp` starts it: the
    // wheel's entry point with `mcp` (uvx installs the same wheel into a
    // venv of its own; uv itself is not run here). It answers
    // `initialize` as agentc and exits when its input closes.
    let mut mcp = Command::new(&agentc);
    mcp.arg("mcp").current_dir(root());
    common::mcp_stdio::answers_initialize(mcp);
}

#[test]
#[ignore = "needs python3, CI's aarch64 wheel (packaging/build into AGENTC_DIST_DIR) and qemu-aarch64 (CI runs it)"]
fn the_aarch64_wheel_holds_a_static_aarch64_binary() {
    let Some(wheel) = wheel("aarch64") else {
        return;
    };
    let name = wheel
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    for tag in ["manylinux2014_aarch64", "musllinux_1_2_aarch64"] {
        assert!(name.contains(tag), "{name} lacks {tag}");
    }
    let out_folder = scratch("pypi-arm");
    let out = out_folder.path();
    run(Command::new(python())
        .args([
            "-c",
            "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])",
        ])
        .arg(&wheel)
        .arg(out));
    let binary = out.join(format!("agentc_lint-{VERSION}.data/scripts/agentc"));
    assert_eq!(elf_machine(&binary), 183, "not an aarch64 binary");
    assert!(!elf_needs_interpreter(&binary), "not static");
    if !common::packaging::qemu_aarch64() {
        return;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    let ran = Command::new("qemu-aarch64")
        .arg(&binary)
        .args(["check", "protocols/shop-assistant"])
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .expect("run under qemu");
    assert_eq!(ran.status.code(), Some(0), "{}", text(&ran));
    assert!(
        text(&ran).contains("checked 7 files: no problems"),
        "{}",
        text(&ran)
    );
}

/// ruff-pre-commit's pattern, run for real: the mirror repository that the
/// release writes (`release.py mirror`), used by pre-commit, installs the
/// agentc-lint wheel (from `AGENTC_DIST_DIR`, by `PIP_FIND_LINKS`), passes
/// a clean agent and fails a broken one, showing the problem.
#[test]
#[ignore = "needs CI's wheels and pre-commit: packaging/build into AGENTC_DIST_DIR, AGENTC_CI_TOOLS_BIN (CI runs it)"]
fn the_pre_commit_mirror_runs_the_wheel() {
    let Some(wheel) = wheel("x86_64") else { return };
    let Some(tools) = std::env::var_os("AGENTC_CI_TOOLS_BIN").map(PathBuf::from) else {
        common::unavailable(
            "AGENTC_REQUIRE_CI_TOOLS",
            "AGENTC_CI_TOOLS_BIN is not set (a folder with pre-commit; see .ci/run)",
        );
        return;
    };
    let mirror_folder = scratch("pre-commit-mirror");
    let mirror = mirror_folder.path();
    run(Command::new("git").args(["init", "--quiet"]).arg(mirror));
    run(Command::new(python())
        .arg(root().join("packaging/release/release.py"))
        .arg("mirror")
        .arg(mirror));

    let project_folder = scratch("pre-commit-project");
    let project = project_folder.path();
    let git = |args: &[&str]| {
        run(Command::new("git")
            .args(["-c", "user.name=ci", "-c", "user.email=ci@example.com"])
            .args(args)
            .current_dir(project))
    };
    git(&["init", "--quiet"]);
    common::copy_dir(
        &root().join("protocols/support-desk"),
        &project.join("agents/support"),
    );
    git(&["add", "--all"]);
    git(&["commit", "--quiet", "--message", "a clean agent"]);
    let home_folder = scratch("pre-commit-home");
    let home = home_folder.path();
    let try_repo = || {
        Command::new(tools.join("pre-commit"))
            .arg("try-repo")
            .arg(mirror)
            .args(["agentc-check", "--all-files"])
            .current_dir(project)
            .env("PRE_COMMIT_HOME", home)
            .env("PIP_FIND_LINKS", wheel.parent().expect("the wheels folder"))
            .env("PIP_DISABLE_PIP_VERSION_CHECK", "1")
            .env("NO_COLOR", "1")
            .output()
            .expect("run pre-commit")
    };
    let clean = try_repo();
    assert!(clean.status.success(), "{}", text(&clean));
    assert!(
        text(&clean)
            .lines()
            .any(|l| l.starts_with("agentc check.") && l.ends_with("Passed")),
        "{}",
        text(&clean)
    );
    std::fs::create_dir_all(project.join("agents/broken")).expect("folder");
    std::fs::write(
        project.join("agents/broken/protocol.yaml"),
        "types:\n  Ticket:\n    status: { type: Staus }\n",
    )
    .expect("write");
    git(&["add", "--all"]);
    let broken = try_repo();
    assert!(!broken.status.success(), "{}", text(&broken));
    assert!(
        text(&broken).contains("agents/broken/protocol.yaml:3:21: error[unknown-type]"),
        "{}",
        text(&broken)
    );
    // pre-commit could only set the hook up by installing agentc-lint, and
    // until a release publishes it, the one agentc-lint pip can find is the
    // local wheel (PIP_FIND_LINKS).
}

/// `pip install` from the sdist builds agentc from source: the sdist must
/// hold everything that build reads. Checked with `cargo check --locked
/// --offline` in the unpacked sdist (the same sources cargo builds).
#[test]
#[ignore = "needs maturin: AGENTC_PACKAGING_BIN, a venv of packaging/requirements.txt (CI runs it)"]
fn the_sdist_holds_what_a_source_build_needs() {
    let Some(bin) = std::env::var_os("AGENTC_PACKAGING_BIN").map(PathBuf::from) else {
        skip("AGENTC_PACKAGING_BIN is not set (a folder with maturin; see .ci/run)");
        return;
    };
    let out_folder = scratch("sdist");
    let out = out_folder.path();
    run(Command::new(bin.join("maturin"))
        .args(["sdist", "--out"])
        .arg(out)
        .current_dir(root()));
    let sdist = out.join(format!("agentc_lint-{VERSION}.tar.gz"));
    assert!(sdist.is_file(), "no {}", sdist.display());
    run(Command::new("tar")
        .arg("-xzf")
        .arg(&sdist)
        .arg("-C")
        .arg(out));
    let unpacked = out.join(format!("agentc_lint-{VERSION}"));
    for absent in ["tests", "protocols", "snapshots", "fuzz"] {
        assert!(!unpacked.join(absent).exists(), "the sdist holds {absent}/");
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target"))
        .join("sdist-check");
    let checked = Command::new(env!("CARGO"))
        .args(["check", "--locked", "--offline", "--quiet", "--target-dir"])
        .arg(&target)
        .current_dir(&unpacked)
        .output()
        .expect("run cargo");
    assert!(
        checked.status.success(),
        "the sdist does not build:\n{}",
        text(&checked)
    );
}
