//! `agentc validate`, run as the real binary. Each data fixture under
//! `protocols/data/` has a `.expected` file: the command on its first line,
//! then one `<line> <severity>[<code>]` per diagnostic it must report, no
//! more, no fewer. The human and JSON outputs are snapshots.

mod common;

use common::{agentc, stderr, stdout};
use serde_json::Value;

struct Fixture {
    name: String,
    args: Vec<String>,
    expected: Vec<String>,
}

fn fixtures() -> Vec<Fixture> {
    let dir = common::root().join("protocols/data");
    let list = common::files(&dir, "expected");
    assert!(!list.is_empty(), "no fixtures in {}", dir.display());
    list.iter()
        .map(|path| {
            let text = std::fs::read_to_string(path).expect("read .expected");
            let mut lines = text.lines();
            let command = lines.next().expect("a command line");
            let args = command
                .strip_prefix("agentc ")
                .expect("the command starts with `agentc`")
                .split_whitespace()
                .map(String::from)
                .collect();
            let mut expected: Vec<String> = lines.map(String::from).collect();
            expected.sort();
            Fixture {
                name: path.file_stem().unwrap().to_string_lossy().into_owned(),
                args,
                expected,
            }
        })
        .collect()
}

fn run(fixture: &Fixture, extra: &[&str]) -> std::process::Output {
    let mut args: Vec<&str> = fixture.args.iter().map(String::as_str).collect();
    args.extend(extra);
    agentc(&args)
}

#[test]
fn data_fixtures_report_exactly_what_they_declare() {
    for fixture in fixtures() {
        let output = run(&fixture, &["--format", "json"]);
        let report: Value = serde_json::from_slice(&output.stdout).expect("JSON output");
        let mut reported: Vec<String> = report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                format!(
                    "{} {}[{}]",
                    d["line"],
                    d["severity"].as_str().unwrap(),
                    d["code"].as_str().unwrap()
                )
            })
            .collect();
        reported.sort();
        assert_eq!(reported, fixture.expected, "{}", fixture.name);
        let errors = report["summary"]["errors"].as_u64().unwrap();
        assert_eq!(
            output.status.code(),
            Some(if errors > 0 { 1 } else { 0 }),
            "{}",
            fixture.name
        );
        // Every diagnostic about a value names its JSON pointer; only text
        // that does not parse, and a byte order mark before the value, have
        // no value to point at.
        for d in report["diagnostics"].as_array().unwrap() {
            // An SSE event without data, and a stream that ends early,
            // have none either; nor has a repeated key, which is a fact of
            // the text: the value read has one member by that name.
            let unparsed = [
                "invalid-json",
                "invalid-arguments",
                "nesting-limit",
                "byte-order-mark",
                "invalid-event-stream",
                "event-order",
                "duplicate-key",
            ]
            .contains(&d["code"].as_str().unwrap_or_default());
            assert!(
                unparsed || d["pointer"].is_string(),
                "{}: {d}",
                fixture.name
            );
        }
    }
}

#[test]
fn data_fixture_snapshots() {
    let settings = common::snapshot_settings();
    settings.bind(|| {
        for fixture in fixtures() {
            insta::assert_snapshot!(
                format!("data-{}.human", fixture.name),
                stdout(&run(&fixture, &[]))
            );
            insta::assert_snapshot!(
                format!("data-{}.json", fixture.name),
                stdout(&run(&fixture, &["--format", "json"]))
            );
        }
    });
}

const SHOP: &str = "protocols/shop-assistant/protocol.yaml";

fn with_stdin(args: &[&str], input: impl AsRef<[u8]>) -> std::process::Output {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_agentc"))
        .args(args)
        .current_dir(common::root())
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run agentc");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_ref())
        .unwrap();
    child.wait_with_output().expect("wait for agentc")
}

#[test]
fn valid_data_exits_0() {
    let output = with_stdin(
        &["validate", SHOP, "--tool", "get-order", "-"],
        r#"{"orderId": "o1"}"#,
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "validated 1 value against the arguments of `get-order`: no problems\n"
    );
    // The same arguments as AG-UI carries them: a JSON-encoded string.
    let output = with_stdin(
        &["validate", SHOP, "--tool", "get-order", "-"],
        r#""{\"orderId\": \"o1\"}""#,
    );
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
}

#[test]
fn stdin_data_is_named_and_located() {
    let output = with_stdin(
        &["validate", SHOP, "--type", "Money", "-", "--format", "json"],
        "{\n  \"amount\": \"12\",\n  \"currency\": \"USD\"\n}\n",
    );
    assert_eq!(output.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let d = &report["diagnostics"][0];
    assert_eq!(d["file"], "<stdin>");
    assert_eq!(d["pointer"], "/amount");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(2), Some(13))
    );
    assert_eq!(d["message"], "expected number, found string `\"12\"`");
}

#[test]
fn warnings_fail_only_when_denied() {
    let payload = r#"{"threadId": "t", "runId": "r", "messages": [
        {"id": "1", "role": "assistant", "toolCalls": [{"id": "c", "type": "function", "function": {"name": "x", "arguments": "{}"}}]}]}"#;
    let output = with_stdin(&["validate", "run-input", "-"], payload);
    assert_eq!(output.status.code(), Some(0));
    assert!(
        stdout(&output).ends_with("1 warning\n"),
        "{}",
        stdout(&output)
    );
    let output = with_stdin(&["validate", "run-input", "-", "--deny-warnings"], payload);
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn what_cannot_be_validated_exits_2() {
    // Unreadable data.
    let output = agentc(&[
        "validate",
        SHOP,
        "--tool",
        "get-order",
        "protocols/data/missing.json",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let printed = stdout(&output);
    assert!(
        printed.contains("× `protocols/data/missing.json` was not read: no such file or directory")
            && printed
                .ends_with("validated 0 values against the arguments of `get-order`: 1 error\n"),
        "{printed}"
    );
    // An unknown tool or type.
    let output = agentc(&[
        "validate",
        SHOP,
        "--tool",
        "get-ordr",
        "protocols/data/search-products.json",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "error: no tool named `get-ordr` in the protocol\n  help: did you mean `get-order`?\n"
    );
    // A protocol with errors: there is nothing to validate against.
    let output = agentc(&[
        "validate",
        "protocols/invalid/unknown-type.yaml",
        "--type",
        "Order",
        "protocols/data/search-products.json",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("nothing validated"),
        "{}",
        stderr(&output)
    );
    // Neither `--type` nor `--tool`, or both.
    let output = agentc(&["validate", SHOP, "protocols/data/search-products.json"]);
    assert_eq!(output.status.code(), Some(2));
    let output = agentc(&[
        "validate",
        SHOP,
        "--type",
        "Money",
        "--tool",
        "get-order",
        "protocols/data/search-products.json",
    ]);
    assert_eq!(output.status.code(), Some(2));
    // A protocol for run-input that does not exist.
    let output = agentc(&[
        "validate",
        "run-input",
        "protocols/data/run-input.json",
        "--protocol",
        "nope.yaml",
    ]);
    assert_eq!(output.status.code(), Some(2));
}

/// Data past the 16 MiB agentc reads was not read, so nothing was
/// validated: exit 2 and "0 values", as for a file that cannot be opened,
/// for every kind of data.
#[test]
fn data_past_the_limit_is_not_validated() {
    let mut big = b"{\"query\": \"".to_vec();
    big.resize(16 * 1024 * 1024 + 1, b'a');
    for (args, against) in [
        (
            &["validate", SHOP, "--tool", "search-products", "-"][..],
            "the arguments of `search-products`",
        ),
        (&["validate", "run-input", "-"][..], "AG-UI"),
    ] {
        let output = with_stdin(args, &big);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let printed = stdout(&output);
        assert!(
            printed.contains("× standard input was not read: it is larger than 16 MiB")
                && printed.contains(&format!("validated 0 values against {against}")),
            "{printed}"
        );
    }
}

#[test]
fn data_that_is_not_text_is_invalid_data() {
    let output = with_stdin(
        &["validate", "run-input", "-", "--format", "json"],
        b"{\"threadId\": \"\xff\"}",
    );
    assert_eq!(output.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["diagnostics"][0]["code"], "invalid-utf8");
}
