//! References: every name `agent.references` or a `start-thread` lists has
//! a file in `references/`; every file there has YAML frontmatter with a
//! `description`, a lowercase-with-dashes name, and someone who lists it.

use super::FileFindings;
use super::frontmatter::{self, Missing};
use crate::check::slug_problem;
use crate::diagnostic::{Code, Diagnostic, nearest};
use crate::model::Model;
use crate::span::Span;
use crate::syntax::Name;
use crate::yaml::{self, NodeKind};
use std::collections::HashSet;

pub(super) fn check(
    model: &Model,
    diagnostics: &mut Vec<Diagnostic>,
    references: &mut [FileFindings],
) {
    let protocol = &model.protocol;
    let listed: Vec<&Name> = protocol
        .agent
        .iter()
        .map(|a| &a.config)
        .chain(protocol.blocks().filter_map(|b| b.config.as_deref()))
        .flat_map(|config| &config.references)
        .collect();
    let files: HashSet<&str> = references.iter().map(|r| r.name.as_str()).collect();
    let listed_names: HashSet<&str> = listed.iter().map(|n| n.text.as_str()).collect();
    for name in &listed {
        if !files.contains(name.text.as_str()) {
            // References are the files directly in `references/`.
            if let Some((_, last)) = name.text.rsplit_once('/')
                && !last.is_empty()
            {
                diagnostics.push(
                    Diagnostic::new(
                        Code::UnknownReference,
                        name.span,
                        format!(
                            "reference `{}` names a file in a folder below `references/`, where no reference is read",
                            name.text
                        ),
                    )
                    .with_help(format!(
                        "a reference is a file directly in `references/`: move it to `references/{last}.md` and name it `{last}`"
                    )),
                );
                continue;
            }
            let diagnostic = Diagnostic::new(
                Code::UnknownReference,
                name.span,
                format!(
                    "reference `{}` has no file `references/{}.md`",
                    name.text, name.text
                ),
            );
            diagnostics.push(
                match nearest(&name.text, references.iter().map(|r| r.name.as_str())) {
                    Some(near) => diagnostic.did_you_mean(name.span, near),
                    None => diagnostic.with_help(format!(
                        "create `references/{}.md` with a `description:` in its frontmatter",
                        name.text
                    )),
                },
            );
        }
    }
    for report in references.iter_mut() {
        if report.unreadable {
            continue;
        }
        let start = Span::empty(0);
        let name_problem = slug_problem("reference name", &report.name, start);
        report.diagnostics.extend(name_problem);
        check_frontmatter(report);
        if !listed_names.contains(report.name.as_str()) {
            report.diagnostics.push(
                Diagnostic::new(
                    Code::UnusedReference,
                    start,
                    format!("reference `{}` is not listed by the agent or any thread", report.name),
                )
                .with_help(format!("add `{}` to `agent.references` (or a `start-thread`'s `references`), or delete the file", report.name)),
            );
        }
    }
}

/// The frontmatter: `---`, YAML with a `description`, `---`.
fn check_frontmatter(report: &mut FileFindings) {
    let text = report.source.text();
    let frontmatter = match frontmatter::read(&report.source) {
        Ok(frontmatter) => frontmatter,
        Err(missing) => {
            report.diagnostics.push(match missing {
                Missing::Crlf => frontmatter::crlf(Code::MissingField),
                Missing::Unclosed => Diagnostic::new(
                    Code::MissingField,
                    Span::new(0, 3),
                    "the reference's frontmatter is never closed",
                )
                .with_help("end the frontmatter with a line `---` after `description: ...`"),
                Missing::Absent => Diagnostic::new(Code::MissingField, Span::empty(0), "reference has no frontmatter with a `description`")
                    .with_help("start the file with `---`, a line `description: What this reference contains`, and `---`")
                    .with_note("the agent sees each reference's description and decides from it whether to read the reference"),
            });
            return;
        }
    };
    let (root, problems) = frontmatter.parse();
    // Frontmatter that is not YAML is reported as such, and only as such.
    let readable = problems.is_empty();
    report.diagnostics.extend(problems);
    let description = root.as_ref().and_then(|root| match &root.kind {
        NodeKind::Mapping(entries) => entries.iter().find(|e| e.key.text == "description"),
        _ => None,
    });
    match description.map(|e| &e.value) {
        Some(value) if is_text(value) => {}
        Some(value) => {
            let blank = matches!(
                value.as_scalar().map(|s| s.value()),
                Some(yaml::Value::Str(_))
            );
            let diagnostic = Diagnostic::new(
                Code::InvalidValue,
                value.span,
                if blank {
                    "the reference's `description` must be non-empty text".to_string()
                } else {
                    format!(
                        "the reference's `description` must be non-empty text, not {}",
                        value.describe()
                    )
                },
            )
            .with_help("say what the reference contains, so the agent knows when to read it");
            report.diagnostics.push(if blank {
                diagnostic
            } else {
                diagnostic.with_note("the Octavus CLI requires a string; quote a description that YAML reads as a number or a boolean")
            });
        }
        None if !readable => {}
        None => report.diagnostics.push(
            Diagnostic::new(
                Code::MissingField,
                Span::new(0, 3.min(text.len())),
                "the reference's frontmatter has no `description`",
            )
            .with_help("add `description: What this reference contains` between the `---` lines"),
        ),
    }
}

/// Whether a YAML value is a string that is not blank, as the Octavus
/// CLI's `z.string().min(1)` wants (agentc also refuses one of spaces).
fn is_text(value: &yaml::Node) -> bool {
    value
        .as_scalar()
        .is_some_and(|s| matches!(s.value(), yaml::Value::Str(text) if !text.trim().is_empty()))
}
