//! Types into a protocol held by the language server, for profiling one
//! keystroke: opens a synthetic protocol of N types (default 10,000) in
//! `agentc lsp` over in-memory channels, then sends K one-character edits
//! (default 100) inside its first type, each waited for until its
//! diagnostics are published:
//!
//! ```text
//! cargo build --release --example keystrokes
//! valgrind --tool=callgrind target/release/examples/keystrokes 10000 100
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
    let text = synthetic::protocol(types);
    let (server, client) = Connection::memory();
    let handle = std::thread::spawn(move || agentc::lsp::serve(&server).is_ok());
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
        let at = json!({"line": 2, "character": 37});
        let end = json!({"line": 2, "character": 38});
        notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": URI, "version": key + 2},
                   "contentChanges": [{"range": {"start": at, "end": end},
                                       "text": if key % 2 == 0 { "i" } else { "I" }}]}),
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
