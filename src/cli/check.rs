//! `agentc check`: plan the run, check every file (in parallel when there
//! are several), report.

use super::args::{CheckArgs, Format};
use super::output::say;
use super::output::{
    broken_configs, broken_files, exit_code, print, report, timings_table, with_progress,
};
use agentc::Timings;
use agentc::diagnostic::Applicability;
use agentc::emit::Target;
use agentc::project::{self, ConfigChoice, Ignores};
use agentc::render::human;
use agentc::workspace::Fixed;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicUsize;
use std::time::Instant;

/// Runs `agentc check`, once or (`--watch`) again on each change.
pub(crate) fn run(args: CheckArgs) -> ExitCode {
    match args.watch {
        true => super::watch::run(&args.paths, !args.no_clear, |written| {
            once(args.clone(), written, false)
        }),
        false => once(args, &mut Vec::new(), true),
    }
}

/// One `agentc check`: exit 2 when a path or a configuration could not be
/// used, 1 on errors (or warnings with `--deny-warnings`), else 0. The
/// files `--fix` writes are added to `written`. `last`: the process ends
/// after this run (it is not `--watch`).
fn once(args: CheckArgs, written: &mut Vec<PathBuf>, last: bool) -> ExitCode {
    let choice = ConfigChoice::from_flags(args.config, args.no_config);
    let targets: Option<Vec<Target>> = (!args.targets.is_empty()).then_some(args.targets);
    if args.print_config {
        return print_config(&args.paths, choice, targets, args.format);
    }

    let ignores = match args.no_ignore {
        true => Ignores::Search,
        false => Ignores::Respect,
    };
    let plan = project::plan(&args.paths, choice, ignores);
    // A configuration that cannot be used stops the run: checking under
    // another would give answers nobody asked for.
    if !plan.broken_configs.is_empty() || !plan.unreadable_configs.is_empty() {
        return broken_configs(plan.broken_configs, &plan.unreadable_configs, args.format);
    }
    for note in &plan.notes {
        say!("note: {note}");
    }

    let least_sure = match args.unsafe_fixes {
        true => Applicability::Unsafe,
        false => Applicability::Safe,
    };
    if args.diff {
        return print_diff(
            &plan.files,
            targets.as_deref(),
            least_sure,
            args.baseline.as_deref(),
        );
    }

    let started = Instant::now();
    let done = AtomicUsize::new(0);
    let mut failures = plan.failures;
    let mut fixed = (0, 0);
    let mut results = match args.fix {
        false => with_progress(plan.files.len(), &done, || {
            project::check(&plan.files, targets.as_deref(), &done)
        }),
        true => {
            let all = with_progress(plan.files.len(), &done, || {
                project::fix(&plan.files, targets.as_deref(), least_sure, &done)
            });
            let mut results = Vec::with_capacity(all.len());
            for (planned, fixes) in plan.files.iter().zip(all) {
                let refused = project::write_fixes(&fixes);
                written.extend(fixes.files.keys().cloned());
                match refused.is_empty() {
                    true => {
                        fixed.0 += fixes.applied;
                        fixed.1 += fixes.files.len();
                        results.push(fixes.reports);
                    }
                    // What is on disk is what was there, or partly fixed:
                    // report it as it is now.
                    false => {
                        let again = project::check(
                            std::slice::from_ref(planned),
                            targets.as_deref(),
                            &done,
                        );
                        results.extend(again);
                    }
                }
                failures.extend(refused);
            }
            results
        }
    };
    let wall = started.elapsed();

    if let Some(file) = &args.write_baseline {
        return write_baseline(file, results, failures, args.format);
    }
    let applied = project::baseline::apply(&plan.files, &mut results, args.baseline.as_deref());
    // A baseline that cannot be used stops the run, as a broken
    // configuration does.
    if !applied.broken.is_empty() || !applied.failures.is_empty() {
        return broken_files(
            applied.broken,
            &applied.failures,
            args.format,
            "the baseline has problems; nothing was reported",
        );
    }
    let mut unused = applied.unused;
    if args.fix {
        // The entries no problem matched any more, removed from the
        // baseline as `--fix` removes an unused suppression.
        for report in &mut unused {
            let (count, refused) = project::fix_report(report, least_sure);
            written.push(PathBuf::from(report.source.name()));
            if refused.is_empty() && count > 0 {
                fixed.0 += count;
                fixed.1 += 1;
                agentc::workspace::take_fixed(report, least_sure);
            }
            failures.extend(refused);
        }
    }
    if let Some(revision) = &args.against {
        // Each protocol is its folder's first report.
        let mut checked: Vec<_> = plan
            .files
            .iter()
            .zip(results.iter_mut())
            .filter_map(|(planned, files)| {
                let protocol = files.first_mut()?;
                Some((planned.path.clone(), &*planned.config, protocol))
            })
            .collect();
        failures.extend(agentc::project::against::against(
            revision,
            &mut checked,
            args.level.least(),
        ));
    }
    let mut compiled = Vec::new();
    let mut timings = Vec::new();
    for (planned, files) in plan.files.iter().zip(results) {
        timings.push((
            &planned.path,
            files.iter().map(|c| c.timings).sum::<Timings>(),
        ));
        compiled.extend(files);
    }
    // The baseline's own report (its unused entries) is not a file checked.
    let files = count(compiled.len(), "file");
    compiled.extend(unused);
    let (errors, warnings) = report(
        args.format,
        &compiled,
        &failures,
        &format!("checked {files}"),
        args.max_diagnostics,
    );
    if args.timings {
        eprint!("{}", timings_table(&timings, wall));
    }
    if args.fix {
        let (applied, files) = fixed;
        let left = errors + warnings;
        say!(
            "fixed {} in {}; {} {}",
            count(applied, "problem"),
            count(files, "file"),
            count(left, "problem"),
            if left == 1 { "remains" } else { "remain" }
        );
    }
    if last {
        // The process ends now and the system takes its memory back at
        // once: freeing every model, source and report first would be
        // work for nothing (5% of a check's instructions), as rustc and
        // ripgrep know. A watch runs again, and frees.
        std::mem::forget(compiled);
    }
    exit_code(!failures.is_empty(), errors, warnings, args.deny_warnings)
}

/// "1 file", "2 files".
fn count(n: usize, what: &str) -> String {
    match n {
        1 => format!("1 {what}"),
        n => format!("{n} {what}s"),
    }
}

/// `agentc check --diff`: what `--fix` would change, as a unified diff on
/// standard output (inert on a terminal, byte for byte in a pipe, for
/// `git apply`); exit 1 when there is a change, 0 when none.
fn print_diff(
    files: &[project::Planned],
    targets: Option<&[Target]>,
    least_sure: Applicability,
    baseline: Option<&Path>,
) -> ExitCode {
    let done = AtomicUsize::new(0);
    let mut all = with_progress(files.len(), &done, || {
        project::fix(files, targets, least_sure, &done)
    });
    // The baseline's unused entries, as the fixed files leave them.
    let mut reports: Vec<_> = all
        .iter_mut()
        .map(|f| std::mem::take(&mut f.reports))
        .collect();
    let applied = project::baseline::apply(files, &mut reports, baseline);
    if !applied.broken.is_empty() || !applied.failures.is_empty() {
        return broken_files(
            applied.broken,
            &applied.failures,
            Format::Human,
            "the baseline has problems; nothing was compared",
        );
    }
    all.extend(
        applied
            .unused
            .iter()
            .map(|report| Fixed::of_report(report, least_sure)),
    );
    let mut diff = String::new();
    let (mut applied, mut changed) = (0, 0);
    for fixes in &all {
        applied += fixes.applied;
        changed += fixes.files.len();
        for (path, change) in &fixes.files {
            diff.push_str(&change.unified(&path.display().to_string()));
        }
    }
    match std::io::stdout().is_terminal() {
        true => print(&agentc::render::inert(&diff)),
        false => print(&diff),
    }
    let command = match least_sure {
        Applicability::Safe => "agentc check --fix",
        _ => "agentc check --fix --unsafe-fixes",
    };
    say!(
        "`{command}` would fix {} in {}",
        count(applied, "problem"),
        count(changed, "file")
    );
    match changed {
        0 => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    }
}

/// `agentc check --print-config`: the configuration for the first path,
/// with `--target` applied.
fn print_config(
    paths: &[PathBuf],
    choice: ConfigChoice,
    targets: Option<Vec<Target>>,
    format: Format,
) -> ExitCode {
    let mut configs = project::Configs::new(choice);
    let path = paths.first().map_or(Path::new("."), PathBuf::as_path);
    let mut config = (*configs.of(path)).clone();
    if !configs.broken.is_empty() || !configs.failures.is_empty() {
        return broken_configs(configs.broken, &configs.failures, format);
    }
    if let Some(targets) = targets {
        config.targets = targets;
    }
    print(&config.to_toml());
    ExitCode::SUCCESS
}

/// `agentc check --write-baseline FILE`: every problem of the run written
/// to FILE (`-`: standard output), exit 0; a path that could not be
/// checked, or a file that could not be written, is reported (exit 2) and
/// nothing is written.
fn write_baseline(
    file: &Path,
    results: Vec<Vec<agentc::FileReport>>,
    failures: Vec<agentc::diagnostic::Failure>,
    format: Format,
) -> ExitCode {
    let reports: Vec<agentc::FileReport> = results.into_iter().flatten().collect();
    let written = match failures.is_empty() {
        false => Err(failures),
        true if file.as_os_str() == "-" => {
            let text =
                agentc::config::baseline::record(&reports, Path::new("agentc-baseline.toml"));
            print(&text);
            Ok(agentc::config::baseline::totals(&text))
        }
        true => project::baseline::write(file, &reports).map_err(|failure| vec![failure]),
    };
    match written {
        Ok((entries, problems)) => {
            let entries = match entries {
                1 => "1 entry".to_string(),
                n => format!("{n} entries"),
            };
            let problems = match problems {
                1 => "1 problem".to_string(),
                n => format!("{n} problems"),
            };
            let to = match file.as_os_str() == "-" {
                true => "the baseline".to_string(),
                false => file.display().to_string(),
            };
            say!("wrote {to}: {entries}, accepting {problems}");
            ExitCode::SUCCESS
        }
        Err(failures) => {
            report(
                format,
                &[],
                &failures,
                "nothing was written",
                human::DEFAULT_MAX_DIAGNOSTICS,
            );
            ExitCode::from(2)
        }
    }
}
