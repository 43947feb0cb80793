//! What `agentc gen` does with the disk: each job's files generated from
//! the protocols a run checked (two that would have one name are a
//! `gen-name-collision`), placed in their folders, written without
//! overwriting what agentc did not generate (`gen-would-overwrite`), or
//! compared with what is there (`gen --check`: `gen-stale`, and the files
//! agentc generated that no protocol generates now).

use super::Planned;
use crate::FileReport;
use crate::codegen::{self, GenFile, Lang, Options};
use crate::config::absolute;
use crate::diagnostic::{Code, Diagnostic, Failure};
use crate::disk::{self, Reach};
use crate::source::Source;
use crate::span::Span;
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

/// One job: these languages, with these options, into this folder.
pub struct Job {
    pub langs: Vec<Lang>,
    pub options: Options,
    /// `None` with `--stdout`.
    pub out: Option<Out>,
}

/// Where a job's files go.
pub struct Out {
    /// The folder as the user sees it (relative to the current folder).
    pub shown: PathBuf,
    /// The folder it must stay in, links resolved: for a `[[gen]]` entry,
    /// its `agentc.toml`'s folder; for `--out`, the folder named.
    pub within: PathBuf,
}

impl Out {
    /// The folder's real path, made when `create` (for writing), checked
    /// to stay inside `within`: a committed link that leads out of the
    /// project is refused, never written or read through.
    pub fn real(&self, create: bool) -> Result<PathBuf, disk::FileError> {
        let absolute = absolute(&self.shown);
        disk::folder_within(&absolute, &self.within, create)
    }
}

/// The most lines of a stale file's diff shown.
const MAX_DIFF_LINES: usize = 200;

/// What generating gave: the reports of protocols that generate nothing
/// (their errors), the failures of the run (two files with one name, a
/// folder that cannot take files), the text to print (jobs without a
/// folder, `--stdout`), every file with its place, and the files agentc
/// generated that no protocol generates now.
pub struct Generated {
    pub reports: Vec<FileReport>,
    pub failures: Vec<Failure>,
    pub printed: String,
    pub files: Vec<Output>,
    pub orphans: Vec<PathBuf>,
}

/// Generates each job's files from the protocols `planned`, as `checked`
/// found them (in the same order). With `check` nothing is made on disk.
/// Orphans are looked for when the run covers `every_protocol`: with paths
/// given, the others' files are not orphans.
pub fn generate(
    planned: &[Planned],
    checked: Vec<Vec<FileReport>>,
    jobs: &[Job],
    check: bool,
    every_protocol: bool,
) -> Generated {
    let mut failures: Vec<Failure> = Vec::new();
    // Protocols with errors generate nothing; their errors are the report.
    let mut reports: Vec<FileReport> = Vec::new();
    // What each job writes: file path (as shown) → (text, the protocol it
    // is from).
    let mut outputs: Vec<BTreeMap<PathBuf, (GenFile, String)>> =
        jobs.iter().map(|_| BTreeMap::new()).collect();
    let mut printed = String::new();
    // A protocol that generated nothing (an error) would generate files
    // that are not known: none of the files on disk is then an orphan.
    let mut incomplete = false;
    for (planned, files) in planned.iter().zip(checked) {
        let mut files = files.into_iter();
        let Some(protocol) = files.next() else {
            continue;
        };
        // `settings.json` names the files (its `slug`): with an error
        // there, what they would be named is not known.
        let settings: Vec<FileReport> = files
            .filter(|f| Path::new(f.source.name()).ends_with("settings.json") && f.has_errors())
            .map(errors_only)
            .collect();
        if protocol.has_errors() || !settings.is_empty() {
            incomplete = true;
            if protocol.has_errors() {
                reports.push(errors_only(protocol));
            }
            reports.extend(settings);
            continue;
        }
        let Some(model) = protocol.sound_model() else {
            incomplete = true;
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
                    incomplete = true;
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
    // Each file's path as shown and, when its folder exists, as it is.
    let mut taken: BTreeMap<PathBuf, usize> = BTreeMap::new();
    for (job, written) in jobs.iter().zip(outputs) {
        let Some(out) = &job.out else {
            continue;
        };
        // Made only to write into: not for `--check`, nor for a job with
        // nothing to write (every protocol in error).
        let create = !check && !written.is_empty();
        let real = match out.real(create) {
            Ok(real) => Some(real),
            Err(disk::FileError::Io(error))
                if !create && error.kind() == std::io::ErrorKind::NotFound =>
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
        for (shown, (file, from)) in written {
            // Two jobs (`[[gen]]` entries) writing one file (`zod` writes
            // the TypeScript types too): once when they agree; when they
            // do not, the first keeps it and the run fails, or `gen` would
            // write the last and `gen --check` compare with the first.
            let real_file = real.as_ref().map(|folder| folder.join(&file.name));
            let earlier = taken
                .get(&shown)
                .or_else(|| real_file.as_ref().and_then(|path| taken.get(path)))
                .copied();
            if let Some(earlier) = earlier {
                if all
                    .get(earlier)
                    .is_some_and(|o: &Output| o.file.text == file.text)
                {
                    continue;
                }
                failures.push(
                    Failure::new(
                        shown.display().to_string(),
                        Code::GenNameCollision,
                        format!(
                            "two `[[gen]]` entries would write `{}` (from `{from}`) differently",
                            shown.display()
                        ),
                    )
                    .with_help("write each language once, or with the same options: give the entries other `out` folders, or take the language out of one"),
                );
                continue;
            }
            taken.insert(shown.clone(), all.len());
            if let Some(path) = &real_file {
                taken.insert(path.clone(), all.len());
            }
            all.push(Output {
                real: real_file,
                folder: real.clone(),
                shown,
                file,
            });
        }
    }
    // Files agentc generated that no protocol generates now (a protocol
    // removed or renamed), when the run covers every protocol and each
    // generated what it does: with paths given, the others' files are not
    // orphans, nor, with a protocol in error, the files it generated.
    let orphans: Vec<PathBuf> = if every_protocol && !incomplete {
        find_orphans(&folders, &all)
    } else {
        Vec::new()
    };
    Generated {
        reports,
        failures,
        printed,
        files: all,
        orphans,
    }
}

/// The errors a configuration or an `agentc-ignore` comment silenced in a
/// protocol, as compiling found them: generated code needs a protocol
/// without errors, whatever `check` was told to show.
fn silenced_errors(protocol: &FileReport) -> FileReport {
    let mut found = errors_only(crate::compile_source(protocol.source.clone()));
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
    let settings = disk::read(&folder.join("settings.json"), Reach::Within(folder)).ok();
    let name = absolute(folder)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned());
    codegen::slug_for(protocol, settings.as_deref(), name.as_deref())
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
pub struct Output {
    /// Its path as the user sees it.
    pub shown: PathBuf,
    /// Its job's folder, real path; `None` when it does not exist
    /// (`--check`).
    pub folder: Option<PathBuf>,
    /// Its real path, in `folder`.
    pub real: Option<PathBuf>,
    pub file: GenFile,
}

/// Writes each file, and says how many it wrote; a file already there
/// that agentc did not generate is not overwritten, and neither is a link
/// or a special file: then nothing is written, so that no file of the run
/// is left beside one it needs and could not write (a zod module beside a
/// user's own `.ts`). Each write is `disk::write` for a file of agentc's
/// own: through a temporary file made in the real folder, never through a
/// link.
pub fn write_all(files: &[Output]) -> (usize, Vec<Failure>) {
    let mut failures = Vec::new();
    let mut writable = Vec::with_capacity(files.len());
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
        writable.push((name, folder, real, output));
    }
    if !failures.is_empty() {
        return (0, failures);
    }
    let mut written = 0;
    for (name, folder, real, output) in writable {
        match disk::write(real, output.file.text.as_bytes(), Reach::Own(folder)) {
            Ok(()) => written += 1,
            Err(error) => failures.push(Failure::new(
                &name,
                Code::InvalidPath,
                format!("`{name}` could not be written: {error}"),
            )),
        }
    }
    (written, failures)
}

/// The files directly in `folders` (each a real path, with the path the
/// user sees) that start with agentc's header and are not among `files`,
/// as the user sees them, sorted. Only regular files are read, never
/// through a link, and only their first line matters.
fn find_orphans(folders: &[(PathBuf, PathBuf)], files: &[Output]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for (folder, shown) in folders {
        let Ok(entries) = disk::list(folder) else {
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
pub fn orphan(path: &Path) -> FileReport {
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
pub fn stale(files: &[Output], command: &str) -> Vec<FileReport> {
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
            format!("`{name}` is not what `agentc gen` writes now: the protocol or the file changed since it was generated"),
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
