//! The release's scripts (`packaging/release/release.py`, which
//! `.github/workflows/release.yml` calls) do what the workflow relies on,
//! and every file that carries the version carries Cargo.toml's.
//!
//! Most need Python 3.11 or later as `python3` (or `$PYTHON`), which a
//! fresh clone may not have, so they are `#[ignore]`d; `.ci/run` runs them
//! (`cargo test -- --include-ignored`). Run so without it, they say why and
//! return, unless `AGENTC_REQUIRE_PACKAGING=1`.

mod common;

use common::root;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn python() -> Option<String> {
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string());
    let works = Command::new(&python)
        .args(["-c", "import sys, tomllib; sys.exit(0)"])
        .output()
        .is_ok_and(|o| o.status.success());
    if works {
        return Some(python);
    }
    common::packaging::skip(&format!(
        "`{python}` is not Python 3.11 or later (release.py needs tomllib)"
    ));
    None
}

/// Runs release.py from the repository `at` (a copy, for the tests that write).
fn release(python: &str, at: &Path, args: &[&str]) -> Output {
    Command::new(python)
        .arg(at.join("packaging/release/release.py"))
        .args(args)
        .output()
        .expect("run release.py")
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn scratch(name: &str) -> tempfile::TempDir {
    common::scratch(&format!("release-{name}"))
}

fn cargo_version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// The files `release.py versions` reads, copied into a scratch repository.
fn copy_of_the_version_files(name: &str) -> tempfile::TempDir {
    let folder = scratch(name);
    let dir = folder.path();
    for file in [
        "Cargo.toml",
        "Cargo.lock",
        "pyproject.toml",
        "action.yml",
        "packaging/platforms.json",
        "packaging/release/release.py",
        "packaging/npm/cli/package.json",
        "packaging/pre-commit/pyproject.toml",
        "wasm/Cargo.toml",
        "wasm/package/package.json",
        "editors/vscode/package.json",
        "editors/vscode/package-lock.json",
        "README.md",
        "docs/install.md",
        "docs/diff.md",
        "docs/gen.md",
        "packaging/pypi/README.md",
        "packaging/pre-commit/README.md",
    ] {
        let to = dir.join(file);
        std::fs::create_dir_all(to.parent().expect("a folder")).expect("make the folder");
        std::fs::copy(root().join(file), &to).unwrap_or_else(|e| panic!("copy {file}: {e}"));
    }
    folder
}

#[test]
#[ignore = "needs Python 3.11 or later as python3 or $PYTHON (CI runs it)"]
fn every_file_that_carries_the_version_carries_cargos() {
    let Some(python) = python() else { return };
    let output = release(&python, root(), &["versions"]);
    assert!(output.status.success(), "{}", text(&output));
    let listed = text(&output);
    for file in [
        "Cargo.lock",
        "packaging/npm/cli/package.json",
        "editors/vscode/package.json",
        "editors/vscode/package-lock.json",
        "packaging/pre-commit/pyproject.toml",
        "action.yml",
        "pyproject.toml",
    ] {
        assert!(
            listed.contains(&format!("{file}: ")),
            "{file} not read:\n{listed}"
        );
    }
    assert!(listed.starts_with(&format!("Cargo.toml: {}\n", cargo_version())));
}

#[test]
#[ignore = "needs Python 3.11 or later as python3 or $PYTHON (CI runs it)"]
fn a_file_that_disagrees_is_named() {
    let Some(python) = python() else { return };
    let dir_folder = copy_of_the_version_files("disagree");
    let dir = dir_folder.path();
    let file = dir.join("editors/vscode/package.json");
    let changed = std::fs::read_to_string(&file).expect("read").replacen(
        &format!("\"version\": \"{}\"", cargo_version()),
        "\"version\": \"9.9.9\"",
        1,
    );
    std::fs::write(&file, changed).expect("write");
    let output = release(&python, dir, &["versions"]);
    assert!(!output.status.success(), "{}", text(&output));
    assert!(
        text(&output).contains("these disagree with Cargo.toml's version")
            && text(&output).contains("editors/vscode/package.json"),
        "{}",
        text(&output)
    );
}

#[test]
#[ignore = "needs Python 3.11 or later as python3 or $PYTHON (CI runs it)"]
fn set_version_writes_every_file_and_nothing_else() {
    let Some(python) = python() else { return };
    let dir_folder = copy_of_the_version_files("set-version");
    let dir = dir_folder.path();
    let before: Vec<(PathBuf, String)> = walk(dir)
        .into_iter()
        .map(|p| {
            let t = std::fs::read_to_string(&p).expect("read");
            (p, t)
        })
        .collect();
    let output = release(&python, dir, &["set-version", "1.2.3-rc.1"]);
    assert!(output.status.success(), "{}", text(&output));
    // Every file `versions` reads now says the new version, and only it.
    let listed = String::from_utf8_lossy(&output.stdout).into_owned();
    let mut files = 0;
    for line in listed.lines() {
        let (file, versions) = line.split_once(": ").expect("FILE: VERSIONS");
        if file == "pyproject.toml" {
            continue;
        }
        files += 1;
        for version in versions.split(", ") {
            assert_eq!(version, "1.2.3-rc.1", "{file}: {listed}");
        }
    }
    assert_eq!(files, 15, "{listed}");
    for (path, old) in before {
        let new = std::fs::read_to_string(&path).expect("read");
        let name = path.strip_prefix(dir).expect("inside").to_string_lossy();
        if name.ends_with("release.py")
            || name.ends_with("platforms.json")
            || name == "pyproject.toml"
        {
            assert_eq!(old, new, "{name} changed");
            continue;
        }
        // Only the version changed: the same text with the old version put back.
        assert_ne!(old, new, "{name} did not change");
        let restored = new.replace("1.2.3-rc.1", cargo_version());
        if name.ends_with("package-lock.json") || name.ends_with("package.json") {
            // Rewritten as npm writes JSON; the data is the same but for the version.
            let a: serde_json::Value = serde_json::from_str(&old).expect("json");
            let b: serde_json::Value = serde_json::from_str(&restored).expect("json");
            assert_eq!(a, b, "{name}");
            assert_eq!(old, restored, "{name}: not in npm's own layout");
        } else {
            assert_eq!(old, restored, "{name}");
        }
    }
    let output = release(&python, dir, &["set-version", "next"]);
    assert!(!output.status.success(), "{}", text(&output));
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).expect("list") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

#[test]
#[ignore = "needs Python 3.11 or later as python3 or $PYTHON (CI runs it)"]
fn the_plan_is_platforms_json_and_refuses_a_wrong_tag() {
    let Some(python) = python() else { return };
    let output = release(
        &python,
        root(),
        &["plan", "--tag", &format!("v{}", cargo_version())],
    );
    assert!(output.status.success(), "{}", text(&output));
    let stdout = String::from_utf8(output.stdout).expect("utf-8");
    let mut lines = stdout.lines();
    assert_eq!(
        lines.next(),
        Some(format!("version={}", cargo_version()).as_str())
    );
    let matrix = lines
        .next()
        .and_then(|l| l.strip_prefix("matrix="))
        .expect("a matrix");
    let matrix: serde_json::Value = serde_json::from_str(matrix).expect("json");
    let platforms: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("packaging/platforms.json")).expect("read"),
    )
    .expect("json");
    assert_eq!(matrix["include"], platforms["platforms"]);
    // Every platform the issue names is built.
    let targets: Vec<&str> = platforms["platforms"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|row| row["target"].as_str().expect("a target"))
        .collect();
    for target in [
        "x86_64-unknown-linux-gnu",
        "aarch64-unknown-linux-gnu",
        "x86_64-unknown-linux-musl",
        "aarch64-unknown-linux-musl",
        "x86_64-apple-darwin",
        "aarch64-apple-darwin",
        "x86_64-pc-windows-msvc",
    ] {
        assert!(targets.contains(&target), "{target} is not built");
    }

    let output = release(&python, root(), &["plan", "--tag", "v0.0.0-not-this"]);
    assert!(!output.status.success());
    assert!(
        text(&output).contains("the tag v0.0.0-not-this is not v"),
        "{}",
        text(&output)
    );
}

#[test]
#[ignore = "needs Python 3.11 or later as python3 or $PYTHON (CI runs it)"]
fn archives_are_byte_identical_and_hold_the_binary_and_licences() {
    let Some(python) = python() else { return };
    let dist_folder = scratch("archive");
    let dist = dist_folder.path();
    // Stand-ins: the archive's bytes are what is tested, and the debug
    // binary would take most of a minute to compress.
    for (target, name, body) in [
        (
            "x86_64-unknown-linux-gnu",
            "agentc",
            "#!/bin/sh\necho \"stand-in $*\"\n",
        ),
        ("x86_64-pc-windows-msvc", "agentc.exe", "MZ stand-in"),
    ] {
        let folder = dist.join("bin").join(target);
        std::fs::create_dir_all(&folder).expect("folder");
        std::fs::write(folder.join(name), body).expect("write the stand-in");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let executable = std::fs::Permissions::from_mode(0o755);
            std::fs::set_permissions(folder.join(name), executable).expect("chmod");
        }
    }
    let mut sums = Vec::new();
    for round in 0..2 {
        for target in ["x86_64-unknown-linux-gnu", "x86_64-pc-windows-msvc"] {
            let output = release(
                &python,
                root(),
                &["archive", target, dist.to_str().expect("utf-8")],
            );
            assert!(output.status.success(), "{}", text(&output));
        }
        let output = release(
            &python,
            root(),
            &["checksums", dist.join("archives").to_str().expect("utf-8")],
        );
        assert!(output.status.success(), "{}", text(&output));
        let sum = std::fs::read_to_string(dist.join("archives/SHA256SUMS")).expect("sums");
        if round == 1 {
            assert_eq!(sums[0], sum, "a second run wrote other bytes");
        }
        sums.push(sum);
    }
    let version = cargo_version();
    let stem = format!("agentc-{version}-x86_64-unknown-linux-gnu");
    // sha256sum reads the file as written.
    let check = Command::new("sha256sum")
        .args(["--check", "SHA256SUMS"])
        .current_dir(dist.join("archives"))
        .output();
    if let Ok(check) = check {
        assert!(check.status.success(), "{}", text(&check));
        assert!(
            text(&check).contains(&format!("{stem}.tar.gz: OK")),
            "{}",
            text(&check)
        );
    }
    // The tarball unpacks to a runnable binary beside the README and licences.
    let unpack = dist.join("unpacked");
    std::fs::create_dir_all(&unpack).expect("folder");
    let tar = Command::new("tar")
        .arg("-xzf")
        .arg(dist.join(format!("archives/{stem}.tar.gz")))
        .arg("-C")
        .arg(&unpack)
        .output()
        .expect("tar");
    assert!(tar.status.success(), "{}", text(&tar));
    for file in ["agentc", "README.md", "LICENSE-MIT", "LICENSE-APACHE"] {
        assert!(
            unpack.join(&stem).join(file).is_file(),
            "{file} is not in the archive"
        );
    }
    let ran = Command::new(unpack.join(&stem).join("agentc"))
        .arg("--version")
        .output()
        .expect("run the unpacked binary");
    assert_eq!(String::from_utf8_lossy(&ran.stdout), "stand-in --version\n");
    // The Windows archive is a zip with agentc.exe.
    let zip = std::fs::read(dist.join(format!(
        "archives/agentc-{version}-x86_64-pc-windows-msvc.zip"
    )))
    .expect("the zip");
    assert!(zip.starts_with(b"PK\x03\x04"));
    let name = format!("agentc-{version}-x86_64-pc-windows-msvc/agentc.exe");
    assert!(
        zip.windows(name.len()).any(|w| w == name.as_bytes()),
        "no {name}"
    );

    // A binary that was not built is a clear error.
    let output = release(
        &python,
        root(),
        &[
            "archive",
            "aarch64-apple-darwin",
            dist.to_str().expect("utf-8"),
        ],
    );
    assert!(!output.status.success());
    assert!(
        text(&output).contains("build it first"),
        "{}",
        text(&output)
    );
}

/// The scripts the release workflow names, with the interpreter it runs them with.
fn scripts_the_workflow_calls(workflow: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let commands = workflow
        .lines()
        .filter(|line| !line.trim_start().starts_with('#'));
    let words = commands.flat_map(|line| {
        line.split(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == '"')
            .map(str::to_string)
            .collect::<Vec<_>>()
    });
    for word in words {
        let word = word.trim_end_matches([';', ',', '.']);
        if ["packaging/", "editors/", "wasm/", "playground/"]
            .iter()
            .any(|folder| word.starts_with(folder))
            && !word.contains('$')
            && !word.ends_with('/')
            && !found.iter().any(|f| f == word)
        {
            found.push(word.to_string());
        }
    }
    found
}

#[test]
fn the_release_workflow_calls_only_scripts_that_exist() {
    let workflow =
        std::fs::read_to_string(root().join(".github/workflows/release.yml")).expect("read");
    let scripts = scripts_the_workflow_calls(&workflow);
    for script in [
        "packaging/release/release.py",
        "packaging/build",
        "packaging/npm/pack",
        "packaging/requirements.txt",
        "editors/vscode/install",
        "playground/build",
    ] {
        assert!(
            scripts.iter().any(|s| s == script),
            "the workflow no longer calls {script}: {scripts:?}"
        );
    }
    for script in &scripts {
        let path = root().join(script);
        if path.is_dir() {
            continue; // the folder of a `cd`
        }
        assert!(
            path.is_file(),
            "release.yml calls {script}, which does not exist"
        );
        if !script.ends_with(".txt") && !script.ends_with(".py") && script != "packaging/npm/pack" {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let mode = path.metadata().expect("metadata").permissions().mode();
                assert!(mode & 0o111 != 0, "{script} is not executable");
            }
        }
    }
    // Every platform is built from the plan, never from a list written here.
    assert!(workflow.contains("matrix: ${{ fromJSON(needs.plan.outputs.matrix) }}"));
    for row in [
        "x86_64-unknown-linux-gnu",
        "aarch64-apple-darwin",
        "windows-2022",
    ] {
        assert!(
            !workflow.contains(row),
            "release.yml names {row}: read it from the plan"
        );
    }
}

#[test]
#[ignore = "needs check-jsonschema: AGENTC_CI_TOOLS_BIN, a venv of tests/ci_snippets/requirements.txt (CI runs it)"]
fn the_release_workflow_passes_github_s_schema() {
    common::packaging::passes_schemastore(
        "vendor.github-workflows",
        &root().join(".github/workflows/release.yml"),
    );
}

#[test]
#[ignore = "needs Python 3.11 or later as python3 or $PYTHON (CI runs it)"]
fn the_pre_commit_mirror_is_committed_and_tagged() {
    let Some(python) = python() else { return };
    let checkout_folder = scratch("mirror");
    let checkout = checkout_folder.path();
    let git = |args: &[&str]| {
        let output = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .arg("-C")
            .arg(checkout)
            .args(args)
            .output()
            .expect("git");
        assert!(output.status.success(), "git {args:?}: {}", text(&output));
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    git(&["init", "--quiet"]);
    std::fs::write(checkout.join("stale.txt"), "from an older release").expect("write");
    git(&["add", "--all"]);
    git(&["commit", "--quiet", "--message", "an older release"]);
    let output = release(
        &python,
        root(),
        &["mirror", checkout.to_str().expect("utf-8")],
    );
    assert!(output.status.success(), "{}", text(&output));
    let version = cargo_version();
    assert_eq!(git(&["tag", "--list"]), format!("v{version}\n"));
    assert_eq!(
        git(&["log", "-1", "--format=%s"]),
        format!("agentc-lint {version}\n")
    );
    let files = git(&["ls-files"]);
    assert!(!files.contains("stale.txt"), "{files}");
    assert!(files.contains(".pre-commit-hooks.yaml"), "{files}");
    // The mirror is packaging/pre-commit/, file for file, and the hooks of
    // .pre-commit-hooks.yaml, run from the wheel rather than built.
    for file in files.lines() {
        let theirs = std::fs::read_to_string(checkout.join(file)).expect("theirs");
        if file == ".pre-commit-hooks.yaml" {
            let ours = std::fs::read_to_string(root().join(file)).expect("ours");
            let hook = |text: &str| text[text.find("\n- id:").expect("a hook")..].to_string();
            assert_eq!(
                hook(&theirs),
                hook(&ours).replace("  language: rust\n", "  language: python\n")
            );
            assert!(theirs.contains("  language: python\n"), "{theirs}");
            continue;
        }
        let ours = std::fs::read_to_string(root().join("packaging/pre-commit").join(file))
            .unwrap_or_else(|e| panic!("{file} is not in packaging/pre-commit: {e}"));
        assert_eq!(ours, theirs, "{file}");
    }
}

/// The release's steps that can run here, run as release.yml writes them
/// (bash, the job's `env:`, from a checkout's root): archiving a binary,
/// packing its npm platform package and the main one, and the checksums.
/// A step whose command line no longer fits its script fails here. The
/// build itself (`packaging/build`) runs in CI's own packaging step, and
/// `python` is `python3` here.
#[test]
#[cfg(unix)]
#[ignore = "needs Python 3.11 or later, node, npm and a Python with PyYAML (CI runs it)"]
fn the_release_steps_run_as_written() {
    let Some(python) = python() else { return };
    if !common::packaging::has("node") || !common::packaging::has("npm") {
        return;
    }
    let Some(workflow) =
        common::packaging::yaml_as_json(&root().join(".github/workflows/release.yml"))
    else {
        return;
    };
    let step = |job: &str, name: &str| -> String {
        workflow["jobs"][job]["steps"]
            .as_array()
            .expect("steps")
            .iter()
            .find(|s| s["name"] == name)
            .unwrap_or_else(|| panic!("release.yml's {job} job has no step `{name}`"))["run"]
            .as_str()
            .expect("a run step")
            .to_string()
    };
    // A checkout: the repository's scripts, and a dist/ with one build.
    let checkout_folder = scratch("steps");
    let checkout = checkout_folder.path();
    std::os::unix::fs::symlink(root().join("packaging"), checkout.join("packaging"))
        .expect("link packaging/");
    let target = "x86_64-unknown-linux-gnu";
    let bin = checkout.join("dist/bin").join(target);
    std::fs::create_dir_all(&bin).expect("folder");
    // A stand-in: what the steps do with the binary does not depend on it.
    std::fs::write(bin.join("agentc"), "#!/bin/sh\n").expect("write the stand-in");
    let run_step = |script: String| {
        let output = Command::new("bash")
            .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", &script])
            .current_dir(checkout)
            .env("TARGET", target)
            .env("PYTHON", &python)
            .env("VERSION", cargo_version())
            .env("npm_config_update_notifier", "false")
            .output()
            .expect("bash");
        assert!(
            output.status.success(),
            "`{script}` failed:\n{}",
            text(&output)
        );
    };
    run_step(step("build", "Archive the binary"));
    run_step(step("build", "Pack the npm platform package"));
    run_step(step("packages", "The main npm package"));
    run_step(step("publish", "Checksums").replace("python3", &python));
    let version = cargo_version();
    for file in [
        format!("dist/archives/agentc-{version}-{target}.tar.gz"),
        "dist/archives/SHA256SUMS".to_string(),
        format!("dist/npm/agentc-cli-linux-x64-{version}.tgz"),
        format!("dist/npm/agentc-cli-{version}.tgz"),
    ] {
        assert!(
            checkout.join(&file).is_file(),
            "the steps did not write {file}"
        );
    }
}
