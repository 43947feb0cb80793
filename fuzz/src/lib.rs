//! The paths the fuzz targets drive, each from bytes as the `agentc` command
//! runs it: [`check`], [`emit`], [`validate`], [`generate`] (`gen`) and [`diff`],
//! and as the language server compiles an edit: [`again`]. Each
//! asserts what must hold whatever the input: every span lies on its text,
//! the JSON and SARIF renderings are JSON, a protocol without errors emits
//! for every target and validates against every type and tool it declares,
//! generated code carries no raw control character or line terminator but
//! its own line breaks, a version diffed against itself has no change, an
//! edited text compiled from the compile before it is what a compile from
//! nothing makes of it, and lowering the listed sections' entries as they
//! are read is lowering the whole tree.
//! `tests/fuzz_regressions.rs` includes this file, so `cargo test` replays
//! each crash found here on the path that found it.

use agentc::codegen::{self, Lang};
use agentc::config::Config;
use agentc::emit::{self, Output, Selection, Target};
use agentc::render::{self, human};
use agentc::validate::data::{self, Layout};
use agentc::validate::json;
use agentc::validate::run_input::{Options, Profile, RunInputValidator, Version};
use agentc::validate::{ToolValidators, Validator};
use agentc::{Diagnostic, Diagnostics, FileReport, Model, Source, source};
use std::path::Path;

/// The name the protocol is checked under, as if read from disk.
const PROTOCOL: &str = "protocol.yaml";

/// `agentc check --target T protocol.yaml` with every target: compiling,
/// the targets' checks, the default configuration's severities and the
/// file's `agentc-ignore` comments, then the report in every format.
pub fn check(bytes: &[u8]) {
    // The listed sections' entries are lowered as they are read: what
    // that gives is what lowering the whole tree gives.
    let (source, _) = source::decode(PROTOCOL, bytes);
    let [whole, read] = agentc::syntax::lowered_both_ways(&source);
    assert!(
        whole == read,
        "lowered as read differs from lowered whole:\n--- whole\n{whole}\n--- as read\n{read}"
    );
    let mut files = vec![agentc::compile(PROTOCOL, bytes)];
    agentc::config::finish(&mut files, &Config::defaults(Path::new(".")), &Target::ALL);
    report_all(&files);
}

/// `agentc emit` for every target and every selection the protocol names
/// (all, each type, each tool, each type as a structured-output response),
/// and AAP's `--meta`. As on the command line, a protocol with errors is
/// reported and nothing is emitted.
pub fn emit(bytes: &[u8]) {
    let compiled = agentc::compile(PROTOCOL, bytes);
    let Some(model) = usable(&compiled) else {
        return;
    };
    let schema = emit::emit_all(model);
    assert!(
        jsonschema::meta::is_valid(&schema),
        "the emitted schema fails the 2020-12 metaschema:\n{schema:#}"
    );
    let protocol = &model.protocol;
    let mut selections = vec![Selection::All];
    selections.extend(protocol.types.iter().map(|t| Selection::Type(&t.name.text)));
    selections.extend(protocol.tools.iter().map(|t| Selection::Tool(&t.name.text)));
    selections.extend(
        protocol
            .types
            .iter()
            .map(|t| Selection::Response(&t.name.text)),
    );
    for target in Target::ALL {
        for &selection in &selections {
            let mut diags = Diagnostics::default();
            let emitted = emit::emit(model, target, selection, &mut diags);
            assert!(
                selection != Selection::All || emitted.is_ok(),
                "{} fails to emit every tool: {emitted:?}",
                target.name()
            );
            render_emitted(&compiled, diags, emitted);
        }
    }
    let agent = emit::aap::AgentMeta {
        name: "fuzz",
        title: "Fuzz",
        description: None,
        version: "1.0.0",
    };
    let mut diags = Diagnostics::default();
    let meta = emit::aap::meta(model, agent, &mut diags);
    render_emitted(&compiled, diags, Ok(Output::Json(meta)));
}

/// `agentc validate` of the data against every type and every tool of the
/// protocol, and `agentc validate run-input --protocol` under both
/// profiles; each as one JSON value and as JSON Lines. The input is the
/// protocol, a NUL byte, then the data (no NUL: empty data). As on the
/// command line, a protocol with errors is reported and nothing validated.
pub fn validate(bytes: &[u8]) {
    let (protocol, data) = match bytes.iter().position(|&b| b == 0) {
        Some(at) => (&bytes[..at], &bytes[at + 1..]),
        None => (bytes, &[][..]),
    };
    // A value's syntax is checked and the value indexed in one pass
    // (`Index::checked`): its verdict is serde_json's, for any text.
    for text in [bytes, data]
        .into_iter()
        .filter_map(|b| std::str::from_utf8(b).ok())
    {
        for text in std::iter::once(text).chain(text.lines()) {
            assert_eq!(
                json::Index::checked(text).is_ok(),
                json::check_syntax(text).is_ok(),
                "{text:?}"
            );
        }
    }
    let compiled = agentc::compile(PROTOCOL, protocol);
    let Some(model) = usable(&compiled) else {
        return;
    };
    let data = source::decode("data.json", data);
    // As one value and as JSON Lines; tool arguments may also come as
    // AG-UI carries them, a JSON string (`encoded`).
    let layouts = |encoded| [false, true].map(|lines| Layout { lines, encoded });
    for def in &model.protocol.types {
        let name = &def.name.text;
        let validator = Validator::for_type(model, name)
            .unwrap_or_else(|e| panic!("no validator for type `{name}`: {e}"));
        for layout in layouts(false) {
            validate_data(&data, layout, |source| {
                data::check(&validator, source, layout)
            });
        }
    }
    for tool in &model.protocol.tools {
        let name = &tool.name.text;
        let validator = Validator::for_tool(model, name)
            .unwrap_or_else(|e| panic!("no validator for tool `{name}`: {e}"));
        for layout in layouts(true) {
            validate_data(&data, layout, |source| {
                data::check(&validator, source, layout)
            });
        }
    }
    let options = [
        Options::default(),
        Options {
            profile: Profile::Backend,
            ..Options::default()
        },
        Options {
            version: Version::Draft,
            strict: true,
            ..Options::default()
        },
        Options {
            version: Version::V1_1,
            strict: true,
            ..Options::default()
        },
    ];
    for options in options {
        let tools = ToolValidators::new(model).expect("every tool has a validator");
        let validator = RunInputValidator::with_options(options)
            .expect("the RunAgentInput schema compiles")
            .with_tools(tools);
        for layout in layouts(false) {
            validate_data(&data, layout, |source| {
                data::check_run_input(&validator, source, layout)
            });
        }
    }
}

/// `agentc gen --stdout` in every language, with the default options and
/// with every option on, from a protocol whose path (in the generated
/// header) is hostile too: the first line of the input. As on the command
/// line, a protocol with errors generates nothing; a name the languages
/// cannot take is a diagnostic, never broken code. Whatever the protocol
/// holds, no generated text carries a control character or a line
/// terminator of any target language but its own `\n`.
pub fn generate(bytes: &[u8]) {
    let compiled = agentc::compile(PROTOCOL, bytes);
    let Some(model) = usable(&compiled) else {
        return;
    };
    let first_line = String::from_utf8_lossy(bytes.split(|&b| b == b'\n').next().unwrap_or(&[]));
    let source = format!("agents/{first_line}/protocol.yaml");
    let all = codegen::Options {
        strict: true,
        optional_null: true,
        snake_case: true,
    };
    for options in [codegen::Options::default(), all] {
        match codegen::generate(model, "protocol", &source, &Lang::ALL, &options) {
            Ok(files) => {
                for file in files {
                    assert_inert_code(&file.name, &file.text);
                    assert!(
                        codegen::is_generated(&file.text),
                        "{}: no header:\n{}",
                        file.name,
                        file.text
                    );
                }
            }
            Err(problems) => {
                let mut report = FileReport::uncompiled(compiled.source.clone(), problems);
                report.model = None;
                report_all(std::slice::from_ref(&report));
            }
        }
    }
}

/// Generated code holds no control character (but its line breaks) and no
/// line terminator of JavaScript or Python (U+2028, U+2029, U+0085, a
/// lone CR) that did not come from the printers themselves.
fn assert_inert_code(name: &str, text: &str) {
    for (at, c) in text.char_indices() {
        let raw = (c.is_control() && c != '\n') || matches!(c, '\u{2028}' | '\u{2029}' | '\u{85}');
        assert!(
            !raw,
            "{name}: a raw {c:?} at byte {at}:\n{}",
            text.chars()
                .skip(text[..at].chars().count().saturating_sub(80))
                .take(160)
                .collect::<String>()
        );
    }
}

/// `agentc diff OLD NEW`: the input is the old version, a NUL byte, then
/// the new one (no NUL: the new is empty). As on the command line, the new
/// version's errors are the report and nothing is compared; otherwise the
/// changes are rendered in every format. A version compared with itself has
/// no change.
pub fn diff(bytes: &[u8]) {
    let (old, new) = match bytes.iter().position(|&b| b == 0) {
        Some(at) => (&bytes[..at], &bytes[at + 1..]),
        None => (bytes, &[][..]),
    };
    let old = agentc::compile("old.yaml", old);
    let mut new = agentc::compile(PROTOCOL, new);
    assert_on_text(&old);
    let options = agentc::diff::Options::default();
    let changes = agentc::diff::reports(&old, &new, "main:old.yaml", &options);
    let itself = agentc::diff::reports(&new, &new, "main:protocol.yaml", &options);
    if !new.has_errors() {
        assert!(
            itself.is_empty(),
            "a version diffed against itself has changes: {:?}",
            itself.iter().map(|d| d.code.name()).collect::<Vec<_>>()
        );
    }
    new.diagnostics.retain(Diagnostic::is_error);
    new.add(changes.into());
    report_all(std::slice::from_ref(&new));
    render::markdown::render(std::slice::from_ref(&new));
}

/// `agentc::compile_again`, as the language server compiles a change: the
/// input is the text before, a NUL byte, then the text after (no NUL: the
/// text after is the text before with its middle byte removed). The text
/// before is compiled, then the text after from it and from nothing; the
/// two reports must be the same, diagnostic for diagnostic and span for
/// span of the model, and so must a third compile, of the text after,
/// from the second, and a compile of the text after from what a compile
/// stopped at its first question gave back ([`agentc::compile_again_unless`]).
pub fn again(bytes: &[u8]) {
    let (old, new) = match bytes.iter().position(|&b| b == 0) {
        Some(at) => (bytes[..at].to_vec(), bytes[at + 1..].to_vec()),
        None => {
            let mut new = bytes.to_vec();
            if !new.is_empty() {
                new.remove(new.len() / 2);
            }
            (bytes.to_vec(), new)
        }
    };
    let before = agentc::compile(PROTOCOL, old.clone());
    assert_on_text(&before);
    let (source, problem) = source::decode(PROTOCOL, new);
    if problem.is_some() {
        return;
    }
    // Stopped at its first question, a compile from nothing gives back the
    // compile before, whole; an edit taken in place is never stopped.
    let stop = || true;
    let cancel = agentc::Cancel::when(&stop);
    let previous = agentc::compile(PROTOCOL, old).into_previous();
    let given_back = match agentc::compile_again_unless(previous, source.clone(), &cancel) {
        Ok(in_place) => in_place.into_previous(),
        Err(cancelled) => {
            assert_eq!(
                cancelled.source.text(),
                source.text(),
                "the text given back"
            );
            cancelled.previous.map(|previous| *previous)
        }
    };
    let fresh = agentc::compile_source(source.clone());
    let again = agentc::compile_again(before.into_previous(), source.clone());
    assert_on_text(&again);
    assert_eq!(
        said(&again),
        said(&fresh),
        "compiled again differs from a compile from nothing"
    );
    let third = agentc::compile_again(again.into_previous(), source.clone());
    assert_eq!(
        said(&third),
        said(&fresh),
        "compiled again from itself differs"
    );
    let after = agentc::compile_again(given_back, source);
    assert_eq!(
        said(&after),
        said(&fresh),
        "compiled from what a stopped compile gave back differs"
    );
}

/// Everything a compile says: each diagnostic whole, the model's every
/// declaration with its spans, and whether it is sound.
fn said(report: &FileReport) -> String {
    format!(
        "{:?}\n{:?}\n{}",
        report.diagnostics,
        report.model.as_ref().map(|m| &m.protocol),
        report.sound
    )
}

/// The model of a protocol without errors; a protocol with errors is
/// reported, as `agentc emit` and `agentc validate` report it.
fn usable(compiled: &FileReport) -> Option<&Model> {
    assert_on_text(compiled);
    if compiled.has_errors() {
        human::render_capped(
            compiled,
            human::Style::Plain,
            human::DEFAULT_MAX_DIAGNOSTICS,
        );
        return None;
    }
    compiled.model.as_ref()
}

/// What `agentc emit` prints: the diagnostics the target added to the
/// protocol's, then the output or the usage error.
fn render_emitted(
    compiled: &FileReport,
    diags: Diagnostics,
    emitted: Result<Output, emit::EmitError>,
) {
    let mut report = FileReport::uncompiled(compiled.source.clone(), compiled.diagnostics.clone());
    report.add(diags);
    assert_on_text(&report);
    human::render_capped(&report, human::Style::Plain, human::DEFAULT_MAX_DIAGNOSTICS);
    match emitted {
        Ok(output) => drop(output.into_text()),
        Err(error) => drop(error.to_string()),
    }
}

/// Checks data read as `agentc validate` reads it, `(source, why it is
/// not text)`, and reports the result in every format.
fn validate_data(
    (source, unreadable): &(Source, Option<Diagnostic>),
    layout: Layout,
    check: impl FnOnce(&Source) -> Vec<Diagnostic>,
) {
    let diagnostics = match unreadable {
        Some(diagnostic) => vec![diagnostic.clone()],
        None => check(source),
    };
    // The summary line counts the values.
    let _ = data::documents(source.text(), layout).count();
    let checked = FileReport::uncompiled(source.clone(), diagnostics);
    report_all(std::slice::from_ref(&checked));
}

/// Renders `files` in every output format the command line has.
fn report_all(files: &[FileReport]) {
    for file in files {
        assert_on_text(file);
        // As the command line draws them: the first few of a flood.
        human::render_capped(file, human::Style::Plain, human::DEFAULT_MAX_DIAGNOSTICS);
        human::render_capped(file, human::Style::Color, human::DEFAULT_MAX_DIAGNOSTICS);
    }
    for (format, text) in [
        ("json", render::json::render(files)),
        ("sarif", render::sarif::render(files)),
    ] {
        if let Err(error) = serde_json::from_str::<serde_json::Value>(&text) {
            panic!("the {format} report is not JSON ({error}):\n{text}");
        }
    }
    render::short::render(files);
    render::github::render(files);
}

/// Every span of every diagnostic (its labels' and its fix's included)
/// lies on the file's text, on character boundaries: the renderers and
/// editors slice the text there.
fn assert_on_text(file: &FileReport) {
    let text = file.source.text();
    for d in &file.diagnostics {
        let labels = d.labels.iter().map(|l| l.span);
        let edits = d.fix.iter().flat_map(|f| f.edits.iter().map(|e| e.span));
        for span in std::iter::once(d.span).chain(labels).chain(edits) {
            let (start, end) = (span.start as usize, span.end as usize);
            assert!(
                start <= end
                    && end <= text.len()
                    && text.is_char_boundary(start)
                    && text.is_char_boundary(end),
                "{}: `{}` has span {span} off the text ({} bytes)",
                file.source.name(),
                d.code.name(),
                text.len()
            );
        }
    }
}
