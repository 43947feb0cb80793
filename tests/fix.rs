//! `agentc check --fix`: the fixes the fixtures' diagnostics carry, applied
//! (a snapshot of every change, and what each leaves); the rules that keep
//! a fix honest, over real protocols broken at random; and the command,
//! run for real on files in a scratch folder.

mod common;

use agentc::diagnostic::Applicability;
use agentc::{FileReport, Severity, Workspace};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

/// A workspace holding `protocol` (and, for a `protocol.yaml`, its agent
/// folder), by paths relative to the repository's root.
fn workspace_of(protocol: &Path) -> Workspace {
    let root = common::root();
    let mut workspace = Workspace::new();
    let files = match protocol.file_name().is_some_and(|n| n == "protocol.yaml") {
        true => common::every_file_below(protocol.parent().expect("a folder")),
        false => vec![protocol.to_path_buf()],
    };
    for file in files {
        if let (Ok(relative), Ok(text)) = (file.strip_prefix(root), std::fs::read_to_string(&file))
        {
            workspace.insert(relative, text);
        }
    }
    workspace
}

fn errors(reports: &[FileReport], file: &Path) -> Option<usize> {
    reports
        .iter()
        .find(|r| Path::new(r.source.name()) == file)
        .map(|r| r.count(Severity::Error))
}

/// Whether the report of `file` says it could be read as written.
fn parses(reports: &[FileReport], file: &Path) -> bool {
    reports
        .iter()
        .filter(|r| Path::new(r.source.name()) == file)
        .all(|r| r.diagnostics.iter().all(|d| d.code.can_be_silenced()))
}

/// How many bytes of `file` lie past the first problem that stops it from
/// being read, if one does.
fn left_unread(reports: &[FileReport], file: &Path) -> Option<usize> {
    let report = reports
        .iter()
        .find(|r| Path::new(r.source.name()) == file)?;
    let length = report.source.text().len();
    report
        .diagnostics
        .iter()
        .filter(|d| !d.code.can_be_silenced())
        .map(|d| length.saturating_sub(d.span.start as usize))
        .max()
}

/// The rules of `workspace::fix` hold for fixing `path` in `workspace`:
/// each changed file parses (and has no more errors, when it parsed
/// before), or, when it did not parse before, is read further than before
/// (the parser stops at the first of several syntax errors), and fixing
/// the fixed files changes nothing.
fn holds(workspace: &Workspace, path: &Path, least_sure: Applicability) -> Result<(), String> {
    let before = workspace.check_file(path);
    let fixed = workspace.fix(path, least_sure);
    let mut after = workspace.clone();
    for (file, change) in &fixed.files {
        if workspace.get(file) != Some(change.before.as_str()) {
            return Err(format!(
                "{}: `before` is not the file's text",
                file.display()
            ));
        }
        if !parses(&fixed.reports, file) {
            let further = match (
                left_unread(&before, file),
                left_unread(&fixed.reports, file),
            ) {
                (Some(was), Some(now)) => now < was,
                _ => false,
            };
            if !further {
                return Err(format!("{}: a fix left it unparsable", file.display()));
            }
        }
        if parses(&before, file) && errors(&fixed.reports, file) > errors(&before, file) {
            return Err(format!("{}: a fix added an error", file.display()));
        }
        after.insert(file.clone(), change.after.clone());
    }
    if fixed.changed() != (fixed.applied > 0) {
        return Err(format!(
            "{} applied, {} files changed",
            fixed.applied,
            fixed.files.len()
        ));
    }
    let again = after.fix(path, least_sure);
    if again.changed() {
        return Err(format!("fixing again changed {:?}", again.files.keys()));
    }
    Ok(())
}

/// The protocols under `protocols/` that carry problems.
fn broken_fixtures() -> Vec<PathBuf> {
    let root = common::root();
    let mut fixtures = common::files(&root.join("protocols/invalid"), "yaml");
    fixtures.extend(common::files(&root.join("protocols/suppress"), "yaml"));
    fixtures.extend(
        common::files_below(&root.join("protocols/invalid-agents"), "yaml")
            .into_iter()
            .filter(|p| p.file_name().is_some_and(|n| n == "protocol.yaml")),
    );
    fixtures
}

#[test]
fn the_fixtures_safe_fixes_as_a_diff() {
    let root = common::root();
    let mut shown = String::new();
    let mut applied = 0;
    for fixture in broken_fixtures() {
        let relative = fixture.strip_prefix(root).expect("below the root");
        let workspace = workspace_of(&fixture);
        holds(&workspace, relative, Applicability::Safe).unwrap_or_else(|problem| {
            panic!("{}: {problem}", relative.display());
        });
        let fixed = workspace.fix(relative, Applicability::Safe);
        applied += fixed.applied;
        for (file, change) in &fixed.files {
            shown.push_str(&change.unified(&file.display().to_string().replace('\\', "/")));
        }
    }
    // Did-you-mean for types, keys, tools, prompts, references and more,
    // quoting, suppressions: the test cannot pass having fixed nothing.
    assert!(applied >= 20, "{applied} fixes applied");
    common::snapshot_settings().bind(|| insta::assert_snapshot!("fixes", shown));
}

/// What `--unsafe-fixes` adds: for each file the unsafe fixes change
/// further, the diff from its safely fixed text to its text fixed with
/// both.
#[test]
fn the_fixtures_unsafe_fixes_as_a_diff() {
    let root = common::root();
    let mut shown = String::new();
    let mut added = 0;
    for fixture in broken_fixtures() {
        let relative = fixture.strip_prefix(root).expect("below the root");
        let workspace = workspace_of(&fixture);
        holds(&workspace, relative, Applicability::Unsafe).unwrap_or_else(|problem| {
            panic!("{}: {problem}", relative.display());
        });
        let safe = workspace.fix(relative, Applicability::Safe);
        let both = workspace.fix(relative, Applicability::Unsafe);
        for (file, change) in &both.files {
            let safely = safe
                .files
                .get(file)
                .map_or(change.before.as_str(), |c| c.after.as_str());
            if safely == change.after {
                continue;
            }
            added += 1;
            let more = agentc::workspace::Change {
                before: safely.to_string(),
                after: change.after.clone(),
            };
            shown.push_str(&more.unified(&file.display().to_string().replace('\\', "/")));
        }
    }
    // A `responseType` wrapped, names put in their case: the test cannot
    // pass having added nothing.
    assert!(added >= 2, "{added} files changed further");
    common::snapshot_settings().bind(|| insta::assert_snapshot!("fixes-unsafe", shown));
}

#[test]
fn a_fix_is_offered_with_how_sure_it_is_and_the_registry_agrees() {
    // Every fix in the fixtures is as sure as its code says, or a suggestion.
    let root = common::root();
    let mut seen = std::collections::BTreeSet::new();
    for fixture in broken_fixtures() {
        let relative = fixture.strip_prefix(root).expect("below the root");
        for report in workspace_of(&fixture).check_file(relative) {
            for d in &report.diagnostics {
                let Some(fix) = &d.fix else { continue };
                let registered = d.code.fix();
                assert!(
                    registered.is_some(),
                    "{}: `{}` carries a fix the registry does not list",
                    relative.display(),
                    d.code
                );
                assert!(
                    Some(fix.applicability) == registered
                        || fix.applicability == Applicability::Suggestion,
                    "{}: {:?}",
                    relative.display(),
                    fix
                );
                seen.insert(d.code);
            }
        }
    }
    // A baseline's unused entries, found by a check of every protocol.
    let folder = root.join("protocols/baseline");
    let mut workspace = Workspace::new();
    for name in ["orders.yaml", "stale-baseline.toml"] {
        let text = std::fs::read_to_string(folder.join(name)).expect("read the fixture");
        workspace.insert(name, text);
    }
    workspace
        .set_config("include = [\"*.yaml\"]\nbaseline = \"stale-baseline.toml\"\n")
        .map_err(|report| format!("{:?}", report.diagnostics))
        .expect("a configuration");
    for report in workspace.check() {
        for d in report.diagnostics.iter().filter(|d| d.fix.is_some()) {
            assert_eq!(d.code.fix(), Some(Applicability::Safe), "{d:?}");
            seen.insert(d.code);
        }
    }
    // Each code the registry gives a fix has a fixture showing one.
    let unshown: Vec<_> = agentc::Code::ALL
        .iter()
        .filter(|code| code.fix().is_some() && !seen.contains(code))
        .collect();
    assert!(
        unshown.is_empty(),
        "no fixture shows the fix of {unshown:?}"
    );
}

/// A real protocol with `edits` made at places chosen in it: characters
/// dropped, doubled or swapped, as typing does.
fn break_text(text: &str, edits: &[(usize, u8)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for &(at, how) in edits {
        if chars.is_empty() {
            break;
        }
        let at = at % chars.len();
        match how % 4 {
            0 => {
                chars.remove(at);
            }
            1 => chars.insert(at, chars[at]),
            2 if at + 1 < chars.len() => chars.swap(at, at + 1),
            _ => chars.insert(at, 'x'),
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Fixes applied to real protocols broken at random never leave a file
    /// unparsable, never add an error to a file that parsed, and leave
    /// nothing for a second run, at either level.
    #[test]
    fn fixes_to_broken_protocols_never_make_them_worse(
        pick in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<usize>(), any::<u8>()), 1..6),
        unsafe_fixes in any::<bool>(),
    ) {
        let protocols = common::valid_protocols();
        let protocol = pick.get(&protocols);
        let relative = protocol.strip_prefix(common::root()).expect("below the root");
        let mut workspace = workspace_of(protocol);
        let text = workspace.get(relative).expect("the protocol").to_string();
        workspace.insert(relative, break_text(&text, &edits));
        let least_sure = match unsafe_fixes {
            true => Applicability::Unsafe,
            false => Applicability::Safe,
        };
        holds(&workspace, relative, least_sure).map_err(TestCaseError::fail)?;
    }
}

// ---------------------------------------------------------------------------
// The command

fn run(args: &[&str], cwd: &Path) -> std::process::Output {
    common::agentc_in(cwd, args)
}

/// A protocol with one certain typo, one choice and a suppression left
/// unused by the fix.
const TYPOS: &str = "\
agent:
  model: anthropic/claude-sonnet-4-5
  system: greeting
triggers:
  user-message:
    input:
      TEXT:
        type: strng
types:
  Order:
    id:
      type: string
  Orde:
    id:
      type: string
  Cart:
    order:
      type: Ordr # agentc-ignore: property-name-case (none here)
handlers:
  user-message:
    Reply:
      block: next-message
";

#[test]
fn check_fix_writes_the_safe_fixes_and_says_what_remains() {
    let scratch = common::scratch("fix");
    let dir = scratch.path();
    std::fs::write(dir.join("protocol.yaml"), TYPOS).unwrap();
    std::fs::create_dir(dir.join("prompts")).unwrap();
    std::fs::write(dir.join("prompts/greeting.md"), "Hello.\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::Permissions::from_mode(0o640);
        std::fs::set_permissions(dir.join("protocol.yaml"), mode).unwrap();
    }

    // --diff shows the change and writes nothing.
    let diff = run(&["check", "--diff", "protocol.yaml"], dir);
    let shown = common::stdout(&diff);
    assert_eq!(diff.status.code(), Some(1), "{}", common::stderr(&diff));
    assert!(
        shown.starts_with("--- a/protocol.yaml\n+++ b/protocol.yaml\n"),
        "{shown}"
    );
    assert!(
        shown.contains("-        type: strng\n+        type: string\n"),
        "{shown}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("protocol.yaml")).unwrap(),
        TYPOS
    );

    let fixed = run(&["check", "--fix", "protocol.yaml"], dir);
    let said = common::stderr(&fixed);
    assert!(said.contains("fixed 2 problems in 1 file;"), "{said}");
    let text = std::fs::read_to_string(dir.join("protocol.yaml")).unwrap();
    let expected = TYPOS
        .replace("type: strng", "type: string")
        .replace(" # agentc-ignore: property-name-case (none here)", "");
    assert_eq!(text, expected);
    // `Ordr` is as near `Order` as `Orde`: a person chooses.
    assert!(common::stdout(&fixed).contains("did you mean `Order`?"));
    assert_eq!(fixed.status.code(), Some(1));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.join("protocol.yaml"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o640, "a fixed file keeps its permissions");
    }

    // Again: nothing to fix, nothing written.
    let again = run(&["check", "--fix", "protocol.yaml"], dir);
    assert!(common::stderr(&again).contains("fixed 0 problems in 0 files;"));
    assert_eq!(
        std::fs::read_to_string(dir.join("protocol.yaml")).unwrap(),
        text
    );
    let diff = run(&["check", "--diff", "protocol.yaml"], dir);
    assert_eq!(
        (diff.status.code(), common::stdout(&diff).as_str()),
        (Some(0), "")
    );
}

#[cfg(unix)]
#[test]
fn check_fix_never_writes_through_a_link() {
    let scratch = common::scratch("fix");
    let dir = scratch.path().join("agent");
    std::fs::create_dir(&dir).unwrap();
    // The protocol named is a link to a file outside the folder: it is
    // read as named, and its fixes are refused, never written through.
    let outside = scratch.path().join("outside.yaml");
    std::fs::write(&outside, TYPOS).unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("linked.yaml")).unwrap();
    let through = run(&["check", "--fix", "linked.yaml"], &dir);
    let said = common::stdout(&through);
    assert!(said.contains("`linked.yaml` was not fixed"), "{said}");
    assert_eq!(through.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), TYPOS);
    assert!(
        std::fs::symlink_metadata(dir.join("linked.yaml"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    // What is reported is the file as it is: the typo is still there.
    assert!(said.contains("type `strng` is not defined"), "{said}");
}

#[test]
fn check_fix_removes_the_baseline_entries_nothing_matches() {
    let scratch = common::scratch("fix");
    let dir = scratch.path();
    std::fs::write(
        dir.join("a.yaml"),
        "types:\n  A:\n    b_c: { type: string }\n    \"v1.note\": { type: string }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("agentc.toml"),
        "include = [\"*.yaml\"]\nbaseline = \"base.toml\"\n",
    )
    .unwrap();
    let written = run(&["check", "--write-baseline", "base.toml"], dir);
    assert_eq!(
        written.status.code(),
        Some(0),
        "{}",
        common::stderr(&written)
    );
    // The quoted name's path is written with escapes, which the removal
    // of its entry replaces as it is.
    let before = std::fs::read_to_string(dir.join("base.toml")).unwrap();
    assert!(before.contains("[[accepted]]"), "{before}");
    assert!(
        before.contains(r#"path = "types.A.\"v1.note\"""#),
        "{before}"
    );
    // The problems are fixed by hand: their entries accept nothing now.
    std::fs::write(
        dir.join("a.yaml"),
        "types:\n  A:\n    bC: { type: string }\n    v1Note: { type: string }\n",
    )
    .unwrap();
    let fixed = run(&["check", "--fix"], dir);
    assert_eq!(fixed.status.code(), Some(0), "{}", common::stdout(&fixed));
    let said = common::stderr(&fixed);
    assert!(
        said.contains("fixed 2 problems in 1 file; 0 problems remain"),
        "{said}"
    );
    let baseline = std::fs::read_to_string(dir.join("base.toml")).unwrap();
    assert!(!baseline.contains("[[accepted]]"), "{baseline}");
    let again = run(&["check", "--format", "short"], dir);
    assert_eq!(
        (again.status.code(), common::stdout(&again).as_str()),
        (Some(0), "")
    );
}

#[test]
fn check_fix_quotes_a_value_with_a_backslash_in_it() {
    let scratch = common::scratch("fix");
    let dir = scratch.path();
    let text = "tools:\n  get-order:\n    description: Note: see C:\\temp\n";
    std::fs::write(dir.join("bs.yaml"), text).unwrap();
    let fixed = run(&["check", "--no-config", "--fix", "bs.yaml"], dir);
    assert_eq!(fixed.status.code(), Some(0), "{}", common::stdout(&fixed));
    assert_eq!(
        std::fs::read_to_string(dir.join("bs.yaml")).unwrap(),
        "tools:\n  get-order:\n    description: 'Note: see C:\\temp'\n"
    );
}

/// The parser reports the first of several syntax errors: each fix of one
/// shows the next, further down, and `--fix` goes on until none is left
/// (it used to take the second error for the fix's doing, and keep none).
#[test]
fn check_fix_fixes_syntax_errors_one_after_another() {
    let scratch = common::scratch("fix");
    let dir = scratch.path();
    let text = "types:\n  Product:\n    tags: { type: string[] }\n    more: { type: string[] }\ntools:\n  get-order:\n    description: Note: a\n  other:\n    description: Note: b\n";
    std::fs::write(dir.join("several.yaml"), text).unwrap();
    let fixed = run(&["check", "--no-config", "--fix", "several.yaml"], dir);
    assert_eq!(fixed.status.code(), Some(0), "{}", common::stdout(&fixed));
    assert_eq!(
        std::fs::read_to_string(dir.join("several.yaml")).unwrap(),
        "types:\n  Product:\n    tags: { type: \"string[]\" }\n    more: { type: \"string[]\" }\ntools:\n  get-order:\n    description: 'Note: a'\n  other:\n    description: 'Note: b'\n"
    );
    // One that cannot be fixed stops nothing before it: the first is fixed,
    // and the file, which still does not parse, is written so.
    let text = "types:\n  Product:\n    tags: { type: string[] }\n    bad: [\n";
    std::fs::write(dir.join("stuck.yaml"), text).unwrap();
    let fixed = run(&["check", "--no-config", "--fix", "stuck.yaml"], dir);
    assert_eq!(fixed.status.code(), Some(1), "{}", common::stdout(&fixed));
    assert_eq!(
        std::fs::read_to_string(dir.join("stuck.yaml")).unwrap(),
        "types:\n  Product:\n    tags: { type: \"string[]\" }\n    bad: [\n"
    );
}

/// A fix that would make another file of the agent worse is not made: an
/// `enum` value renamed to snake_case that a prompt's condition names as
/// written would leave the prompt comparing against a value that no longer
/// exists.
#[test]
fn a_fix_that_breaks_another_file_of_the_agent_is_not_made() {
    let mut workspace = Workspace::new();
    workspace.insert(
        "agent/protocol.yaml",
        "input:\n  PLAN_TIER:\n    type: string\n    enum: [free, Pro-Plan]\nagent:\n  model: anthropic/claude-sonnet-4-5\n  system: system\n  input: [PLAN_TIER]\ntriggers:\n  user-message:\n    input:\n      USER_MESSAGE: { type: string }\nhandlers:\n  user-message:\n    Respond:\n      block: next-message\n",
    );
    workspace.insert(
        "agent/settings.json",
        r#"{"slug": "agent", "name": "Agent", "format": "interactive"}"#,
    );
    workspace.insert(
        "agent/prompts/system.md",
        "{{#if PLAN_TIER == \"Pro-Plan\"}}pro{{/if}}\n",
    );
    let path = Path::new("agent/protocol.yaml");
    let before = workspace.check_file(path);
    let codes = |reports: &[FileReport]| -> Vec<&'static str> {
        reports
            .iter()
            .flat_map(|r| &r.diagnostics)
            .map(|d| d.code.name())
            .collect()
    };
    assert_eq!(codes(&before), ["enum-value-case"]);
    let fixed = workspace.fix(path, Applicability::Unsafe);
    assert!(!fixed.changed(), "{:?}", fixed.files);
    assert_eq!(codes(&fixed.reports), ["enum-value-case"]);
}

/// A folder whose name is not UTF-8: reports name it with `�`, and the fix
/// is still written to the file it is for, not refused as a link out.
#[cfg(unix)]
#[test]
fn check_fix_writes_in_a_folder_whose_name_is_not_utf8() {
    use std::os::unix::ffi::OsStrExt;
    let scratch = common::scratch("fix");
    let folder = scratch
        .path()
        .join("agents")
        .join(std::ffi::OsStr::from_bytes(b"caf\xff"));
    std::fs::create_dir_all(&folder).unwrap();
    let protocol = folder.join("protocol.yaml");
    std::fs::write(&protocol, "types:\n  Order:\n    id:\n      type: strng\n").unwrap();
    let fixed = run(&["check", "--no-config", "--fix", "agents"], scratch.path());
    let said = common::stdout(&fixed);
    // What remains is the protocol's format (types alone), not a refusal.
    assert_eq!(fixed.status.code(), Some(1), "{said}");
    assert!(!said.contains("was not fixed"), "{said}");
    assert_eq!(
        std::fs::read_to_string(&protocol).unwrap(),
        "types:\n  Order:\n    id:\n      type: string\n"
    );
}
