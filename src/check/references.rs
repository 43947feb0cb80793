//! Names that do not resolve: unknown tools, skills, MCP servers, workers,
//! triggers, resources and variables, each with did-you-mean, read from
//! the model's [`crate::model::resolve::Names`].

use crate::diagnostic::{Code, Diagnostic, Diagnostics, Near, nearest};
use crate::model::{Model, VariableOrigin};
use crate::span::Span;
use crate::syntax::{Block, Field, Name, Trigger};
use std::collections::HashMap;
use std::fmt;

/// "`x` is not declared" with did-you-mean among `candidates`.
pub(super) fn unknown<'a>(
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

/// A read of an input of another trigger's handler (`owner`); `here` is
/// where the read is (`in the handler of `x``).
fn input_of_another_trigger(role: Reader, name: &Name, owner: &str, here: &str) -> Diagnostic {
    not_readable(role, name).with_help(format!(
        "`{}` is an input of trigger `{owner}`, available only in its handler, not {here}",
        name.text
    ))
}

/// `near` is the nearest name that can be read there, if one is near.
fn undeclared_variable(role: Reader, name: &Name, near: Option<Near>) -> Diagnostic {
    let diagnostic = not_readable(role, name);
    match near {
        Some(near) => diagnostic.did_you_mean(name.span, near),
        None => diagnostic.with_help(format!(
            "declare `{}` under `variables:` (or `input:`)",
            name.text
        )),
    }
}

fn not_readable(role: Reader, name: &Name) -> Diagnostic {
    Diagnostic::new(
        Code::UnknownVariable,
        name.span,
        format!(
            "{role} `{}` is not a declared input, resource or variable",
            name.text
        ),
    )
}

/// A dynamic setting (`key`) given by a resource.
fn dynamic_names_resource(key: &str, name: &Name) -> Diagnostic {
    Diagnostic::new(
        Code::UnknownVariable,
        name.span,
        format!(
            "`{key}` names resource `{}`; dynamic settings read inputs or variables",
            name.text
        ),
    )
    .with_help(format!("declare `{}` under `input:`", name.text))
}

/// `near` is the nearest input or variable, if one is near.
fn dynamic_not_declared(key: &str, name: &Name, near: Option<Near>) -> Diagnostic {
    let diagnostic = Diagnostic::new(
        Code::UnknownVariable,
        name.span,
        format!(
            "`{key}` names `{}`, which is not a declared input or variable",
            name.text
        ),
    );
    match near {
        Some(near) => diagnostic.did_you_mean(name.span, near),
        None => diagnostic
            .with_help(format!(
                "declare `{}` under `input:` so the session can set it",
                name.text
            ))
            .with_note("an UPPERCASE_SNAKE_CASE value is read as a variable reference"),
    }
}

/// A dynamic setting names an input of the handler's trigger, declared at
/// `declared`.
fn dynamic_names_trigger_input(
    key: &str,
    name: &Name,
    trigger: &str,
    declared: Span,
) -> Diagnostic {
    Diagnostic::new(
        Code::UnknownVariable,
        name.span,
        format!(
            "`{key}` names `{}`, an input of trigger `{trigger}`; a dynamic setting reads the session's inputs and variables, not a trigger's",
            name.text
        ),
    )
    .with_label(declared, "declared here, for the trigger")
    .with_help(format!(
        "move `{}` from the trigger's `input:` to the protocol's `input:`, so the session sets it, or to `variables:`",
        name.text
    ))
}

/// `declared` is where the resource is declared `readonly`.
fn readonly_resource(name: &Name, declared: Span) -> Diagnostic {
    Diagnostic::new(
        Code::ReadonlyResource,
        name.span,
        format!("resource `{}` is read-only", name.text),
    )
    .with_label(declared, "declared `readonly: true` here")
    .with_help("remove `readonly: true` from the resource, or do not write it")
}

/// `what` is what the name is instead (`an input`), declared at `declared`.
fn not_a_resource(name: &Name, what: &str, declared: Span) -> Diagnostic {
    Diagnostic::new(
        Code::UnknownResource,
        name.span,
        format!("`{}` is {what}, not a resource", name.text),
    )
    .with_label(declared, "declared here")
    .with_help("`set-resource` writes resources; a variable is set with `output:` on the block that computes it")
}

/// Where a variable is read, as an unknown-variable diagnostic names it.
#[derive(Clone, Copy)]
pub(super) enum Reader {
    /// The source of a label in `input:`.
    InputSource,
    /// A block key that names a variable (`uiContent`, `value`, ...).
    Key(&'static str),
    /// A `tool-call` argument given by a variable.
    ToolInput,
}

impl fmt::Display for Reader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reader::InputSource => f.write_str("`input` source"),
            Reader::Key(key) => write!(f, "`{key}`"),
            Reader::ToolInput => f.write_str("tool input"),
        }
    }
}

/// Each of `listed` that `exists` rejects is reported as not declared, with
/// did-you-mean among the `declared` names (produced only then).
pub(super) fn check_listed<'a, 'l, I: Iterator<Item = &'a Name>>(
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

pub(super) const TOOL: (Code, &str, &str) = (Code::UnknownTool, "tool", "tools:");

pub(super) const SKILL: (Code, &str, &str) = (Code::UnknownSkill, "skill", "skills:");

pub(super) const MCP_SERVER: (Code, &str, &str) =
    (Code::UnknownMcpServer, "MCP server", "mcpServers:");

pub(super) const ON_DEMAND_SOURCE: (Code, &str, &str) = (
    Code::UnknownMcpServer,
    "on-demand MCP source",
    "onDemandMcpServers:",
);

pub(super) const WORKER: (Code, &str, &str) = (Code::UnknownWorker, "worker", "workers:");

/// Which handlers write each variable, gathered once: a `Scope` names
/// them when a read does not resolve, and the flow rules ask it too.
pub(super) struct Facts<'m> {
    /// Variable name → the handlers (by trigger name) whose blocks write it.
    pub(super) writers: HashMap<&'m str, Vec<&'m str>>,
}

impl<'m> Facts<'m> {
    pub(super) fn new(model: &'m Model) -> Facts<'m> {
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
        Facts { writers }
    }

    /// Whether a handler other than `trigger`'s writes `name`.
    pub(super) fn written_elsewhere(&self, name: &str, trigger: &str) -> bool {
        self.writers
            .get(name)
            .is_some_and(|handlers| handlers.iter().any(|h| *h != trigger))
    }
}

/// What a reference can name where it stands.
pub(super) struct Scope<'m> {
    pub(super) model: &'m Model,
    pub(super) facts: &'m Facts<'m>,
    /// The trigger whose handler this is, by position: its inputs are in
    /// scope. The resolution says which (for a misspelt handler, the
    /// trigger it most likely means).
    pub(super) scope: Option<u32>,
    /// In a worker's steps (no main thread).
    pub(super) worker: bool,
}

impl<'m> Scope<'m> {
    /// The trigger whose handler this is.
    pub(super) fn trigger(&self) -> Option<&'m Trigger> {
        let protocol = &self.model.protocol;
        self.scope.and_then(|t| protocol.triggers.get(t as usize))
    }

    pub(super) fn trigger_input(&self, name: &str) -> Option<&'m Field> {
        let trigger = self.trigger()?;
        let input = self.model.names().trigger_input(self.scope?, name)?;
        trigger.input.get(input as usize)
    }

    /// Whether `name` can be read here.
    pub(super) fn resolves(&self, name: &str) -> bool {
        let names = self.model.names();
        names.readable_target(self.scope, name).is_some()
    }

    /// The unknown-variable diagnostic for `name`, explaining why it is not
    /// in scope when it is declared elsewhere.
    pub(super) fn unknown_variable(&self, name: &Name, role: Reader) -> Diagnostic {
        let protocol = &self.model.protocol;
        let elsewhere = self.model.names().input_owner(&name.text);
        if let Some(owner) = elsewhere.and_then(|t| protocol.triggers.get(t as usize)) {
            let here = match self.trigger() {
                Some(trigger) => format!("in the handler of `{}`", trigger.name.text),
                None => "here".to_string(),
            };
            return input_of_another_trigger(role, name, &owner.name.text, &here);
        }
        let candidates = protocol
            .input
            .iter()
            .chain(&protocol.resources)
            .chain(&protocol.variables)
            .chain(
                self.trigger()
                    .map(|t| t.input.as_slice())
                    .unwrap_or_default(),
            )
            .map(|f| f.name.text.as_str());
        undeclared_variable(role, name, nearest(&name.text, candidates))
    }
}

/// `temperature: TEMPERATURE` names a declared input or variable.
pub(super) fn check_dynamic(
    model: &Model,
    scope: &Scope,
    key: &str,
    name: &Name,
    diags: &mut Diagnostics,
) {
    match model.variable(&name.text) {
        Some((VariableOrigin::Input | VariableOrigin::Variable, _)) => {}
        Some((VariableOrigin::Resource, _)) => diags.push(dynamic_names_resource(key, name)),
        // The handler's trigger has it: a dynamic setting reads the
        // session, not one trigger's call (`docs/conformance.md`).
        None if let Some(field) = scope.trigger_input(&name.text) => {
            let trigger = scope.trigger().map_or("", |t| t.name.text.as_str());
            diags.push(dynamic_names_trigger_input(
                key,
                name,
                trigger,
                field.name.span,
            ));
        }
        None => {
            let protocol = &model.protocol;
            let candidates = protocol
                .input
                .iter()
                .chain(&protocol.variables)
                .map(|f| f.name.text.as_str());
            let near = nearest(&name.text, candidates);
            diags.push(dynamic_not_declared(key, name, near));
        }
    }
}

pub(super) fn check_set_resource(model: &Model, block: &Block, diags: &mut Diagnostics) {
    let Some(name) = &block.resource else {
        return;
    };
    match model.variable(&name.text) {
        Some((VariableOrigin::Resource, field)) if field.readonly => {
            diags.push(readonly_resource(name, field.name.span));
        }
        Some((VariableOrigin::Resource, _)) => {}
        Some((origin, field)) => {
            diags.push(not_a_resource(name, origin.describe(), field.name.span));
        }
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
