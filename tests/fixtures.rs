//! Every fixture under `protocols/invalid/` declares what it must produce,
//! on the line above the place: `# error[unknown-type]`. The checker must
//! report exactly those (severity, code, line) triples, no more, no fewer;
//! a fixture with a `# agentc check --target T` line is also checked against
//! those targets;
//! the human and JSON renderings of each fixture are snapshots. Every valid
//! protocol under `protocols/` checks with no diagnostics at all.

mod common;

use agentc::Severity;
use agentc::render::{human, json};

/// (severity, code, line) declared by `# severity[code]` comments; each
/// applies to the first following line that is not such a comment.
fn expectations(text: &str) -> Vec<(String, String, usize)> {
    let mut expected = Vec::new();
    let mut pending = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        let annotation = ["error", "warning", "info"].iter().find_map(|severity| {
            let rest = trimmed
                .strip_prefix("# ")?
                .strip_prefix(severity)?
                .strip_prefix('[')?;
            let code = rest.split_once(']')?.0;
            Some((severity.to_string(), code.to_string()))
        });
        match annotation {
            Some(annotation) => pending.push(annotation),
            None => expected.extend(pending.drain(..).map(|(s, c)| (s, c, index + 1))),
        }
    }
    assert!(
        pending.is_empty(),
        "an expectation at the end of the file applies to no line"
    );
    expected.sort();
    expected
}

#[test]
fn invalid_fixtures_report_exactly_what_they_declare() {
    let dir = common::root().join("protocols/invalid");
    let fixtures = common::files(&dir, "yaml");
    assert!(!fixtures.is_empty(), "no fixtures in {}", dir.display());
    let mut failures = Vec::new();
    for path in &fixtures {
        let bytes = std::fs::read(path).expect("read fixture");
        let expected = expectations(&String::from_utf8_lossy(&bytes));
        assert!(
            !expected.is_empty(),
            "{} declares no expectation",
            path.display()
        );
        let compiled = common::compile_fixture(path);
        let mut actual: Vec<(String, String, usize)> = compiled
            .diagnostics
            .iter()
            .map(|d| {
                let line = compiled.source.position(d.span.start as usize).line;
                (
                    d.severity.as_str().to_string(),
                    d.code.name().to_string(),
                    line,
                )
            })
            .collect();
        actual.sort();
        if actual != expected {
            failures.push(format!(
                "{}\n  expected {expected:?}\n  reported {actual:?}",
                common::display(path)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "fixtures disagree:\n{}",
        failures.join("\n")
    );
}

#[test]
fn every_code_has_an_invalid_fixture() {
    let dir = common::root().join("protocols/invalid");
    let mut texts: Vec<String> = common::files(&dir, "yaml")
        .iter()
        .map(|p| String::from_utf8_lossy(&std::fs::read(p).expect("read fixture")).into_owned())
        .collect();
    // The agent-folder fixtures name theirs in `expected.txt`, one
    // `<file>:<line> <severity>[<code>]` a line.
    let agents = common::root().join("protocols/invalid-agents");
    for entry in std::fs::read_dir(&agents).expect("list protocols/invalid-agents") {
        let expected = entry.expect("directory entry").path().join("expected.txt");
        if expected.is_file() {
            texts.push(std::fs::read_to_string(&expected).expect("read expected.txt"));
        }
    }
    // The data fixtures name theirs in `protocols/data/*.expected`.
    let data = common::root().join("protocols/data");
    for expected in common::files(&data, "expected") {
        texts.push(std::fs::read_to_string(&expected).expect("read .expected"));
    }
    // The contract diff's cases name theirs in
    // `protocols/diff/*/expected.txt` (`tests/diff.rs`).
    let diff = common::root().join("protocols/diff");
    for case in std::fs::read_dir(&diff).expect("list protocols/diff") {
        let expected = case.expect("entry").path().join("expected.txt");
        texts.push(std::fs::read_to_string(&expected).expect("read expected.txt"));
    }
    // Tested by generating input over the limit instead: a file in the CLI
    // tests, schemas of thousands of nodes in `tests/limits.rs`. An
    // `unmapped-input` comes only from `emit --meta` (CLI tests). The
    // backend's size limits are generated at their boundaries, and the last
    // two codes come only from schemas agentc does not emit, given to
    // `Validator::from_schema` (both in `tests/validate.rs`).
    let generated = [
        "file-too-large",
        "scalar-too-large",
        "too-many-properties",
        "too-many-enum-values",
        "schema-text-too-long",
        "payload-too-large",
        "too-many-messages",
        "user-text-too-long",
        "no-matching-variant",
        "schema-violation",
        // An `enum` of 100,001 values, and `agentc.toml` of 1,001 globs:
        // `tests/limits.rs`.
        "enum-limit",
        "glob-limit",
    ];
    // Codes about agentc's own configuration and `agentc-ignore`
    // comments come from the check as the CLI runs it, not from
    // `compile`: `tests/check_cli.rs` and `src/config/mod.rs` test the first,
    // `tests/suppress.rs` (with `protocols/suppress/`) the others.
    // What a folder holds that git cannot (FIFOs, links out of the
    // checkout, files without permission), paths that do not exist, and a
    // flood past the diagnostics limit are made by `tests/hostile.rs` and
    // `tests/cli.rs` at run time.
    let generated = [
        &generated[..],
        &[
            "invalid-config",
            "invalid-suppression",
            "suppression-without-reason",
            "unused-suppression",
            // The baseline's: `tests/baseline.rs`.
            "invalid-baseline",
            "unused-baseline-entry",
            "unreadable-file",
            "not-a-file",
            "link-outside-folder",
            "invalid-path",
            "too-many-problems",
            "value-too-large",
            // A revision git does not have: `tests/diff_git.rs`.
            "missing-revision",
            // `agentc gen`'s own: `tests/codegen.rs`.
            "gen-reserved-name",
            "gen-name-collision",
            "gen-would-overwrite",
            "gen-stale",
            // `agentc init`'s own: `tests/init.rs`.
            "init-would-overwrite",
        ],
    ]
    .concat();
    let missing: Vec<&str> = agentc::Code::ALL
        .iter()
        .map(|c| c.name())
        .filter(|name| !generated.contains(name))
        .filter(|name| !texts.iter().any(|t| t.contains(&format!("[{name}]"))))
        .collect();
    assert!(missing.is_empty(), "codes without a fixture: {missing:?}");
}

#[test]
fn fixture_output_snapshots() {
    let dir = common::root().join("protocols/invalid");
    let settings = common::snapshot_settings();
    settings.bind(|| {
        for path in common::files(&dir, "yaml") {
            let stem = path
                .file_stem()
                .and_then(|s| s.to_str())
                .expect("fixture name");
            let compiled = common::compile_fixture(&path);
            insta::assert_snapshot!(
                format!("{stem}.human"),
                human::render(&compiled, human::Style::Plain)
            );
            insta::assert_snapshot!(
                format!("{stem}.json"),
                json::render(std::slice::from_ref(&compiled))
            );
        }
    });
}

#[test]
fn valid_protocols_have_no_diagnostics() {
    let protocols = common::valid_protocols();
    assert!(
        protocols.len() >= 2,
        "expected the example protocols under protocols/"
    );
    for path in protocols {
        let compiled = common::compile(&path);
        assert!(compiled.model.is_some());
        assert_eq!(
            compiled.count(Severity::Error) + compiled.count(Severity::Warning),
            0,
            "{}:\n{}",
            path.display(),
            human::render(&compiled, human::Style::Plain)
        );
    }
}
