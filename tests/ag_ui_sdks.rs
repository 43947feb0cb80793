//! agentc's verdicts on AG-UI `RunAgentInput` payloads beside the two
//! published AG-UI 1.0 SDKs': `@ag-ui/core` 1.0.0 (the zod
//! `RunAgentInputSchema` of `@ag-ui/core/schemas`) and `ag-ui-protocol`
//! 1.0.0 (pydantic `RunAgentInput.model_validate`), both pinned in
//! `tests/conformance/` and installed by `tests/conformance/install`.
//!
//! Every payload goes through all three: the AG-UI draft's fixtures (the
//! message and tool fixtures inside a payload), the payloads under
//! `protocols/data/`, and the cases of `tests/conformance/ag-ui/`. A verdict
//! is accept (agentc: no errors under the default `ag-ui` profile, AG-UI
//! 1.0) or reject. Every payload on which agentc and an SDK disagree must be
//! listed, with both verdicts, in the table of `docs/conformance.md`
//! ("AG-UI 1.0 SDKs"), and every row there must still be a disagreement.
//!
//! The SDKs are found at `tests/conformance/node_modules/` (Node: `$NODE`,
//! else `node`) and in the Python of `$AGENTC_AG_UI_PYTHON`, else
//! `target/conformance/venv/bin/python`. The test is `#[ignore]`d, since a
//! fresh clone has neither; `.ci/run` installs them and runs it (`cargo
//! test -- --include-ignored`). Run so without them, it says why and
//! returns, unless `AGENTC_REQUIRE_AG_UI_SDKS=1` (as `.ci/run` sets) makes
//! that a failure. The AG-UI draft's fixtures come from `../shared/corpus/`
//! (`AGENTC_REQUIRE_SHARED=1` makes their absence a failure).

mod common;

use agentc::Severity;
use agentc::validate::run_input::{Profile, RunInputValidator};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const SECTION: &str = "## AG-UI 1.0 SDKs";

fn skip(reason: &str) {
    common::unavailable(
        "AGENTC_REQUIRE_AG_UI_SDKS",
        &format!(
            "{reason}: run tests/conformance/install, which installs the pinned SDKs, \
             or point AGENTC_AG_UI_PYTHON at a Python with ag-ui-protocol==1.0.0"
        ),
    );
}

fn python() -> PathBuf {
    std::env::var_os("AGENTC_AG_UI_PYTHON")
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| common::root().join("target/conformance/venv/bin/python"))
}

fn node() -> String {
    std::env::var("NODE")
        .ok()
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "node".to_string())
}

fn read(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).expect("read a payload"))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A message fixture inside a payload; a tool message follows the call it
/// answers, so that only the message itself is judged.
fn with_message(message: Value) -> Value {
    let mut messages = Vec::new();
    if message.get("role") == Some(&json!("tool"))
        && let Some(id) = message.get("toolCallId").and_then(Value::as_str)
    {
        messages.push(
            json!({"id": "agentc-call", "role": "assistant", "toolCalls": [
                {"id": id, "type": "function", "function": {"name": "f", "arguments": "{}"}}
            ]}),
        );
    }
    messages.push(message);
    json!({"threadId": "t", "runId": "r", "messages": messages,
           "tools": [{"name": "f", "description": "F"}]})
}

/// Every payload, by name.
fn payloads() -> BTreeMap<String, Value> {
    let mut all = BTreeMap::new();
    let root = common::root();
    for path in common::files(&root.join("tests/conformance/ag-ui"), "json") {
        let name = path.file_stem().unwrap().to_string_lossy();
        all.insert(format!("ag-ui/{name}"), read(&path));
    }
    for path in common::files(&root.join("protocols/data"), "json") {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if name.starts_with("run-input") {
            all.insert(format!("data/{name}"), read(&path));
        }
    }
    if let Some(fixtures) = common::shared("corpus/ag-ui-draft/fixtures") {
        let before = all.len();
        for definition in ["RunAgentInput", "UserMessage", "ToolMessage", "Tool"] {
            for kind in ["valid", "invalid"] {
                for path in common::files(&fixtures.join(definition).join(kind), "json") {
                    let name = path.file_stem().unwrap().to_string_lossy().into_owned();
                    if name.ends_with(".expect") {
                        continue;
                    }
                    let value = read(&path);
                    let payload = match definition {
                        "RunAgentInput" => value,
                        "Tool" => json!({"threadId": "t", "runId": "r", "messages": [],
                                         "tools": [value]}),
                        _ => with_message(value),
                    };
                    all.insert(format!("draft/{definition}/{kind}/{name}"), payload);
                }
            }
        }
        let drafts = all.len() - before;
        assert!(drafts >= 25, "only {drafts} payloads of the AG-UI draft");
    }
    all
}

/// One SDK's verdicts, by name: the script prints one JSON line each.
fn verdicts(mut command: Command, manifest: &Path, sdk: &str) -> BTreeMap<String, (bool, String)> {
    let output = command
        .arg(manifest)
        .output()
        .unwrap_or_else(|e| panic!("{sdk}: {e}"));
    assert!(
        output.status.success(),
        "{sdk} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .expect("UTF-8 output")
        .lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line).expect("a JSON line");
            let name = v["name"].as_str().expect("a name").to_string();
            let accept = v["accept"].as_bool().expect("a verdict");
            let reason = v["reason"].as_str().unwrap_or("").to_string();
            (name, (accept, reason))
        })
        .collect()
}

fn word(accept: bool) -> &'static str {
    if accept { "accept" } else { "reject" }
}

/// The rows of the table in `docs/conformance.md`: name, then the three
/// verdicts (agentc, @ag-ui/core, ag-ui-protocol).
fn listed() -> BTreeMap<String, [String; 3]> {
    let doc = std::fs::read_to_string(common::root().join("docs/conformance.md"))
        .expect("read docs/conformance.md");
    let start = doc
        .find(SECTION)
        .expect("docs/conformance.md has the AG-UI section");
    let section = &doc[start + SECTION.len()..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let mut rows = BTreeMap::new();
    for line in section.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 6 || !cells[1].starts_with('`') {
            continue;
        }
        let name = cells[1].trim_matches('`').to_string();
        let verdicts = [cells[2], cells[3], cells[4]].map(String::from);
        assert!(
            rows.insert(name.clone(), verdicts).is_none(),
            "`{name}` is listed twice"
        );
    }
    rows
}

#[test]
#[ignore = "needs @ag-ui/core and ag-ui-protocol, and ../shared/corpus beside the checkout: tests/conformance/install (CI runs it)"]
fn agentc_agrees_with_both_ag_ui_sdks_except_where_listed() {
    let root = common::root();
    let here = root.join("tests/conformance");
    if !here.join("node_modules/@ag-ui/core/package.json").is_file() {
        return skip("@ag-ui/core is not installed in tests/conformance/node_modules");
    }
    let python = python();
    if !python.is_file() {
        return skip(&format!("no Python at {}", python.display()));
    }
    if Command::new(node()).arg("--version").output().is_err() {
        return skip(&format!("no Node.js (`{}`)", node()));
    }
    let payloads = payloads();
    let drafts = payloads.keys().filter(|n| n.starts_with("draft/")).count();
    assert!(
        payloads.len() - drafts >= 30,
        "only {} payloads of this repository",
        payloads.len() - drafts
    );

    let manifest = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ag-ui-sdks-manifest.json");
    let items: Vec<Value> = payloads
        .iter()
        .map(|(name, payload)| json!({"name": name, "payload": payload}))
        .collect();
    std::fs::write(&manifest, serde_json::to_vec(&items).unwrap()).unwrap();

    let mut ts = Command::new(node());
    ts.current_dir(&here).arg(here.join("ag_ui_verdicts.mjs"));
    let ts = verdicts(ts, &manifest, "@ag-ui/core");
    let mut py = Command::new(&python);
    py.current_dir(&here).arg(here.join("ag_ui_verdicts.py"));
    let py = verdicts(py, &manifest, "ag-ui-protocol");

    let validator = RunInputValidator::new(Profile::AgUi).unwrap();
    let mut found = BTreeMap::new();
    let mut report = String::new();
    for (name, payload) in &payloads {
        let violations = validator.validate(payload, 0);
        let errors: Vec<String> = violations
            .iter()
            .filter(|v| v.code.severity() == Severity::Error)
            .map(|v| format!("{}[{}]", v.code.name(), v.pointer))
            .collect();
        let agentc = errors.is_empty();
        let (ts, ts_reason) = ts
            .get(name)
            .unwrap_or_else(|| panic!("{name}: no TS verdict"));
        let (py, py_reason) = py
            .get(name)
            .unwrap_or_else(|| panic!("{name}: no Python verdict"));
        if agentc != *ts || agentc != *py {
            found.insert(
                name.clone(),
                [agentc, *ts, *py].map(|a| word(a).to_string()),
            );
            report.push_str(&format!(
                "| `{name}` | {} | {} | {} | agentc: {}; @ag-ui/core: {}; ag-ui-protocol: {} |\n",
                word(agentc),
                word(*ts),
                word(*py),
                errors.join(", "),
                ts_reason,
                py_reason
            ));
        }
    }
    eprintln!(
        "{} payloads; {} disagreements:\n{report}",
        payloads.len(),
        found.len()
    );
    let listed = listed();
    let unlisted: Vec<&String> = found
        .iter()
        .filter(|(name, verdicts)| listed.get(*name) != Some(*verdicts))
        .map(|(name, _)| name)
        .collect();
    let stale: Vec<&String> = listed
        .iter()
        .filter(|(name, verdicts)| found.get(*name) != Some(*verdicts))
        .map(|(name, _)| name)
        .collect();
    assert!(
        unlisted.is_empty() && stale.is_empty(),
        "disagreements not listed (or listed with other verdicts) in docs/conformance.md: \
         {unlisted:?}\nlisted but not found: {stale:?}\nfound:\n{report}"
    );
}
