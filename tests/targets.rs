//! The consumer targets: golden output for the example protocols, each
//! target's rules checked on every schema it emits for the examples and
//! the corpus, and the tools prompt against the backend's own rendering.

mod common;

use agentc::emit::{self, Output, Selection, Target};
use agentc::render::human::{self, Style};
use agentc::{Diagnostics, Model};
use serde_json::Value;
use std::path::PathBuf;

/// Every target but the reference mapping.
fn consumers() -> impl Iterator<Item = Target> {
    Target::ALL.into_iter().filter(|&t| t != Target::JsonSchema)
}

/// Everything a target emits for a protocol: every tool, and every
/// response type for the providers with structured output.
fn outputs(model: &Model, target: Target) -> (Vec<(String, Output)>, Diagnostics) {
    let mut diags = Diagnostics::default();
    let mut out = Vec::new();
    let all = emit::emit(model, target, Selection::All, &mut diags).expect("all tools");
    out.push(("tools".to_string(), all));
    if matches!(target, Target::OpenAi | Target::Anthropic | Target::Gemini) {
        for id in emit::response_types(model) {
            let name = model.def(id).name.text.clone();
            let output = emit::emit(model, target, Selection::Response(&name), &mut diags)
                .expect("a response type");
            out.push((format!("response {name}"), output));
        }
    }
    (out, diags)
}

fn json(output: &Output) -> Value {
    match output {
        Output::Text(_) => panic!("expected JSON"),
        json => json.clone().into_value(),
    }
}

#[test]
fn golden_output_of_every_target_for_the_examples() {
    let settings = common::snapshot_settings();
    settings.bind(|| {
        for path in common::valid_protocols() {
            let mut compiled = common::compile(&path);
            let model = compiled.model.take().expect("a model");
            let name = path
                .parent()
                .and_then(|p| p.file_name())
                .and_then(|n| n.to_str())
                .expect("a folder name")
                .to_string();
            for target in consumers() {
                let (outputs, diags) = outputs(&model, target);
                compiled.diagnostics.clear();
                compiled.add(diags);
                let mut text = human::render(&compiled, Style::Plain);
                for (what, output) in outputs {
                    text.push_str(&format!("── {what}\n{}", output.into_text()));
                }
                insta::assert_snapshot!(format!("target-{name}-{}", target.name()), text);
            }
        }
    });
}

/// Every schema inside a target's output, with where it is.
fn schemas(target: Target, what: &str, output: &Output) -> Vec<(String, Value)> {
    let value = match output {
        Output::Text(_) => return Vec::new(),
        json => &json.clone().into_value(),
    };
    let mut found = Vec::new();
    let mut take = |name: String, schema: Option<&Value>| {
        found.push((
            name,
            schema.cloned().expect("a schema where the target puts it"),
        ));
    };
    match (target, what.starts_with("response")) {
        (Target::OpenAi, true) => take(what.into(), value.pointer("/json_schema/schema")),
        (Target::Anthropic, true) => take(what.into(), value.get("schema")),
        (Target::Gemini, true) => take(what.into(), value.get("responseJsonSchema")),
        (Target::Gemini, false) => {
            for tool in value["functionDeclarations"]
                .as_array()
                .expect("declarations")
            {
                take(tool["name"].to_string(), tool.get("parametersJsonSchema"));
            }
        }
        (_, _) => {
            for tool in value.as_array().expect("a tool list") {
                let schema = match target {
                    Target::OpenAi => tool.pointer("/function/parameters"),
                    Target::Anthropic => tool.get("input_schema"),
                    _ => tool.get("parameters"),
                };
                let name = tool
                    .get("name")
                    .or_else(|| tool.pointer("/function/name"))
                    .map_or(String::new(), Value::to_string);
                take(name, schema);
            }
        }
    }
    found
}

/// Calls `visit` on every schema object below `schema`, itself included.
fn walk(schema: &Value, visit: &mut impl FnMut(&serde_json::Map<String, Value>)) {
    let Value::Object(map) = schema else {
        panic!("a schema that is not an object: {schema}");
    };
    visit(map);
    if let Some(Value::Object(properties)) = map.get("properties") {
        for property in properties.values() {
            walk(property, visit);
        }
    }
    if let Some(items) = map.get("items") {
        walk(items, visit);
    }
    if let Some(Value::Array(variants)) = map.get("anyOf") {
        for variant in variants {
            walk(variant, visit);
        }
    }
}

fn keys(map: &serde_json::Map<String, Value>) -> Vec<Value> {
    map.keys().map(|k| Value::String(k.clone())).collect()
}

/// The rules each target's schemas follow (provider-rules.md §6).
fn check_rules(target: Target, schema: &Value) -> Result<(), String> {
    let mut problems = Vec::new();
    if let Value::Object(root) = schema
        && root.get("type") != Some(&Value::from("object"))
    {
        problems.push("the root is not an object".to_string());
    }
    walk(schema, &mut |map| {
        let mut allowed = vec![
            "type",
            "description",
            "enum",
            "anyOf",
            "items",
            "properties",
            "required",
            "additionalProperties",
        ];
        match target {
            // Anthropic writes a `const` as a one-value `enum`; so does
            // Gemini, which also orders properties.
            Target::Anthropic => {}
            Target::Gemini => allowed.push("propertyOrdering"),
            _ => allowed.push("const"),
        }
        for key in map.keys() {
            if !allowed.contains(&key.as_str()) {
                problems.push(format!("`{key}` is not a keyword of this target: {map:?}"));
            }
        }
        if let Some(Value::Object(properties)) = map.get("properties") {
            if map.get("additionalProperties") != Some(&Value::Bool(false)) {
                problems.push(format!("an open object: {map:?}"));
            }
            let required = map
                .get("required")
                .cloned()
                .unwrap_or(Value::Array(Vec::new()));
            if target == Target::OpenAi && required != Value::Array(keys(properties)) {
                problems.push(format!("`required` is not every property: {map:?}"));
            }
            if target == Target::Gemini
                && map.get("propertyOrdering") != Some(&Value::Array(keys(properties)))
            {
                problems.push(format!(
                    "`propertyOrdering` is not the properties in order: {map:?}"
                ));
            }
        }
        if target == Target::Anthropic && map.contains_key("enum") && map.contains_key("type") {
            problems.push(format!(
                "`type` beside `enum`, which the SDK removes: {map:?}"
            ));
        }
        if target == Target::OpenAi && map.contains_key("const") && !map.contains_key("type") {
            problems.push(format!("a `const` without `type`: {map:?}"));
        }
        if let Some(Value::Array(values)) = map.get("enum") {
            let nullable = map
                .get("type")
                .and_then(Value::as_array)
                .is_some_and(|t| t.contains(&Value::from("null")));
            if nullable != values.contains(&Value::Null) {
                problems.push(format!(
                    "a nullable enum without `null`, or the reverse: {map:?}"
                ));
            }
        }
    });
    if let Err(error) = jsonschema::meta::validate(schema) {
        problems.push(format!("not a valid 2020-12 schema: {error}"));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

/// Checks every schema each target emits for `paths` (those without
/// errors) against the target's rules; how many were checked.
fn check_every_schema(paths: &[PathBuf]) -> usize {
    let mut checked = 0;
    for path in paths {
        let compiled = common::compile(path);
        if compiled.has_errors() {
            continue;
        }
        let model = compiled.model.expect("a model");
        for target in consumers() {
            let (outputs, _) = outputs(&model, target);
            for (what, output) in &outputs {
                for (name, schema) in schemas(target, what, output) {
                    if let Err(problems) = check_rules(target, &schema) {
                        panic!(
                            "{} {} {what} {name}:\n{problems}\n{schema:#}",
                            common::display(path),
                            target.name()
                        );
                    }
                    checked += 1;
                }
            }
        }
    }
    checked
}

#[test]
fn every_emitted_schema_follows_its_targets_rules() {
    let checked = check_every_schema(&common::valid_protocols());
    assert!(checked >= 40, "only {checked} schemas checked");
}

#[test]
#[ignore = "needs ../shared/corpus beside the checkout (CI runs it)"]
fn every_schema_emitted_for_the_corpus_follows_its_targets_rules() {
    let Some(corpus) = common::shared("corpus/octavus-examples") else {
        return;
    };
    let checked = check_every_schema(&common::files(&corpus, "yaml"));
    assert!(checked >= 50, "only {checked} schemas checked");
}

#[test]
fn the_rule_checks_can_fail() {
    let open = serde_json::json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]});
    assert!(check_rules(Target::OpenAi, &open).is_err());
    let optional = serde_json::json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false});
    assert!(check_rules(Target::OpenAi, &optional).is_err());
    let typed_enum = serde_json::json!({"type": "string", "enum": ["a"]});
    assert!(check_rules(Target::Anthropic, &typed_enum).is_err());
    let unordered = serde_json::json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false});
    assert!(check_rules(Target::Gemini, &unordered).is_err());
}

#[test]
fn openai_optional_values_are_required_and_nullable() {
    let compiled = common::compile_text(
        "types:\n  Inner:\n    x: { type: string }\n  Shape:\n    anyOf: [Circle, Square]\n    discriminator: kind\n  Circle:\n    kind: { type: string, const: circle }\n  Square:\n    kind: { type: string, const: square }\n\
tools:\n  t:\n    description: T\n    parameters:\n      s: { type: string, optional: true }\n      e: { type: string, enum: [a, b], optional: true }\n      c: { type: integer, const: 3, optional: true }\n      o: { type: Inner, optional: true, description: An inner }\n      u: { type: Shape, optional: true }\n      l: { type: \"string[]\", optional: true }\n\
agent:\n  model: openai/gpt-5\n  system: system\ntriggers:\n  go: {}\nhandlers:\n  go:\n    Respond:\n      block: next-message\n",
    );
    assert!(
        !compiled.has_errors(),
        "{}",
        human::render(&compiled, Style::Plain)
    );
    let model = compiled.model.expect("a model");
    let mut diags = Diagnostics::default();
    let output =
        emit::emit(&model, Target::OpenAi, Selection::Tool("t"), &mut diags).expect("the tool");
    let parameters = &json(&output)["function"]["parameters"];
    let expected = serde_json::json!({
        "type": "object",
        "properties": {
            "s": {"type": ["string", "null"]},
            "e": {"type": ["string", "null"], "enum": ["a", "b", null]},
            "c": {"anyOf": [{"type": "integer", "const": 3}, {"type": "null"}]},
            "o": {"anyOf": [
                {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"], "additionalProperties": false},
                {"type": "null"}
            ], "description": "An inner"},
            "u": {"anyOf": [
                {"type": "object", "properties": {"kind": {"type": "string", "const": "circle"}}, "required": ["kind"], "additionalProperties": false},
                {"type": "object", "properties": {"kind": {"type": "string", "const": "square"}}, "required": ["kind"], "additionalProperties": false},
                {"type": "null"}
            ]},
            "l": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]}
        },
        "required": ["s", "e", "c", "o", "u", "l"],
        "additionalProperties": false
    });
    assert_eq!(parameters, &expected);
    assert_eq!(json(&output)["function"]["strict"], Value::Bool(true));
}

#[test]
#[ignore = "needs ../shared/spec beside the checkout (CI runs it)"]
fn the_tools_prompt_renders_as_the_backend_does() {
    let Some(readme) = common::shared("spec/README.md") else {
        return;
    };
    let text = std::fs::read_to_string(readme).expect("read the spec README");
    // The block after "Its `build_tools_prompt` renders", in its fence.
    let after = text
        .split_once("build_tools_prompt")
        .map(|(_, rest)| rest)
        .expect("the tools prompt section");
    let block = after.split("```").nth(1).expect("a fenced block");
    let expected = block.trim_start_matches('\n');
    let tools = [
        (
            "get_weather",
            "Get current weather for a location",
            serde_json::json!({"type": "object", "properties": {"location": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["location"]}),
        ),
        (
            "searchDocuments",
            "Search for documents",
            serde_json::json!({"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}),
        ),
    ];
    assert_eq!(emit::plain::tools_prompt(&tools), expected);
    assert_eq!(emit::plain::tools_prompt(&[]), "");
}

#[test]
fn a_protocol_without_tools_gives_an_empty_tools_prompt() {
    let compiled = common::compile_text(
        "agent:\n  model: openai/gpt-5\n  system: system\ntriggers:\n  go: {}\nhandlers:\n  go:\n    Respond:\n      block: next-message\n",
    );
    let model = compiled.model.expect("a model");
    let mut diags = Diagnostics::default();
    let output =
        emit::emit(&model, Target::ToolsPrompt, Selection::All, &mut diags).expect("no tools");
    assert_eq!(output, Output::Text(String::new()));
    assert_eq!(output.into_text(), "");
}

#[test]
fn anthropic_writes_discriminators_as_one_value_enums() {
    let compiled = common::compile_text(
        "types:\n  Shape:\n    anyOf: [Circle, Square]\n    discriminator: kind\n  Circle:\n    kind: { type: string, const: circle }\n  Square:\n    kind: { type: string, const: square }\n\
tools:\n  t:\n    description: T\n    parameters:\n      shape: { type: Shape }\n\
agent:\n  model: anthropic/claude-sonnet-4-5\n  system: system\ntriggers:\n  go: {}\nhandlers:\n  go:\n    Respond:\n      block: next-message\n",
    );
    let model = compiled.model.expect("a model");
    for (target, pointer) in [
        (Target::Anthropic, "/input_schema"),
        (Target::Gemini, "/parametersJsonSchema"),
    ] {
        let mut diags = Diagnostics::default();
        let output =
            emit::emit(&model, target, Selection::Tool("t"), &mut diags).expect("the tool");
        let kind = json(&output)
            .pointer(&format!(
                "{pointer}/properties/shape/anyOf/0/properties/kind"
            ))
            .cloned();
        let expected = match target {
            Target::Anthropic => serde_json::json!({"enum": ["circle"]}),
            _ => serde_json::json!({"type": "string", "enum": ["circle"]}),
        };
        assert_eq!(kind, Some(expected), "{}", target.name());
    }
}
