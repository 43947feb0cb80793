//! A `check` call to `agentc mcp` on the example agent
//! (`protocols/shop-assistant`, 7 files), after start-up: from the
//! request written on the server's standard input to its answer read
//! from its standard output. The time is an upper bound of the server's
//! own: it includes the pipe both ways, reading the agent folder from
//! disk, checking it, and encoding the report twice (structured and as
//! text). The target is under 5 ms. Run with `cargo bench --bench mcp`.

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    line: String,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_agentc"))
            .arg("mcp")
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start agentc mcp");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut server = Server {
            child,
            stdin,
            stdout,
            line: String::new(),
        };
        server.ask(
            &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "bench", "version": "0"}}}),
        );
        server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        server
    }

    fn send(&mut self, message: &Value) {
        let mut line = message.to_string();
        line.push('\n');
        self.stdin.write_all(line.as_bytes()).expect("write");
        self.stdin.flush().expect("flush");
    }

    /// Sends a request and reads lines to its answer; the answer's length.
    fn ask(&mut self, request: &Value) -> usize {
        self.send(request);
        loop {
            self.line.clear();
            self.stdout.read_line(&mut self.line).expect("read");
            if self.line.contains("\"id\"") && !self.line.contains("\"method\"") {
                return self.line.len();
            }
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn bench(c: &mut Criterion) {
    let mut server = Server::start();
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "check", "arguments": {"path": "protocols/shop-assistant"}}});
    assert!(server.ask(&call) > 0);
    c.bench_function("mcp/check-call/shop-assistant", |b| {
        b.iter(|| server.ask(&call))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
