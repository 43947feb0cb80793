//! From a change notification to published diagnostics, in `agentc lsp`:
//! a one-character edit (a keystroke) in a protocol of 1,000 types, with
//! tools that use them and handlers with a `responseType`. The server runs
//! on its own thread, connected by in-memory channels, as it runs over
//! stdio; the time includes decoding the notification, applying the edit,
//! checking the whole protocol, building the symbol index and encoding
//! the diagnostics. The target is under 20 ms. Run with
//! `cargo bench --bench lsp`.

use criterion::{Criterion, criterion_group, criterion_main};
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{Value, json};
use std::fmt::Write;

const TYPES: usize = 1_000;

/// A protocol of `types` types: objects that nest each other, arrays of
/// them, a discriminated union every tenth type, a tool for every fifth
/// and a handler for every tenth, replying with an object type.
fn protocol(types: usize) -> String {
    let mut out = String::from("types:\n");
    for i in 0..types {
        if i % 10 == 9 {
            let _ = writeln!(
                out,
                "  Type{i}:\n    anyOf: [Kind{i}A, Kind{i}B]\n    discriminator: kind"
            );
            continue;
        }
        let _ = writeln!(out, "  Type{i}:");
        let _ = writeln!(
            out,
            "    id: {{ type: string, description: Identifier of item {i} }}"
        );
        let _ = writeln!(out, "    count: {{ type: integer, optional: true }}");
        let _ = writeln!(
            out,
            "    status: {{ type: string, enum: [open, closed, pending] }}"
        );
        if i > 0 && (i - 1) % 10 != 9 {
            let _ = writeln!(out, "    parent: {{ type: Type{}, optional: true }}", i - 1);
            let _ = writeln!(
                out,
                "    children: {{ type: \"Type{}[]\", optional: true }}",
                i - 1
            );
        }
    }
    for i in (0..types).filter(|i| i % 10 == 9) {
        for (variant, field) in [("A", "text"), ("B", "url")] {
            let _ = writeln!(out, "  Kind{i}{variant}:");
            let _ = writeln!(
                out,
                "    kind: {{ type: string, const: {} }}",
                variant.to_lowercase()
            );
            let _ = writeln!(out, "    {field}: {{ type: string }}");
        }
    }
    out.push_str("\ntools:\n");
    for i in (0..types).step_by(5) {
        let _ = writeln!(
            out,
            "  tool-{i}:\n    description: Works on item {i}\n    parameters:"
        );
        let _ = writeln!(out, "      item: {{ type: Type{i} }}");
        let _ = writeln!(out, "      note: {{ type: string, optional: true }}");
    }
    out.push_str("\ntriggers:\n");
    let handlers: Vec<usize> = (0..types).step_by(10).collect();
    for i in &handlers {
        let _ = writeln!(
            out,
            "  run-{i}:\n    input:\n      MESSAGE_{i}: {{ type: string }}"
        );
    }
    out.push_str(
        "\nagent:\n  model: anthropic/claude-sonnet-4-5\n  system: system\n  tools: [tool-0]\n",
    );
    out.push_str("\nhandlers:\n");
    for i in &handlers {
        let _ = writeln!(out, "  run-{i}:");
        let _ = writeln!(
            out,
            "    Add message:\n      block: add-message\n      role: user\n      prompt: user-message\n      input: [MESSAGE_{i}]"
        );
        let _ = writeln!(
            out,
            "    Reply:\n      block: next-message\n      responseType: Type{i}"
        );
    }
    out
}

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
            agentc::lsp::serve(&server).expect("the server ends cleanly");
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
        self.version += 1;
        let at = json!({"line": 2, "character": 37});
        let end = json!({"line": 2, "character": 38});
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": URI, "version": self.version},
                   "contentChanges": [{"range": {"start": at, "end": end}, "text": character}]}),
        );
        self.published()
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
    let text = protocol(TYPES);
    let compiled = agentc::compile("bench.yaml", text.as_bytes());
    assert!(
        compiled.diagnostics.is_empty(),
        "the synthetic protocol should be clean: {:?}",
        compiled.diagnostics.first()
    );
    let mut group = c.benchmark_group("lsp");
    group.sample_size(50);
    // The floor: the check alone, as `agentc check` runs it.
    group.bench_function("check alone, 1k types", |b| {
        b.iter(|| {
            agentc::compile("bench.yaml", text.as_bytes())
                .diagnostics
                .len()
        })
    });
    let model = compiled.model.as_ref().expect("a model");
    group.bench_function("symbol index, 1k types", |b| {
        b.iter(|| agentc::symbols::Index::new(model, &compiled.source))
    });
    let mut session = Session::start(&text);
    let mut flip = false;
    group.bench_function("change to published diagnostics, 1k types", |b| {
        b.iter(|| {
            flip = !flip;
            session.keystroke(if flip { "i" } else { "I" })
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
