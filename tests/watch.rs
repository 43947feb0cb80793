//! `agentc check --watch` and `agentc gen --watch`, the real binary over a
//! real folder: it runs once, runs again when a protocol changes (not when
//! another file does, nor when it writes its own), goes on when the
//! protocol is deleted and written again, and ends with exit 0 on Ctrl-C.
//!
//! Every wait has a deadline and the child is killed when a test ends,
//! whatever happened: a watch that does not answer fails its test, and
//! never hangs the suite.
#![cfg(unix)]

mod common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// How long one step may take: generous, for a loaded machine; a watch
/// answers in a fraction of a second.
const STEP: Duration = Duration::from_secs(20);

/// A running `agentc ... --watch`: its lines, standard output and error
/// together, in order, as they come.
struct Watching {
    child: Child,
    lines: Receiver<String>,
    /// Every line read so far.
    seen: Vec<String>,
}

impl Watching {
    fn start(dir: &Path, args: &[&str]) -> Watching {
        // Standard error into the pipe of standard output, so that the
        // lines come in the order agentc wrote them; `exec`, so that the
        // child is agentc itself, whom Ctrl-C reaches.
        let mut child = Command::new("sh")
            .arg("-c")
            .arg("exec \"$0\" \"$@\" 2>&1")
            .arg(env!("CARGO_BIN_EXE_agentc"))
            .args(args)
            .current_dir(dir)
            .env("NO_COLOR", "1")
            .env_remove("CLICOLOR_FORCE")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start agentc");
        let (send, lines) = mpsc::channel();
        let out = child.stdout.take().expect("stdout");
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Watching {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    /// Reads lines until one is `line`; fails after [`STEP`].
    fn until(&mut self, line: &str) {
        let deadline = Instant::now() + STEP;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(got) => {
                    self.seen.push(got.clone());
                    if got == line {
                        return;
                    }
                }
                Err(_) => panic!(
                    "no line `{line}` within {STEP:?}; the lines were:\n{}",
                    self.seen.join("\n")
                ),
            }
        }
    }

    /// Reads the lines of one run: through the line that says the watch
    /// goes on.
    fn run(&mut self) -> Vec<String> {
        let from = self.seen.len();
        self.until(WATCHING);
        self.seen[from..].to_vec()
    }

    /// Ctrl-C: SIGINT, then the exit status, within [`STEP`].
    fn interrupt(&mut self) -> ExitStatus {
        let pid = libc::pid_t::try_from(self.child.id()).expect("a pid");
        // SAFETY: `kill` with the pid of our own child, which has not been
        // waited for yet, so the pid is still its.
        assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
        let deadline = Instant::now() + STEP;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for agentc") {
                // What it printed before it ended.
                while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(1)) {
                    self.seen.push(line);
                }
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "agentc did not end within {STEP:?} of Ctrl-C"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const WATCHING: &str = "watching bot for changes (Ctrl-C stops)";

/// A new worker agent folder `bot` in a scratch folder, as `agentc init`
/// writes it.
fn agent(scratch: &Path) -> PathBuf {
    let status = Command::new(env!("CARGO_BIN_EXE_agentc"))
        .args(["init", "bot", "--template", "worker"])
        .current_dir(scratch)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("run agentc init");
    assert!(status.success());
    scratch.join("bot")
}

/// Replaces `from` with `to` in the file at `path`.
fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).expect("read a file");
    assert!(text.contains(from), "`{from}` is not in {}", path.display());
    put(path, &text.replacen(from, to, 1));
}

/// Writes `text` to `path` at once, as many editors save: a new file
/// renamed over it. (A file truncated, then written, can be seen empty
/// in between by a loaded machine, and checked twice.)
fn put(path: &Path, text: &str) {
    let new = path.with_file_name(".agentc-test-save");
    std::fs::write(&new, text).expect("write a file");
    std::fs::rename(&new, path).expect("rename a file");
}

#[test]
fn check_watch_checks_again_on_each_change() {
    let scratch = common::scratch("watch-check");
    let bot = agent(scratch.path());
    let protocol = bot.join("protocol.yaml");
    let mut watch = Watching::start(scratch.path(), &["check", "--watch", "bot"]);
    let first = watch.run();
    assert!(first.contains(&"checked 4 files: no problems".to_string()));

    // A file no check reads starts no run; the protocol does, and the run
    // names only it.
    std::fs::write(bot.join("notes.txt"), "not a protocol").unwrap();
    edit(&protocol, "type: KeyPoint[]", "type: KeyPoints[]");
    let broken = watch.run();
    assert_eq!(
        broken.first().map(String::as_str),
        Some("changed: bot/protocol.yaml")
    );
    assert!(
        broken
            .iter()
            .any(|l| l.contains("type `KeyPoints` is not defined"))
    );
    assert!(broken.contains(&"checked 4 files: 1 error".to_string()));

    // Deleted, then written again: the watch goes on.
    let text = std::fs::read_to_string(&protocol).unwrap();
    std::fs::remove_file(&protocol).unwrap();
    let gone = watch.run();
    assert_eq!(
        gone.first().map(String::as_str),
        Some("changed: bot/protocol.yaml")
    );
    assert!(gone.iter().any(|l| l.contains("no protocol.yaml found")));
    put(&protocol, &text.replacen("KeyPoints[]", "KeyPoint[]", 1));
    let back = watch.run();
    assert_eq!(
        back.first().map(String::as_str),
        Some("changed: bot/protocol.yaml")
    );
    assert!(back.contains(&"checked 4 files: no problems".to_string()));

    // A prompt is the agent's too.
    edit(&bot.join("prompts/system.md"), "{{", "{{ UNDECLARED }} {{");
    let prompt = watch.run();
    assert_eq!(
        prompt.first().map(String::as_str),
        Some("changed: bot/prompts/system.md")
    );

    let status = watch.interrupt();
    assert_eq!(
        status.code(),
        Some(0),
        "{status:?}\n{}",
        watch.seen.join("\n")
    );
    // A pipe gets no escape (no clearing of the screen), and nothing ran
    // for notes.txt.
    assert!(watch.seen.iter().all(|l| !l.contains('\x1b')));
    assert!(watch.seen.iter().all(|l| !l.contains("notes.txt")));
}

#[test]
fn check_watch_fix_does_not_run_again_for_its_own_fixes() {
    let scratch = common::scratch("watch-fix");
    let bot = agent(scratch.path());
    let mut watch = Watching::start(scratch.path(), &["check", "--watch", "--fix", "bot"]);
    watch.run();
    edit(
        &bot.join("protocol.yaml"),
        "type: KeyPoint[]",
        "type: KeyPoints[]",
    );
    let fixed = watch.run();
    assert!(fixed.contains(&"fixed 1 problem in 1 file; 0 problems remain".to_string()));
    let text = std::fs::read_to_string(bot.join("protocol.yaml")).unwrap();
    assert!(text.contains("type: KeyPoint[]"));
    // The next run is for the next change, not for the fix it wrote.
    edit(&bot.join("settings.json"), "{", "{ ");
    let next = watch.run();
    assert_eq!(
        next.first().map(String::as_str),
        Some("changed: bot/settings.json")
    );
    assert_eq!(watch.interrupt().code(), Some(0));
}

#[test]
fn gen_watch_generates_again_on_each_change() {
    let scratch = common::scratch("watch-gen");
    let bot = agent(scratch.path());
    let mut watch = Watching::start(&bot, &["gen", "--watch"]);
    // Run in the agent folder, as its agentc.toml's [[gen]] asks.
    let watching = "watching . for changes (Ctrl-C stops)";
    watch.until("generated 2 files: no problems");
    watch.until(watching);
    let ts = bot.join("generated/bot.ts");
    let before = std::fs::read_to_string(&ts).expect("the generated TypeScript");
    assert!(before.contains("headline"));

    edit(&bot.join("protocol.yaml"), "    headline:", "    title:");
    watch.until("changed: protocol.yaml");
    watch.until("generated 2 files: no problems");
    watch.until(watching);
    let after = std::fs::read_to_string(&ts).unwrap();
    assert!(
        after.contains("title") && !after.contains("headline"),
        "{after}"
    );

    // A change that breaks the protocol is reported, and the files stay.
    edit(
        &bot.join("protocol.yaml"),
        "type: KeyPoint[]",
        "type: KeyPoints[]",
    );
    watch.until("changed: protocol.yaml");
    watch.until("generated 0 files: 1 error");
    watch.until(watching);
    assert_eq!(std::fs::read_to_string(&ts).unwrap(), after);

    assert_eq!(watch.interrupt().code(), Some(0));
    // The files it wrote started no run of their own.
    let changed: Vec<&String> = watch
        .seen
        .iter()
        .filter(|l| l.starts_with("changed:"))
        .collect();
    assert_eq!(changed.len(), 2, "{}", watch.seen.join("\n"));
}

#[test]
fn watch_refuses_what_answers_once() {
    for args in [
        &["check", "--watch", "--diff"][..],
        &["check", "--watch", "--write-baseline", "b.toml"],
        &["check", "--watch", "--print-config"],
        &["check", "--no-clear"],
        &["gen", "--no-clear"],
    ] {
        let output = common::agentc(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            common::stderr(&output).contains("cannot be used with")
                || common::stderr(&output).contains("required"),
            "{args:?}: {}",
            common::stderr(&output)
        );
    }
}

#[test]
fn a_path_whose_folder_is_not_there_is_not_watched() {
    // Not the nearest folder that is there (the disk's root): exit 2.
    let output = common::agentc(&["check", "--watch", "/no/such/folder/protocol.yaml"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        common::stderr(&output).contains("cannot be watched: neither it nor its folder is there"),
        "{}",
        common::stderr(&output)
    );
}

/// The folder watched, removed and made again (a `git checkout` or `git
/// stash` of an agent folder), or moved away and made again: each is a
/// run, and what is written in the new folder afterwards is seen.
#[test]
fn a_watched_folder_removed_or_moved_and_made_again_is_watched_again() {
    let scratch = common::scratch("watch-again");
    let bot = agent(scratch.path());
    let mut watch = Watching::start(scratch.path(), &["check", "--watch", "bot"]);
    let first = watch.run();
    assert!(first.contains(&"checked 4 files: no problems".to_string()));

    std::fs::remove_dir_all(&bot).unwrap();
    let gone = watch.run();
    assert!(
        gone.iter().any(|l| l.contains("was not read")),
        "{}",
        gone.join("\n")
    );
    agent(scratch.path());
    let back = watch.run();
    assert!(
        back.contains(&"checked 4 files: no problems".to_string()),
        "{}",
        back.join("\n")
    );
    edit(
        &bot.join("protocol.yaml"),
        "type: KeyPoint[]",
        "type: KeyPoints[]",
    );
    let broken = watch.run();
    assert!(
        broken
            .iter()
            .any(|l| l.contains("type `KeyPoints` is not defined")),
        "{}",
        broken.join("\n")
    );

    std::fs::rename(&bot, scratch.path().join("bot.moved")).unwrap();
    let moved = watch.run();
    assert!(
        moved.iter().any(|l| l.contains("was not read")),
        "{}",
        moved.join("\n")
    );
    agent(scratch.path());
    let again = watch.run();
    assert!(
        again.contains(&"checked 4 files: no problems".to_string()),
        "{}",
        again.join("\n")
    );
    edit(
        &bot.join("protocol.yaml"),
        "type: KeyPoint[]",
        "type: KeyPoints[]",
    );
    let edited = watch.run();
    assert!(
        edited
            .iter()
            .any(|l| l.contains("type `KeyPoints` is not defined")),
        "{}",
        edited.join("\n")
    );
    assert_eq!(watch.interrupt().code(), Some(0));
}
