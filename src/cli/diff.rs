//! `agentc diff OLD NEW`: each version read from a file, an agent folder
//! or git (`project::against`), both compiled, and the contract changes
//! reported on the new one.

use super::args::DiffArgs;
use super::output::{broken_configs, exit_code, report};
use agentc::project::{self, ConfigChoice, against};
use agentc::{Diagnostic, Failure};
use std::path::PathBuf;
use std::process::ExitCode;

/// Runs `agentc diff`: exit 2 when a version cannot be read, 1 on
/// breaking changes (or warnings with `--deny-warnings`), else 0.
pub(crate) fn run(args: DiffArgs) -> ExitCode {
    let (old, new) = (against::load(&args.old), against::load(&args.new));
    let (old, new) = match (old, new) {
        (Ok(old), Ok(new)) => (old, new),
        (old, new) => {
            let failures: Vec<Failure> = [old.err(), new.err()].into_iter().flatten().collect();
            report(
                args.format,
                &[],
                &failures,
                "nothing was compared",
                args.max_diagnostics,
            );
            return ExitCode::from(2);
        }
    };
    let choice = ConfigChoice::from_flags(args.config, args.no_config);
    let mut configs = project::Configs::new(choice);
    let anchor = new.path.clone().unwrap_or_else(|| PathBuf::from("."));
    let config = configs.of(&anchor);
    if !configs.broken.is_empty() || !configs.failures.is_empty() {
        return broken_configs(configs.broken, &configs.failures, args.format);
    }
    let old_report = agentc::compile(&old.name, old.bytes);
    let mut new_report = agentc::compile(&new.name, new.bytes);
    // The new version's own errors stop the diff and are shown; its
    // warnings are `agentc check`'s business.
    new_report.diagnostics.retain(Diagnostic::is_error);
    let changes = agentc::config::changes(
        &old_report,
        &new_report,
        &old.name,
        &config,
        args.level.least(),
    );
    new_report.add(changes.into());
    let (errors, warnings) = report(
        args.format,
        std::slice::from_ref(&new_report),
        &[],
        &format!("compared {} with {}", old.name, new.name),
        args.max_diagnostics,
    );
    exit_code(false, errors, warnings, args.deny_warnings)
}
