//! The language server never stops answering: random edit sequences over
//! real protocols, with every kind of request at random positions between
//! them. Each edit must be followed by published diagnostics, and each
//! request by its answer, never an internal error (a request that failed
//! inside the server).

mod common;

use common::lsp::{Client, scratch};
use proptest::prelude::*;
use serde_json::{Value, json};
use std::path::PathBuf;

/// The real protocols the edits start from: the project's examples and,
/// when present, the corpus.
fn protocols() -> Vec<String> {
    let mut paths: Vec<PathBuf> = common::valid_protocols();
    if let Some(corpus) = common::shared("corpus/octavus-examples") {
        paths.extend(common::yaml_files(&corpus));
    }
    paths.sort();
    paths
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect()
}

#[derive(Clone, Debug)]
enum Step {
    Edit {
        start: (u32, u32),
        end: (u32, u32),
        text: String,
    },
    Request {
        method: &'static str,
        at: (u32, u32),
    },
}

const METHODS: [&str; 8] = [
    "textDocument/hover",
    "textDocument/definition",
    "textDocument/references",
    "textDocument/completion",
    "textDocument/prepareRename",
    "textDocument/rename",
    "textDocument/codeAction",
    "textDocument/documentSymbol",
];

/// Positions mostly on the text, sometimes far outside it.
fn position() -> impl Strategy<Value = (u32, u32)> {
    prop_oneof![
        8 => (0u32..150, 0u32..40),
        1 => (0u32..u32::MAX, 0u32..u32::MAX),
    ]
}

fn step() -> impl Strategy<Value = Step> {
    let text = prop_oneof![
        Just(String::new()),
        "[ -~]{0,12}",
        "[a-zA-Z:_\\[\\]{}\"'#&*!|>\\-\n ]{0,16}",
        "[éß😀“—→\u{200d}\t\r\n: ]{0,6}",
        Just("\n    type: ".to_string()),
        Just("  New:\n    x: { type: string }\n".to_string()),
    ];
    prop_oneof![
        1 => (position(), position(), text).prop_map(|(start, end, text)| Step::Edit { start, end, text }),
        1 => (prop::sample::select(&METHODS[..]), position())
            .prop_map(|(method, at)| Step::Request { method, at }),
    ]
}

fn params(method: &str, uri: &str, (line, character): (u32, u32)) -> Value {
    let position = json!({"line": line, "character": character});
    let document = json!({"uri": uri});
    match method {
        "textDocument/references" => json!({"textDocument": document, "position": position,
                                            "context": {"includeDeclaration": true}}),
        "textDocument/rename" => {
            json!({"textDocument": document, "position": position, "newName": "Renamed"})
        }
        "textDocument/codeAction" => json!({"textDocument": document,
            "range": {"start": position, "end": position}, "context": {"diagnostics": []}}),
        "textDocument/documentSymbol" => json!({"textDocument": document}),
        _ => json!({"textDocument": document, "position": position}),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn every_request_is_answered_through_random_edits(
        which in any::<prop::sample::Index>(),
        utf8 in any::<bool>(),
        steps in prop::collection::vec(step(), 1..60),
    ) {
        let protocols = protocols();
        let text = which.get(&protocols);
        let mut client = Client::start(utf8);
        let uri = scratch("edited.yaml");
        client.open(&uri, text);
        for step in steps {
            match step {
                Step::Edit { start, end, text } => {
                    let range = json!({"start": {"line": start.0, "character": start.1},
                                       "end": {"line": end.0, "character": end.1}});
                    // Waits for the diagnostics of the edited text.
                    client.change(&uri, range, &text);
                }
                Step::Request { method, at } => {
                    let response = client.respond(method, params(method, &uri, at));
                    if let Err(error) = response.response_result {
                        // Not answering a method is fine; failing inside is not.
                        prop_assert_ne!(error.code, -32603, "{}: {}", method, error.message);
                    }
                }
            }
        }
        client.shutdown();
    }
}
