//! Agent folders: `protocol.yaml` with `settings.json`, `prompts/` and
//! `references/`. Every folder under `protocols/invalid-agents/` lists in
//! its `expected.txt` exactly the diagnostics the whole folder produces, as
//! `<path in the folder>:<line> <severity>[<code>]`; the human and JSON
//! renderings of each are snapshots. The valid agents check clean, and the
//! `agentc` binary checks agent folders however they are named on the
//! command line.
//!
//! Folders are loaded by paths relative to the crate root (the working
//! directory of integration tests), so file names in the output, and in
//! the snapshots, do not depend on where the checkout lives.

mod common;

use common::{agentc, stderr, stdout};

use agentc::render::{human, json};
use agentc::{FileReport, agent};
use std::path::Path;

const INVALID_AGENTS: &str = "protocols/invalid-agents";
const SUPPORT_DESK: &str = "protocols/support-desk";
const VALID_AGENTS: &[&str] = &[SUPPORT_DESK, "protocols/shop-assistant", "protocols/worker"];

/// One diagnostic as `expected.txt` names it: (file relative to the agent
/// folder, line, severity, code).
type Expected = (String, usize, String, String);

/// `agentc check --format json ...`: the exit code and the report.
fn check_json(args: &[&str]) -> (Option<i32>, serde_json::Value) {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let output = agentc(&all);
    let report = serde_json::from_str(&stdout(&output))
        .unwrap_or_else(|e| panic!("no JSON on stdout ({e}): {}", stderr(&output)));
    (output.status.code(), report)
}

/// The diagnostics of a JSON report as (file, line, severity, code), files
/// with `/` between folders.
fn json_diagnostics(report: &serde_json::Value) -> Vec<Expected> {
    report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            (
                d["file"].as_str().expect("file").replace('\\', "/"),
                d["line"].as_u64().expect("line") as usize,
                d["severity"].as_str().expect("severity").to_string(),
                d["code"].as_str().expect("code").to_string(),
            )
        })
        .collect()
}

/// Keeps the diagnostics whose file is in `folder` and names them relative
/// to it, sorted.
fn relative_to(folder: &str, diagnostics: &[Expected]) -> Vec<Expected> {
    let prefix = format!("{folder}/");
    let mut found: Vec<Expected> = diagnostics
        .iter()
        .filter_map(|(file, line, severity, code)| {
            let relative = file.strip_prefix(&prefix)?;
            Some((relative.to_string(), *line, severity.clone(), code.clone()))
        })
        .collect();
    found.sort();
    found
}

/// The folders under `protocols/invalid-agents/`, sorted by name.
fn invalid_agents() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(INVALID_AGENTS)
        .unwrap_or_else(|e| panic!("cannot list {INVALID_AGENTS}: {e}"))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.is_dir())
        .map(|path| {
            path.file_name()
                .and_then(|n| n.to_str())
                .expect("utf-8 folder name")
                .to_string()
        })
        .collect();
    names.sort();
    assert!(
        names.len() >= 5,
        "expected the agent fixtures in {INVALID_AGENTS}"
    );
    names
}

fn folder(name: &str) -> String {
    format!("{INVALID_AGENTS}/{name}")
}

/// `expected.txt` of an invalid agent folder, as written (it must be
/// sorted): a first line that is a comment, `#` comments, and one line per
/// diagnostic.
fn expectations(name: &str) -> Vec<Expected> {
    let path = format!("{}/expected.txt", folder(name));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    assert!(
        text.starts_with("# "),
        "{path}: the first line says what the folder shows, as a `# ` comment"
    );
    let mut expected = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parsed = (|| {
            let (place, rest) = line.split_once(' ')?;
            let (file, number) = place.rsplit_once(':')?;
            let (severity, code) = rest.strip_suffix(']')?.split_once('[')?;
            Some((
                file.to_string(),
                number.parse().ok()?,
                severity.to_string(),
                code.to_string(),
            ))
        })();
        match parsed {
            Some(entry) => expected.push(entry),
            None => panic!(
                "{path}:{}: expected `<file>:<line> <severity>[<code>]`, found `{line}`",
                index + 1
            ),
        }
    }
    assert!(!expected.is_empty(), "{path} expects no diagnostic");
    let mut sorted = expected.clone();
    sorted.sort();
    assert_eq!(
        expected, sorted,
        "{path} is not sorted by file, line, severity, code"
    );
    expected
}

/// Loads and checks an agent folder given by a path relative to the crate
/// root.
fn check_agent(dir: &str) -> Vec<FileReport> {
    let files = agentc::disk::load_agent(Path::new(dir));
    agent::check(files)
}

fn diagnostics(compilations: &[FileReport]) -> Vec<Expected> {
    compilations
        .iter()
        .flat_map(|c| {
            c.diagnostics.iter().map(move |d| {
                (
                    c.source.name().replace('\\', "/"),
                    c.source.position(d.span.start as usize).line,
                    d.severity.as_str().to_string(),
                    d.code.name().to_string(),
                )
            })
        })
        .collect()
}

/// What the folder reports, relative to it and sorted.
fn reported(name: &str) -> Vec<Expected> {
    let dir = folder(name);
    relative_to(&dir, &diagnostics(&check_agent(&dir)))
}

fn show(list: &[Expected]) -> String {
    list.iter()
        .map(|(file, line, severity, code)| format!("    {file}:{line} {severity}[{code}]\n"))
        .collect()
}

/// A folder under the system's temporary folder, removed when dropped.
struct TempDir(tempfile::TempDir);

impl TempDir {
    fn new(name: &str) -> TempDir {
        TempDir(common::scratch(&format!("agents-{name}")))
    }

    fn path(&self) -> &Path {
        self.0.path()
    }

    fn join(&self, sub: &str) -> String {
        self.path()
            .join(sub)
            .to_str()
            .expect("utf-8 temp path")
            .to_string()
    }
}

#[test]
fn tests_run_from_the_crate_root() {
    let here = std::env::current_dir()
        .and_then(|d| d.canonicalize())
        .expect("working directory");
    let root = common::root().canonicalize().expect("crate root");
    assert_eq!(
        here, root,
        "the relative paths in these tests (and the file names in the snapshots) assume it"
    );
}

#[test]
fn invalid_agents_report_exactly_what_they_expect() {
    let mut failures = Vec::new();
    for name in invalid_agents() {
        let expected = expectations(&name);
        let actual = reported(&name);
        if actual != expected {
            failures.push(format!(
                "{}\n  expected:\n{}  reported:\n{}",
                folder(&name),
                show(&expected),
                show(&actual)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "agent fixtures disagree:\n{}",
        failures.join("\n")
    );
}

#[test]
fn every_agent_code_has_an_invalid_agent() {
    let covered: Vec<String> = invalid_agents()
        .iter()
        .flat_map(|name| expectations(name))
        .map(|(_, _, _, code)| code)
        .collect();
    let codes = [
        "invalid-json",
        "missing-settings",
        "unknown-prompt",
        "prompt-syntax",
        "unknown-prompt-variable",
        "unknown-enum-literal",
        "include-cycle",
        "unknown-reference",
        "unused-reference",
        "skill-file",
        "skill-frontmatter",
        "skill-secrets",
        "unknown-key",
        "missing-field",
        "invalid-value",
        "wrong-shape",
        "slug-name-case",
        "protocol-format",
    ];
    for code in codes {
        assert!(
            agentc::Code::from_name(code).is_some(),
            "`{code}` is not a code"
        );
        assert!(
            covered.iter().any(|c| c == code),
            "no invalid agent expects `{code}`"
        );
    }
}

#[test]
fn invalid_agent_output_snapshots() {
    let settings = common::snapshot_settings();
    settings.bind(|| {
        for name in invalid_agents() {
            let dir = folder(&name);
            let compilations = check_agent(&dir);
            let human: String = compilations
                .iter()
                .map(|c| human::render(c, human::Style::Plain))
                .collect();
            let json = json::render(&compilations);
            let root = common::root().to_str().expect("utf-8 root");
            assert!(
                !human.contains(root) && !json.contains(root),
                "absolute path in the output of {dir}"
            );
            insta::assert_snapshot!(format!("agent-{name}.human"), human);
            insta::assert_snapshot!(format!("agent-{name}.json"), json);
        }
    });
}

#[test]
fn valid_agents_have_no_diagnostics() {
    for dir in VALID_AGENTS {
        assert!(agentc::disk::is_agent_folder(Path::new(dir)), "{dir}");
        let compilations = check_agent(dir);
        let problems: String = compilations
            .iter()
            .map(|c| human::render(c, human::Style::Plain))
            .collect();
        assert!(problems.is_empty(), "{dir}:\n{problems}");
        // The protocol, settings.json and at least one prompt.
        assert!(compilations.len() >= 3, "{dir}");
    }
}

/// The support desk is the example that uses every feature the agent
/// checks know about; it must keep doing so to be worth checking clean.
#[test]
fn support_desk_uses_every_checked_feature() {
    use agentc::agent::template::{self, Tag};

    let compilations = check_agent(SUPPORT_DESK);
    let names: Vec<&str> = compilations.iter().map(|c| c.source.name()).collect();
    for file in [
        "protocol.yaml",
        "settings.json",
        "prompts/system.md",
        "prompts/shared/company-info.md",
        "prompts/shared/tone.md",
        "prompts/escalation/system.md",
        "prompts/escalation/handoff-request.md",
        "references/plan-comparison.md",
        "references/refund-policy.md",
        "references/escalation-playbook.md",
    ] {
        let path = format!("{SUPPORT_DESK}/{file}");
        assert!(names.contains(&path.as_str()), "{path} was not checked");
    }

    let model = compilations[0].model.as_ref().expect("protocol model");
    let protocol = &model.protocol;
    let agent = protocol.agent.as_ref().expect("agent");
    assert!(!agent.config.references.is_empty(), "agent.references");
    assert!(
        protocol
            .input
            .iter()
            .any(|f| f.name.text == "PLAN_TIER" && f.enum_values.is_some()),
        "an enum input"
    );
    assert!(
        protocol
            .triggers
            .iter()
            .any(|t| t.input.iter().any(|f| f.enum_values.is_some())),
        "an enum trigger input"
    );
    let threads: Vec<_> = protocol
        .blocks()
        .filter_map(|b| b.config.as_ref())
        .collect();
    assert!(
        threads
            .iter()
            .any(|c| c.system.is_some() && !c.references.is_empty()),
        "a start-thread with a system prompt and references"
    );
    assert!(
        protocol
            .blocks()
            .flat_map(|b| &b.input)
            .any(|m| m.label.text != m.source.text),
        "a renaming input mapping"
    );

    let tags: Vec<Tag> = compilations
        .iter()
        .filter(|c| c.source.name().contains("/prompts/"))
        .flat_map(|c| template::parse(c.source.text()).0)
        .collect();
    let has = |what: &str, found: bool| assert!(found, "no prompt has {what}");
    has(
        "a nested include",
        tags.iter()
            .any(|t| matches!(t, Tag::Include { path, .. } if path.contains('/'))),
    );
    has(
        "an `{{#if VAR == \"value\"}}`",
        tags.iter().any(
            |t| matches!(t, Tag::If { condition, .. } if condition.comparison.as_ref().is_some_and(|c| c.equal)),
        ),
    );
    has(
        "an `{{#if VAR != \"value\"}}`",
        tags.iter().any(
            |t| matches!(t, Tag::If { condition, .. } if condition.comparison.as_ref().is_some_and(|c| !c.equal)),
        ),
    );
    has(
        "an `{{#if !VAR}}`",
        tags.iter()
            .any(|t| matches!(t, Tag::If { condition, .. } if condition.negated)),
    );
    has(
        "an `{{else if}}`",
        tags.iter().any(|t| matches!(t, Tag::ElseIf { .. })),
    );
    has(
        "an `{{else}}`",
        tags.iter().any(|t| matches!(t, Tag::Else { .. })),
    );
}

#[test]
fn cli_checks_a_valid_agent_folder() {
    let output = agentc(&["check", SUPPORT_DESK]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    let files = check_agent(SUPPORT_DESK).len();
    assert_eq!(
        stdout(&output),
        format!("checked {files} files: no problems\n")
    );
}

#[test]
fn cli_reports_problems_in_prompts_and_references() {
    let dir = folder("prompts");
    let output = agentc(&["check", &dir]);
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));

    let (code, report) = check_json(&[&dir]);
    assert_eq!(code, Some(1));
    let found = json_diagnostics(&report);
    for sub in ["prompts", "references"] {
        let inside = format!("{dir}/{sub}/");
        assert!(
            found.iter().any(|(file, ..)| file.starts_with(&inside)),
            "no diagnostic names a file in {inside}:\n{}",
            show(&found)
        );
    }
    // The binary reports what the library does.
    assert_eq!(relative_to(&dir, &found), expectations("prompts"));
}

#[test]
fn cli_finds_every_agent_in_a_folder_of_folders() {
    let (code, report) = check_json(&[INVALID_AGENTS]);
    assert_eq!(code, Some(1));
    let found = json_diagnostics(&report);
    let mut files = 0;
    for name in invalid_agents() {
        let dir = folder(&name);
        files += check_agent(&dir).len();
        assert_eq!(
            relative_to(&dir, &found),
            expectations(&name),
            "{dir}, checked as part of {INVALID_AGENTS}"
        );
    }
    assert_eq!(report["summary"]["files"].as_u64(), Some(files as u64));
    assert_eq!(
        report["summary"]["errors"].as_u64().unwrap_or(0)
            + report["summary"]["warnings"].as_u64().unwrap_or(0),
        found.len() as u64
    );
}

#[test]
fn cli_refuses_a_folder_without_settings() {
    let dir = folder("missing-settings");
    assert!(!Path::new(&dir).join("settings.json").exists());
    assert!(Path::new(&dir).join("prompts").is_dir());
    let output = agentc(&["check", &dir]);
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    assert!(stdout(&output).contains("missing-settings"));

    // Named as a file, too: the folder is still an agent's.
    let file = format!("{dir}/protocol.yaml");
    let (code, report) = check_json(&[&file]);
    assert_eq!(code, Some(1));
    assert_eq!(
        relative_to(&dir, &json_diagnostics(&report)),
        expectations("missing-settings")
    );
}

#[test]
fn cli_checks_the_folder_of_a_protocol_named_as_a_file() {
    let temp = TempDir::new("file");
    let copy = temp.path().join("support-desk");
    common::copy_dir(Path::new(SUPPORT_DESK), &copy);
    let protocol = temp.join("support-desk/protocol.yaml");

    let (code, report) = check_json(&[&protocol]);
    assert_eq!(code, Some(0), "{report}");
    let files = check_agent(SUPPORT_DESK).len() as u64;
    assert_eq!(report["summary"]["files"].as_u64(), Some(files));

    let prompt = copy.join("prompts/escalation/handoff-request.md");
    let text = std::fs::read_to_string(&prompt).expect("read prompt");
    let text = text.replace("URGENCY == \"high\"", "URGENCY == \"urgent\"");
    std::fs::write(&prompt, text).expect("write prompt");
    let (code, report) = check_json(&[&protocol]);
    assert_eq!(code, Some(1), "{report}");
    let found = json_diagnostics(&report);
    assert_eq!(
        relative_to(&temp.join("support-desk"), &found),
        vec![(
            "prompts/escalation/handoff-request.md".to_string(),
            3,
            "error".to_string(),
            "unknown-enum-literal".to_string()
        )]
    );
}

#[test]
fn cli_checks_a_lone_protocol_without_its_files() {
    // This protocol names prompts that have no file; only an agent folder
    // has files to compare them with. Alone, it keeps only what needs no
    // files: a prompt name that is not lowercase-with-dashes.
    let source = format!("{}/protocol.yaml", folder("includes"));
    let compiled = common::compile(Path::new(&source));
    let codes: Vec<&str> = compiled.diagnostics.iter().map(|d| d.code.name()).collect();
    assert_eq!(codes, ["slug-name-case"]);
    let temp = TempDir::new("lone");
    for name in ["protocol.yaml", "help-center.yaml"] {
        let path = temp.join(name);
        std::fs::copy(&source, &path).expect("copy protocol");
        let (code, report) = check_json(&[&path]);
        assert_eq!(code, Some(0), "{name}: {report}");
        assert_eq!(report["summary"]["files"], 1, "{name}");
        let codes: Vec<String> = json_diagnostics(&report).into_iter().map(|d| d.3).collect();
        assert_eq!(
            codes,
            ["slug-name-case"],
            "{name}: no unknown-prompt and no missing-settings without prompts/"
        );
    }
    let output = agentc(&["check", &temp.join("protocol.yaml")]);
    assert!(stdout(&output).ends_with("checked 1 file: 1 warning\n"));
}

/// Checking a folder reads `settings.json` into typed settings once; a
/// folder whose settings are not settings has none.
#[test]
fn checking_a_folder_reads_its_settings() {
    let checked = agent::check_folder(agentc::disk::load_agent(Path::new(
        "protocols/shop-assistant",
    )));
    let settings = checked.settings.expect("settings");
    assert_eq!(settings.slug, "shop-assistant");
    assert_eq!(settings.name, "Shop Assistant");
    assert!(settings.description.is_some());
    assert_eq!(settings.format, agent::Format::Interactive);
    assert_eq!(checked.others.len(), 6, "settings.json and five prompts");
    let worker = agent::check_folder(agentc::disk::load_agent(Path::new("protocols/worker")));
    assert_eq!(
        worker.settings.map(|s| s.format),
        Some(agent::Format::Worker)
    );
}
