//! `agentc mcp` under MCP clients its authors did not write.
//!
//! The official MCP Python SDK's client (`mcp` from PyPI, pinned in
//! `tests/mcp_client/requirements.txt`), driven by
//! `tests/mcp_client/client.py` over stdio against the built binary, run
//! from the repository's root: initialize, the lists, the prompt, each
//! tool on a clean protocol and a broken one compared with what the CLI
//! prints, every resource, and the roots a client declares. The SDK checks
//! each result's `structuredContent` against the tool's `outputSchema`
//! itself; the script shows that check is on.
//!
//! The interpreter is `$AGENTC_MCP_PYTHON`, else `python3`. A fresh clone
//! has no `mcp`, so the test is `#[ignore]`d; `.ci/run` installs it into
//! `target/mcp-client-venv` and runs it (`cargo test -- --include-ignored`).
//! Run so without it, it says why and returns, unless
//! `AGENTC_REQUIRE_MCP_CLIENT=1` (as `.ci/run` sets) makes that a failure.
//!
//! Then the MCP inspector's CLI (`@modelcontextprotocol/inspector-cli`,
//! pinned in `tests/conformance/package.json`, installed by
//! `tests/conformance/install`) lists the tools, the resources and the
//! prompts, and calls `check`; `AGENTC_REQUIRE_MCP_INSPECTOR=1` makes its
//! absence a failure.

mod common;

use common::{client, root};
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

/// Far above the seconds a run takes; the script times out each answer
/// by itself, this only catches a client that hangs.
const PATIENCE: Duration = Duration::from_secs(300);

/// The interpreter with the pinned `mcp`, or why there is none.
fn python() -> Result<String, String> {
    client::python(
        "AGENTC_MCP_PYTHON",
        "mcp",
        "mcp.client.stdio",
        "tests/mcp_client/requirements.txt",
    )
}

#[test]
#[ignore = "needs the MCP Python SDK: AGENTC_MCP_PYTHON, a Python with tests/mcp_client/requirements.txt (CI runs it)"]
fn python_sdk_client_calls_every_tool_and_reads_every_resource() {
    let python = match python() {
        Ok(python) => python,
        Err(reason) => {
            return common::unavailable(
                "AGENTC_REQUIRE_MCP_CLIENT",
                &format!(
                    "{reason} (install tests/mcp_client/requirements.txt, \
                     set AGENTC_MCP_PYTHON)"
                ),
            );
        }
    };
    let script: PathBuf = root().join("tests/mcp_client/client.py");
    let mut command = Command::new(&python);
    command
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_agentc"))
        .current_dir(root())
        .env("NO_COLOR", "1");
    let ran = client::run(command, PATIENCE);
    ran.assert_ok(&format!("{python} {}", script.display()));
    println!("{}", ran.stdout);
}

/// The Node.js binary: `$NODE`, else `node`.
fn node() -> String {
    std::env::var("NODE")
        .ok()
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "node".to_string())
}

/// The inspector CLI's `build/` folder in `tests/conformance/node_modules`,
/// or why it cannot run.
fn inspector() -> Result<PathBuf, String> {
    let build =
        root().join("tests/conformance/node_modules/@modelcontextprotocol/inspector-cli/build");
    if !build.join("index.js").is_file() {
        return Err(format!(
            "{} is not installed (tests/conformance/install)",
            common::display(&build)
        ));
    }
    match Command::new(node()).arg("--version").output() {
        Ok(out) if out.status.success() => Ok(build),
        _ => Err(format!("no Node.js (`{}`)", node())),
    }
}

/// `node index.js AGENTC mcp --method METHOD EXTRA...` as the inspector's
/// CLI runs it, its JSON output.
///
/// It runs in the CLI's own `build/` folder: 1.0.3 reads its name and
/// version from `../package.json` when that exists relative to the working
/// folder, else from `../../package.json` relative to its module, which is
/// there only inside `@modelcontextprotocol/inspector`. The server inherits
/// that folder as its working folder, hence its root: this test reads no
/// protocol from disk.
fn inspect(build: &std::path::Path, method: &str, extra: &[&str]) -> Value {
    let mut command = Command::new(node());
    command
        .arg(build.join("index.js"))
        .arg(env!("CARGO_BIN_EXE_agentc"))
        .arg("mcp")
        .args(["--method", method])
        .args(extra)
        .current_dir(build)
        .env("NO_COLOR", "1");
    let ran = client::run(command, PATIENCE);
    ran.assert_ok(&format!("the inspector's CLI --method {method}"));
    serde_json::from_str(&ran.stdout)
        .unwrap_or_else(|e| panic!("--method {method} printed no JSON ({e}):\n{}", ran.stdout))
}

#[test]
#[ignore = "needs the MCP inspector's CLI: tests/conformance/install and Node.js (CI runs it)"]
fn inspector_cli_lists_the_tools_and_calls_check() {
    let build = match inspector() {
        Ok(build) => build,
        Err(reason) => return common::unavailable("AGENTC_REQUIRE_MCP_INSPECTOR", &reason),
    };

    let listed = inspect(&build, "tools/list", &[]);
    let tools = listed["tools"].as_array().expect("tools/list gives tools");
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(
        names,
        [
            "check", "fix", "explain", "emit", "validate", "diff", "gen", "schema"
        ]
    );
    for tool in tools {
        for schema in ["inputSchema", "outputSchema"] {
            assert_eq!(tool[schema]["type"], "object", "{}: {schema}", tool["name"]);
        }
    }

    let resources = inspect(&build, "resources/list", &[]);
    let uris: Vec<&str> = resources["resources"]
        .as_array()
        .expect("resources/list gives resources")
        .iter()
        .filter_map(|r| r["uri"].as_str())
        .collect();
    assert!(uris.contains(&"agentc://codes") && uris.contains(&"agentc://codes/unknown-type"));

    let prompts = inspect(&build, "prompts/list", &[]);
    assert_eq!(prompts["prompts"][0]["name"], "new-tool");

    // The TypeScript SDK's client checks structuredContent against the
    // outputSchema of the tools/list it ran first (Ajv): this call passes
    // only when the result fits.
    let text = "types:\n  A:\n    x:\n      type: strng\n";
    let called = inspect(
        &build,
        "tools/call",
        &[
            "--tool-name",
            "check",
            "--tool-arg",
            &format!("text={text}"),
        ],
    );
    assert_eq!(called["isError"], false, "{called:#}");
    let report = &called["structuredContent"];
    let codes: Vec<&str> = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect();
    assert!(codes.contains(&"unknown-type"), "{report:#}");
    assert_eq!(report["summary"]["errors"], codes.len(), "{report:#}");
    let content: Value = serde_json::from_str(
        called["content"][0]["text"]
            .as_str()
            .expect("content[0] is text"),
    )
    .expect("content[0] is JSON");
    assert_eq!(&content, report);

    // A path outside the server's working folder (its one root).
    let refused = inspect(
        &build,
        "tools/call",
        &["--tool-name", "check", "--tool-arg", "path=/etc/passwd"],
    );
    assert_eq!(refused["isError"], true, "{refused:#}");
}
