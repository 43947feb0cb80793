//! `agentc lsp` under a language client its authors did not write: pygls'
//! (from PyPI, pinned in `tests/lsp_client/requirements.txt`), driven by
//! `tests/lsp_client/client.py` over stdio against the built binary. It
//! opens `protocols/lsp/client-test.yaml`, which has an error, and checks
//! the published diagnostics against `agentc check --format json`, a hover
//! and go to definition.
//!
//! The interpreter is `$AGENTC_LSP_PYTHON`, else `python3`. A fresh clone
//! has no pygls, so the test is `#[ignore]`d; `.ci/run` installs it into
//! `target/lsp-client-venv` and runs it (`cargo test -- --include-ignored`).
//! Run so without pygls, it says why and returns, unless
//! `AGENTC_REQUIRE_LSP_CLIENT=1` (as `.ci/run` sets) makes that a failure.

mod common;

use common::{client, root};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

/// Far above the second a run takes; the script times out each answer
/// after 10 s by itself, this only catches a client that hangs.
const PATIENCE: Duration = Duration::from_secs(120);

/// The interpreter with the pinned pygls, or why there is none.
fn python() -> Result<String, String> {
    client::python(
        "AGENTC_LSP_PYTHON",
        "pygls",
        "pygls.lsp.client",
        "tests/lsp_client/requirements.txt",
    )
}

#[test]
#[ignore = "needs pygls: AGENTC_LSP_PYTHON, a Python with tests/lsp_client/requirements.txt (CI runs it)"]
fn pygls_client_gets_diagnostics_hover_and_definition() {
    let python = match python() {
        Ok(python) => python,
        Err(reason) => {
            return common::unavailable(
                "AGENTC_REQUIRE_LSP_CLIENT",
                &format!(
                    "{reason} (install tests/lsp_client/requirements.txt, \
                     set AGENTC_LSP_PYTHON)"
                ),
            );
        }
    };
    let script: PathBuf = root().join("tests/lsp_client/client.py");
    let fixture: PathBuf = root().join("protocols/lsp/client-test.yaml");
    let mut command = Command::new(&python);
    command
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_agentc"))
        .arg(&fixture)
        .current_dir(root())
        .env("NO_COLOR", "1");
    let ran = client::run(command, PATIENCE);
    ran.assert_ok(&format!("{python} {}", script.display()));
    println!("{}", ran.stdout);
}
