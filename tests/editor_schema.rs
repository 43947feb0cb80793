//! The editor schema of the protocol file format (`agentc schema`,
//! `schema/protocol.schema.json`): it is current, it is valid draft-07, it
//! accepts every protocol agentc accepts, and it rejects the key-level
//! mistakes agentc rejects. (That each place lists the keys the lowering
//! accepts needs no test: both read `agentc::grammar`.)
//!
//! An editor validates the YAML as JSON, typing plain scalars by the YAML
//! 1.2 core schema; [`to_json`] does the same with agentc's own YAML tree.

mod common;

use agentc::yaml::{self, Node, NodeKind, Scalar};
use agentc::{Diagnostics, Severity, Source};
use serde_json::{Number, Value};
use std::sync::OnceLock;

fn schema() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(agentc::grammar::editor_schema::schema)
}

fn validator() -> &'static jsonschema::Validator {
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    VALIDATOR.get_or_init(|| jsonschema::draft7::new(schema()).expect("the schema compiles"))
}

/// A YAML document as an editor's YAML support sees it: agentc's tree, with
/// plain scalars typed by the YAML 1.2 core schema.
fn to_json(text: &str) -> Value {
    let source = Source::new("protocol.yaml", text);
    let mut diags = Diagnostics::default();
    let root = agentc::yaml::parse(&source, &mut diags).expect("well-formed YAML");
    node_to_json(&root)
}

fn node_to_json(node: &Node) -> Value {
    match &node.kind {
        NodeKind::Mapping(entries) => Value::Object(
            entries
                .iter()
                .map(|e| (e.key.text.to_string(), node_to_json(&e.value)))
                .collect(),
        ),
        NodeKind::Sequence(items) => Value::Array(items.iter().map(node_to_json).collect()),
        NodeKind::Scalar(scalar) => scalar_to_json(scalar),
    }
}

/// YAML 1.2 core schema, as the lowering reads it: only plain scalars are
/// typed; quoted and block scalars are strings. `.inf` and `.nan` have no
/// JSON form and are left as text.
fn scalar_to_json(scalar: &Scalar) -> Value {
    match scalar.value() {
        yaml::Value::Null => Value::Null,
        yaml::Value::Bool(b) => Value::Bool(b),
        yaml::Value::Int(i) => Value::Number(i.into()),
        yaml::Value::Float(f) => Number::from_f64(f)
            .map_or_else(|| Value::String(scalar.text.to_string()), Value::Number),
        yaml::Value::Str(text) => Value::String(text.to_string()),
    }
}

/// Every error the schema finds in `instance`, one per line.
fn schema_errors(instance: &Value) -> Vec<String> {
    validator()
        .iter_errors(instance)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

fn errors(compiled: &agentc::FileReport) -> Vec<&'static str> {
    compiled
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.code.name())
        .collect()
}

#[test]
fn committed_schema_is_what_agentc_schema_prints() {
    let expected = format!("{:#}\n", agentc::grammar::editor_schema::schema());
    let path = common::root().join("schema/protocol.schema.json");
    let committed = std::fs::read_to_string(&path)
        .unwrap_or_default()
        .replace("\r\n", "\n");
    assert!(
        committed == expected,
        "{} is not what `agentc schema` prints; run `cargo run -- schema > schema/protocol.schema.json`",
        common::display(&path)
    );
    let output = common::agentc(&["schema"]);
    assert!(output.status.success(), "{}", common::stderr(&output));
    assert_eq!(common::stdout(&output), expected);
}

#[test]
fn schema_is_valid_draft_07() {
    let schema = schema();
    if let Err(error) = jsonschema::draft7::meta::validate(schema) {
        panic!(
            "not a valid draft-07 schema: {error} at {}",
            error.instance_path()
        );
    }
    assert_eq!(schema["$schema"], "http://json-schema.org/draft-07/schema#");
    assert!(
        schema.get("$id").is_none(),
        "editors name the schema by its path"
    );
    assert!(schema["title"].is_string());
    if let Err(error) = jsonschema::draft7::new(schema) {
        panic!("the schema does not compile: {error}");
    }
}

#[test]
#[ignore = "needs ../shared/corpus beside the checkout (CI runs it)"]
fn schema_accepts_the_real_protocols() {
    let Some(dir) = common::shared("corpus/octavus-examples") else {
        return;
    };
    let files = common::yaml_files(&dir);
    assert!(!files.is_empty(), "no protocols in {}", dir.display());
    for path in files {
        let text = std::fs::read_to_string(&path).expect("read a corpus file");
        let found = schema_errors(&to_json(&text));
        assert!(
            found.is_empty(),
            "{}:\n  {}",
            path.display(),
            found.join("\n  ")
        );
    }
}

/// Every protocol under `protocols/` that agentc reports no errors for,
/// the fixtures with only warnings included.
#[test]
fn schema_accepts_every_protocol_agentc_accepts() {
    let mut accepted = 0;
    for path in common::yaml_files(&common::root().join("protocols")) {
        let compiled = common::compile(&path);
        if compiled.has_errors() {
            continue;
        }
        let found = schema_errors(&to_json(compiled.source.text()));
        assert!(
            found.is_empty(),
            "agentc accepts {}, the schema does not:\n  {}",
            common::display(&path),
            found.join("\n  ")
        );
        accepted += 1;
    }
    assert!(accepted >= 10, "only {accepted} protocols without errors");
}

/// Errors about the form of a key or value, which the schema sees too.
const FORM_ERRORS: &[&str] = &[
    "unknown-key",
    "unsupported-constraint",
    "wrong-shape",
    "missing-field",
    "invalid-value",
    "invalid-enum",
    "invalid-tool-parameters",
    "invalid-type-definition",
    "invalid-type-name",
    "variable-name-case",
    "standalone-object",
    "bare-array",
    "array-without-items",
    "union-too-few-variants",
    "missing-discriminator",
];

#[test]
fn schema_rejects_the_fixtures_with_only_form_errors() {
    let mut rejected = Vec::new();
    for path in common::files(&common::root().join("protocols/invalid"), "yaml") {
        let compiled = common::compile(&path);
        let codes = errors(&compiled);
        if codes.is_empty() || !codes.iter().all(|c| FORM_ERRORS.contains(c)) {
            continue;
        }
        assert!(
            !schema_errors(&to_json(compiled.source.text())).is_empty(),
            "agentc rejects {} ({codes:?}), the schema accepts it",
            common::display(&path)
        );
        rejected.push(common::display(&path));
    }
    for fixture in ["unknown-key", "agent-keys", "block-keys", "protocol-keys"] {
        let path = format!("protocols/invalid/{fixture}.yaml");
        assert!(rejected.contains(&path), "{path} was not checked");
    }
    assert!(rejected.len() >= 10, "only {rejected:?}");
}

// ---------------------------------------------------------------------
// One change at a time: agentc and the schema agree on each.
// ---------------------------------------------------------------------

/// An interactive protocol without errors, plus `sections` at the top
/// level, `agent` keys (a `model:` among them replaces the default) and a
/// block named `Case` with the body `block`.
fn protocol(sections: &str, agent: &str, block: &str) -> String {
    let indent = |text: &str, by: &str| -> String {
        text.lines().map(|line| format!("{by}{line}\n")).collect()
    };
    let mut agent_keys = String::new();
    if !agent.lines().any(|line| line.starts_with("model:")) {
        agent_keys.push_str("model: anthropic/claude-sonnet-4-5\n");
    }
    agent_keys.push_str("system: system\n");
    agent_keys.push_str(agent);
    let block = match block {
        "" => String::new(),
        body => format!("    Case:\n{}", indent(body, "      ")),
    };
    format!(
        "input:
  MODEL: {{ type: string }}
  TEMPERATURE: {{ type: number }}
  LEVEL: {{ type: string }}
  STEPS: {{ type: integer }}
variables:
  SUMMARY: {{ type: string }}
  IMAGE: {{ type: string }}
  RECORDING: {{ type: file }}
triggers:
  user-message:
    input:
      USER_MESSAGE: {{ type: string }}
tools:
  search:
    description: Searching
    parameters:
      query: {{ type: string }}
agent:
{}handlers:
  user-message:
    Add user message:
      block: add-message
      role: user
      prompt: user-message
      input: [USER_MESSAGE]
{block}    Respond:
      block: next-message
{sections}",
        indent(&agent_keys, "  ")
    )
}

fn agent(keys: &str) -> String {
    protocol("", keys, "")
}

fn block(body: &str) -> String {
    protocol("", "", body)
}

fn sections(yaml: &str) -> String {
    protocol(yaml, "", "")
}

/// The base protocol with `yaml` added under its section `section`
/// (`input`, `variables` or `tools`).
fn entry(section: &str, yaml: &str) -> String {
    let entries: String = yaml.lines().map(|line| format!("  {line}\n")).collect();
    let key = format!("{section}:\n");
    protocol("", "", "").replacen(&key, &format!("{key}{entries}"), 1)
}

/// What agentc accepts, the schema accepts.
#[test]
fn schema_accepts_what_agentc_accepts() {
    let cases = [
        // Variable references where a value may be one.
        agent("model: MODEL"),
        agent("backupModel: MODEL\ntemperature: TEMPERATURE\nthinking: LEVEL\nmaxSteps: STEPS"),
        agent("temperature: 0.7"),
        agent("temperature: 2"),
        agent("temperature: off"),
        agent("temperature: \"off\""),
        agent("thinking: max\nspeed: fast\ncache: extended"),
        agent("maxSteps: 5\nsandboxTimeout: 3600000\nmaxOutputTokens: 32000"),
        agent("webSearch: true\ntodoList: false\nagentic: true\nloopGuard: true"),
        agent("speechModel: openai/gpt-4o-mini-tts\nspeechVoice: marin"),
        agent("input: [MODEL]"),
        agent("input: [CONTEXT: MODEL]"),
        agent("input: { CONTEXT: MODEL }"),
        agent("tools: [search]"),
        // Empty values that agentc reads as absent.
        agent("thinking:\ncache:\ntools:\ninput:"),
        agent("contextManagement:\n  thresholdPercent: 0.8\n  recentPercent: 1"),
        agent(
            "anthropic:\n  tools:\n    web-search: { display: name }\n  skills:\n    pdf: { type: anthropic }",
        ),
        // Text may be any scalar.
        sections("skills:\n  qr-code:\n    description: 42\n    execution: device"),
        sections("onDemandSkills:\n  display: description"),
        block("block: next-message\ndescription: |\n  Thinking\n  hard"),
        block("block: next-message\nindependent: true\noutput: SUMMARY"),
        block("block: tool-call\ntool: search\ninput: { query: SUMMARY }"),
        block("block: tool-call\ntool: search\ninput: { query: \"plain words\" }\ndisplay: hidden"),
        block(
            "block: generate-image\nprompt: SUMMARY\nimageModel: google/gemini-2.5-flash-image\naspectRatio: 16:9\nresolution: 2K\noutput: IMAGE",
        ),
        block(
            "block: generate-speech\ntext: SUMMARY\nspeechModel: openai/gpt-4o-mini-tts\nspeed: 1.5\nformat: wav",
        ),
        block(
            "block: transcribe-audio\naudio: RECORDING\ntranscriptionModel: openai/gpt-4o-transcribe\ntimestamps: true",
        ),
        // `generate-video` is not specified; agentc takes any key on it.
        block(
            "block: generate-video\nprompt: SUMMARY\nvideoModel: google/veo-3\ndurationSeconds: 8\nfps: 24",
        ),
        block(
            "block: start-thread\nthread: side\nmodel: MODEL\nsystem: side\ntemperature: off\nmaxSteps: STEPS\ninput: [MODEL]",
        ),
        block("block: serialize-thread\nformat: markdown\noutput: SUMMARY"),
        sections("types:\n  Tags:\n    type: \"string[]\"\n    description: Labels"),
        sections(
            "types:\n  Grid:\n    type: array\n    items:\n      type: array\n      items: { type: integer }",
        ),
        sections(
            "types:\n  Shape:\n    type: { type: string, enum: [circle, square] }\n    items: { type: number, description: a property named items }\n    size: { type: integer, const: 5, optional: true }",
        ),
        sections(
            "types:\n  Hit:\n    anyOf: [A, B]\n    discriminator: kind\n  A:\n    kind: { type: string, const: a }\n  B:\n    kind: { type: string, const: b }",
        ),
        sections(
            "resources:\n  LIST: { type: \"string[]\", default: [a, b], readonly: true }\n  ANY: { type: unknown, default: { nested: 1 } }",
        ),
        sections(
            "mcpServers:\n  figma:\n    description: Figma\n    source: remote\n    connection: eager\n    execution: device",
        ),
        sections(
            "onDemandMcpServers:\n  remote:\n    display: name\n    contextRetention:\n      toolResults: { retainLast: 0 }",
        ),
        sections("workers:\n  titler:\n    description: Titling\n    tools: { lookup: search }"),
    ];
    for text in cases {
        let compiled = common::compile_text(&text);
        assert!(
            !compiled.has_errors(),
            "agentc rejects this case:\n{text}\n{}",
            agentc::render::human::render(&compiled, agentc::render::human::Style::Plain)
        );
        let found = schema_errors(&to_json(&text));
        assert!(
            found.is_empty(),
            "the schema rejects:\n{text}\n  {}",
            found.join("\n  ")
        );
    }
}

/// A key-level mistake agentc reports, the schema reports too.
#[test]
fn schema_rejects_what_agentc_rejects() {
    let cases = [
        agent("llm: anthropic/claude-sonnet-4-5"),
        agent("model: claude-sonnet-4-5"),
        agent("webSearch: yes"),
        agent("temperature: \"0.7\""),
        agent("temperature: 3"),
        agent("temperature: warm"),
        agent("maxSteps: 0"),
        agent("sandboxTimeout: 3600001"),
        agent("thinking: extreme"),
        agent("cache: forever"),
        agent("tools: search"),
        agent("input: [~]"),
        agent("contextManagement: { thresholdPercent: 0 }"),
        agent("contextManagement: { recentPercent: 80 }"),
        agent("anthropic: { tools: { bash: {} } }"),
        agent("anthropic: { skills: { pdf: { version: latest } } }"),
        block("display: hidden"),
        block("block: send-message"),
        block("block: next-message\nreponseType: Answer"),
        block("block: next-message\nindependent: \"true\""),
        block("block: next-message\nresponseType: string"),
        block("block: add-message\nrole: human\nprompt: p"),
        block("block: add-message\nrole: user"),
        block("block: tool-call\ntool: search\ninput: [SUMMARY]"),
        block("block: generate-image\nprompt: SUMMARY\nimageModel: google/x\naspectRatio: wide"),
        block("block: generate-image\nprompt: SUMMARY"),
        block("block: generate-speech\ntext: SUMMARY\nspeechModel: openai/tts\nspeed: 5"),
        block(
            "block: transcribe-audio\naudio: RECORDING\ntranscriptionModel: openai/t\ntimestamps: 1",
        ),
        block("block: start-thread\nthread: side"),
        block("block: start-thread\nsystem: side\nagentic: true"),
        sections("prompts:\n  system: system"),
        sections("types:\n  Item:\n    name: { type: object }"),
        sections("types:\n  Item:\n    name: { description: no type }"),
        sections("types:\n  Item:\n    name: { type: string, items: { type: string } }"),
        sections("types:\n  Item:\n    tags: { type: array }"),
        sections("types:\n  Item:\n    name: { type: string, minLength: 3 }"),
        sections("types:\n  Item:\n    name: { type: string, enum: [] }"),
        sections("types:\n  Item:\n    name: { type: string, enum: [1, 2] }"),
        sections("types:\n  Item:\n    name: { type: string, optional: yes }"),
        sections("types:\n  Item:\n    name: string"),
        sections("types:\n  Item:"),
        sections("types:\n  item:\n    name: { type: string }"),
        sections("types:\n  Name:\n    type: string"),
        sections(
            "types:\n  Hit:\n    anyOf: [A]\n    discriminator: kind\n  A:\n    kind: { type: string, const: a }",
        ),
        sections(
            "types:\n  Hit:\n    anyOf: [A, B]\n  A:\n    kind: { type: string, const: a }\n  B:\n    kind: { type: string, const: b }",
        ),
        sections(
            "types:\n  Hit:\n    anyOf: [A, B]\n    discriminator: kind\n    required: [kind]\n  A:\n    kind: { type: string, const: a }\n  B:\n    kind: { type: string, const: b }",
        ),
        entry("input", "user_id: { type: string }"),
        entry("variables", "NOTE: { type: string, optional: true }"),
        sections("mcpServers:\n  figma:\n    description: Figma"),
        sections("mcpServers:\n  figma:\n    description: Figma\n    source: http"),
        sections("onDemandMcpServers:\n  stdio: {}"),
        sections(
            "onDemandMcpServers:\n  remote:\n    contextRetention: { toolResults: { retainLast: -1 } }",
        ),
        sections("workers:\n  titler:\n    input: [MODEL]"),
        entry("tools", "lookup:\n  parameters: {}"),
        entry(
            "tools",
            "lookup:\n  description: Looking up\n  parameters: { type: object }",
        ),
        entry(
            "tools",
            "lookup:\n  description: Looking up\n  parameters:\n    properties:\n      id: { type: string }",
        ),
    ];
    for text in cases {
        let compiled = common::compile_text(&text);
        let codes = errors(&compiled);
        assert!(
            !codes.is_empty()
                && codes
                    .iter()
                    .all(|c| FORM_ERRORS.contains(c) || *c == "invalid-response-type"),
            "agentc does not reject only the form of this case ({codes:?}):\n{text}"
        );
        assert!(
            !schema_errors(&to_json(&text)).is_empty(),
            "the schema accepts what agentc rejects ({:?}):\n{text}",
            errors(&compiled)
        );
    }
}
// ---------------------------------------------------------------------
// The schema lists the lowering's keys, place by place.
// ---------------------------------------------------------------------

/// The converter types scalars as an editor does.
#[test]
fn yaml_scalars_are_typed_by_the_core_schema() {
    let json = to_json(
        "a: true\nb: 'true'\nc: ~\nd: 12\ne: 0x1F\nf: 0.5\ng: 16:9\nh: yes\ni: \"7\"\nj: 1e3\nk: .5\nl: |\n  x\n",
    );
    let expected = serde_json::json!({
        "a": true, "b": "true", "c": null, "d": 12, "e": 31, "f": 0.5,
        "g": "16:9", "h": "yes", "i": "7", "j": 1000.0, "k": 0.5, "l": "x\n",
    });
    assert_eq!(json, expected);
}
