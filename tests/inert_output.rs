//! Text from the input never acts on the terminal or page that shows it:
//! control characters, line and paragraph separators and bidirectional
//! controls in names, descriptions, file names and the source lines drawn
//! are shown escaped (`\u{1b}`) in the human, short, github and markdown
//! formats, and in the command line's own messages; JSON and SARIF keep
//! every text exact. `docs/security.md` names this test.

mod common;

use std::path::Path;
use std::process::Output;

/// Characters a terminal obeys or that reorder what it shows: ESC (screen
/// clear, an OSC 8 link), BEL, CR, the C1 CSI, DEL, a right-to-left
/// override, the line separator.
const UNSAFE: [char; 7] = [
    '\u{1b}', '\u{7}', '\r', '\u{9b}', '\u{7f}', '\u{202e}', '\u{2028}',
];

fn assert_inert(what: &str, output: &Output) {
    for (stream, bytes) in [("stdout", &output.stdout), ("stderr", &output.stderr)] {
        let text = String::from_utf8_lossy(bytes);
        assert!(!text.contains("panicked"), "{what}: {text}");
        for c in UNSAFE {
            assert!(
                !text.contains(c),
                "{what}: {stream} holds {c:?} unescaped:\n{text}"
            );
        }
    }
}

fn run(dir: &Path, args: &[&str]) -> Output {
    common::agentc_in(dir, args)
}

/// A protocol whose names and descriptions carry escape sequences: an
/// unknown key (quoted in its message), a tool description, and a raw ESC
/// in the source, which YAML refuses (drawn in the excerpt).
fn hostile_protocol() -> String {
    [
        "agent:",
        "  model: anthropic/claude-sonnet-4-5",
        "  system: system",
        "  tools: [get-order]",
        "  \"\\e[2J\\e]8;;https://evil.example\\aclick\\e]8;;\\a\": 1",
        "tools:",
        "  get-order:",
        "    description: \"Gets \\e[31mred\\e[0m \\u009b2J \\u202e \\u2028 \\x7f\"",
        "    parameters:",
        "      \"id\\e[2J\":",
        "        type: strin",
        "triggers:",
        "  user-message:",
        "    input:",
        "      MESSAGE: { type: string }",
        "handlers:",
        "  user-message:",
        "    Respond:",
        "      block: next-message",
        "# raw: \u{1b}[2J\u{7} \u{9b}1m \u{202e}gnp.exe",
        "",
    ]
    .join("\n")
}

#[test]
fn every_format_people_read_shows_control_characters_escaped() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let name = "p\u{1b}[2J\u{202e}.yaml";
    std::fs::write(dir.path().join(name), hostile_protocol()).expect("write");
    let mut drawn = String::new();
    for format in ["human", "short", "github", "markdown"] {
        let output = run(dir.path(), &["check", "--format", format, name]);
        assert_eq!(output.status.code(), Some(1), "{format}");
        assert_inert(format, &output);
        drawn.push_str(&common::stdout(&output));
    }
    // Shown, not dropped: the reader sees what the file holds.
    assert!(drawn.contains("\\u{1b}[2J"), "{drawn}");
    assert!(drawn.contains("\\u{202e}"), "{drawn}");

    // The machine formats keep every text exact.
    let json = run(dir.path(), &["check", "--format", "json", name]);
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let diagnostics = report["diagnostics"].as_array().expect("diagnostics");
    assert_eq!(diagnostics[0]["file"], name);
    assert!(
        diagnostics.iter().any(|d| d["message"]
            .as_str()
            .is_some_and(|m| m.contains("\u{1b}[2J"))),
        "{report:#}"
    );
    let sarif = run(dir.path(), &["check", "--format", "sarif", name]);
    assert!(serde_json::from_slice::<serde_json::Value>(&sarif.stdout).is_ok());
}

#[test]
fn the_command_lines_own_messages_are_inert() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let missing = "gone\u{1b}]0;pwned\u{7}.yaml";
    for args in [
        vec!["emit", missing],
        vec!["validate", missing, "-"],
        vec!["check", missing],
        vec!["explain", "no-such\u{1b}[2J"],
    ] {
        let output = run(dir.path(), &args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_inert(&format!("{args:?}"), &output);
    }
}
