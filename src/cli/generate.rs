//! `agentc gen`: typed bindings for each protocol found, written to a
//! folder, printed (`--stdout`), or compared with what is on disk
//! (`--check`). The jobs come from the command line (`--lang`, `--out`)
//! or from each `[[gen]]` entry of `agentc.toml`.

use super::args::{FieldCase, GenArgs};
use super::output::say;
use super::output::{broken_configs, exit_code, print, report};
use agentc::Failure;
use agentc::codegen::{Lang, Options};
use agentc::config::absolute;
use agentc::disk;
use agentc::project::generate::{self, Job, Out};
use agentc::project::{self, ConfigChoice, Ignores};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicUsize;

/// Runs `agentc gen`, once or (`--watch`) again on each change.
pub(crate) fn run(args: GenArgs) -> ExitCode {
    match args.watch {
        true => super::watch::run(&args.paths, !args.no_clear, |written| once(&args, written)),
        false => once(&args, &mut Vec::new()),
    }
}

/// One `agentc gen`: exit 2 when the jobs cannot run (no language, a
/// broken configuration, a file it would not overwrite, a path that gives
/// nothing), 1 when a protocol has errors or (`--check`) a file is stale,
/// else 0. The files it writes are added to `written`.
fn once(args: &GenArgs, written: &mut Vec<PathBuf>) -> ExitCode {
    let choice = ConfigChoice::from_flags(args.config.clone(), args.no_config);
    let mut configs = project::Configs::new(choice.clone());
    let here = configs.of(Path::new("."));
    if !configs.broken.is_empty() || !configs.failures.is_empty() {
        return broken_configs(configs.broken, &configs.failures, args.format);
    }
    let options = Options {
        strict: args.strict,
        optional_null: args.optional_null,
        snake_case: args.field_case == FieldCase::Snake,
    };
    let jobs: Vec<Job> = if !args.lang.is_empty() {
        if args.out.is_none() && !args.stdout {
            say!("error: `--lang` needs `--out FOLDER`, or `--stdout`");
            return ExitCode::from(2);
        }
        let out = match &args.out {
            Some(out) if !args.stdout => {
                // The folder named is the user's choice, wherever its links
                // lead; what is written stays inside it.
                if !args.check
                    && let Err(error) = std::fs::create_dir_all(out)
                {
                    say!(
                        "error: `{}` could not be made: {}",
                        out.display(),
                        disk::describe_io(&error)
                    );
                    return ExitCode::from(2);
                }
                Some(Out {
                    shown: out.clone(),
                    within: absolute(out),
                })
            }
            _ => None,
        };
        vec![Job {
            langs: args.lang.clone(),
            options,
            out,
        }]
    } else {
        if here.generate.is_empty() {
            let langs: Vec<&str> = Lang::ALL.iter().map(|l| l.name()).collect();
            say!(
                "error: nothing to generate: give `--lang LANG,... --out FOLDER` (LANG: {}), or add a `[[gen]]` entry to agentc.toml",
                langs.join(", ")
            );
            say!(
                "  help: [[gen]]\n        lang = [\"ts\", \"zod\"]\n        out = \"web/src/agents\""
            );
            return ExitCode::from(2);
        }
        here.generate
            .iter()
            .map(|entry| Job {
                langs: entry.langs.clone(),
                options: entry.options,
                out: (!args.stdout).then(|| Out {
                    shown: shown(&here.gen_folder(entry)),
                    within: here.root().to_path_buf(),
                }),
            })
            .collect()
    };

    let plan = project::plan(&args.paths, choice, Ignores::Respect);
    if !plan.broken_configs.is_empty() || !plan.unreadable_configs.is_empty() {
        return broken_configs(plan.broken_configs, &plan.unreadable_configs, args.format);
    }
    let done = AtomicUsize::new(0);
    let checked = project::check(&plan.files, Some(&[]), &done);
    let generated = generate::generate(
        &plan.files,
        checked,
        &jobs,
        args.check,
        args.paths.is_empty(),
    );
    let mut failures: Vec<Failure> = plan.failures;
    failures.extend(generated.failures);
    let mut reports = generated.reports;
    let (all, orphans, printed) = (generated.files, generated.orphans, generated.printed);
    let mut made = all.len();
    if args.check {
        reports.extend(generate::stale(&all, &regenerate(args)));
        reports.extend(orphans.iter().map(|path| generate::orphan(path)));
    } else if !args.stdout {
        let (count, refused) = generate::write_all(&all);
        made = count;
        failures.extend(refused);
        written.extend(all.iter().filter_map(|output| output.real.clone()));
        for path in &orphans {
            say!(
                "note: `{}` was generated by agentc, but no protocol generates it now; delete it",
                path.display()
            );
        }
    }
    if args.stdout && failures.is_empty() && reports.iter().all(|r| !r.has_errors()) {
        print(&printed);
        return ExitCode::SUCCESS;
    }
    let files = match made {
        1 => "1 file".to_string(),
        n => format!("{n} files"),
    };
    let summary = if args.check {
        format!("checked {files}")
    } else if args.stdout {
        "generated nothing".to_string()
    } else {
        format!("generated {files}")
    };
    let (errors, _) = report(args.format, &reports, &failures, &summary, 50);
    exit_code(!failures.is_empty(), errors, 0, false)
}

/// The command that writes what this run (`--check`) compared: the same
/// protocols, languages, folder, options and configuration, without
/// `--check` and `--format`, each word quoted for a shell.
fn regenerate(args: &GenArgs) -> String {
    let mut words: Vec<String> = vec!["agentc".into(), "gen".into()];
    let path = |p: &Path| p.to_string_lossy().into_owned();
    words.extend(args.paths.iter().map(|p| path(p)));
    if !args.lang.is_empty() {
        let langs: Vec<&str> = args.lang.iter().map(|l| l.name()).collect();
        words.extend(["--lang".into(), langs.join(",")]);
    }
    if let Some(out) = &args.out {
        words.extend(["--out".into(), path(out)]);
    }
    if args.strict {
        words.push("--strict".into());
    }
    if args.optional_null {
        words.push("--optional-null".into());
    }
    if args.field_case == FieldCase::Snake {
        words.extend(["--field-case".into(), "snake".into()]);
    }
    if let Some(config) = &args.config {
        words.extend(["--config".into(), path(config)]);
    }
    if args.no_config {
        words.push("--no-config".into());
    }
    let quoted: Vec<String> = words
        .iter()
        .map(|w| agentc::diagnostic::shell_word(w).into_owned())
        .collect();
    quoted.join(" ")
}

/// `path` as the user would type it: relative to the current folder when
/// it is below it.
fn shown(path: &Path) -> PathBuf {
    let here = absolute(Path::new("."));
    match path.strip_prefix(&here) {
        Ok(relative) => relative.to_path_buf(),
        Err(_) => path.to_path_buf(),
    }
}
