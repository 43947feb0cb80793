//! `agentc check --against REV` and `agentc diff REV:PATH NEW` in a
//! temporary git repository, committed twice, with the real binary.
//! Skipped, with the reason printed, where `git` cannot run.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const V1: &str = "\
triggers:
  user-message:
    input:
      USER_MESSAGE: { type: string }

tools:
  get-order:
    description: Look up an order
    parameters:
      orderId: { type: string }

agent:
  model: anthropic/claude-sonnet-4-5
  system: system
  tools: [get-order]

handlers:
  user-message:
    Add message:
      block: add-message
      role: user
      prompt: user-message
      input: [USER_MESSAGE]
    Respond:
      block: next-message
";

/// A temporary repository, removed when dropped.
struct Repo(PathBuf);

impl Drop for Repo {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn git_works() -> bool {
    let works = Command::new("git")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !works {
        println!("skipped: git cannot run here");
    }
    works
}

impl Repo {
    fn new(name: &str) -> Repo {
        let dir =
            std::env::temp_dir().join(format!("agentc-diff-git-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create the repository folder");
        let repo = Repo(dir);
        repo.git(&["init", "-q"]);
        repo
    }

    fn git(&self, args: &[&str]) {
        let output = Command::new("git")
            .args([
                "-c",
                "user.name=agentc",
                "-c",
                "user.email=agentc@example.com",
            ])
            .args([
                "-c",
                "commit.gpgsign=false",
                "-c",
                "init.defaultBranch=main",
            ])
            .args(args)
            .current_dir(&self.0)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", &self.0)
            .output()
            .expect("run git");
        assert!(output.status.success(), "git {args:?}: {output:?}");
    }

    fn write(&self, path: &str, text: &str) {
        let path = self.0.join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("create folders");
        std::fs::write(path, text).expect("write");
    }

    fn commit(&self, message: &str) {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "-m", message]);
    }

    fn agentc(&self, args: &[&str]) -> Output {
        self.agentc_in(&self.0, args)
    }

    fn agentc_in(&self, dir: &Path, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_agentc"))
            .args(args)
            .current_dir(dir)
            .env("NO_COLOR", "1")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", &self.0)
            .output()
            .expect("run agentc")
    }
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// V1 with a client tool added to `agent.tools`.
fn v2() -> String {
    V1.replace("tools: [get-order]", "tools: [get-order, get-browser-info]")
        .replace(
            "tools:\n  get-order:",
            "tools:\n  get-browser-info:\n    description: Read the browser\n\n  get-order:",
        )
}

/// A repository with `agents/shop/protocol.yaml` committed as V1 and then
/// as V2, and `agents/new/protocol.yaml` only in the second commit.
fn history(name: &str) -> Repo {
    let repo = Repo::new(name);
    repo.write("agents/shop/protocol.yaml", V1);
    repo.commit("v1");
    repo.write("agents/shop/protocol.yaml", &v2());
    repo.write("agents/new/protocol.yaml", V1);
    repo.commit("v2");
    repo
}

#[test]
fn check_against_a_revision_reports_the_changes_since() {
    if !git_works() {
        return;
    }
    let repo = history("check");
    let output = repo.agentc(&[
        "check",
        "--against",
        "HEAD~1",
        "--format",
        "short",
        "agents",
    ]);
    let all = text(&output);
    assert_eq!(output.status.code(), Some(0), "{all}");
    // The changed protocol has its tool-added; the new one, nothing.
    assert!(
        all.contains("agents/shop/protocol.yaml:7:3: warning[tool-added] tool `get-browser-info` can now be called"),
        "{all}"
    );
    assert_eq!(all.matches("[tool-added]").count(), 1, "{all}");
    assert!(all.contains("checked 2 files: 1 warning"), "{all}");

    let output = repo.agentc(&["check", "--against", "HEAD~1", "--deny-warnings", "agents"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));

    let output = repo.agentc(&[
        "check",
        "--against",
        "HEAD~1",
        "--format",
        "github",
        "agents",
    ]);
    let all = text(&output);
    assert!(
        all.contains("::warning file=agents/shop/protocol.yaml,line=7,col=3,endLine=7,endColumn=19,title=tool-added::"),
        "{all}"
    );

    // From a folder below the top, paths still pair.
    let output = repo.agentc_in(
        &repo.0.join("agents"),
        &["check", "--against", "HEAD~1", "--format", "short", "shop"],
    );
    assert!(
        text(&output).contains("shop/protocol.yaml:7:3: warning[tool-added]"),
        "{}",
        text(&output)
    );

    // At the same revision, nothing changed.
    let output = repo.agentc(&["check", "--against", "HEAD", "--format", "short", "agents"]);
    assert!(!text(&output).contains("tool-added"), "{}", text(&output));
}

#[test]
fn diff_reads_revisions_files_and_folders() {
    if !git_works() {
        return;
    }
    let repo = history("diff");
    for old in [
        "HEAD~1:agents/shop/protocol.yaml",
        "HEAD~1:agents/shop",
        "HEAD~1:./agents/shop/protocol.yaml",
    ] {
        let output = repo.agentc(&["diff", old, "agents/shop", "--format", "json"]);
        assert_eq!(output.status.code(), Some(0), "{old}: {}", text(&output));
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
        let diagnostics = report["diagnostics"].as_array().expect("diagnostics");
        assert_eq!(diagnostics.len(), 1, "{report:#}");
        assert_eq!(diagnostics[0]["code"], "tool-added");
        assert_eq!(diagnostics[0]["file"], "agents/shop/protocol.yaml");
        assert_eq!(diagnostics[0]["surface"], "tool");
        assert_eq!(diagnostics[0]["narrowed"], false);
        assert_eq!(diagnostics[0]["widened"], true);
    }
    // The reverse: the tool can no longer be called; the old location is
    // the base.
    let output = repo.agentc(&[
        "diff",
        "agents/shop/protocol.yaml",
        "HEAD~1:agents/shop/protocol.yaml",
        "--format",
        "json",
    ]);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(
        report["diagnostics"][0]["code"], "tool-removed",
        "{report:#}"
    );
    assert_eq!(
        report["diagnostics"][0]["file"],
        "HEAD~1:agents/shop/protocol.yaml"
    );
    assert_eq!(
        report["diagnostics"][0]["base"]["file"],
        "agents/shop/protocol.yaml"
    );
    assert_eq!(report["diagnostics"][0]["base"]["line"], 7);

    let output = repo.agentc(&[
        "diff",
        "agents/shop/protocol.yaml",
        "HEAD~1:agents/shop/protocol.yaml",
        "--format",
        "short",
    ]);
    assert!(
        text(&output).contains("HEAD~1:agents/shop/protocol.yaml:6:1: warning[tool-removed] tool `get-browser-info` can no longer be called (was: agents/shop/protocol.yaml:7:3)"),
        "{}",
        text(&output)
    );

    // Markdown for a pull-request comment.
    let output = repo.agentc(&[
        "diff",
        "HEAD~1:agents/shop",
        "agents/shop",
        "--format",
        "markdown",
    ]);
    let all = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(all.starts_with("### agentc\n\n1 warning\n"), "{all}");
    assert!(all.contains("**tool `get-browser-info`**"), "{all}");
    assert!(
        all.contains("- **warning** `tool-added` (line 7):"),
        "{all}"
    );

    // A path that is not at the revision.
    let output = repo.agentc(&["diff", "HEAD~1:agents/new", "agents/new"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(
        text(&output).contains("`agents/new` does not exist at `HEAD~1`"),
        "{}",
        text(&output)
    );
}

#[test]
fn a_missing_revision_is_exit_2_with_the_fetch_to_run() {
    if !git_works() {
        return;
    }
    let repo = history("missing");
    let output = repo.agentc(&["check", "--against", "origin/main", "agents"]);
    let all = text(&output);
    assert_eq!(output.status.code(), Some(2), "{all}");
    assert!(all.contains("missing-revision"), "{all}");
    assert!(all.contains("git has no revision `origin/main`"), "{all}");
    assert!(all.contains("`git fetch origin main`"), "{all}");
    assert!(all.contains("`fetch-depth: 0`"), "{all}");
    // Once, though two protocols were checked.
    assert_eq!(all.matches("git has no revision").count(), 1, "{all}");

    let output = repo.agentc(&["diff", "origin/main:agents/shop", "agents/shop"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(
        text(&output).contains("`git fetch origin main`"),
        "{}",
        text(&output)
    );
}

#[test]
fn options_and_drives_are_never_taken_for_revisions() {
    if !git_works() {
        return;
    }
    let repo = history("refuse");
    let marker = repo.0.join("written-by-git");
    let option = format!("--output={}", marker.display());
    let output = repo.agentc(&["check", &format!("--against={option}"), "agents"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(
        text(&output).contains("is not a revision"),
        "{}",
        text(&output)
    );
    let output = repo.agentc(&["diff", &format!("{option}:agents/shop"), "agents/shop"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(!marker.exists());

    // `C:/...` is a Windows path, not the revision `C`.
    let output = repo.agentc(&["diff", "C:/agents/shop/protocol.yaml", "agents/shop"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(
        text(&output).contains("`C:/agents/shop/protocol.yaml` does not exist"),
        "{}",
        text(&output)
    );
}

#[test]
fn outside_a_repository_check_against_is_exit_2() {
    if !git_works() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("agentc-diff-nogit-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("shop")).expect("create");
    std::fs::write(dir.join("shop/protocol.yaml"), V1).expect("write");
    let output = Command::new(env!("CARGO_BIN_EXE_agentc"))
        .args(["check", "--against", "HEAD", "shop"])
        .current_dir(&dir)
        .env("GIT_CEILING_DIRECTORIES", std::env::temp_dir())
        .output()
        .expect("run agentc");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(
        text(&output).contains("is not in a git repository"),
        "{}",
        text(&output)
    );
}
