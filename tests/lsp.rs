//! `agentc lsp`, driven in memory the way an editor drives it over stdio:
//! diagnostics as `agentc check` reports them, navigation, completion,
//! rename and quick fixes, in UTF-16 and UTF-8 positions.

mod common;

use common::lsp::{Client, find, range, scratch, uri};
use common::root;
use serde_json::{Value, json};
use std::path::Path;

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).expect("fixture is readable")
}

/// `[line, character]` of a range's start and end.
fn span_of(range: &Value) -> [[u64; 2]; 2] {
    let at = |p: &Value| {
        [
            p["line"].as_u64().unwrap(),
            p["character"].as_u64().unwrap(),
        ]
    };
    [at(&range["start"]), at(&range["end"])]
}

fn codes(diagnostics: &[Value]) -> Vec<&str> {
    diagnostics
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect()
}

/// `text` with a workspace edit's changes to `doc` applied.
fn applied(text: &str, edit: &Value, doc: &str) -> String {
    let edits = edit["changes"][doc]
        .as_array()
        .expect("edits for the document");
    apply(text, edits)
}

/// Applies LSP text edits to `text` (UTF-16 positions), last first.
fn apply(text: &str, edits: &[Value]) -> String {
    let offset = |p: &Value| {
        let line = p["line"].as_u64().unwrap() as usize;
        let character = p["character"].as_u64().unwrap() as usize;
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        let mut units = 0;
        for (at, c) in text[start..].char_indices() {
            if units >= character || c == '\n' {
                return start + at;
            }
            units += c.len_utf16();
        }
        text.len()
    };
    let mut edits: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| {
            let r = &e["range"];
            (
                offset(&r["start"]),
                offset(&r["end"]),
                e["newText"].as_str().unwrap(),
            )
        })
        .collect();
    edits.sort_by_key(|&(start, _, _)| std::cmp::Reverse(start));
    let mut out = text.to_string();
    for (start, end, new) in edits {
        out.replace_range(start..end, new);
    }
    out
}

#[test]
fn diagnostics_are_those_of_agentc_check_with_the_same_codes_messages_and_spans() {
    let mut client = Client::start(false);
    let mut compared = 0;
    for path in common::files(&root().join("protocols/invalid"), "yaml") {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue; // not UTF-8: an editor cannot send it as it is
        };
        let published = client.open(&uri(&path), &text);
        let compilation = agentc::compile(&path.display().to_string(), text.as_bytes());
        let source = &compilation.source;
        assert_eq!(
            published.len(),
            compilation.diagnostics.len(),
            "{}: {published:#?}",
            path.display()
        );
        for (lsp, ours) in published.iter().zip(&compilation.diagnostics) {
            assert_eq!(lsp["code"], ours.code.name());
            assert_eq!(lsp["source"], "agentc");
            let message = lsp["message"].as_str().unwrap();
            assert_eq!(message.lines().next(), Some(ours.message.as_str()));
            if let Some(help) = &ours.help {
                assert!(message.contains(&format!("help: {help}")), "{message}");
            }
            let (line, character) = source.utf16_position(ours.span.start as usize);
            let (end_line, end_character) = source.utf16_position(ours.span.end as usize);
            let expected = [
                [line as u64, character as u64],
                [end_line as u64, end_character as u64],
            ];
            assert_eq!(span_of(&lsp["range"]), expected, "{}", path.display());
            let related = lsp["relatedInformation"].as_array().map_or(0, Vec::len);
            assert_eq!(related, ours.labels.len());
            let severity = if ours.is_error() { 1 } else { 2 };
            assert_eq!(lsp["severity"], severity);
        }
        compared += published.len();
    }
    assert!(compared > 60, "only {compared} diagnostics compared");
    client.shutdown();
}

#[test]
fn related_information_points_at_the_secondary_label() {
    let mut client = Client::start(false);
    let text = "types:\n  A:\n    x: { type: string }\n    x: { type: number }\n";
    let published = client.open(&scratch("dup.yaml"), text);
    assert_eq!(codes(&published), ["duplicate-key"]);
    let related = &published[0]["relatedInformation"][0];
    assert_eq!(related["location"]["uri"], scratch("dup.yaml"));
    assert_eq!(span_of(&related["location"]["range"]), [[2, 4], [2, 5]]);
    client.shutdown();
}

/// A line with non-ASCII text before the error: the column counts UTF-16
/// units by default and bytes once UTF-8 is negotiated.
#[test]
fn positions_follow_the_negotiated_encoding_on_non_ascii_lines() {
    let text = "types:\n  A:\n    \"é😀\": { type: Adress }\n  Address:\n    s: { type: string }\n";
    // Before `Adress`: `    "é😀": { type: ` is 4 + 1 + 1 + 2 + 1 + 2 + 2 + 6 =
    // 19 UTF-16 units; in bytes é is 2 and 😀 is 4, so 22.
    for (utf8, encoding, column) in [(false, "utf-16", 19), (true, "utf-8", 22)] {
        let mut client = Client::start(utf8);
        assert_eq!(client.encoding, encoding);
        let published = client.open(&scratch("a.yaml"), text);
        let unknown = published
            .iter()
            .find(|d| d["code"] == "unknown-type")
            .unwrap();
        let expected = [[2, column], [2, column + 6]];
        assert_eq!(span_of(&unknown["range"]), expected, "{encoding}");
        let hover = client.at(
            "textDocument/hover",
            &scratch("a.yaml"),
            2,
            column as u32 + 1,
        );
        assert_eq!(span_of(&hover["range"]), expected, "{encoding}");
        client.shutdown();
    }
}

#[test]
fn every_change_is_checked_and_published() {
    let mut client = Client::start(false);
    let doc = scratch("edit.yaml");
    let text = "types:\n  A:\n    x: { type: string }\n";
    assert!(client.open(&doc, text).is_empty());
    // `string` → `strin`
    let published = client.change(&doc, range((2, 20), (2, 21)), "");
    assert_eq!(codes(&published), ["unknown-type"]);
    assert!(
        published[0]["message"]
            .as_str()
            .unwrap()
            .contains("did you mean `string`?")
    );
    // And back, through an edit that spans lines.
    let published = client.change(
        &doc,
        range((1, 0), (3, 0)),
        "  A:\n    x: { type: integer }\n",
    );
    assert!(published.is_empty(), "{published:#?}");
    // A whole-text change, and a range far past the end (clamped).
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": doc, "version": 4}, "contentChanges": [{"text": "types: [\n"}]}),
    );
    assert_eq!(codes(&client.diagnostics(&doc)), ["yaml-syntax"]);
    let published = client.change(&doc, range((90, 3), (99, 9)), " ]");
    assert_eq!(codes(&published), ["wrong-shape"], "{published:#?}");
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": doc}}),
    );
    assert!(client.diagnostics(&doc).is_empty());
    client.shutdown();
}

#[test]
fn hover_shows_a_types_definition_and_the_schema_it_emits() {
    let mut client = Client::start(false);
    let path = "protocols/shop-assistant/protocol.yaml";
    let text = read(path);
    let doc = uri(Path::new(path));
    assert!(client.open(&doc, &text).is_empty());
    let (line, character) = find(&text, "type: Money", 0, 7);
    let hover = client.at("textDocument/hover", &doc, line, character);
    let value = hover["contents"]["value"].as_str().unwrap();
    assert!(value.starts_with("**type `Money`**"), "{value}");
    assert!(
        value.contains("```yaml\n  Money:\n    amount:\n"),
        "{value}"
    );
    let emitted = agentc::emit::emit(
        agentc::compile(path, text.as_bytes())
            .model
            .as_ref()
            .unwrap(),
        agentc::emit::Target::JsonSchema,
        agentc::emit::Selection::Type("Money"),
        &mut agentc::Diagnostics::default(),
    )
    .unwrap()
    .into_text();
    assert!(
        value.contains(&format!("JSON Schema:\n\n```json\n{emitted}```")),
        "{value}"
    );

    // A tool, where it is listed under `agent.tools`: its parameters.
    let (line, character) = find(&text, "add-to-cart", 1, 2);
    let hover = client.at("textDocument/hover", &doc, line, character);
    let value = hover["contents"]["value"].as_str().unwrap();
    assert!(value.starts_with("**tool `add-to-cart`**"), "{value}");
    assert!(value.contains("Parameters (JSON Schema):"), "{value}");
    assert!(value.contains("\"productId\""), "{value}");
    // Nothing to say on a plain value.
    let (line, character) = find(&text, "anthropic/claude", 0, 3);
    assert_eq!(
        client.at("textDocument/hover", &doc, line, character),
        Value::Null
    );
    client.shutdown();
}

/// Definition and references for each kind of name, in the support-desk
/// agent: from a use to the declaration, and from the declaration to
/// every use.
#[test]
fn definition_and_references_cover_every_kind_of_name() {
    let mut client = Client::start(false);
    let path = "protocols/support-desk/protocol.yaml";
    let text = read(path);
    let doc = uri(Path::new(path));
    assert!(client.open(&doc, &text).is_empty());
    // (a use, its declaration, how many places name it)
    let cases = [
        (("get-account", 1), ("get-account:", 0), 2),     // tool
        (("create-ticket", 1), ("create-ticket:", 0), 2), // tool in tool-call
        (("PLAN_TIER", 1), ("PLAN_TIER:", 0), 4),         // input
        (("SUMMARY", 1), ("SUMMARY:", 0), 3),             // variable
        (("URGENCY", 1), ("URGENCY:", 0), 3),             // trigger input
        (("request-human", 1), ("request-human:", 0), 2), // handler → trigger
        (("escalation\n", 1), ("escalation\n", 0), 3),    // thread
    ];
    for ((used, nth), (declared, dnth), count) in cases {
        let at = find(&text, used, nth, 1);
        let definition = client.at("textDocument/definition", &doc, at.0, at.1);
        let expected = find(&text, declared, dnth, 0);
        let start = &definition[0]["range"]["start"];
        assert_eq!(
            (
                start["line"].as_u64().unwrap() as u32,
                start["character"].as_u64().unwrap() as u32
            ),
            expected,
            "definition of `{used}`: {definition}"
        );
        assert_eq!(definition[0]["uri"], doc);
        let references = client.request(
            "textDocument/references",
            json!({"textDocument": {"uri": doc}, "position": {"line": at.0, "character": at.1},
                   "context": {"includeDeclaration": true}}),
        );
        assert_eq!(
            references.as_array().unwrap().len(),
            count,
            "`{used}`: {references}"
        );
        let uses = client.request(
            "textDocument/references",
            json!({"textDocument": {"uri": doc}, "position": {"line": at.0, "character": at.1},
                   "context": {"includeDeclaration": false}}),
        );
        assert_eq!(
            uses.as_array().unwrap().len(),
            count - 1,
            "`{used}`: {uses}"
        );
    }
    // A prompt: into its file.
    for (prompt, file) in [
        ("system: system", "system.md"),
        ("escalation/system", "escalation/system.md"),
    ] {
        let at = find(&text, prompt, 0, prompt.len() as u32 - 1);
        let definition = client.at("textDocument/definition", &doc, at.0, at.1);
        let target = root().join("protocols/support-desk/prompts").join(file);
        assert_eq!(definition[0]["uri"], uri(&target), "{prompt}: {definition}");
    }
    // A reference file.
    let at = find(&text, "refund-policy", 0, 2);
    let definition = client.at("textDocument/definition", &doc, at.0, at.1);
    let target = root().join("protocols/support-desk/references/refund-policy.md");
    assert_eq!(definition[0]["uri"], uri(&target));
    client.shutdown();
}

#[test]
fn definition_finds_types_and_workers() {
    let mut client = Client::start(false);
    let text = "\
types:
  Reply:
    text: { type: string }
    items: { type: \"Item[]\" }
  Item:
    name: { type: string }
workers:
  summarizer:
    description: Summarizes
agent:
  model: openai/gpt-4o
  system: system
  workers: [summarizer]
triggers:
  go: { input: {} }
handlers:
  go:
    Run:
      block: run-worker
      worker: summarizer
    Reply:
      block: next-message
      responseType: Reply
";
    let doc = scratch("nav.yaml");
    client.open(&doc, text);
    let at = find(text, "Item[]", 0, 2);
    let definition = client.at("textDocument/definition", &doc, at.0, at.1);
    assert_eq!(span_of(&definition[0]["range"]), [[4, 2], [4, 6]]);
    let at = find(text, "responseType: Reply", 0, 16);
    let definition = client.at("textDocument/definition", &doc, at.0, at.1);
    assert_eq!(span_of(&definition[0]["range"]), [[1, 2], [1, 7]]);
    let at = find(text, "worker: summarizer", 0, 10);
    let definition = client.at("textDocument/definition", &doc, at.0, at.1);
    assert_eq!(span_of(&definition[0]["range"]), [[7, 2], [7, 12]]);
    let references = client.request(
        "textDocument/references",
        json!({"textDocument": {"uri": doc}, "position": {"line": 7, "character": 3},
               "context": {"includeDeclaration": true}}),
    );
    assert_eq!(references.as_array().unwrap().len(), 3, "{references}");
    client.shutdown();
}

fn labels(items: &Value) -> Vec<String> {
    items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap().to_string())
        .collect()
}

fn offers(offered: &[String], label: &str) -> bool {
    offered.iter().any(|o| o == label)
}

#[test]
fn completion_offers_what_fits_where_the_cursor_is() {
    let mut client = Client::start(false);
    let text = "\
types:
  Money:
    amount: { type: number }
  Order:
    total:
      type: Mo
      
tools:
  refund:
    
input:
  STORE: { type: string }
triggers:
  ask:
    input:
      QUESTION: { type: string }
handlers:
  ask:
    Answer:
      block: 
    Call:
      block: tool-call
      
      input:
        amount: 
";
    let doc = scratch("complete.yaml");
    client.open(&doc, text);
    let at = |client: &mut Client, line, character| {
        client.at("textDocument/completion", &doc, line, character)
    };
    // A type where a type is expected: built-ins and declared types.
    let items = at(&mut client, 5, 14);
    let offered = labels(&items);
    for wanted in ["string", "integer", "Money", "Order"] {
        assert!(offers(&offered, wanted), "{offered:?}");
    }
    let money = items
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["label"] == "Money")
        .unwrap();
    // It replaces the word being typed.
    assert_eq!(span_of(&money["textEdit"]["range"]), [[5, 12], [5, 14]]);
    // The keys of a property, less those it already has.
    let offered = labels(&at(&mut client, 6, 6));
    assert!(
        offers(&offered, "description") && offers(&offered, "optional"),
        "{offered:?}"
    );
    assert!(!offers(&offered, "type"), "{offered:?}");
    // The keys of a tool.
    let offered = labels(&at(&mut client, 9, 4));
    assert_eq!(offered, ["description", "display", "title", "parameters"]);
    // Block kinds after `block:`.
    let offered = labels(&at(&mut client, 19, 13));
    assert!(
        offers(&offered, "next-message") && offers(&offered, "run-worker"),
        "{offered:?}"
    );
    // The keys of a `tool-call` block.
    let offered = labels(&at(&mut client, 22, 6));
    assert!(
        offers(&offered, "tool") && offers(&offered, "output"),
        "{offered:?}"
    );
    assert!(
        !offers(&offered, "block") && !offers(&offered, "responseType"),
        "{offered:?}"
    );
    // Variables in an input mapping: the trigger's inputs, then the protocol's.
    let offered = labels(&at(&mut client, 24, 16));
    assert_eq!(offered, ["QUESTION", "STORE"]);
    // The sections at the top level.
    let offered = labels(&at(&mut client, 25, 0));
    assert!(
        offers(&offered, "agent") && offers(&offered, "variables"),
        "{offered:?}"
    );
    assert!(
        !offers(&offered, "types") && !offers(&offered, "handlers"),
        "{offered:?}"
    );
    client.shutdown();
}

/// A value in a flow mapping is completed for the key it is under on its
/// line (`OTHER: { type: ` is `OTHER`'s type), and nothing is offered
/// after a flow mapping that is closed: completion once read the path
/// without the line's own key, and offered nothing for a variable's or a
/// parameter's type and types after `{ type: string }`.
#[test]
fn completion_reads_the_flow_mapping_of_the_line() {
    let mut client = Client::start(false);
    let text = "\
types:
  Money:
    amount: { type: number }
variables:
  OTHER: { type:  }
tools:
  refund:
    description: Refund
    parameters:
      n: { type:  }
      m: { type: string }
";
    let doc = scratch("flow-complete.yaml");
    client.open(&doc, text);
    let at = |client: &mut Client, line, character| {
        labels(&client.at("textDocument/completion", &doc, line, character))
    };
    for (line, character) in [(4, 16), (9, 17)] {
        let offered = at(&mut client, line, character);
        for wanted in ["string", "integer", "Money"] {
            assert!(offers(&offered, wanted), "{line}: {offered:?}");
        }
    }
    assert_eq!(at(&mut client, 10, 25), Vec::<String>::new());
    client.shutdown();
}

/// A block's `output` writes a variable: completion offers those under
/// `variables:`, not the trigger's or the protocol's inputs, which
/// `agentc check` refuses there.
#[test]
fn completion_offers_an_output_the_variables_only() {
    let mut client = Client::start(false);
    let text = "\
input:
  STORE: { type: string }
variables:
  SUMMARY: { type: string }
triggers:
  ask:
    input:
      QUESTION: { type: string }
handlers:
  ask:
    Answer:
      block: next-message
      output: 
";
    let doc = scratch("output-complete.yaml");
    client.open(&doc, text);
    let offered = labels(&client.at("textDocument/completion", &doc, 12, 14));
    assert_eq!(offered, ["SUMMARY"]);
    client.shutdown();
}

/// Completion once missed the keys under `anthropic:`, `contextRetention:`,
/// `onDemandSkills:` and `anthropic.tools`, and offered fixed values only
/// for `block:`; both now come from the grammar.
#[test]
fn completion_offers_keys_and_choices_the_grammar_has() {
    let mut client = Client::start(false);
    let text = "\
onDemandSkills:
  
onDemandMcpServers:
  remote:
    contextRetention:
      
agent:
  model: anthropic/claude-sonnet-4-5
  system: system
  thinking: 
  display: 
  anthropic:
    
    tools:
      web-search:
        display: 
triggers:
  go:
    input:
      LEVEL: { type: string }
handlers:
  go:
    Say:
      block: add-message
      role: 
      visible: 
";
    let doc = scratch("grammar-complete.yaml");
    client.open(&doc, text);
    let mut at =
        |line, character| labels(&client.at("textDocument/completion", &doc, line, character));
    assert_eq!(at(1, 2), ["display", "title", "description", "execution"]);
    assert_eq!(at(5, 6), ["toolResults"]);
    // `tools` is written below already.
    assert_eq!(at(12, 4), ["skills"]);
    assert_eq!(
        at(15, 17),
        ["hidden", "name", "description", "stream", "title"]
    );
    // A dynamic choice: its words, then the variables that may hold one.
    assert_eq!(at(9, 12), ["low", "medium", "high", "max", "off"]);
    // `display` is not a key of `agent`: nothing to offer.
    assert_eq!(at(10, 11), Vec::<String>::new());
    assert_eq!(at(24, 12), ["user", "assistant", "system"]);
    assert_eq!(at(25, 15), ["true", "false"]);
    client.shutdown();
}

/// Every place in the grammar, written as a path from the top of a file,
/// gets exactly its keys offered at an empty line inside it.
#[test]
fn completion_offers_every_places_keys() {
    use agentc::grammar::{self, Spot};
    // Paths to places, with the `block:` written beside the cursor.
    let mut paths: Vec<(Vec<&str>, Option<&str>)> = vec![
        (vec![], None),
        (vec!["input", "X"], None),
        (vec!["input", "X", "items"], None),
        (vec!["variables", "X"], None),
        (vec!["resources", "X"], None),
        (vec!["triggers", "go"], None),
        (vec!["tools", "t"], None),
        (vec!["tools", "t", "parameters", "p"], None),
        (vec!["types", "T"], None),
        (vec!["types", "T", "p"], None),
        (vec!["skills", "s"], None),
        (vec!["onDemandSkills"], None),
        (vec!["mcpServers", "m"], None),
        (vec!["onDemandMcpServers"], None),
        (vec!["onDemandMcpServers", "remote"], None),
        (
            vec!["onDemandMcpServers", "remote", "contextRetention"],
            None,
        ),
        (
            vec![
                "onDemandMcpServers",
                "remote",
                "contextRetention",
                "toolResults",
            ],
            None,
        ),
        (vec!["workers", "w"], None),
        (vec!["agent"], None),
        (vec!["agent", "contextManagement"], None),
        (vec!["agent", "anthropic"], None),
        (vec!["agent", "anthropic", "tools"], None),
        (vec!["agent", "anthropic", "tools", "web-search"], None),
        (vec!["agent", "anthropic", "skills", "pdf"], None),
    ];
    for place in &grammar::BLOCKS {
        paths.push((vec!["handlers", "go", "Step"], Some(place.name)));
        paths.push((vec!["steps", "Step"], Some(place.name)));
    }
    let mut client = Client::start(false);
    for (path, kind) in paths {
        let mut text = String::new();
        for (depth, key) in path.iter().enumerate() {
            text.push_str(&format!("{}{key}:\n", "  ".repeat(depth)));
        }
        let indent = "  ".repeat(path.len());
        if let Some(kind) = kind {
            text.push_str(&format!("{indent}block: {kind}\n"));
        }
        let line = text.lines().count() as u32;
        text.push_str(&format!("{indent}\n"));
        let doc = scratch("every-place.yaml");
        client.open(&doc, &text);
        let offered =
            labels(&client.at("textDocument/completion", &doc, line, indent.len() as u32));
        let spot = grammar::spot_at(&path, kind).unwrap_or_else(|| panic!("{path:?}"));
        let mut expected: Vec<String> = spot.keys().iter().map(|k| k.name.to_string()).collect();
        if expected.is_empty() {
            expected = spot.fixed_keys().iter().map(|k| k.to_string()).collect();
        }
        expected.retain(|k| !(kind.is_some() && k == "block"));
        assert!(!expected.is_empty(), "{path:?}");
        assert!(matches!(
            spot,
            Spot::Place(_) | Spot::Block(_) | Spot::Map(_) | Spot::TypeDef
        ));
        assert_eq!(offered, expected, "{path:?} {kind:?}");
    }
    client.shutdown();
}

/// Hovering a key shows its documentation from the grammar, and says
/// when it is required or deprecated.
/// A type that reaches a long chain of others emits thousands of lines of
/// JSON Schema: the hover shows the first 200 and says how to see them all.
#[test]
fn hover_shows_at_most_two_hundred_lines_of_schema() {
    let mut client = Client::start(false);
    let mut text = String::from("types:\n");
    for i in 0..300 {
        text.push_str(&format!(
            "  T{i}:\n    next: {{ type: T{}, optional: true }}\n",
            i + 1
        ));
    }
    text.push_str("  T300:\n    end: { type: string }\n");
    let doc = "untitled:chain.yaml".to_string();
    assert!(client.open(&doc, &text).is_empty());
    let hover = client.at("textDocument/hover", &doc, 1, 3);
    let value = hover["contents"]["value"].as_str().unwrap();
    let json = value.split("```json\n").nth(1).unwrap();
    let shown = json.split("```").next().unwrap();
    assert_eq!(shown.lines().count(), 200, "{value}");
    assert!(
        value.ends_with("more lines: `agentc emit --type T0` prints it whole"),
        "{value}"
    );
    client.shutdown();
}

#[test]
fn hover_on_a_key_shows_its_documentation() {
    let mut client = Client::start(false);
    let text = "\
resources:
  COUNT: { type: integer }
tools:
  search:
    description: Searches
    display: title
handlers:
  go:
    Say:
      block: add-message
      prompt: greeting
";
    let doc = scratch("hover-keys.yaml");
    client.open(&doc, text);
    let mut hover = |line, character| {
        let hover = client.at("textDocument/hover", &doc, line, character);
        hover["contents"]["value"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let display = hover(5, 6);
    assert!(
        display.starts_with("**`display`**\n\nHow a call shows in the UI"),
        "{display}"
    );
    let description = hover(4, 4);
    assert!(
        description.starts_with("**`description`** (required)"),
        "{description}"
    );
    let resources = hover(0, 3);
    assert!(
        resources.contains("*Deprecated:* `resources` are deprecated"),
        "{resources}"
    );
    // The block's kind decides which `prompt` this is.
    let prompt = hover(10, 8);
    assert!(prompt.contains("a file under `prompts/`"), "{prompt}");
    // A value is not a key.
    assert_eq!(hover(5, 15), "");
    client.shutdown();
}

#[test]
fn completion_still_offers_names_while_the_file_is_not_valid_yaml() {
    let mut client = Client::start(false);
    let doc = scratch("half.yaml");
    let text =
        "types:\n  Money:\n    amount: { type: number }\n  Order:\n    total: { type: number }\n";
    client.open(&doc, text);
    let published = client.change(&doc, range((4, 27), (4, 27)), "\n    paid: { type: Mo");
    assert_eq!(codes(&published), ["yaml-syntax"]);
    let offered = labels(&client.at("textDocument/completion", &doc, 5, 20));
    assert!(offers(&offered, "Money"), "{offered:?}");
    client.shutdown();
}

#[test]
fn rename_changes_every_occurrence_and_refuses_a_name_that_would_not_read_back() {
    let mut client = Client::start(false);
    let doc = scratch("rename.yaml");
    let text = "\
types:
  Money:
    amount: { type: number }
  Order:
    total: { type: Money }
    refunds: { type: \"Money[]\" }
    quoted: { type: 'Money' }
";
    assert!(client.open(&doc, text).is_empty());
    let prepared = client.request(
        "textDocument/prepareRename",
        json!({"textDocument": {"uri": doc}, "position": {"line": 6, "character": 22}}),
    );
    assert_eq!(span_of(&prepared), [[6, 21], [6, 26]]);
    let edit = client.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": doc}, "position": {"line": 1, "character": 3}, "newName": "Price"}),
    );
    let edits = edit["changes"][doc.as_str()].as_array().unwrap();
    assert_eq!(edits.len(), 4);
    let renamed = apply(text, edits);
    assert_eq!(renamed, text.replace("Money", "Price"));
    assert!(client.replace(&doc, &renamed).is_empty());

    let refused = client.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": doc}, "position": {"line": 1, "character": 3}, "newName": "my price"}),
    );
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not a plain name"),
        "{refused}"
    );
    // A name taken: by another type (the two would merge, and `types`
    // would declare it twice), or by a built-in (every use would become
    // the built-in).
    for (taken, why) in [
        ("Order", "`Order` is already the name of a type"),
        ("string", "`string` is a built-in type"),
    ] {
        let refused = client.request(
            "textDocument/rename",
            json!({"textDocument": {"uri": doc}, "position": {"line": 1, "character": 3}, "newName": taken}),
        );
        assert_eq!(refused["error"]["message"], json!(why), "{refused}");
    }
    client.shutdown();
}

fn quick_fixes(client: &mut Client, doc: &str, line: u32, character: u32) -> Vec<Value> {
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": doc}, "range": range((line, character), (line, character)),
               "context": {"diagnostics": []}}),
    );
    actions.as_array().cloned().unwrap_or_default()
}

/// Each quick fix, applied, leaves the protocol without the problem.
#[test]
fn quick_fixes_resolve_their_diagnostics() {
    let cases = [
        // did you mean: a type, a key, a tool.
        (
            "types:\n  Address:\n    s: { type: string }\n  A:\n    b: { type: Adress }\n",
            (4, 17),
            "change to `Address`",
        ),
        (
            "types:\n  A:\n    b: { type: string, optinal: true }\n",
            (2, 25),
            "change to `optional`",
        ),
        // A list type in a flow mapping.
        (
            "types:\n  A:\n    tags: {type: string[]}\n",
            (2, 18),
            "quote `string[]`",
        ),
    ];
    let mut client = Client::start(false);
    for (i, (text, (line, character), title)) in cases.into_iter().enumerate() {
        let doc = scratch(&format!("fix{i}.yaml"));
        assert!(!client.open(&doc, text).is_empty());
        let fixes = quick_fixes(&mut client, &doc, line, character);
        assert_eq!(fixes.len(), 1, "{text}: {fixes:#?}");
        assert_eq!(fixes[0]["title"], title);
        assert_eq!(fixes[0]["kind"], "quickfix");
        let fixed = applied(text, &fixes[0]["edit"], &doc);
        let published = client.replace(&doc, &fixed);
        assert!(published.is_empty(), "{fixed}\n{published:#?}");
    }
    client.shutdown();
}

/// `source.fixAll.agentc`, what an editor asks for on save: every safe fix
/// of the document in one edit, the same `agentc check --fix` makes; a
/// guess (a name two edits away) is left.
#[test]
fn fix_all_makes_the_safe_fixes_of_the_document() {
    let text = "types:\n  Address:\n    s: { type: strng }\n  A:\n    b: { type: Adress, optinal: true }\n    c: { type: Adresses }\n";
    let mut client = Client::start(false);
    let doc = scratch("fix-all.yaml");
    assert!(!client.open(&doc, text).is_empty());
    let ask = |client: &mut Client, only: Value| {
        client.request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": doc}, "range": range((0, 0), (0, 0)),
                   "context": {"diagnostics": [], "only": only}}),
        )
    };
    let actions = ask(&mut client, json!(["source.fixAll"]));
    let actions = actions.as_array().cloned().unwrap_or_default();
    let [action] = actions.as_slice() else {
        panic!("one action: {actions:#?}");
    };
    assert_eq!(action["kind"], "source.fixAll.agentc");
    assert_eq!(action["title"], "Fix 3 problems (agentc)");
    let fixed = applied(text, &action["edit"], &doc);
    assert_eq!(
        fixed,
        "types:\n  Address:\n    s: { type: string }\n  A:\n    b: { type: Address, optional: true }\n    c: { type: Adresses }\n"
    );
    // Not asked for, not given; and nothing to fix, nothing offered.
    let quick = ask(&mut client, json!(["quickfix"]));
    assert!(
        quick
            .as_array()
            .is_some_and(|a| a.iter().all(|a| a["kind"] == "quickfix"))
    );
    client.replace(&doc, &fixed);
    assert_eq!(ask(&mut client, json!(["source.fixAll"])), json!([]));
    client.shutdown();
}

#[test]
fn a_union_response_type_is_wrapped_in_a_new_object_type() {
    let text = "\
types:
  Text:
    kind: { type: string, const: text }
    body: { type: string }
  Card:
    kind: { type: string, const: card }
    title: { type: string }
  Reply:
    anyOf: [Text, Card]
    discriminator: kind
triggers:
  ask: { input: {} }
agent:
  model: openai/gpt-4o
  system: system
handlers:
  ask:
    Answer:
      block: next-message
      responseType: Reply
";
    let mut client = Client::start(false);
    let doc = scratch("wrap.yaml");
    assert_eq!(codes(&client.open(&doc, text)), ["invalid-response-type"]);
    let fixes = quick_fixes(&mut client, &doc, 19, 22);
    assert_eq!(fixes.len(), 1, "{fixes:#?}");
    assert_eq!(
        fixes[0]["title"],
        "wrap in a new object type `ReplyWrapper`"
    );
    // It changes the reply's shape: unsafe, so not the preferred fix.
    assert_eq!(fixes[0]["isPreferred"], false, "{:#}", fixes[0]);
    let fixed = applied(text, &fixes[0]["edit"], &doc);
    assert!(
        fixed.starts_with("types:\n  ReplyWrapper:\n    response:\n      type: Reply\n  Text:\n"),
        "{fixed}"
    );
    assert!(fixed.ends_with("responseType: ReplyWrapper\n"), "{fixed}");
    assert!(client.replace(&doc, &fixed).is_empty());
    client.shutdown();
}

#[test]
fn a_name_in_the_wrong_case_is_renamed_everywhere_by_a_quick_fix() {
    let text = "\
input:
  companyName: { type: string }
triggers:
  ask: { input: {} }
agent:
  model: openai/gpt-4o
  system: system
  input: [companyName]
handlers:
  ask:
    Answer:
      block: next-message
";
    let mut client = Client::start(false);
    let doc = scratch("case.yaml");
    assert_eq!(codes(&client.open(&doc, text)), ["variable-name-case"]);
    let fixes = quick_fixes(&mut client, &doc, 1, 4);
    assert_eq!(fixes.len(), 1, "{fixes:#?}");
    assert_eq!(fixes[0]["title"], "rename to `COMPANY_NAME`");
    // It changes what the application passes: unsafe, not preferred.
    assert_eq!(fixes[0]["isPreferred"], false, "{:#}", fixes[0]);
    let fixed = applied(text, &fixes[0]["edit"], &doc);
    let expected = text
        .replace("  companyName:", "  COMPANY_NAME:")
        .replace("[companyName]", "[companyName: COMPANY_NAME]");
    assert_eq!(fixed, expected);
    assert!(client.replace(&doc, &fixed).is_empty());
    client.shutdown();
}

/// `settings.json` and the prompts of an agent folder are checked with
/// their folder, and their problems published to them.
#[test]
fn agent_folder_files_are_checked_in_their_folders_context() {
    let folder = agent_folder(
        "agent",
        r#"{"slug": "a", "name": "A", "format": "interactive"}"#,
    );
    let dir = folder.path();
    let protocol = AGENT_PROTOCOL;

    let mut client = Client::start(false);
    let protocol_uri = uri(&dir.join("protocol.yaml"));
    assert!(client.open(&protocol_uri, protocol).is_empty());
    // An unsaved edit to settings.json is checked with the folder.
    let settings_uri = uri(&dir.join("settings.json"));
    let bad = r#"{"slug": "a", "name": "A", "format": "interactiv"}"#;
    let published = client.open(&settings_uri, bad);
    assert_eq!(codes(&published), ["invalid-value"], "{published:#?}");
    // A prompt that reads an input nobody passes.
    let prompt_uri = uri(&dir.join("prompts/system.md"));
    let published = client.open(&prompt_uri, "You help {{CUSTOMER}}.\n");
    assert!(!published.is_empty(), "{published:#?}");
    // The protocol's go-to-definition reaches the prompt file.
    let at = find(protocol, "system: system", 0, 10);
    let definition = client.at("textDocument/definition", &protocol_uri, at.0, at.1);
    assert_eq!(definition[0]["uri"], prompt_uri);
    client.shutdown();
}

/// A small interactive agent whose system prompt is `prompts/system.md`.
const AGENT_PROTOCOL: &str = "\
triggers:
  ask: { input: {} }
agent:
  model: openai/gpt-4o
  system: system
handlers:
  ask:
    Answer:
      block: next-message
";

/// A temporary agent folder: [`AGENT_PROTOCOL`], `settings`, and a system
/// prompt.
fn agent_folder(name: &str, settings: &str) -> tempfile::TempDir {
    let folder = common::scratch(&format!("lsp-{name}"));
    let dir = folder.path();
    std::fs::create_dir_all(dir.join("prompts")).unwrap();
    std::fs::write(dir.join("protocol.yaml"), AGENT_PROTOCOL).unwrap();
    std::fs::write(dir.join("settings.json"), settings).unwrap();
    std::fs::write(dir.join("prompts/system.md"), "You help.\n").unwrap();
    folder
}

#[test]
fn malformed_requests_get_errors_and_the_server_goes_on() {
    let mut client = Client::start(false);
    let doc = scratch("m.yaml");
    client.open(&doc, "types: {}\n");
    let error = client.request("textDocument/hover", json!({"nonsense": true}));
    assert_eq!(error["error"]["code"], -32602);
    let error = client.request("textDocument/formatting", json!({}));
    assert_eq!(error["error"]["code"], -32601);
    // A file the server was never told about.
    let unknown = client.at("textDocument/hover", &scratch("other.yaml"), 0, 0);
    assert_eq!(unknown, Value::Null);
    // Positions far outside the text.
    let hover = client.at("textDocument/hover", &doc, 4_000_000, 4_000_000);
    assert_eq!(hover, Value::Null);
    client.notify("textDocument/didChange", json!({"garbage": 1}));
    // The text is unchanged: `types` is still the key at the start.
    let hover = client.at("textDocument/hover", &doc, 0, 0);
    let contents = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(contents.starts_with("**`types`**"), "{hover}");
    client.shutdown();
}

/// A tool and a trigger's input, renamed in the support-desk agent: every
/// use changes, and where the input is passed to a prompt by its own name
/// (`- URGENCY`), the prompt keeps seeing `URGENCY` (`- URGENCY: LEVEL`),
/// so `{{URGENCY}}` in the prompt still resolves. The result checks clean.
#[test]
fn rename_reaches_tools_and_scoped_variables() {
    let folder = common::scratch("lsp-support-desk");
    let dir = folder.path();
    common::copy_dir(&root().join("protocols/support-desk"), dir);
    let text = read("protocols/support-desk/protocol.yaml");
    let mut client = Client::start(false);
    let doc = uri(&dir.join("protocol.yaml"));
    assert!(client.open(&doc, &text).is_empty());
    let rename = |client: &mut Client, text: &str, at: (u32, u32), new: &str| {
        let edit = client.request(
            "textDocument/rename",
            json!({"textDocument": {"uri": doc}, "position": {"line": at.0, "character": at.1}, "newName": new}),
        );
        let edits = edit["changes"][doc.as_str()].as_array().unwrap().clone();
        (edits.len(), apply(text, &edits))
    };
    let (count, renamed) = rename(
        &mut client,
        &text,
        find(&text, "create-ticket", 1, 3),
        "open-ticket",
    );
    assert_eq!(count, 2);
    assert_eq!(renamed, text.replace("create-ticket", "open-ticket"));
    let (count, renamed) = rename(
        &mut client,
        &renamed,
        find(&renamed, "URGENCY", 2, 1),
        "LEVEL",
    );
    assert_eq!(count, 3);
    let expected = text
        .replace("create-ticket", "open-ticket")
        .replace("- URGENCY\n", "- @\n")
        .replace("URGENCY", "LEVEL")
        .replace("- @\n", "- URGENCY: LEVEL\n");
    assert_eq!(renamed, expected);
    assert!(client.replace(&doc, &renamed).is_empty());
    client.shutdown();
}

/// A variable passed by its own name in quotes (`input: ["X"]`) keeps its
/// label as written, outside the quotes: inside, `"X: NEW"` would be one
/// string, and the protocol would no longer check.
#[test]
fn rename_keeps_a_quoted_label_outside_its_quotes() {
    let folder = common::scratch("lsp-quoted-label");
    let dir = folder.path();
    std::fs::create_dir(dir.join("prompts")).unwrap();
    std::fs::write(
        dir.join("settings.json"),
        r#"{"slug":"q","name":"Q","description":"q","format":"interactive"}"#,
    )
    .unwrap();
    std::fs::write(dir.join("prompts/system.md"), "Shop {{STORE_NAME}}\n").unwrap();
    let text = "input:\n  STORE_NAME: { type: string }\nagent:\n  model: anthropic/claude-sonnet-4-5\n  system: system\n  input: [\"STORE_NAME\", 'STORE_NAME']\n";
    std::fs::write(dir.join("protocol.yaml"), text).unwrap();
    let mut client = Client::start(false);
    let doc = uri(&dir.join("protocol.yaml"));
    assert!(client.open(&doc, text).is_empty());
    let edit = client.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": doc}, "position": {"line": 1, "character": 3}, "newName": "SHOP_NAME"}),
    );
    let edits = edit["changes"][doc.as_str()].as_array().unwrap().clone();
    let renamed = apply(text, &edits);
    assert_eq!(
        renamed,
        text.replace("  STORE_NAME:", "  SHOP_NAME:").replace(
            "[\"STORE_NAME\", 'STORE_NAME']",
            "[\"STORE_NAME\": SHOP_NAME, 'STORE_NAME': SHOP_NAME]"
        )
    );
    assert!(client.replace(&doc, &renamed).is_empty());
    client.shutdown();
}

/// What a review found, each kept fixed: a curly quote before a key in
/// completion; a client that escapes a path differently from the server;
/// closing the protocol while its settings stay open; names YAML would not
/// read back; a type written with escapes.
#[test]
fn review_findings_stay_fixed() {
    let mut client = Client::start(false);
    let doc = scratch("quote.yaml");
    let text = "tools:\n  a:\n    description: \u{201c}Hello: ";
    client.open(&doc, text);
    let items = client.at("textDocument/completion", &doc, 2, 26);
    assert!(items.is_array(), "{items}");

    // Parentheses that the client leaves unescaped.
    let folder = common::scratch("lsp-spelling");
    let dir = folder.path().join("a(b)");
    std::fs::create_dir_all(&dir).unwrap();
    let agent = "agent:\n  model: anthropic/claude-sonnet-4-5\n  system: system\n";
    let protocol = format!("types:\n  A:\n    x: {{ type: string }}\n{agent}");
    std::fs::write(dir.join("protocol.yaml"), protocol).unwrap();
    let spelled = format!("file://{}", dir.join("protocol.yaml").display());
    assert!(spelled.contains("a(b)"));
    let published = client.open(
        &spelled,
        &format!("types:\n  A:\n    x: {{ type: strin }}\n{agent}"),
    );
    assert_eq!(
        codes(&published),
        ["unknown-type"],
        "the buffer, not the disk"
    );
    let hover = client.at("textDocument/hover", &spelled, 2, 18);
    assert_eq!(
        hover["contents"]["value"]
            .as_str()
            .map(|v| v.starts_with("**type `strin`**")),
        Some(true)
    );

    // Names YAML would not read back, and a variable in another case.
    let doc = scratch("names.yaml");
    let text = "input:\n  STORE: { type: string }\ntypes:\n  Foo:\n    x: { type: string }\n  Bar:\n    y: { type: \"Fo\\x6F[]\" }\n";
    client.open(&doc, text);
    for (line, character, name) in [(3, 3, "null"), (3, 3, "~"), (1, 3, "store"), (3, 3, "a\\b")] {
        let refused = client.request(
            "textDocument/rename",
            json!({"textDocument": {"uri": doc}, "position": {"line": line, "character": character}, "newName": name}),
        );
        assert!(refused["error"]["message"].is_string(), "{name}: {refused}");
    }
    // `"Fo\x6F[]"` names `Foo[]` but its span is the whole scalar: rename
    // leaves it alone rather than overwrite the `[]`.
    let edit = client.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": doc}, "position": {"line": 3, "character": 3}, "newName": "Baz"}),
    );
    let edits = edit["changes"][doc.as_str()].as_array().unwrap();
    assert_eq!(edits.len(), 1, "{edits:?}");
    client.shutdown();
}

#[test]
fn closing_the_protocol_keeps_an_open_settings_files_diagnostics() {
    let settings = r#"{"slug": "a", "name": "A", "format": "interactiv"}"#;
    let folder = agent_folder("close", settings);
    let dir = folder.path();
    let protocol = AGENT_PROTOCOL;
    let mut client = Client::start(false);
    let protocol_uri = uri(&dir.join("protocol.yaml"));
    let settings_uri = uri(&dir.join("settings.json"));
    client.open(&protocol_uri, protocol);
    assert_eq!(codes(&client.diagnostics(&settings_uri)), ["invalid-value"]);
    assert_eq!(
        codes(&client.open(&settings_uri, settings)),
        ["invalid-value"]
    );
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": protocol_uri}}),
    );
    assert_eq!(codes(&client.diagnostics(&settings_uri)), ["invalid-value"]);
    // The last file of the folder closed: everything is cleared.
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": settings_uri}}),
    );
    assert!(client.diagnostics(&settings_uri).is_empty());
    client.shutdown();
}

/// The editor reports what `agentc check` does: `agentc-ignore` comments
/// silence, the nearest `agentc.toml` sets severities, and the unused
/// suppression's quick fix removes it.
#[test]
fn suppressions_and_agentc_toml_apply_as_on_the_command_line() {
    let folder = common::scratch("lsp-config");
    let dir = folder.path();
    std::fs::create_dir_all(dir.join("agents")).expect("temp folder");
    let text = "types:\n  Ticket:\n    # agentc-ignore: property-name-case the backend's name\n    ticket_id: { type: string }\n    # agentc-ignore: deprecated nothing here\n    user_id: { type: string }\nagent:\n  model: anthropic/claude-sonnet-4-5\n  system: system\n";
    let path = dir.join("agents/protocol.yaml");
    std::fs::write(&path, text).expect("write protocol");
    let doc = uri(&path);
    let mut client = Client::start(false);
    let published = client.open(&doc, text);
    assert_eq!(
        codes(&published),
        ["unused-suppression", "property-name-case"]
    );
    assert!(published.iter().all(|d| d["severity"] == 2));
    // A configuration above the file makes the lint an error.
    std::fs::write(
        dir.join("agentc.toml"),
        "[severity]\nproperty-name-case = \"error\"\nunused-suppression = \"off\"\n",
    )
    .expect("write config");
    let published = client.replace(&doc, text);
    assert_eq!(codes(&published), ["property-name-case"]);
    assert_eq!(published[0]["severity"], 1);
    // Without it, the unused suppression's fix removes its line.
    std::fs::remove_file(dir.join("agentc.toml")).expect("remove config");
    client.replace(&doc, text);
    let fixes = quick_fixes(&mut client, &doc, 4, 22);
    let fix = fixes
        .iter()
        .find(|a| a["title"] == "remove the suppression")
        .expect("a fix that removes the suppression");
    let fixed = applied(text, &fix["edit"], &doc);
    assert!(!fixed.contains("deprecated"), "{fixed}");
    assert_eq!(codes(&client.replace(&doc, &fixed)), ["property-name-case"]);
    client.shutdown();
}

/// The baseline the nearest `agentc.toml` names hides what it accepts in
/// the editor too, wherever the lines move; a new problem shows.
#[test]
fn the_baseline_hides_what_it_accepts() {
    let folder = common::scratch("lsp-baseline");
    let dir = folder.path();
    std::fs::create_dir_all(dir.join("agents")).expect("temp folder");
    let text = "types:\n  Ticket:\n    ticket_id: { type: string }\nagent:\n  model: anthropic/claude-sonnet-4-5\n  system: system\n";
    let path = dir.join("agents/protocol.yaml");
    std::fs::write(&path, text).expect("write protocol");
    let doc = uri(&path);
    let mut client = Client::start(false);
    assert_eq!(codes(&client.open(&doc, text)), ["property-name-case"]);
    std::fs::write(dir.join("agentc.toml"), "baseline = \"b.toml\"\n").expect("write config");
    std::fs::write(
        dir.join("b.toml"),
        "[[accepted]]\nfile = \"agents/protocol.yaml\"\npath = \"types.Ticket.ticket_id\"\ncode = \"property-name-case\"\ncount = 1\n",
    )
    .expect("write baseline");
    let moved = format!("# a line above\n{text}");
    assert!(client.replace(&doc, &moved).is_empty());
    let added = moved.replace("ticket_id", "ticket_id: { type: string }\n    user_id");
    let published = client.replace(&doc, &added);
    assert_eq!(codes(&published), ["property-name-case"]);
    assert_eq!(published[0]["range"]["start"]["line"], 4, "{published:?}");
    client.shutdown();
}

/// `didChange`, `didSave` and `didClose` for a file that was never opened
/// change nothing: no check, no diagnostics, nothing kept.
#[test]
fn notifications_about_files_never_opened_change_nothing() {
    let folder = common::scratch("lsp-never-opened");
    let dir = folder.path();
    let text = "types:\n  A:\n    x: { type: strin }\n";
    std::fs::write(dir.join("protocol.yaml"), text).unwrap();
    let doc = uri(&dir.join("protocol.yaml"));
    let mut client = Client::start(false);
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": doc, "version": 2},
               "contentChanges": [{"range": range((0, 0), (0, 0)), "text": "x"}]}),
    );
    client.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": doc}}),
    );
    assert_eq!(client.at("textDocument/hover", &doc, 2, 18), Value::Null);
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": doc}}),
    );
    assert_eq!(client.at("textDocument/hover", &doc, 2, 18), Value::Null);
    assert_eq!(client.unread_diagnostics(&doc), 0);
    let held = client.finish().held;
    assert_eq!(
        held.documents + held.analyses + held.published + held.spellings,
        0,
        "{held:?}"
    );
}

/// Every parameter a request can get wrong is answered with
/// `InvalidParams`; a method the server does not answer with
/// `MethodNotFound`.
#[test]
fn requests_with_parameters_that_do_not_decode_get_invalid_params() {
    let mut client = Client::start(false);
    client.open(&scratch("p.yaml"), "types: {}\n");
    let methods = [
        "textDocument/hover",
        "textDocument/definition",
        "textDocument/references",
        "textDocument/prepareRename",
        "textDocument/rename",
        "textDocument/completion",
        "textDocument/codeAction",
    ];
    let position = json!({"line": 0, "character": 0});
    let bad = [
        Value::Null,
        json!([]),
        json!("text"),
        json!({"textDocument": 5, "position": position}),
        json!({"textDocument": {"uri": "not a uri"}, "position": position}),
        json!({"textDocument": {"uri": scratch("p.yaml")}, "position": {"line": -1, "character": 0}}),
    ];
    for method in methods {
        for params in &bad {
            let answer = client.request(method, params.clone());
            assert_eq!(
                answer["error"]["code"], -32602,
                "{method} {params}: {answer}"
            );
        }
    }
    let answer = client.request("workspace/symbol", json!({"query": ""}));
    assert_eq!(answer["error"]["code"], -32601, "{answer}");
    // Notifications with such parameters are dropped.
    for params in &bad {
        for method in [
            "textDocument/didOpen",
            "textDocument/didChange",
            "textDocument/didClose",
        ] {
            client.notify(method, params.clone());
        }
    }
    let hover = client.at("textDocument/hover", &scratch("p.yaml"), 0, 0);
    assert!(hover.get("error").is_none(), "{hover}");
    client.shutdown();
}

/// The server forgets a protocol once no open file is checked with it,
/// even when the disk changed in between so that the closed file no
/// longer names it: a prompt opened in an agent folder, whose
/// `settings.json` is then deleted.
#[test]
fn closing_every_file_leaves_nothing_held_even_when_the_disk_changed() {
    let folder = agent_folder(
        "held",
        r#"{"slug": "a", "name": "A", "format": "interactive"}"#,
    );
    let dir = folder.path();
    let mut client = Client::start(false);
    let prompt = uri(&dir.join("prompts/system.md"));
    let protocol = uri(&dir.join("protocol.yaml"));
    client.open(&prompt, "You help {{CUSTOMER}}.\n");
    client.diagnostics(&protocol);
    std::fs::remove_file(dir.join("settings.json")).unwrap();
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": prompt}}),
    );
    // The protocol's diagnostics are cleared with it.
    assert!(client.diagnostics(&protocol).is_empty());
    let held = client.finish().held;
    assert_eq!(
        (
            held.documents,
            held.analyses,
            held.published,
            held.spellings
        ),
        (0, 0, 0, 0),
        "{held:?}"
    );
}

/// A text that grows past what a document may hold is reported as the
/// command line reports a file over its limit, and not kept; a change
/// that replaces it whole brings it back.
#[test]
fn a_document_that_grows_past_the_limit_is_reported_too_large_and_not_kept() {
    let mut client = Client::start(true);
    let doc = scratch("huge.yaml");
    let half = agentc::lsp::MAX_DOCUMENT_BYTES / 2 + 1;
    let published = client.open(&doc, &"#".repeat(half));
    assert_eq!(codes(&published), ["file-too-large"]);
    let end = range((0, u32::MAX), (0, u32::MAX));
    let published = client.change(&doc, end.clone(), &"#".repeat(half));
    assert_eq!(codes(&published), ["file-too-large"]);
    // Changes to the text not kept are not applied.
    let small = "types:\n  A:\n    x: { type: string }\n";
    let published = client.change(&doc, range((0, 0), (0, 0)), small);
    assert_eq!(codes(&published), ["file-too-large"]);
    assert!(client.replace(&doc, small).is_empty());
    let published = client.change(&doc, end, "x");
    assert!(!published.is_empty(), "checked again: {published:?}");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": doc, "version": 9},
               "contentChanges": [{"range": range((0, u32::MAX), (0, u32::MAX)),
                                   "text": "#".repeat(agentc::lsp::MAX_DOCUMENT_BYTES)}]}),
    );
    assert_eq!(codes(&client.diagnostics(&doc)), ["file-too-large"]);
    let held = client.finish().held;
    assert_eq!(held.documents, 1);
    assert_eq!(held.text_bytes, 0, "{held:?}");
}

/// `agentc.toml` is parsed, and its globs built, once for its content: not
/// on every keystroke (a large one cost seconds each), and again only when
/// its bytes change.
#[test]
fn the_configuration_is_built_once_per_content_not_per_edit() {
    let folder = common::scratch("lsp-config-cache");
    let dir = folder.path();
    std::fs::create_dir_all(dir.join("agents")).expect("temp folder");
    let config = dir.join("agentc.toml");
    std::fs::write(
        &config,
        "exclude = [\"legacy/**\", \"a*b?/**/c\"]\n[severity]\nproperty-name-case = \"error\"\n",
    )
    .expect("write config");
    let text = "types:\n  Ticket:\n    ticket_id: { type: string }\nagent:\n  model: anthropic/claude-sonnet-4-5\n  system: system\n";
    let path = dir.join("agents/protocol.yaml");
    std::fs::write(&path, text).expect("write protocol");
    let doc = uri(&path);
    let mut client = Client::start(false);
    let published = client.open(&doc, text);
    assert_eq!(published[0]["severity"], 1, "{published:?}");
    for i in 0..20 {
        let edited = text.replace("Ticket", &format!("Ticket{i}"));
        let published = client.replace(&doc, &edited);
        assert_eq!(codes(&published), ["property-name-case"]);
        assert_eq!(published[0]["severity"], 1);
    }
    // New bytes: built again, and what they say applies.
    std::fs::write(&config, "[severity]\nproperty-name-case = \"off\"\n").expect("write config");
    assert!(client.replace(&doc, text).is_empty());
    assert!(client.replace(&doc, text).is_empty());
    let held = client.finish().held;
    assert_eq!(held.config_builds, 2);
}
