//! `agentc lsp` as a process, under a client that breaks the protocol:
//! bodies that are not JSON, JSON that is not a message, broken headers,
//! lengths far beyond the limit, requests before `initialize` and after
//! `shutdown`. The test writes raw bytes to the binary's standard input and
//! reads its standard output with a small framed reader of the tests' own
//! (`tests/common/lsp_stdio.rs`), so nothing between them repairs what is
//! sent. Each bad message must be
//! answered or logged, the next good one answered, and the exit code be
//! the one LSP gives (0 after `shutdown` and `exit`, 1 without `shutdown`).
//!
//! The server runs under `ulimit -v` (8 GiB of address space): a reader
//! that believed a length of 10 GB would have its allocation refused and
//! abort, rather than take the machine's memory.

mod common;

use common::lsp_stdio::{Server, frame};
use serde_json::{Value, json};
use std::process::Command;

/// `agentc lsp` under `ulimit -v` (8 GiB of address space), as the
/// module's documentation says.
fn start() -> Server {
    let binary = env!("CARGO_BIN_EXE_agentc");
    let command = if cfg!(unix) {
        let mut command = Command::new("sh");
        command.args(["-c", "ulimit -v 8388608 && exec \"$0\" lsp", binary]);
        command
    } else {
        let mut command = Command::new(binary);
        command.arg("lsp");
        command
    };
    Server::start(command)
}

fn error_code(response: &Value) -> i64 {
    response["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("an error response: {response}"))
}

const BROKEN: &str = "types:\n  A:\n    x: { type: strin }\n";

#[test]
fn malformed_messages_are_answered_or_logged_and_the_session_goes_on() {
    let mut server = start();
    // Not JSON: a parse error, to no id.
    server.raw(&frame(b"not json!"));
    let answer = server.response(&Value::Null);
    assert_eq!(error_code(&answer), -32700, "{answer}");
    server.log("not JSON");
    // Not UTF-8 inside a string.
    server.raw(&frame(b"{\"jsonrpc\":\"2.0\",\"method\":\"\xff\xfe\"}"));
    assert_eq!(error_code(&server.response(&Value::Null)), -32700);
    // JSON, but not a message: an invalid request, to the id when there is
    // one to read.
    server.raw(&frame(b"[1, 2]"));
    assert_eq!(error_code(&server.response(&Value::Null)), -32600);
    server.raw(&frame(br#"{"jsonrpc":"2.0","id":7,"method":5}"#));
    assert_eq!(error_code(&server.response(&json!(7))), -32600);
    // An id lsp-server cannot represent (it takes 32-bit integers) is
    // still answered, rather than read as a notification.
    server.raw(&frame(
        br#"{"jsonrpc":"2.0","id":4294967296,"method":"initialize","params":{}}"#,
    ));
    assert_eq!(error_code(&server.response(&json!(4294967296_u64))), -32600);
    // A response nobody asked for, malformed: logged, never answered.
    server.raw(&frame(br#"{"jsonrpc":"2.0","id":{},"result":1}"#));
    server.log("response");
    // Headers with `\n` line ends and a Content-Type, in any case.
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                      "params": {"capabilities": {}}})
    .to_string();
    server.raw(
        format!(
            "content-type: application/vscode-jsonrpc; charset=utf-8\nCONTENT-LENGTH: {}\n\n{body}",
            body.len()
        )
        .as_bytes(),
    );
    let answer = server.response(&json!(1));
    assert!(answer["result"]["capabilities"].is_object(), "{answer}");
    server.notify("initialized", json!({}));
    // A line that is not a header, before a good length: the message is
    // read, the line logged.
    let open = json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": "untitled:a.yaml", "languageId": "yaml",
                                    "version": 1, "text": BROKEN}}})
    .to_string();
    server.raw(
        format!(
            "no colon here\r\nContent-Length: {}\r\n\r\n{open}",
            open.len()
        )
        .as_bytes(),
    );
    server.log("no colon here");
    let published = server.diagnostics("untitled:a.yaml");
    assert_eq!(published[0]["code"], "unknown-type", "{published:?}");
    // A header section without a length: skipped up to the next message.
    server.raw(b"Content-Lenght: 5\r\n\r\nhello");
    server.log("without a Content-Length");
    // A length that is not a number.
    server.raw(b"Content-Length: five\r\n\r\n{\"a\": 1}");
    server.log("not a number");
    // Junk with no header at all, glued to the next message.
    let hover = json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover",
        "params": {"textDocument": {"uri": "untitled:a.yaml"},
                   "position": {"line": 2, "character": 18}}})
    .to_string();
    server.raw(
        format!(
            "{{\"junk\": true}}Content-Length: {}\r\n\r\n{hover}",
            hover.len()
        )
        .as_bytes(),
    );
    let answer = server.response(&json!(2));
    assert!(
        answer["result"]["contents"]["value"]
            .as_str()
            .is_some_and(|v| v.contains("strin")),
        "{answer}"
    );
    // A length shorter than the body: the rest is junk before the next
    // header, which is found again.
    server.raw(b"Content-Length: 3\r\n\r\n{\"jsonrpc\": \"2.0\"}");
    assert_eq!(error_code(&server.response(&Value::Null)), -32700);
    let answer = server.request(3, "textDocument/hover", json!({"textDocument": {"uri": "untitled:a.yaml"}, "position": {"line": 0, "character": 0}}));
    assert!(answer.get("result").is_some(), "{answer}");
    // Parameters of the wrong shape: invalid params, said as serde says
    // it, not as a Rust value's debug text.
    let answer = server.request(30, "textDocument/hover", json!([1, 2]));
    assert_eq!(error_code(&answer), -32602, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with("invalid parameters for `textDocument/hover`: invalid type: sequence"),
        "{message}"
    );
    // Shutdown, a request after it, a notification after it, exit.
    let answer = server.request(4, "shutdown", Value::Null);
    assert_eq!(answer["result"], Value::Null, "{answer}");
    let answer = server.request(5, "textDocument/hover", json!({"textDocument": {"uri": "untitled:a.yaml"}, "position": {"line": 0, "character": 0}}));
    assert_eq!(error_code(&answer), -32600, "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("shutting down")
    );
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": "untitled:a.yaml", "version": 2},
               "contentChanges": [{"text": "x"}]}),
    );
    let answer = server.request(6, "shutdown", Value::Null);
    assert_eq!(error_code(&answer), -32600, "{answer}");
    server.notify("exit", Value::Null);
    let (status, stderr) = server.finish();
    assert_eq!(status.code(), Some(0), "{stderr}");
}

#[test]
fn exit_without_shutdown_ends_with_1() {
    let mut server = start();
    server.initialize();
    server.notify("exit", Value::Null);
    let (status, stderr) = server.finish();
    assert_eq!(status.code(), Some(1), "{stderr}");
}

/// Before `initialize`, requests get `ServerNotInitialized` and
/// notifications are dropped; `exit` still ends the server.
#[test]
fn before_initialize_requests_are_refused_and_exit_ends_with_1() {
    let mut server = start();
    let answer = server.request(1, "textDocument/hover", json!({}));
    assert_eq!(error_code(&answer), -32002, "{answer}");
    let answer = server.request(2, "shutdown", Value::Null);
    assert_eq!(error_code(&answer), -32002, "{answer}");
    server.notify("textDocument/didOpen", json!({}));
    server.notify("exit", Value::Null);
    let (status, stderr) = server.finish();
    assert_eq!(status.code(), Some(1), "{stderr}");
}

/// A second `initialize` is refused; a request between `initialize` and
/// `initialized` is answered; the end of input after `shutdown` ends with
/// 0, as `exit` would.
#[test]
fn initialize_is_answered_once_and_hangup_after_shutdown_is_clean() {
    let mut server = start();
    let answer = server.request(1, "initialize", json!({"capabilities": {}}));
    assert!(answer["result"].is_object(), "{answer}");
    let answer = server.request(2, "textDocument/hover", json!({"textDocument": {"uri": "untitled:x.yaml"}, "position": {"line": 0, "character": 0}}));
    assert_eq!(answer["result"], Value::Null, "{answer}");
    server.notify("initialized", json!({}));
    let answer = server.request(3, "initialize", json!({"capabilities": {}}));
    assert_eq!(error_code(&answer), -32600, "{answer}");
    let answer = server.request(4, "shutdown", Value::Null);
    assert_eq!(answer["result"], Value::Null, "{answer}");
    let (status, stderr) = server.finish();
    assert_eq!(status.code(), Some(0), "{stderr}");
}

#[test]
fn hangup_without_shutdown_ends_with_1() {
    let mut server = start();
    server.initialize();
    let (status, stderr) = server.finish();
    assert_eq!(status.code(), Some(1), "{stderr}");
}

/// A message over the limit (64 MiB) is read past in chunks and the next
/// one answered.
#[test]
fn an_oversized_message_is_discarded_and_the_next_one_answered() {
    let mut server = start();
    server.initialize();
    let size = 70 << 20;
    server.raw(format!("Content-Length: {size}\r\n\r\n").as_bytes());
    let chunk = vec![b' '; 1 << 20];
    for _ in 0..size / chunk.len() {
        server.raw(&chunk);
    }
    server.log("over the limit");
    let answer = server.request(2, "textDocument/hover", json!({"textDocument": {"uri": "untitled:x.yaml"}, "position": {"line": 0, "character": 0}}));
    assert_eq!(answer["result"], Value::Null, "{answer}");
    assert_eq!(
        server.request(3, "shutdown", Value::Null)["result"],
        Value::Null
    );
    server.notify("exit", Value::Null);
    let (status, stderr) = server.finish();
    assert_eq!(status.code(), Some(0), "{stderr}");
}

/// A length of 10 GB with a short body: nothing is allocated for it, the
/// drop is logged, and the end of input (inside the body it announced)
/// ends the server.
#[test]
fn a_length_of_10_gb_is_neither_allocated_nor_fatal() {
    let mut server = start();
    server.initialize();
    server.raw(b"Content-Length: 10000000000\r\n\r\n{}");
    server.log("over the limit");
    let (status, stderr) = server.finish();
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("memory allocation"), "{stderr}");
}
