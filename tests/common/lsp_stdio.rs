//! `agentc lsp` as a process, under a client of the tests' own: it writes
//! framed messages (or raw bytes) to the server's standard input and reads
//! its standard output with a small framed reader, so nothing between them
//! repairs what is sent. Every wait is bounded, so a server that stops
//! answering fails the test instead of hanging it, and the process is
//! killed when the test ends.
#![allow(dead_code)]

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Far above the milliseconds an answer takes; only a server that stopped
/// answering reaches it.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// One running `agentc lsp`.
pub struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    messages: Receiver<Value>,
    /// Messages read while waiting for another.
    seen: Vec<Value>,
}

impl Server {
    /// Starts `command` (an `agentc lsp`, however it is wrapped) with its
    /// standard streams piped.
    pub fn start(mut command: Command) -> Server {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start agentc lsp");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, messages) = channel();
        std::thread::spawn(move || {
            let mut stdout = BufReader::new(stdout);
            while let Some(message) = read_frame(&mut stdout) {
                if sender.send(message).is_err() {
                    break;
                }
            }
        });
        Server {
            stdin: child.stdin.take(),
            child,
            messages,
            seen: Vec::new(),
        }
    }

    /// Writes bytes as they are.
    pub fn raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin.write_all(bytes).expect("the server reads its input");
        stdin.flush().expect("flush");
    }

    /// Writes one well-framed message.
    pub fn send(&mut self, message: Value) {
        self.raw(&frame(message.to_string().as_bytes()));
    }

    pub fn request(&mut self, id: i64, method: &str, params: Value) -> Value {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.response(&json!(id))
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    pub fn initialize(&mut self) {
        let result = self.request(1, "initialize", json!({"capabilities": {}}));
        assert!(result["result"]["capabilities"].is_object(), "{result}");
        self.notify("initialized", json!({}));
    }

    /// The next message `wanted` accepts, keeping the others in `seen`.
    pub fn wait(&mut self, what: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        if let Some(at) = self.seen.iter().position(&wanted) {
            return self.seen.remove(at);
        }
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.messages.recv_timeout(left) {
                Ok(message) if wanted(&message) => return message,
                Ok(message) => self.seen.push(message),
                Err(RecvTimeoutError::Timeout) => panic!("no {what} within {PATIENCE:?}"),
                Err(RecvTimeoutError::Disconnected) => {
                    panic!(
                        "the server closed its output before {what}; seen {:#?}",
                        self.seen
                    )
                }
            }
        }
    }

    /// The response with this id (`null` for the answers to messages
    /// whose id could not be read).
    pub fn response(&mut self, id: &Value) -> Value {
        let what = format!("response to id {id}");
        self.wait(&what, |m| {
            m.get("id") == Some(id) && (m.get("result").is_some() || m.get("error").is_some())
        })
    }

    /// The next `window/logMessage` whose text contains `needle`.
    pub fn log(&mut self, needle: &str) -> String {
        let what = format!("log message containing {needle:?}");
        let message = self.wait(&what, |m| {
            m["method"] == "window/logMessage"
                && m["params"]["message"]
                    .as_str()
                    .is_some_and(|t| t.contains(needle))
        });
        message["params"]["message"].as_str().unwrap().to_string()
    }

    pub fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let message = self.wait(&format!("diagnostics for {uri}"), |m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        });
        message["params"]["diagnostics"].as_array().unwrap().clone()
    }

    /// Closes the server's input and waits for it to end.
    pub fn finish(mut self) -> (ExitStatus, String) {
        drop(self.stdin.take());
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for the server") {
                let mut stderr = String::new();
                if let Some(mut pipe) = self.child.stderr.take() {
                    let _ = pipe.read_to_string(&mut stderr);
                }
                return (status, stderr);
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the server did not end within {PATIENCE:?}");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // A failed test must not leave the process behind.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn frame(body: &[u8]) -> Vec<u8> {
    let mut framed = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    framed.extend_from_slice(body);
    framed
}

/// Reads one message as the server frames it, or `None` at the end.
pub fn read_frame(input: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if input.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length: ") {
            length = Some(value.parse::<usize>().expect("a numeric length"));
        }
    }
    let mut body = vec![0; length.expect("the server sends Content-Length")];
    input.read_exact(&mut body).ok()?;
    Some(serde_json::from_slice(&body).expect("the server sends JSON"))
}
