//! The playground (`playground/`, docs/playground.md) in a real browser:
//! runs `node playground/tests/browser.mjs`, which serves the built page
//! from `target/playground/` on 127.0.0.1 and drives Chromium with the
//! pinned playwright-core: each example agent's OpenAI tools, a mistake
//! typed and its diagnostic, its fix (from the list and from the lint
//! tooltip), validation, a contract diff, share links (and broken or
//! hostile ones), no request off the local server; it prints a keystroke
//! -> diagnostics figure and saves screenshots under
//! `target/playground-screenshots/`.
//!
//! It needs what a fresh clone has not: the page built (`playground/build`,
//! which also installs the npm packages) and Chromium (`$AGENTC_CHROMIUM`,
//! else `/usr/bin/chromium`). Without them it says why and returns, unless
//! `AGENTC_REQUIRE_PLAYGROUND=1` makes that a failure.

mod common;

use common::{client, root};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

/// Far above the seconds a run takes (each wait in the script has its own
/// time-out); this only catches a browser that hangs.
const PATIENCE: Duration = Duration::from_secs(300);

/// What the script needs, or why it cannot run.
fn needs() -> Result<(PathBuf, PathBuf), String> {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|t| if t.is_absolute() { t } else { root().join(t) })
        .unwrap_or_else(|| root().join("target"));
    let site = target.join("playground");
    if !site.join("index.html").is_file() {
        return Err(format!(
            "{} is not built (run playground/build)",
            site.join("index.html").display()
        ));
    }
    if !root()
        .join("playground/node_modules/playwright-core/package.json")
        .is_file()
    {
        return Err("playground/node_modules has no playwright-core (run playground/build)".into());
    }
    let chromium = std::env::var_os("AGENTC_CHROMIUM")
        .filter(|c| !c.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    if !chromium.is_file() {
        return Err(format!(
            "no Chromium at {} (set AGENTC_CHROMIUM)",
            chromium.display()
        ));
    }
    Ok((site, chromium))
}

#[test]
#[ignore = "needs chromium and the playground's npm packages: run playground/build"]
fn playground_works_in_a_browser() {
    let (site, chromium) = match needs() {
        Ok(found) => found,
        Err(reason) => return common::unavailable("AGENTC_REQUIRE_PLAYGROUND", &reason),
    };
    let node = std::env::var("NODE")
        .ok()
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "node".to_string());
    let script = root().join("playground/tests/browser.mjs");
    let mut command = Command::new(&node);
    command
        .arg(&script)
        .current_dir(root())
        .env("AGENTC_PLAYGROUND_DIR", &site)
        .env("AGENTC_CHROMIUM", &chromium);
    let ran = client::run(command, PATIENCE);
    ran.assert_ok(&format!("{node} {}", script.display()));
    assert!(
        ran.stdout.contains("all browser checks passed"),
        "the script ended without its last line:\n{}",
        ran.stdout
    );
    println!("{}", ran.stdout);
}
