//! The GitHub Action (`action.yml`), run the way a runner runs a composite
//! action: each step's `run:` in bash with its `env:`, `${{ inputs.* }}`
//! filled from the inputs and their defaults, `GITHUB_ACTION_PATH`,
//! `RUNNER_TEMP` and `GITHUB_PATH` set, and what a step adds to
//! `GITHUB_PATH` on the PATH of the next. agentc is installed from the npm
//! tarballs `packaging/npm/pack` makes of this build (offline), through the
//! action's `package` input. The test reads the steps from action.yml
//! itself, so the file and the test cannot drift; an expression the test
//! does not know fails it.
//!
//! Needs node, npm, and a Python with PyYAML (`$AGENTC_CI_TOOLS_BIN/python`,
//! pre-commit's venv, or `python3`) to read the YAML, so the tests are
//! `#[ignore]`d: `.ci/run` runs them (`cargo test -- --include-ignored`).
//! Run so without them, they say why and return, unless
//! `AGENTC_REQUIRE_PACKAGING=1` (or, for SchemaStore's check-jsonschema,
//! `AGENTC_REQUIRE_CI_TOOLS=1`).

mod common;

use common::packaging::{has, host, passes_schemastore, run, scratch, skip, text, yaml_as_json};
use common::root;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

fn action() -> Option<Value> {
    yaml_as_json(&root().join("action.yml"))
}

/// The npm tarballs of this build: the main package and this machine's.
fn tarballs(out: &Path) -> Option<String> {
    let Some(row) = host() else {
        skip("this machine is not one of packaging/platforms.json's platforms");
        return None;
    };
    let pack = |args: &[&str]| {
        let printed = run(Command::new(root().join("packaging/npm/pack")).args(args));
        printed.lines().last().expect("a tarball").to_string()
    };
    let out_str = out.to_str().expect("utf-8");
    let main = pack(&["main", out_str]);
    let platform = pack(&[
        "platform",
        out_str,
        row["target"].as_str().expect("target"),
        env!("CARGO_BIN_EXE_agentc"),
    ]);
    Some(format!("{main} {platform}"))
}

/// `${{ inputs.NAME }}` replaced; any other expression is a test failure.
fn expand(text: &str, inputs: &BTreeMap<String, String>) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("${{") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find("}}").expect("a closed expression") + start;
        let expression = rest[start + 3..end].trim();
        let name = expression.strip_prefix("inputs.").unwrap_or_else(|| {
            panic!("action.yml uses `{expression}`, which this test does not emulate")
        });
        out.push_str(
            inputs
                .get(name)
                .unwrap_or_else(|| panic!("no input `{name}`")),
        );
        rest = &rest[end + 2..];
    }
    out.push_str(rest);
    out
}

struct Run {
    steps: Vec<Output>,
}

impl Run {
    fn last(&self) -> &Output {
        self.steps.last().expect("a step ran")
    }
    fn code(&self) -> Option<i32> {
        self.last().status.code()
    }
    fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.last().stdout).into_owned()
    }
}

/// Runs the action in `workspace` with `with` (the workflow's `with:`),
/// stopping at the first failing step, as a runner does.
fn run_action(action: &Value, workspace: &Path, with: &[(&str, &str)]) -> Run {
    let mut inputs: BTreeMap<String, String> = BTreeMap::new();
    for (name, input) in action["inputs"].as_object().expect("inputs") {
        let default = input["default"].as_str().unwrap_or("").to_string();
        inputs.insert(name.clone(), default);
    }
    for (name, value) in with {
        assert!(
            inputs.contains_key(*name),
            "action.yml has no input `{name}`"
        );
        inputs.insert((*name).to_string(), (*value).to_string());
    }
    assert_eq!(action["runs"]["using"], "composite");
    let temp_folder = scratch(&format!(
        "action-runner-{}",
        workspace.file_name().expect("a name").to_string_lossy()
    ));
    let temp = temp_folder.path();
    let github_path = temp.join("github_path");
    std::fs::write(&github_path, "").expect("GITHUB_PATH file");
    let mut path = std::env::var("PATH").unwrap_or_default();
    let mut outputs = Vec::new();
    for step in action["runs"]["steps"].as_array().expect("steps") {
        assert_eq!(step["shell"], "bash", "every step runs in bash");
        let script = step["run"].as_str().expect("a run step");
        let directory = match step["working-directory"].as_str() {
            Some(dir) => workspace.join(expand(dir, &inputs)),
            None => workspace.to_path_buf(),
        };
        let mut command = Command::new("bash");
        command
            .args(["--noprofile", "--norc", "-eo", "pipefail", "-c"])
            .arg(expand(script, &inputs))
            .current_dir(directory)
            .env("PATH", &path)
            .env("GITHUB_ACTION_PATH", root())
            .env("RUNNER_TEMP", temp)
            .env("GITHUB_PATH", &github_path)
            .env("GITHUB_ACTIONS", "true")
            .env("NO_COLOR", "1")
            .env("npm_config_offline", "true")
            .env("npm_config_update_notifier", "false")
            .env_remove("AGENTC_BINARY");
        if let Some(env) = step["env"].as_object() {
            for (name, value) in env {
                command.env(name, expand(value.as_str().expect("a string"), &inputs));
            }
        }
        let output = command.output().expect("run a step");
        let failed = !output.status.success();
        outputs.push(output);
        if failed {
            break;
        }
        // What the step added to GITHUB_PATH goes first on the next PATH.
        let added = std::fs::read_to_string(&github_path).expect("read GITHUB_PATH");
        for line in added.lines().rev() {
            path = format!("{line}:{path}");
        }
        std::fs::write(&github_path, "").expect("reset GITHUB_PATH");
    }
    Run { steps: outputs }
}

fn workspace(name: &str) -> tempfile::TempDir {
    let folder = scratch(&format!("action-{name}"));
    let dir = folder.path();
    common::copy_dir(
        &root().join("protocols/shop-assistant"),
        &dir.join("agents/shop"),
    );
    folder
}

fn write(dir: &Path, file: &str, text: &str) {
    let path = dir.join(file);
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("folder");
    std::fs::write(path, text).expect("write");
}

#[test]
#[ignore = "needs node, npm, bash and a Python with PyYAML: pip install pyyaml (CI runs it)"]
fn the_action_installs_agentc_and_annotates_the_problems() {
    if !(has("node") && has("npm") && has("bash")) {
        return;
    }
    let Some(action) = action() else { return };
    let out_folder = scratch("action-tarballs");
    let out = out_folder.path();
    let Some(package) = tarballs(out) else {
        return;
    };

    // A clean agent: exit 0, no annotations, and agentc on PATH afterwards.
    let clean_folder = workspace("clean");
    let clean = clean_folder.path();
    let ran = run_action(&action, clean, &[("package", &package)]);
    assert_eq!(ran.steps.len(), 2, "{}", text(ran.last()));
    assert_eq!(ran.code(), Some(0), "{}", text(ran.last()));
    assert!(!ran.stdout().contains("::"), "{}", ran.stdout());
    let installed = String::from_utf8_lossy(&ran.steps[0].stdout).into_owned();
    assert!(
        installed.contains(&format!("agentc {}", env!("CARGO_PKG_VERSION"))),
        "{installed}"
    );

    // A broken agent: an error annotation at the problem, exit 1.
    let broken_folder = workspace("broken");
    let broken = broken_folder.path();
    write(
        broken,
        "agents/broken/protocol.yaml",
        "types:\n  Ticket:\n    status: { type: Staus }\n",
    );
    let ran = run_action(&action, broken, &[("package", &package)]);
    assert_eq!(ran.code(), Some(1), "{}", text(ran.last()));
    assert!(
        ran.stdout().contains(
            "::error file=agents/broken/protocol.yaml,line=3,col=21,endLine=3,endColumn=26,title=unknown-type::type `Staus` is not defined"
        ),
        "{}",
        ran.stdout()
    );

    // Warnings: exit 0, or 1 with deny-warnings; an agentc.toml named by
    // `config` turns the code off; deny-warnings must be true or false.
    let warned_folder = workspace("warned");
    let warned = warned_folder.path();
    // The worker example with one property renamed to snake_case.
    common::copy_dir(
        &root().join("protocols/worker"),
        &warned.join("agents/legacy"),
    );
    let protocol = warned.join("agents/legacy/protocol.yaml");
    let text_before = std::fs::read_to_string(&protocol).expect("read");
    let renamed = text_before.replacen("\n    reviewCount:", "\n    review_count:", 1);
    assert_ne!(
        text_before, renamed,
        "the worker example changed; pick another property"
    );
    std::fs::write(&protocol, renamed).expect("write");
    write(
        warned,
        "ci/agentc.toml",
        "[severity]\nproperty-name-case = \"off\"\n",
    );
    let ran = run_action(&action, warned, &[("package", &package)]);
    assert_eq!(ran.code(), Some(0), "{}", text(ran.last()));
    assert!(
        ran.stdout()
            .contains("::warning file=agents/legacy/protocol.yaml,line=21,col=5"),
        "{}",
        ran.stdout()
    );
    let ran = run_action(
        &action,
        warned,
        &[("package", &package), ("deny-warnings", "true")],
    );
    assert_eq!(ran.code(), Some(1), "{}", text(ran.last()));
    let ran = run_action(
        &action,
        warned,
        &[
            ("package", &package),
            ("deny-warnings", "true"),
            ("config", "ci/agentc.toml"),
        ],
    );
    assert_eq!(ran.code(), Some(0), "{}", text(ran.last()));
    assert!(!ran.stdout().contains("::warning"), "{}", ran.stdout());
    let ran = run_action(
        &action,
        warned,
        &[("package", &package), ("deny-warnings", "yes")],
    );
    assert_eq!(ran.code(), Some(2), "{}", text(ran.last()));
    assert!(
        ran.stdout()
            .contains("::error title=agentc::the deny-warnings input must be true or false")
    );

    // `against`: the changes since a revision, annotated in the same step.
    let diffed_folder = workspace("diffed");
    let diffed = diffed_folder.path();
    let git = |args: &[&str]| {
        run(Command::new("git")
            .args([
                "-c",
                "user.name=agentc",
                "-c",
                "user.email=agentc@example.com",
            ])
            .args(["-c", "commit.gpgsign=false"])
            .args(args)
            .current_dir(diffed))
    };
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "the shop assistant"]);
    // A tool the model can now call, which deployed code has no handler for.
    let protocol = diffed.join("agents/shop/protocol.yaml");
    let before = std::fs::read_to_string(&protocol).expect("read");
    let after = before
        .replacen(
            "\ntools:\n",
            "\ntools:\n  cancel-order:\n    description: Cancel an order\n\n",
            1,
        )
        .replacen(
            "  tools: [search-products,",
            "  tools: [cancel-order, search-products,",
            1,
        );
    assert_eq!(
        after.matches("cancel-order").count(),
        2,
        "the shop assistant changed"
    );
    std::fs::write(&protocol, after).expect("write");
    let ran = run_action(
        &action,
        diffed,
        &[("package", &package), ("against", "HEAD")],
    );
    assert_eq!(ran.code(), Some(0), "{}", text(ran.last()));
    assert!(
        ran.stdout().contains(
            "::warning file=agents/shop/protocol.yaml,line=153,col=3,endLine=153,endColumn=15,title=tool-added::tool `cancel-order` can now be called"
        ),
        "{}",
        ran.stdout()
    );
    let ran = run_action(&action, diffed, &[("package", &package), ("against", "-x")]);
    assert_eq!(ran.code(), Some(2), "{}", text(ran.last()));
    assert!(
        ran.stdout().contains("is not a revision"),
        "{}",
        ran.stdout()
    );

    // Paths: one per line keeps spaces; a working directory is honoured.
    let spaced_folder = workspace("spaced");
    let spaced = spaced_folder.path();
    write(
        spaced,
        "repo/my agents/broken/protocol.yaml",
        "types:\n  Ticket:\n    status: { type: Staus }\n",
    );
    write(
        spaced,
        "repo/other/protocol.yaml",
        "types:\n  Ticket:\n    status: { type: Staus }\n",
    );
    write(
        spaced,
        "repo/skipped/protocol.yaml",
        "types:\n  Ticket:\n    status: { type: Staus }\n",
    );
    let ran = run_action(
        &action,
        spaced,
        &[
            ("package", &package),
            ("working-directory", "repo"),
            ("paths", "my agents\nother\n"),
        ],
    );
    assert_eq!(ran.code(), Some(1), "{}", text(ran.last()));
    let stdout = ran.stdout();
    assert!(
        stdout.contains("::error file=my agents/broken/protocol.yaml,line=3"),
        "{stdout}"
    );
    assert!(
        stdout.contains("::error file=other/protocol.yaml,line=3"),
        "{stdout}"
    );
    assert!(!stdout.contains("skipped/"), "{stdout}");
    // One line (with the final line break of a YAML block): split at spaces.
    let ran = run_action(
        &action,
        spaced,
        &[
            ("package", &package),
            ("working-directory", "repo"),
            ("paths", "other skipped\n"),
        ],
    );
    assert_eq!(ran.code(), Some(1), "{}", text(ran.last()));
    assert!(
        ran.stdout().contains("::error file=skipped/protocol.yaml"),
        "{}",
        ran.stdout()
    );
    assert!(!ran.stdout().contains("my agents"), "{}", ran.stdout());

    // A version that is not one is refused before npm runs.
    let ran = run_action(&action, clean, &[("version", "latest; rm -rf /")]);
    assert_eq!(ran.steps.len(), 1);
    assert_eq!(ran.code(), Some(2), "{}", text(ran.last()));
    assert!(
        ran.stdout().contains("the version input must be a version"),
        "{}",
        ran.stdout()
    );
}

#[test]
#[ignore = "needs PyYAML and check-jsonschema: AGENTC_CI_TOOLS_BIN, a venv of tests/ci_snippets/requirements.txt (CI runs it)"]
fn action_yml_passes_github_s_schema_and_pins_this_version() {
    let Some(action) = action() else { return };
    assert_eq!(
        action["inputs"]["version"]["default"],
        env!("CARGO_PKG_VERSION")
    );
    // No input is interpolated into shell text: only into `env:`.
    for step in action["runs"]["steps"].as_array().expect("steps") {
        let script = step["run"].as_str().expect("run");
        assert!(
            !script.contains("${{"),
            "a step interpolates into its script: {script}"
        );
    }
    passes_schemastore("vendor.github-actions", &root().join("action.yml"));
}
