//! The real `agentc` binary: exit codes, where output goes, and what it says.

mod common;

use common::{agentc, stderr, stdout};

use std::path::Path;

const VALID: &str = "protocols/shop-assistant/protocol.yaml";

#[test]
fn check_a_valid_protocol_exits_0() {
    let output = agentc(&["check", VALID]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    // The protocol is in an agent folder: its settings and five prompts
    // are checked with it.
    assert_eq!(stdout(&output), "checked 7 files: no problems\n");
}

#[test]
fn check_finds_protocol_files_in_folders() {
    // `protocols/` also holds invalid agents; these two hold valid ones.
    let output = agentc(&["check", "protocols/shop-assistant", "protocols/worker"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert_eq!(stdout(&output), "checked 11 files: no problems\n");
}

#[test]
fn check_reports_every_problem_and_exits_1() {
    let output = agentc(&["check", "protocols/invalid/unknown-type.yaml"]);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    let settings = common::snapshot_settings();
    settings.bind(|| insta::assert_snapshot!("cli-check-unknown-type", text));
}

#[test]
fn check_json_follows_the_contract() {
    let output = agentc(&[
        "check",
        "--format",
        "json",
        "protocols/invalid/unknown-type.yaml",
        VALID,
    ]);
    assert_eq!(output.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON on stdout");
    assert_eq!(report["version"], 1);
    // The lone fixture, and the valid agent's protocol, settings and prompts.
    assert_eq!(report["summary"]["files"], 8);
    let diagnostics = report["diagnostics"].as_array().expect("diagnostics");
    assert!(!diagnostics.is_empty());
    assert_eq!(
        report["summary"]["errors"].as_u64(),
        Some(diagnostics.len() as u64)
    );
    for d in diagnostics {
        assert_eq!(d["file"], "protocols/invalid/unknown-type.yaml");
        assert_eq!(d["severity"], "error");
        assert_eq!(d["code"], "unknown-type");
        for key in ["line", "column", "endLine", "endColumn"] {
            assert!(d[key].as_u64().is_some_and(|n| n >= 1), "{key} in {d}");
        }
        assert!(
            d["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("type `"))
        );
    }
}

#[test]
fn warnings_fail_only_when_denied() {
    let fixture = "protocols/invalid/property-name-case.yaml";
    assert_eq!(agentc(&["check", fixture]).status.code(), Some(0));
    assert_eq!(
        agentc(&["check", "--deny-warnings", fixture]).status.code(),
        Some(1)
    );
}

#[test]
fn unreadable_paths_exit_2() {
    let output = agentc(&["check", "protocols/does-not-exist.yaml"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("cannot read protocols/does-not-exist.yaml"));
    let empty = std::env::temp_dir().join(format!("agentc-empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty).expect("temp dir");
    let output = agentc(&["check", empty.to_str().expect("utf-8 temp path")]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("no protocol.yaml found"));
    std::fs::remove_dir_all(&empty).ok();
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(agentc(&["emit"]).status.code(), Some(2));
    assert_eq!(
        agentc(&["check", "--format", "xml", VALID]).status.code(),
        Some(2)
    );
    assert_eq!(agentc(&["frobnicate"]).status.code(), Some(2));
}

#[test]
fn a_file_over_the_limit_is_reported_not_read() {
    let dir = std::env::temp_dir().join(format!("agentc-large-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("protocol.yaml");
    let file = std::fs::File::create(&path).expect("create");
    file.set_len(agentc::source::MAX_FILE_BYTES as u64 + 1)
        .expect("grow");
    let output = agentc(&[
        "check",
        "--format",
        "json",
        path.to_str().expect("utf-8 temp path"),
    ]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(output.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    assert_eq!(report["diagnostics"][0]["code"], "file-too-large");
}

#[test]
fn explain_prints_each_code_and_lists_them_all() {
    let output = agentc(&["explain", "circular-type"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(stdout(&output).starts_with("# circular-type\n"));

    let list = stdout(&agentc(&["explain"]));
    for code in agentc::Code::ALL {
        assert!(
            list.contains(code.name()),
            "{} missing from the list",
            code.name()
        );
    }

    let output = agentc(&["explain", "circular-types"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("did you mean `circular-type`?"));
}

#[test]
fn emit_prints_a_type_a_tool_or_everything() {
    let compiled = common::compile(Path::new(&common::root().join(VALID)));
    let model = compiled.model.expect("valid protocol");
    let type_name = model.protocol.types[0].name.text.clone();
    let tool_name = model.protocol.tools[0].name.text.clone();

    for args in [
        vec!["emit", VALID],
        vec!["emit", VALID, "--type", &type_name],
        vec!["emit", VALID, "--tool", &tool_name],
    ] {
        let output = agentc(&args);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            stderr(&output)
        );
        let schema: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
        assert_eq!(
            schema["$schema"],
            "https://json-schema.org/draft/2020-12/schema"
        );
        assert!(stderr(&output).is_empty());
        // Byte-identical across runs.
        assert_eq!(agentc(&args).stdout, output.stdout);
    }

    let out = std::env::temp_dir().join(format!("agentc-emit-{}.json", std::process::id()));
    let out_arg = out.to_str().expect("utf-8 temp path");
    let output = agentc(&["emit", VALID, "--type", &type_name, "-o", out_arg]);
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stdout.is_empty());
    let written = std::fs::read(&out).expect("written file");
    std::fs::remove_file(&out).ok();
    assert_eq!(
        written,
        agentc(&["emit", VALID, "--type", &type_name]).stdout
    );
}

#[test]
fn emit_refuses_a_protocol_with_errors() {
    let output = agentc(&["emit", "protocols/invalid/unknown-type.yaml"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let err = stderr(&output);
    assert!(
        err.contains("unknown-type") && err.contains("nothing emitted"),
        "{err}"
    );
}

#[test]
fn emit_names_an_unknown_selector() {
    let output = agentc(&["emit", VALID, "--type", "NoSuchType"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("no type named `NoSuchType`"));
    assert!(output.stdout.is_empty());
}
