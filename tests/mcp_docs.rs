//! Where agents find `agentc mcp` stays true to the server:
//! - each client configuration in `docs/mcp.md` (`<!-- snippet: NAME -->`)
//!   parses as its client reads it (JSON with serde_json, TOML with the
//!   `toml` crate), in that client's shape, starts `agentc` with `mcp`, and
//!   that command, run with this build, answers `initialize` as agentc;
//! - the page's table of tools names exactly the tools the server lists,
//!   and its resources and prompts are the server's;
//! - every tool or argument `AGENTS.md` names (a one-word code span) is
//!   one of the server's, and it names the loop's tools.

mod common;

use common::mcp_stdio::{Session, answers_initialize};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::process::Command;

fn page() -> String {
    std::fs::read_to_string(common::root().join("docs/mcp.md")).expect("docs/mcp.md")
}

fn snippet(name: &str) -> String {
    common::snippet("docs/mcp.md", &page(), name)
}

fn server() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_agentc"));
    command.arg("mcp").current_dir(common::root());
    command
}

/// The command and arguments of a JSON server entry.
fn command_of(entry: &Value, what: &str) -> (String, Vec<String>) {
    let command = entry["command"]
        .as_str()
        .unwrap_or_else(|| panic!("{what}: no `command` string: {entry}"))
        .to_string();
    let args = entry["args"]
        .as_array()
        .unwrap_or_else(|| panic!("{what}: no `args` list: {entry}"))
        .iter()
        .map(|a| a.as_str().expect("a string argument").to_string())
        .collect();
    (command, args)
}

fn json_snippet(name: &str) -> Value {
    let text = snippet(name);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: not JSON ({e}):\n{text}"))
}

/// The command each snippet starts, as (snippet, command, arguments).
fn snippet_commands() -> Vec<(&'static str, String, Vec<String>)> {
    let mut commands = Vec::new();

    // Claude Code and Cursor: `mcpServers`; Claude Code's `.mcp.json`
    // takes a `type`, which `claude mcp add` writes as "stdio".
    for name in ["claude-code", "cursor"] {
        let config = json_snippet(name);
        let servers = config["mcpServers"]
            .as_object()
            .unwrap_or_else(|| panic!("{name}: no `mcpServers` object: {config}"));
        assert_eq!(servers.len(), 1, "{name}: {config}");
        let entry = &servers["agentc"];
        if let Some(kind) = entry.get("type") {
            assert_eq!(kind, "stdio", "{name}");
        }
        let (command, args) = command_of(entry, name);
        commands.push((name, command, args));
    }

    // VS Code: `servers`, and each server says its type.
    let config = json_snippet("vscode");
    assert!(config.get("mcpServers").is_none(), "{config}");
    let entry = &config["servers"]["agentc"];
    assert_eq!(entry["type"], "stdio", "vscode: {config}");
    let (command, args) = command_of(entry, "vscode");
    commands.push(("vscode", command, args));

    // Codex: `[mcp_servers.NAME]` with `command` and `args`.
    let text = snippet("codex");
    let config: toml::Table =
        toml::from_str(&text).unwrap_or_else(|e| panic!("codex: not TOML ({e}):\n{text}"));
    let entry = config["mcp_servers"]["agentc"]
        .as_table()
        .unwrap_or_else(|| panic!("codex: no [mcp_servers.agentc]:\n{text}"));
    let command = entry["command"].as_str().expect("command").to_string();
    let args = entry["args"]
        .as_array()
        .expect("args")
        .iter()
        .map(|a| a.as_str().expect("a string argument").to_string())
        .collect();
    commands.push(("codex", command, args));

    // `claude mcp add [options] NAME -- COMMAND ARGS...`
    let text = snippet("claude-code-cli");
    let line = text.trim();
    assert_eq!(text.lines().count(), 1, "{text}");
    let (head, tail) = line
        .split_once(" -- ")
        .unwrap_or_else(|| panic!("no ` -- ` before the command: {line}"));
    let head: Vec<&str> = head.split_whitespace().collect();
    assert_eq!(&head[..3], ["claude", "mcp", "add"], "{line}");
    assert_eq!(head.last(), Some(&"agentc"), "the server's name: {line}");
    let mut words = tail.split_whitespace().map(str::to_string);
    let command = words.next().expect("a command");
    commands.push(("claude-code-cli", command, words.collect()));
    commands
}

#[test]
fn every_snippet_starts_agentc_mcp_and_it_answers() {
    let commands = snippet_commands();
    assert_eq!(commands.len(), 5);
    for (name, command, args) in commands {
        assert_eq!(command, "agentc", "{name}");
        assert_eq!(args, ["mcp"], "{name}");
        // What the client would start, with this build as `agentc`.
        let mut run = Command::new(env!("CARGO_BIN_EXE_agentc"));
        run.args(&args).current_dir(common::root());
        answers_initialize(run);
    }
}

/// The rows of the table "command and arguments": each cell is the inside
/// of a JSON object, and every one ends by running `mcp`.
#[test]
fn every_other_way_to_start_it_runs_mcp() {
    let page = page();
    let rows: Vec<Value> = page
        .lines()
        .filter(|l| l.starts_with('|') && l.contains("\"command\": "))
        .map(|row| {
            let cell = row
                .trim_end_matches('|')
                .rsplit('|')
                .next()
                .expect("a cell");
            let inner = cell.trim().trim_matches('`');
            serde_json::from_str(&format!("{{{inner}}}"))
                .unwrap_or_else(|e| panic!("not JSON ({e}): {row}"))
        })
        .collect();
    assert_eq!(rows.len(), 4, "{rows:?}");
    for row in &rows {
        let (_, args) = command_of(row, "a row");
        assert_eq!(args.last().map(String::as_str), Some("mcp"), "{row}");
    }
    // The PyPI distribution's command is `agentc`, not its name.
    let uvx = rows
        .iter()
        .find(|r| r["command"] == "uvx")
        .expect("a uvx row");
    assert_eq!(
        uvx["args"],
        json!(["--from", "agentc-lint", "agentc", "mcp"])
    );
}

/// What the server lists: its tools with their arguments, its resources
/// (and templates) and its prompts.
struct Listed {
    tools: BTreeSet<String>,
    arguments: BTreeSet<String>,
    resources: BTreeSet<String>,
    prompts: BTreeSet<String>,
}

fn listed() -> Listed {
    let mut session = Session::start(server());
    session.ready();
    let tools = session.request(2, "tools/list", json!({}));
    let resources = session.request(3, "resources/list", json!({}));
    let templates = session.request(4, "resources/templates/list", json!({}));
    let prompts = session.request(5, "prompts/list", json!({}));
    let status = session.close();
    assert!(status.success(), "{status:?}");
    let names = |list: &Value, key: &str, field: &str| -> BTreeSet<String> {
        list[key]
            .as_array()
            .unwrap_or_else(|| panic!("no `{key}` list: {list}"))
            .iter()
            .map(|item| item[field].as_str().expect("a string").to_string())
            .collect()
    };
    let arguments = tools["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .flat_map(|tool| {
            tool["inputSchema"]["properties"]
                .as_object()
                .map(|p| p.keys().cloned().collect::<Vec<_>>())
                .unwrap_or_default()
        })
        .collect();
    // A resource a template stands for (each code's page, under
    // `agentc://codes/{code}`) is named by its template.
    let templates = names(&templates, "resourceTemplates", "uriTemplate");
    let mut uris: BTreeSet<String> = names(&resources, "resources", "uri")
        .into_iter()
        .filter(|uri| {
            !templates.iter().any(|template| {
                let prefix = &template[..template.find('{').unwrap_or(template.len())];
                uri.starts_with(prefix) && uri.len() > prefix.len()
            })
        })
        .collect();
    uris.extend(templates);
    Listed {
        tools: names(&tools, "tools", "name"),
        arguments,
        resources: uris,
        prompts: names(&prompts, "prompts", "name"),
    }
}

/// The code spans of `text`, in order.
fn code_spans(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

#[test]
fn the_page_and_agents_md_name_the_servers_tools() {
    let listed = listed();
    assert!(listed.tools.len() >= 8, "{:?}", listed.tools);

    // The page's table of tools: the first cell of each row.
    let page = page();
    let table: BTreeSet<String> = page
        .split("| tool | input | output |")
        .nth(1)
        .expect("the table of tools")
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|row| {
            let cell = row.split('|').nth(1).expect("a first cell");
            code_spans(cell)[0].to_string()
        })
        .collect();
    assert_eq!(table, listed.tools, "docs/mcp.md's table of tools");
    for uri in listed.resources.iter().chain(&listed.prompts) {
        assert!(
            code_spans(&page).contains(&uri.as_str()),
            "docs/mcp.md does not name `{uri}`"
        );
    }
    for span in code_spans(&page) {
        if span.starts_with("agentc://") {
            assert!(listed.resources.contains(span), "no resource `{span}`");
        }
    }

    // AGENTS.md: every one-word code span is a tool or a tool's argument.
    let agents = std::fs::read_to_string(common::root().join("AGENTS.md")).expect("AGENTS.md");
    let words: BTreeSet<&str> = code_spans(&agents)
        .into_iter()
        .filter(|s| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_' || c == '-')
        })
        .collect();
    for word in &words {
        assert!(
            listed.tools.contains(*word) || listed.arguments.contains(*word),
            "AGENTS.md names `{word}`, which is neither a tool of `agentc mcp` nor an argument of one \
             (tools: {:?})",
            listed.tools
        );
    }
    // The loop it describes: check, fix, validate (and explain).
    for tool in ["check", "fix", "validate", "explain"] {
        assert!(words.contains(tool), "AGENTS.md does not name `{tool}`");
        assert!(listed.tools.contains(tool), "the server has no `{tool}`");
    }
}
