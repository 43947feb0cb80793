//! Running a language or MCP client its authors wrote against the built
//! binary (`tests/lsp_client.rs`, `tests/mcp_client.rs`): the Python that
//! has the pinned package, and a run bounded in time.

use super::root;
use std::io::Read;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// The version of `package` that `requirements` (a path below the
/// repository's root) pins with `==`.
pub fn pinned(requirements: &str, package: &str) -> String {
    let path = root().join(requirements);
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let prefix = format!("{package}==");
    text.lines()
        .find_map(|line| line.trim().strip_prefix(prefix.as_str()))
        .unwrap_or_else(|| panic!("{requirements} pins {package}"))
        .to_string()
}

/// The interpreter in `$var` (else `python3`) that imports `module` and
/// has `package` of the minor version `requirements` pins; or why there is
/// none.
pub fn python(
    var: &str,
    package: &str,
    module: &str,
    requirements: &str,
) -> Result<String, String> {
    let python = std::env::var(var)
        .ok()
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| "python3".to_string());
    let probe = Command::new(&python)
        .args([
            "-c",
            &format!("import importlib.metadata as m, {module}; print(m.version('{package}'))"),
        ])
        .output()
        .map_err(|e| format!("cannot run `{python}`: {e}"))?;
    if !probe.status.success() {
        return Err(format!(
            "`{python}` cannot import {module}: {}",
            String::from_utf8_lossy(&probe.stderr)
                .lines()
                .last()
                .unwrap_or("no error printed")
        ));
    }
    let found = String::from_utf8_lossy(&probe.stdout).trim().to_string();
    let pinned = pinned(requirements, package);
    let minor = |v: &str| v.split('.').take(2).collect::<Vec<_>>().join(".");
    if minor(&found) != minor(&pinned) {
        return Err(format!(
            "`{python}` has {package} {found}; the client is written for {pinned}"
        ));
    }
    Ok(python)
}

/// What a bounded run gave: its exit status (`None` when it was killed
/// after `patience`), stdout and stderr.
pub struct Ran {
    pub status: Option<ExitStatus>,
    pub stdout: String,
    pub stderr: String,
    pub patience: Duration,
}

impl Ran {
    /// Fails the test with what was printed unless it exited with 0.
    pub fn assert_ok(&self, what: &str) {
        assert!(
            self.status.is_some_and(|s| s.success()),
            "{what} failed ({}):\n--- stdout\n{}\n--- stderr\n{}",
            match self.status {
                Some(status) => status.to_string(),
                None => format!("killed after {} s", self.patience.as_secs()),
            },
            self.stdout,
            self.stderr
        );
    }
}

/// Runs `command` to its end or `patience`, whichever comes first.
pub fn run(mut command: Command, patience: Duration) -> Ran {
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
        if start.elapsed() > patience {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Ran {
        status,
        stdout: stdout.join().expect("read stdout"),
        stderr: stderr.join().expect("read stderr"),
        patience,
    }
}
