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

use common::root;
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Far above the second a run takes; the script times out each answer
/// after 10 s by itself, this only catches a client that hangs.
const PATIENCE: Duration = Duration::from_secs(120);

/// The pygls version `requirements.txt` pins.
fn pinned_pygls() -> String {
    let path = root().join("tests/lsp_client/requirements.txt");
    let text = std::fs::read_to_string(&path).expect("read tests/lsp_client/requirements.txt");
    text.lines()
        .find_map(|line| line.trim().strip_prefix("pygls=="))
        .expect("requirements.txt pins pygls")
        .to_string()
}

/// The interpreter to run the client with, or why there is none: pygls is
/// missing, or of another minor version than the one pinned.
fn python() -> Result<String, String> {
    let python = std::env::var("AGENTC_LSP_PYTHON")
        .ok()
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| "python3".to_string());
    let probe = Command::new(&python)
        .args([
            "-c",
            "import importlib.metadata as m, pygls.lsp.client; print(m.version('pygls'))",
        ])
        .output()
        .map_err(|e| format!("cannot run `{python}`: {e}"))?;
    if !probe.status.success() {
        return Err(format!(
            "`{python}` cannot import pygls: {}",
            String::from_utf8_lossy(&probe.stderr)
                .lines()
                .last()
                .unwrap_or("no error printed")
        ));
    }
    let found = String::from_utf8_lossy(&probe.stdout).trim().to_string();
    let pinned = pinned_pygls();
    let minor = |v: &str| v.split('.').take(2).collect::<Vec<_>>().join(".");
    if minor(&found) != minor(&pinned) {
        return Err(format!(
            "`{python}` has pygls {found}; client.py is written for {pinned}"
        ));
    }
    Ok(python)
}

/// Runs `command` to its end or `PATIENCE`, whichever comes first; the
/// exit status (`None` when it was killed), stdout and stderr.
fn run(mut command: Command) -> (Option<std::process::ExitStatus>, String, String) {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the client");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("stdout")));
    let stderr = drain(Box::new(child.stderr.take().expect("stderr")));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for the client") {
            break Some(status);
        }
        if start.elapsed() > PATIENCE {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = stdout.join().expect("read stdout");
    let stderr = stderr.join().expect("read stderr");
    (status, stdout, stderr)
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
    let (status, stdout, stderr) = run(command);
    let ok = status.is_some_and(|s| s.success());
    assert!(
        ok,
        "{python} {} failed ({}):\n--- stdout\n{stdout}\n--- stderr\n{stderr}",
        script.display(),
        match status {
            Some(status) => status.to_string(),
            None => format!("killed after {} s", PATIENCE.as_secs()),
        }
    );
    println!("{stdout}");
}
