//! Agent folders: `protocol.yaml` with `settings.json`, `prompts/`,
//! `references/` and `skills/` beside it. The protocol is compiled as a
//! lone file would be; then the files around it are checked against it: the
//! settings, every prompt it names (and the prompts those include), every
//! reference; and each skill folder as `octavus skills sync` reads it.
//!
//! Each file gets its own [`FileReport`], so every diagnostic points into
//! the file it is about. Reading the files ([`Files`]: the disk, memory, an
//! editor's buffers) is separate from
//! checking ([`check`]), which works on text, as an editor has it.

mod frontmatter;
mod prompts;
mod references;
mod settings;
mod skills;
pub mod template;

pub use settings::{Format, Settings};

use crate::FileReport;
use crate::cancel::Cancel;
use crate::clock::Instant;
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::files::{FileError, Reach};
use crate::incremental::Cancelled;
use crate::source::{self, Source};
use std::path::Path;

/// A file of the agent folder, decoded; `problem` says why its text could
/// not be read (not read at all, too large, not UTF-8), in which case the
/// text is empty.
pub struct File {
    pub source: Source,
    pub problem: Option<Diagnostic>,
}

impl File {
    pub fn new(name: &str, bytes: impl Into<Vec<u8>>) -> File {
        let (source, problem) = source::decode(name, bytes);
        File { source, problem }
    }

    /// A file that was not read, reported at its path.
    pub fn unread(name: &str, error: &FileError) -> File {
        File {
            source: Source::new(name, String::new()),
            problem: Some(error.diagnostic(name)),
        }
    }

    /// What `files` gives for `path`, read within `reach`.
    pub fn read(path: &Path, reach: Reach, files: &dyn Files) -> File {
        if let Some(source) = files.source(path, reach) {
            return File {
                source,
                problem: None,
            };
        }
        let name = path.display().to_string();
        match files.read(path, reach) {
            Ok(bytes) => File::new(&name, bytes),
            Err(error) => File::unread(&name, &error),
        }
    }
}

/// A named file under `prompts/` or `references/`: `name` is its path
/// relative to that folder without `.md` (`shared/company-info`).
pub struct Named {
    pub name: String,
    pub file: File,
}

/// A skill folder, `skills/<name>/`: its `SKILL.md` (a file with a
/// `skill-file` problem when there is none) and its `.env`, if any.
pub struct Skill {
    pub skill: File,
    /// Only the names it sets are read; its text is never shown.
    pub env: Option<File>,
}

/// The files of one agent folder.
pub struct AgentFiles {
    pub protocol: File,
    /// `None` when the folder has no `settings.json` (`missing-settings`).
    pub settings: Option<File>,
    /// Sorted by name.
    pub prompts: Vec<Named>,
    /// Sorted by name.
    pub references: Vec<Named>,
    /// The folders under `skills/`, sorted by name.
    pub skills: Vec<Skill>,
    /// Entries that are not files of the agent but were not listed either
    /// (a `prompts/` that links out of the folder), each with its problem.
    pub unlisted: Vec<File>,
}

/// The folders that make a `protocol.yaml` beside them an agent's.
pub const AGENT_FOLDERS: &[&str] = &["prompts", "references", "skills"];

/// A protocol, checked with the files of its agent folder, if any.
pub struct Checked {
    /// The protocol's report.
    pub protocol: FileReport,
    /// The reports of `settings.json`, then of every prompt and every
    /// reference by name, then of what could not be listed; none for a
    /// protocol checked alone.
    pub others: Vec<FileReport>,
    /// What `settings.json` says, when it could be read as [`Settings`].
    pub settings: Option<Settings>,
}

impl Checked {
    /// One report per file: the protocol's first.
    pub fn into_reports(self) -> Vec<FileReport> {
        let mut reports = Vec::with_capacity(1 + self.others.len());
        reports.push(self.protocol);
        reports.extend(self.others);
        reports
    }
}

/// Where the files of an agent folder are read from: the disk
/// (`disk::Disk`, with the `disk` feature), files held in memory
/// ([`crate::workspace::Memory`]), or an editor's buffers laid over either
/// ([`Layered`]).
pub trait Files {
    /// The file's bytes, at most one more than
    /// [`MAX_FILE_BYTES`](crate::source::MAX_FILE_BYTES).
    fn read(&self, path: &Path, reach: Reach) -> Result<Vec<u8>, FileError>;

    /// The file as text already checked and indexed by line, when it is
    /// held so (an editor's buffer, kept up to date change by change):
    /// read without copying it through bytes and indexing it again.
    /// `None` reads it with [`Files::read`].
    fn source(&self, path: &Path, reach: Reach) -> Option<Source> {
        let _ = (path, reach);
        None
    }

    /// The files of the agent folder `dir`, each read through `reader`
    /// (this source, or buffers laid over it); `None` when `dir` is not an
    /// agent folder: a `protocol.yaml` with `settings.json`, or with a
    /// `prompts/`, `references/` or `skills/` folder, beside it. Which
    /// files make up the folder is this source's to say.
    fn agent_folder(&self, dir: &Path, reader: &dyn Files) -> Option<AgentFiles>;
}

/// Text held in memory that stands in for a file of a [`Files`]: an
/// editor's unsaved buffers.
pub trait Buffers {
    /// The text held for `path`, if any.
    fn bytes(&self, path: &Path) -> Option<Vec<u8>>;

    /// The text held for `path` as a [`Source`], when it is held checked
    /// and indexed ([`Files::source`]).
    fn source(&self, path: &Path) -> Option<Source> {
        let _ = path;
        None
    }
}

/// Buffers laid over a file source: a file's text is the buffer's where
/// there is one, else what `under` reads; which files make up an agent
/// folder is `under`'s to say (a buffer for a file not yet saved adds
/// none).
pub struct Layered<'a> {
    pub buffers: &'a dyn Buffers,
    pub under: &'a dyn Files,
}

impl Files for Layered<'_> {
    fn read(&self, path: &Path, reach: Reach) -> Result<Vec<u8>, FileError> {
        match self.buffers.bytes(path) {
            Some(bytes) => Ok(bytes),
            None => self.under.read(path, reach),
        }
    }

    fn source(&self, path: &Path, _reach: Reach) -> Option<Source> {
        self.buffers.source(path)
    }

    fn agent_folder(&self, dir: &Path, reader: &dyn Files) -> Option<AgentFiles> {
        self.under.agent_folder(dir, reader)
    }
}

/// Checks the protocol `file` read from `files`: one named `protocol.yaml`
/// in an agent folder with its folder's settings, prompts, references and
/// skills (with `missing-settings` when the folder has no
/// `settings.json`); any other alone. `reach` is how far reading the
/// protocol itself may go; the files of an agent folder are always read
/// within it. A file that cannot be read is a diagnostic of its own; the
/// rest is checked as usual.
pub fn check_in(files: &dyn Files, file: &Path, reach: Reach) -> Checked {
    to_the_end(check_in_again(files, file, reach, None, Cancel::never()))
}

/// A check never asked to stop ([`Cancel::never`]), so never stopped: the
/// `Err` arm only closes the match.
fn to_the_end(checked: Result<Checked, Cancelled>) -> Checked {
    checked.unwrap_or_else(|cancelled| Checked {
        protocol: crate::compile_source(cancelled.source),
        others: Vec::new(),
        settings: None,
    })
}

/// [`check_in`], compiling the protocol from its compile before an edit
/// ([`crate::compile_again_unless`]), and stopping once `cancel` says so.
pub fn check_in_again(
    files: &dyn Files,
    file: &Path,
    reach: Reach,
    previous: Option<crate::Previous>,
    cancel: &Cancel,
) -> Result<Checked, Cancelled> {
    let dir = file.parent().unwrap_or(Path::new(""));
    let is_protocol = file.file_name().is_some_and(|n| n == "protocol.yaml");
    let started = Instant::now();
    let folder = match is_protocol {
        true => files.agent_folder(dir, files),
        false => None,
    };
    let read = match folder {
        Some(folder) => Read::Folder(Box::new(folder)),
        None => Read::Alone(Box::new(File::read(file, reach, files))),
    };
    let elapsed = started.elapsed();
    let mut checked = check_read_again(file, read, previous, cancel)?;
    checked.protocol.timings.read += elapsed;
    Ok(checked)
}

/// What was read for a protocol: its agent folder's files, or the
/// protocol alone.
pub enum Read {
    Folder(Box<AgentFiles>),
    Alone(Box<File>),
}

/// Checks what was read for the protocol `file`, from the disk or from
/// memory ([`crate::Workspace`]).
pub fn check_read(file: &Path, read: Read) -> Checked {
    to_the_end(check_read_again(file, read, None, Cancel::never()))
}

fn check_read_again(
    file: &Path,
    read: Read,
    previous: Option<crate::Previous>,
    cancel: &Cancel,
) -> Result<Checked, Cancelled> {
    let is_protocol = file.file_name().is_some_and(|n| n == "protocol.yaml");
    let mut checked = match read {
        Read::Folder(files) => check_folder_again(*files, previous, cancel)?,
        Read::Alone(protocol) => Checked {
            protocol: compile(*protocol, previous, cancel)?,
            others: Vec::new(),
            settings: None,
        },
    };
    // A file named `protocol.yaml` is an agent's whole protocol.
    let protocol = &mut checked.protocol;
    if is_protocol
        && let Some(problem) = protocol.model.as_ref().and_then(crate::check::agent_format)
    {
        protocol.diagnostics.push(problem);
        crate::order(&mut protocol.diagnostics);
    }
    Ok(checked)
}

/// The AAP `GET /meta` response for an agent: as its `settings.json`
/// describes it (`agentc emit --target aap --meta`). Without settings (a
/// protocol checked alone) the name and title are empty.
pub fn aap_meta(
    model: &crate::Model,
    settings: Option<&Settings>,
    version: &str,
    diags: &mut Diagnostics,
) -> Result<crate::emit::Output, crate::emit::EmitError> {
    let agent = match settings {
        Some(settings) => settings.aap_meta(version)?,
        None => crate::emit::aap::AgentMeta::new("", "", None, version)?,
    };
    Ok(crate::emit::Output::Json(crate::emit::aap::meta(
        model, agent, diags,
    )))
}

/// The error for an agent folder without `settings.json`, at the start of
/// its protocol: the Octavus CLI reads the agent's slug, name and format
/// from it, and refuses the folder without it.
fn missing_settings() -> Diagnostic {
    Diagnostic::new(
        crate::Code::MissingSettings,
        crate::Span::empty(0),
        "this agent folder has no `settings.json`",
    )
    .with_help("add `settings.json` beside `protocol.yaml` with `slug`, `name` and `format`")
    .with_note(
        "the Octavus CLI (`octavus sync`, `octavus validate`) stops at `settings.json not found`",
    )
}

impl Skill {
    /// A skill folder without `SKILL.md`, at `skill` (the path it would
    /// have).
    pub fn without_skill_file(skill: &str) -> File {
        File {
            source: Source::new(skill, String::new()),
            problem: Some(no_skill_file()),
        }
    }
}

/// The error for a skill folder without `SKILL.md`.
fn no_skill_file() -> Diagnostic {
    Diagnostic::new(
        crate::Code::SkillFile,
        crate::Span::empty(0),
        "this skill folder has no `SKILL.md`",
    )
    .with_help(
        "add `SKILL.md` with a frontmatter of `name` and `description`, or remove the folder",
    )
    .with_note("`octavus skills sync` refuses a skill folder without `SKILL.md`")
}

/// The name a prompt or reference goes by: its path below its folder
/// without the extension, with `/` between folders (`billing/refund`),
/// whether the files are on disk or in memory.
pub(crate) fn name_below(relative: &Path) -> String {
    relative
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// Whether a search goes into the folder `dir`: not a hidden one,
/// `node_modules` or `target`.
pub(crate) fn ordinary_folder(dir: &Path) -> bool {
    let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("");
    !(name.starts_with('.') || name == "node_modules" || name == "target")
}

/// One report per file, in order: the protocol, `settings.json`, then every
/// prompt and every reference, by name. The time spent on the files around
/// the protocol counts as the protocol's check.
pub fn check(files: AgentFiles) -> Vec<FileReport> {
    check_folder(files).into_reports()
}

/// [`check`], keeping the protocol's report apart and what `settings.json`
/// says.
pub fn check_folder(files: AgentFiles) -> Checked {
    to_the_end(check_folder_again(files, None, Cancel::never()))
}

fn check_folder_again(
    files: AgentFiles,
    previous: Option<crate::Previous>,
    cancel: &Cancel,
) -> Result<Checked, Cancelled> {
    let mut protocol = compile(files.protocol, previous, cancel)?;
    let started = Instant::now();
    let mut settings = files.settings.map(FileFindings::new);
    let mut prompts: Vec<FileFindings> =
        files.prompts.into_iter().map(FileFindings::named).collect();
    let mut references: Vec<FileFindings> = files
        .references
        .into_iter()
        .map(FileFindings::named)
        .collect();
    let mut read_settings = None;
    if let Some(model) = &protocol.model {
        read_settings = settings
            .as_mut()
            .and_then(|settings| settings::check(model, &protocol.source, settings));
        prompts::check(
            model,
            &protocol.source,
            &mut protocol.diagnostics,
            &mut prompts,
        );
        references::check(model, &mut protocol.diagnostics, &mut references);
    }
    let mut skills = Vec::with_capacity(files.skills.len());
    let mut env_problems = Vec::new();
    for skill in files.skills {
        let mut report = FileFindings::new(skill.skill);
        // `.env` holds secrets: a problem with it is reported at its name,
        // with none of its text, and only its names are read.
        let env = skill.env.and_then(|env| match env.problem {
            Some(problem) => {
                let name = env.source.name().to_string();
                env_problems.push(FileReport::uncompiled(
                    Source::new(name, String::new()),
                    vec![problem],
                ));
                None
            }
            None => Some(env.source),
        });
        skills::check(&mut report, env.as_ref().map(Source::text));
        skills.push(report);
    }
    if settings.is_none() {
        protocol.diagnostics.push(missing_settings());
    }
    let mut others: Vec<FileReport> = settings.into_iter().map(FileFindings::finish).collect();
    others.extend(prompts.into_iter().map(FileFindings::finish));
    others.extend(references.into_iter().map(FileFindings::finish));
    others.extend(skills.into_iter().map(FileFindings::finish));
    others.extend(env_problems);
    others.extend(
        files
            .unlisted
            .into_iter()
            .map(|f| FileFindings::new(f).finish()),
    );
    for compilation in std::iter::once(&mut protocol).chain(&mut others) {
        crate::order(&mut compilation.diagnostics);
    }
    protocol.timings.check += started.elapsed();
    Ok(Checked {
        protocol,
        others,
        settings: read_settings,
    })
}

fn compile(
    file: File,
    previous: Option<crate::Previous>,
    cancel: &Cancel,
) -> Result<FileReport, Cancelled> {
    match file.problem {
        Some(problem) => Ok(FileReport::uncompiled(file.source, vec![problem])),
        None => crate::compile_again_unless(previous, file.source, cancel),
    }
}

/// A file being checked and what has been found in it.
struct FileFindings {
    name: String,
    source: Source,
    /// The file could not be read as text; its content is not checked.
    unreadable: bool,
    diagnostics: Diagnostics,
}

impl FileFindings {
    fn new(file: File) -> FileFindings {
        FileFindings::with_name(String::new(), file)
    }

    fn named(named: Named) -> FileFindings {
        FileFindings::with_name(named.name, named.file)
    }

    fn with_name(name: String, file: File) -> FileFindings {
        FileFindings {
            name,
            source: file.source,
            unreadable: file.problem.is_some(),
            diagnostics: file.problem.into_iter().collect::<Vec<_>>().into(),
        }
    }

    fn finish(self) -> FileReport {
        FileReport::uncompiled(self.source, self.diagnostics.into_vec())
    }
}
