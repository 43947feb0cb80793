//! Thread configurations (`agent:` and `start-thread`): what they list,
//! their dynamic settings, provider options, settings that have no effect
//! (presentation `title` included), and context management.

use super::references::{
    MCP_SERVER, ON_DEMAND_SOURCE, Reader, SKILL, Scope, TOOL, WORKER, check_dynamic, check_listed,
};
use crate::diagnostic::{Code, Diagnostic, Diagnostics};
use crate::model::Model;
use crate::span::Span;
use crate::syntax::{InputMapping, Name, Presentation, Setting, ThreadConfig};

/// `display` is the `display` given, if one is.
fn title_not_shown(title: Span, display: Option<&Name>) -> Diagnostic {
    let diagnostic = match display {
        Some(display) => Diagnostic::new(
            Code::IneffectiveSetting,
            title,
            format!(
                "`title` is shown only with `display: title`, but `display` is `{}`",
                display.text
            ),
        )
        .with_label(display.span, "set here"),
        None => Diagnostic::new(
            Code::IneffectiveSetting,
            title,
            "`title` is shown only with `display: title`, and `display` is not set",
        ),
    };
    diagnostic.with_help("write `display: title`, or remove `title`")
}

/// `anthropic` options (at `key`) on a model of another `provider`.
fn provider_option_mismatch(key: Span, provider: &str, model: &Name) -> Diagnostic {
    Diagnostic::new(
        Code::ProviderOptionMismatch,
        key,
        format!(
            "`anthropic` options require an anthropic model, but the model provider is `{provider}`"
        ),
    )
    .with_label(model.span, format!("the model is `{}`", model.text))
    .with_help("use an `anthropic/*` model, or remove the `anthropic:` options")
}

fn fast_mode_unsupported(speed: Span, model: &Name) -> Diagnostic {
    let diagnostic = Diagnostic::new(
        Code::IneffectiveSetting,
        speed,
        format!("`speed: fast` has no effect on `{}`", model.text),
    );
    match model.text.starts_with(OPENROUTER) {
        true => diagnostic
            .with_label(model.span, "OpenRouter ignores `speed`")
            .with_help("select OpenRouter's dedicated fast model instead, such as `openrouter/anthropic/claude-opus-4.8-fast`, and remove `speed`"),
        false => diagnostic
            .with_label(model.span, "this model runs at standard speed")
            .with_help("fast mode applies only to Anthropic Opus 5, 4.8, 4.7 and 4.6; remove `speed` or change the model"),
    }
}

/// The route whose models ignore `speed`: fast mode there is a model of
/// its own (the `-fast` slug).
const OPENROUTER: &str = "openrouter/";

fn voice_without_speech_model(voice: Span) -> Diagnostic {
    Diagnostic::new(
        Code::IneffectiveSetting,
        voice,
        "`speechVoice` has no effect without `speechModel`",
    )
    .with_help("add `speechModel:` (for example `openai/gpt-4o-mini-tts`), or remove `speechVoice`")
}

/// `listed` is where `agent.workers` lists the summarizer `worker`.
fn summarizer_offered(listed: Span, worker: &Name) -> Diagnostic {
    Diagnostic::new(
        Code::IneffectiveSetting,
        listed,
        format!(
            "summarizer worker `{}` is also offered to the model",
            worker.text
        ),
    )
    .with_label(worker.span, "the summarizer is invoked automatically")
    .with_help(
        "remove it from `agent.workers`; the model should never call the summarizer as a tool",
    )
}

/// `management` is the `contextManagement` key.
fn summarizer_never_runs(worker: &Name, management: Span) -> Diagnostic {
    Diagnostic::new(
        Code::IneffectiveSetting,
        worker.span,
        format!(
            "summarizer worker `{}` never runs without `recentPercent`",
            worker.text
        ),
    )
    .with_label(management, "in this `contextManagement`")
    .with_help("add `recentPercent: 0.3` (the fraction of the context window kept verbatim)")
}

/// `title` shows only with `display: title`, which is never the default.
pub(super) fn check_presentation(presentation: &Presentation, diags: &mut Diagnostics) {
    let Some(title) = &presentation.title else {
        // `display: title` with no title to show.
        if let Some(display) = &presentation.display
            && display.text == "title"
        {
            diags.push(
                Diagnostic::new(
                    Code::IneffectiveSetting,
                    display.span,
                    "`display: title` shows the `title`, and there is none",
                )
                .with_help("write a `title:` beside it, or choose another `display`"),
            );
        }
        return;
    };
    if presentation
        .display
        .as_ref()
        .is_some_and(|display| display.text == "title")
    {
        return;
    }
    diags.push(title_not_shown(title.span, presentation.display.as_ref()));
}

/// A thread configuration: `agent:` (`is_agent`) or a `start-thread` block.
pub(super) fn check_config(
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
        check_source(mapping, scope, diags);
    }
    check_settings(model, config, scope, diags);
    if is_agent {
        check_context_management(model, config, diags);
    }
}

fn check_source(mapping: &InputMapping, scope: &Scope, diags: &mut Diagnostics) {
    if !scope.resolves(&mapping.source.text) {
        diags.push(scope.unknown_variable(&mapping.source, Reader::InputSource));
    }
}

/// Dynamic values name inputs or variables; provider options and speed
/// agree with a literal model.
pub(super) fn check_settings(
    model: &Model,
    config: &ThreadConfig,
    scope: &Scope,
    diags: &mut Diagnostics,
) {
    for (key, name) in &config.dynamic {
        check_dynamic(model, scope, key, name, diags);
    }
    let literal_model = match &config.model {
        Some(Setting::Literal(name)) => Some(name),
        _ => None,
    };
    if let (Some(anthropic), Some(model_name)) = (&config.anthropic, literal_model) {
        let provider = model_name.text.split('/').next().unwrap_or_default();
        if provider != "anthropic" {
            diags.push(provider_option_mismatch(
                anthropic.key,
                provider,
                model_name,
            ));
        }
    }
    // A thread with no `model` of its own runs on the agent's.
    let runs_on = match &config.model {
        None => model
            .protocol
            .agent
            .as_ref()
            .and_then(|a| match &a.config.model {
                Some(Setting::Literal(name)) => Some(name),
                _ => None,
            }),
        Some(_) => literal_model,
    };
    if let (Some(Setting::Literal(speed)), Some(model_name)) = (&config.speed, runs_on)
        && speed.text == "fast"
        && !supports_fast_mode(&model_name.text)
    {
        diags.push(fast_mode_unsupported(speed.span, model_name));
    }
    if let (Some(voice), None) = (&config.speech_voice, &config.speech_model) {
        diags.push(voice_without_speech_model(voice.span()));
    }
}

/// Anthropic Opus 5, 4.8, 4.7 and 4.6, directly or through a gateway that
/// passes `speed` on; not through OpenRouter, which ignores it.
pub(super) fn supports_fast_mode(model: &str) -> bool {
    if model.starts_with(OPENROUTER) {
        return false;
    }
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

pub(super) fn check_context_management(
    model: &Model,
    config: &ThreadConfig,
    diags: &mut Diagnostics,
) {
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
        diags.push(summarizer_offered(listed.span, worker));
    }
    if management.recent_percent.is_none() {
        diags.push(summarizer_never_runs(worker, management.key));
    }
}
