//! `--format sarif` against the official OASIS SARIF 2.1.0 JSON Schema,
//! and against the JSON renderer: every fixture under `protocols/invalid/`
//! and `protocols/invalid-agents/` and the valid protocols, in one log and
//! one log per file, must validate; each result must say what the JSON
//! report says (code, severity, place, labels) and carry the diagnostic's
//! fix; file names must be URI references.
//!
//! The schema is read from `$AGENTC_SARIF_SCHEMA`, else from
//! `target/sarif/sarif-schema-2.1.0.json` (where `.ci/run` puts it). A
//! fresh clone has neither, so the schema checks are `#[ignore]`d, and
//! `.ci/run` runs them (`cargo test -- --include-ignored`); run so without
//! the schema, they say why and return, unless
//! `AGENTC_REQUIRE_SARIF_SCHEMA=1` (as `.ci/run` sets) makes that a failure.
//! The content checks and the snapshot need no schema.

mod common;

use agentc::render::{json, sarif};
use agentc::{Code, FileReport, Severity};
use serde_json::Value;
use std::path::{Path, PathBuf};

const SCHEMA_TITLE: &str = "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema";
const SCHEMA_ID: &str = "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json";

const STRAY_BRACKET: &str = r#""pattern": "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$""#;
const ERRATA_01: &str = r#""pattern": "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$""#;

fn schema_path() -> PathBuf {
    std::env::var_os("AGENTC_SARIF_SCHEMA")
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| common::root().join("target/sarif/sarif-schema-2.1.0.json"))
}

/// The SARIF 2.1.0 schema compiled as draft 7 (which it declares), with
/// formats checked: `artifactLocation.uri` is a `uri-reference`, and the
/// crate checks `uri` and `uri-reference` without optional features. `None`,
/// with the reason printed, when the schema is absent and not required.
fn validator() -> Option<jsonschema::Validator> {
    let path = schema_path();
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) => {
            common::unavailable(
                "AGENTC_REQUIRE_SARIF_SCHEMA",
                &format!(
                    "cannot read the SARIF schema {}: {e}\n\
                     run .ci/run, which fetches it, or extract it from the serde-sarif crate:\n  \
                     mkdir -p target/sarif && curl -sSfL \
                     https://static.crates.io/crates/serde-sarif/serde-sarif-0.8.0.crate \
                     | tar -xzO serde-sarif-0.8.0/src/schema.json \
                     > target/sarif/sarif-schema-2.1.0.json\n\
                     or point AGENTC_SARIF_SCHEMA at a copy",
                    path.display()
                ),
            );
            return None;
        }
    };
    // The 2.1.0 schema's two `language` patterns have a stray `]`. Building
    // a validator checks the schema against the draft-07 metaschema, whose
    // `"format": "regex"` rejects that pattern, so it would not compile. SARIF 2.1.0 Errata 01 corrected them
    // (oasis-tcs/sarif-spec#488); apply that correction. agentc writes no
    // `language`.
    assert_eq!(
        text.matches(STRAY_BRACKET).count(),
        2,
        "{} does not have the two patterns Errata 01 corrects",
        path.display()
    );
    let text = text.replace(STRAY_BRACKET, ERRATA_01);
    let schema: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
    assert_eq!(
        schema["title"],
        SCHEMA_TITLE,
        "{} is not the SARIF 2.1.0 schema",
        path.display()
    );
    assert_eq!(
        schema["$id"],
        SCHEMA_ID,
        "{} is not the OASIS schema",
        path.display()
    );
    let validator = jsonschema::draft7::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap_or_else(|e| panic!("{} does not compile: {e}", path.display()));
    Some(validator)
}

/// Every schema violation in `log`, one per line, each with where it is.
fn violations(validator: &jsonschema::Validator, log: &Value) -> Vec<String> {
    validator
        .iter_errors(log)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

/// The invalid fixtures (checked against their targets, as
/// tests/fixtures.rs does), the invalid agent folders, then the valid
/// protocols with their folders' files.
fn compilations() -> Vec<FileReport> {
    let mut files = Vec::new();
    for path in common::files(&common::root().join("protocols/invalid"), "yaml") {
        files.push(common::compile_fixture(&path));
    }
    let mut protocols: Vec<PathBuf> =
        std::fs::read_dir(common::root().join("protocols/invalid-agents"))
            .expect("list protocols/invalid-agents")
            .map(|entry| entry.expect("directory entry").path().join("protocol.yaml"))
            .collect();
    protocols.extend(common::valid_protocols());
    protocols.sort();
    for path in protocols {
        // Relative to the crate root, the tests' working directory, so the
        // names do not depend on where the checkout lives.
        let name = common::display(&path);
        let compiled = agentc::disk::check_path(Path::new(&name), agentc::disk::Reach::Named);
        files.extend(compiled);
    }
    files
}

fn parse(text: &str) -> Value {
    assert!(text.ends_with('\n'), "the log ends with a line break");
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}):\n{text}"))
}

fn fixture(name: &str) -> FileReport {
    common::compile_fixture(&common::root().join("protocols/invalid").join(name))
}

/// The name of a file with a space and a non-ASCII letter in its folder.
const ODD_NAME: &str = "dir/my agent é/protocol.yaml";
const ODD_URI: &str = "dir/my%20agent%20%C3%A9/protocol.yaml";

fn odd_compilation() -> FileReport {
    let bytes = std::fs::read(common::root().join("protocols/invalid/invalid-output-worker.yaml"))
        .expect("read the fixture");
    agentc::compile(ODD_NAME, bytes)
}

#[test]
#[ignore = "needs the SARIF 2.1.0 schema: target/sarif/ or AGENTC_SARIF_SCHEMA, see docs/conformance.md (CI runs it)"]
fn every_log_is_valid_sarif() {
    let Some(validator) = validator() else {
        return;
    };
    let files = compilations();
    // Each file alone, then all of them in one log.
    let mut logs: Vec<(String, String)> = files
        .iter()
        .map(|file| {
            let name = file.source.name().to_string();
            (name, sarif::render(std::slice::from_ref(file)))
        })
        .collect();
    logs.push((ODD_NAME.into(), sarif::render(&[odd_compilation()])));
    logs.push(("no files".into(), sarif::render(&[])));
    logs.push(("a contract change".into(), contract_change_log()));
    logs.push(("every file at once".into(), sarif::render(&files)));
    // Paths that gave nothing to check: tool execution notifications.
    let failures = [
        agentc::Failure::new(
            "does-not-exist",
            agentc::Code::InvalidPath,
            "`does-not-exist` was not read: no such file or directory",
        ),
        agentc::Failure::new(
            "agents/*.yaml",
            agentc::Code::InvalidPath,
            "no file matches",
        )
        .with_help("check the pattern"),
    ];
    let mut with_failures = Vec::new();
    sarif::write(&mut with_failures, &files, &failures).expect("write SARIF");
    let with_failures = String::from_utf8(with_failures).expect("UTF-8");
    assert_eq!(
        parse(&with_failures)["runs"][0]["invocations"][0]["executionSuccessful"],
        false
    );
    logs.push(("failures".into(), with_failures));
    let mut failures = Vec::new();
    for (name, log) in &logs {
        let errors = violations(&validator, &parse(log));
        if !errors.is_empty() {
            failures.push(format!("{name}:\n  {}", errors.join("\n  ")));
        }
    }
    assert!(
        failures.is_empty(),
        "logs that are not valid SARIF 2.1.0:\n{}",
        failures.join("\n")
    );
}

/// The schema check can fail: the validator rejects what a careless
/// renderer would write (a line 0, an unencoded file name), so a pass
/// above means something.
#[test]
#[ignore = "needs the SARIF 2.1.0 schema: target/sarif/ or AGENTC_SARIF_SCHEMA, see docs/conformance.md (CI runs it)"]
fn the_schema_rejects_a_broken_log() {
    let Some(validator) = validator() else {
        return;
    };
    let log = parse(&sarif::render(&[odd_compilation()]));
    assert!(violations(&validator, &log).is_empty());
    let region = "/runs/0/results/0/locations/0/physicalLocation/region/startLine";
    let uri = "/runs/0/results/0/locations/0/physicalLocation/artifactLocation/uri";
    for (pointer, bad) in [(region, Value::from(0)), (uri, Value::from(ODD_NAME))] {
        let mut broken = log.clone();
        *broken.pointer_mut(pointer).expect("the log has the field") = bad;
        let errors = violations(&validator, &broken);
        assert!(
            errors.iter().any(|e| e.starts_with(pointer)),
            "{pointer}: expected a violation, found {errors:?}"
        );
    }
}

#[test]
fn results_say_what_the_json_report_says() {
    let files = compilations();
    let log = parse(&sarif::render(&files));
    let report = parse(&json::render(&files));
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    assert_eq!(log["runs"].as_array().map(Vec::len), Some(1), "one run");
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "agentc");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(driver["semanticVersion"], env!("CARGO_PKG_VERSION"));

    // One rule per code that occurs, in registry order.
    let rules = driver["rules"].as_array().expect("rules");
    let ids: Vec<&str> = rules
        .iter()
        .map(|r| r["id"].as_str().expect("id"))
        .collect();
    let diagnostics: Vec<&Value> = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .collect();
    let expected_ids: Vec<&str> = Code::ALL
        .iter()
        .map(|c| c.name())
        .filter(|name| diagnostics.iter().any(|d| d["code"] == *name))
        .collect();
    assert_eq!(ids, expected_ids);
    for rule in rules {
        let code = Code::from_name(rule["id"].as_str().expect("id")).expect("a registered code");
        assert_eq!(rule["shortDescription"]["text"], code.summary());
        assert!(
            rule["fullDescription"]["text"]
                .as_str()
                .is_some_and(|t| !t.is_empty())
        );
        assert_eq!(rule["help"]["text"], code.explanation());
        assert_eq!(rule["help"]["markdown"], code.explanation());
        assert_eq!(
            rule["defaultConfiguration"]["level"],
            level(code.severity().as_str())
        );
    }

    let results = run["results"].as_array().expect("results");
    let count: usize = files.iter().map(|f| f.diagnostics.len()).sum();
    assert_eq!(results.len(), count, "one result per diagnostic");
    assert_eq!(diagnostics.len(), count);
    let fixes: Vec<_> = files
        .iter()
        .flat_map(|f| &f.diagnostics)
        .map(|d| &d.fix)
        .collect();
    let (mut labelled, mut fixed) = (0, 0);
    for ((result, d), fix) in results.iter().zip(&diagnostics).zip(fixes) {
        let at = format!("{}:{} {}", d["file"], d["line"], d["code"]);
        assert_eq!(result["ruleId"], d["code"], "{at}");
        let index = result["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(rules[index]["id"], d["code"], "{at}: ruleIndex");
        assert_eq!(
            result["level"],
            level(d["severity"].as_str().expect("severity")),
            "{at}"
        );
        let mut message = d["message"].as_str().expect("message").to_string();
        if let Some(help) = d["help"].as_str() {
            message = format!("{message}\n{help}");
        }
        assert_eq!(result["message"]["text"], message.as_str(), "{at}");

        let locations = result["locations"].as_array().expect("locations");
        assert_eq!(locations.len(), 1, "{at}");
        let physical = &locations[0]["physicalLocation"];
        // The fixtures' names need no escaping.
        assert_eq!(physical["artifactLocation"]["uri"], d["file"], "{at}");
        assert_eq!(physical["region"], region(d), "{at}");

        let labels = d["labels"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default();
        let related = result["relatedLocations"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default();
        assert_eq!(
            related.len(),
            labels.len(),
            "{at}: a related location per label"
        );
        for (id, (location, label)) in related.iter().zip(labels).enumerate() {
            assert_eq!(location["id"], id, "{at}");
            assert_eq!(location["message"]["text"], label["message"], "{at}");
            assert_eq!(
                location["physicalLocation"]["artifactLocation"]["uri"], d["file"],
                "{at}"
            );
            assert_eq!(
                location["physicalLocation"]["region"],
                region(label),
                "{at}"
            );
        }
        labelled += usize::from(!labels.is_empty());

        let sarif_fixes = result["fixes"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default();
        match fix {
            None => assert!(
                sarif_fixes.is_empty(),
                "{at}: a fix the diagnostic does not have"
            ),
            Some(fix) => {
                fixed += 1;
                let [sarif_fix] = sarif_fixes else {
                    panic!("{at}: expected one fix, found {sarif_fixes:?}");
                };
                assert_eq!(sarif_fix["description"]["text"], fix.title.as_str(), "{at}");
                let changes = sarif_fix["artifactChanges"]
                    .as_array()
                    .expect("artifactChanges");
                assert_eq!(changes.len(), 1, "{at}");
                assert_eq!(changes[0]["artifactLocation"]["uri"], d["file"], "{at}");
                let replacements = changes[0]["replacements"].as_array().expect("replacements");
                assert_eq!(replacements.len(), fix.edits.len(), "{at}");
                let file = files
                    .iter()
                    .find(|f| d["file"] == f.source.name())
                    .expect("the diagnostic's file");
                for (replacement, edit) in replacements.iter().zip(&fix.edits) {
                    let start = file.source.position(edit.span.start as usize);
                    let end = file.source.position(edit.span.end as usize);
                    let deleted = &replacement["deletedRegion"];
                    assert_eq!(
                        (
                            &deleted["startLine"],
                            &deleted["startColumn"],
                            &deleted["endLine"],
                            &deleted["endColumn"]
                        ),
                        (
                            &start.line.into(),
                            &start.column.into(),
                            &end.line.into(),
                            &end.column.into()
                        ),
                        "{at}"
                    );
                    assert_eq!(
                        replacement["insertedContent"]["text"],
                        edit.text.as_str(),
                        "{at}"
                    );
                }
            }
        }
    }
    assert!(labelled > 0, "no fixture has a labelled diagnostic");
    assert!(fixed > 0, "no fixture has a diagnostic with a fix");
}

/// A diagnostic's level is its own severity, which configuration may have
/// changed; the rule keeps the code's default.
#[test]
fn the_level_is_the_diagnostics_own() {
    let mut compiled = fixture("unknown-type.yaml");
    let code = compiled.diagnostics[0].code;
    assert_eq!(code.severity(), Severity::Error);
    compiled.diagnostics[0].severity = Severity::Info;
    let log = parse(&sarif::render(&[compiled]));
    let result = &log["runs"][0]["results"][0];
    assert_eq!(result["level"], "note");
    let rule = &log["runs"][0]["tool"]["driver"]["rules"]
        [result["ruleIndex"].as_u64().expect("ruleIndex") as usize];
    assert_eq!(rule["id"], code.name());
    assert_eq!(rule["defaultConfiguration"]["level"], "error");
}

#[test]
fn file_names_are_percent_encoded() {
    let log = parse(&sarif::render(&[odd_compilation()]));
    let results = log["runs"][0]["results"].as_array().expect("results");
    let mut uris = Vec::new();
    for result in results {
        uris.push(&result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]);
        for location in result["relatedLocations"].as_array().into_iter().flatten() {
            uris.push(&location["physicalLocation"]["artifactLocation"]["uri"]);
        }
        for fix in result["fixes"].as_array().into_iter().flatten() {
            uris.push(&fix["artifactChanges"][0]["artifactLocation"]["uri"]);
        }
    }
    // A location, a label and a fix.
    assert!(uris.len() >= 3, "{log:#}");
    for uri in uris {
        assert_eq!(uri, ODD_URI);
    }
}

#[test]
fn snapshot_of_a_fixture_with_a_label_a_help_and_a_fix() {
    let compiled = fixture("invalid-output-worker.yaml");
    let d = &compiled.diagnostics;
    assert!(
        d.iter().any(|d| !d.labels.is_empty())
            && d.iter().any(|d| d.help.is_some())
            && d.iter().any(|d| d.fix.is_some())
    );
    let mut log = parse(&sarif::render(&[compiled]));
    // The snapshot should not change with each release.
    let driver = &mut log["runs"][0]["tool"]["driver"];
    for field in ["version", "semanticVersion"] {
        assert_eq!(driver[field], env!("CARGO_PKG_VERSION"));
        driver[field] = "[version]".into();
    }
    common::snapshot_settings().bind(|| {
        insta::assert_snapshot!("invalid-output-worker.sarif", format!("{log:#}\n"));
    });
}

/// SARIF's level for a severity as the JSON report names it.
fn level(severity: &str) -> &'static str {
    match severity {
        "error" => "error",
        "warning" => "warning",
        "info" => "note",
        other => panic!("unknown severity `{other}`"),
    }
}

/// A SARIF region from a JSON report's line, column, endLine and endColumn.
fn region(json: &Value) -> Value {
    serde_json::json!({
        "startLine": json["line"],
        "startColumn": json["column"],
        "endLine": json["endLine"],
        "endColumn": json["endColumn"],
    })
}

/// The SARIF log of a contract change (`agentc diff`): the tool removed
/// in `protocols/diff/tool-removed/`, against `origin/main`.
fn contract_change_log() -> String {
    let case = common::root().join("protocols/diff/tool-removed");
    let read = |file: &str| std::fs::read(case.join(file)).expect("read the diff fixture");
    let old = agentc::compile("protocols/diff/tool-removed/old.yaml", read("old.yaml"));
    let mut new = agentc::compile("protocols/diff/tool-removed/new.yaml", read("new.yaml"));
    let base = "origin/main:protocols/diff/tool-removed/old.yaml";
    let found = agentc::diff::reports(&old, &new, base, &Default::default());
    new.diagnostics = found;
    sarif::render(std::slice::from_ref(&new))
}

/// A contract change is a result in the new file with the old version's
/// place as a related location (`every_log_is_valid_sarif` validates the
/// log).
#[test]
fn a_contract_change_carries_the_old_location() {
    let log = parse(&contract_change_log());
    let result = &log["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "tool-removed");
    let related = &result["relatedLocations"][0];
    assert_eq!(
        related["physicalLocation"]["artifactLocation"]["uri"],
        "origin/main%3Aprotocols/diff/tool-removed/old.yaml"
    );
    assert_eq!(related["physicalLocation"]["region"]["startLine"], 44);
    assert_eq!(related["message"]["text"], "the old version");
}
