use super::*;
use crate::syntax::BlockKind;

/// `BlockKind::names_variables`, which completion reads, says exactly
/// which keys the lowering reads as variables: for every key of every
/// block kind, `key: SOME_VAR` is a variable reference in the index
/// just when it says so.
#[test]
fn names_variables_agrees_with_the_lowering() {
    for kind in BlockKind::ALL {
        for &key in kind.keys().iter().chain(&["output"]) {
            if key == "input" || key == "thread" {
                continue;
            }
            // A single name, or a list of them (`files`).
            let read = ["SOME_VAR", "[SOME_VAR]"].into_iter().any(|value| {
                let text = format!(
                    "variables:\n  SOME_VAR: {{ type: string }}\ntriggers:\n  go: {{ input: {{}} }}\nhandlers:\n  go:\n    Step:\n      block: {}\n      {key}: {value}\n",
                    kind.name()
                );
                let compiled = crate::compile("t.yaml", text.as_bytes());
                let Some(model) = &compiled.model else {
                    return false;
                };
                let index = Index::new(model, &compiled.source);
                let at = text.rfind("SOME_VAR").unwrap_or(0);
                index
                    .at(at)
                    .is_some_and(|o| index.symbol(o.symbol).kind == SymbolKind::Variable)
            });
            assert_eq!(read, kind.names_variables(key), "{} `{key}`", kind.name());
        }
    }
}

/// An occurrence as the tests read it: kind, name, role, key, resolved.
type Seen = (SymbolKind, String, Role, &'static str, bool);

fn resolution_of(text: &str) -> (crate::FileReport, Vec<Seen>) {
    let compiled = crate::compile("t.yaml", text.as_bytes());
    let found = match &compiled.model {
        Some(model) => {
            let r = model.resolution();
            r.occurrences()
                .iter()
                .map(|o| {
                    let symbol = r.symbol(o.symbol);
                    let resolved = r.target(o.symbol).is_some();
                    (symbol.kind, symbol.name.clone(), o.role, o.key, resolved)
                })
                .collect()
        }
        None => Vec::new(),
    };
    (compiled, found)
}

/// Every key of a block that the grammar says names a declared thing
/// (a tool, worker, thread, prompt, ...) yields an occurrence of that
/// kind under that key.
#[test]
fn every_name_valued_block_key_is_an_occurrence() {
    for kind in BlockKind::ALL {
        for key in kind.place().keys() {
            let (refers, value) = match key.value {
                grammar::Value::Name(refers) => (refers, "some-name"),
                grammar::Value::Names(refers) => (refers, "[some-name]"),
                _ => continue,
            };
            let Some(symbol) = SymbolKind::of(refers) else {
                continue;
            };
            if symbol == SymbolKind::Variable {
                // `names_variables_agrees_with_the_lowering` covers these.
                continue;
            }
            let text = format!(
                "triggers:\n  go: {{ input: {{}} }}\nhandlers:\n  go:\n    Step:\n      block: {}\n      {}: {value}\n",
                kind.name(),
                key.name
            );
            let (_, found) = resolution_of(&text);
            assert!(
                found.iter().any(|(k, name, _, under, _)| *k == symbol
                    && name == "some-name"
                    && *under == key.name),
                "{} `{}`: {found:?}",
                kind.name(),
                key.name
            );
        }
    }
}

/// The same for the agent's own settings: every key of `agent:` that
/// names something (a prompt, tools, workers, a variable given as a
/// setting) yields an occurrence of that kind under that key.
#[test]
fn every_name_valued_agent_key_is_an_occurrence() {
    for key in grammar::AGENT.keys() {
        let (symbol, value) = match key.value {
            grammar::Value::Name(refers) => (SymbolKind::of(refers), "some-name"),
            grammar::Value::Names(refers) => (SymbolKind::of(refers), "[some-name]"),
            _ if key.dynamic => (Some(SymbolKind::Variable), "SOME_NAME"),
            _ => continue,
        };
        let Some(symbol) = symbol else {
            continue;
        };
        let name = value.trim_matches(['[', ']']);
        let text = format!("agent:\n  {}: {value}\n", key.name);
        let (_, found) = resolution_of(&text);
        assert!(
            found
                .iter()
                .any(|(k, n, _, under, _)| *k == symbol && n == name && *under == key.name),
            "agent `{}`: {found:?}",
            key.name
        );
    }
}

#[test]
fn roles_and_unresolved_names() {
    let text = "variables:\n  OUT: { type: string }\ntools:\n  search: {}\ntriggers:\n  go: { input: { MESSAGE: { type: string } } }\nagent:\n  model: anthropic/claude-sonnet-4-5\n  system: system\n  tools: [search, missing]\nhandlers:\n  go:\n    Call:\n      block: tool-call\n      tool: serch\n      output: OUT\n    Say:\n      block: add-message\n      role: user\n      prompt: greeting\n      input: [MESSAGE, NOPE]\n";
    let (compiled, found) = resolution_of(text);
    let has = |kind, name: &str, role, resolved| {
        found
            .iter()
            .any(|(k, n, r, _, ok)| *k == kind && n == name && *r == role && *ok == resolved)
    };
    assert!(
        has(SymbolKind::Tool, "search", Role::Definition, true),
        "{found:?}"
    );
    assert!(
        has(SymbolKind::Tool, "search", Role::Use, true),
        "{found:?}"
    );
    assert!(
        has(SymbolKind::Tool, "missing", Role::Use, false),
        "{found:?}"
    );
    assert!(
        has(SymbolKind::Tool, "serch", Role::Call, false),
        "{found:?}"
    );
    assert!(
        has(SymbolKind::Variable, "OUT", Role::Write, true),
        "{found:?}"
    );
    assert!(
        has(SymbolKind::Variable, "MESSAGE", Role::Read, true),
        "{found:?}"
    );
    assert!(
        has(SymbolKind::Variable, "NOPE", Role::Read, false),
        "{found:?}"
    );
    assert!(
        has(SymbolKind::Trigger, "go", Role::Call, true),
        "{found:?}"
    );
    assert!(
        has(SymbolKind::Prompt, "greeting", Role::Use, true),
        "{found:?}"
    );
    let Some(model) = &compiled.model else {
        panic!("the protocol lowers");
    };
    let r = model.resolution();
    // The handler's read of `MESSAGE` is the trigger's own input.
    let message = r
        .occurrences()
        .iter()
        .find(|o| r.symbol(o.symbol).name == "MESSAGE" && o.role == Role::Read)
        .map(|o| (r.target(o.symbol), o.site));
    assert_eq!(
        message,
        Some((
            Some(Target::TriggerInput {
                trigger: 0,
                input: 0
            }),
            Site::Handler {
                handler: 0,
                block: Some(1)
            }
        ))
    );
    let unresolved: Vec<&str> = r
        .unresolved()
        .map(|o| r.symbol(o.symbol).name.as_str())
        .collect();
    assert_eq!(unresolved, ["missing", "serch", "NOPE"]);
    assert_eq!(r.threads(), ["main"]);
    assert_eq!(r.readable(Some("go")), ["MESSAGE", "OUT"]);
    assert_eq!(r.declared(SymbolKind::Tool), ["search"]);
}

/// A misspelt handler reads the inputs of the trigger it most likely
/// means, as the checks do.
#[test]
fn a_misspelt_handler_reads_the_nearest_triggers_inputs() {
    let text = "triggers:\n  user-message: { input: { MESSAGE: { type: string } } }\nhandlers:\n  user-mesage:\n    Say:\n      block: add-message\n      role: user\n      prompt: p\n      input: [MESSAGE]\n";
    let (_, found) = resolution_of(text);
    assert!(
        found
            .iter()
            .any(|(k, n, r, _, ok)| *k == SymbolKind::Variable
                && n == "MESSAGE"
                && *r == Role::Read
                && *ok),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|(k, n, _, _, ok)| *k == SymbolKind::Trigger && n == "user-mesage" && !*ok),
        "{found:?}"
    );
}
