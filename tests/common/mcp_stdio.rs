//! A minimal MCP client over stdio, for the tests that start `agentc mcp`
//! the way a user's client would (a docs snippet's command, `npx
//! @agentc/cli mcp`, the wheel's `agentc mcp`): newline-delimited JSON-RPC,
//! every wait bounded, so a server that hangs fails the test instead of
//! hanging it.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long any one answer, or the exit after stdin closes, may take.
const WAIT: Duration = Duration::from_secs(30);

/// The `initialize` request a client sends first, as one line.
pub const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}"#;

pub struct Session {
    what: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Receiver<String>,
}

impl Session {
    /// Starts `command` with its standard streams piped.
    pub fn start(mut command: Command) -> Session {
        let what = format!("{command:?}");
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("start {what}: {e}"));
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let errors = child.stderr.take().expect("stderr");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let (etx, stderr) = channel();
        std::thread::spawn(move || {
            let mut text = String::new();
            for line in BufReader::new(errors).lines() {
                let Ok(line) = line else { break };
                text.push_str(&line);
                text.push('\n');
            }
            let _ = etx.send(text);
        });
        Session {
            what,
            child,
            stdin,
            lines,
            stderr,
        }
    }

    /// Writes one line to the server.
    pub fn send_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        if let Err(e) = writeln!(stdin, "{line}").and_then(|()| stdin.flush()) {
            let status = self.child.wait();
            let stderr = self.stderr.recv_timeout(WAIT).unwrap_or_default();
            panic!(
                "{}: cannot write to it ({e}); it exited with {status:?}:\n{stderr}",
                self.what
            );
        }
    }

    /// The next line the server writes, as JSON.
    pub fn read(&mut self) -> Value {
        match self.lines.recv_timeout(WAIT) {
            Ok(line) => serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("{}: a line that is not JSON ({e}): {line}", self.what)),
            Err(RecvTimeoutError::Timeout) => {
                let _ = self.child.kill();
                panic!("{}: no answer within {WAIT:?}", self.what)
            }
            Err(RecvTimeoutError::Disconnected) => {
                let _ = self.child.wait();
                let stderr = self.stderr.recv_timeout(WAIT).unwrap_or_default();
                panic!(
                    "{}: closed its output without answering:\n{stderr}",
                    self.what
                )
            }
        }
    }

    /// Sends `initialize` (the line [`INITIALIZE`]) and returns the answer:
    /// the one line the server writes back.
    pub fn initialize(&mut self) -> Value {
        self.send_line(INITIALIZE);
        let answer = self.read();
        assert_eq!(answer["id"], 1, "{}: {answer}", self.what);
        answer
    }

    /// `initialize`, then the `initialized` notification: a session ready
    /// for requests.
    pub fn ready(&mut self) -> Value {
        let answer = self.initialize();
        self.send_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        answer
    }

    /// Sends a request and returns its result (skipping notifications),
    /// failing on an error answer.
    pub fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        let line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send_line(&line.to_string());
        loop {
            let message = self.read();
            if message["id"] == id && message.get("method").is_none() {
                assert!(
                    message.get("error").is_none(),
                    "{}: {method}: {message}",
                    self.what
                );
                return message["result"].clone();
            }
        }
    }

    /// Closes the server's standard input and waits for it to exit; its
    /// exit status. Kills it and fails when it does not exit in time.
    pub fn close(mut self) -> ExitStatus {
        drop(self.stdin.take());
        let start = Instant::now();
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return status,
                Ok(None) if start.elapsed() < WAIT => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                _ => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    panic!(
                        "{}: still running {WAIT:?} after its input closed",
                        self.what
                    );
                }
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Starts `command`, initializes, checks that the server is agentc at this
/// version, closes its input and checks that it exits with 0.
pub fn answers_initialize(command: Command) {
    let mut session = Session::start(command);
    let answer = session.initialize();
    assert_eq!(answer["result"]["serverInfo"]["name"], "agentc", "{answer}");
    assert_eq!(
        answer["result"]["serverInfo"]["version"],
        env!("CARGO_PKG_VERSION"),
        "{answer}"
    );
    let status = session.close();
    assert!(status.success(), "exited with {status:?}");
}
