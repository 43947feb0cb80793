//! Types into a protocol held by the language server, for profiling one
//! keystroke: opens a synthetic protocol of N types (default 10,000) in
//! `agentc lsp` over in-memory channels, then sends K one-character edits
//! (default 100) inside its first type (or, given `handler`, inside the
//! block name of the handler in the middle), each waited for until its
//! diagnostics are published:
//!
//! ```text
//! cargo build --release --example keystrokes
//! valgrind --tool=callgrind target/release/examples/keystrokes 10000 100
//! valgrind --tool=callgrind target/release/examples/keystrokes 10000 100 handler
//! ```

#[path = "../benches/synthetic/mod.rs"]
mod synthetic;

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{Value, json};
use std::process::ExitCode;
use std::time::Instant;

const URI: &str = "untitled:keystrokes.yaml";

fn main() -> ExitCode {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let types = args.first().copied().unwrap_or(10_000);
    let keys = args.get(1).copied().unwrap_or(100);
    let in_handler = std::env::args().any(|a| a == "handler");
    let text = synthetic::protocol(types);
    // The `I` of the first type's first description, or the `m` of the
    // middle handler's "Add message" (a block's name).
    let (line, character, letters) = match in_handler {
        false => (2, 37, ["i", "I"]),
        true => {
            let middle = format!("  run-{}:\n    Add message:", types / 2 / 10 * 10);
            let Some(at) = text.find(&middle) else {
                eprintln!("no handler in the middle of {types} types");
                return ExitCode::FAILURE;
            };
            (text[..at].matches('\n').count() + 1, 8, ["M", "m"])
        }
    };
    let (server, client) = Connection::memory();
    let handle = std::thread::spawn(move || {
        agentc::lsp::serve(&server, &agentc::lsp::Incoming::default()).is_ok()
    });
    let send = |message: Message| client.sender.send(message).is_ok();
    let notify = |method: &str, params: Value| {
        send(Message::Notification(Notification::new(
            method.to_string(),
            params,
        )))
    };
    let published = || {
        while let Ok(message) = client.receiver.recv() {
            if let Message::Notification(n) = message
                && n.method == "textDocument/publishDiagnostics"
            {
                return true;
            }
        }
        false
    };
    send(Message::Request(Request::new(
        RequestId::from(1),
        "initialize".to_string(),
        json!({"processId": null, "rootUri": null, "capabilities": {}}),
    )));
    while let Ok(message) = client.receiver.recv() {
        if matches!(message, Message::Response(_)) {
            break;
        }
    }
    notify("initialized", json!({}));
    notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "yaml", "version": 1, "text": text}}),
    );
    if !published() {
        eprintln!("the server hung up");
        return ExitCode::FAILURE;
    }
    let started = Instant::now();
    for key in 0..keys {
        let at = json!({"line": line, "character": character});
        let end = json!({"line": line, "character": character + 1});
        notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": URI, "version": key + 2},
                   "contentChanges": [{"range": {"start": at, "end": end},
                                       "text": letters[key % 2]}]}),
        );
        if !published() {
            eprintln!("the server hung up");
            return ExitCode::FAILURE;
        }
    }
    let each = started.elapsed() / keys.max(1) as u32;
    println!(
        "{types} types: {keys} keystrokes, {each:?} each from change to published diagnostics"
    );
    send(Message::Request(Request::new(
        RequestId::from(2),
        "shutdown".to_string(),
        Value::Null,
    )));
    notify("exit", Value::Null);
    let _ = handle.join();
    ExitCode::SUCCESS
}
