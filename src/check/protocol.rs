//! The rules of the protocol around the types: the format's sections, names
//! and their conventions, and every cross-reference the docs state, from
//! `agent.tools` to the variables a block reads and the threads it uses.

use super::naming;
use crate::diagnostic::{Code, Diagnostic, Diagnostics, article, nearest};
use crate::model::{Model, VariableOrigin};
use crate::source::Span;
use crate::syntax::{
    Block, BlockKind, Builtin, Field, InputMapping, Name, Presentation, Setting, ThreadConfig,
    Trigger, TypeExprKind,
};
use std::collections::{HashMap, HashSet};

/// Names the platform reserves for its own tools (`octavus_web_search`).
const RESERVED_PREFIX: &str = "octavus_";

/// Most names a help line lists.
const MAX_LISTED: usize = 12;

/// The interactive agent's default thread.
const MAIN_THREAD: &str = "main";

pub fn check(model: &Model, diags: &mut Diagnostics) {
    check_format(model, diags);
    check_names(model, diags);
    check_declarations(model, diags);
    check_handlers(model, diags);
    let facts = Facts::new(model);
    if let Some(agent) = &model.protocol.agent {
        let scope = Scope {
            model,
            facts: &facts,
            trigger: None,
            worker: false,
        };
        check_config(model, &agent.config, &scope, true, diags);
    }
    for handler in &model.protocol.handlers {
        // A handler under a misspelt trigger name (reported) is checked as
        // the handler of the trigger it most likely means, so its reads of
        // that trigger's inputs are not reported again.
        let trigger = model.trigger(&handler.trigger.text).or_else(|| {
            let triggers = model.protocol.triggers.iter().map(|t| t.name.text.as_str());
            nearest(&handler.trigger.text, triggers).and_then(|name| model.trigger(name))
        });
        let scope = Scope {
            model,
            facts: &facts,
            trigger,
            worker: false,
        };
        check_sequence(model, &handler.blocks, &scope, diags);
    }
    let scope = Scope {
        model,
        facts: &facts,
        trigger: None,
        worker: model.is_worker(),
    };
    check_sequence(model, &model.protocol.steps, &scope, diags);
    if let Some(output) = &model.protocol.output {
        check_output(model, output, diags);
    }
}

/// The sections of the interactive format and of the worker format.
const INTERACTIVE: [&str; 3] = ["triggers", "handlers", "agent"];
const WORKER_SECTIONS: [&str; 2] = ["steps", "output"];

/// Interactive (`triggers`, `handlers`, `agent`) and worker (`steps`,
/// `output`) sections do not mix, and each format has what it needs. A
/// file with neither (only `types:`, say) is checked as a part of a
/// protocol, for what it declares; one that declares nothing at all is an
/// error, as an empty file is (unless an error already says why). An agent's `protocol.yaml` must be whole:
/// [`agent_format`].
fn check_format(model: &Model, diags: &mut Diagnostics) {
    let protocol = &model.protocol;
    // Said only when nothing else is wrong: a section of the wrong shape or
    // a misspelt one (`tols:`) is why a protocol declares nothing, and is
    // already reported.
    if protocol.is_empty() && !diags.has_errors() {
        let (span, message) = match protocol.sections.first() {
            Some(first) => (
                first.span,
                "this protocol declares nothing: its sections are empty",
            ),
            None => (
                Span::empty(0),
                "this protocol declares nothing: it has no sections",
            ),
        };
        diags.push(Diagnostic::new(Code::ProtocolFormat, span, message).with_help(FORMATS_HELP));
        return;
    }
    let interactive: Vec<&Name> = INTERACTIVE
        .iter()
        .filter_map(|key| protocol.section(key))
        .collect();
    let worker: Vec<&Name> = WORKER_SECTIONS
        .iter()
        .filter_map(|key| protocol.section(key))
        .collect();
    if let (Some(first), false) = (worker.first(), interactive.is_empty()) {
        let mut diagnostic = Diagnostic::new(
            Code::ProtocolFormat,
            first.span,
            format!(
                "`{}` belongs to the worker format, but this protocol also has interactive sections",
                first.text
            ),
        );
        for name in &interactive {
            diagnostic =
                diagnostic.with_label(name.span, format!("`{}` is interactive", name.text));
        }
        diags.push(diagnostic.with_help(
            "an interactive agent has `triggers`, `handlers` and `agent`; a worker has `steps` and `output`; split them into two agents",
        ));
        return;
    }
    if let (Some(output), None) = (protocol.section("output"), protocol.section("steps")) {
        diags.push(
            Diagnostic::new(
                Code::ProtocolFormat,
                output.span,
                "this worker has an `output` but no `steps`",
            )
            .with_help("add `steps:` with the blocks that compute the output"),
        );
    }
    if protocol.agent.is_none()
        && let Some(first) = interactive.first()
    {
        diags.push(
            Diagnostic::new(
                Code::ProtocolFormat,
                first.span,
                "this interactive protocol has no `agent` section",
            )
            .with_help("add `agent:` with at least `model:` and `system:`; it configures the main thread the handlers talk to"),
        );
    }
}

const FORMATS_HELP: &str = "an interactive agent has `triggers`, `handlers` and `agent` (with `model:` and `system:`); a worker has `steps` and `output`";

/// What an agent's `protocol.yaml` (the file `octavus sync` uploads as
/// the agent) lacks when it has the sections of neither format: it holds
/// only declarations (`types:`, `tools:`), which no agent can run. Other
/// files are parts of protocols, and [`check_format`] judges them.
pub fn agent_format(model: &Model) -> Option<Diagnostic> {
    let protocol = &model.protocol;
    let has = |key: &&str| protocol.section(key).is_some();
    if protocol.is_empty() || INTERACTIVE.iter().any(has) || WORKER_SECTIONS.iter().any(has) {
        return None;
    }
    let span = protocol.sections.first().map_or(Span::empty(0), |s| s.span);
    Some(
        Diagnostic::new(
            Code::ProtocolFormat,
            span,
            "this `protocol.yaml` has the sections of neither agent format, so no agent can run it",
        )
        .with_help(FORMATS_HELP)
        .with_note(
            "a file of shared types or tools checks alone under another name, such as `types.yaml`",
        ),
    )
}

/// Naming conventions, the reserved prefix, and names declared twice.
fn check_names(model: &Model, diags: &mut Diagnostics) {
    let protocol = &model.protocol;
    let variables = [
        ("input name", &protocol.input),
        ("resource name", &protocol.resources),
        ("variable name", &protocol.variables),
    ];
    for (what, fields) in variables {
        for field in fields {
            naming::check_variable_name(what, &field.name, diags);
        }
    }
    for trigger in &protocol.triggers {
        for field in &trigger.input {
            naming::check_variable_name("trigger input name", &field.name, diags);
        }
    }
    let slugs = protocol
        .triggers
        .iter()
        .map(|t| ("trigger name", &t.name))
        .chain(protocol.tools.iter().map(|t| ("tool name", &t.name)))
        .chain(protocol.skills.iter().map(|s| ("skill name", &s.name)))
        .chain(
            protocol
                .mcp_servers
                .iter()
                .map(|m| ("MCP server name", &m.name)),
        )
        .chain(protocol.workers.iter().map(|w| ("worker name", &w.name)));
    for (what, name) in slugs {
        if name.text.starts_with(RESERVED_PREFIX) {
            diags.push(
                Diagnostic::new(
                    Code::ReservedName,
                    name.span,
                    format!("{what} `{}` uses the reserved prefix `{RESERVED_PREFIX}`", name.text),
                )
                .with_help("choose a name without the prefix; Octavus names its built-in tools `octavus_*`"),
            );
        } else {
            naming::check_slug(what, name, diags);
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
fn check_duplicate_variables(model: &Model, diags: &mut Diagnostics) {
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
                Some(&(earlier, span)) if earlier != what => diags.push(
                    Diagnostic::new(
                        Code::DuplicateVariable,
                        field.name.span,
                        format!(
                            "`{name}` is declared as both {} and {}",
                            with_article(earlier),
                            with_article(what)
                        ),
                    )
                    .with_label(span, format!("declared as {} here", with_article(earlier)))
                    .with_help("rename one of them; references name one namespace"),
                ),
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
                diags.push(
                    Diagnostic::new(
                        Code::DuplicateVariable,
                        field.name.span,
                        format!(
                            "trigger input `{}` has the name of {} declared at protocol level",
                            field.name.text,
                            with_article(what)
                        ),
                    )
                    .with_label(span, format!("declared as {} here", with_article(what)))
                    .with_help(
                        "rename the trigger input; in its handler the name would mean two things",
                    ),
                );
            }
        }
    }
}

/// "an input", "a variable".
fn with_article(what: &str) -> String {
    format!("{} {what}", article(what))
}

/// Tools, skills, MCP servers and workers: presentation and MCP rules.
fn check_declarations(model: &Model, diags: &mut Diagnostics) {
    let protocol = &model.protocol;
    for tool in &protocol.tools {
        check_presentation(&tool.presentation, diags);
    }
    for skill in &protocol.skills {
        check_presentation(&skill.presentation, diags);
    }
    for source in &protocol.on_demand_mcp_servers {
        check_presentation(&source.presentation, diags);
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
            diags.push(
                Diagnostic::new(
                    Code::InvalidMcpOption,
                    option.span,
                    format!(
                        "`{key}` is only valid on `source: remote`, but MCP server `{}` is `{}`",
                        server.name.text, source.text
                    ),
                )
                .with_label(source.span, format!("`source: {}`", source.text))
                .with_help(format!(
                    "remove `{key}`; `{}` servers already run outside the platform",
                    source.text
                )),
            );
        }
    }
    for worker in &protocol.workers {
        check_presentation(&worker.presentation, diags);
        let parents = worker.tools.iter().map(|(_, parent)| parent);
        let tools = || protocol.tools.iter().map(|t| &t.name);
        check_listed(parents, |n| model.tool(n).is_some(), tools, TOOL, diags);
    }
}

/// `title` shows only with `display: title`, which is never the default.
fn check_presentation(presentation: &Presentation, diags: &mut Diagnostics) {
    let Some(title) = &presentation.title else {
        return;
    };
    let diagnostic = match &presentation.display {
        Some(display) if display.text == "title" => return,
        Some(display) => Diagnostic::new(
            Code::IneffectiveSetting,
            title.span,
            format!(
                "`title` is shown only with `display: title`, but `display` is `{}`",
                display.text
            ),
        )
        .with_label(display.span, "set here"),
        None => Diagnostic::new(
            Code::IneffectiveSetting,
            title.span,
            "`title` is shown only with `display: title`, and `display` is not set",
        ),
    };
    diags.push(diagnostic.with_help("write `display: title`, or remove `title`"));
}

/// Each of `listed` that `exists` rejects is reported as not declared, with
/// did-you-mean among the `declared` names (produced only then).
fn check_listed<'a, 'l, I: Iterator<Item = &'a Name>>(
    listed: impl IntoIterator<Item = &'l Name>,
    exists: impl Fn(&str) -> bool,
    declared: impl Fn() -> I,
    (code, what, section): (Code, &str, &str),
    diags: &mut Diagnostics,
) {
    for name in listed.into_iter().filter(|n| !exists(&n.text)) {
        diags.push_with(code, || {
            let candidates = declared().map(|n| n.text.as_str());
            unknown(code, what, name, candidates, section)
        });
    }
}

const TOOL: (Code, &str, &str) = (Code::UnknownTool, "tool", "tools:");
const SKILL: (Code, &str, &str) = (Code::UnknownSkill, "skill", "skills:");
const MCP_SERVER: (Code, &str, &str) = (Code::UnknownMcpServer, "MCP server", "mcpServers:");
const ON_DEMAND_SOURCE: (Code, &str, &str) = (
    Code::UnknownMcpServer,
    "on-demand MCP source",
    "onDemandMcpServers:",
);
const WORKER: (Code, &str, &str) = (Code::UnknownWorker, "worker", "workers:");

/// "`x` is not declared" with did-you-mean among `candidates`.
fn unknown<'a>(
    code: Code,
    what: &str,
    name: &Name,
    candidates: impl Iterator<Item = &'a str>,
    section: &str,
) -> Diagnostic {
    let diagnostic = Diagnostic::new(
        code,
        name.span,
        format!("{what} `{}` is not declared", name.text),
    );
    match nearest(&name.text, candidates) {
        Some(near) => diagnostic.did_you_mean(name.span, near),
        None => diagnostic.with_help(format!("declare it under `{section}`")),
    }
}

/// Every trigger has a handler, and every handler a trigger.
fn check_handlers(model: &Model, diags: &mut Diagnostics) {
    let protocol = &model.protocol;
    if model.is_worker() {
        return;
    }
    for handler in &protocol.handlers {
        if model.trigger(&handler.trigger.text).is_none() {
            diags.push(
                unknown(
                    Code::UnknownTrigger,
                    "trigger",
                    &handler.trigger,
                    protocol.triggers.iter().map(|t| t.name.text.as_str()),
                    "triggers:",
                )
                .with_note("a handler runs when the trigger of the same name fires"),
            );
        }
    }
    let handled: HashSet<&str> = protocol
        .handlers
        .iter()
        .map(|h| h.trigger.text.as_str())
        .collect();
    for trigger in &protocol.triggers {
        if !handled.contains(trigger.name.text.as_str()) {
            let mut diagnostic = Diagnostic::new(
                Code::MissingHandler,
                trigger.name.span,
                format!("trigger `{}` has no handler", trigger.name.text),
            )
            .with_help(format!(
                "add `{}:` under `handlers:` with the blocks to run when it fires",
                trigger.name.text
            ));
            if let Some(section) = protocol.section("handlers") {
                diagnostic = diagnostic.with_label(section.span, "handlers are declared here");
            }
            diags.push(diagnostic);
        }
    }
}

/// What a reference can name where it stands.
struct Scope<'m> {
    model: &'m Model,
    facts: &'m Facts<'m>,
    /// The trigger whose handler this is: its inputs are in scope.
    trigger: Option<&'m Trigger>,
    /// In a worker's steps (no main thread).
    worker: bool,
}

impl<'m> Scope<'m> {
    fn trigger_input(&self, name: &str) -> Option<&'m Field> {
        let trigger = self.trigger?.name.text.as_str();
        self.facts.trigger_inputs.get(&(trigger, name)).copied()
    }

    /// Whether `name` can be read here.
    fn resolves(&self, name: &str) -> bool {
        self.model.variable(name).is_some() || self.trigger_input(name).is_some()
    }

    /// The unknown-variable diagnostic for `name`, explaining why it is not
    /// in scope when it is declared elsewhere.
    fn unknown_variable(&self, name: &Name, role: &str) -> Diagnostic {
        let mut diagnostic = Diagnostic::new(
            Code::UnknownVariable,
            name.span,
            format!(
                "{role} `{}` is not a declared input, resource or variable",
                name.text
            ),
        );
        let elsewhere = self.facts.input_owners.get(name.text.as_str());
        if let Some(owner) = elsewhere {
            let here = match self.trigger {
                Some(trigger) => format!("in the handler of `{}`", trigger.name.text),
                None => "here".to_string(),
            };
            return diagnostic.with_help(format!(
                "`{}` is an input of trigger `{}`, available only in its handler, not {here}",
                name.text, owner.name.text
            ));
        }
        let protocol = &self.model.protocol;
        let candidates = protocol
            .input
            .iter()
            .chain(&protocol.resources)
            .chain(&protocol.variables)
            .chain(self.trigger.map(|t| t.input.as_slice()).unwrap_or_default())
            .map(|f| f.name.text.as_str());
        diagnostic = match nearest(&name.text, candidates) {
            Some(near) => diagnostic.did_you_mean(name.span, near),
            None => diagnostic.with_help(format!(
                "declare `{}` under `variables:` (or `input:`)",
                name.text
            )),
        };
        diagnostic
    }
}

/// A thread configuration: `agent:` (`is_agent`) or a `start-thread` block.
fn check_config(
    model: &Model,
    config: &ThreadConfig,
    scope: &Scope,
    is_agent: bool,
    diags: &mut Diagnostics,
) {
    let protocol = &model.protocol;
    let tools = || protocol.tools.iter().map(|t| &t.name);
    let skills = || protocol.skills.iter().map(|s| &s.name);
    let servers = || protocol.mcp_servers.iter().map(|m| &m.name);
    // Only the three valid sources are kept: a scan is a lookup.
    let sources = || protocol.on_demand_mcp_servers.iter().map(|s| &s.source);
    let workers = || protocol.workers.iter().map(|w| &w.name);
    check_listed(
        &config.tools,
        |n| model.tool(n).is_some(),
        tools,
        TOOL,
        diags,
    );
    check_listed(
        &config.skills,
        |n| model.skill(n).is_some(),
        skills,
        SKILL,
        diags,
    );
    let server = |n: &str| model.mcp_server(n).is_some();
    check_listed(&config.mcp_servers, server, servers, MCP_SERVER, diags);
    let source = |n: &str| sources().any(|s| s.text == n);
    let listed = &config.on_demand_mcp_servers;
    check_listed(listed, source, sources, ON_DEMAND_SOURCE, diags);
    check_listed(
        &config.workers,
        |n| model.worker(n).is_some(),
        workers,
        WORKER,
        diags,
    );
    for mapping in &config.input {
        check_source(mapping, scope, "`input` source", diags);
    }
    check_settings(model, config, diags);
    if is_agent {
        check_context_management(model, config, diags);
    }
}

fn check_source(mapping: &InputMapping, scope: &Scope, role: &str, diags: &mut Diagnostics) {
    if !scope.resolves(&mapping.source.text) {
        diags.push(scope.unknown_variable(&mapping.source, role));
    }
}

/// Dynamic values name inputs or variables; provider options and speed
/// agree with a literal model.
fn check_settings(model: &Model, config: &ThreadConfig, diags: &mut Diagnostics) {
    let dynamic = [
        ("model", &config.model),
        ("backupModel", &config.backup_model),
        ("imageModel", &config.image_model),
        ("videoModel", &config.video_model),
        ("speechModel", &config.speech_model),
        ("speechVoice", &config.speech_voice),
        ("transcriptionModel", &config.transcription_model),
        ("temperature", &config.temperature),
        ("thinking", &config.thinking),
        ("speed", &config.speed),
        ("maxSteps", &config.max_steps),
    ];
    for (key, setting) in dynamic {
        if let Some(Setting::Variable(name)) = setting {
            check_dynamic(model, key, name, diags);
        }
    }
    let literal_model = match &config.model {
        Some(Setting::Literal(name)) => Some(name),
        _ => None,
    };
    if let (Some(anthropic), Some(model_name)) = (&config.anthropic, literal_model) {
        let provider = model_name.text.split('/').next().unwrap_or_default();
        if provider != "anthropic" {
            diags.push(
                Diagnostic::new(
                    Code::ProviderOptionMismatch,
                    anthropic.key,
                    format!("`anthropic` options require an anthropic model, but the model provider is `{provider}`"),
                )
                .with_label(model_name.span, format!("the model is `{}`", model_name.text))
                .with_help("use an `anthropic/*` model, or remove the `anthropic:` options"),
            );
        }
    }
    if let (Some(Setting::Literal(speed)), Some(model_name)) = (&config.speed, literal_model)
        && speed.text == "fast"
        && !supports_fast_mode(&model_name.text)
    {
        diags.push(
            Diagnostic::new(
                Code::IneffectiveSetting,
                speed.span,
                format!("`speed: fast` has no effect on `{}`", model_name.text),
            )
            .with_label(model_name.span, "this model runs at standard speed")
            .with_help("fast mode applies only to Anthropic Opus 5, 4.8, 4.7 and 4.6; remove `speed` or change the model"),
        );
    }
    if let (Some(voice), None) = (&config.speech_voice, &config.speech_model) {
        diags.push(
            Diagnostic::new(
                Code::IneffectiveSetting,
                voice.span(),
                "`speechVoice` has no effect without `speechModel`",
            )
            .with_help("add `speechModel:` (for example `openai/gpt-4o-mini-tts`), or remove `speechVoice`"),
        );
    }
}

/// Anthropic Opus 5, 4.8, 4.7 and 4.6, by any route.
fn supports_fast_mode(model: &str) -> bool {
    let Some((_, rest)) = model.split_once("claude-opus-") else {
        return false;
    };
    ["5", "4-8", "4.8", "4-7", "4.7", "4-6", "4.6"]
        .iter()
        .any(|version| {
            rest.strip_prefix(version)
                .is_some_and(|tail| tail.is_empty() || tail.starts_with(['-', '@', ':']))
        })
}

/// `temperature: TEMPERATURE` names a declared input or variable.
fn check_dynamic(model: &Model, key: &str, name: &Name, diags: &mut Diagnostics) {
    match model.variable(&name.text) {
        Some((VariableOrigin::Input | VariableOrigin::Variable, _)) => {}
        Some((VariableOrigin::Resource, _)) => diags.push(
            Diagnostic::new(
                Code::UnknownVariable,
                name.span,
                format!(
                    "`{key}` names resource `{}`; dynamic settings read inputs or variables",
                    name.text
                ),
            )
            .with_help(format!("declare `{}` under `input:`", name.text)),
        ),
        None => {
            let protocol = &model.protocol;
            let candidates = protocol
                .input
                .iter()
                .chain(&protocol.variables)
                .map(|f| f.name.text.as_str());
            let diagnostic = Diagnostic::new(
                Code::UnknownVariable,
                name.span,
                format!(
                    "`{key}` names `{}`, which is not a declared input or variable",
                    name.text
                ),
            );
            diags.push(match nearest(&name.text, candidates) {
                Some(near) => diagnostic.did_you_mean(name.span, near),
                None => diagnostic
                    .with_help(format!(
                        "declare `{}` under `input:` so the session can set it",
                        name.text
                    ))
                    .with_note("an UPPERCASE_SNAKE_CASE value is read as a variable reference"),
            });
        }
    }
}

fn check_context_management(model: &Model, config: &ThreadConfig, diags: &mut Diagnostics) {
    let Some(management) = &config.context_management else {
        return;
    };
    let Some(worker) = &management.summarizer_worker else {
        return;
    };
    let workers = || model.protocol.workers.iter().map(|w| &w.name);
    check_listed(
        [worker],
        |n| model.worker(n).is_some(),
        workers,
        WORKER,
        diags,
    );
    if let Some(listed) = config.workers.iter().find(|w| w.text == worker.text) {
        diags.push(
            Diagnostic::new(
                Code::IneffectiveSetting,
                listed.span,
                format!("summarizer worker `{}` is also offered to the model", worker.text),
            )
            .with_label(worker.span, "the summarizer is invoked automatically")
            .with_help("remove it from `agent.workers`; the model should never call the summarizer as a tool"),
        );
    }
    if management.recent_percent.is_none() {
        diags.push(
            Diagnostic::new(
                Code::IneffectiveSetting,
                worker.span,
                format!(
                    "summarizer worker `{}` never runs without `recentPercent`",
                    worker.text
                ),
            )
            .with_label(management.key, "in this `contextManagement`")
            .with_help(
                "add `recentPercent: 0.3` (the fraction of the context window kept verbatim)",
            ),
        );
    }
}

/// What the whole protocol says about variables and threads, gathered once.
struct Facts<'m> {
    /// Variable name → the handlers (by trigger name) whose blocks write it.
    writers: HashMap<&'m str, Vec<&'m str>>,
    /// Threads started by any block: interactive threads persist across
    /// triggers, so a later handler may use one started in another.
    started_anywhere: HashSet<&'m str>,
    /// The same threads, in declaration order, for suggestions.
    thread_names: Vec<&'m str>,
    /// Trigger input name → the first trigger that declares it.
    input_owners: HashMap<&'m str, &'m Trigger>,
    /// (trigger, input name) → the input.
    trigger_inputs: HashMap<(&'m str, &'m str), &'m Field>,
}

impl<'m> Facts<'m> {
    fn new(model: &'m Model) -> Facts<'m> {
        let protocol = &model.protocol;
        let mut writers: HashMap<&str, Vec<&str>> = HashMap::new();
        for handler in &protocol.handlers {
            for block in &handler.blocks {
                if let Some(output) = &block.output {
                    let handlers = writers.entry(output.text.as_str()).or_default();
                    if handlers.last() != Some(&handler.trigger.text.as_str()) {
                        handlers.push(handler.trigger.text.as_str());
                    }
                }
            }
        }
        let thread_names: Vec<&str> = protocol
            .blocks()
            .filter(|b| b.kind == Some(BlockKind::StartThread))
            .filter_map(|b| b.thread.as_ref().map(|t| t.text.as_str()))
            .collect();
        let started_anywhere = thread_names.iter().copied().collect();
        let mut input_owners = HashMap::new();
        let mut trigger_inputs = HashMap::new();
        for trigger in &protocol.triggers {
            for field in &trigger.input {
                let name = field.name.text.as_str();
                input_owners.entry(name).or_insert(trigger);
                trigger_inputs
                    .entry((trigger.name.text.as_str(), name))
                    .or_insert(field);
            }
        }
        Facts {
            writers,
            started_anywhere,
            thread_names,
            input_owners,
            trigger_inputs,
        }
    }

    /// Whether a handler other than `trigger`'s writes `name`.
    fn written_elsewhere(&self, name: &str, trigger: &str) -> bool {
        self.writers
            .get(name)
            .is_some_and(|handlers| handlers.iter().any(|h| *h != trigger))
    }
}

/// The blocks of one handler, or a worker's steps, in order.
fn check_sequence(model: &Model, blocks: &[Block], scope: &Scope, diags: &mut Diagnostics) {
    let mut written: HashSet<&str> = HashSet::new();
    let mut started: HashSet<&str> = HashSet::new();
    // Each thread's first `start-thread` in this sequence.
    let mut starts: HashMap<&str, &Block> = HashMap::new();
    for block in blocks
        .iter()
        .filter(|b| b.kind == Some(BlockKind::StartThread))
    {
        if let Some(thread) = &block.thread {
            starts.entry(thread.text.as_str()).or_insert(block);
        }
    }
    for block in blocks {
        let Some(kind) = block.kind else {
            continue;
        };
        check_presentation(&block.presentation, diags);
        let reads = block
            .input
            .iter()
            .map(|m| (&m.source, "`input` source"))
            .chain(block.reads.iter().map(|r| (&r.name, r.role)))
            .chain(block.arguments.iter().filter_map(|a| match &a.value {
                Setting::Variable(name) => Some((name, "tool input")),
                Setting::Literal(_) => None,
            }));
        for (name, role) in reads {
            if !scope.resolves(&name.text) {
                diags.push(scope.unknown_variable(name, role));
            } else {
                check_read_before_write(model, name, scope, &written, diags);
            }
        }
        if let Some(output) = &block.output {
            check_output(model, output, diags);
        }
        match kind {
            BlockKind::StartThread => {
                if let Some(config) = &block.config {
                    check_config(model, config, scope, false, diags);
                }
            }
            BlockKind::ToolCall => check_tool_call(model, block, diags),
            BlockKind::SetResource => check_set_resource(model, block, diags),
            BlockKind::RunWorker => {
                let listed = &block.worker;
                let workers = || model.protocol.workers.iter().map(|w| &w.name);
                check_listed(
                    listed,
                    |n| model.worker(n).is_some(),
                    workers,
                    WORKER,
                    diags,
                );
            }
            BlockKind::NextMessage => check_response_output(model, block, diags),
            _ => {}
        }
        for setting in &block.models {
            if let Setting::Variable(name) = setting {
                check_dynamic(model, "model", name, diags);
            }
        }
        if kind != BlockKind::StartThread
            && let Some(thread) = &block.thread
        {
            check_thread(
                thread,
                scope,
                &started,
                starts.get(thread.text.as_str()).copied(),
                diags,
            );
        }
        let uses_a_thread = matches!(
            kind,
            BlockKind::NextMessage | BlockKind::AddMessage | BlockKind::SerializeThread
        );
        if scope.worker && uses_a_thread && block.thread.is_none() {
            diags.push(
                Diagnostic::new(
                    Code::UnknownThread,
                    block.kind_span,
                    format!(
                        "block `{}` names no `thread`, and a worker has no main thread",
                        block.name.text
                    ),
                )
                .with_help(
                    "add `thread:` naming a thread that an earlier `start-thread` step creates",
                ),
            );
        }
        if kind == BlockKind::StartThread
            && let Some(thread) = &block.thread
        {
            started.insert(thread.text.as_str());
        }
        if let Some(output) = &block.output {
            written.insert(output.text.as_str());
        }
    }
}

/// A thread is started before a block uses it.
/// `later` is the thread's first `start-thread` in this sequence: the thread
/// is not started yet, so that one comes after this block.
fn check_thread(
    thread: &Name,
    scope: &Scope,
    started: &HashSet<&str>,
    later: Option<&Block>,
    diags: &mut Diagnostics,
) {
    let name = thread.text.as_str();
    if started.contains(name) || (!scope.worker && name == MAIN_THREAD) {
        return;
    }
    // Interactive threads persist: one started in another handler counts,
    // unless this handler itself starts it only later.
    if !scope.worker && scope.facts.started_anywhere.contains(name) && later.is_none() {
        return;
    }
    let mut diagnostic = Diagnostic::new(
        Code::UnknownThread,
        thread.span,
        format!("thread `{name}` is used before any `start-thread` creates it"),
    );
    diagnostic = match later {
        Some(block) => diagnostic
            .with_label(block.name.span, "started only here, later")
            .with_help("move the `start-thread` block before this one"),
        None => match nearest(name, scope.facts.thread_names.iter().copied()) {
            Some(near) => diagnostic.did_you_mean(thread.span, near),
            None => diagnostic.with_help(format!(
                "add a `start-thread` block with `thread: {name}` before this block{}",
                if scope.worker {
                    "; workers have no main thread"
                } else {
                    ", or leave `thread` out to use the main thread"
                }
            )),
        },
    };
    diags.push(diagnostic);
}

/// A variable with no default that nothing can have written yet.
fn check_read_before_write(
    model: &Model,
    name: &Name,
    scope: &Scope,
    written: &HashSet<&str>,
    diags: &mut Diagnostics,
) {
    if scope.trigger_input(&name.text).is_some() || written.contains(name.text.as_str()) {
        return;
    }
    let Some((VariableOrigin::Variable, field)) = model.variable(&name.text) else {
        return;
    };
    if field.default.is_some() {
        return;
    }
    let trigger = scope.trigger.map(|t| t.name.text.as_str());
    if let Some(trigger) = trigger
        && scope.facts.written_elsewhere(&name.text, trigger)
    {
        return;
    }
    let anywhere = if scope.worker {
        "no earlier step writes it"
    } else {
        "no earlier block in this handler, and no other handler, writes it"
    };
    diags.push(
        Diagnostic::new(
            Code::ReadBeforeWrite,
            name.span,
            format!("variable `{}` is read before anything sets it", name.text),
        )
        .with_label(field.name.span, "declared here without a `default`")
        .with_help(format!(
            "{anywhere}; set it with `output: {}` in an earlier block, or give it a `default`",
            name.text
        )),
    );
}

/// `output:` names a declared variable.
fn check_output(model: &Model, output: &Name, diags: &mut Diagnostics) {
    match model.variable(&output.text) {
        Some((VariableOrigin::Variable, _)) => {}
        Some((origin, field)) => diags.push(
            Diagnostic::new(
                Code::InvalidOutput,
                output.span,
                format!(
                    "`output` must name a variable, but `{}` is {}",
                    output.text,
                    origin.describe()
                ),
            )
            .with_label(field.name.span, "declared here")
            .with_help(match origin {
                VariableOrigin::Resource => {
                    "write the value to a variable, then persist it with a tool call"
                }
                _ => "inputs are immutable; declare a variable under `variables:` for the result",
            }),
        ),
        None => {
            let candidates = model
                .protocol
                .variables
                .iter()
                .map(|f| f.name.text.as_str());
            let diagnostic = Diagnostic::new(
                Code::InvalidOutput,
                output.span,
                format!(
                    "`output` names `{}`, which is not a declared variable",
                    output.text
                ),
            );
            diags.push(match nearest(&output.text, candidates) {
                Some(near) => diagnostic.did_you_mean(output.span, near),
                None => diagnostic.with_help(format!(
                    "declare it: `variables: {{ {}: {{ type: string }} }}`",
                    output.text
                )),
            });
        }
    }
}

/// The tool exists, and the inputs are its parameters.
fn check_tool_call(model: &Model, block: &Block, diags: &mut Diagnostics) {
    let Some(name) = &block.tool else {
        return;
    };
    let Some(tool) = model.tool(&name.text) else {
        let tools = || model.protocol.tools.iter().map(|t| &t.name);
        check_listed([name], |_| false, tools, TOOL, diags);
        return;
    };
    let parameters = || tool.parameters.iter().map(|p| p.name.text.as_str());
    let declared: HashSet<&str> = parameters().collect();
    let given: HashSet<&str> = block
        .arguments
        .iter()
        .map(|a| a.parameter.text.as_str())
        .collect();
    for argument in &block.arguments {
        let parameter = &argument.parameter;
        if !declared.contains(parameter.text.as_str()) {
            let diagnostic = Diagnostic::new(
                Code::UnknownKey,
                parameter.span,
                format!(
                    "tool `{}` has no parameter `{}`",
                    tool.name.text, parameter.text
                ),
            )
            .with_label(tool.name.span, "the tool is declared here");
            diags.push(match nearest(&parameter.text, parameters()) {
                Some(near) => diagnostic.did_you_mean(parameter.span, near),
                None if tool.parameters.is_empty() => {
                    diagnostic.with_help("the tool takes no parameters")
                }
                None if tool.parameters.len() > MAX_LISTED => diagnostic,
                None => diagnostic.with_help(format!(
                    "its parameters are {}",
                    parameters()
                        .map(|p| format!("`{p}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            });
        }
    }
    for parameter in tool.parameters.iter().filter(|p| !p.optional) {
        if !given.contains(parameter.name.text.as_str()) {
            diags.push(
                Diagnostic::new(
                    Code::MissingField,
                    name.span,
                    format!(
                        "`tool-call` of `{}` gives no value for required parameter `{}`",
                        tool.name.text, parameter.name.text
                    ),
                )
                .with_label(parameter.name.span, "required here")
                .with_help(format!(
                    "add `{}: ...` under the block's `input:`",
                    parameter.name.text
                )),
            );
        }
    }
}

fn check_set_resource(model: &Model, block: &Block, diags: &mut Diagnostics) {
    let Some(name) = &block.resource else {
        return;
    };
    match model.variable(&name.text) {
        Some((VariableOrigin::Resource, field)) if field.readonly => diags.push(
            Diagnostic::new(
                Code::ReadonlyResource,
                name.span,
                format!("resource `{}` is read-only", name.text),
            )
            .with_label(field.name.span, "declared `readonly: true` here")
            .with_help("remove `readonly: true` from the resource, or do not write it"),
        ),
        Some((VariableOrigin::Resource, _)) => {}
        Some((origin, field)) => diags.push(
            Diagnostic::new(
                Code::UnknownResource,
                name.span,
                format!("`{}` is {}, not a resource", name.text, origin.describe()),
            )
            .with_label(field.name.span, "declared here")
            .with_help("`set-resource` writes resources; a variable is set with `output:` on the block that computes it"),
        ),
        None => diags.push(unknown(
            Code::UnknownResource,
            "resource",
            name,
            model
                .protocol
                .resources
                .iter()
                .map(|f| f.name.text.as_str()),
            "resources:",
        )),
    }
}

/// A structured `next-message` stores an object of its `responseType`.
fn check_response_output(model: &Model, block: &Block, diags: &mut Diagnostics) {
    let (Some(response), Some(output)) = (&block.response_type, &block.output) else {
        return;
    };
    let Some((VariableOrigin::Variable, field)) = model.variable(&output.text) else {
        return;
    };
    let Some(ty) = &field.ty else {
        return;
    };
    if ty.kind == TypeExprKind::Builtin(Builtin::Unknown) || ty.kind == response.kind {
        return;
    }
    let declared = ty.display();
    diags.push(
        Diagnostic::new(
            Code::ResponseTypeMismatch,
            output.span,
            format!(
                "variable `{}` is declared `{declared}`, but this block stores a `{}`",
                output.text,
                response.display()
            ),
        )
        .with_label(ty.span, format!("declared `{declared}` here"))
        .with_label(response.span, "the response type")
        .with_help(format!(
            "declare `{}` with `type: {}`",
            output.text,
            response.display()
        )),
    );
}
