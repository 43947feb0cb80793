//! The VS Code extension (`editors/vscode/`): compiled with `tsc --strict`,
//! its own tests run under Node against the compiled code (the binary
//! lookup, and a round trip with this build's `agentc lsp`, started as the
//! extension starts it; the registration of `agentc mcp` for the agent
//! mode, against a stand-in for VS Code 1.101's API, and the definition it
//! offers started with this build, answering `initialize`), and packaged with `vsce package`, whose .vsix
//! must hold the compiled extension and its runtime, and nothing of the
//! sources or tests. VS Code itself cannot run here.
//!
//! Needs node, and the extension's packages (`editors/vscode/install`,
//! which `.ci/run` runs), so the test is `#[ignore]`d, and `.ci/run` runs
//! it (`cargo test -- --include-ignored`); run so without them, it says
//! why and returns, unless `AGENTC_REQUIRE_PACKAGING=1`.

mod common;

use common::packaging::{has, scratch, skip, text};
use common::root;
use std::path::Path;
use std::process::Command;

fn extension() -> Option<&'static Path> {
    if !has("node") {
        return None;
    }
    let dir = Box::leak(root().join("editors/vscode").into_boxed_path());
    if !dir.join("node_modules/.bin/tsc").is_file() {
        skip("editors/vscode/node_modules is not installed (run editors/vscode/install)");
        return None;
    }
    Some(dir)
}

fn node_bin(dir: &Path, tool: &str) -> Command {
    let mut command = Command::new(dir.join("node_modules/.bin").join(tool));
    command.current_dir(dir);
    command
}

/// The extension is compiled `strict` (which the test below compiles).
#[test]
fn the_extension_is_compiled_strict() {
    let tsconfig = std::fs::read_to_string(root().join("editors/vscode/tsconfig.json"))
        .expect("tsconfig.json");
    assert!(
        tsconfig.contains("\"strict\": true"),
        "tsconfig.json is not strict"
    );
}

#[test]
#[ignore = "needs node and the extension's packages: editors/vscode/install (CI runs it)"]
fn the_extension_compiles_strict_passes_its_tests_and_packages() {
    let Some(dir) = extension() else { return };
    // One compile at a time: the tests below read its output.
    let compiled = node_bin(dir, "tsc")
        .args(["-p", "."])
        .output()
        .expect("run tsc");
    assert!(compiled.status.success(), "tsc:\n{}", text(&compiled));

    let tested = Command::new("node")
        .args(["--test", "test/"])
        .current_dir(dir)
        .env("AGENTC_TEST_BINARY", env!("CARGO_BIN_EXE_agentc"))
        .output()
        .expect("run node --test");
    let report = text(&tested);
    assert!(tested.status.success(), "node --test:\n{report}");
    assert!(report.contains("# fail 0"), "{report}");
    assert!(
        report.contains("# skipped 0"),
        "a test was skipped:\n{report}"
    );
    for ran in [
        "ok 10 - the definition starts agentc mcp, which answers initialize",
        "ok 11 - initialize, diagnostics as the protocol changes, shutdown",
    ] {
        assert!(report.contains(ran), "{report}");
    }

    let out_folder = scratch("vsix");
    let out = out_folder.path();
    let vsix = out.join("agentc.vsix");
    let packaged = node_bin(dir, "vsce")
        .args(["package", "--out"])
        .arg(&vsix)
        .output()
        .expect("run vsce");
    assert!(
        packaged.status.success(),
        "vsce package:\n{}",
        text(&packaged)
    );
    assert!(!text(&packaged).contains("LICENSE, LICENSE.md, or LICENSE.txt not found"));
    let names = common::packaging::zip_names(&vsix);
    let listing = names.join("\n");
    for wanted in [
        "extension/package.json",
        "extension/out/extension.js",
        "extension/out/binary.js",
        "extension/out/server.js",
        "extension/out/mcp.js",
        "extension/node_modules/vscode-languageclient/node.js",
        "extension/node_modules/vscode-jsonrpc/package.json",
        "extension/LICENSE-MIT",
        "extension/LICENSE-APACHE",
    ] {
        assert!(
            names.iter().any(|n| n == wanted),
            "the .vsix has no {wanted}:\n{listing}"
        );
    }
    for name in &names {
        assert!(
            !name.starts_with("extension/src/")
                && !name.starts_with("extension/test/")
                && !name.starts_with("extension/node_modules/typescript/")
                && !name.starts_with("extension/node_modules/@vscode/vsce/"),
            "the .vsix holds {name}"
        );
    }
    let manifest: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("package.json")).expect("package.json"),
    )
    .expect("json");
    assert_eq!(manifest["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(manifest["main"], "./out/extension.js");
    assert_eq!(
        manifest["contributes"]["mcpServerDefinitionProviders"][0]["id"],
        "agentc"
    );
}
