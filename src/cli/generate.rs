//! `agentc gen`: typed bindings for each protocol found, written to a
//! folder, printed (`--stdout`), or compared with what is on disk
//! (`--check`). The jobs come from the command line (`--lang`, `--out`)
//! or from each `[[gen]]` entry of `agentc.toml`.

use super::args::{FieldCase, GenArgs};
use super::output::{broken_configs, print, report};
use agentc::codegen::{self, GenFile, Lang, Options};
use agentc::disk::{self, Reach};
use agentc::project::config::absolute;
use agentc::project::{self, ConfigChoice, Ignores};
use agentc::{Code, Diagnostic, Failure, FileReport, Source, Span};
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicUsize;

/// One job: these languages, with these options, into this folder.
struct Job {
    langs: Vec<Lang>,
    options: Options,
    /// `None` with `--stdout`.
    out: Option<PathBuf>,
}

/// The most lines of a stale file's diff shown.
const MAX_DIFF_LINES: usize = 200;

/// Runs `agentc gen`: exit 2 when the jobs cannot run (no language, a
/// broken configuration, a file it would not overwrite, a path that gives
/// nothing), 1 when a protocol has errors or (`--check`) a file is stale,
/// else 0.
pub(crate) fn run(args: GenArgs) -> ExitCode {
    let choice = match (args.config.clone(), args.no_config) {
        (Some(file), _) => ConfigChoice::File(file),
        (None, true) => ConfigChoice::Defaults,
        (None, false) => ConfigChoice::Nearest,
    };
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
            eprintln!("error: `--lang` needs `--out FOLDER`, or `--stdout`");
            return ExitCode::from(2);
        }
        vec![Job {
            langs: args.lang.clone(),
            options,
            out: if args.stdout { None } else { args.out.clone() },
        }]
    } else {
        if here.generate.is_empty() {
            eprintln!(
                "error: nothing to generate: give `--lang ts,zod --out FOLDER`, or add a `[[gen]]` entry to agentc.toml"
            );
            eprintln!(
                "  help: [[gen]]\n        lang = [\"ts\", \"zod\"]\n        out = \"web/src/agents\""
            );
            return ExitCode::from(2);
        }
        here.generate
            .iter()
            .map(|entry| Job {
                langs: entry.langs.clone(),
                options: entry.options,
                out: if args.stdout {
                    None
                } else {
                    Some(shown(&here.gen_folder(entry)))
                },
            })
            .collect()
    };

    let plan = project::plan(&args.paths, choice, Ignores::Respect);
    if !plan.broken_configs.is_empty() || !plan.unreadable_configs.is_empty() {
        return broken_configs(plan.broken_configs, &plan.unreadable_configs, args.format);
    }
    let done = AtomicUsize::new(0);
    let checked = project::check(&plan.files, Some(&[]), &done);
    let mut failures: Vec<Failure> = plan.failures;
    // Protocols with errors generate nothing; their errors are the report.
    let mut reports: Vec<FileReport> = Vec::new();
    // What each job writes: file path → (text, the protocol it is from).
    let mut outputs: Vec<BTreeMap<PathBuf, (GenFile, String)>> =
        jobs.iter().map(|_| BTreeMap::new()).collect();
    let mut printed = String::new();
    for (planned, files) in plan.files.iter().zip(checked) {
        let Some(protocol) = files.into_iter().next() else {
            continue;
        };
        let Some(model) = protocol.model.as_ref().filter(|_| !protocol.has_errors()) else {
            reports.push(errors_only(protocol));
            continue;
        };
        let slug = slug_of(&planned.path);
        for (job, written) in jobs.iter().zip(outputs.iter_mut()) {
            let source = match &job.out {
                Some(out) => relative(&planned.path, out),
                None => planned.path.display().to_string().replace('\\', "/"),
            };
            match codegen::generate(model, &slug, &source, &job.langs, &job.options) {
                Ok(files) => {
                    for file in files {
                        match &job.out {
                            None => {
                                printed.push_str(&file.text);
                            }
                            Some(out) => {
                                let path = out.join(&file.name);
                                let from = planned.path.display().to_string();
                                if let Some((_, other)) = written.get(&path) {
                                    failures.push(Failure::new(
                                        path.display().to_string(),
                                        Code::GenNameCollision,
                                        format!(
                                            "`{other}` and `{from}` would both be generated as `{}`",
                                            path.display()
                                        ),
                                    ).with_help("give one of the agents another `slug` in its settings.json, or write them to other folders"));
                                    continue;
                                }
                                written.insert(path, (file, from));
                            }
                        }
                    }
                }
                Err(problems) => {
                    let mut report = FileReport::uncompiled(protocol.source.clone(), problems);
                    report.model = None;
                    reports.push(report);
                    break;
                }
            }
        }
    }

    let all: Vec<(PathBuf, GenFile)> = outputs
        .into_iter()
        .flat_map(|written| written.into_iter().map(|(path, (file, _))| (path, file)))
        .collect();
    // Files agentc generated that no protocol generates now (a protocol
    // removed or renamed), when the run covers every protocol: with paths
    // given, the others' files are not orphans.
    let orphans: Vec<PathBuf> = if args.paths.is_empty() {
        let folders: Vec<&PathBuf> = jobs.iter().filter_map(|job| job.out.as_ref()).collect();
        orphans(&folders, &all)
    } else {
        Vec::new()
    };
    if args.check {
        reports.extend(stale(&all));
        reports.extend(orphans.iter().map(|path| orphan(path)));
    } else if !args.stdout {
        failures.extend(write_all(&all));
        for path in &orphans {
            eprintln!(
                "note: `{}` was generated by agentc, but no protocol generates it now; delete it",
                path.display()
            );
        }
    }
    if args.stdout && failures.is_empty() && reports.iter().all(|r| !r.has_errors()) {
        print(&printed);
        return ExitCode::SUCCESS;
    }
    let files = match all.len() {
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
    if !failures.is_empty() {
        ExitCode::from(2)
    } else if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
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

/// A protocol's report with only its errors: what stops generation.
fn errors_only(mut protocol: FileReport) -> FileReport {
    protocol.diagnostics.retain(Diagnostic::is_error);
    protocol
}

/// The name of a protocol's files: `settings.json`'s `slug` beside it,
/// else its folder's name (for `protocol.yaml`) or its own.
fn slug_of(protocol: &Path) -> String {
    let folder = protocol.parent().unwrap_or(Path::new(""));
    let settings = folder.join("settings.json");
    if let Ok(bytes) = disk::read(&settings, Reach::Within(folder))
        && let Ok(value) = serde_json::from_slice::<serde_json::Value>(&bytes)
        && let Some(slug) = value.get("slug").and_then(|s| s.as_str())
    {
        return codegen::slug(slug);
    }
    let name = if protocol.file_name().is_some_and(|n| n == "protocol.yaml") {
        absolute(folder)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
    } else {
        protocol
            .file_stem()
            .map(|n| n.to_string_lossy().into_owned())
    };
    codegen::slug(&name.unwrap_or_default())
}

/// `path` as seen from the folder `from`, `/`-separated: what the header
/// names.
fn relative(path: &Path, from: &Path) -> String {
    let path = absolute(path);
    let from = absolute(from);
    let parts = |p: &Path| -> Vec<String> {
        p.components()
            .filter_map(|c| match c {
                Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
                _ => None,
            })
            .collect()
    };
    let (path, from) = (parts(&path), parts(&from));
    let common = path.iter().zip(&from).take_while(|(a, b)| a == b).count();
    let mut out: Vec<String> = vec!["..".to_string(); from.len() - common];
    out.extend(path[common..].iter().cloned());
    out.join("/")
}

/// Writes each file, creating its folder; a file already there that agentc
/// did not generate is not overwritten.
fn write_all(files: &[(PathBuf, GenFile)]) -> Vec<Failure> {
    let mut failures = Vec::new();
    for (path, file) in files {
        let name = path.display().to_string();
        match std::fs::symlink_metadata(path) {
            Ok(meta) if !meta.is_file() => {
                failures.push(Failure::new(
                    &name,
                    Code::GenWouldOverwrite,
                    format!("`{name}` is not a regular file; agentc writes only its own files"),
                ));
                continue;
            }
            Ok(_) => match disk::read(path, Reach::Named) {
                Ok(bytes) if codegen::is_generated(&String::from_utf8_lossy(&bytes)) => {}
                Ok(_) => {
                    failures.push(
                        Failure::new(
                            &name,
                            Code::GenWouldOverwrite,
                            format!("`{name}` was not generated by agentc, so it is not overwritten"),
                        )
                        .with_help("move it away, or write the bindings to another folder; agentc overwrites only files whose first line says `Code generated by agentc`"),
                    );
                    continue;
                }
                Err(error) => {
                    failures.push(Failure::new(
                        &name,
                        Code::GenWouldOverwrite,
                        format!("`{name}` could not be read, so it is not overwritten: {error}"),
                    ));
                    continue;
                }
            },
            Err(_) => {}
        }
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| {
                // Written beside, then renamed over: a reader never sees half.
                let temporary = path.with_extension("agentc-tmp");
                std::fs::write(&temporary, &file.text)?;
                std::fs::rename(&temporary, path)
            });
        if let Err(error) = written {
            failures.push(Failure::new(
                &name,
                Code::InvalidPath,
                format!(
                    "`{name}` could not be written: {}",
                    disk::describe_io(&error)
                ),
            ));
        }
    }
    failures
}

/// The files directly in `folders` that start with agentc's header and are
/// not among `files`, sorted. Only regular files are read, and only their
/// first line.
fn orphans(folders: &[&PathBuf], files: &[(PathBuf, GenFile)]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut seen: Vec<&PathBuf> = Vec::new();
    for &folder in folders {
        if seen.contains(&folder) {
            continue;
        }
        seen.push(folder);
        let Ok(entries) = std::fs::read_dir(folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            // Named as one of the languages names its files.
            let ours = path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|name| {
                    Lang::ALL
                        .iter()
                        .any(|lang| name.ends_with(&lang.file_name("")))
                });
            let regular = entry.file_type().is_ok_and(|t| t.is_file());
            if !ours || !regular || files.iter().any(|(p, _)| *p == path) {
                continue;
            }
            if let Ok(bytes) = disk::read(&path, Reach::Within(folder))
                && codegen::is_generated(&String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]))
            {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// A `gen-stale` for a generated file no protocol generates now.
fn orphan(path: &Path) -> FileReport {
    let name = path.display().to_string();
    let diagnostic = Diagnostic::new(
        Code::GenStale,
        Span::empty(0),
        format!("`{name}` was generated by agentc, but no protocol generates it now"),
    )
    .with_help("delete it: the protocol it was generated from was removed or renamed");
    FileReport::uncompiled(Source::new(&name, ""), vec![diagnostic])
}

/// A `gen-stale` for each file whose text on disk is not what agentc
/// generates now, with the difference.
fn stale(files: &[(PathBuf, GenFile)]) -> Vec<FileReport> {
    let mut reports = Vec::new();
    for (path, file) in files {
        let name = path.display().to_string();
        let on_disk = match disk::read(path, Reach::Named) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).replace("\r\n", "\n"),
            Err(_) => {
                let diagnostic = Diagnostic::new(
                    Code::GenStale,
                    Span::empty(0),
                    format!("`{name}` does not exist: `agentc gen` would write it"),
                )
                .with_help("run `agentc gen` and commit the result");
                reports.push(FileReport::uncompiled(
                    Source::new(&name, ""),
                    vec![diagnostic],
                ));
                continue;
            }
        };
        if on_disk == file.text {
            continue;
        }
        let diff = similar::TextDiff::from_lines(&on_disk, &file.text);
        let unified = diff
            .unified_diff()
            .context_radius(2)
            .header(
                &format!("{name} (committed)"),
                &format!("{name} (generated now)"),
            )
            .to_string();
        let lines: Vec<&str> = unified.lines().collect();
        let mut shown = lines[..lines.len().min(MAX_DIFF_LINES)].join("\n");
        if lines.len() > MAX_DIFF_LINES {
            shown.push_str(&format!(
                "\n... {} more lines",
                lines.len() - MAX_DIFF_LINES
            ));
        }
        let diagnostic = Diagnostic::new(
            Code::GenStale,
            Span::empty(0),
            format!("`{name}` is not what `agentc gen` writes now: the protocol changed since it was generated"),
        )
        .with_help("run `agentc gen` and commit the result")
        .with_note(format!("the difference:\n{shown}"));
        reports.push(FileReport::uncompiled(
            Source::new(&name, on_disk),
            vec![diagnostic],
        ));
    }
    reports
}
