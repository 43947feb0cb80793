//! An in-memory LSP client for `agentc::lsp::serve`: the server runs on a
//! thread, connected by channels, exactly as it runs over stdio.
#![allow(dead_code)]

use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use lsp_types as lsp;
use serde_json::{Value, json};
use std::path::Path;
use std::str::FromStr;
use std::thread::JoinHandle;
use std::time::Duration;

/// How long a test waits for one message before it fails: far above the
/// milliseconds an answer takes, so only a server that stopped answering
/// reaches it.
const PATIENCE: Duration = Duration::from_secs(20);

pub struct Client {
    connection: Connection,
    server: Option<JoinHandle<agentc::lsp::Ended>>,
    next_id: i32,
    /// Notifications that arrived while waiting for something else.
    pending: Vec<Notification>,
    pub encoding: String,
}

impl Client {
    /// Starts a server and initializes it; `utf8` offers UTF-8 positions.
    pub fn start(utf8: bool) -> Client {
        let (server, client) = Connection::memory();
        let handle = std::thread::spawn(move || {
            agentc::lsp::serve(&server, &agentc::lsp::Incoming::default())
                .expect("the server ends cleanly")
        });
        let mut client = Client {
            connection: client,
            server: Some(handle),
            next_id: 0,
            pending: Vec::new(),
            encoding: String::new(),
        };
        let encodings = if utf8 {
            json!(["utf-8", "utf-16"])
        } else {
            json!(["utf-16"])
        };
        let result = client.request(
            "initialize",
            json!({"processId": null, "rootUri": null,
                   "capabilities": {"general": {"positionEncodings": encodings}}}),
        );
        client.encoding = result["capabilities"]["positionEncoding"]
            .as_str()
            .unwrap_or("utf-16")
            .to_string();
        client.notify("initialized", json!({}));
        client
    }

    pub fn notify(&self, method: &str, params: Value) {
        let notification = Notification::new(method.to_string(), params);
        self.connection
            .sender
            .send(Message::Notification(notification))
            .expect("the server is listening");
    }

    /// Sends a request and waits for its answer: the result, or the error
    /// object as `{"error": ...}`.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        match self.respond(method, params).response_result {
            Ok(result) => result,
            Err(error) => json!({"error": {"code": error.code, "message": error.message}}),
        }
    }

    pub fn respond(&mut self, method: &str, params: Value) -> Response {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        let request = Request::new(id.clone(), method.to_string(), params);
        self.connection
            .sender
            .send(Message::Request(request))
            .expect("the server is listening");
        loop {
            match self.connection.receiver.recv_timeout(PATIENCE) {
                Ok(Message::Response(response)) if response.id == id => return response,
                Ok(Message::Response(other)) => panic!("answer to another request: {other:?}"),
                Ok(Message::Notification(notification)) => self.pending.push(notification),
                Ok(Message::Request(_)) => {}
                Err(error) => panic!("no answer to `{method}` within {PATIENCE:?}: {error}"),
            }
        }
    }

    /// The next diagnostics published for `uri`.
    pub fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        loop {
            if let Some(at) = self.pending.iter().position(|n| {
                n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri
            }) {
                let notification = self.pending.remove(at);
                return notification.params["diagnostics"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
            }
            match self.connection.receiver.recv_timeout(PATIENCE) {
                Ok(Message::Notification(notification)) => self.pending.push(notification),
                Ok(other) => panic!("unexpected message: {other:?}"),
                Err(error) => panic!("no diagnostics for {uri} within {PATIENCE:?}: {error}"),
            }
        }
    }

    pub fn open(&mut self, uri: &str, text: &str) -> Vec<Value> {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}),
        );
        self.diagnostics(uri)
    }

    /// Replaces `range` with `text` and returns the diagnostics published.
    pub fn change(&mut self, uri: &str, range: Value, text: &str) -> Vec<Value> {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": 2},
                   "contentChanges": [{"range": range, "text": text}]}),
        );
        self.diagnostics(uri)
    }

    /// Replaces the whole text and returns the diagnostics published.
    pub fn replace(&mut self, uri: &str, text: &str) -> Vec<Value> {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": text}]}),
        );
        self.diagnostics(uri)
    }

    pub fn at(&mut self, method: &str, uri: &str, line: u32, character: u32) -> Value {
        self.request(
            method,
            json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}),
        )
    }

    /// How many diagnostics for `uri` arrived unread: after an answer to
    /// a request, every notification sent before it.
    pub fn unread_diagnostics(&self, uri: &str) -> usize {
        self.pending
            .iter()
            .filter(|n| n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri)
            .count()
    }

    /// Forgets the notifications not yet read.
    pub fn discard_unread(&mut self) {
        self.pending.clear();
    }

    pub fn shutdown(self) {
        self.finish();
    }

    /// Shuts the server down and returns how its session ended, with what
    /// it still held.
    pub fn finish(mut self) -> agentc::lsp::Ended {
        let result = self.request("shutdown", Value::Null);
        assert_eq!(result, Value::Null);
        self.notify("exit", Value::Null);
        let server = self.server.take().expect("the server runs");
        let ended = server.join().expect("the server thread ends");
        assert!(ended.shutdown);
        ended
    }
}

/// The `file:` URI of a path (absolute, or relative to the project).
pub fn uri(path: &Path) -> String {
    let path = super::root().join(path);
    let mut uri = String::from("file://");
    for byte in path.to_string_lossy().bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~".contains(&byte) {
            uri.push(byte as char);
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    lsp::Uri::from_str(&uri).expect("a valid URI");
    uri
}

/// A URI for text that is not on disk.
pub fn scratch(name: &str) -> String {
    format!("untitled:{name}")
}

pub fn range(start: (u32, u32), end: (u32, u32)) -> Value {
    json!({"start": {"line": start.0, "character": start.1},
           "end": {"line": end.0, "character": end.1}})
}

/// The position of the `nth` (0-based) occurrence of `needle` in `text`, in
/// UTF-16 units, plus `shift` characters.
pub fn find(text: &str, needle: &str, nth: usize, shift: u32) -> (u32, u32) {
    let at = text
        .match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("`{needle}` occurs fewer than {} times", nth + 1))
        .0;
    let before = &text[..at];
    let line = before.matches('\n').count() as u32;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = text[start..at].encode_utf16().count() as u32;
    (line, column + shift)
}
