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

/// The texts of `paths`.
fn texts(paths: &[PathBuf]) -> Vec<String> {
    paths
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap_or_else(|e| panic!("read {}: {e}", p.display())))
        .collect()
}

/// The real protocols the edits start from: the project's examples.
fn protocols() -> Vec<String> {
    texts(&common::valid_protocols())
}

/// The corpus's real protocols (`../shared/corpus/octavus-examples/`), when
/// present.
fn corpus() -> Option<Vec<String>> {
    let corpus = common::shared("corpus/octavus-examples")?;
    let texts = texts(&common::yaml_files(&corpus));
    assert!(!texts.is_empty(), "no protocols in {}", corpus.display());
    Some(texts)
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

/// Opens `text`, then takes `steps`: each edit must be followed by its
/// diagnostics, each request by an answer that is not an internal error.
fn random_edits(text: &str, utf8: bool, steps: Vec<Step>) -> Result<(), TestCaseError> {
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
    Ok(())
}

fn random_steps() -> impl Strategy<Value = (prop::sample::Index, bool, Vec<Step>)> {
    (
        any::<prop::sample::Index>(),
        any::<bool>(),
        prop::collection::vec(step(), 1..60),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn every_request_is_answered_through_random_edits(
        (which, utf8, steps) in random_steps(),
    ) {
        let protocols = protocols();
        random_edits(which.get::<String>(&protocols), utf8, steps)?;
    }
}

/// The same random edits and requests over the corpus's protocols.
#[test]
#[ignore = "needs ../shared/corpus beside the checkout (CI runs it)"]
fn every_request_is_answered_through_random_edits_of_the_corpus() {
    let Some(corpus) = corpus() else {
        return;
    };
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 64,
        ..ProptestConfig::default()
    });
    let result = runner.run(&random_steps(), |(which, utf8, steps)| {
        random_edits(which.get::<String>(&corpus), utf8, steps)
    });
    if let Err(error) = result {
        panic!("{error}");
    }
}

/// A small seeded generator (xorshift): the tests below are the same on
/// every run.
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The byte offset of an LSP position (UTF-16) in `text`, clamped as the
/// server clamps: lines end at `\n`, `\r\n` or `\r`; a line past the last
/// is the end of the text, a character past its line's end that end.
fn offset(text: &str, line: u32, character: u32) -> usize {
    let bytes = text.as_bytes();
    let next_break = |from: usize| (from..bytes.len()).find(|&i| matches!(bytes[i], b'\n' | b'\r'));
    let mut start = 0;
    for _ in 0..line {
        match next_break(start) {
            None => return text.len(),
            Some(at) if bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n') => start = at + 2,
            Some(at) => start = at + 1,
        }
    }
    let end = next_break(start).unwrap_or(text.len());
    let mut units = 0;
    for (at, c) in text[start..end].char_indices() {
        if units + c.len_utf16() > character as usize {
            return start + at;
        }
        units += c.len_utf16();
    }
    end
}

/// Thousands of random steps over many documents, as a long editing
/// session sends them: opens, edits (batches of changes, at positions on
/// and far off the text), saves and closes, of the real protocols, their
/// agent folders' settings and prompts, and scratch files; edits and
/// closes of files that are not open; requests at random positions
/// between; and last, closes of one agent folder's files, then closes,
/// changes and saves of every file not open. Every request is answered, never with an internal error, and
/// at the end the server holds exactly the open documents, with the texts
/// this test computed for them, and no check but theirs.
#[test]
fn a_long_session_holds_only_what_is_open() {
    long_session(&protocols());
}

/// The same session, its scratch files opened with the corpus's
/// protocols too.
#[test]
#[ignore = "needs ../shared/corpus beside the checkout (CI runs it)"]
fn a_long_session_over_the_corpus_holds_only_what_is_open() {
    let Some(corpus) = corpus() else {
        return;
    };
    let mut texts = protocols();
    texts.extend(corpus);
    long_session(&texts);
}

/// The long session of `a_long_session_holds_only_what_is_open`, its
/// scratch files opened with `texts`.
fn long_session(texts: &[String]) {
    let mut files: Vec<(String, Option<String>)> = Vec::new();
    for path in common::valid_protocols() {
        let dir = path.parent().unwrap();
        let mut paths = vec![path.clone(), dir.join("settings.json")];
        paths.extend(common::files(&dir.join("prompts"), "md"));
        for path in paths.into_iter().filter(|p| p.exists()) {
            let text = std::fs::read_to_string(&path).unwrap();
            files.push((common::lsp::uri(&path), Some(text)));
        }
    }
    files.extend((0..16).map(|i| (scratch(&format!("doc{i}.yaml")), None)));
    let inserts = [
        "",
        "x",
        "\n",
        "\r\n",
        "é😀",
        ": ",
        "  New:\n    x: { type: string }\n",
        "\"",
        "{",
        "- ",
    ];
    let mut random = Random(0x2545_f491_4f6c_dd1d);
    let mut client = Client::start(false);
    let mut open: std::collections::BTreeMap<String, String> = Default::default();
    let mut edits = 0;
    for _ in 0..3_000 {
        let (uri, on_disk) = random.pick(&files);
        match random.below(20) {
            0..=2 => {
                let text = on_disk
                    .clone()
                    .unwrap_or_else(|| random.pick(texts).clone());
                client.notify(
                    "textDocument/didOpen",
                    json!({"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}),
                );
                open.insert(uri.clone(), text);
            }
            3 => {
                client.notify(
                    "textDocument/didClose",
                    json!({"textDocument": {"uri": uri}}),
                );
                open.remove(uri);
            }
            4 => client.notify(
                "textDocument/didSave",
                json!({"textDocument": {"uri": uri}}),
            ),
            5..=14 => {
                let mut changes = Vec::new();
                for _ in 0..1 + random.below(3) {
                    let mut position = || {
                        if random.below(20) == 0 {
                            (
                                u32::MAX - random.below(2) as u32,
                                random.below(1 << 20) as u32,
                            )
                        } else {
                            (random.below(200) as u32, random.below(60) as u32)
                        }
                    };
                    let (start, end) = (position(), position());
                    let text = *random.pick(&inserts);
                    if let Some(open) = open.get_mut(uri) {
                        let a = offset(open, start.0, start.1);
                        let b = offset(open, end.0, end.1);
                        open.replace_range(a.min(b)..a.max(b), text);
                    }
                    changes.push(json!({"range": {
                        "start": {"line": start.0, "character": start.1},
                        "end": {"line": end.0, "character": end.1}}, "text": text}));
                }
                edits += changes.len();
                client.notify(
                    "textDocument/didChange",
                    json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": changes}),
                );
            }
            _ => {
                let method = *random.pick(&METHODS);
                let at = (random.below(200) as u32, random.below(60) as u32);
                let response = client.respond(method, params(method, uri, at));
                if let Err(error) = response.response_result {
                    assert_ne!(error.code, -32603, "{method}: {}", error.message);
                }
                // Everything sent before the answer has been handled.
                client.discard_unread();
            }
        }
    }
    assert!(edits > 2_000, "{edits} edits");
    // Last, the first agent folder's files are closed, and every file not
    // open is closed, changed and saved.
    let (first, _) = &files[0];
    let folder = first.trim_end_matches("protocol.yaml").to_string();
    for (uri, _) in files.iter().filter(|(uri, _)| uri.starts_with(&folder)) {
        client.notify(
            "textDocument/didClose",
            json!({"textDocument": {"uri": uri}}),
        );
        open.remove(uri);
    }
    for (uri, _) in files.iter().filter(|(uri, _)| !open.contains_key(uri)) {
        let document = json!({"uri": uri, "version": 3});
        client.notify("textDocument/didClose", json!({"textDocument": document}));
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": document, "contentChanges": [{"text": "types: {}\n"}]}),
        );
        client.notify("textDocument/didSave", json!({"textDocument": document}));
    }
    let held = client.finish().held;
    assert_eq!(held.documents, open.len(), "{held:?}");
    assert_eq!(held.spellings, open.len(), "{held:?}");
    let text_bytes: usize = open.values().map(String::len).sum();
    assert_eq!(held.text_bytes, text_bytes, "{held:?}");
    // One check per protocol an open file is checked with: a folder's
    // settings and prompts with its protocol.
    let protocols: std::collections::BTreeSet<String> = open
        .keys()
        .map(|uri| match uri.split_once("/prompts/") {
            Some((dir, _)) => format!("{dir}/protocol.yaml"),
            None => uri.replace("/settings.json", "/protocol.yaml"),
        })
        .collect();
    assert_eq!(held.analyses, protocols.len(), "{held:?}");
    assert!(held.published <= held.analyses, "{held:?}");
}

/// One `didChange` of 5,000 changes, in no order, to a protocol of about
/// 1 MB: each retypes one property's type, one of them wrongly. The
/// result is checked as if typed one by one (the one error, where it was
/// made), and placing the changes reads the document about once, plus
/// each change's line, where rebuilding a line index per change would
/// read 5,000 times the document.
#[test]
fn a_batch_of_thousands_of_changes_to_a_large_document_is_applied_in_one_pass() {
    let lines = 36_000;
    let mut text = String::from("types:\n  Big:\n");
    for i in 0..lines {
        text.push_str(&format!("    f{i:05}: {{ type: string }}\n"));
    }
    assert!(text.len() > 1_000_000);
    let mut client = Client::start(false);
    let uri = scratch("big.yaml");
    assert!(client.open(&uri, &text).is_empty());
    let mut random = Random(0x9e37_79b9_7f4a_7c15);
    let mut chosen = std::collections::BTreeSet::new();
    while chosen.len() < 5_000 {
        chosen.insert(2 + random.below(lines));
    }
    let mut order: Vec<usize> = chosen.into_iter().collect();
    for i in (1..order.len()).rev() {
        order.swap(i, random.below(i + 1));
    }
    let wrong = order[order.len() / 2];
    let changes: Vec<Value> = order
        .iter()
        .map(|&line| {
            let with = if line == wrong { "strin" } else { "number" };
            json!({"range": {"start": {"line": line, "character": 20},
                             "end": {"line": line, "character": 26}}, "text": with})
        })
        .collect();
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": changes}),
    );
    let published = client.diagnostics(&uri);
    assert_eq!(published.len(), 1, "{published:?}");
    assert_eq!(published[0]["code"], "unknown-type");
    assert_eq!(published[0]["range"]["start"]["line"], wrong);
    assert_eq!(published[0]["range"]["start"]["character"], 20);
    let held = client.finish().held;
    assert_eq!(held.text_bytes, text.len() - 1);
    // The text once, and each change's line up to its two ends.
    let line = "    f00000: { type: string }\n".len() as u64;
    let bound = text.len() as u64 + 5_000 * 2 * line;
    assert!(held.edit_bytes_scanned <= bound, "{held:?}");
    assert!(held.edit_bytes_scanned >= text.len() as u64, "{held:?}");
}
