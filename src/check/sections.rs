//! The format's sections and the declarations: interactive or worker
//! format (the section lists are the grammar's, read through
//! [`crate::model::format`]), names and their conventions, names declared
//! twice, MCP server options, and a handler for every trigger.

use super::naming;
use super::references::{TOOL, check_listed, unknown};
use super::settings::check_presentation;
use crate::diagnostic::{Applicability, Code, Diagnostic, Diagnostics, article};
use crate::model::resolve::SymbolKind;
use crate::model::{Model, format};
use crate::span::Span;
use crate::syntax::{Field, Name};
use std::collections::{HashMap, HashSet};

/// Names the platform reserves for its own tools (`octavus_web_search`).
pub(super) const RESERVED_PREFIX: &str = "octavus_";

pub(super) const FORMATS_HELP: &str = "an interactive agent has `triggers`, `handlers` and `agent` (with `model:` and `system:`); a worker has `steps` and `output`";

/// A protocol without a declaration; `first` is its first (empty)
/// section, if it has one.
fn declares_nothing(first: Option<Span>) -> Diagnostic {
    let (span, message) = match first {
        Some(first) => (
            first,
            "this protocol declares nothing: its sections are empty",
        ),
        None => (
            Span::empty(0),
            "this protocol declares nothing: it has no sections",
        ),
    };
    Diagnostic::new(Code::ProtocolFormat, span, message).with_help(FORMATS_HELP)
}

/// `first` is the first worker section, `interactive` the interactive ones.
fn mixed_formats(first: &Name, interactive: &[&Name]) -> Diagnostic {
    let mut diagnostic = Diagnostic::new(
        Code::ProtocolFormat,
        first.span,
        format!(
            "`{}` belongs to the worker format, but this protocol also has interactive sections",
            first.text
        ),
    );
    for name in interactive {
        diagnostic = diagnostic.with_label(name.span, format!("`{}` is interactive", name.text));
    }
    diagnostic.with_help(
        "an interactive agent has `triggers`, `handlers` and `agent`; a worker has `steps` and `output`; split them into two agents",
    )
}

fn output_without_steps(output: Span) -> Diagnostic {
    Diagnostic::new(
        Code::ProtocolFormat,
        output,
        "this worker has an `output` but no `steps`",
    )
    .with_help("add `steps:` with the blocks that compute the output")
}

/// `first` is the protocol's first interactive section.
fn interactive_without_agent(first: Span) -> Diagnostic {
    Diagnostic::new(
        Code::ProtocolFormat,
        first,
        "this interactive protocol has no `agent` section",
    )
    .with_help("add `agent:` with at least `model:` and `system:`; it configures the main thread the handlers talk to")
}

fn agent_of_neither_format(span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::ProtocolFormat,
        span,
        "this `protocol.yaml` has the sections of neither agent format, so no agent can run it",
    )
    .with_help(FORMATS_HELP)
    .with_note(
        "a file of shared types or tools checks alone under another name, such as `types.yaml`",
    )
}

/// `what` says what the name is (`tool name`).
fn reserved_name(what: &str, name: &Name) -> Diagnostic {
    Diagnostic::new(
        Code::ReservedName,
        name.span,
        format!(
            "{what} `{}` uses the reserved prefix `{RESERVED_PREFIX}`",
            name.text
        ),
    )
    .with_help("choose a name without the prefix; Octavus names its built-in tools `octavus_*`")
}

/// `name` is declared as `what` and, at `earlier_span`, as `earlier`
/// (`input`, `resource`, `variable`).
fn variable_declared_twice(
    name: &Name,
    what: &str,
    earlier: &str,
    earlier_span: Span,
) -> Diagnostic {
    Diagnostic::new(
        Code::DuplicateVariable,
        name.span,
        format!(
            "`{}` is declared as both {} and {}",
            name.text,
            with_article(earlier),
            with_article(what)
        ),
    )
    .with_label(
        earlier_span,
        format!("declared as {} here", with_article(earlier)),
    )
    .with_help("rename one of them; references name one namespace")
}

/// A trigger input named as the protocol's `what` declared at `declared`.
fn trigger_input_shadows(input: &Name, what: &str, declared: Span) -> Diagnostic {
    Diagnostic::new(
        Code::DuplicateVariable,
        input.span,
        format!(
            "trigger input `{}` has the name of {} declared at protocol level",
            input.text,
            with_article(what)
        ),
    )
    .with_label(declared, format!("declared as {} here", with_article(what)))
    .with_help("rename the trigger input; in its handler the name would mean two things")
}

/// `key` (`connection`, `execution`) on an MCP server whose `source` is
/// not `remote`.
fn invalid_mcp_option(key: &str, option: Span, server: &str, source: &Name) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidMcpOption,
        option,
        format!(
            "`{key}` is only valid on `source: remote`, but MCP server `{server}` is `{}`",
            source.text
        ),
    )
    .with_label(source.span, format!("`source: {}`", source.text))
    .with_help(format!(
        "remove `{key}`; `{}` servers already run outside the platform",
        source.text
    ))
}

fn invalid_mcp_namespace(namespace: &Name) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidMcpNamespace,
        namespace.span,
        format!(
            "`{}` cannot be the namespace of a `consumer` MCP server",
            namespace.text
        ),
    )
    .with_help(format!(
        "use lowercase letters, digits and `-`, starting with a letter (`{}`), here and in `createInlineMcpServer()`",
        inline_namespace(&namespace.text)
    ))
    .with_note("the server SDK's `createInlineMcpServer()` throws for a namespace that does not match `^[a-z][a-z0-9-]*$`, and the protocol's key must be that namespace")
}

/// `tool` is named `namespace__rest`, like a tool of the inline server.
fn mcp_tool_collision(tool: &Name, rest: &str, namespace: &Name) -> Diagnostic {
    Diagnostic::new(
        Code::McpToolCollision,
        tool.span,
        format!(
            "tool `{}` is named like the tool `{rest}` of the `consumer` MCP server `{}`",
            tool.text, namespace.text
        ),
    )
    .with_label(namespace.span, format!("the namespace `{}`", namespace.text))
    .with_help(format!(
        "rename the tool; `{}__` names belong to the MCP server",
        namespace.text
    ))
    .with_note("if the inline server has that tool, the server SDK refuses to attach the session: a namespaced tool may not collide with a tool handler")
}

/// `handlers` is the `handlers:` section, if there is one.
fn missing_handler(trigger: &Name, handlers: Option<Span>) -> Diagnostic {
    let diagnostic = Diagnostic::new(
        Code::MissingHandler,
        trigger.span,
        format!("trigger `{}` has no handler", trigger.text),
    )
    .with_help(format!(
        "add `{}:` under `handlers:` with the blocks to run when it fires",
        trigger.text
    ));
    match handlers {
        Some(section) => diagnostic.with_label(section, "handlers are declared here"),
        None => diagnostic,
    }
}

/// Interactive (`triggers`, `handlers`, `agent`) and worker (`steps`,
/// `output`) sections do not mix, and each format has what it needs. A
/// file with neither (only `types:`, say) is checked as a part of a
/// protocol, for what it declares; one that declares nothing at all is an
/// error, as an empty file is (unless an error already says why). An agent's `protocol.yaml` must be whole:
/// [`agent_format`].
pub(super) fn check_format(model: &Model, diags: &mut Diagnostics) {
    let protocol = &model.protocol;
    // Said only when nothing else is wrong: a section of the wrong shape or
    // a misspelt one (`tols:`) is why a protocol declares nothing, and is
    // already reported.
    if protocol.is_empty() && !diags.has_errors() {
        diags.push(declares_nothing(protocol.sections.first().map(|s| s.span)));
        return;
    }
    let interactive: Vec<&Name> = format::interactive_sections(protocol);
    let worker: Vec<&Name> = format::worker_sections(protocol);
    if let (Some(first), false) = (worker.first(), interactive.is_empty()) {
        diags.push(mixed_formats(first, &interactive));
        return;
    }
    if let (Some(output), None) = (protocol.section("output"), protocol.section("steps")) {
        diags.push(output_without_steps(output.span));
    }
    if protocol.agent.is_none()
        && let Some(first) = interactive.first()
    {
        diags.push(interactive_without_agent(first.span));
    }
}

/// What an agent's `protocol.yaml` (the file `octavus sync` uploads as
/// the agent) lacks when it has the sections of neither format: it holds
/// only declarations (`types:`, `tools:`), which no agent can run. Other
/// files are parts of protocols, and [`check_format`] judges them.
pub fn agent_format(model: &Model) -> Option<Diagnostic> {
    let protocol = &model.protocol;
    let neither = format::interactive_sections(protocol).is_empty() && !format::is_worker(protocol);
    if protocol.is_empty() || !neither {
        return None;
    }
    let span = protocol.sections.first().map_or(Span::empty(0), |s| s.span);
    Some(agent_of_neither_format(span))
}

/// Naming conventions, the reserved prefix, and names declared twice.
pub(super) fn check_names(model: &Model, renaming: &naming::Renaming, diags: &mut Diagnostics) {
    let protocol = &model.protocol;
    let variables = [
        ("input name", &protocol.input),
        ("resource name", &protocol.resources),
        ("variable name", &protocol.variables),
    ];
    for (what, fields) in variables {
        for field in fields {
            naming::check_variable_name(renaming, what, &field.name, diags);
        }
    }
    for trigger in &protocol.triggers {
        for field in &trigger.input {
            naming::check_variable_name(renaming, "trigger input name", &field.name, diags);
        }
    }
    let slugs = protocol
        .triggers
        .iter()
        .map(|t| ("trigger name", SymbolKind::Trigger, &t.name))
        .chain(
            protocol
                .tools
                .iter()
                .map(|t| ("tool name", SymbolKind::Tool, &t.name)),
        )
        .chain(
            protocol
                .skills
                .iter()
                .map(|s| ("skill name", SymbolKind::Skill, &s.name)),
        )
        .chain(
            protocol
                .mcp_servers
                .iter()
                .map(|m| ("MCP server name", SymbolKind::McpServer, &m.name)),
        )
        .chain(
            protocol
                .workers
                .iter()
                .map(|w| ("worker name", SymbolKind::Worker, &w.name)),
        );
    for (what, kind, name) in slugs {
        if name.text.starts_with(RESERVED_PREFIX) {
            diags.push(reserved_name(what, name));
        } else {
            naming::check_slug(renaming, what, kind, name, diags);
        }
    }
    let prompts = protocol
        .agent
        .iter()
        .filter_map(|a| a.config.system.as_ref())
        .chain(protocol.blocks().filter_map(|b| {
            b.prompt
                .as_ref()
                .or_else(|| b.config.as_ref().and_then(|c| c.system.as_ref()))
        }));
    for name in prompts {
        naming::check_prompt_name(name, diags);
    }
    check_duplicate_variables(model, diags);
}

/// One name in two of `input`, `resources`, `variables`, or a trigger input
/// shadowing one of them: a reference could not say which it means.
pub(super) fn check_duplicate_variables(model: &Model, diags: &mut Diagnostics) {
    let protocol = &model.protocol;
    let sections: [(&str, &Vec<Field>); 3] = [
        ("input", &protocol.input),
        ("resource", &protocol.resources),
        ("variable", &protocol.variables),
    ];
    let mut first: HashMap<&str, (&str, Span)> = HashMap::new();
    for (what, fields) in sections {
        for field in fields {
            let name = field.name.text.as_str();
            match first.get(name) {
                Some(&(earlier, span)) if earlier != what => {
                    diags.push(variable_declared_twice(&field.name, what, earlier, span));
                }
                Some(_) => {}
                None => {
                    first.insert(name, (what, field.name.span));
                }
            }
        }
    }
    for trigger in &protocol.triggers {
        for field in &trigger.input {
            if let Some(&(what, span)) = first.get(field.name.text.as_str()) {
                diags.push(trigger_input_shadows(&field.name, what, span));
            }
        }
    }
}

/// "an input", "a variable".
pub(super) fn with_article(what: &str) -> String {
    format!("{} {what}", article(what))
}

/// Tools, skills, MCP servers and workers: presentation and MCP rules.
pub(super) fn check_declarations(model: &Model, diags: &mut Diagnostics) {
    let protocol = &model.protocol;
    for tool in &protocol.tools {
        check_presentation(&tool.presentation, diags);
    }
    for skill in &protocol.skills {
        check_presentation(&skill.presentation, diags);
    }
    for source in &protocol.on_demand_mcp_servers {
        check_presentation(&source.presentation, diags);
        // "Currently supported for `source: remote`" (the MCP servers page).
        if source.source.text != "remote" {
            diags.push(
                Diagnostic::new(
                    Code::IneffectiveSetting,
                    source.source.span,
                    format!(
                        "on-demand MCP servers are supported for the `remote` source only, so `{}` opts into nothing",
                        source.source.text
                    ),
                )
                .with_help(format!(
                    "declare each `{}` server under `mcpServers:`, or remove this entry",
                    source.source.text
                )),
            );
        }
    }
    if let Some(skill) = &protocol.on_demand_skills {
        check_presentation(&skill.presentation, diags);
    }
    let anthropic = protocol
        .agent
        .iter()
        .filter_map(|a| a.config.anthropic.as_ref());
    for anthropic in anthropic {
        for (_, presentation) in anthropic.tools.iter().chain(&anthropic.skills) {
            check_presentation(presentation, diags);
        }
    }
    for server in &protocol.mcp_servers {
        check_presentation(&server.presentation, diags);
        let Some(source) = &server.source else {
            continue;
        };
        if source.text == "remote" {
            continue;
        }
        let options = [
            ("connection", &server.connection),
            ("execution", &server.execution),
        ];
        for (key, option) in options {
            let Some(option) = option else {
                continue;
            };
            diags.push(invalid_mcp_option(
                key,
                option.span,
                &server.name.text,
                source,
            ));
        }
    }
    check_consumer_mcp(model, diags);
    for worker in &protocol.workers {
        check_presentation(&worker.presentation, diags);
        let parents = worker.tools.iter().map(|(_, parent)| parent);
        let tools = || protocol.tools.iter().map(|t| &t.name);
        check_listed(parents, |n| model.tool(n).is_some(), tools, TOOL, diags);
    }
}

/// An MCP server with `source: consumer` is served by the server SDK's
/// `createInlineMcpServer(namespace, ...)`, which throws unless the
/// namespace (the server's key here) matches `^[a-z][a-z0-9-]*$`; and
/// attaching throws when a namespaced tool (`namespace__tool`, the tool
/// matching `^[a-z][a-z0-9_-]*$`) has the name of a tool handler, that
/// is, of a declared tool. The inline server's tool names are not in the
/// protocol, so a declared tool named like one of them is a warning.
fn check_consumer_mcp(model: &Model, diags: &mut Diagnostics) {
    let protocol = &model.protocol;
    let consumers = protocol
        .mcp_servers
        .iter()
        .filter(|s| s.source.as_ref().is_some_and(|s| s.text == "consumer"));
    for server in consumers {
        let namespace = &server.name;
        if !is_inline_namespace(&namespace.text) {
            diags.push(invalid_mcp_namespace(namespace));
            continue;
        }
        let prefix = format!("{}__", namespace.text);
        for tool in &protocol.tools {
            let Some(rest) = tool.name.text.strip_prefix(&prefix) else {
                continue;
            };
            if !is_inline_tool(rest) {
                continue;
            }
            diags.push(mcp_tool_collision(&tool.name, rest, namespace));
        }
    }
}

/// `^[a-z][a-z0-9-]*$`: a namespace `createInlineMcpServer()` accepts.
fn is_inline_namespace(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// `^[a-z][a-z0-9_-]*$`: a tool name `createInlineMcpServer()` accepts.
fn is_inline_tool(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

/// `name` made into an accepted namespace, as far as it can be: lowercase,
/// other characters as `-`, and a leading `mcp-` when it would not start
/// with a letter.
fn inline_namespace(name: &str) -> String {
    let lowered: String = name
        .chars()
        .map(|c| match c.to_ascii_lowercase() {
            c @ ('a'..='z' | '0'..='9') => c,
            _ => '-',
        })
        .collect();
    let trimmed = lowered.trim_matches('-');
    match trimmed.chars().next() {
        Some(c) if c.is_ascii_lowercase() => trimmed.to_string(),
        _ => format!("mcp-{trimmed}").trim_end_matches('-').to_string(),
    }
}

/// Every trigger has a handler, and every handler a trigger.
pub(super) fn check_handlers(model: &Model, diags: &mut Diagnostics) {
    let protocol = &model.protocol;
    if model.is_worker() {
        return;
    }
    let handled: HashSet<&str> = protocol
        .handlers
        .iter()
        .map(|h| h.trigger.text.as_str())
        .collect();
    for handler in &protocol.handlers {
        if model.trigger(&handler.trigger.text).is_none() {
            let mut diagnostic = unknown(
                Code::UnknownTrigger,
                "trigger",
                &handler.trigger,
                protocol.triggers.iter().map(|t| t.name.text.as_str()),
                "triggers:",
            )
            .with_note("a handler runs when the trigger of the same name fires");
            // The trigger meant already has its handler: renaming this one
            // so would write the handler twice, so it is for a person to
            // judge (merge the two, or rename the other), never `--fix`.
            if let Some(fix) = &mut diagnostic.fix
                && let Some(meant) = fix.edits.first().map(|edit| edit.text.as_str())
                && handled.contains(meant)
            {
                fix.applicability = Applicability::Suggestion;
                let note = format!("`{meant}` has its handler already");
                diagnostic.notes.push(note);
            }
            diags.push(diagnostic);
        }
    }
    for trigger in &protocol.triggers {
        if !handled.contains(trigger.name.text.as_str()) {
            let handlers = protocol.section("handlers").map(|s| s.span);
            diags.push(missing_handler(&trigger.name, handlers));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{inline_namespace, is_inline_namespace, is_inline_tool};

    #[test]
    fn inline_names_follow_the_server_sdk() {
        for good in ["github", "crm-api", "a1", "a-"] {
            assert!(is_inline_namespace(good), "{good}");
        }
        for bad in ["", "GitHub", "crm_api", "2fa", "-a", "é"] {
            assert!(!is_inline_namespace(bad), "{bad}");
        }
        assert!(is_inline_tool("list_prs-2"));
        assert!(!is_inline_tool("_list"));
        assert!(!is_inline_tool(""));
    }

    #[test]
    fn a_refused_namespace_gets_an_accepted_suggestion() {
        for name in ["", "GitHub", "crm_api", "2fa", "__", "é-ü", "a__b"] {
            let suggestion = inline_namespace(name);
            assert!(is_inline_namespace(&suggestion), "{name} -> {suggestion}");
        }
        assert_eq!(inline_namespace("crm_api"), "crm-api");
        assert_eq!(inline_namespace("2fa"), "mcp-2fa");
    }
}
