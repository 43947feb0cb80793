//! Folders built as a hostile pull request would build them: a FIFO where a
//! prompt should be, links out of the agent folder (to a secret, to a FIFO),
//! a dangling link, a loop of links, a file the process may not read, a
//! `prompts/` that is a link elsewhere, a skill folder, `SKILL.md` or
//! `.env` that links out, a `.env` whose values must never be printed, and
//! the same in a folder searched
//! for protocols. Each must be answered by the real binary, promptly, in
//! every format, with a diagnostic at the path in the folder (never the
//! link's target), the rest of the agent checked, nothing outside the folder
//! read or printed, and the exit code agreeing with the summary. The
//! language server must answer the same folder too.
//!
//! Git cannot hold FIFOs, and links out of a checkout would point at
//! nothing, so the folders are made here at run time.

#![cfg(unix)]

mod common;

use common::lsp::{Client, uri};
use serde_json::Value;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Far above the milliseconds a check takes: only a run that blocks (on a
/// FIFO, say) reaches it.
const PATIENCE: Duration = Duration::from_secs(30);

/// A text that exists only in files outside the agent folder: it must never
/// appear in agentc's output.
const SECRET: &str = "TOP-SECRET-7f3a9c";

const FORMATS: [&str; 5] = ["human", "json", "short", "github", "sarif"];

/// A scratch folder holding `secret.txt` (outside the agent) and
/// `agent/`, a copy of the support-desk example with one misspelt type, so
/// that a check of the rest of the agent is seen to happen.
struct Scratch(tempfile::TempDir);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let scratch = common::scratch(&format!("hostile-{name}"));
        let dir = scratch.path();
        let agent = dir.join("agent");
        common::copy_dir(&common::root().join("protocols/support-desk"), &agent);
        let protocol = agent.join("protocol.yaml");
        let text = std::fs::read_to_string(&protocol).expect("protocol");
        let text = format!(
            "{text}\n# A problem that shows the rest of the agent was checked.\ntypes:\n  Extra:\n    field: {{ type: strng }}\n"
        );
        std::fs::write(&protocol, text).expect("write protocol");
        std::fs::write(dir.join("secret.txt"), format!("{SECRET}\nsecond line\n")).expect("secret");
        Scratch(scratch)
    }

    fn dir(&self) -> &Path {
        self.0.path()
    }

    fn agent(&self) -> PathBuf {
        self.dir().join("agent")
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.dir().join(relative)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // Give back permissions taken away, so that the folder can be
        // removed when its `TempDir` drops, after this.
        let _ = Command::new("chmod")
            .arg("-R")
            .arg("u+rwX")
            .arg(self.dir())
            .status();
    }
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("run mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// Runs the binary, failing the test if it has not finished within
/// [`PATIENCE`] (and killing it).
fn run(command: &mut Command) -> Output {
    let mut child = command
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start agentc");
    // The pipes are drained on threads, so a large output cannot block
    // the child while this thread waits.
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut out, &mut bytes).ok();
        bytes
    });
    let err = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut err, &mut bytes).ok();
        bytes
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for agentc") {
            break status;
        }
        if started.elapsed() > PATIENCE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("agentc did not finish within {PATIENCE:?}: {command:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Output {
        status,
        stdout: out.join().expect("stdout thread"),
        stderr: err.join().expect("stderr thread"),
    }
}

fn check(args: &[&str], path: &Path) -> Output {
    run(Command::new(env!("CARGO_BIN_EXE_agentc"))
        .arg("check")
        .args(args)
        .arg(path))
}

/// The JSON report of a check of `path`.
fn json(path: &Path) -> (Output, Value) {
    let output = check(&["--format", "json"], path);
    let report = serde_json::from_slice(&output.stdout).expect("the JSON report");
    (output, report)
}

/// The diagnostics of a JSON report with `code`, as `(file, message)`.
fn with_code(report: &Value, code: &str) -> Vec<(String, String)> {
    report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["code"] == code)
        .map(|d| {
            (
                d["file"].as_str().unwrap_or_default().to_string(),
                d["message"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

/// What every case must show: in every format the run ends, prints nothing
/// of the secret and no panic, and exits with 1 as its summary counts
/// errors; the JSON report has `code` at `file` (a path in the folder) and
/// the misspelt type of the rest of the agent.
fn assert_reported(path: &Path, code: &str, file: &Path) {
    for format in FORMATS {
        let output = check(&["--format", format], path);
        let printed = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(
            !printed.contains(SECRET),
            "{format} printed the secret:\n{printed}"
        );
        assert!(!printed.contains("panicked"), "{format}:\n{printed}");
        assert_eq!(output.status.code(), Some(1), "{format}:\n{printed}");
        assert!(
            printed.contains(code),
            "{format} does not name {code}:\n{printed}"
        );
    }
    let (_, report) = json(path);
    let errors = report["summary"]["errors"].as_u64().expect("errors");
    assert!(errors >= 2, "{report:#}");
    let found = with_code(&report, code);
    assert_eq!(
        found.iter().map(|(f, _)| f.as_str()).collect::<Vec<_>>(),
        [file.display().to_string()],
        "{report:#}"
    );
    assert_eq!(
        with_code(&report, "unknown-type").len(),
        1,
        "the rest is checked: {report:#}"
    );
}

#[test]
fn a_fifo_in_an_agent_folder_is_reported_and_never_opened() {
    let scratch = Scratch::new("fifo");
    let pipe = scratch.agent().join("prompts/pipe.md");
    mkfifo(&pipe);
    assert_reported(&scratch.agent(), "not-a-file", &pipe);
    let (_, report) = json(&scratch.agent());
    let (_, message) = &with_code(&report, "not-a-file")[0];
    assert!(
        message.ends_with("it is a FIFO (named pipe), not a regular file"),
        "{message}"
    );
}

#[test]
fn a_link_out_of_the_folder_is_not_followed_and_its_target_not_printed() {
    let scratch = Scratch::new("link-out");
    let link = scratch.agent().join("references/notes.md");
    symlink(scratch.path("secret.txt"), &link).expect("symlink");
    assert_reported(&scratch.agent(), "link-outside-folder", &link);
    // The same for a prompt, and for a link to the protocol itself.
    let prompt = scratch.agent().join("prompts/leak.md");
    symlink("../../secret.txt", &prompt).expect("symlink");
    let (output, report) = json(&scratch.agent());
    assert_eq!(output.status.code(), Some(1));
    let files: Vec<String> = with_code(&report, "link-outside-folder")
        .into_iter()
        .map(|(f, _)| f)
        .collect();
    assert_eq!(
        files,
        [prompt.display().to_string(), link.display().to_string()]
    );
}

/// `diff` reads a folder's protocol by `check`'s rules: a `protocol.yaml`
/// that links out of the folder is refused, and what it leads to is not
/// printed, in any format (a pull request controls the folder `agentc
/// diff origin/main:agents/shop agents/shop` reads in CI).
#[test]
fn diff_does_not_follow_a_folders_protocol_out_of_it() {
    let scratch = Scratch::new("diff-link-out");
    let linked = scratch.path("linked");
    std::fs::create_dir(&linked).expect("folder");
    std::fs::copy(
        scratch.agent().join("settings.json"),
        linked.join("settings.json"),
    )
    .expect("settings");
    symlink(scratch.path("secret.txt"), linked.join("protocol.yaml")).expect("symlink");
    let old = scratch.agent().join("protocol.yaml");
    for format in ["human", "json", "github", "short", "markdown"] {
        let output = run(Command::new(env!("CARGO_BIN_EXE_agentc"))
            .args(["diff", "--format", format])
            .arg(&old)
            .arg(&linked));
        let all = format!("{}{}", common::stdout(&output), common::stderr(&output));
        assert_eq!(output.status.code(), Some(2), "{format}: {all}");
        assert!(all.contains("link-outside-folder"), "{format}: {all}");
        assert!(
            !all.contains(SECRET),
            "{format}: the target was printed: {all}"
        );
    }
    // A file named on the command line is the user's to name.
    let output = run(Command::new(env!("CARGO_BIN_EXE_agentc"))
        .args(["diff"])
        .arg(&old)
        .arg(linked.join("protocol.yaml")));
    assert_eq!(output.status.code(), Some(1), "{}", common::stderr(&output));
}

#[test]
fn a_skill_folder_linking_out_is_reported_and_not_read() {
    let scratch = Scratch::new("skill-link-out");
    let skills = scratch.agent().join("skills");
    std::fs::create_dir_all(&skills).expect("skills/");
    // A skill folder that is a link out, a SKILL.md that is one, and a
    // `.env` that is one: none is read.
    let outside = scratch.path("outside-skill");
    std::fs::create_dir_all(&outside).expect("outside skill");
    std::fs::write(
        outside.join("SKILL.md"),
        format!("---\nname: {SECRET}\n---\n"),
    )
    .expect("outside SKILL.md");
    let linked = skills.join("linked");
    symlink(&outside, &linked).expect("symlink");
    assert_reported(&scratch.agent(), "link-outside-folder", &linked);
    std::fs::remove_file(&linked).expect("unlink");

    let skill = skills.join("leak");
    std::fs::create_dir_all(&skill).expect("skill");
    let skill_md = skill.join("SKILL.md");
    symlink("../../../secret.txt", &skill_md).expect("symlink");
    assert_reported(&scratch.agent(), "link-outside-folder", &skill_md);
    std::fs::remove_file(&skill_md).expect("unlink");

    std::fs::write(
        &skill_md,
        "---\nname: leak\ndescription: Reads a token\nsecrets:\n  - name: TOKEN\n---\n",
    )
    .expect("SKILL.md");
    let env = skill.join(".env");
    symlink("../../../secret.txt", &env).expect("symlink");
    assert_reported(&scratch.agent(), "link-outside-folder", &env);
}

#[test]
fn a_skill_env_is_read_for_its_names_and_never_shown() {
    let scratch = Scratch::new("skill-env");
    let skill = scratch.agent().join("skills/github");
    std::fs::create_dir_all(&skill).expect("skill");
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: github\ndescription: Runs gh\nsecrets:\n  - name: GITHUB_TOKEN\n---\n",
    )
    .expect("SKILL.md");
    // Values, and a line that is not `NAME=value`, must never be printed.
    std::fs::write(
        skill.join(".env"),
        format!("GITHUB_TOKEN=\"{SECRET}\"\nEXTRA={SECRET}\n{SECRET} not a variable\n"),
    )
    .expect(".env");
    for format in FORMATS {
        let output = check(&["--format", format], &scratch.agent());
        let printed = String::from_utf8_lossy(&output.stdout);
        assert!(!printed.contains(SECRET), "{format}:\n{printed}");
        assert!(printed.contains("skill-secrets"), "{format}:\n{printed}");
    }
    let (_, report) = json(&scratch.agent());
    let found = with_code(&report, "skill-secrets");
    assert_eq!(
        found,
        [(
            skill.join("SKILL.md").display().to_string(),
            "`.env` sets `EXTRA`, which `secrets` does not declare".to_string()
        )]
    );
    // Not valid UTF-8: reported at its path, with none of its text.
    let mut bytes = format!("GITHUB_TOKEN={SECRET}\n").into_bytes();
    bytes.push(0xff);
    std::fs::write(skill.join(".env"), bytes).expect(".env");
    for format in FORMATS {
        let output = check(&["--format", format], &scratch.agent());
        let printed = String::from_utf8_lossy(&output.stdout);
        assert!(!printed.contains(SECRET), "{format}:\n{printed}");
    }
    let (_, report) = json(&scratch.agent());
    let env = skill.join(".env").display().to_string();
    let files: Vec<&str> = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter_map(|d| d["file"].as_str())
        .collect();
    assert!(files.contains(&env.as_str()), "{report:#}");
}

#[test]
fn a_link_out_to_a_fifo_is_neither_followed_nor_opened() {
    let scratch = Scratch::new("link-fifo");
    let fifo = scratch.path("outside.fifo");
    mkfifo(&fifo);
    let link = scratch.agent().join("references/pipe.md");
    symlink(&fifo, &link).expect("symlink");
    assert_reported(&scratch.agent(), "link-outside-folder", &link);
}

#[test]
fn a_dangling_link_and_a_loop_are_reported_at_the_link() {
    let scratch = Scratch::new("dangling");
    let gone = scratch.agent().join("references/gone.md");
    symlink("/nonexistent/agentc-test", &gone).expect("symlink");
    assert_reported(&scratch.agent(), "unreadable-file", &gone);
    std::fs::remove_file(&gone).expect("remove");
    let a = scratch.agent().join("prompts/a.md");
    let b = scratch.agent().join("prompts/b.md");
    symlink("b.md", &a).expect("symlink");
    symlink("a.md", &b).expect("symlink");
    let (output, report) = json(&scratch.agent());
    assert_eq!(output.status.code(), Some(1));
    let found = with_code(&report, "unreadable-file");
    assert_eq!(found.len(), 2, "{report:#}");
    assert!(
        found[0].1.ends_with("a loop of links that never ends"),
        "{found:?}"
    );
    assert_eq!(with_code(&report, "unknown-type").len(), 1);
}

#[test]
fn a_file_the_process_cannot_read_is_reported_at_that_file() {
    let scratch = Scratch::new("unreadable");
    let prompt = scratch.agent().join("prompts/system.md");
    // Root reads any file whatever its mode: run as `nobody` then, as the
    // reproducer does, when `setpriv` can.
    let root = unsafe_euid() == 0;
    let setpriv = Path::new("/usr/bin/setpriv").exists();
    if root && !setpriv {
        eprintln!("skipped: running as root without setpriv, so no file is unreadable");
        return;
    }
    // `nobody` may not reach the build's folder: it runs a copy of the
    // binary in the scratch folder, which everyone may read.
    let binary = scratch.path("agentc");
    std::fs::copy(env!("CARGO_BIN_EXE_agentc"), &binary).expect("copy the binary");
    let status = Command::new("chmod")
        .arg("-R")
        .arg("a+rX")
        .arg(scratch.dir())
        .status();
    assert!(status.is_ok_and(|s| s.success()));
    std::fs::set_permissions(&prompt, std::os::unix::fs::PermissionsExt::from_mode(0o000))
        .expect("chmod 000");
    let run_check = |format: &str| {
        let mut command = if root {
            let mut command = Command::new("/usr/bin/setpriv");
            command.args(["--reuid=65534", "--regid=65534", "--clear-groups"]);
            command.arg(&binary);
            command
        } else {
            Command::new(env!("CARGO_BIN_EXE_agentc"))
        };
        run(command
            .args(["check", "--format", format])
            .arg(scratch.agent()))
    };
    for format in FORMATS {
        let output = run_check(format);
        assert_eq!(output.status.code(), Some(1), "{format}: {output:?}");
    }
    let output = run_check("json");
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let found = with_code(&report, "unreadable-file");
    assert_eq!(found.len(), 1, "{report:#}");
    assert_eq!(found[0].0, prompt.display().to_string());
    assert!(found[0].1.ends_with("permission denied"), "{found:?}");
    assert_eq!(with_code(&report, "unknown-type").len(), 1);
}

/// The effective user id, read from `/proc` (no unsafe code needed).
fn unsafe_euid() -> u32 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|l| l.starts_with("Uid:"))
                .and_then(|l| l.split_whitespace().nth(2))
                .and_then(|uid| uid.parse().ok())
        })
        .unwrap_or(u32::MAX)
}

#[test]
fn a_prompts_folder_that_links_out_is_not_listed() {
    let scratch = Scratch::new("prompts-out");
    let outside = scratch.path("elsewhere");
    std::fs::create_dir_all(&outside).expect("folder");
    std::fs::write(outside.join("system.md"), SECRET).expect("write");
    let prompts = scratch.agent().join("prompts");
    std::fs::remove_dir_all(&prompts).expect("remove prompts");
    symlink(&outside, &prompts).expect("symlink");
    let (output, report) = json(&scratch.agent());
    assert_eq!(output.status.code(), Some(1));
    assert!(!String::from_utf8_lossy(&output.stdout).contains(SECRET));
    let found = with_code(&report, "link-outside-folder");
    assert_eq!(found.len(), 1, "{report:#}");
    assert_eq!(found[0].0, prompts.display().to_string());
}

#[test]
fn a_search_reads_nothing_outside_the_folder_searched_and_never_blocks() {
    let scratch = Scratch::new("search");
    let tree = scratch.path("repo");
    std::fs::create_dir_all(tree.join("agents/leak")).expect("folder");
    std::fs::create_dir_all(tree.join("agents/pipe")).expect("folder");
    let leak = tree.join("agents/leak/protocol.yaml");
    symlink(scratch.path("secret.txt"), &leak).expect("symlink");
    let pipe = tree.join("agents/pipe/protocol.yaml");
    mkfifo(&pipe);
    for format in FORMATS {
        let output = check(&["--format", format], &tree);
        let printed = String::from_utf8_lossy(&output.stdout);
        assert!(!printed.contains(SECRET), "{format}: {printed}");
        assert_eq!(output.status.code(), Some(1), "{format}: {printed}");
    }
    let (_, report) = json(&tree);
    assert_eq!(
        with_code(&report, "link-outside-folder"),
        [(
            leak.display().to_string(),
            format!(
                "`{}` was not read: it leads, through a link, to `{}`, outside the folder being checked",
                leak.display(),
                scratch.path("secret.txt").display()
            )
        )]
    );
    assert_eq!(with_code(&report, "not-a-file").len(), 1, "{report:#}");
    assert_eq!(report["summary"]["errors"], 2);
    // Named on the command line, a file is read wherever its link leads:
    // the user asked for it.
    let output = check(&["--format", "short"], &leak);
    assert!(String::from_utf8_lossy(&output.stdout).contains("root-not-mapping"));
}

#[test]
fn the_language_server_reads_the_folder_by_the_same_rules() {
    let scratch = Scratch::new("lsp");
    mkfifo(&scratch.agent().join("prompts/pipe.md"));
    let link = scratch.agent().join("references/notes.md");
    symlink(scratch.path("secret.txt"), &link).expect("symlink");
    let protocol = scratch.agent().join("protocol.yaml");
    let text = std::fs::read_to_string(&protocol).expect("protocol");
    let mut client = Client::start(false);
    let diagnostics = client.open(&uri(&protocol), &text);
    assert!(
        diagnostics.iter().any(|d| d["code"] == "unknown-type"),
        "{diagnostics:?}"
    );
    let pipe = client.diagnostics(&uri(&scratch.agent().join("prompts/pipe.md")));
    assert_eq!(pipe[0]["code"], "not-a-file");
    let notes = client.diagnostics(&uri(&link));
    assert_eq!(notes[0]["code"], "link-outside-folder");
    assert!(
        !notes[0]["message"]
            .as_str()
            .unwrap_or_default()
            .contains(SECRET)
    );
    // Still answering.
    let hover = client.at("textDocument/hover", &uri(&protocol), 0, 0);
    assert!(hover.get("error").is_none(), "{hover}");
    client.shutdown();
}

/// Every entry under `dir` with its kind, size and modification time.
fn listing(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        for entry in std::fs::read_dir(&current).expect("list") {
            let entry = entry.expect("entry");
            let path = entry.path();
            let meta = std::fs::symlink_metadata(&path).expect("metadata");
            if meta.is_dir() {
                pending.push(path.clone());
            }
            let modified = meta.modified().ok();
            found.push((
                path,
                format!("{:?} {} {modified:?}", meta.file_type(), meta.len()),
            ));
        }
    }
    found.sort();
    found
}

#[test]
fn checking_emitting_validating_and_editing_write_nothing() {
    let scratch = Scratch::new("no-writes");
    mkfifo(&scratch.agent().join("prompts/pipe.md"));
    symlink(
        scratch.path("secret.txt"),
        scratch.agent().join("references/out.md"),
    )
    .expect("symlink");
    let before = listing(scratch.dir());
    for format in FORMATS {
        check(
            &["--format", format, "--target", "openai"],
            &scratch.agent(),
        );
    }
    let protocol = scratch.agent().join("protocol.yaml");
    let agentc = env!("CARGO_BIN_EXE_agentc");
    run(Command::new(agentc).arg("emit").arg(&protocol));
    run(Command::new(agentc)
        .args(["validate", "run-input", "-"])
        .arg("--protocol")
        .arg(&protocol));
    let mut client = Client::start(false);
    let text = std::fs::read_to_string(&protocol).expect("protocol");
    client.open(&uri(&protocol), &format!("{text}\n# edited, not saved\n"));
    client.shutdown();
    assert_eq!(listing(scratch.dir()), before);
}

#[test]
fn a_folder_link_inside_prompts_that_leads_out_is_reported_and_not_listed() {
    let scratch = Scratch::new("nested-out");
    let outside = scratch.path("elsewhere");
    std::fs::create_dir_all(&outside).expect("folder");
    std::fs::write(outside.join("leak.md"), SECRET).expect("write");
    let link = scratch.agent().join("prompts/elsewhere");
    symlink(&outside, &link).expect("symlink");
    // A link to a folder inside the agent is not followed either, and is
    // no problem.
    symlink("../references", scratch.agent().join("prompts/refs")).expect("symlink");
    let (output, report) = json(&scratch.agent());
    assert_eq!(output.status.code(), Some(1));
    assert!(!String::from_utf8_lossy(&output.stdout).contains(SECRET));
    let found = with_code(&report, "link-outside-folder");
    assert_eq!(found.len(), 1, "{report:#}");
    assert_eq!(found[0].0, link.display().to_string());
    assert_eq!(with_code(&report, "unknown-type").len(), 1);
}
