//! From a change notification to published diagnostics, in `agentc lsp`:
//! a one-character edit (a keystroke) in a protocol of 1,000 and 10,000
//! types, with
//! tools that use them and handlers with a `responseType`. The server runs
//! on its own thread, connected by in-memory channels, as it runs over
//! stdio; the time includes decoding the notification, applying the edit,
//! checking the whole protocol, building the symbol index and encoding
//! the diagnostics. The target is under 20 ms. Run with
//! `cargo bench --bench lsp`.

use criterion::{Criterion, criterion_group, criterion_main};
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

mod synthetic;

use synthetic::protocol;

struct Session {
    client: Connection,
    server: Option<std::thread::JoinHandle<()>>,
    version: i32,
}

const URI: &str = "untitled:bench.yaml";

impl Session {
    fn start(text: &str) -> Session {
        let (server, client) = Connection::memory();
        let handle = std::thread::spawn(move || {
            agentc::lsp::serve(&server, &agentc::lsp::Incoming::default())
                .expect("the server ends cleanly");
        });
        let session = Session {
            client,
            server: Some(handle),
            version: 1,
        };
        let init = Request::new(
            RequestId::from(1),
            "initialize".to_string(),
            json!({"processId": null, "rootUri": null, "capabilities": {}}),
        );
        session.send(Message::Request(init));
        loop {
            if let Ok(Message::Response(_)) = session.client.receiver.recv() {
                break;
            }
        }
        session.notify("initialized", json!({}));
        session.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": URI, "languageId": "yaml", "version": 1, "text": text}}),
        );
        session.published();
        session
    }

    fn send(&self, message: Message) {
        self.client
            .sender
            .send(message)
            .expect("the server is listening");
    }

    fn notify(&self, method: &str, params: Value) {
        self.send(Message::Notification(Notification::new(
            method.to_string(),
            params,
        )));
    }

    /// Waits for the next published diagnostics; returns how many.
    fn published(&self) -> usize {
        loop {
            match self.client.receiver.recv() {
                Ok(Message::Notification(n)) if n.method == "textDocument/publishDiagnostics" => {
                    return n.params["diagnostics"].as_array().map_or(0, Vec::len);
                }
                Ok(_) => {}
                Err(error) => panic!("the server hung up: {error}"),
            }
        }
    }

    /// Types one character over line 2's first `I` (in `Identifier`).
    fn keystroke(&mut self, character: &str) -> usize {
        self.type_over(character);
        self.published()
    }

    /// Ten keystrokes sent as fast as a client sends them, then a hover,
    /// answered once the last change is checked: what a fast typist costs
    /// while a check runs (the server checks when its queue is empty, and
    /// before a request). How many diagnostics were published.
    fn burst(&mut self) -> usize {
        for character in ["i", "I", "i", "I", "i", "I", "i", "I", "i", "I"] {
            self.type_over(character);
        }
        self.hover()
    }

    /// Sends a hover over line 2's first `I` and waits for its answer;
    /// returns how many diagnostics were published before it.
    fn hover(&mut self) -> usize {
        self.version += 1;
        let id = RequestId::from(self.version);
        let hover = Request::new(
            id.clone(),
            "textDocument/hover".to_string(),
            json!({"textDocument": {"uri": URI}, "position": {"line": 2, "character": 37}}),
        );
        self.send(Message::Request(hover));
        let mut published = 0;
        loop {
            match self.client.receiver.recv() {
                Ok(Message::Notification(n)) if n.method == "textDocument/publishDiagnostics" => {
                    published += 1;
                }
                Ok(Message::Response(r)) if r.id == id => return published,
                Ok(_) => {}
                Err(error) => panic!("the server hung up: {error}"),
            }
        }
    }

    /// A YAML mistake typed (`}` over the `I`, which ends the flow
    /// mapping early), checked from nothing since the text no longer
    /// reads; a moment later, while that check runs, the keystroke that
    /// mends it and a hover. The time from the mending keystroke to the
    /// hover's answer: the check of the mistake is stale once the mend is
    /// waiting, and stops, so the hover waits only for the mended text's
    /// check (from the compile before the mistake).
    fn mistake_mended(&mut self) -> Duration {
        self.type_over("}");
        // The server takes the change and starts its check.
        std::thread::sleep(Duration::from_millis(2));
        let started = Instant::now();
        self.type_over("I");
        self.hover();
        started.elapsed()
    }

    fn type_over(&mut self, character: &str) {
        self.version += 1;
        let at = json!({"line": 2, "character": 37});
        let end = json!({"line": 2, "character": 38});
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": URI, "version": self.version},
                   "contentChanges": [{"range": {"start": at, "end": end}, "text": character}]}),
        );
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let shutdown = Request::new(RequestId::from(2), "shutdown".to_string(), Value::Null);
        self.send(Message::Request(shutdown));
        self.notify("exit", Value::Null);
        if let Some(server) = self.server.take() {
            let _ = server.join();
        }
    }
}

fn bench(c: &mut Criterion) {
    for (types, label) in [(1_000, "1k"), (10_000, "10k")] {
        sizes(c, types, label);
    }
}

fn sizes(c: &mut Criterion, types: usize, label: &str) {
    let text = protocol(types);
    let compiled = agentc::compile("bench.yaml", text.as_bytes());
    assert!(
        compiled.diagnostics.is_empty(),
        "the synthetic protocol should be clean: {:?}",
        compiled.diagnostics.first()
    );
    let mut group = c.benchmark_group("lsp");
    group.sample_size(if types > 1_000 { 10 } else { 50 });
    // The floor: the check alone, as `agentc check` runs it.
    group.bench_function(format!("check alone, {label} types"), |b| {
        b.iter(|| {
            agentc::compile("bench.yaml", text.as_bytes())
                .diagnostics
                .len()
        })
    });
    // What a hover would wait for, were the check of a stale text not
    // stopped: the check of the text with the mistake typed in
    // (`Session::mistake_mended`).
    let mistaken = mistaken(&text);
    group.bench_function(
        format!("check of the mistaken text alone, {label} types"),
        |b| {
            b.iter(|| {
                agentc::compile("bench.yaml", mistaken.as_bytes())
                    .diagnostics
                    .len()
            })
        },
    );
    let model = compiled.model.as_ref().expect("a model");
    group.bench_function(format!("symbol index, {label} types"), |b| {
        b.iter(|| agentc::model::resolve::Index::new(model, &compiled.source))
    });
    group.sample_size(50);
    let mut session = Session::start(&text);
    let mut flip = false;
    group.bench_function(
        format!("change to published diagnostics, {label} types"),
        |b| {
            b.iter(|| {
                flip = !flip;
                session.keystroke(if flip { "i" } else { "I" })
            })
        },
    );
    group.bench_function(
        format!("burst of 10 changes to published diagnostics, {label} types"),
        |b| b.iter(|| session.burst()),
    );
    group.bench_function(
        format!("a mistake mended while it is checked, to a hover, {label} types"),
        |b| b.iter_custom(|iters| (0..iters).map(|_| session.mistake_mended()).sum()),
    );
    group.finish();
}

/// The text `Session::mistake_mended` types first: `}` over line 2's
/// character 37.
fn mistaken(text: &str) -> String {
    let line = text
        .split_inclusive('\n')
        .take(2)
        .map(str::len)
        .sum::<usize>();
    let at = line + 37;
    format!("{}}}{}", &text[..at], &text[at + 1..])
}

criterion_group!(benches, bench);
criterion_main!(benches);
