//! The README's CI snippets work as written: the GitHub Actions job and the
//! GitLab CI job pass their platform's schema (check-jsonschema's vendored
//! SchemaStore copies, offline), `.pre-commit-hooks.yaml` and the README's
//! two `.pre-commit-config.yaml` pass pre-commit's own validation, and every
//! `agentc` command in them runs on a real protocol and exits 0.
//!
//! The tools come from `AGENTC_CI_TOOLS_BIN` (a folder holding
//! `check-jsonschema` and `pre-commit`, pinned in
//! tests/ci_snippets/requirements.txt; `.ci/run` installs them), so the
//! test of the schemas is `#[ignore]`d, and `.ci/run` runs it (`cargo test
//! -- --include-ignored`). Run so without them, it says why and returns,
//! unless `AGENTC_REQUIRE_CI_TOOLS=1`.

mod common;

use common::root;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The fenced block after `<!-- snippet: NAME -->` in the README.
fn snippet(readme: &str, name: &str) -> String {
    common::snippet("README.md", readme, name)
}

fn tools() -> Option<PathBuf> {
    let dir = std::env::var_os("AGENTC_CI_TOOLS_BIN").map(PathBuf::from);
    if dir.is_none() {
        common::unavailable(
            "AGENTC_REQUIRE_CI_TOOLS",
            "AGENTC_CI_TOOLS_BIN is not set (a folder with check-jsonschema and pre-commit, \
             from tests/ci_snippets/requirements.txt; .ci/run sets it)",
        );
    }
    dir
}

fn run(command: &mut Command) -> String {
    let output = command.output().expect("run the tool");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "{command:?} failed:\n{text}");
    text
}

fn scratch(name: &str) -> tempfile::TempDir {
    common::scratch(&format!("snippets-{name}"))
}

#[test]
#[ignore = "needs check-jsonschema and pre-commit: AGENTC_CI_TOOLS_BIN, a venv of tests/ci_snippets/requirements.txt (CI runs it)"]
fn ci_snippets_pass_their_platforms_schemas() {
    let Some(bin) = tools() else { return };
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let dir_folder = scratch("schemas");
    let dir = dir_folder.path();
    for (name, schema, file) in [
        ("github-actions", "vendor.github-workflows", "agentc.yml"),
        ("gitlab-ci", "vendor.gitlab-ci", ".gitlab-ci.yml"),
    ] {
        let path = dir.join(file);
        std::fs::write(&path, snippet(&readme, name)).expect("write snippet");
        run(Command::new(bin.join("check-jsonschema"))
            .args(["--builtin-schema", schema])
            .arg(&path));
    }
    for name in ["pre-commit", "pre-commit-mirror"] {
        let config = dir.join(".pre-commit-config.yaml");
        std::fs::write(&config, snippet(&readme, name)).expect("write snippet");
        run(Command::new(bin.join("pre-commit"))
            .arg("validate-config")
            .arg(&config));
    }
    run(Command::new(bin.join("pre-commit"))
        .arg("validate-manifest")
        .arg(root().join(".pre-commit-hooks.yaml")));
}

/// The `agentc` command lines of the snippets (from `run:`, `script:` and
/// `entry:`), and of the hook manifest.
fn commands(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let line = line.trim().trim_start_matches("- ");
            let line = ["run: ", "entry: ", ""]
                .iter()
                .find_map(|key| line.strip_prefix(key))?;
            line.starts_with("agentc ").then(|| line.to_string())
        })
        .collect()
}

#[test]
fn every_agentc_command_in_the_snippets_runs() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let hooks = std::fs::read_to_string(root().join(".pre-commit-hooks.yaml")).expect("hooks");
    let mut lines = commands(&hooks);
    for name in ["github-actions", "gitlab-ci", "pre-commit"] {
        lines.extend(commands(&snippet(&readme, name)));
    }
    assert!(lines.len() >= 4, "{lines:?}");
    // A project with a clean agent folder, as the snippets expect.
    let dir_folder = scratch("commands");
    let dir = dir_folder.path();
    let agent = root().join("protocols/support-desk");
    common::copy_dir(&agent, &dir.join("agents/support-desk"));
    let bin = Path::new(env!("CARGO_BIN_EXE_agentc"))
        .parent()
        .expect("the binary's folder");
    let path = std::env::join_paths(std::iter::once(bin.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .expect("PATH");
    for line in &lines {
        let output = Command::new("sh")
            .args(["-c", line])
            .current_dir(dir)
            .env("PATH", &path)
            .output()
            .expect("run sh");
        assert!(
            output.status.success(),
            "`{line}` failed:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}
