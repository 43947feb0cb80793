//! The regression guard: instruction counts of the `agentc` binary on
//! fixed workloads (commands over synthetic protocols and fixtures, and a
//! language server session that takes keystrokes), counted by callgrind (which counts instructions, not
//! seconds: the same for the same binary and input whatever else the
//! machine does), held to at most 5% above the numbers committed in
//! `benches/instructions.json`. A deliberate change that costs more updates
//! that file in the same commit: run this test with
//! `AGENTC_UPDATE_INSTRUCTIONS=1` and commit what it writes.
//!
//! The binary is the test build's (the `dev` profile), the one CI has
//! already built: an optimised build would add minutes to every run. Its
//! counts are not the shipped binary's (`docs/performance.md` has those),
//! but they move with the work agentc does, so a change that makes a
//! phase do more (a quadratic walk, a copy per node) shows here. They are
//! a compiler's: the file records the `rustc` that counted them, and under
//! another one the guard says so and compares nothing.
//!
//! Needs valgrind: `#[ignore]`d, required by `.ci/run` where it is
//! installed (`AGENTC_REQUIRE_VALGRIND=1`).

#[path = "../benches/synthetic/mod.rs"]
mod synthetic;

mod common;

use common::lsp_stdio::Server;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;

/// How much more a workload may cost than its committed number.
const TOLERANCE: f64 = 0.05;

const FILE: &str = "benches/instructions.json";

/// One workload: its name, the size of the synthetic protocol it reads
/// (`benches/synthetic`: 0 for none), and the arguments `agentc` runs
/// with, `{}` standing for that protocol's path. Small, as callgrind runs
/// the test build some fifty times slower than it runs: about ten seconds
/// in all.
const WORKLOADS: &[(&str, usize, &[&str])] = &[
    ("check synthetic 200 types", 200, &["check", "{}"]),
    (
        "check --format json synthetic 200 types",
        200,
        &["check", "--format", "json", "{}"],
    ),
    (
        "emit --target openai synthetic 100 types",
        100,
        &["emit", "--target", "openai", "{}"],
    ),
    (
        "emit --target gemini synthetic 40 types",
        40,
        &["emit", "--target", "gemini", "{}"],
    ),
    (
        "check protocols/shop-assistant/protocol.yaml",
        0,
        &["check", "protocols/shop-assistant/protocol.yaml"],
    ),
    (
        "check protocols/invalid/unknown-type.yaml",
        0,
        &["check", "protocols/invalid/unknown-type.yaml"],
    ),
    (
        "validate --lines 2,000 tool-call arguments",
        0,
        &[
            "validate",
            "protocols/shop-assistant/protocol.yaml",
            DATA,
            "--tool",
            "search-products",
            "--lines",
        ],
    ),
];

/// Where a workload's data file goes, in the scratch folder: JSON Lines of
/// `synthetic::search_arguments`.
const DATA: &str = "{data}";

/// The language server's workload: `agentc lsp` opens a synthetic
/// protocol of this many types, as an editor sends it, then takes this many
/// one-character edits inside its first type, each sent once the last one's
/// diagnostics are published (so none is coalesced with the next). What is
/// counted is the edits alone: the session with them less the session that
/// only opens the protocol. A change that made a keystroke check the whole
/// protocol again, rather than the edited entry, costs ten times as much.
const KEYSTROKE_TYPES: usize = 300;
const KEYSTROKES: usize = 10;
const KEYSTROKE_WORKLOAD: &str = "lsp: 10 keystrokes in a protocol of 300 types, past its opening";

fn rustc_version() -> String {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

/// `agentc` under callgrind, from the repository's root, its arguments
/// to be added.
fn callgrind(scratch: &Path) -> Command {
    let mut command = Command::new("valgrind");
    command
        .arg("--tool=callgrind")
        .arg(format!(
            "--callgrind-out-file={}",
            scratch.join("callgrind.out").display()
        ))
        .arg(env!("CARGO_BIN_EXE_agentc"))
        .current_dir(common::root())
        .env("NO_COLOR", "1");
    command
}

/// The instructions callgrind counted, from what it wrote to standard error.
fn collected(stderr: &str, what: &str) -> u64 {
    stderr
        .lines()
        .find_map(|line| line.split_once("Collected : ").map(|(_, n)| n.trim()))
        .and_then(|n| n.parse::<u64>().ok())
        .unwrap_or_else(|| panic!("no count from callgrind for {what}:\n{stderr}"))
}

/// The instructions `agentc ARGS` executes, by callgrind.
fn count(scratch: &Path, protocol: &Path, args: &[&str]) -> u64 {
    let data = scratch.join("arguments.jsonl");
    let validates = args.contains(&DATA);
    if validates && !data.exists() {
        let lines: String = synthetic::search_arguments(2_000)
            .iter()
            .map(|value| format!("{value}\n"))
            .collect();
        std::fs::write(&data, lines).expect("write the data");
    }
    let args: Vec<String> = args
        .iter()
        .map(|a| match *a {
            DATA => data.display().to_string(),
            _ => a.replace("{}", &protocol.display().to_string()),
        })
        .collect();
    let ran = callgrind(scratch)
        .args(&args)
        .output()
        .expect("run valgrind");
    // The data is valid: a run that stopped early would count nothing.
    assert!(
        !validates || ran.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&ran.stderr)
    );
    collected(&String::from_utf8_lossy(&ran.stderr), &format!("{args:?}"))
}

/// The instructions of an `agentc lsp` session that opens `text` and then
/// takes `keys` edits, each waited for (see [`KEYSTROKE_TYPES`]).
fn lsp_session(scratch: &Path, text: &str, keys: usize) -> u64 {
    let mut command = callgrind(scratch);
    command.arg("lsp");
    let mut server = Server::start(command);
    server.initialize();
    server.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "yaml", "version": 1, "text": text}}),
    );
    server.diagnostics(URI);
    for key in 0..keys {
        // Line 2 is the first type's `id`; character 37 is in its description.
        let range =
            json!({"start": {"line": 2, "character": 37}, "end": {"line": 2, "character": 38}});
        server.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": URI, "version": key + 2},
                   "contentChanges": [{"range": range, "text": if key % 2 == 0 { "i" } else { "I" }}]}),
        );
        server.diagnostics(URI);
    }
    server.request(2, "shutdown", Value::Null);
    server.notify("exit", Value::Null);
    let (status, stderr) = server.finish();
    assert!(
        status.success(),
        "agentc lsp under valgrind ended with {status}:\n{stderr}"
    );
    collected(&stderr, "agentc lsp")
}

const URI: &str = "untitled:keystrokes.yaml";

#[test]
#[ignore = "needs valgrind (CI runs it)"]
fn instruction_counts_stay_within_five_percent_of_the_committed_ones() {
    let has_valgrind = Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_valgrind {
        return common::unavailable("AGENTC_REQUIRE_VALGRIND", "valgrind is not installed");
    }
    let path = common::root().join(FILE);
    let committed: Value = std::fs::read_to_string(&path)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or(Value::Null);
    let rustc = rustc_version();
    let update = std::env::var("AGENTC_UPDATE_INSTRUCTIONS").as_deref() == Ok("1");
    if !update && committed["rustc"] != rustc.as_str() {
        println!(
            "skipped: {FILE} holds the counts of {}, and this is {rustc}: \
             counts are one compiler's (AGENTC_UPDATE_INSTRUCTIONS=1 records this one's)",
            committed["rustc"]
        );
        return;
    }

    let scratch = common::scratch("instructions");
    let mut counted = serde_json::Map::new();
    let mut report = Vec::new();
    let mut over = Vec::new();
    let keystrokes = || {
        let text = synthetic::protocol(KEYSTROKE_TYPES);
        let typed = lsp_session(scratch.path(), &text, KEYSTROKES);
        let opened = lsp_session(scratch.path(), &text, 0);
        typed.saturating_sub(opened)
    };
    let workloads = WORKLOADS
        .iter()
        .map(|(name, size, args)| (*name, Some((*size, *args))))
        .chain([(KEYSTROKE_WORKLOAD, None)]);
    for (name, run) in workloads {
        let now = match run {
            Some((size, args)) => {
                let protocol: PathBuf = scratch.path().join(format!("types-{size}/protocol.yaml"));
                if size > 0 && !protocol.exists() {
                    std::fs::create_dir_all(protocol.parent().expect("a folder"))
                        .expect("make the folder");
                    std::fs::write(&protocol, synthetic::protocol(size))
                        .expect("write the protocol");
                }
                count(scratch.path(), &protocol, args)
            }
            None => keystrokes(),
        };
        counted.insert(name.to_string(), json!(now));
        match committed["workloads"][name].as_u64() {
            Some(before) => {
                let change = now as f64 / before as f64 - 1.0;
                report.push(format!(
                    "{name}: {now} instructions, {:+.2}% against {before}",
                    change * 100.0
                ));
                if change > TOLERANCE {
                    over.push(format!("{name}: {:+.2}%", change * 100.0));
                }
            }
            None => {
                report.push(format!("{name}: {now} instructions, none committed"));
                over.push(format!("{name}: no committed count"));
            }
        }
    }
    println!("{}", report.join("\n"));
    if update {
        let file = json!({
            "about": "Instruction counts of the dev-profile agentc binary, by callgrind: tests/instructions.rs holds new counts to at most 5% above these. Update them with AGENTC_UPDATE_INSTRUCTIONS=1 cargo test --test instructions -- --include-ignored, in the commit that changes them.",
            "rustc": rustc,
            "workloads": counted,
        });
        let text = serde_json::to_string_pretty(&file).expect("json") + "\n";
        std::fs::write(&path, text).expect("write the counts");
        println!("wrote {FILE}");
        return;
    }
    assert!(
        over.is_empty(),
        "instruction counts rose more than {}% (a deliberate change updates {FILE}: \
         AGENTC_UPDATE_INSTRUCTIONS=1 cargo test --test instructions -- --include-ignored):\n{}",
        TOLERANCE * 100.0,
        over.join("\n")
    );
}
