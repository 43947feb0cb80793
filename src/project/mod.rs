//! A run over many files (`agentc check` over many paths): which files a
//! run checks, under which configuration ([`config`], `agentc.toml`), and
//! checking them in parallel with the results in path order, whatever the
//! scheduling; then the severities and the `# agentc-ignore` comments
//! ([`suppress`]) applied to what was found.
//!
//! A path is a file (checked as named, even when a configuration excludes
//! it), a folder (searched for the files its configuration includes), or,
//! when no such file exists, a glob (`agents/*/protocol.yaml`, for shells
//! that do not expand it, and on Windows), whose matches are checked unless
//! excluded. Searches skip what git ignores (`.gitignore`, `.ignore`,
//! `.git/info/exclude` and the global excludes, read by ripgrep's `ignore`
//! crate; `--no-ignore` turns that off), hidden folders, `node_modules` and
//! `target`, and never follow a link to a folder. A file a search finds is
//! read only when it lies inside the folder searched ([`Reach::Within`](crate::files::Reach::Within));
//! one named on the command line is read wherever it leads.

#[cfg(feature = "disk")]
pub mod against;
pub mod config;
#[cfg(feature = "disk")]
pub mod generate;
#[cfg(feature = "disk")]
mod run;
pub mod suppress;
#[cfg(feature = "walk")]
mod walk;

#[cfg(feature = "disk")]
pub use run::*;
#[cfg(feature = "walk")]
pub use walk::plan;

use crate::FileReport;
use crate::diagnostic::{Diagnostic, Severity};
use crate::emit::Target;
use config::Config;

/// The contract changes from `old` to `new` (`agentc diff`, `check
/// --against`) as `config` judges them, from `least` severe up; what is not
/// a change (`diff-skipped`) is always kept.
pub fn changes(
    old: &FileReport,
    new: &FileReport,
    base_name: &str,
    config: &Config,
    least: Severity,
) -> Vec<Diagnostic> {
    let rank = |severity: Severity| match severity {
        Severity::Info => 0,
        Severity::Warning => 1,
        Severity::Error => 2,
    };
    let mut found = crate::diff::reports(old, new, base_name, &config.diff);
    config.apply(&mut found);
    found.retain(|d| d.change.is_none() || rank(d.severity) >= rank(least));
    found
}

/// What a check adds to what [`crate::agent::check_in`] found, for the command
/// line and editors alike: the targets' checks, the configured severities,
/// and the protocol's (the first file's) `agentc-ignore` comments.
pub fn finish(files: &mut [FileReport], config: &Config, targets: &[Target]) {
    for file in files.iter_mut() {
        crate::check_targets(file, targets);
        config.apply(&mut file.diagnostics);
    }
    // The protocol's suppressions see the diagnostics as configured (one
    // turned off is not there to silence, so its suppression is unused),
    // and what they report is configured in turn.
    if let Some(protocol) = files.first_mut() {
        suppress::apply(protocol);
        config.apply(&mut protocol.diagnostics);
    }
}
