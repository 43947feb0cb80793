//! `agentc check --against REV` and `agentc diff REV:PATH NEW` in a
//! temporary git repository, committed twice, with the real binary.
//! Skipped, with the reason printed, where `git` cannot run.

mod common;

use serde_json::json;
use std::ffi::OsStr;
use std::path::Path;
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
struct Repo(tempfile::TempDir);

/// These tests build their repositories with the `git` program, which a
/// clone of agentc has by definition; without it they fail and say so
/// rather than pass having checked nothing.
fn git_works() -> bool {
    let works = Command::new("git")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        works,
        "these tests build git repositories with the `git` program, which cannot run here"
    );
    works
}

/// Git can build the repositories to read. A test that reads them is
/// `#[cfg_attr(not(feature = "git"), ignore = ...)]`: without the `git`
/// feature, `cargo test` lists it as ignored.
fn reads_git() -> bool {
    git_works()
}

impl Repo {
    fn new(name: &str) -> Repo {
        let repo = Repo(common::scratch(&format!("diff-git-{name}")));
        repo.git(&["init", "-q"]);
        repo
    }

    /// A temporary folder for a clone, scripts and markers, without a
    /// repository of its own.
    fn folder(name: &str) -> Repo {
        Repo(common::scratch(&format!("diff-git-{name}")))
    }

    fn git(&self, args: &[&str]) {
        self.git_in(self.0.path(), args);
    }

    /// What git prints, run in this repository, when it succeeds.
    fn git_text(&self, args: &[&str]) -> String {
        let output = self.git_output(self.0.path(), args);
        assert!(output.status.success(), "git {args:?}: {output:?}");
        String::from_utf8_lossy(&output.stdout).trim().to_string()
    }

    fn git_in(&self, dir: &Path, args: &[&str]) {
        let output = self.git_output(dir, args);
        assert!(output.status.success(), "git {args:?}: {output:?}");
    }

    fn git_output(&self, dir: &Path, args: &[&str]) -> Output {
        Command::new("git")
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
            .current_dir(dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", self.0.path())
            .output()
            .expect("run git")
    }

    fn write(&self, path: &str, text: &str) {
        let path = self.0.path().join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("create folders");
        std::fs::write(path, text).expect("write");
    }

    fn commit(&self, message: &str) {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "-m", message]);
    }

    fn agentc(&self, args: &[&str]) -> Output {
        self.agentc_in(self.0.path(), args)
    }

    fn agentc_in(&self, dir: &Path, args: &[&str]) -> Output {
        self.agentc_with(dir, args, &[])
    }

    /// agentc run in `dir` with `env` added to its environment.
    fn agentc_with(&self, dir: &Path, args: &[&str], env: &[(&str, &OsStr)]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_agentc"))
            .args(args)
            .current_dir(dir)
            .env("NO_COLOR", "1")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", self.0.path())
            .envs(env.iter().copied())
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
#[cfg_attr(
    not(feature = "git"),
    ignore = "needs the `git` feature (a default feature)"
)]
fn check_against_a_revision_reports_the_changes_since() {
    if !reads_git() {
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
        &repo.0.path().join("agents"),
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
#[cfg_attr(
    not(feature = "git"),
    ignore = "needs the `git` feature (a default feature)"
)]
fn diff_reads_revisions_files_and_folders() {
    if !reads_git() {
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
    // A folder at a revision is named by the file read in it, as a folder
    // on disk is, never as a folder with a line in it.
    for (folder, named) in [
        ("HEAD~1:agents/shop", "HEAD~1:agents/shop/protocol.yaml"),
        ("HEAD~1:agents/shop/", "HEAD~1:agents/shop/protocol.yaml"),
    ] {
        let output = repo.agentc(&["diff", "agents/shop", folder, "--format", "json"]);
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
        assert_eq!(report["diagnostics"][0]["file"], named, "{report:#}");
    }

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
#[cfg_attr(
    not(feature = "git"),
    ignore = "needs the `git` feature (a default feature)"
)]
fn a_missing_revision_is_exit_2_with_the_fetch_to_run() {
    if !reads_git() {
        return;
    }
    let repo = history("missing");
    // With no remote there is nothing to fetch: the name is not there.
    let output = repo.agentc(&["check", "--against", "origin/main", "agents"]);
    let all = text(&output);
    assert_eq!(output.status.code(), Some(2), "{all}");
    assert!(all.contains("has no remote"), "{all}");
    assert!(!all.contains("git fetch origin"), "{all}");
    // A remote is configuration: nothing is fetched from it.
    repo.git(&["remote", "add", "origin", "../nowhere.git"]);
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
    let marker = repo.0.path().join("written-by-git");
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
#[cfg_attr(
    not(feature = "git"),
    ignore = "needs the `git` feature (a default feature)"
)]
fn outside_a_repository_check_against_is_exit_2() {
    if !reads_git() {
        return;
    }
    let scratch = common::scratch("diff-nogit");
    let dir = scratch.path();
    std::fs::create_dir_all(dir.join("shop")).expect("create");
    std::fs::write(dir.join("shop/protocol.yaml"), V1).expect("write");
    // Git looks for a repository no higher than the folder that holds
    // the scratch folder.
    let ceiling = dir.parent().expect("the scratch folder has a parent");
    let output = Command::new(env!("CARGO_BIN_EXE_agentc"))
        .args(["check", "--against", "HEAD", "shop"])
        .current_dir(dir)
        .env("GIT_CEILING_DIRECTORIES", ceiling)
        .output()
        .expect("run agentc");
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(
        text(&output).contains("is not in a git repository"),
        "{}",
        text(&output)
    );
}

/// A shell script at `path` that leaves `marker` when it runs (and
/// fails, as a broken command would): whatever runs it is seen.
#[cfg(unix)]
fn program(path: &Path, marker: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(path.parent().expect("parent")).expect("create folders");
    std::fs::write(
        path,
        format!("#!/bin/sh\n: > '{}'\nexit 1\n", marker.display()),
    )
    .expect("write the script");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// The markers left in `dir`, by name.
fn markers(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// A partial clone (`--filter=blob:none`) has the old version's tree but
/// not its file. git would fetch it from the promisor remote; agentc
/// reports it missing (exit 2, never "a new protocol" and exit 0), and
/// fetches nothing: the remote is a program that leaves a marker.
#[cfg(unix)]
#[test]
#[cfg_attr(
    not(feature = "git"),
    ignore = "needs the `git` feature (a default feature)"
)]
fn a_partial_clone_without_the_old_version_is_exit_2_and_nothing_is_fetched() {
    if !reads_git() {
        return;
    }
    let source = history("partial-source");
    // The old version's file must be in no checked-out one (history()'s
    // agents/new is V1 too).
    source.write("agents/new/protocol.yaml", &V1.replace("Look up", "Find"));
    source.git(&["commit", "-q", "-a", "--amend", "--no-edit"]);
    source.git(&["config", "uploadpack.allowFilter", "true"]);
    let dir = Repo::folder("partial");
    let url = format!("file://{}", source.0.path().display());
    dir.git_in(
        dir.0.path(),
        &["clone", "-q", "--filter=blob:none", &url, "clone"],
    );
    let clone = dir.0.path().join("clone");
    let marker = dir.0.path().join("fetched");
    let remote = dir.0.path().join("remote.sh");
    program(&remote, &marker);
    let ext = format!("ext::{}", remote.display());
    dir.git_in(&clone, &["config", "remote.origin.url", &ext]);
    dir.git_in(&clone, &["config", "protocol.ext.allow", "always"]);

    // git itself would fetch the old version from the remote, so a fetch
    // would be seen.
    let output = dir.git_output(
        &clone,
        &["cat-file", "-e", "HEAD~1:agents/shop/protocol.yaml"],
    );
    assert!(marker.exists(), "git did not try to fetch: {output:?}");
    std::fs::remove_file(&marker).expect("remove the marker");

    for args in [
        &["check", "--against", "HEAD~1", "agents"][..],
        &["diff", "HEAD~1:agents/shop", "agents/shop"][..],
    ] {
        let output = dir.agentc_in(&clone, args);
        let all = text(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {all}");
        assert!(all.contains("missing-revision"), "{all}");
        assert!(
            all.contains("`HEAD~1:agents/shop/protocol.yaml` is not in this clone: its file"),
            "{all}"
        );
        assert!(all.contains("this is a partial clone"), "{all}");
        assert!(
            all.contains("`git cat-file -e 'HEAD~1:agents/shop/protocol.yaml'`"),
            "{all}"
        );
        assert!(!marker.exists(), "{args:?} fetched");
    }
    // What the clone has, it reads: the checked-out version.
    let output = dir.agentc_in(&clone, &["check", "--against", "HEAD", "agents"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(!marker.exists());
}

/// The commands a repository's configuration, the global one and the
/// environment can name: agentc runs none of them.
#[cfg(unix)]
#[test]
#[cfg_attr(
    not(feature = "git"),
    ignore = "needs the `git` feature (a default feature)"
)]
fn commands_that_git_configuration_names_never_run() {
    if !reads_git() {
        return;
    }
    let repo = history("commands");
    let marks = repo.0.path().join("markers");
    std::fs::create_dir_all(&marks).expect("create the markers folder");
    let command = |name: &str| -> String {
        let path = repo.0.path().join("programs").join(format!("{name}.sh"));
        program(&path, &marks.join(name));
        path.display().to_string()
    };
    let hooks = repo.0.path().join("hooks");
    for hook in [
        "pre-commit",
        "post-checkout",
        "post-merge",
        "post-index-change",
        "reference-transaction",
        "fsmonitor-watchman",
        "pre-auto-gc",
    ] {
        program(&hooks.join(hook), &marks.join(format!("hook-{hook}")));
    }
    let settings = [
        ("core.fsmonitor", command("fsmonitor")),
        ("core.sshCommand", command("ssh-command")),
        ("core.hooksPath", hooks.display().to_string()),
        ("core.pager", command("pager")),
        ("pager.show", command("pager-show")),
        ("core.editor", command("editor")),
        ("core.askPass", command("askpass")),
        ("core.alternateRefsCommand", command("alternate-refs")),
        ("credential.helper", format!("!{}", command("credential"))),
        ("diff.external", command("external-diff")),
        ("diff.d.textconv", command("textconv")),
        ("filter.f.smudge", command("smudge")),
        ("filter.f.clean", command("clean")),
        ("filter.f.process", command("filter-process")),
        ("gpg.program", command("gpg")),
        ("remote.origin.url", format!("ext::{}", command("remote"))),
        ("remote.origin.promisor", "true".to_string()),
        ("protocol.ext.allow", "always".to_string()),
        ("uploadpack.packObjectsHook", command("pack-objects-hook")),
    ];
    for (key, value) in &settings {
        repo.git(&["config", key, value]);
    }
    let global = repo.0.path().join("global.gitconfig");
    std::fs::write(
        &global,
        format!(
            "[core]\n\tfsmonitor = {}\n\tpager = {}\n[diff]\n\texternal = {}\n",
            command("global-fsmonitor"),
            command("global-pager"),
            command("global-external-diff")
        ),
    )
    .expect("write the global config");

    // The scripts do run when git is asked to run them.
    let output = repo.git_output(repo.0.path(), &["diff", "HEAD~1", "HEAD"]);
    assert!(
        markers(&marks).contains(&"external-diff".to_string()),
        "{output:?} {:?}",
        markers(&marks)
    );
    std::fs::remove_dir_all(&marks).expect("clear the markers");
    std::fs::create_dir_all(&marks).expect("create the markers folder");
    repo.write(".gitattributes", "* filter=f diff=d\n");

    let env: Vec<(&str, String)> = [
        "GIT_EXTERNAL_DIFF",
        "GIT_PAGER",
        "PAGER",
        "GIT_EDITOR",
        "EDITOR",
        "VISUAL",
        "GIT_SSH",
        "GIT_SSH_COMMAND",
        "GIT_ASKPASS",
        "SSH_ASKPASS",
    ]
    .into_iter()
    .map(|name| (name, command(&format!("env-{name}"))))
    .chain([
        ("GIT_CONFIG_GLOBAL", global.display().to_string()),
        ("GIT_CONFIG_COUNT", "1".to_string()),
        ("GIT_CONFIG_KEY_0", "core.fsmonitor".to_string()),
        ("GIT_CONFIG_VALUE_0", command("env-config-fsmonitor")),
    ])
    .collect();
    let env: Vec<(&str, &OsStr)> = env.iter().map(|(k, v)| (*k, OsStr::new(v))).collect();

    let output = repo.agentc_with(
        repo.0.path(),
        &[
            "check",
            "--against",
            "HEAD~1",
            "--format",
            "short",
            "agents",
        ],
        &env,
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(
        text(&output).contains("warning[tool-added]"),
        "{}",
        text(&output)
    );
    let output = repo.agentc_with(
        repo.0.path(),
        &[
            "diff",
            "HEAD~1:agents/shop",
            "agents/shop",
            "--format",
            "short",
        ],
        &env,
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(
        text(&output).contains("warning[tool-added]"),
        "{}",
        text(&output)
    );
    assert_eq!(markers(&marks), Vec::<String>::new(), "commands ran");

    // A commit the clone lacks: git would fetch it from the promisor
    // remote (and run its program); agentc reports it missing.
    let absent = "0123456789abcdef0123456789abcdef01234567";
    let spec = format!("{absent}:agents/shop");
    for args in [
        &["check", "--against", absent, "agents"][..],
        &["diff", &spec, "agents/shop"][..],
    ] {
        let output = repo.agentc_with(repo.0.path(), args, &env);
        assert_eq!(output.status.code(), Some(2), "{}", text(&output));
        assert!(
            text(&output).contains("missing-revision"),
            "{}",
            text(&output)
        );
    }
    assert_eq!(markers(&marks), Vec::<String>::new(), "commands ran");
}

/// With no git to run (the only `git` on `PATH` leaves a marker), both
/// commands read the old version as before: agentc starts no process.
#[cfg(unix)]
#[test]
#[cfg_attr(
    not(feature = "git"),
    ignore = "needs the `git` feature (a default feature)"
)]
fn versions_are_read_with_no_git_on_the_path() {
    if !reads_git() {
        return;
    }
    let repo = history("no-git");
    let bin = repo.0.path().join("bin");
    let marker = repo.0.path().join("git-ran");
    program(&bin.join("git"), &marker);
    let path = [("PATH", bin.as_os_str())];
    let output = repo.agentc_with(
        repo.0.path(),
        &[
            "check",
            "--against",
            "HEAD~1",
            "--format",
            "short",
            "agents",
        ],
        &path,
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(
        text(&output).contains(
            "agents/shop/protocol.yaml:7:3: warning[tool-added] tool `get-browser-info` can now be called"
        ),
        "{}",
        text(&output)
    );
    for old in ["HEAD~1:agents/shop", "HEAD~1:./agents/shop/protocol.yaml"] {
        let output = repo.agentc_with(
            repo.0.path(),
            &["diff", old, "agents/shop", "--format", "short"],
            &path,
        );
        assert_eq!(output.status.code(), Some(0), "{}", text(&output));
        assert!(
            text(&output).contains("warning[tool-added]"),
            "{}",
            text(&output)
        );
    }
    // From a folder below the top, `./` starts there.
    let output = repo.agentc_with(
        &repo.0.path().join("agents"),
        &["diff", "HEAD~1:./shop", "shop", "--format", "short"],
        &path,
    );
    assert!(
        text(&output).contains("warning[tool-added]"),
        "{}",
        text(&output)
    );
    assert!(!marker.exists(), "git ran");
}

/// The old version's object, damaged or gone: an error (exit 2), never a
/// protocol that did not exist (which would pass the check).
#[cfg(unix)]
#[test]
#[cfg_attr(
    not(feature = "git"),
    ignore = "needs the `git` feature (a default feature)"
)]
fn a_damaged_or_missing_object_is_exit_2() {
    use std::os::unix::fs::PermissionsExt;
    if !reads_git() {
        return;
    }
    let repo = history("damaged");
    let loose = |revision: &str| {
        let id = repo.git_text(&["rev-parse", revision]);
        repo.0
            .path()
            .join(".git/objects")
            .join(&id[..2])
            .join(&id[2..])
    };
    let old = loose("HEAD~1:agents/shop/protocol.yaml");
    let new = loose("HEAD:agents/shop/protocol.yaml");
    assert!(old.is_file() && new.is_file(), "the objects are not loose");
    std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let runs = [
        &["check", "--against", "HEAD~1", "agents"][..],
        &["diff", "HEAD~1:agents/shop", "agents/shop"][..],
    ];

    // Not an object at all.
    std::fs::write(&old, b"not zlib").expect("damage the object");
    for args in runs {
        let output = repo.agentc(args);
        let all = text(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {all}");
        assert!(all.contains("invalid-path"), "{all}");
        assert!(
            all.contains("`HEAD~1:agents/shop/protocol.yaml` could not be read from git"),
            "{all}"
        );
        assert!(all.contains("`git fsck`"), "{all}");
    }

    // A well-formed object that is not the one its id names.
    std::fs::copy(&new, &old).expect("swap the object");
    for args in runs {
        let output = repo.agentc(args);
        let all = text(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {all}");
        assert!(
            all.contains("`HEAD~1:agents/shop/protocol.yaml` is corrupt in the git repository"),
            "{all}"
        );
    }

    // Gone.
    std::fs::remove_file(&old).expect("remove the object");
    for args in runs {
        let output = repo.agentc(args);
        let all = text(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {all}");
        assert!(all.contains("missing-revision"), "{all}");
        assert!(
            all.contains("`HEAD~1:agents/shop/protocol.yaml` is not in this clone"),
            "{all}"
        );
    }
}

/// Only a path that is not at the revision means "new"; what is there
/// but is not a protocol file is an error.
#[cfg(unix)]
#[test]
#[cfg_attr(
    not(feature = "git"),
    ignore = "needs the `git` feature (a default feature)"
)]
fn what_is_at_the_path_but_not_a_protocol_file_is_exit_2() {
    if !reads_git() {
        return;
    }
    let repo = Repo::new("kinds");
    repo.write(
        "agents/shop/protocol.yaml/inside.md",
        "a folder named protocol.yaml\n",
    );
    repo.write("agents/empty/README.md", "no protocol here\n");
    std::fs::create_dir_all(repo.0.path().join("agents/link")).expect("create");
    std::os::unix::fs::symlink(
        "../../agents/new.yaml",
        repo.0.path().join("agents/link/protocol.yaml"),
    )
    .expect("symlink");
    repo.commit("old");
    // Now each is a protocol file.
    std::fs::remove_dir_all(repo.0.path().join("agents/shop/protocol.yaml")).expect("remove");
    std::fs::remove_file(repo.0.path().join("agents/link/protocol.yaml")).expect("remove");
    repo.write("agents/shop/protocol.yaml", V1);
    repo.write("agents/link/protocol.yaml", V1);
    repo.write("agents/empty/protocol.yaml", V1);

    let output = repo.agentc(&["check", "--against", "HEAD", "agents/shop"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(
        text(&output).contains("`HEAD:agents/shop/protocol.yaml` is a folder, not a file"),
        "{}",
        text(&output)
    );
    let output = repo.agentc(&["check", "--against", "HEAD", "agents/link"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(
        text(&output).contains("`HEAD:agents/link/protocol.yaml` is a symbolic link"),
        "{}",
        text(&output)
    );
    let output = repo.agentc(&["diff", "HEAD:agents/empty", "agents/empty"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(
        text(&output).contains("`HEAD:agents/empty` is a folder without `protocol.yaml`"),
        "{}",
        text(&output)
    );
    // `check --against` of a folder that was not a protocol then: new.
    let output = repo.agentc(&["check", "--against", "HEAD", "agents/empty"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    // A revision that names no commit.
    let output = repo.agentc(&["diff", "HEAD^{tree}:agents/shop", "agents/shop"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(
        text(&output).contains("`HEAD^{tree}` is a tree, not a commit"),
        "{}",
        text(&output)
    );
}

/// The revision forms users write resolve as in git.
#[test]
#[cfg_attr(
    not(feature = "git"),
    ignore = "needs the `git` feature (a default feature)"
)]
fn revisions_resolve_as_git_resolves_them() {
    if !reads_git() {
        return;
    }
    let repo = history("forms");
    repo.git(&["tag", "v1.2", "HEAD~1"]);
    repo.git(&["tag", "-a", "-m", "annotated", "v1.3", "HEAD~1"]);
    repo.git(&["update-ref", "refs/remotes/origin/main", "HEAD~1"]);
    // From a pack and packed refs, as a clone has them.
    repo.git(&["gc", "-q"]);
    let full = repo.git_text(&["rev-parse", "HEAD~1"]);
    let short = full[..9].to_string();
    for revision in [
        "HEAD~1",
        "HEAD^",
        "v1.2",
        "v1.3",
        "origin/main",
        &full,
        &short,
    ] {
        let output = repo.agentc(&[
            "check",
            "--against",
            revision,
            "--format",
            "short",
            "agents",
        ]);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{revision}: {}",
            text(&output)
        );
        assert_eq!(
            text(&output).matches("warning[tool-added]").count(),
            1,
            "{revision}: {}",
            text(&output)
        );
    }
    for revision in ["main", "HEAD"] {
        let output = repo.agentc(&["check", "--against", revision, "agents"]);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{revision}: {}",
            text(&output)
        );
        assert!(!text(&output).contains("tool-added"), "{}", text(&output));
    }
}

/// The `git fetch` a missing revision suggests is safe to paste: what the
/// user typed is quoted for the shell.
#[test]
#[cfg_attr(
    not(feature = "git"),
    ignore = "needs the `git` feature (a default feature)"
)]
fn the_suggested_fetch_quotes_the_revision() {
    if !reads_git() {
        return;
    }
    let repo = history("quote");
    repo.git(&["remote", "add", "origin", "../nowhere.git"]);
    let output = repo.agentc(&["check", "--against", "origin/it's here;touch x", "agents"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(
        text(&output).contains(r"`git fetch origin 'it'\''s here;touch x'`"),
        "{}",
        text(&output)
    );
    let output = repo.agentc(&["diff", "$(touch x):agents/shop", "agents/shop"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(
        text(&output).contains("`git fetch origin '$(touch x)'`"),
        "{}",
        text(&output)
    );
}

/// Built without the `git` feature (for wasm), a revision is an error.
#[cfg(not(feature = "git"))]
#[test]
fn without_the_git_feature_a_revision_is_exit_2() {
    if !git_works() {
        return;
    }
    let repo = history("no-feature");
    for args in [
        &["check", "--against", "HEAD~1", "agents"][..],
        &["diff", "HEAD~1:agents/shop", "agents/shop"][..],
    ] {
        let output = repo.agentc(args);
        assert_eq!(output.status.code(), Some(2), "{}", text(&output));
        assert!(
            text(&output).contains("built without git support"),
            "{}",
            text(&output)
        );
    }
}

/// A folder of the checkout that looks like a bare repository (`HEAD`,
/// `objects/`, `refs/`: files a pull request can add) with a history in
/// which nothing changed is never taken for the repository: the old
/// version comes from the real one, through its `.git`.
#[test]
#[cfg_attr(
    not(feature = "git"),
    ignore = "needs the `git` feature (a default feature)"
)]
fn a_folder_posing_as_a_bare_repository_is_not_read() {
    if !reads_git() {
        return;
    }
    let repo = history("posing");
    let fake = Repo::new("posing-fake");
    fake.write("protocol.yaml", &v2());
    fake.commit("as now");
    fake.git(&["commit", "-q", "--allow-empty", "-m", "still as now"]);
    let shop = repo.0.path().join("agents/shop");
    repo.git_in(&shop, &["init", "-q", "--bare", "."]);
    let target = shop.display().to_string();
    fake.git(&["push", "-q", &target, "main:main"]);
    // git itself takes the folder for a repository.
    let output = repo.git_output(&shop, &["rev-parse", "--git-dir"]);
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        ".",
        "{output:?}"
    );

    let output = repo.agentc_in(
        &shop,
        &[
            "diff",
            "HEAD~1:./protocol.yaml",
            "protocol.yaml",
            "--format",
            "short",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(
        text(&output).contains("warning[tool-added]"),
        "{}",
        text(&output)
    );
    let output = repo.agentc_in(
        &shop,
        &["check", "--against", "HEAD~1", "--format", "short", "."],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(
        text(&output).contains("warning[tool-added]"),
        "{}",
        text(&output)
    );
}

/// An old version over agentc's 16 MiB limit is refused before it is read.
#[test]
#[cfg_attr(
    not(feature = "git"),
    ignore = "needs the `git` feature (a default feature)"
)]
fn an_old_version_over_the_size_limit_is_exit_2() {
    if !reads_git() {
        return;
    }
    let repo = Repo::new("large");
    let mut large = V1.to_string();
    large.push_str(&format!("# {}\n", "x".repeat(16 * 1024 * 1024)));
    repo.write("agents/shop/protocol.yaml", &large);
    repo.commit("large");
    repo.write("agents/shop/protocol.yaml", V1);
    for packed in [false, true] {
        if packed {
            repo.git(&["gc", "-q"]);
        }
        for args in [
            &["check", "--against", "HEAD", "agents"][..],
            &["diff", "HEAD:agents/shop", "agents/shop"][..],
        ] {
            let output = repo.agentc(args);
            assert_eq!(output.status.code(), Some(2), "{packed}: {}", text(&output));
            assert!(
                text(&output).contains(
                    "`HEAD:agents/shop/protocol.yaml` is larger than agentc reads (16 MiB)"
                ),
                "{packed}: {}",
                text(&output)
            );
        }
    }
}

/// A linked work tree (`git worktree add`), whose `.git` is a file naming
/// the repository, reads the same history.
#[test]
#[cfg_attr(
    not(feature = "git"),
    ignore = "needs the `git` feature (a default feature)"
)]
fn a_linked_work_tree_reads_its_repository() {
    if !reads_git() {
        return;
    }
    let repo = history("linked");
    let dir = Repo::folder("linked-tree");
    let tree = dir.0.path().join("tree");
    let tree_arg = tree.display().to_string();
    repo.git(&["worktree", "add", "-q", &tree_arg, "HEAD"]);
    let output = repo.agentc_in(
        &tree,
        &[
            "check",
            "--against",
            "HEAD~1",
            "--format",
            "short",
            "agents",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(
        text(&output).contains("agents/shop/protocol.yaml:7:3: warning[tool-added]"),
        "{}",
        text(&output)
    );
    let output = repo.agentc_in(
        &tree.join("agents"),
        &["diff", "HEAD~1:./shop", "shop", "--format", "short"],
    );
    assert!(
        text(&output).contains("warning[tool-added]"),
        "{}",
        text(&output)
    );
}

/// The MCP server's `diff` of a path against a revision reads the path in
/// the repository the file lies in, however the client names it: an
/// absolute path, as coding agents send, or one from the server's folder.
#[test]
#[cfg_attr(
    not(feature = "git"),
    ignore = "needs the `git` feature (a default feature)"
)]
#[cfg_attr(not(feature = "mcp"), ignore = "needs the `mcp` feature")]
fn the_mcp_diff_finds_a_path_in_its_own_repository() {
    if !reads_git() {
        return;
    }
    let repo = history("mcp-diff");
    let absolute = repo.0.path().join("agents/shop/protocol.yaml");
    let absolute = absolute.display().to_string();
    // From a folder below the repository's top, too: the repository is
    // found from the file, not from the server's folder.
    for (here, path) in [
        (repo.0.path().to_path_buf(), absolute.as_str()),
        (repo.0.path().to_path_buf(), "agents/shop"),
        (repo.0.path().join("agents"), "shop/protocol.yaml"),
        (repo.0.path().join("agents"), absolute.as_str()),
    ] {
        let mut command = Command::new(env!("CARGO_BIN_EXE_agentc"));
        command.arg("mcp").current_dir(&here);
        let mut session = common::mcp_stdio::Session::start(command);
        session.ready();
        let arguments = json!({"path": path, "revision": "HEAD~1"});
        let result = session.request(
            2,
            "tools/call",
            json!({"name": "diff", "arguments": arguments}),
        );
        let text = result["content"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let at = format!("{path} from {}", here.display());
        assert_ne!(result["isError"], json!(true), "{at}: {text}");
        assert!(text.contains("tool-added"), "{at}: {text}");
        session.close();
    }
}
