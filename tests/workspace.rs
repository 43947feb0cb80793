//! `Workspace` holds files in memory; what it finds is what the disk path
//! (`disk::check_path`, which `agentc check` and the language server take)
//! finds: for every agent folder and lone protocol under `protocols/`, the
//! same reports, file by file, each diagnostic with its code, severity,
//! span, message, help and fix.

mod common;

use agentc::config::{self, Config};
use agentc::disk::Reach;
use agentc::render::human::{self, Style};
use agentc::{FileReport, Workspace};
use std::path::{Path, PathBuf};

/// What a report says, to compare.
fn said(reports: &[FileReport]) -> Vec<String> {
    reports
        .iter()
        .flat_map(|report| {
            let name = report.source.name().to_string();
            report.diagnostics.iter().map(move |d| {
                format!(
                    "{name} {} {:?} {} {} {:?} {:?}",
                    d.code.name(),
                    d.severity,
                    d.span,
                    d.message,
                    d.help,
                    d.fix
                )
            })
        })
        .chain(reports.iter().map(|r| format!("file {}", r.source.name())))
        .collect()
}

/// The files of `folder`, below the repository's root, as text; `None`
/// when one is not text (the disk reports it; a workspace holds text).
fn load(root: &Path, folder: &Path, workspace: &mut Workspace) -> Option<()> {
    for file in common::every_file_below(&root.join(folder)) {
        let relative = file.strip_prefix(root).ok()?.to_path_buf();
        let text = String::from_utf8(std::fs::read(&file).ok()?).ok()?;
        workspace.insert(relative, text);
    }
    Some(())
}

#[test]
fn a_workspace_finds_what_the_disk_finds() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    std::env::set_current_dir(&root).expect("the repository's folder");
    let mut protocols: Vec<PathBuf> = common::files_below(&root.join("protocols"), "yaml")
        .into_iter()
        .filter(|p| !p.components().any(|c| c.as_os_str() == "invalid"))
        .filter_map(|p| p.strip_prefix(&root).ok().map(Path::to_path_buf))
        .collect();
    protocols.sort();
    let mut compared = 0;
    for protocol in &protocols {
        let folder = protocol.parent().unwrap_or(Path::new(""));
        let mut workspace = Workspace::new();
        let is_agent = protocol.file_name().is_some_and(|n| n == "protocol.yaml");
        let loaded = match is_agent {
            true => load(&root, folder, &mut workspace),
            false => std::fs::read_to_string(root.join(protocol))
                .ok()
                .map(|text| workspace.insert(protocol.clone(), text)),
        };
        if loaded.is_none() {
            continue;
        }
        let mut on_disk = agentc::disk::check_path(protocol, Reach::Named);
        let config = Config::defaults(&root);
        config::finish(&mut on_disk, &config, &config.targets);
        let in_memory = workspace.check_file(protocol);
        assert_eq!(
            said(&in_memory),
            said(&on_disk),
            "{}: the workspace and the disk disagree",
            protocol.display()
        );
        compared += 1;
    }
    // The 15 agent folders and the example protocols (98 today): the test
    // cannot pass having compared nothing.
    assert!(compared >= 50, "compared {compared} protocols");
}

/// `agentc emit` is a library call: for every protocol under `protocols/`
/// without errors and every target, the binary prints what
/// `Workspace::emit` gives, and shows the diagnostics of its report (the
/// protocol's warnings and the target's); where the workspace has a
/// problem, the binary fails.
#[test]
fn agentc_emit_prints_what_the_workspace_emits() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut compared = 0;
    for protocol in common::files_below(&root.join("protocols"), "yaml") {
        let Ok(relative) = protocol.strip_prefix(&root) else {
            continue;
        };
        let Ok(text) = std::fs::read_to_string(&protocol) else {
            continue;
        };
        let mut workspace = Workspace::new();
        workspace.insert(relative, text);
        if !workspace
            .check_file(relative)
            .iter()
            .all(|r| !r.has_errors())
        {
            continue;
        }
        let file = relative.to_string_lossy();
        for target in agentc::emit::Target::ALL {
            let run = common::agentc(&["emit", "--target", target.name(), &file]);
            match workspace.emit(relative, target, agentc::emit::Selection::All) {
                Ok(emitted) => {
                    assert!(run.status.success(), "{file} {}", target.name());
                    assert_eq!(
                        common::stdout(&run).trim_end(),
                        emitted.output.into_text().trim_end(),
                        "{file} {}",
                        target.name()
                    );
                    // The binary shows the report as the renderer draws it.
                    let drawn = match emitted.report.diagnostics.is_empty() {
                        true => String::new(),
                        false => human::render_capped(
                            &emitted.report,
                            Style::Plain,
                            human::DEFAULT_MAX_DIAGNOSTICS,
                        ),
                    };
                    assert_eq!(common::stderr(&run), drawn, "{file} {}", target.name());
                }
                Err(problem) => {
                    assert!(!run.status.success(), "{file} {}: {problem}", target.name())
                }
            }
            compared += 1;
        }
    }
    assert!(compared >= 300, "compared {compared} emits");
}
