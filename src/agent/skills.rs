//! Skill folders: `skills/<name>/SKILL.md` in an agent folder, checked as
//! `octavus skills sync` reads them (agent-sdk
//! `packages/cli/src/skill-files.ts`, `commands/skills/sync.ts`):
//!
//! - what the CLI refuses is `skill-file`, an error: no `SKILL.md`, no YAML
//!   frontmatter, no non-empty text `name`;
//! - what it reads past is `skill-frontmatter`, a warning: a key it does
//!   not know, an optional field that is not text (dropped), `secrets` that
//!   are not a list of `{name, description?, required?}` (all dropped), no
//!   `description` (which the docs' table requires);
//! - a secret name outside `^[A-Z_][A-Z0-9_]*$` is `invalid-value`, as the
//!   skills page says the names must match it;
//! - with a `.env` beside `SKILL.md`, the CLI's two warnings about it are
//!   `skill-secrets`: a name `.env` sets that is not declared, a required
//!   secret `.env` does not set. Only the names in `.env` are read, and
//!   every diagnostic points into `SKILL.md`: nothing of `.env` is shown.

use super::FileFindings;
use super::frontmatter::{self, Missing};
use crate::check::slug_problem;
use crate::diagnostic::{Code, Diagnostic, nearest};
use crate::span::Span;
use crate::yaml::{Entry, Node, NodeKind, Value};

/// The keys `octavus skills sync` reads (`title` is in the CLI's source,
/// not in the docs' table).
const OCTAVUS_KEYS: &[&str] = &[
    "name",
    "title",
    "description",
    "version",
    "license",
    "author",
    "category",
    "secrets",
];

/// The keys of the Agent Skills standard (agentskills.io) that Octavus
/// does not read: skills "follow the Agent Skills open standard", so they
/// are not reported.
const STANDARD_KEYS: &[&str] = &["compatibility", "metadata", "allowed-tools"];

/// The optional fields the CLI keeps only when they are text.
const TEXT_KEYS: &[&str] = &[
    "title",
    "description",
    "version",
    "license",
    "author",
    "category",
];

const SECRET_KEYS: &[&str] = &["name", "description", "required"];

/// Checks one skill's `SKILL.md`, with the text of the `.env` beside it
/// when there is one that could be read.
pub(super) fn check(report: &mut FileFindings, env: Option<&str>) {
    if report.unreadable {
        return;
    }
    let text = report.source.text();
    let frontmatter = match frontmatter::read(&report.source) {
        Ok(frontmatter) => frontmatter,
        Err(Missing::Crlf) => {
            report.diagnostics.push(frontmatter::crlf(Code::SkillFile));
            return;
        }
        Err(missing) => {
            let diagnostic = if missing == Missing::Unclosed {
                Diagnostic::new(
                    Code::SkillFile,
                    Span::new(0, 3),
                    "the frontmatter of `SKILL.md` is never closed",
                )
                .with_help("end the frontmatter with a line `---`")
            } else {
                Diagnostic::new(
                    Code::SkillFile,
                    Span::empty(0),
                    "`SKILL.md` has no YAML frontmatter",
                )
                .with_help("start the file with `---`, a line `name: my-skill`, a line `description: What the skill does`, and `---`")
            };
            report.diagnostics.push(
                diagnostic.with_note("`octavus skills sync` refuses a skill without frontmatter"),
            );
            return;
        }
    };
    let (root, problems) = frontmatter.parse();
    // Frontmatter that is not YAML is reported as such, and only as such.
    if !problems.is_empty() {
        report.diagnostics.extend(problems);
        return;
    }
    let Some(entries) = root.as_ref().and_then(Node::as_mapping) else {
        report.diagnostics.push(
            Diagnostic::new(
                Code::SkillFile,
                Span::new(0, 3.min(text.len())),
                "the frontmatter of `SKILL.md` is not a mapping with a `name`",
            )
            .with_help("write `name: my-skill` and `description: What the skill does` between the `---` lines"),
        );
        return;
    };
    let found = |key: &str| entries.iter().find(|e| e.key.text == key);
    let mut diagnostics = Vec::new();
    check_name(found("name"), text, &mut diagnostics);
    for entry in entries {
        let key = entry.key.text.as_ref();
        if OCTAVUS_KEYS.contains(&key) || STANDARD_KEYS.contains(&key) {
            continue;
        }
        let diagnostic = Diagnostic::new(
            Code::SkillFrontmatter,
            entry.key.span,
            format!("`{key}` is not a field of `SKILL.md`'s frontmatter"),
        );
        diagnostics.push(match nearest(key, OCTAVUS_KEYS.iter().copied()) {
            Some(near) => diagnostic.did_you_mean(entry.key.span, near),
            None => diagnostic
                .with_help(format!("the fields are {}", list(OCTAVUS_KEYS)))
                .with_note("`octavus skills sync` ignores it"),
        });
    }
    for key in TEXT_KEYS {
        if let Some(entry) = found(key) {
            check_text(entry, &mut diagnostics);
        }
    }
    if found("description").is_none() {
        diagnostics.push(
            Diagnostic::new(
                Code::SkillFrontmatter,
                Span::new(0, 3.min(text.len())),
                "the frontmatter of `SKILL.md` has no `description`",
            )
            .with_help("add `description: What the skill does`; the model reads it to decide when to use the skill"),
        );
    }
    let secrets = found("secrets").and_then(|entry| check_secrets(entry, &mut diagnostics));
    if let (Some(env), Some(entry), Some(secrets)) = (env, found("secrets"), secrets) {
        check_env(env, entry, &secrets, &mut diagnostics);
    }
    report.diagnostics.extend(diagnostics);
}

/// `name`: required, non-empty text, a lowercase-with-dashes slug.
fn check_name(entry: Option<&Entry>, text: &str, diagnostics: &mut Vec<Diagnostic>) {
    let Some(entry) = entry else {
        diagnostics.push(
            Diagnostic::new(
                Code::SkillFile,
                Span::new(0, 3.min(text.len())),
                "the frontmatter of `SKILL.md` has no `name`",
            )
            .with_help("add `name: my-skill`, the skill's slug, between the `---` lines")
            .with_note("`octavus skills sync` refuses a skill without a name"),
        );
        return;
    };
    match text_of(&entry.value) {
        Some(name) if !name.is_empty() => {
            diagnostics.extend(slug_problem("skill name", name, entry.value.span));
        }
        _ => diagnostics.push(
            Diagnostic::new(
                Code::SkillFile,
                entry.value.span,
                format!(
                    "the skill's `name` must be non-empty text, not {}",
                    entry.value.describe()
                ),
            )
            .with_help("write the skill's slug: `name: my-skill`")
            .with_note("`octavus skills sync` refuses a skill without a name"),
        ),
    }
}

/// An optional field the CLI keeps only when it is text.
fn check_text(entry: &Entry, diagnostics: &mut Vec<Diagnostic>) {
    if text_of(&entry.value).is_some() {
        return;
    }
    let key = &entry.key.text;
    let help = match entry.value.as_scalar() {
        Some(scalar) if !scalar.is_null() => format!("quote it: `{key}: \"{}\"`", scalar.text),
        _ => format!("write `{key}` as text, or remove it"),
    };
    diagnostics.push(
        Diagnostic::new(
            Code::SkillFrontmatter,
            entry.value.span,
            format!("`{key}` must be text, not {}", entry.value.describe()),
        )
        .with_help(help)
        .with_note(format!(
            "`octavus skills sync` drops a `{key}` that is not text"
        )),
    );
}

/// A declared secret, as read.
struct Secret {
    name: String,
    span: Span,
    required: bool,
}

/// `secrets`: a list of `{name, description?, required?}`. Returns the
/// secrets when the CLI would keep them, that is, when every one has that
/// shape.
fn check_secrets(entry: &Entry, diagnostics: &mut Vec<Diagnostic>) -> Option<Vec<Secret>> {
    let dropped = "`octavus skills sync` then drops every secret of the skill";
    let Some(items) = entry.value.as_sequence() else {
        diagnostics.push(
            Diagnostic::new(
                Code::SkillFrontmatter,
                entry.value.span,
                format!("`secrets` must be a list, not {}", entry.value.describe()),
            )
            .with_help("write one `- name: SECRET_NAME` item per secret")
            .with_note(dropped),
        );
        return None;
    };
    let mut secrets = Vec::new();
    let mut kept = true;
    for item in items {
        let Some(fields) = item.as_mapping() else {
            diagnostics.push(
                Diagnostic::new(
                    Code::SkillFrontmatter,
                    item.span,
                    format!(
                        "a secret must be a mapping with a `name`, not {}",
                        item.describe()
                    ),
                )
                .with_help(
                    "write `- name: SECRET_NAME`, with `description:` and `required:` if needed",
                )
                .with_note(dropped),
            );
            kept = false;
            continue;
        };
        let mut secret = None;
        let mut required = true;
        let mut name_found = false;
        for field in fields {
            let key = field.key.text.as_ref();
            let wrong = |what: &str| {
                Diagnostic::new(
                    Code::SkillFrontmatter,
                    field.value.span,
                    format!(
                        "a secret's `{key}` must be {what}, not {}",
                        field.value.describe()
                    ),
                )
                .with_note(dropped)
            };
            match key {
                "name" => {
                    name_found = true;
                    match text_of(&field.value) {
                        Some(name) => {
                            check_secret_name(name, field.value.span, diagnostics);
                            secret = Some((name.to_string(), field.value.span));
                        }
                        None => {
                            diagnostics.push(wrong("text"));
                            kept = false;
                        }
                    }
                }
                "description" => {
                    if text_of(&field.value).is_none() {
                        diagnostics.push(wrong("text"));
                        kept = false;
                    }
                }
                "required" => match field.value.as_scalar().map(|s| s.value()) {
                    Some(Value::Bool(value)) => required = value,
                    _ => {
                        diagnostics.push(
                            wrong("`true` or `false`")
                                .with_help("write `required: true` or `required: false`"),
                        );
                        kept = false;
                    }
                },
                _ => {
                    let diagnostic = Diagnostic::new(
                        Code::SkillFrontmatter,
                        field.key.span,
                        format!("`{key}` is not a field of a secret"),
                    );
                    diagnostics.push(match nearest(key, SECRET_KEYS.iter().copied()) {
                        Some(near) => diagnostic.did_you_mean(field.key.span, near),
                        None => diagnostic
                            .with_help(format!("a secret's fields are {}", list(SECRET_KEYS))),
                    });
                }
            }
        }
        if !name_found {
            diagnostics.push(
                Diagnostic::new(
                    Code::SkillFrontmatter,
                    item.span,
                    "this secret has no `name`",
                )
                .with_help("add `name: SECRET_NAME`, the environment variable the scripts read")
                .with_note(dropped),
            );
            kept = false;
        }
        if let Some((name, span)) = secret {
            secrets.push(Secret {
                name,
                span,
                required,
            });
        }
    }
    kept.then_some(secrets)
}

/// `^[A-Z_][A-Z0-9_]*$`, as the skills page requires.
fn check_secret_name(name: &str, span: Span, diagnostics: &mut Vec<Diagnostic>) {
    let mut chars = name.chars();
    let good = chars
        .next()
        .is_some_and(|c| c.is_ascii_uppercase() || c == '_')
        && chars.all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    if good {
        return;
    }
    let suggestion: String = name
        .chars()
        .map(|c| match c.to_ascii_uppercase() {
            c @ ('A'..='Z' | '0'..='9') => c,
            _ => '_',
        })
        .collect();
    let suggestion = match suggestion.chars().next() {
        Some(c) if c.is_ascii_digit() => format!("_{suggestion}"),
        None => "SECRET_NAME".to_string(),
        _ => suggestion,
    };
    diagnostics.push(
        Diagnostic::new(
            Code::InvalidValue,
            span,
            format!("secret name `{name}` is not an environment variable name"),
        )
        .with_help(format!("write `{suggestion}`"))
        .with_note("secret names must match `^[A-Z_][A-Z0-9_]*$`: uppercase letters, digits and underscores"),
    );
}

/// The CLI's cross-check of `.env` against the declared secrets, made only
/// when `.env` sets something and the secrets are kept: a name `.env` sets
/// that is not declared, and a required secret it leaves unset or empty.
fn check_env(env: &str, entry: &Entry, secrets: &[Secret], diagnostics: &mut Vec<Diagnostic>) {
    let set = env_names(env);
    if set.is_empty() {
        return;
    }
    for (name, _) in &set {
        if secrets.iter().any(|s| &s.name == name) {
            continue;
        }
        diagnostics.push(
            Diagnostic::new(
                Code::SkillSecrets,
                entry.key.span,
                format!("`.env` sets `{name}`, which `secrets` does not declare"),
            )
            .with_help(format!(
                "declare it (`- name: {name}`), or remove it from `.env`"
            ))
            .with_note(
                "`octavus skills sync` pushes every name in `.env` as a secret of the skill",
            ),
        );
    }
    for secret in secrets.iter().filter(|s| s.required) {
        let value_set = set
            .iter()
            .rev()
            .find(|(name, _)| name == &secret.name)
            .is_some_and(|(_, filled)| *filled);
        if value_set {
            continue;
        }
        diagnostics.push(
            Diagnostic::new(
                Code::SkillSecrets,
                secret.span,
                format!("required secret `{}` is not set in `.env`", secret.name),
            )
            .with_help(format!(
                "set `{}` in `.env`, or declare it `required: false`",
                secret.name
            )),
        );
    }
}

/// The names a `.env` file sets, in order, each with whether its value is
/// non-empty; read as the `dotenv` package reads them (`KEY=value`,
/// `export KEY=value`, `KEY: value`, quoted values over several lines,
/// `#` comments). The values themselves are never kept.
fn env_names(text: &str) -> Vec<(String, bool)> {
    let mut names = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let (line, after) = match rest.find('\n') {
            Some(at) => (&rest[..at], &rest[at + 1..]),
            None => (rest, ""),
        };
        rest = after;
        let line = line.trim_start();
        let line = line.strip_prefix("export ").unwrap_or(line).trim_start();
        let key_end = line
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
            .unwrap_or(line.len());
        let (key, tail) = line.split_at(key_end);
        if key.is_empty() {
            continue;
        }
        let tail = tail.trim_start();
        let Some(value) = tail.strip_prefix('=').or_else(|| tail.strip_prefix(':')) else {
            continue;
        };
        let value = value.trim_start();
        let quote = value
            .chars()
            .next()
            .filter(|c| matches!(c, '"' | '\'' | '`'));
        let filled = match quote {
            Some(quote) => {
                // The closing quote may be on a later line.
                let inner = &value[1..];
                match inner.find(quote) {
                    Some(at) => !inner[..at].is_empty(),
                    None => match rest.find(quote) {
                        Some(at) => {
                            let filled = !inner.is_empty() || at > 0;
                            rest = rest[at + 1..].split_once('\n').map_or("", |(_, r)| r);
                            filled
                        }
                        None => !value.split('#').next().unwrap_or("").trim().is_empty(),
                    },
                }
            }
            None => !value.split('#').next().unwrap_or("").trim().is_empty(),
        };
        names.push((key.to_string(), filled));
    }
    names
}

/// The text of a scalar that YAML reads as a string.
fn text_of<'a>(node: &'a Node) -> Option<&'a str> {
    match &node.kind {
        NodeKind::Scalar(scalar) => match scalar.value() {
            Value::Str(text) => Some(text),
            _ => None,
        },
        _ => None,
    }
}

fn list(keys: &[&str]) -> String {
    keys.iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::super::{File, FileFindings};
    use super::{check, env_names};

    #[test]
    fn odd_skill_files_are_reported_without_a_panic() {
        let texts = [
            "",
            "---",
            "---\n",
            "---\r\n",
            "---\n---\n",
            "---\n- a\n---\n",
            "---\nname: [a\n---\n",
            "---\nname:\n---\n",
            "---\nname: x\nsecrets: 3\n---\n",
            "---\nname: x\nsecrets:\n  - {}\n  - name: [1]\n  - name: é\n    required: null\n---\n",
            "---\nname: x\nsecrets: []\n---\n",
            "\u{feff}---\nname: x\n---\n",
        ];
        for text in texts {
            for env in [None, Some(""), Some("X=1\n"), Some("\"\n'")] {
                let mut report = FileFindings::new(File::new("SKILL.md", text));
                check(&mut report, env);
                let mut spans_fit = true;
                for d in report.diagnostics.into_vec() {
                    spans_fit &= (d.span.end as usize) <= text.len();
                }
                assert!(spans_fit, "{text:?}");
            }
        }
    }

    #[test]
    fn env_names_are_read_as_dotenv_reads_them() {
        let text = "# a comment\nGITHUB_TOKEN=abc\nexport EMPTY=\nQUOTED=\"\"\nMULTI=\"one\ntwo\"\nAFTER: x # note\n=nothing\n  SPACED = y\n";
        let names: Vec<(String, bool)> = env_names(text);
        let expected: Vec<(String, bool)> = [
            ("GITHUB_TOKEN", true),
            ("EMPTY", false),
            ("QUOTED", false),
            ("MULTI", true),
            ("AFTER", true),
            ("SPACED", true),
        ]
        .into_iter()
        .map(|(n, f)| (n.to_string(), f))
        .collect();
        assert_eq!(names, expected);
    }

    #[test]
    fn env_names_survive_odd_text() {
        for text in [
            "\"",
            "A=\"",
            "A='\n",
            "A=`x",
            "é=1",
            "A=\u{1F600}",
            "\n\n=\n",
        ] {
            let _ = env_names(text);
        }
    }
}
