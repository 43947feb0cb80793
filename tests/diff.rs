//! The contract diff on fixture pairs: `protocols/diff/<case>/old.yaml`
//! and `new.yaml`, with the case's `agentc.toml` when it has one. Each
//! case's `expected.txt` lists every change, one per line, as
//! `severity[code] contract path`; the human and JSON output are insta
//! snapshots. `AGENTC_BLESS=1` writes `expected.txt` from what the diff
//! finds, for review.

mod common;

use agentc::config::Config;
use agentc::render::{human, json};
use agentc::{Diagnostic, FileReport};
use std::path::{Path, PathBuf};

fn cases() -> Vec<PathBuf> {
    let dir = common::root().join("protocols/diff");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("list protocols/diff")
        .map(|entry| entry.expect("entry").path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    cases
}

fn compile(case: &Path, file: &str) -> FileReport {
    let name = format!(
        "protocols/diff/{}/{file}",
        case.file_name()
            .and_then(|n| n.to_str())
            .expect("case name")
    );
    agentc::compile(&name, std::fs::read(case.join(file)).expect("read fixture"))
}

fn config(case: &Path) -> Config {
    let path = case.join("agentc.toml");
    match std::fs::read(&path) {
        Ok(bytes) => Config::parse(&path, &bytes)
            .unwrap_or_else(|(_, problems)| panic!("{}: {problems:?}", path.display())),
        Err(_) => Config::defaults(case),
    }
}

/// The case's new version with the changes the diff adds to it.
fn diffed(case: &Path) -> FileReport {
    let old = compile(case, "old.yaml");
    let mut new = compile(case, "new.yaml");
    let config = config(case);
    let mut found = agentc::diff::reports(&old, &new, old.source.name(), &config.diff);
    config.apply(&mut found);
    new.diagnostics.clear();
    new.add(found.into());
    new
}

fn line(d: &Diagnostic) -> String {
    match &d.change {
        Some(change) => format!(
            "{}[{}] {} {}",
            d.severity.as_str(),
            d.code.name(),
            change.contract,
            change.path
        )
        .trim_end()
        .to_string(),
        None => format!("{}[{}] {}", d.severity.as_str(), d.code.name(), d.message),
    }
}

#[test]
fn every_case_finds_exactly_its_expected_changes() {
    let bless = std::env::var_os("AGENTC_BLESS").is_some();
    let mut failures = Vec::new();
    for case in cases() {
        let report = diffed(&case);
        let found: String = report.diagnostics.iter().map(|d| line(d) + "\n").collect();
        let expected_path = case.join("expected.txt");
        if bless {
            std::fs::write(&expected_path, &found).expect("write expected.txt");
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if found != expected {
            failures.push(format!(
                "{}:\n--- expected\n{expected}--- found\n{found}",
                case.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn case_output_snapshots() {
    let settings = common::snapshot_settings();
    settings.bind(|| {
        for case in cases() {
            let name = case
                .file_name()
                .and_then(|n| n.to_str())
                .expect("case name")
                .to_string();
            let report = diffed(&case);
            insta::assert_snapshot!(
                format!("diff-{name}.human"),
                human::render(&report, human::Style::Plain)
            );
            insta::assert_snapshot!(
                format!("diff-{name}.json"),
                json::render(std::slice::from_ref(&report))
            );
        }
    });
}

#[test]
fn a_version_against_itself_has_no_changes() {
    for case in cases() {
        for file in ["old.yaml", "new.yaml"] {
            let a = compile(&case, file);
            let b = compile(&case, file);
            let found = agentc::diff::reports(&a, &b, "a", &Default::default());
            let found: Vec<_> = found
                .iter()
                .filter(|d| d.code != agentc::Code::DiffSkipped)
                .map(line)
                .collect();
            assert!(found.is_empty(), "{}/{file}: {found:?}", case.display());
        }
    }
}

/// The public Octavus example app's own history
/// (`octavus-ai/example-nextjs`, `octavus-agents/assistant/protocol.yaml`
/// at `c8bff60`, `bbe859c` and `1caba77`): each step adds client tools
/// that fail with "No client handler for tool" unless the client ships
/// its handler first.
#[test]
#[ignore = "needs ../shared/corpus beside the checkout (CI runs it)"]
fn the_real_history_of_the_octavus_example_app() {
    let Some(corpus) = common::shared("corpus/octavus-examples") else {
        return;
    };
    let file = |version: &str| {
        let name = format!(
            "octavus-ai__example-nextjs__octavus-agents__assistant__protocol{version}.yaml"
        );
        let bytes = std::fs::read(corpus.join(&name)).expect("read the corpus file");
        agentc::compile(&name, bytes)
    };
    let (first, second, head) = (file("@c8bff60"), file("@bbe859c"), file(""));
    let changes = |old: &FileReport, new: &FileReport| -> Vec<String> {
        agentc::diff::reports(old, new, old.source.name(), &Default::default())
            .iter()
            .map(|d| {
                let at = new.source.position(d.span.start as usize);
                format!("{}:{} {}", at.line, at.column, line(d))
            })
            .collect()
    };
    assert_eq!(
        changes(&first, &second),
        [
            "69:3 warning[tool-added] tool `get-browser-info`",
            "73:3 warning[tool-added] tool `request-feedback`",
        ]
    );
    assert_eq!(
        changes(&second, &head),
        ["76:3 warning[tool-added] tool `set-chat-metadata`"]
    );
    // Undone, each is a tool that can no longer be called, reported at
    // `tools:` of the version without it.
    assert_eq!(
        changes(&head, &first),
        [
            "58:1 warning[tool-removed] tool `get-browser-info`",
            "58:1 warning[tool-removed] tool `request-feedback`",
            "58:1 warning[tool-removed] tool `set-chat-metadata`",
        ]
    );
    // The message names what calls the tool.
    let found = agentc::diff::reports(&second, &head, "bbe859c", &Default::default());
    assert!(
        found[0]
            .message
            .contains("(by the `tool-call` block \"Save metadata\")"),
        "{}",
        found[0].message
    );
}

/// Errors that a configuration turned off (or an `agentc-ignore` comment
/// silenced) are gone from a version's report, not from its model: the
/// diff never compares such a model, and says so, as an error when it is
/// the new version (a gate that skipped in silence would pass it).
#[test]
fn a_version_whose_errors_are_silenced_is_not_compared() {
    let case = common::root().join("protocols/diff/tool-added");
    let old = compile(&case, "old.yaml");
    let text = std::fs::read_to_string(case.join("new.yaml")).expect("read");
    let broken = text.replacen("type: string", "type: strin", 1);
    assert_ne!(broken, text);
    let mut new = agentc::compile("new.yaml", broken.clone());
    assert!(new.has_errors());
    let config = Config::parse(
        Path::new("agentc.toml"),
        b"[severity]\nunknown-type = \"off\"\n",
    )
    .expect("a configuration");
    config.apply(&mut new.diagnostics);
    assert!(!new.has_errors());
    let found = agentc::diff::reports(&old, &new, "old.yaml", &config.diff);
    let codes: Vec<(&str, agentc::Severity)> =
        found.iter().map(|d| (d.code.name(), d.severity)).collect();
    assert_eq!(codes, [("diff-skipped", agentc::Severity::Error)]);

    // As the old version: not compared, a warning (a broken base must not
    // block its own fix).
    let mut old = agentc::compile("old.yaml", broken);
    config.apply(&mut old.diagnostics);
    let new = compile(&case, "new.yaml");
    let found = agentc::diff::reports(&old, &new, "old.yaml", &config.diff);
    let codes: Vec<(&str, agentc::Severity)> =
        found.iter().map(|d| (d.code.name(), d.severity)).collect();
    assert_eq!(codes, [("diff-skipped", agentc::Severity::Warning)]);
}
