//! `agentc mcp` driven over its stdio transport, message by message, as a
//! hostile or careless client would: what `check` gives equals what
//! `agentc check --format json` prints, for every protocol under
//! `protocols/`; every malformed call gets an error or an `isError`
//! result and the server answers the next request; paths outside the
//! roots are refused; nothing is written unless asked; and with no
//! network at all it works the same. (The official Python SDK's client is
//! `tests/mcp_client.rs`.)

mod common;

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// Far above what any answer takes; only a hang reaches it.
const PATIENCE: Duration = Duration::from_secs(60);

/// A running `agentc mcp` and the lines it writes.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    next_id: u64,
}

impl Session {
    /// The server, started in `dir`, not yet initialized.
    fn raw_in(dir: &Path, wrap: Option<&[&str]>) -> Session {
        let binary = env!("CARGO_BIN_EXE_agentc");
        let mut command = match wrap {
            Some(wrap) => {
                let mut command = Command::new(wrap[0]);
                command.args(&wrap[1..]).arg(binary);
                command
            }
            None => Command::new(binary),
        };
        let mut child = command
            .arg("mcp")
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start agentc mcp");
        let stdout = child.stdout.take().expect("stdout");
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Session {
            child,
            stdin,
            lines,
            next_id: 100,
        }
    }

    /// The server in `dir`, initialized as a client without roots.
    fn start_in(dir: &Path) -> Session {
        let mut session = Session::raw_in(dir, None);
        session.initialize(json!({}));
        session
    }

    fn initialize(&mut self, capabilities: Value) -> Value {
        let answer = self.request(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": capabilities,
                "clientInfo": {"name": "tests/mcp.rs", "version": "0"}
            }),
        );
        self.notify("notifications/initialized", json!({}));
        answer
    }

    fn write_line(&mut self, line: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line).expect("write to the server");
        stdin.write_all(b"\n").expect("write to the server");
        stdin.flush().expect("flush");
    }

    fn send(&mut self, message: &Value) {
        self.write_line(message.to_string().as_bytes());
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next message the server writes.
    fn next(&mut self) -> Value {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(line) => serde_json::from_str(&line).unwrap_or_else(|e| {
                panic!("the server wrote a line that is not JSON ({e}): {line}")
            }),
            Err(RecvTimeoutError::Timeout) => panic!("no answer in {PATIENCE:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the server closed its output"),
        }
    }

    /// The answer to request `id` (a string or a number), skipping
    /// notifications.
    fn answer(&mut self, id: &Value) -> Value {
        loop {
            let message = self.next();
            if message.get("id") == Some(id) && message.get("method").is_none() {
                return message;
            }
        }
    }

    /// Sends a request and waits for its answer (the whole message).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = json!(self.next_id);
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.answer(&id)
    }

    /// Calls a tool; its result (`isError` or not), or panics on an
    /// error response.
    fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let answer = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        answer
            .get("result")
            .cloned()
            .unwrap_or_else(|| panic!("`{tool}` got an error response: {answer}"))
    }

    /// Closes the server's input and waits for it to exit; its exit code.
    fn finish(mut self) -> Option<i32> {
        drop(self.stdin.take());
        for _ in 0..600 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.child.kill();
        panic!("the server did not exit after its input closed");
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A successful result's structured content, checked against its text.
fn structured(result: &Value) -> &Value {
    assert_eq!(result["isError"], json!(false), "{result}");
    let content = &result["structuredContent"];
    let text = result["content"][0]["text"].as_str().expect("a text block");
    let parsed: Value = serde_json::from_str(text).expect("the text is the JSON");
    assert_eq!(
        &parsed, content,
        "the text block and structuredContent differ"
    );
    content
}

/// An `isError` result's message.
fn refusal(result: &Value) -> String {
    assert_eq!(result["isError"], json!(true), "expected isError: {result}");
    result["content"][0]["text"]
        .as_str()
        .expect("a text block")
        .to_string()
}

/// What `agentc check --format json PATH` prints, run in the root; it
/// fits `schema/report.schema.json`.
fn cli_check(path: &str) -> Value {
    let output = common::agentc(&["check", "--format", "json", path]);
    let printed = serde_json::from_slice(&output.stdout).expect("check prints JSON");
    fits_the_report_schema(&printed);
    printed
}

/// Fails unless `report` fits `schema/report.schema.json`, the JSON
/// contract's schema (the `outputSchema` of `check`, `validate`, `diff`).
fn fits_the_report_schema(report: &Value) {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(common::root().join("schema/report.schema.json")).expect("read"),
    )
    .expect("JSON");
    let validator = jsonschema::validator_for(&schema).expect("a valid schema");
    let errors: Vec<String> = validator
        .iter_errors(report)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:?}\n{report}");
}

/// Every folder and file directly under `protocols/` and one level down:
/// agent folders, lone protocols, folders of them.
fn paths_to_check() -> Vec<String> {
    let root = common::root();
    let mut paths = vec!["protocols".to_string()];
    for entry in common::every_file_below(&root.join("protocols")) {
        let relative = entry.strip_prefix(root).expect("below the root");
        let shown = relative.to_string_lossy().replace('\\', "/");
        if shown.ends_with(".yaml") {
            paths.push(shown);
        }
    }
    for folder in std::fs::read_dir(root.join("protocols")).expect("list protocols") {
        let folder = folder.expect("entry").path();
        if folder.is_dir() {
            let relative = folder.strip_prefix(root).expect("below the root");
            paths.push(relative.to_string_lossy().replace('\\', "/"));
        }
    }
    paths.sort();
    paths
}

#[test]
fn check_gives_what_the_cli_prints_for_every_protocol() {
    let mut session = Session::start_in(common::root());
    let paths = paths_to_check();
    assert!(paths.len() > 50, "found only {} paths", paths.len());
    for path in &paths {
        let result = session.call("check", json!({"path": path}));
        assert_eq!(structured(&result), &cli_check(path), "check `{path}`");
    }
    assert_eq!(session.finish(), Some(0));
}

#[test]
fn check_of_a_text_is_the_cli_on_a_folder_holding_it() {
    let root = common::root();
    let agent = root.join("protocols/shop-assistant");
    let scratch = common::scratch("mcp-text");
    let folder = scratch.path();
    common::copy_dir(&agent, folder);
    // A mistake, so that there is something to compare.
    let text = std::fs::read_to_string(agent.join("protocol.yaml"))
        .expect("read")
        .replacen("type: string", "type: strng", 1);
    std::fs::write(folder.join("protocol.yaml"), &text).expect("write");
    let mut files = serde_json::Map::new();
    for file in common::every_file_below(folder) {
        let name = file
            .strip_prefix(folder)
            .expect("below")
            .to_string_lossy()
            .replace('\\', "/");
        if name != "protocol.yaml" {
            files.insert(name, json!(std::fs::read_to_string(&file).expect("read")));
        }
    }
    let expected = {
        let output = common::agentc_in(folder, &["check", "--format", "json", "protocol.yaml"]);
        serde_json::from_slice::<Value>(&output.stdout).expect("JSON")
    };
    assert!(expected["summary"]["errors"].as_u64() > Some(0));
    let mut session = Session::start_in(root);
    let result = session.call("check", json!({"text": text, "files": files}));
    assert_eq!(structured(&result), &expected);

    // A draft of a file on disk: its text, with the folder around it.
    let mut session = Session::start_in(folder);
    let result = session.call("check", json!({"path": "protocol.yaml", "text": text}));
    assert_eq!(structured(&result), &expected);
}

/// `gen` of the `protocol.yaml` of the folder the server runs in names its
/// files for that folder, as `agentc gen` there does.
#[test]
fn gen_names_a_protocol_for_its_folder_from_inside_it() {
    let scratch = common::scratch("mcp-gen");
    let folder = common::worker_folder(scratch.path(), "billing");
    let mut session = Session::start_in(&folder);
    for path in ["protocol.yaml", "."] {
        let generated = session.call("gen", json!({"path": path, "lang": "ts"}));
        assert_eq!(
            structured(&generated)["files"][0]["name"],
            json!("billing.ts"),
            "{path}: {generated}"
        );
    }
}

#[test]
fn fix_returns_the_fixed_text_and_writes_only_when_asked() {
    let scratch = common::scratch("mcp-fix");
    let folder = scratch.path();
    let broken = "types:\n  Order:\n    id:\n      type: strng\n";
    std::fs::write(folder.join("types.yaml"), broken).expect("write");
    let mut session = Session::start_in(folder);

    let result = session.call("fix", json!({"path": "types.yaml"}));
    let fixed = structured(&result);
    assert_eq!(fixed["applied"], json!(1));
    assert_eq!(fixed["written"], json!(false));
    assert_eq!(
        fixed["files"][0]["text"],
        json!("types:\n  Order:\n    id:\n      type: string\n")
    );
    assert!(
        fixed["files"][0]["diff"]
            .as_str()
            .unwrap_or("")
            .contains("+      type: string")
    );
    assert_eq!(
        std::fs::read_to_string(folder.join("types.yaml")).expect("read"),
        broken
    );

    let result = session.call("fix", json!({"text": broken, "write": true}));
    assert!(refusal(&result).contains("`write` needs `path`"));

    let result = session.call("fix", json!({"path": "types.yaml", "write": true}));
    assert_eq!(structured(&result)["written"], json!(true));
    assert_eq!(
        std::fs::read_to_string(folder.join("types.yaml")).expect("read"),
        "types:\n  Order:\n    id:\n      type: string\n"
    );
    assert_eq!(session.finish(), Some(0));
}

#[test]
fn a_broken_configuration_stops_a_call_as_it_stops_the_cli() {
    let scratch = common::scratch("mcp-config");
    let folder = scratch.path();
    std::fs::write(
        folder.join("types.yaml"),
        "types:\n  Order:\n    id:\n      type: strng\n",
    )
    .expect("write");
    std::fs::write(
        folder.join("agentc.toml"),
        "[severity]\nno-such-code = \"off\"\n",
    )
    .expect("write");
    let mut session = Session::start_in(folder);
    let result = session.call("check", json!({"path": "types.yaml"}));
    let printed = common::agentc_in(folder, &["check", "--format", "json", "types.yaml"]);
    let printed: Value = serde_json::from_slice(&printed.stdout).expect("JSON");
    assert_eq!(structured(&result), &printed);
    assert_eq!(printed["diagnostics"][0]["code"], json!("invalid-config"));
    for (tool, arguments) in [
        ("fix", json!({"path": "types.yaml"})),
        (
            "check",
            json!({"path": "types.yaml", "text": "types: {}\n"}),
        ),
    ] {
        let reason = refusal(&session.call(tool, arguments));
        assert!(
            reason.contains("agentc.toml has problems"),
            "{tool}: {reason}"
        );
    }
    assert_eq!(session.finish(), Some(0));
}

/// A folder's search skips what the `.gitignore` files inside the roots
/// list, and reads none above them (where `agentc check` reads them all,
/// up to the file system's root, and git's global excludes).
#[test]
fn a_search_reads_no_ignore_file_above_the_roots() {
    let scratch = common::scratch("mcp-ignores");
    let root = scratch.path().join("project");
    let protocol = "types:\n  A:\n    x:\n      type: strng\n";
    for folder in ["kept", "ignored-above", "ignored-inside"] {
        std::fs::create_dir_all(root.join(folder)).expect("mkdir");
        std::fs::write(root.join(folder).join("protocol.yaml"), protocol).expect("write");
    }
    std::fs::write(scratch.path().join(".gitignore"), "ignored-above/\n").expect("write");
    std::fs::write(root.join(".gitignore"), "ignored-inside/\n").expect("write");
    let mut session = Session::start_in(&root);
    let result = session.call("check", json!({"path": "."}));
    let files: Vec<&str> = structured(&result)["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter_map(|d| d["file"].as_str())
        .collect();
    assert!(files.iter().any(|f| f.starts_with("kept/")), "{files:?}");
    assert!(
        files.iter().any(|f| f.starts_with("ignored-above/")),
        "{files:?}"
    );
    assert!(
        !files.iter().any(|f| f.starts_with("ignored-inside/")),
        "{files:?}"
    );
    // The CLI, run there, reads the one above too.
    let printed = common::agentc_in(&root, &["check", "--format", "json", "."]);
    assert!(!common::stdout(&printed).contains("ignored-above/"));
    assert_eq!(session.finish(), Some(0));
}

#[test]
fn paths_outside_the_roots_are_refused() {
    let inside = common::scratch("mcp-inside");
    let outside = common::scratch("mcp-outside");
    let protocol = "types:\n  A:\n    x:\n      type: string\n";
    std::fs::write(inside.path().join("protocol.yaml"), protocol).expect("write");
    std::fs::write(outside.path().join("protocol.yaml"), protocol).expect("write");
    let elsewhere = outside.path().join("protocol.yaml").display().to_string();

    // Without roots, the working folder is the root.
    let mut session = Session::start_in(inside.path());
    structured(&session.call("check", json!({"path": "protocol.yaml"})));
    for path in [elsewhere.as_str(), "../protocol.yaml", "/", ""] {
        for tool in ["check", "fix", "emit", "gen"] {
            let arguments = match tool {
                "emit" => json!({"path": path, "target": "openai"}),
                "gen" => json!({"path": path, "lang": "ts"}),
                _ => json!({"path": path}),
            };
            let result = session.call(tool, arguments);
            let reason = refusal(&result);
            assert!(
                reason.contains("outside the roots")
                    || reason.contains("empty")
                    || reason.contains("not found"),
                "{tool} {path}: {reason}"
            );
        }
    }
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(
            outside.path().join("protocol.yaml"),
            inside.path().join("link.yaml"),
        )
        .expect("symlink");
        let result = session.call("check", json!({"path": "link.yaml"}));
        assert!(refusal(&result).contains("outside the roots"));
    }
    drop(session);

    // A client with roots: they replace the working folder. It answers
    // `roots/list` with the folder outside.
    let mut session = Session::raw_in(inside.path(), None);
    session.initialize(json!({"roots": {"listChanged": true}}));
    session.next_id += 1;
    let id = json!(session.next_id);
    session.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "check", "arguments": {"path": "protocol.yaml"}}}));
    let asked = session.next();
    assert_eq!(asked["method"], json!("roots/list"), "{asked}");
    let uri = format!("file://{}", outside.path().display());
    session
        .send(&json!({"jsonrpc": "2.0", "id": asked["id"], "result": {"roots": [{"uri": uri}]}}));
    let result = session.answer(&id)["result"].clone();
    assert!(refusal(&result).contains("outside the roots"));
    let result = session.call("check", json!({"path": elsewhere}));
    assert_eq!(structured(&result)["summary"]["files"], json!(1));
    assert_eq!(session.finish(), Some(0));
}

/// The client is asked for its roots once, however many calls wait for
/// them, and a call that reads no file (`explain`) does not wait.
#[test]
fn roots_are_asked_once_and_only_by_calls_that_read() {
    let scratch = common::scratch("mcp-roots-once");
    std::fs::write(
        scratch.path().join("p.yaml"),
        "types:\n  A:\n    x: { type: string }\n",
    )
    .expect("write");
    let mut session = Session::raw_in(scratch.path(), None);
    session.initialize(json!({"roots": {"listChanged": true}}));
    let call = |session: &mut Session, id: u64, name: &str, arguments: Value| {
        session.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}}));
    };
    call(&mut session, 1, "check", json!({"path": "p.yaml"}));
    let asked = session.next();
    assert_eq!(asked["method"], json!("roots/list"), "{asked}");
    // While the client has not answered: an explanation is given at once,
    // and a second check waits for the same answer.
    call(&mut session, 2, "explain", json!({"code": "unknown-type"}));
    let explained = session.next();
    assert_eq!(explained["id"], json!(2), "{explained}");
    call(&mut session, 3, "check", json!({"path": "p.yaml"}));
    let uri = format!("file://{}", scratch.path().display());
    session
        .send(&json!({"jsonrpc": "2.0", "id": asked["id"], "result": {"roots": [{"uri": uri}]}}));
    // The two checks are answered, in either order.
    let mut answered = Vec::new();
    while answered.len() < 2 {
        let message = session.next();
        if message.get("method").is_some() {
            continue;
        }
        assert_eq!(
            structured(&message["result"])["summary"]["files"],
            json!(1),
            "{message}"
        );
        answered.push(message["id"].clone());
    }
    answered.sort_by_key(|id| id.as_u64());
    assert_eq!(answered, [json!(1), json!(3)]);
    assert_eq!(session.finish(), Some(0));
}

#[test]
fn hostile_calls_get_errors_and_the_server_goes_on() {
    let mut session = Session::start_in(common::root());
    let refused = [
        ("check", json!({"path": 5})),
        ("check", json!({"text": ["a"]})),
        ("check", json!({})),
        (
            "check",
            json!({"path": "protocols/shop-assistant", "files": {"a": "b"}}),
        ),
        (
            "check",
            json!({"text": "x: 1\n", "files": {"../escape.md": "x"}}),
        ),
        (
            "check",
            json!({"text": "x: 1\n", "files": {"/etc/passwd": "x"}}),
        ),
        (
            "check",
            json!({"text": "x: 1\n", "config": "[severity]\nno-such-code = \"off\"\n"}),
        ),
        ("check", json!({"text": "x: 1\n", "targets": ["nowhere"]})),
        ("check", json!({"pth": "protocols"})),
        ("emit", json!({"path": "protocols/shop-assistant"})),
        (
            "emit",
            json!({"path": "protocols/shop-assistant", "target": "openai", "tool": "no-such-tool"}),
        ),
        (
            "emit",
            json!({"path": "protocols/shop-assistant", "target": "openai", "tool": "a", "type": "B"}),
        ),
        (
            "emit",
            json!({"text": "types:\n  A:\n    x:\n      type: strng\n", "target": "openai"}),
        ),
        ("validate", json!({"path": "protocols/shop-assistant"})),
        (
            "validate",
            json!({"path": "protocols/shop-assistant", "data": "{}"}),
        ),
        ("validate", json!({"data": "{}", "tool": "get-order"})),
        (
            "validate",
            json!({"data": "{}", "payload": "no-such-payload"}),
        ),
        ("diff", json!({"old": "a: 1\n"})),
        (
            "diff",
            json!({"old": "a: 1\n", "new": "a: 1\n", "revision": "HEAD"}),
        ),
        (
            "diff",
            json!({"path": "protocols/shop-assistant/protocol.yaml", "revision": "--output=/tmp/x"}),
        ),
        (
            "gen",
            json!({"path": "protocols/shop-assistant", "lang": "cobol"}),
        ),
        ("explain", json!({"code": "unknown-tpye"})),
        ("explain", json!({"code": 7})),
        ("schema", json!({"extra": true})),
    ];
    for (tool, arguments) in refused {
        let result = session.call(tool, arguments.clone());
        let reason = refusal(&result);
        assert!(!reason.is_empty(), "{tool} {arguments}");
    }
    // The help says what was meant.
    let result = session.call("explain", json!({"code": "unknown-tpye"}));
    assert!(refusal(&result).contains("unknown-type"));
    // A long name is shown as far as a code could be, not whole.
    let result = session.call("explain", json!({"code": "x".repeat(10_000)}));
    let reason = refusal(&result);
    assert!(
        reason.starts_with(&format!("no diagnostic code `{}…`", "x".repeat(40))),
        "{reason}"
    );

    // An unknown tool, a resource and a prompt that are not there: errors.
    for (method, params) in [
        ("tools/call", json!({"name": "rm", "arguments": {}})),
        ("resources/read", json!({"uri": "agentc://nothing"})),
        ("resources/read", json!({"uri": "file:///etc/passwd"})),
        ("prompts/get", json!({"name": "nothing"})),
        ("prompts/get", json!({"name": "new-tool", "arguments": {}})),
        ("no/such/method", json!({})),
    ] {
        let answer = session.request(method, params);
        assert!(answer.get("error").is_some(), "{method}: {answer}");
    }

    // Arguments that are not an object, and messages that are not JSON-RPC
    // at all: an error, or nothing (unparsable lines have no id to answer);
    // either way the next request is answered.
    session.send(&json!({"jsonrpc": "2.0", "id": "a", "method": "tools/call",
        "params": {"name": "check", "arguments": [1, 2]}}));
    let answer = session.answer(&json!("a"));
    assert!(
        answer.get("error").is_some() || answer["result"]["isError"] == json!(true),
        "{answer}"
    );
    session.write_line(b"{not json");
    session.write_line(&[0xff, 0xfe, b'{']);
    session.write_line(b"[]");
    session.write_line("[".repeat(100_000).as_bytes());
    session.write_line(b"{\"jsonrpc\": \"2.0\", \"id\": 5}");
    let answer = session.request("ping", json!({}));
    assert!(answer.get("result").is_some(), "{answer}");
    assert_eq!(session.finish(), Some(0));
}

#[test]
fn a_text_larger_than_agentc_reads_gets_an_error_result() {
    let mut session = Session::start_in(common::root());
    // 100 MB: the transport takes it (up to 128 MiB), the call refuses it.
    let huge = "a".repeat(100 * 1024 * 1024);
    let result = session.call("check", json!({"text": huge}));
    assert!(refusal(&result).contains("bytes"), "{result}");
    drop(huge);
    // Past the transport's limit, the line is dropped unanswered, and the
    // server goes on.
    let mut line = br#"{"jsonrpc":"2.0","id":"big","method":"ping","params":{"x":""#.to_vec();
    line.resize(129 * 1024 * 1024, b'a');
    line.extend_from_slice(b"\"}}");
    session.write_line(&line);
    drop(line);
    let answer = session.request("ping", json!({}));
    assert!(answer.get("result").is_some(), "{answer}");
    let result = session.call("check", json!({"path": "protocols/shop-assistant"}));
    assert_eq!(structured(&result)["summary"]["errors"], json!(0));
    assert_eq!(session.finish(), Some(0));
}

#[test]
fn requests_before_initialize_and_cancellations_are_answered() {
    // Before `initialize`: an error, not a crash; then a session as usual.
    let mut session = Session::raw_in(common::root(), None);
    for (id, method) in [(1, "tools/list"), (2, "tools/call"), (3, "resources/list")] {
        session.send(&json!({"jsonrpc": "2.0", "id": id, "method": method,
            "params": {"name": "check", "arguments": {"path": "protocols"}}}));
        let answer = session.answer(&json!(id));
        assert!(answer.get("error").is_some(), "{answer}");
    }
    session.initialize(json!({}));
    let result = session.call("check", json!({"path": "protocols/shop-assistant"}));
    assert_eq!(structured(&result)["summary"]["errors"], json!(0));
    drop(session);

    let mut session = Session::start_in(common::root());
    // A call cancelled at once: whatever comes back for it, the server
    // answers what follows.
    for round in 0..20 {
        let id = json!(format!("c{round}"));
        session.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "check", "arguments": {"path": "protocols"}}}));
        session.notify(
            "notifications/cancelled",
            json!({"requestId": id, "reason": "test"}),
        );
    }
    let result = session.call("check", json!({"path": "protocols/shop-assistant"}));
    assert_eq!(structured(&result)["summary"]["errors"], json!(0));
    assert_eq!(session.finish(), Some(0));
}

#[test]
fn every_tool_answers_on_the_example_agent() {
    let mut session = Session::start_in(common::root());
    let tools = session.request("tools/list", json!({}));
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| t["name"].as_str().expect("name"))
        .collect();
    assert_eq!(
        names,
        [
            "check", "fix", "explain", "emit", "validate", "diff", "gen", "schema"
        ]
    );
    for tool in tools["result"]["tools"].as_array().expect("tools") {
        assert_eq!(tool["inputSchema"]["type"], json!("object"), "{tool}");
        assert_eq!(tool["outputSchema"]["type"], json!("object"), "{tool}");
    }
    let agent = "protocols/shop-assistant";
    let emitted = session.call(
        "emit",
        json!({"path": agent, "target": "openai", "tool": "get-order"}),
    );
    let cli = common::agentc(&["emit", "--target", "openai", "--tool", "get-order", agent]);
    let printed: Value = serde_json::from_slice(&cli.stdout).expect("JSON");
    assert_eq!(structured(&emitted)["output"], printed);

    let valid = session.call(
        "validate",
        json!({"path": agent, "tool": "get-order", "data": "{\"orderId\": \"A1\"}"}),
    );
    assert_eq!(structured(&valid)["summary"]["errors"], json!(0));
    let invalid = session.call(
        "validate",
        json!({"path": agent, "tool": "get-order", "data": "{\"orderId\": 7}"}),
    );
    assert_eq!(structured(&invalid)["summary"]["errors"], json!(1));
    assert_eq!(
        structured(&invalid)["diagnostics"][0]["pointer"],
        json!("/orderId")
    );
    // A null for an optional parameter, as OpenAI's strict mode writes it:
    // refused, unless `optionalNull` says so; a required one always.
    let strict = "{\"query\": \"lamp\", \"limit\": null}";
    let refused = session.call(
        "validate",
        json!({"path": agent, "tool": "search-products", "data": strict}),
    );
    assert_eq!(structured(&refused)["summary"]["errors"], json!(1));
    let accepted = session.call(
        "validate",
        json!({"path": agent, "tool": "search-products", "data": strict, "optionalNull": true}),
    );
    assert_eq!(structured(&accepted)["summary"]["errors"], json!(0));
    let required = session.call(
        "validate",
        json!({"path": agent, "tool": "search-products", "data": "{\"query\": null}", "optionalNull": true}),
    );
    assert_eq!(structured(&required)["summary"]["errors"], json!(1));

    let generated = session.call("gen", json!({"path": agent, "lang": "ts"}));
    assert!(
        structured(&generated)["files"][0]["text"]
            .as_str()
            .unwrap_or("")
            .contains("export")
    );

    // A breaking change, as `agentc diff` finds it.
    let scratch = common::scratch("mcp-diff");
    let old =
        std::fs::read_to_string(common::root().join(agent).join("protocol.yaml")).expect("read");
    let new = old.replace("orderId: { type: string }", "orderId: { type: integer }");
    assert_ne!(old, new);
    std::fs::write(scratch.path().join("old.yaml"), &old).expect("write");
    std::fs::write(scratch.path().join("protocol.yaml"), &new).expect("write");
    let cli = common::agentc_in(
        scratch.path(),
        &["diff", "--format", "json", "old.yaml", "protocol.yaml"],
    );
    let mut printed: Value = serde_json::from_slice(&cli.stdout).expect("JSON");
    let diffed = session.call("diff", json!({"old": old, "new": new}));
    let diffed = structured(&diffed).clone();
    assert!(diffed["summary"]["errors"].as_u64() > Some(0), "{diffed}");
    assert!(
        diffed["diagnostics"][0].get("surface").is_some(),
        "{diffed}"
    );
    fits_the_report_schema(&diffed);
    // The CLI names the old version by its file; the tool, `protocol.yaml (old)`.
    for d in printed["diagnostics"].as_array_mut().expect("diagnostics") {
        if let Some(base) = d.get_mut("base") {
            base["file"] = json!("protocol.yaml (old)");
        }
    }
    assert_eq!(diffed, printed);

    let explained = session.call("explain", json!({"code": "unknown-type"}));
    let page = common::stdout(&common::agentc(&["explain", "unknown-type"]));
    assert_eq!(structured(&explained)["page"], json!(page));

    let schema = session.call("schema", json!({}));
    let printed: Value = serde_json::from_slice(&common::agentc(&["schema"]).stdout).expect("JSON");
    assert_eq!(structured(&schema)["schema"], printed);

    // The prompt's example passes `check`.
    let example = session.call(
        "check",
        json!({"text": agentc::mcp::EXAMPLE, "files": {
            "prompts/system.md": "You take orders.\n",
            "settings.json": "{\"slug\": \"orders\", \"name\": \"Orders\", \"format\": \"interactive\"}"
        }}),
    );
    assert_eq!(structured(&example)["diagnostics"], json!([]));
    assert_eq!(session.finish(), Some(0));
}

#[test]
fn resources_are_the_code_pages_the_reference_and_the_schema() {
    let mut session = Session::start_in(common::root());
    let listed = session.request("resources/list", json!({}));
    let resources = listed["result"]["resources"].as_array().expect("resources");
    assert!(resources.len() > 3 + 50);
    for resource in resources {
        let uri = resource["uri"].as_str().expect("uri");
        let read = session.request("resources/read", json!({"uri": uri}));
        let text = read["result"]["contents"][0]["text"]
            .as_str()
            .expect("text");
        assert!(!text.is_empty(), "{uri}");
        if let Some(code) = uri.strip_prefix("agentc://codes/") {
            assert_eq!(
                text,
                common::stdout(&common::agentc(&["explain", code])),
                "{uri}"
            );
        }
    }
    assert_eq!(session.finish(), Some(0));
}

/// With no network at all (a namespace with only a loopback that is
/// down), the server works as ever: it fetches nothing.
#[test]
#[ignore = "needs `unshare` (util-linux) able to make a network namespace"]
fn works_with_the_network_unavailable() {
    let probe = Command::new("unshare").args(["-rn", "true"]).status();
    if !probe.is_ok_and(|status| status.success()) {
        common::unavailable(
            "AGENTC_REQUIRE_UNSHARE",
            "`unshare -rn` cannot make a network namespace here",
        );
        return;
    }
    let mut session = Session::raw_in(common::root(), Some(&["unshare", "-rn"]));
    session.initialize(json!({}));
    for path in paths_to_check().iter().take(20) {
        let result = session.call("check", json!({"path": path}));
        assert_eq!(structured(&result), &cli_check(path), "check `{path}`");
    }
    let agent = "protocols/shop-assistant";
    for (tool, arguments) in [
        ("emit", json!({"path": agent, "target": "anthropic"})),
        ("gen", json!({"path": agent, "lang": "python"})),
        (
            "validate",
            json!({"path": agent, "tool": "get-order", "data": "{}"}),
        ),
        ("diff", json!({"path": format!("{agent}/protocol.yaml")})),
    ] {
        let result = session.call(tool, arguments);
        assert_eq!(result["isError"], json!(false), "{tool}: {result}");
    }
    assert_eq!(session.finish(), Some(0));
}

mod properties {
    //! Arbitrary arguments for every tool, called in-process as the
    //! server calls them: each gets a result or a reason, never a panic,
    //! and nothing is written outside the root.
    use super::common;
    use agentc::mcp::roots::Roots;
    use agentc::mcp::tools::TOOLS;
    use proptest::prelude::*;
    use serde_json::{Map, Value, json};

    /// Names the tools take, and some they do not.
    const KEYS: &[&str] = &[
        "path", "text", "files", "config", "targets", "unsafe", "write", "code", "target", "tool",
        "type", "response", "data", "payload", "name", "old", "new", "revision", "lang", "x",
    ];

    /// Strings that mean something to some tool, and noise.
    fn word() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("protocol.yaml".to_string()),
            Just("shop".to_string()),
            Just("shop/protocol.yaml".to_string()),
            Just("../x".to_string()),
            Just("/etc/passwd".to_string()),
            Just("openai".to_string()),
            Just("ts".to_string()),
            Just("run-input".to_string()),
            Just("get-order".to_string()),
            Just("Money".to_string()),
            Just("unknown-type".to_string()),
            Just("HEAD".to_string()),
            Just("{\"orderId\": 1}".to_string()),
            Just("types:\n  A:\n    x:\n      type: strng\n".to_string()),
            Just("tools: [\n".to_string()),
            ".{0,40}",
        ]
    }

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            word().prop_map(Value::String),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(|n| json!(n)),
            Just(Value::Null),
        ];
        leaf.prop_recursive(3, 16, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::btree_map(word(), inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    fn arguments() -> impl Strategy<Value = Value> {
        prop::collection::vec((prop::sample::select(KEYS), value()), 0..5).prop_map(|pairs| {
            let object: Map<String, Value> =
                pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
            Value::Object(object)
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn every_tool_answers_any_arguments(tool in 0..TOOLS.len(), arguments in arguments()) {
            let scratch = common::scratch("mcp-props");
            let shop = scratch.path().join("shop");
            common::copy_dir(&common::root().join("protocols/shop-assistant"), &shop);
            let roots = Roots::new(scratch.path(), Some(vec![scratch.path().to_path_buf()]));
            // Relative paths start at the server's working folder: absolute
            // ones here, so that the test does not change its own.
            let arguments = match arguments {
                Value::Object(mut object) => {
                    if let Some(Value::String(path)) = object.get_mut("path")
                        && !path.starts_with('/') {
                        *path = scratch.path().join(&*path).display().to_string();
                    }
                    Value::Object(object)
                }
                other => other,
            };
            let outcome = (TOOLS[tool].call)(&roots, arguments);
            if let Err(reason) = &outcome {
                prop_assert!(!reason.is_empty());
            }
        }
    }
}
