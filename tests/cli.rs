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
fn unreadable_paths_exit_2_and_every_format_counts_them() {
    let missing = "protocols/does-not-exist.yaml";
    let output = agentc(&["check", missing]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stdout(&output),
        "invalid-path\n\n  × `protocols/does-not-exist.yaml` was not read: no such file or directory\n\n\
         checked 0 files: 1 error\n"
    );
    // A CI step that reads only the machine output never sees a clean run.
    let json: serde_json::Value =
        serde_json::from_slice(&agentc(&["check", missing, "--format", "json"]).stdout)
            .expect("JSON");
    assert_eq!(json["summary"]["errors"], 1);
    assert_eq!(json["diagnostics"][0]["code"], "invalid-path");
    assert_eq!(json["diagnostics"][0]["file"], missing);
    let sarif: serde_json::Value =
        serde_json::from_slice(&agentc(&["check", missing, "--format", "sarif"]).stdout)
            .expect("SARIF");
    let invocation = &sarif["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    let notification = &invocation["toolExecutionNotifications"][0];
    assert_eq!(notification["level"], "error");
    assert_eq!(notification["descriptor"]["id"], "invalid-path");
    let short = agentc(&["check", missing, "--format", "short"]);
    assert_eq!(
        stdout(&short),
        "protocols/does-not-exist.yaml: error[invalid-path] `protocols/does-not-exist.yaml` was not read: no such file or directory\n"
    );
    assert_eq!(stderr(&short), "checked 0 files: 1 error\n");
    let github = agentc(&["check", missing, "--format", "github"]);
    assert_eq!(
        stdout(&github),
        "::error title=invalid-path::`protocols/does-not-exist.yaml` was not read: no such file or directory\n"
    );
    for format in ["human", "json", "short", "github", "sarif"] {
        let output = agentc(&["check", missing, "--format", format]);
        assert_eq!(output.status.code(), Some(2), "{format}");
    }
    let scratch = common::scratch("empty");
    let empty = scratch.path();
    let output = agentc(&["check", empty.to_str().expect("utf-8 temp path")]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stdout(&output).contains("no protocol.yaml found"));
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
    let scratch = common::scratch("large");
    let dir = scratch.path();
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

    // A long name is shown as far as a code could be, not whole.
    let long = "x".repeat(10_000);
    let output = agentc(&["explain", &long]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        format!(
            "error: no diagnostic code `{}…` (run `agentc explain` to list every code)\n",
            "x".repeat(40)
        )
    );
}

/// Each code's page whose "Fix" is a protocol (a YAML block): that block,
/// checked, no longer reports the code; and the three whose fixes are
/// whole protocols check clean (one once showed handlers with no `agent`
/// and no trigger, which a user who copied it met as two errors).
#[test]
fn each_codes_fix_no_longer_reports_it() {
    let fix_of = |code: &agentc::Code| {
        let (_, after) = code.explanation().split_once("## Fix")?;
        let after = after.split("\n## ").next().unwrap_or_default();
        let (_, block) = after.split_once("```yaml\n")?;
        Some(block.split_once("```").expect("a closed block").0)
    };
    let mut checked = 0;
    for code in agentc::Code::ALL {
        let Some(block) = fix_of(code) else { continue };
        let report = common::compile_text(block);
        let codes: Vec<&str> = report.diagnostics.iter().map(|d| d.code.name()).collect();
        assert!(
            !codes.contains(&code.name()),
            "{code}: its fix reports {codes:?}"
        );
        checked += 1;
    }
    assert!(checked > 50, "only {checked} pages have a YAML fix");
    for name in ["missing-field", "invalid-response-type", "file-reference"] {
        let code = agentc::Code::from_name(name).expect("a code");
        let report = common::compile_text(fix_of(&code).expect("a YAML fix"));
        assert!(
            report.diagnostics.is_empty(),
            "{name}: {:?}",
            report.diagnostics
        );
    }
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

    let scratch = common::scratch("emit");
    let out = scratch.path().join("out.json");
    let out_arg = out.to_str().expect("utf-8 temp path");
    let output = agentc(&["emit", VALID, "--type", &type_name, "-o", out_arg]);
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stdout.is_empty());
    let written = std::fs::read(&out).expect("written file");
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

#[test]
fn emit_every_target_parses_as_json_or_prompt_text() {
    for target in ["openai", "anthropic", "gemini", "ag-ui", "aap"] {
        let output = agentc(&["emit", VALID, "--target", target]);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{target}: {}",
            stderr(&output)
        );
        let value: serde_json::Value =
            serde_json::from_str(&stdout(&output)).unwrap_or_else(|e| panic!("{target}: {e}"));
        assert!(value.is_array() || value.is_object(), "{target}");
        // Warnings (`file-reference`, `target-not-strict`) go to stderr.
        assert!(stderr(&output).contains("file-reference"), "{target}");
    }
    let prompt = stdout(&agentc(&["emit", VALID, "--target", "tools-prompt"]));
    assert!(prompt.starts_with("- search-products: "), "{prompt}");
    assert!(prompt.ends_with("\n\nNote: tool arguments must strictly match args_schema.\n"));
}

#[test]
fn emit_one_tool_is_one_object() {
    let output = agentc(&["emit", VALID, "--target", "openai", "--tool", "add-to-cart"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let value: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    assert_eq!(value["function"]["name"], "add-to-cart");
    assert_eq!(value["function"]["strict"], true);
}

#[test]
fn emit_response_for_each_provider() {
    for (target, pointer) in [
        ("openai", "/json_schema/schema/type"),
        ("anthropic", "/schema/type"),
        ("gemini", "/responseJsonSchema/type"),
    ] {
        let output = agentc(&["emit", VALID, "--target", target, "--response", "Product"]);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{target}: {}",
            stderr(&output)
        );
        let value: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
        assert_eq!(value.pointer(pointer), Some(&"object".into()), "{target}");
    }
}

#[test]
fn emit_response_needs_an_object_type() {
    let output = agentc(&[
        "emit",
        VALID,
        "--target",
        "openai",
        "--response",
        "CartItemList",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert!(
        stderr(&output).contains("`CartItemList` is an array type"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn emit_selectors_that_do_not_apply_are_usage_errors() {
    for args in [
        ["--target", "tools-prompt", "--type", "Product"],
        ["--target", "ag-ui", "--response", "Product"],
        ["--target", "json-schema", "--response", "Product"],
    ] {
        let mut all = vec!["emit", VALID];
        all.extend(args);
        let output = agentc(&all);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn emit_a_target_error_prints_nothing_and_exits_1() {
    let output = agentc(&[
        "emit",
        "protocols/invalid/target-unsupported.yaml",
        "--target",
        "anthropic",
        "--response",
        "Reply",
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let err = stderr(&output);
    assert!(
        err.contains("target-unsupported") && err.contains("nothing emitted"),
        "{err}"
    );
}

#[test]
fn check_with_targets_reports_provider_limits() {
    let fixture = "protocols/invalid/too-many-strict-tools.yaml";
    let plain = agentc(&["check", fixture]);
    assert_eq!(plain.status.code(), Some(0), "{}", stdout(&plain));
    let output = agentc(&[
        "check",
        fixture,
        "--target",
        "openai",
        "--target",
        "anthropic",
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).contains("too-many-strict-tools"));
}

#[test]
fn emit_aap_meta_describes_the_agent() {
    let output = agentc(&[
        "emit",
        VALID,
        "--target",
        "aap",
        "--meta",
        "--agent-version",
        "1.2.0",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let value: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    assert_eq!(value["version"], 3);
    let agent = &value["agents"][0];
    assert_eq!(agent["name"], "shop-assistant");
    assert_eq!(agent["title"], "Shop Assistant");
    assert_eq!(agent["version"], "1.2.0");
    assert!(agent["tools"].as_array().is_some_and(|t| !t.is_empty()));
    // A required input has no AAP option form, and says so.
    assert!(
        stderr(&output).contains("unmapped-input"),
        "{}",
        stderr(&output)
    );
    let settings = common::snapshot_settings();
    settings.bind(|| insta::assert_snapshot!("cli-emit-aap-meta", stdout(&output)));
}

/// Runs `agentc emit --target aap --meta` on an agent folder made of
/// `settings` (the text of `settings.json`), a system prompt and
/// `protocol`, and returns what it printed; the folder is removed.
fn emit_meta(name: &str, settings: &str, protocol: &str, version: &str) -> std::process::Output {
    let scratch = common::scratch(name);
    let dir = scratch.path();
    std::fs::create_dir_all(dir.join("prompts")).expect("temp dir");
    std::fs::write(dir.join("settings.json"), settings).expect("settings");
    std::fs::write(dir.join("prompts/system.md"), "You help.\n").expect("prompt");
    std::fs::write(dir.join("protocol.yaml"), protocol).expect("protocol");
    let protocol = dir.join("protocol.yaml");

    agentc(&[
        "emit",
        protocol.to_str().expect("a UTF-8 path"),
        "--target",
        "aap",
        "--meta",
        "--agent-version",
        version,
    ])
}

#[test]
fn emit_aap_meta_maps_optional_string_inputs_to_options() {
    let output = emit_meta(
        "meta",
        r#"{"slug": "tiers", "name": "Tiers", "format": "interactive"}"#,
        "input:\n  PLAN:\n    type: string\n    enum: [free, pro]\n    optional: true\n    default: free\n  TONE:\n    type: string\n    description: How to sound\n    optional: true\n  LIMIT:\n    type: integer\n    optional: true\n\
agent:\n  model: openai/gpt-5\n  system: system\ntriggers:\n  go: {}\nhandlers:\n  go:\n    Respond:\n      block: next-message\n",
        "0.1.0",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let value: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    assert_eq!(
        value["agents"][0]["options"],
        serde_json::json!([
            {"type": "select", "name": "PLAN", "options": ["free", "pro"], "default": "free"},
            {"type": "text", "name": "TONE", "description": "How to sound", "default": "NONE"}
        ])
    );
    assert!(stderr(&output).contains("input `LIMIT` is not an AAP option"));
}

/// A `settings.json` saved with a byte order mark (as Windows editors may
/// write it) is read past the mark: the agent keeps its slug and name.
#[test]
fn emit_aap_meta_reads_settings_after_a_byte_order_mark() {
    let output = emit_meta(
        "meta-bom",
        "\u{feff}{\"slug\": \"bom-agent\", \"name\": \"BOM Agent\", \"description\": \"Saved on Windows\", \"format\": \"interactive\"}",
        "agent:\n  model: openai/gpt-5\n  system: system\ntriggers:\n  go: {}\nhandlers:\n  go:\n    Respond:\n      block: next-message\n",
        "2.0.0",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let value: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    let agent = &value["agents"][0];
    assert_eq!(agent["name"], "bom-agent");
    assert_eq!(agent["title"], "BOM Agent");
    assert_eq!(agent["description"], "Saved on Windows");
    assert_eq!(agent["version"], "2.0.0");
}

#[test]
fn emit_aap_meta_needs_settings_and_a_version() {
    let lone = agentc(&[
        "emit",
        "protocols/invalid/deprecated.yaml",
        "--target",
        "aap",
        "--meta",
        "--agent-version",
        "1.0.0",
    ]);
    assert_eq!(lone.status.code(), Some(2));
    assert!(stderr(&lone).contains("settings.json"));
    let bad = agentc(&[
        "emit",
        VALID,
        "--target",
        "aap",
        "--meta",
        "--agent-version",
        "one",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("not a semantic version"));
    let missing = agentc(&["emit", VALID, "--target", "aap", "--meta"]);
    assert_eq!(missing.status.code(), Some(2));
    let wrong_target = agentc(&["emit", VALID, "--meta", "--agent-version", "1.0.0"]);
    assert_eq!(wrong_target.status.code(), Some(2));
}

/// `short` and `github` carry what `json` carries, in their own shape: the
/// same diagnostics, positions and codes, in the same order.
#[test]
fn check_short_and_github_formats_match_the_json_contract() {
    let files = [
        "protocols/invalid/deprecated.yaml",
        "protocols/invalid/unknown-type.yaml",
    ];
    let json = agentc(&[&["check", "--format", "json"][..], &files[..]].concat());
    let json: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    let diagnostics = json["diagnostics"].as_array().unwrap();
    let short = agentc(&[&["check", "--format", "short"][..], &files[..]].concat());
    let github = agentc(&[&["check", "--format", "github"][..], &files[..]].concat());
    assert_eq!(short.status.code(), Some(1));
    assert_eq!(github.status.code(), Some(1));
    let (short, github) = (stdout(&short), stdout(&github));
    assert_eq!(short.lines().count(), diagnostics.len());
    assert_eq!(github.lines().count(), diagnostics.len());
    for ((line, command), d) in short.lines().zip(github.lines()).zip(diagnostics) {
        let at = format!(
            "{}:{}:{}: ",
            d["file"].as_str().unwrap(),
            d["line"],
            d["column"]
        );
        let tag = format!(
            "{}[{}] ",
            d["severity"].as_str().unwrap(),
            d["code"].as_str().unwrap()
        );
        assert!(line.starts_with(&format!("{at}{tag}")), "{line}");
        let kind = match d["severity"].as_str().unwrap() {
            "error" => "error",
            "warning" => "warning",
            _ => "notice",
        };
        let properties = format!(
            "::{kind} file={},line={},col={},endLine={},endColumn={},title={}::",
            d["file"].as_str().unwrap(),
            d["line"],
            d["column"],
            d["endLine"],
            d["endColumn"],
            d["code"].as_str().unwrap()
        );
        assert!(command.starts_with(&properties), "{command}");
    }
    let settings = common::snapshot_settings();
    settings.bind(|| {
        insta::assert_snapshot!("cli-check-short", short);
        insta::assert_snapshot!("cli-check-github", github);
    });
}

/// `NO_COLOR` turns colors off; `CLICOLOR_FORCE` turns them on even
/// through a pipe, and wins over `NO_COLOR`.
#[test]
fn colors_follow_no_color_and_clicolor_force() {
    let run = |vars: &[(&str, &str)]| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_agentc"));
        command
            .args(["check", "protocols/invalid/unknown-type.yaml"])
            .current_dir(common::root())
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE");
        for (name, value) in vars {
            command.env(name, value);
        }
        stdout(&command.output().unwrap())
    };
    let escape = "\u{1b}[";
    assert!(!run(&[]).contains(escape), "a pipe is not a terminal");
    assert!(run(&[("CLICOLOR_FORCE", "1")]).contains(escape));
    assert!(run(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]).contains(escape));
    assert!(!run(&[("CLICOLOR_FORCE", "0")]).contains(escape));
}

/// The completion scripts name every subcommand; an unknown shell is a
/// usage error. (`completions_work_in_bash` runs the bash one.)
#[test]
fn completions_name_every_subcommand() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let script = agentc(&["completions", shell]);
        assert_eq!(script.status.code(), Some(0), "{shell}");
        let script = stdout(&script);
        for command in [
            "init", "check", "diff", "emit", "gen", "validate", "explain", "schema", "lsp", "man",
        ] {
            assert!(script.contains(command), "{shell}: {command}");
        }
    }
    assert_eq!(agentc(&["completions", "tcsh"]).status.code(), Some(2));
}

/// The bash completion script works in bash: it completes subcommands and
/// the values of `--format`.
#[test]
#[ignore = "needs bash (CI runs it)"]
fn completions_work_in_bash() {
    let script = agentc(&["completions", "bash"]);
    assert_eq!(script.status.code(), Some(0));
    let scratch = common::scratch("completion");
    let script_path = scratch.path().join("agentc.bash");
    std::fs::write(&script_path, &script.stdout).unwrap();
    let probe = format!(
        "source '{}'; COMP_WORDS=(agentc ch); COMP_CWORD=1; _agentc agentc ch agentc; echo \"${{COMPREPLY[@]}}\"; \
         COMP_WORDS=(agentc check --format ''); COMP_CWORD=3; _agentc agentc '' --format; echo \"${{COMPREPLY[@]}}\"; \
         COMP_WORDS=(agentc help validate ''); COMP_CWORD=3; _agentc agentc '' validate; echo \"${{COMPREPLY[@]}}\"",
        script_path.display()
    );
    let Ok(bash) = std::process::Command::new("bash")
        .args(["-c", &probe])
        .output()
    else {
        common::unavailable("AGENTC_REQUIRE_BASH", "bash cannot run here");
        return;
    };
    assert_eq!(
        stdout(&bash),
        // The last line: `help` knows a command's own subcommands, which
        // parsing builds only for the command named (`defer`).
        "check\nhuman json short github sarif markdown\nrun-input aap\n",
        "{}",
        stderr(&bash)
    );
}

/// Each command's help opens with its summary, the line `agentc --help`
/// lists it by, not with its arguments' own doc comment (which clap puts
/// first when a command's arguments are built apart, as `defer` does).
#[test]
fn each_command_help_opens_with_its_summary() {
    let listing = stdout(&agentc(&["--help"]));
    for command in [
        "init",
        "check",
        "diff",
        "emit",
        "gen",
        "validate",
        "explain",
        "schema",
        "lsp",
        "mcp",
        "completions",
        "man",
    ] {
        let help = stdout(&agentc(&[command, "--help"]));
        let summary = help.lines().next().unwrap_or_default();
        let listed = listing
            .lines()
            .find_map(|line| line.trim_start().strip_prefix(command))
            .map(str::trim)
            .unwrap_or_default();
        assert!(
            !listed.is_empty() && summary.starts_with(listed.trim_end_matches('.')),
            "{command}: {summary:?} against {listed:?}"
        );
    }
}

/// `--help` says what each exit code means, for agentc and for each
/// command.
#[test]
fn help_names_the_exit_codes() {
    for args in [
        vec!["--help"],
        vec!["init", "--help"],
        vec!["check", "--help"],
        vec!["diff", "--help"],
        vec!["emit", "--help"],
        vec!["gen", "--help"],
        vec!["validate", "--help"],
        vec!["explain", "--help"],
        vec!["lsp", "--help"],
    ] {
        let help = stdout(&agentc(&args));
        for code in ["  0  ", "  1  ", "  2  "] {
            if matches!(args[0], "explain" | "init") && code == "  1  " {
                continue;
            }
            assert!(
                help.contains("Exit codes:") && help.contains(code),
                "{args:?}: {help}"
            );
        }
    }
}

/// The manual page is roff, with every subcommand and the exit codes.
/// (`the_manual_page_renders_in_man` renders it.)
#[test]
fn the_manual_page_names_every_subcommand() {
    let page = agentc(&["man"]);
    assert_eq!(page.status.code(), Some(0));
    let page = stdout(&page);
    assert!(page.contains(".TH agentc 1"), "{page}");
    assert!(page.contains("Exit codes:"), "{page}");
    for command in [
        "init",
        "check",
        "emit",
        "validate",
        "explain",
        "schema",
        "lsp",
        "completions",
    ] {
        assert!(page.contains(command), "{command}");
    }
}

/// `man` renders the manual page.
#[test]
#[ignore = "needs man: install man-db (CI runs it where man is installed)"]
fn the_manual_page_renders_in_man() {
    let page = agentc(&["man"]);
    assert_eq!(page.status.code(), Some(0));
    let scratch = common::scratch("man");
    let path = scratch.path().join("agentc.1");
    std::fs::write(&path, &page.stdout).unwrap();
    let Ok(man) = std::process::Command::new("man")
        .args(["-l", "-P", "cat"])
        .arg(&path)
        .env("MANWIDTH", "80")
        .output()
    else {
        common::unavailable("AGENTC_REQUIRE_MAN", "man cannot run here");
        return;
    };
    let text = String::from_utf8_lossy(&man.stdout);
    assert!(text.contains("Offline compiler and linter"), "{text}");
}

/// What a lone file must hold: something (an empty mapping or empty
/// sections are reported, as an empty file is); a `protocol.yaml`, the file
/// an agent is, must have one format's sections; any other file is checked
/// as a part of a protocol, for what it declares.
#[test]
fn a_lone_file_declares_something_and_a_protocol_yaml_is_an_agent() {
    let scratch = common::scratch("lone");
    let dir = scratch.path();
    std::fs::create_dir_all(dir.join("agent")).expect("temp dir");
    let cases = [
        (
            "empty.yaml",
            "",
            "empty.yaml:1:1: error[root-not-mapping] the protocol is empty\n",
        ),
        (
            "braces.yaml",
            "{}\n",
            "braces.yaml:1:1: error[protocol-format] this protocol declares nothing: it has no sections\n",
        ),
        (
            "tools.yaml",
            "# shared tools\ntools:\n",
            "tools.yaml:2:1: error[protocol-format] this protocol declares nothing: its sections are empty\n",
        ),
        ("types.yaml", "types:\n  A:\n    x: { type: string }\n", ""),
        (
            "agent/protocol.yaml",
            "types:\n  A:\n    x: { type: string }\n",
            "agent/protocol.yaml:1:1: error[protocol-format] this `protocol.yaml` has the sections of neither agent format, so no agent can run it\n",
        ),
        (
            "triggers.yaml",
            "triggers:\n  ask: {}\nhandlers:\n  ask: {}\n",
            "triggers.yaml:1:1: error[protocol-format] this interactive protocol has no `agent` section\n",
        ),
    ];
    for (name, text, expected) in cases {
        std::fs::write(dir.join(name), text).expect("write");
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_agentc"))
            .args(["check", "--format", "short", name])
            .current_dir(dir)
            .output()
            .expect("run agentc");
        assert_eq!(stdout(&output), expected, "{name}");
        let code = if expected.is_empty() { 0 } else { 1 };
        assert_eq!(output.status.code(), Some(code), "{name}");
    }
}

/// `description: >` and `|` end in a line break in YAML; emitted output
/// does not carry it (nor the blank line it would leave in the tools
/// prompt), while line breaks inside a literal description stay.
#[test]
fn block_scalar_descriptions_lose_their_final_line_break_in_output() {
    let scratch = common::scratch("folded");
    let dir = scratch.path();
    let protocol = "tools:\n  look-up:\n    description: >\n      Looks up an order\n      by its number.\n    parameters:\n      orderId:\n        type: string\n        description: |\n          The order number,\n          as printed.\n";
    std::fs::write(dir.join("tools.yaml"), protocol).expect("write");
    let run = |target: &str| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_agentc"))
            .args(["emit", "tools.yaml", "--target", target])
            .current_dir(dir)
            .output()
            .expect("run agentc");
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        stdout(&output)
    };
    let schema: serde_json::Value = serde_json::from_str(&run("openai")).expect("JSON");
    let tool = &schema[0]["function"];
    assert_eq!(
        tool["description"], "Looks up an order by its number.",
        "{schema:#}"
    );
    assert_eq!(
        tool["parameters"]["properties"]["orderId"]["description"],
        "The order number,\nas printed."
    );
    let prompt = run("tools-prompt");
    assert!(!prompt.contains("number.\n\n"), "{prompt}");
}

/// What people write first, coming from other languages, gets the
/// built-in's name; a tool or type named on the command line that matches
/// nothing gets the list to choose from.
#[test]
fn first_guesses_get_suggestions() {
    let scratch = common::scratch("guesses");
    let dir = scratch.path();
    let text = "types:\n  T:\n    a: { type: bool }\n    b: { type: int }\n    c: { type: str }\n    d: { type: any }\n";
    std::fs::write(dir.join("p.yaml"), text).expect("write");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_agentc"))
            .args(args)
            .current_dir(dir)
            .output()
            .expect("run agentc")
    };
    let report: serde_json::Value =
        serde_json::from_slice(&run(&["check", "p.yaml", "--format", "json"]).stdout)
            .expect("JSON");
    let helps: Vec<&str> = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| d["help"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(
        helps,
        [
            "did you mean `boolean`?",
            "did you mean `integer`?",
            "did you mean `string`?",
            "did you mean `unknown`?"
        ]
    );
    let tools = "tools:\n  lookup-order:\n    description: Looks up an order\n    parameters:\n      id: { type: string }\n";
    std::fs::write(dir.join("tools.yaml"), tools).expect("write");
    let output = run(&["emit", "tools.yaml", "--tool", "lookup"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "error: no tool named `lookup` in the protocol\n  help: the tools are `lookup-order`\n"
    );
}

/// `agentc check protocol.yaml` from inside the agent folder checks the
/// folder, as from anywhere else (its folder is the empty path).
#[test]
fn a_protocol_named_from_inside_its_folder_brings_the_folder() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_agentc"))
        .args(["check", "protocol.yaml", "--format", "short"])
        .current_dir(common::root().join("protocols/support-desk"))
        .output()
        .expect("run agentc");
    assert_eq!(stdout(&output), "");
    assert_eq!(stderr(&output), "checked 12 files: no problems\n");
    assert_eq!(output.status.code(), Some(0));
}

/// Every command that takes one protocol takes its agent folder the same
/// way `check` does: the folder names its `protocol.yaml`.
#[test]
fn every_command_takes_an_agent_folder() {
    let folder = "protocols/shop-assistant";
    let file = "protocols/shop-assistant/protocol.yaml";
    let same = |with: &[&str]| {
        let by_folder: Vec<&str> = with
            .iter()
            .map(|&a| if a == "@" { folder } else { a })
            .collect();
        let by_file: Vec<&str> = with
            .iter()
            .map(|&a| if a == "@" { file } else { a })
            .collect();
        let (a, b) = (agentc(&by_folder), agentc(&by_file));
        assert_eq!(a.status.code(), Some(0), "{with:?}: {}", stderr(&a));
        assert_eq!(stdout(&a), stdout(&b), "{with:?}");
    };
    same(&["emit", "@", "--tool", "add-to-cart"]);
    same(&["emit", "@", "--target", "openai"]);
    same(&["gen", "@", "--lang", "ts", "--stdout"]);
    same(&["diff", "@", "@"]);
    let scratch = common::scratch("folder");
    let data = scratch.path().join("data.json");
    std::fs::write(
        &data,
        r#"{"cartItems": [{"productId": "p1", "quantity": 1}]}"#,
    )
    .unwrap();
    let data = data.to_string_lossy().into_owned();
    let validated = agentc(&["validate", folder, &data, "--tool", "add-to-cart"]);
    let by_file = agentc(&["validate", file, &data, "--tool", "add-to-cart"]);
    assert_eq!(
        validated.status.code(),
        by_file.status.code(),
        "{}",
        stderr(&validated)
    );
    assert_eq!(stdout(&validated), stdout(&by_file));
}

/// A file agentc writes anew gets 0666 less the umask, as any program's
/// would, not the 0600 of the temporary file it is written through; a
/// file it replaces keeps its own.
#[cfg(unix)]
#[test]
fn written_files_get_the_umasks_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let scratch = common::scratch("umask");
    let folder = scratch.path();
    let protocol = common::root().join(VALID);
    let under = |umask: &str, args: &str| {
        let output = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("umask {umask}; exec \"$0\" {args}"))
            .arg(env!("CARGO_BIN_EXE_agentc"))
            .current_dir(folder)
            .env("NO_COLOR", "1")
            .output()
            .expect("run sh");
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    };
    let mode = |name: &str| {
        let meta = std::fs::metadata(folder.join(name)).expect("written");
        meta.permissions().mode() & 0o777
    };
    let p = protocol.display();
    under("022", &format!("emit '{p}' -o new.json"));
    assert_eq!(mode("new.json"), 0o644);
    under("077", &format!("emit '{p}' -o private.json"));
    assert_eq!(mode("private.json"), 0o600);
    std::fs::set_permissions(
        folder.join("new.json"),
        std::fs::Permissions::from_mode(0o640),
    )
    .expect("chmod");
    under("022", &format!("emit '{p}' -o new.json"));
    assert_eq!(mode("new.json"), 0o640);
    under("022", &format!("gen --lang ts '{p}' --out bindings"));
    let written: Vec<_> = std::fs::read_dir(folder.join("bindings"))
        .expect("bindings written")
        .flatten()
        .collect();
    assert!(!written.is_empty());
    for entry in written {
        let name = format!("bindings/{}", entry.file_name().to_string_lossy());
        assert_eq!(mode(&name), 0o644, "{name}");
    }
}

/// `emit -o` never writes over the protocol it reads, however the path is
/// spelled; `-o -` is standard output, not a file named `-`.
#[test]
fn emit_output_is_never_the_protocol_and_dash_is_standard_output() {
    let scratch = common::scratch("emit-self");
    let folder = scratch.path();
    let protocol = std::fs::read(common::root().join(VALID)).expect("fixture");
    std::fs::write(folder.join("protocol.yaml"), &protocol).expect("copy");
    for output in ["protocol.yaml", "./protocol.yaml"] {
        let run = common::agentc_in(folder, &["emit", "protocol.yaml", "-o", output]);
        assert_eq!(run.status.code(), Some(2), "{output}");
        assert!(
            stderr(&run).contains("is the protocol being emitted"),
            "{}",
            stderr(&run)
        );
    }
    let run = common::agentc_in(folder, &["emit", ".", "-o", "protocol.yaml"]);
    assert_eq!(run.status.code(), Some(2));
    assert_eq!(
        std::fs::read(folder.join("protocol.yaml")).expect("kept"),
        protocol
    );
    let run = common::agentc_in(folder, &["emit", "protocol.yaml", "-o", "-"]);
    assert_eq!(run.status.code(), Some(0));
    assert_eq!(
        run.stdout,
        common::agentc_in(folder, &["emit", "protocol.yaml"]).stdout
    );
    assert!(!folder.join("-").exists());
}
