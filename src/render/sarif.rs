//! `--format sarif`: a SARIF 2.1.0 log (OASIS), the format code scanning
//! services such as GitHub's read. One run; one rule per code that occurs,
//! carrying its `agentc explain` text; one result per diagnostic, with its
//! labels as related locations and its fix as a SARIF fix.
//!
//! Regions use the JSON renderer's numbers: 1-based lines, columns in
//! Unicode scalar values (declared with `columnKind`, since SARIF counts
//! UTF-16 units by default), exclusive ends.

use crate::FileReport;
use crate::diagnostic::{Code, Diagnostic, Failure, Severity};
use crate::source::Source;
use crate::span::Span;
use serde::Serialize;
use std::borrow::Cow;
use std::collections::BTreeSet;

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

#[derive(Serialize)]
struct Log<'a, R: Serialize> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'a, R>; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a, R: Serialize> {
    tool: Tool,
    invocations: [Invocation<'a>; 1],
    column_kind: &'static str,
    newline_sequences: [&'static str; 3],
    results: R,
}

/// The run itself: whether every path given could be checked, and a
/// notification for each that could not (a failure has no place in any
/// file, so it is not a result).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Invocation<'a> {
    execution_successful: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tool_execution_notifications: Vec<Notification<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Notification<'a> {
    level: &'static str,
    message: Text<'a>,
    descriptor: Descriptor,
    locations: [NotificationLocation; 1],
}

#[derive(Serialize)]
struct Descriptor {
    id: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct NotificationLocation {
    physical_location: ArtifactOnly,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactOnly {
    artifact_location: ArtifactLocation,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    semantic_version: &'static str,
    rules: Vec<Rule>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    id: &'static str,
    short_description: Text<'static>,
    full_description: Text<'static>,
    help: Help,
    default_configuration: Configuration,
}

#[derive(Serialize)]
struct Help {
    text: &'static str,
    markdown: &'static str,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

/// A SARIF `message` or plain `multiformatMessageString`.
#[derive(Serialize)]
struct Text<'a> {
    text: Cow<'a, str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'a> {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Text<'a>,
    locations: [Location<'a>; 1],
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<Location<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    fixes: Vec<SarifFix<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<usize>,
    physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<Text<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: Region,
}

#[derive(Serialize)]
struct ArtifactLocation {
    uri: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
    start_column: usize,
    end_line: usize,
    end_column: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifFix<'a> {
    description: Text<'a>,
    artifact_changes: [ArtifactChange<'a>; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactChange<'a> {
    artifact_location: ArtifactLocation,
    replacements: Vec<Replacement<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Replacement<'a> {
    deleted_region: Region,
    inserted_content: Text<'a>,
}

/// The whole SARIF log for a run over `files`, pretty-printed.
pub fn render(files: &[FileReport]) -> String {
    super::to_string(|out| write(out, files, &[]))
}

/// Writes the SARIF log for a run: a result per diagnostic, written as it
/// is converted, and a tool execution notification per failure (then the
/// invocation was not successful).
pub fn write(
    out: &mut dyn std::io::Write,
    files: &[FileReport],
    failures: &[Failure],
) -> std::io::Result<()> {
    // Rules in registry order, so the log does not depend on which file
    // came first (codes order as the registry lists them).
    let used: BTreeSet<Code> = files
        .iter()
        .flat_map(|f| f.diagnostics.iter().map(|d| d.code))
        .collect();
    let rules: Vec<Code> = used.into_iter().collect();
    let results = files.iter().flat_map(|file| {
        let uri = uri(file.source.name());
        let rules = &rules;
        file.diagnostics
            .iter()
            .map(move |d| result(&file.source, &uri, rules, d))
    });
    let notifications = failures
        .iter()
        .map(|failure| {
            let mut message = Cow::Borrowed(failure.message.as_str());
            if let Some(help) = &failure.help {
                message = format!("{message}\n{help}").into();
            }
            Notification {
                level: "error",
                message: Text { text: message },
                descriptor: Descriptor {
                    id: failure.code.name(),
                },
                locations: [NotificationLocation {
                    physical_location: ArtifactOnly {
                        artifact_location: ArtifactLocation {
                            uri: uri(&failure.path),
                        },
                    },
                }],
            }
        })
        .collect();
    let log = Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: [Run {
            tool: Tool {
                driver: Driver {
                    name: "agentc",
                    version: env!("CARGO_PKG_VERSION"),
                    semantic_version: env!("CARGO_PKG_VERSION"),
                    rules: rules.iter().map(|&code| rule(code)).collect(),
                },
            },
            invocations: [Invocation {
                execution_successful: failures.is_empty(),
                tool_execution_notifications: notifications,
            }],
            column_kind: "unicodeCodePoints",
            // The lines agentc counts (`Source::new`); SARIF's default
            // leaves out the lone `\r`.
            newline_sequences: ["\r\n", "\n", "\r"],
            results: super::Streamed::new(results),
        }],
    };
    serde_json::to_writer_pretty(&mut *out, &log).map_err(std::io::Error::from)?;
    out.write_all(b"\n")
}

fn rule(code: Code) -> Rule {
    let explanation = code.explanation();
    Rule {
        id: code.name(),
        short_description: text(code.summary()),
        full_description: Text {
            text: first_paragraph(explanation).map_or(code.summary().into(), Cow::Owned),
        },
        // The explanation is Markdown written to read well as plain text
        // too (`agentc explain` prints it as is), and code scanning wants a
        // `text` whether or not it shows the `markdown`.
        help: Help {
            text: explanation,
            markdown: explanation,
        },
        default_configuration: Configuration {
            level: level(code.severity()),
        },
    }
}

fn result<'a>(source: &Source, uri: &str, rules: &[Code], d: &'a Diagnostic) -> SarifResult<'a> {
    let mut message = Cow::Borrowed(d.message.as_str());
    if let Some(help) = super::help_and_notes(d) {
        message = format!("{message}\n{help}").into();
    }
    let related_locations = d
        .labels
        .iter()
        .enumerate()
        .map(|(id, label)| Location {
            id: Some(id),
            physical_location: physical(source, uri, label.span),
            message: Some(text(&label.message)),
        })
        .chain(
            d.change
                .as_ref()
                .and_then(|c| c.base.as_ref())
                .map(|base| Location {
                    id: Some(d.labels.len()),
                    physical_location: PhysicalLocation {
                        artifact_location: ArtifactLocation {
                            uri: self::uri(&base.file),
                        },
                        region: Region {
                            start_line: base.line,
                            start_column: base.column,
                            end_line: base.end_line,
                            end_column: base.end_column,
                        },
                    },
                    message: Some(text("the old version")),
                }),
        )
        .collect();
    // SARIF requires at least one replacement in a fix.
    let fixes = d
        .fix
        .iter()
        .filter(|fix| !fix.edits.is_empty())
        .map(|fix| SarifFix {
            description: text(&fix.title),
            artifact_changes: [ArtifactChange {
                artifact_location: ArtifactLocation {
                    uri: uri.to_string(),
                },
                replacements: fix
                    .edits
                    .iter()
                    .map(|edit| Replacement {
                        deleted_region: region(source, edit.span),
                        inserted_content: text(&edit.text),
                    })
                    .collect(),
            }],
        })
        .collect();
    SarifResult {
        rule_id: d.code.name(),
        // Every code of every diagnostic is among the rules.
        rule_index: rules.iter().position(|&c| c == d.code).unwrap_or_default(),
        level: level(d.severity),
        message: Text { text: message },
        locations: [Location {
            id: None,
            physical_location: physical(source, uri, d.span),
            message: None,
        }],
        related_locations,
        fixes,
    }
}

fn text(text: &str) -> Text<'_> {
    Text { text: text.into() }
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

fn physical(source: &Source, uri: &str, span: Span) -> PhysicalLocation {
    PhysicalLocation {
        artifact_location: ArtifactLocation {
            uri: uri.to_string(),
        },
        region: region(source, span),
    }
}

fn region(source: &Source, span: Span) -> Region {
    let (start_line, start_column, end_line, end_column) = super::json::range(source, span);
    Region {
        start_line,
        start_column,
        end_line,
        end_column,
    }
}

/// The first paragraph after the `# code` heading of an explanation, on
/// one line.
fn first_paragraph(explanation: &str) -> Option<String> {
    let paragraph: Vec<&str> = explanation
        .lines()
        .map(str::trim)
        .skip_while(|line| line.is_empty() || line.starts_with('#'))
        .take_while(|line| !line.is_empty())
        .collect();
    (!paragraph.is_empty()).then(|| paragraph.join(" "))
}

/// A file name as a URI reference (RFC 3986), as `artifactLocation.uri`
/// must be: `/` between folders, a relative name kept relative (without a
/// leading `./`), an absolute one as a `file:` URI, and every byte but the
/// unreserved characters and `/` percent-encoded. Backslashes separate
/// folders, and `C:` is a drive, on Windows only: elsewhere both are
/// characters of a name.
fn uri(name: &str) -> String {
    uri_on(name, cfg!(windows))
}

fn uri_on(name: &str, windows: bool) -> String {
    let path = match windows {
        true => name.replace('\\', "/"),
        false => name.to_string(),
    };
    let mut path = path.as_str();
    while let Some(rest) = path.strip_prefix("./") {
        path = rest;
    }
    let bytes = path.as_bytes();
    let drive = windows
        && bytes.len() >= 2
        && bytes[0].is_ascii_alphabetic()
        && bytes[1] == b':'
        && (bytes.len() == 2 || bytes[2] == b'/');
    if drive {
        // `C:/x`: the colon stays, or it would not be a drive.
        format!("file:///{}:{}", &path[..1], percent_encode(&path[2..]))
    } else if windows && path.starts_with("//") {
        // `\\server\share\x`: the server is the authority.
        format!("file:{}", percent_encode(path))
    } else if path.starts_with('/') {
        format!("file://{}", percent_encode(path))
    } else {
        percent_encode(path)
    }
}

/// Percent-encodes every byte but RFC 3986's unreserved characters and `/`.
fn percent_encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for &byte in path.as_bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{first_paragraph, uri, uri_on};

    #[test]
    fn file_names_become_uri_references() {
        assert_eq!(
            uri("agents/support/protocol.yaml"),
            "agents/support/protocol.yaml"
        );
        assert_eq!(uri("./a/./b.yaml"), "a/./b.yaml");
        assert_eq!(uri("././a.yaml"), "a.yaml");
        assert_eq!(uri("../x/p.yaml"), "../x/p.yaml");
        assert_eq!(
            uri("dir/my agent é/protocol.yaml"),
            "dir/my%20agent%20%C3%A9/protocol.yaml"
        );
        assert_eq!(uri("a#b%c?d:e.yaml"), "a%23b%25c%3Fd%3Ae.yaml");
        assert_eq!(uri("<stdin>"), "%3Cstdin%3E");
        assert_eq!(uri("/home/me/p.yaml"), "file:///home/me/p.yaml");
        assert_eq!(uri("/tmp/a b.yaml"), "file:///tmp/a%20b.yaml");
        // On Windows, backslashes separate folders and `C:` is a drive.
        let windows = |name| uri_on(name, true);
        assert_eq!(windows(r"agents\support\p.yaml"), "agents/support/p.yaml");
        assert_eq!(windows(r"C:\work\p.yaml"), "file:///C:/work/p.yaml");
        assert_eq!(
            windows(r"\\server\share\p.yaml"),
            "file://server/share/p.yaml"
        );
        // Elsewhere they are characters of a name.
        let unix = |name| uri_on(name, false);
        assert_eq!(unix(r"back\slash/p.yaml"), "back%5Cslash/p.yaml");
        assert_eq!(unix("C:/p.yaml"), "C%3A/p.yaml");
        // A colon in a relative name is encoded, so it is not read as a
        // scheme.
        assert_eq!(uri("c:p.yaml"), "c%3Ap.yaml");
    }

    #[test]
    fn the_full_description_is_the_first_paragraph() {
        let text = "# some-code\n\nReports a thing\nthat is wrong.\n\n## Why\n\nBecause.\n";
        assert_eq!(
            first_paragraph(text).as_deref(),
            Some("Reports a thing that is wrong.")
        );
        assert_eq!(first_paragraph("# only-a-heading\n"), None);
    }
}
