//! `agentc gen`: typed bindings for each protocol found, written to a
//! folder, printed (`--stdout`), or compared with what is on disk
//! (`--check`). The jobs come from the command line (`--lang`, `--out`)
//! or from each `[[gen]]` entry of `agentc.toml`.

use super::args::{FieldCase, GenArgs};
use super::output::say;
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
    out: Option<Out>,
}

/// Where a job's files go.
struct Out {
    /// The folder as the user sees it (relative to the current folder).
    shown: PathBuf,
    /// The folder it must stay in, links resolved: for a `[[gen]]` entry,
    /// its `agentc.toml`'s folder; for `--out`, the folder named.
    within: PathBuf,
}

impl Out {
    /// The folder's real path, made when `create` (for writing), checked
    /// to stay inside `within`: a committed link that leads out of the
    /// project is refused, never written or read through.
    fn real(&self, create: bool) -> Result<PathBuf, disk::FileError> {
        let absolute = absolute(&self.shown);
        disk::folder_within(&absolute, &self.within, create)
    }
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
    let mut failures: Vec<Failure> = plan.failures;
    // Protocols with errors generate nothing; their errors are the report.
    let mut reports: Vec<FileReport> = Vec::new();
    // What each job writes: file path (as shown) → (text, the protocol it
    // is from).
    let mut outputs: Vec<BTreeMap<PathBuf, (GenFile, String)>> =
        jobs.iter().map(|_| BTreeMap::new()).collect();
    let mut printed = String::new();
    for (planned, files) in plan.files.iter().zip(checked) {
        let Some(protocol) = files.into_iter().next() else {
            continue;
        };
        if protocol.has_errors() {
            reports.push(errors_only(protocol));
            continue;
        }
        let Some(model) = protocol.sound_model() else {
            reports.push(silenced_errors(&protocol));
            continue;
        };
        let slug = slug_of(&planned.path);
        for (job, written) in jobs.iter().zip(outputs.iter_mut()) {
            let source = match &job.out {
                Some(out) => relative(&planned.path, &out.shown),
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
                                let path = out.shown.join(&file.name);
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

    // Each job's files, in the job's real folder; a folder that leads out
    // of where it must stay is a failure, and nothing of that job is read
    // or written.
    let mut all: Vec<Output> = Vec::new();
    // Each real folder, with the folder as the user sees it.
    let mut folders: Vec<(PathBuf, PathBuf)> = Vec::new();
    for (job, written) in jobs.iter().zip(outputs) {
        let Some(out) = &job.out else {
            continue;
        };
        let real = match out.real(!args.check) {
            Ok(real) => Some(real),
            Err(disk::FileError::Io(error))
                if args.check && error.kind() == std::io::ErrorKind::NotFound =>
            {
                None
            }
            Err(error) => {
                let name = out.shown.display().to_string();
                failures.push(
                    Failure::new(
                        &name,
                        Code::InvalidPath,
                        format!("`{name}` cannot take generated files: {error}"),
                    )
                    .with_help("`out` must be a folder inside the project; agentc does not write or read through a link that leads out of it"),
                );
                continue;
            }
        };
        if let Some(real) = &real
            && !folders.iter().any(|(folder, _)| folder == real)
        {
            folders.push((real.clone(), out.shown.clone()));
        }
        all.extend(written.into_iter().map(|(shown, (file, _))| Output {
            real: real.as_ref().map(|folder| folder.join(&file.name)),
            folder: real.clone(),
            shown,
            file,
        }));
    }
    // Files agentc generated that no protocol generates now (a protocol
    // removed or renamed), when the run covers every protocol: with paths
    // given, the others' files are not orphans.
    let orphans: Vec<PathBuf> = if args.paths.is_empty() {
        orphans(&folders, &all)
    } else {
        Vec::new()
    };
    if args.check {
        reports.extend(stale(&all, &regenerate(&args)));
        reports.extend(orphans.iter().map(|path| orphan(path)));
    } else if !args.stdout {
        failures.extend(write_all(&all));
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

/// The errors a configuration or an `agentc-ignore` comment silenced in a
/// protocol, as compiling found them: generated code needs a protocol
/// without errors, whatever `check` was told to show.
fn silenced_errors(protocol: &FileReport) -> FileReport {
    let mut found = errors_only(agentc::compile_source(protocol.source.clone()));
    for diagnostic in &mut found.diagnostics {
        diagnostic.notes.push(
            "agentc.toml or an `agentc-ignore` comment silences this for `agentc check`, but `agentc gen` writes code only for a protocol without errors".to_string(),
        );
    }
    found.model = None;
    found
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

/// A generated file and where it goes.
struct Output {
    /// Its path as the user sees it.
    shown: PathBuf,
    /// Its job's folder, real path; `None` when it does not exist
    /// (`--check`).
    folder: Option<PathBuf>,
    /// Its real path, in `folder`.
    real: Option<PathBuf>,
    file: GenFile,
}

/// Writes each file; a file already there that agentc did not generate is
/// not overwritten, and neither is a link or a special file. Each write is
/// `disk::write` for a file of agentc's own: through a temporary file made
/// in the real folder, never through a link.
fn write_all(files: &[Output]) -> Vec<Failure> {
    let mut failures = Vec::new();
    for output in files {
        let name = output.shown.display().to_string();
        let (Some(folder), Some(real)) = (&output.folder, &output.real) else {
            continue;
        };
        let refused = |message: String| Failure::new(&name, Code::GenWouldOverwrite, message);
        match disk::read(real, Reach::Own(folder)) {
            Ok(bytes) if codegen::is_generated(&String::from_utf8_lossy(&bytes)) => {}
            Ok(_) => {
                failures.push(
                    refused(format!("`{name}` was not generated by agentc, so it is not overwritten"))
                        .with_help("move it away, or write the bindings to another folder; agentc overwrites only files whose first line says `Code generated by agentc`"),
                );
                continue;
            }
            Err(disk::FileError::Io(error)) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => {
                failures.push(
                    refused(format!("`{name}` is not overwritten: {error}"))
                        .with_help("agentc writes only its own regular files; remove what is there, and run `agentc gen` again"),
                );
                continue;
            }
        }
        if let Err(error) = disk::write(real, output.file.text.as_bytes(), Reach::Own(folder)) {
            failures.push(Failure::new(
                &name,
                Code::InvalidPath,
                format!("`{name}` could not be written: {error}"),
            ));
        }
    }
    failures
}

/// The files directly in `folders` (each a real path, with the path the
/// user sees) that start with agentc's header and are not among `files`,
/// as the user sees them, sorted. Only regular files are read, never
/// through a link, and only their first line matters.
fn orphans(folders: &[(PathBuf, PathBuf)], files: &[Output]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for (folder, shown) in folders {
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
            if !ours || !regular || files.iter().any(|o| o.real.as_ref() == Some(&path)) {
                continue;
            }
            if let Ok(bytes) = disk::read(&path, Reach::Own(folder))
                && codegen::is_generated(&String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]))
            {
                found.push(shown.join(entry.file_name()));
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
/// generates now, with the difference. A file is read only as the regular
/// file agentc would write, never through a link: a link in its place is
/// stale, and what it leads to is never shown.
fn stale(files: &[Output], command: &str) -> Vec<FileReport> {
    let write_it = format!("run `{command}` and commit the result");
    let mut reports = Vec::new();
    for output in files {
        let name = output.shown.display().to_string();
        let problem = |message: String, help: String| {
            let diagnostic =
                Diagnostic::new(Code::GenStale, Span::empty(0), message).with_help(help);
            FileReport::uncompiled(Source::new(&name, ""), vec![diagnostic])
        };
        let read = match (&output.folder, &output.real) {
            (Some(folder), Some(real)) => disk::read(real, Reach::Own(folder)),
            _ => Err(disk::FileError::Io(std::io::ErrorKind::NotFound.into())),
        };
        let on_disk = match read {
            Ok(bytes) => String::from_utf8_lossy(&bytes).replace("\r\n", "\n"),
            Err(disk::FileError::Io(error)) if error.kind() == std::io::ErrorKind::NotFound => {
                reports.push(problem(
                    format!("`{name}` does not exist: `agentc gen` would write it"),
                    write_it.clone(),
                ));
                continue;
            }
            Err(error) => {
                reports.push(problem(
                    format!("`{name}` is not what `agentc gen` writes: {error}"),
                    format!("remove it, run `{command}` and commit the file it writes"),
                ));
                continue;
            }
        };
        let file = &output.file;
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
        .with_help(write_it.clone())
        .with_note(format!("the difference:\n{shown}"));
        reports.push(FileReport::uncompiled(
            Source::new(&name, on_disk),
            vec![diagnostic],
        ));
    }
    reports
}
