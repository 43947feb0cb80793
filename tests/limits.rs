//! Every provider limit at its boundary: the limit itself passes, one more
//! fails, with the limit's own code at the node that crosses it. Protocols
//! are generated, since a limit of 5,000 properties needs 5,001 of them.

mod common;

use agentc::emit::Target;
use agentc::{Code, FileReport};

/// A protocol with these `types:` and `tools:` entries (indented by two).
fn protocol(types: &str, tools: &str) -> String {
    format!(
        "types:\n  Unused:\n    value: {{ type: string }}\n{types}\ntools:\n{tools}\n\
agent:\n  model: anthropic/claude-sonnet-4-5\n  system: system\n\n\
triggers:\n  user-message:\n    input:\n      USER_MESSAGE: {{ type: string }}\n\n\
handlers:\n  user-message:\n    Respond:\n      block: next-message\n"
    )
}

/// One tool, `check`, with these parameters (indented by six).
fn tool(parameters: &str) -> String {
    format!("  check:\n    description: Check the limit\n    parameters:\n{parameters}")
}

fn checked(text: &str, target: Target) -> FileReport {
    let mut compiled = common::compile_text(text);
    assert!(
        !compiled.has_errors(),
        "{}",
        agentc::render::human::render(&compiled, agentc::render::human::Style::Plain)
    );
    agentc::check_targets(&mut compiled, &[target]);
    compiled
}

/// The lines at which `code` is reported.
fn lines(compiled: &FileReport, code: Code) -> Vec<usize> {
    compiled
        .diagnostics
        .iter()
        .filter(|d| d.code == code)
        .map(|d| compiled.source.position(d.span.start as usize).line)
        .collect()
}

/// `at_limit` passes; `over` reports `code` once, at `line`.
fn boundary(at_limit: &str, over: &str, target: Target, code: Code, line: usize) {
    let passing = checked(at_limit, target);
    assert_eq!(lines(&passing, code), Vec::<usize>::new(), "at the limit");
    let failing = checked(over, target);
    assert_eq!(lines(&failing, code), vec![line], "one over the limit");
}

/// The 1-based line of the first line of `text` that contains `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .map(|i| i + 1)
        .unwrap_or_else(|| panic!("`{needle}` is not in the protocol"))
}

fn parameters(count: usize) -> String {
    (1..=count)
        .map(|i| format!("      p{i}: {{ type: string }}\n"))
        .collect()
}

#[test]
fn openai_properties() {
    let at = protocol("", &tool(&parameters(5_000)));
    let over = protocol("", &tool(&parameters(5_001)));
    let line = line_of(&over, "p5001:");
    boundary(&at, &over, Target::OpenAi, Code::TooManyProperties, line);
}

#[test]
fn openai_properties_count_types_once_per_use() {
    // 2,500 uses of a two-property type: 2,500 + 5,000 properties.
    let types = "  Pair:\n    left: { type: string }\n    right: { type: string }\n";
    let uses: String = (1..=2_500)
        .map(|i| format!("      p{i}: {{ type: Pair }}\n"))
        .collect();
    let text = protocol(types, &tool(&uses));
    let compiled = checked(&text, Target::OpenAi);
    assert_eq!(lines(&compiled, Code::TooManyProperties).len(), 1);
}

/// A chain of `levels` objects below the parameters object.
fn chain(levels: usize) -> String {
    let mut types = String::new();
    for i in 1..levels {
        types.push_str(&format!(
            "  Level{i}:\n    next: {{ type: Level{} }}\n",
            i + 1
        ));
    }
    types.push_str(&format!("  Level{levels}:\n    leaf: {{ type: string }}\n"));
    types
}

#[test]
fn openai_depth() {
    let root = tool("      root: { type: Level1 }\n");
    // The parameters object is level 1.
    let at = protocol(&chain(9), &root);
    let over = protocol(&chain(10), &root);
    let line = line_of(&over, "next: { type: Level10 }");
    boundary(&at, &over, Target::OpenAi, Code::SchemaTooDeep, line);
}

#[test]
fn openai_arrays_count_as_levels() {
    let root = tool("      root: { type: \"Level1[]\" }\n");
    // Level 1 the parameters, level 2 the array, then nine objects: 11.
    let over = protocol(&chain(9), &root);
    let compiled = checked(&over, Target::OpenAi);
    assert_eq!(lines(&compiled, Code::SchemaTooDeep).len(), 1);
}

/// A distinct enum value `i` of exactly `length` characters.
fn padded(i: usize, length: usize) -> String {
    format!("v{i:03}{}", "a".repeat(length - 4))
}

fn enum_parameter(name: &str, values: impl Iterator<Item = String>, optional: bool) -> String {
    let values: Vec<String> = values.collect();
    format!(
        "      {name}: {{ type: string, optional: {optional}, enum: [{}] }}\n",
        values.join(", ")
    )
}

#[test]
fn openai_enum_values() {
    let values = |n: usize| (1..=n).map(|i| format!("v{i}"));
    let at = protocol("", &tool(&enum_parameter("choice", values(1_000), false)));
    let over = protocol("", &tool(&enum_parameter("choice", values(1_001), false)));
    let line = line_of(&over, "choice:");
    boundary(&at, &over, Target::OpenAi, Code::TooManyEnumValues, line);
}

#[test]
fn openai_enum_values_count_the_null_of_an_optional_enum() {
    let values = (1..=1_000).map(|i| format!("v{i}"));
    let text = protocol("", &tool(&enum_parameter("choice", values, true)));
    let compiled = checked(&text, Target::OpenAi);
    assert_eq!(lines(&compiled, Code::TooManyEnumValues).len(), 1);
}

#[test]
fn openai_large_enum_characters() {
    // 251 values (more than 250): 250 of 59 characters, and one of 250
    // (15,000 characters in all) or of 251.
    let values = |last: usize| {
        (1..=250)
            .map(move |i| padded(i, 59))
            .chain(std::iter::once(padded(251, last)))
    };
    let at = protocol("", &tool(&enum_parameter("choice", values(250), false)));
    let over = protocol("", &tool(&enum_parameter("choice", values(251), false)));
    let line = line_of(&over, "choice:");
    boundary(&at, &over, Target::OpenAi, Code::TooManyEnumValues, line);
}

#[test]
fn openai_total_characters() {
    // Names and enum values: `s` (1) + 119 values of 1,000 + one of 999.
    let values = |last: usize| {
        (1..=119)
            .map(move |i| padded(i, 1_000))
            .chain(std::iter::once(padded(120, last)))
    };
    let at = protocol("", &tool(&enum_parameter("s", values(999), false)));
    let over = protocol("", &tool(&enum_parameter("s", values(1_000), false)));
    let line = line_of(&over, "      s:");
    boundary(&at, &over, Target::OpenAi, Code::SchemaTextTooLong, line);
}

#[test]
fn openai_and_anthropic_tool_names() {
    let named = |name: &str| {
        protocol(
            "",
            &format!(
                "  {name}:\n    description: Named\n    parameters:\n      q: {{ type: string }}\n"
            ),
        )
    };
    let at = named(&"a".repeat(64));
    let over = named(&"a".repeat(65));
    for target in [Target::OpenAi, Target::Anthropic] {
        boundary(
            &at,
            &over,
            target,
            Code::InvalidToolName,
            line_of(&over, "aaaa"),
        );
    }
    let at = named(&"a".repeat(128));
    let over = named(&"a".repeat(129));
    boundary(
        &at,
        &over,
        Target::Gemini,
        Code::InvalidToolName,
        line_of(&over, "aaaa"),
    );
}

#[test]
fn parameter_names() {
    let named = |name: &str| protocol("", &tool(&format!("      {name}: {{ type: string }}\n")));
    let at = named(&"a".repeat(64));
    let over = named(&"a".repeat(65));
    for target in [Target::Anthropic, Target::Gemini] {
        boundary(
            &at,
            &over,
            target,
            Code::InvalidPropertyKey,
            line_of(&over, "aaaa"),
        );
    }
}

#[test]
fn anthropic_strict_tools() {
    let tools = |n: usize| -> String {
        (1..=n)
            .map(|i| format!("  tool-{i}:\n    description: Tool {i}\n    parameters:\n      q: {{ type: string }}\n"))
            .collect()
    };
    let at = protocol("", &tools(20));
    let over = protocol("", &tools(21));
    let line = line_of(&over, "tool-21:");
    boundary(
        &at,
        &over,
        Target::Anthropic,
        Code::TooManyStrictTools,
        line,
    );
}

#[test]
fn anthropic_tools_that_are_not_strict_do_not_count() {
    let tools: String = (1..=21)
        .map(|i| format!("  tool-{i}:\n    description: Tool {i}\n    parameters:\n      q: {{ type: unknown }}\n"))
        .collect();
    let compiled = checked(&protocol("", &tools), Target::Anthropic);
    assert!(lines(&compiled, Code::TooManyStrictTools).is_empty());
}

#[test]
fn anthropic_optional_properties() {
    let optional = |n: usize| -> String {
        (1..=n)
            .map(|i| format!("      o{i}: {{ type: string, optional: true }}\n"))
            .collect()
    };
    let at = protocol("", &tool(&optional(24)));
    let over = protocol("", &tool(&optional(25)));
    let line = line_of(&over, "o25:");
    boundary(
        &at,
        &over,
        Target::Anthropic,
        Code::TooManyOptionalProperties,
        line,
    );
}

#[test]
fn anthropic_optional_properties_count_across_tools_and_the_response() {
    // 20 optional properties in a tool, 5 in the response type.
    let optional: String = (1..=20)
        .map(|i| format!("      o{i}: {{ type: string, optional: true }}\n"))
        .collect();
    let reply: String = (1..=5)
        .map(|i| format!("    r{i}: {{ type: string, optional: true }}\n"))
        .collect();
    let text = protocol(&format!("  Reply:\n{reply}"), &tool(&optional))
        + "      responseType: Reply\n      output: REPLY\nvariables:\n  REPLY: { type: Reply }\n";
    let compiled = checked(&text, Target::Anthropic);
    assert_eq!(
        lines(&compiled, Code::TooManyOptionalProperties),
        vec![line_of(&text, "r5:")]
    );
}

#[test]
fn anthropic_union_properties() {
    let types = "  Shape:\n    anyOf: [Circle, Square]\n    discriminator: kind\n  Circle:\n    kind: { type: string, const: circle }\n  Square:\n    kind: { type: string, const: square }\n";
    let unions = |n: usize| -> String {
        (1..=n)
            .map(|i| format!("      u{i}: {{ type: Shape }}\n"))
            .collect()
    };
    let at = protocol(types, &tool(&unions(16)));
    let over = protocol(types, &tool(&unions(17)));
    let line = line_of(&over, "u17:");
    boundary(
        &at,
        &over,
        Target::Anthropic,
        Code::TooManyUnionProperties,
        line,
    );
}

#[test]
fn inlined_size() {
    // The parameters object and its properties: 1 + n nodes.
    let at = protocol("", &tool(&parameters(99_999)));
    let over = protocol("", &tool(&parameters(100_000)));
    boundary(
        &at,
        &over,
        Target::AgUi,
        Code::SchemaTooLarge,
        line_of(&over, "check:"),
    );
}

#[test]
fn inlined_size_of_a_doubling_chain_is_refused_quickly() {
    // Each type holds two of the one before: 2^60 nodes once inlined.
    let mut types = String::from("  T0:\n    a: { type: string }\n");
    for i in 1..=60 {
        types.push_str(&format!(
            "  T{i}:\n    a: {{ type: T{} }}\n    b: {{ type: T{} }}\n",
            i - 1,
            i - 1
        ));
    }
    let text = protocol(&types, &tool("      root: { type: T60 }\n"));
    for target in [
        Target::OpenAi,
        Target::Anthropic,
        Target::Gemini,
        Target::AgUi,
        Target::ToolsPrompt,
    ] {
        let compiled = checked(&text, target);
        assert_eq!(
            lines(&compiled, Code::SchemaTooLarge).len(),
            1,
            "{}",
            target.name()
        );
    }
}

#[test]
fn inlined_depth() {
    // Parameters (1), Level1..Level30 (2..31), the string leaf (32).
    let root = tool("      root: { type: Level1 }\n");
    let at = protocol(&chain(30), &root);
    let over = protocol(&chain(31), &root);
    boundary(
        &at,
        &over,
        Target::AgUi,
        Code::SchemaTooLarge,
        line_of(&over, "check:"),
    );
}

/// `agentc.toml` lists at most `MAX_GLOBS` globs in `include` and in
/// `exclude`: the real binary reports `glob-limit` at the first glob past
/// it, and the run stops with exit 2, as for any problem of the file.
#[test]
fn agentc_toml_globs() {
    use agentc::config::MAX_GLOBS;
    let scratch = common::scratch("glob-limit");
    let dir = scratch.path();
    std::fs::write(
        dir.join("protocol.yaml"),
        "types:\n  A:\n    x: { type: string }\n",
    )
    .expect("write protocol");
    let config = |n: usize| {
        let globs: Vec<String> = (0..n).map(|i| format!("  \"a{i}*/**/b?\",\n")).collect();
        format!("exclude = [\n{}]\n", globs.concat())
    };
    let folder = dir.to_str().expect("utf-8 path");
    std::fs::write(dir.join("agentc.toml"), config(MAX_GLOBS)).expect("write config");
    let at_limit = common::agentc(&["check", folder, "--format", "json"]);
    let report: serde_json::Value = serde_json::from_slice(&at_limit.stdout).expect("JSON");
    assert!(
        report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["file"] != "agentc.toml"
                && !d["file"].as_str().unwrap().ends_with("agentc.toml")),
        "{report}"
    );
    std::fs::write(dir.join("agentc.toml"), config(MAX_GLOBS + 1)).expect("write config");
    let over = common::agentc(&["check", folder, "--format", "json"]);
    assert_eq!(over.status.code(), Some(2));
    let report: serde_json::Value = serde_json::from_slice(&over.stdout).expect("JSON");
    let found: Vec<(&str, u64)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["code"].as_str().unwrap(), d["line"].as_u64().unwrap()))
        .collect();
    // The file's first line is `exclude = [`, so glob i is on line i + 2.
    assert_eq!(found, [("glob-limit", MAX_GLOBS as u64 + 2)]);
}

/// An `enum` of `n` values, one a line, on the field `code` of `Sku`.
fn enum_of(n: usize) -> String {
    let mut text = String::from("types:\n  Sku:\n    code:\n      type: string\n      enum:\n");
    for i in 0..n {
        text.push_str(&format!("        - v{i}\n"));
    }
    text
}

/// One `enum` lists at most `MAX_ENUM_VALUES` values: `check` reports
/// `enum-limit` at the first one past it, as an error that emit, validate
/// and gen never get past, and no value past it is read.
#[test]
fn enum_values() {
    use agentc::syntax::MAX_ENUM_VALUES;
    let at_limit = common::compile_text(&enum_of(MAX_ENUM_VALUES));
    assert_eq!(lines(&at_limit, Code::EnumLimit), Vec::<usize>::new());
    assert!(!at_limit.has_errors());
    let over = enum_of(MAX_ENUM_VALUES + 5);
    let compiled = common::compile_text(&over);
    let line = line_of(&over, &format!("- v{MAX_ENUM_VALUES}"));
    assert_eq!(lines(&compiled, Code::EnumLimit), vec![line]);
    let found = compiled
        .diagnostics
        .iter()
        .find(|d| d.code == Code::EnumLimit)
        .expect("the limit");
    assert_eq!(
        found.message,
        "this `enum` lists 100,005 values, more than the 100,000 agentc reads"
    );
    assert!(!agentc::Code::EnumLimit.can_be_silenced());
    // A `default` past the values read is not judged by them: the limit
    // is the one problem.
    let values = enum_of(MAX_ENUM_VALUES + 5)
        .replace("types:\n  Sku:\n    code:\n", "input:\n  CODE:\n")
        .replace(
            "      type: string\n",
            &format!(
                "      type: string\n      optional: true\n      default: v{}\n",
                MAX_ENUM_VALUES + 2
            ),
        );
    let compiled = common::compile_text(&values);
    assert_eq!(lines(&compiled, Code::InvalidDefault), Vec::<usize>::new());
    assert_eq!(lines(&compiled, Code::EnumLimit).len(), 1);
    // `agentc validate` stops at the protocol's errors (exit 2).
    let scratch = common::scratch("enum-limit");
    let dir = scratch.path();
    let protocol = dir.join("protocol.yaml");
    std::fs::write(&protocol, &over).expect("write protocol");
    let data = dir.join("data.json");
    std::fs::write(&data, "{\"code\": \"v1\"}").expect("write data");
    let output = common::agentc(&[
        "validate",
        protocol.to_str().expect("utf-8"),
        "--type",
        "Sku",
        data.to_str().expect("utf-8"),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(common::stderr(&output).contains("enum-limit"));
}

/// Below the limit a value written again is kept once: a list that
/// repeats one value is reported value by value, and costs what the
/// repeats do (the emitted schema lists it once).
#[test]
fn an_enum_that_repeats_its_values_lists_each_once() {
    let mut text = String::from("types:\n  Sku:\n    code:\n      type: string\n      enum: [a");
    for _ in 0..5_000 {
        text.push_str(", a, \"a\", b");
    }
    text.push_str("]\n");
    let compiled = common::compile_text(&text);
    let repeats = compiled
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::DuplicateEnumValue)
        .count();
    assert_eq!(repeats, 3 * 5_000 - 1);
    let model = compiled.model.as_ref().expect("a model");
    let schema = agentc::emit::emit(
        model,
        Target::JsonSchema,
        agentc::emit::Selection::Type("Sku"),
        &mut Default::default(),
    )
    .expect("emits");
    let agentc::emit::Output::Json(schema) = schema else {
        panic!("JSON")
    };
    let text = schema.to_string();
    assert!(text.contains("[\"a\",\"b\"]"), "{text}");
}

/// The tools prompt writes each tool's name on a line of its own: a name
/// with a line break or another control character would write lines of
/// its own there (another tool, say), so it is refused for that target and
/// no other (JSON carries it as it is).
#[test]
fn tools_prompt_names_hold_no_line_break() {
    let tools = "  \"real\\n- args_schema: {}\\n- fake\":\n    description: d\n  \"tab\\tname\":\n    description: d\n  plain-name:\n    description: d\n";
    let text = protocol("", tools);
    let compiled = checked(&text, Target::ToolsPrompt);
    assert_eq!(lines(&compiled, Code::InvalidToolName), [6, 8], "{text}");
    for target in [Target::AgUi, Target::Aap] {
        let compiled = checked(&text, target);
        assert!(
            lines(&compiled, Code::InvalidToolName).is_empty(),
            "{target:?}"
        );
    }
}
