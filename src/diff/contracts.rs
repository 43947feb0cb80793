//! The contracts of a protocol, paired between two versions: the tools
//! that can be called, each `next-message` block's `responseType`, a
//! worker's `output`, each trigger's input and the session's input. Only
//! what one of them reaches is a contract: a type nothing uses, or a tool
//! declared but never listed, is not.

use super::change::{Change, MAX_COMPARED, Options, Version};
use super::compare::{Limits, Side, Walk};
use super::hints;
use super::renames::{rename_candidates, shape, undeclared_rename};
use crate::diagnostic::{Code, Surface};
use crate::emit::lower::{Kind, Schema};
use crate::model::Model;
use crate::span::Span;
use crate::syntax::{BlockKind, Field, Tool, Trigger, TypeExpr, TypeExprKind};
use std::collections::{HashMap, HashSet};

/// Every change between the versions, and what was left out.
pub(super) fn changes(old: Version, new: Version, options: &Options) -> (Vec<Change>, Stopped) {
    let mut diff = Diff {
        old: Side::new(old),
        new: Side::new(new),
        options,
        out: Vec::new(),
        limits: Limits {
            budget: MAX_COMPARED,
            too_deep: 0,
            dropped: 0,
            clean: HashSet::new(),
        },
    };
    diff.tools();
    diff.responses();
    diff.worker_output();
    diff.triggers();
    diff.session_input();
    let stopped = Stopped {
        too_large: diff.limits.budget == 0,
        too_deep: diff.limits.too_deep > 0,
        dropped: diff.limits.dropped,
    };
    (diff.out, stopped)
}

struct Diff<'o, 'm> {
    old: Side<'m>,
    new: Side<'m>,
    options: &'o Options,
    out: Vec<Change>,
    limits: Limits,
}

/// Why a diff left part of the protocols out.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Stopped {
    /// It compared [`MAX_COMPARED`] nodes.
    pub too_large: bool,
    /// A schema nested deeper than the walk follows.
    pub too_deep: bool,
    /// Changes found past the most one diff lists.
    pub dropped: usize,
}

/// The tools a protocol can call, in declaration order, each with what
/// calls it.
fn callable(model: &Model) -> Vec<(&Tool, Vec<String>)> {
    let tools = &model.protocol.tools;
    let mut index: HashMap<&str, usize> = HashMap::with_capacity(tools.len());
    for (i, tool) in tools.iter().enumerate() {
        index.entry(&tool.name.text).or_insert(i);
    }
    let mut callers: Vec<Vec<String>> = vec![Vec::new(); tools.len()];
    let mut seen: HashSet<(usize, String)> = HashSet::new();
    let mut add = |name: &str, caller: String| {
        if let Some(&i) = index.get(name)
            && seen.insert((i, caller.clone()))
        {
            callers[i].push(caller);
        }
    };
    if let Some(agent) = &model.protocol.agent {
        for tool in &agent.config.tools {
            add(&tool.text, "by the model, from `agent.tools`".to_string());
        }
    }
    for block in model.protocol.blocks() {
        match block.kind {
            Some(BlockKind::StartThread) => {
                for tool in block.config.iter().flat_map(|c| &c.tools) {
                    add(
                        &tool.text,
                        format!("by the model, in the thread of \"{}\"", block.name.text),
                    );
                }
            }
            Some(BlockKind::ToolCall) => {
                if let Some(tool) = &block.tool {
                    add(
                        &tool.text,
                        format!("by the `tool-call` block \"{}\"", block.name.text),
                    );
                }
            }
            _ => {}
        }
    }
    for worker in &model.protocol.workers {
        for (_, parent) in &worker.tools {
            add(&parent.text, format!("by worker `{}`", worker.name.text));
        }
    }
    model
        .protocol
        .tools
        .iter()
        .zip(callers)
        .filter(|(_, callers)| !callers.is_empty())
        .collect()
}

/// A `next-message` block of a handler: its handler's trigger, its name
/// and its `responseType`.
struct ResponseUse<'m> {
    owner: &'m str,
    block: &'m str,
    block_span: Span,
    ty: Option<&'m TypeExpr>,
}

fn response_uses(model: &Model) -> Vec<ResponseUse<'_>> {
    let handlers = model
        .protocol
        .handlers
        .iter()
        .flat_map(|h| h.blocks.iter().map(move |b| (h.trigger.text.as_str(), b)));
    // A worker's steps reply to the worker's caller, through its
    // `output`, which is a contract of its own.
    handlers
        .filter(|(_, block)| block.kind == Some(BlockKind::NextMessage))
        .map(|(owner, block)| ResponseUse {
            owner,
            block: &block.name.text,
            block_span: block.name.span,
            ty: block.response_type.as_ref(),
        })
        .collect()
}

/// An object of input fields as the platform reads them: a field with a
/// `default` may be left out.
fn input_object<'m>(side: &Side<'m>, fields: &'m [Field], span: Span) -> Schema<'m> {
    let mut object = side.lowering.object(fields, span);
    if let Kind::Object(properties) = &mut object.kind {
        for (property, field) in properties.iter_mut().zip(fields) {
            property.optional |= field.default.is_some();
        }
    }
    object
}

impl<'o, 'm> Diff<'o, 'm> {
    fn walk(&mut self, surface: Surface, contract: String) -> Walk<'_, 'm> {
        let reader = match surface {
            Surface::Input => self.options.platform_reader,
            _ => self.options.readers,
        };
        Walk::new(
            self.old,
            self.new,
            surface,
            contract,
            reader,
            &mut self.out,
            &mut self.limits,
        )
    }

    /// A top-level section's key in the new version, where a removal from
    /// it is reported; the start of the file without one.
    fn section(&self, key: &str) -> Span {
        self.new
            .version
            .model
            .protocol
            .section(key)
            .map_or(Span::empty(0), |name| name.span)
    }

    fn tools(&mut self) {
        let (old_model, new_model) = (self.old.version.model, self.new.version.model);
        let old_callable = callable(old_model);
        let new_callable = callable(new_model);
        let by_name = |list: &[(&'m Tool, Vec<String>)]| -> HashMap<&'m str, &'m Tool> {
            list.iter()
                .map(|(t, _)| (t.name.text.as_str(), *t))
                .collect()
        };
        let (old_tools, new_tools) = (by_name(&old_callable), by_name(&new_callable));
        let find = |tools: &HashMap<&'m str, &'m Tool>, name: &str| tools.get(name).copied();
        let mut kept: HashSet<&str> = HashSet::new();
        // Callable now, and neither before nor declared renamed.
        let mut added: Vec<(&'m Tool, &Vec<String>)> = Vec::new();
        for (tool, callers) in &new_callable {
            let name = tool.name.text.as_str();
            let old_side = self.old;
            let new_source = self.new.version.source;
            let mut walk = self.walk(Surface::Tool, format!("tool `{name}`"));
            if let Some(old_tool) = find(&old_tools, name) {
                kept.insert(name);
                compare_tools(&mut walk, &old_side, old_tool, tool);
                continue;
            }
            let renamed = hints::renamed_from(new_source, tool.name.span)
                .filter(|from| find(&new_tools, from).is_none())
                .and_then(|from| find(&old_tools, from))
                .filter(|t| !kept.contains(t.name.text.as_str()));
            if let Some(old_tool) = renamed {
                kept.insert(old_tool.name.text.as_str());
                let from = &old_tool.name.text;
                walk.push(
                    Code::ToolRenamed,
                    tool.name.span,
                    Some(old_tool.name.span),
                    "",
                    false,
                    false,
                    format!("tool `{from}` was renamed `{name}`"),
                    Some(format!(
                        "register the handler under both names, then `octavus sync`, then drop `{from}`: sessions on each version call their own name"
                    )),
                );
                compare_tools(&mut walk, &old_side, old_tool, tool);
                continue;
            }
            added.push((*tool, callers));
        }
        // Removed: callable before, and not declared at all now (a tool
        // still declared but no longer called is not a rename).
        let removed: Vec<&'m Tool> = old_callable
            .iter()
            .map(|(tool, _)| *tool)
            .filter(|t| !kept.contains(t.name.text.as_str()))
            .filter(|t| new_model.tool(&t.name.text).is_none())
            .collect();
        let (old_side, new_side) = (self.old, self.new);
        let pairs = rename_candidates(
            &added,
            &removed,
            |(tool, _)| shape(&new_side.lowering.object(&tool.parameters, tool.name.span)),
            |tool| shape(&old_side.lowering.object(&tool.parameters, tool.name.span)),
        );
        for (i, (tool, callers)) in added.iter().enumerate() {
            let name = tool.name.text.as_str();
            let declared = old_model.tool(name).map(|t| t.name.span);
            let mut walk = self.walk(Surface::Tool, format!("tool `{name}`"));
            let (widened, help) = match pairs.added[i] {
                // Together with the removal it looks like, a rename, as
                // severe as a declared one.
                Some(j) => (
                    false,
                    undeclared_rename("tool", &removed[j].name.text, name),
                ),
                None => (
                    true,
                    format!(
                        "register a handler before the protocol that calls it is synced: a server `tools` entry or a client `clientTools` entry; without one the call is forwarded to the client and fails with \"No client handler for tool: {name}\""
                    ),
                ),
            };
            walk.push(
                Code::ToolAdded,
                tool.name.span,
                declared,
                "",
                false,
                widened,
                format!(
                    "tool `{name}` can now be called ({}), and code deployed before this change has no handler for it",
                    callers.join("; ")
                ),
                Some(help),
            );
        }
        let tools_key = self.section("tools");
        for (tool, _) in &old_callable {
            let name = tool.name.text.as_str();
            if kept.contains(name) {
                continue;
            }
            let (at, how) = match new_model.tool(name) {
                Some(still) => (
                    still.name.span,
                    " (it is still declared, but nothing calls it)",
                ),
                None => (tools_key, ""),
            };
            let paired = removed
                .iter()
                .position(|t| std::ptr::eq(*t, *tool))
                .and_then(|j| pairs.removed[j]);
            let (narrowed, help) = match paired {
                Some(i) => (false, undeclared_rename("tool", name, &added[i].0.name.text)),
                None => (true, "keep its handler until the protocol without it is synced: sessions on the old protocol still call it".to_string()),
            };
            let mut walk = self.walk(Surface::Tool, format!("tool `{name}`"));
            walk.push(
                Code::ToolRemoved,
                at,
                Some(tool.name.span),
                "",
                narrowed,
                false,
                format!("tool `{name}` can no longer be called{how}"),
                Some(help),
            );
        }
    }

    fn responses(&mut self) {
        let old_uses = response_uses(self.old.version.model);
        let new_uses = response_uses(self.new.version.model);
        let type_name = |ty: Option<&TypeExpr>| ty.map(TypeExpr::display);
        let old_names: HashSet<String> = old_uses.iter().filter_map(|u| type_name(u.ty)).collect();
        let new_names: HashSet<String> = new_uses.iter().filter_map(|u| type_name(u.ty)).collect();
        let mut old_blocks: HashMap<(&str, &str), &ResponseUse> = HashMap::new();
        for used in &old_uses {
            old_blocks.entry((used.owner, used.block)).or_insert(used);
        }
        let mut compared: HashSet<String> = HashSet::new();
        for used in &new_uses {
            let paired = old_blocks.get(&(used.owner, used.block)).copied();
            let Some(ty) = used.ty else {
                // A block that no longer replies with a type.
                if let Some(was) = paired.and_then(|p| p.ty) {
                    let name = was.display();
                    if !new_names.contains(&name) {
                        let mut walk = self.walk(Surface::Response, format!("response `{name}`"));
                        walk.push(
                            Code::ResponseTypeRemoved,
                            used.block_span,
                            Some(was.span),
                            "",
                            true,
                            true,
                            format!("block \"{}\" replies with text instead of `{name}`", used.block),
                            Some(format!("keep the renderer for `{name}`: stored replies still have that type")),
                        );
                    }
                }
                continue;
            };
            let name = ty.display();
            let contract = format!("response `{name}`");
            match paired.and_then(|p| p.ty) {
                Some(was) if was.display() != name => {
                    let from = was.display();
                    let mut walk = self.walk(Surface::Response, contract);
                    walk.push(
                        Code::ResponseTypeChanged,
                        ty.span,
                        Some(was.span),
                        "",
                        false,
                        false,
                        format!(
                            "block \"{}\" replies with `{name}` instead of `{from}`",
                            used.block
                        ),
                        Some(format!(
                            "the UI finds a reply's renderer by its type name: UI code deployed before this change has none for `{name}`, and stored replies keep `{from}`; render both names"
                        )),
                    );
                    continue;
                }
                _ if !old_names.contains(&name) => {
                    let mut walk = self.walk(Surface::Response, contract);
                    let was = paired.map(|p| p.block_span);
                    walk.push(
                        Code::ResponseTypeAdded,
                        ty.span,
                        was,
                        "",
                        false,
                        true,
                        format!(
                            "block \"{}\" now replies with `{name}`, which UI code deployed before this change has no renderer for",
                            used.block
                        ),
                        Some(format!(
                            "deploy a renderer for `{name}` first: without one the UI falls back to showing the JSON"
                        )),
                    );
                    continue;
                }
                _ => {}
            }
            if compared.insert(name.clone()) {
                self.compare_response(&name, ty);
            }
        }
        // A type that a block gone now (removed, or renamed) replied with,
        // and that no block replies with any more: stored replies still
        // have it. Once for each type, at the first such block.
        let new_blocks: HashSet<(&str, &str)> = new_uses
            .iter()
            .map(|used| (used.owner, used.block))
            .collect();
        let mut gone: HashSet<String> = HashSet::new();
        for used in &old_uses {
            let Some(was) = used.ty else {
                continue;
            };
            let name = was.display();
            if new_blocks.contains(&(used.owner, used.block))
                || new_names.contains(&name)
                || !gone.insert(name.clone())
            {
                continue;
            }
            let at = self.section("handlers");
            let mut walk = self.walk(Surface::Response, format!("response `{name}`"));
            walk.push(
                Code::ResponseTypeRemoved,
                at,
                Some(was.span),
                "",
                true,
                true,
                format!(
                    "no block replies with `{name}` now: block \"{}\", which did, is gone",
                    used.block
                ),
                Some(format!(
                    "keep the renderer for `{name}`: stored replies still have that type"
                )),
            );
        }
    }

    /// Compares the type `name`, a reply's type in both versions.
    fn compare_response(&mut self, name: &str, ty: &'m TypeExpr) {
        let TypeExprKind::Named(_) = &ty.kind else {
            return;
        };
        let (Some(old_id), Some(new_id)) = (
            self.old.version.model.lookup(name),
            self.new.version.model.lookup(name),
        ) else {
            return;
        };
        let old_side = self.old;
        let new_side = self.new;
        let old = old_side.lowering.definition(old_id);
        let new = new_side.lowering.definition(new_id);
        let mut walk = self.walk(Surface::Response, format!("response `{name}`"));
        walk.kinds("", &old, &new, Some(old_id), Some(new_id));
    }

    fn worker_output(&mut self) {
        let variable = |model: &'m Model| {
            let name = model.protocol.output.as_ref()?;
            model.variable(&name.text).map(|(_, field)| field)
        };
        let (old_field, new_field) = (
            variable(self.old.version.model),
            variable(self.new.version.model),
        );
        // A worker that no longer names an output returns none: the code
        // that reads what it returned gets nothing, whichever ships first.
        if let (Some(old_field), None) = (old_field, new_field) {
            let (old_model, new_model) = (self.old.version.model, self.new.version.model);
            let was = old_model.protocol.output.as_ref().map(|o| o.span);
            // At the variable the worker returned, where the new version
            // still declares it.
            let at = old_model
                .protocol
                .output
                .as_ref()
                .and_then(|o| new_model.variable(&o.text))
                .map_or(crate::span::Span::empty(0), |(_, field)| field.name.span);
            let ty = old_field
                .ty
                .as_ref()
                .map_or("a value".to_string(), |ty| format!("`{}`", ty.display()));
            let mut walk = self.walk(Surface::WorkerOutput, "worker output".to_string());
            walk.push(
                Code::PropertyTypeChanged,
                at,
                was,
                "",
                false,
                false,
                format!(
                    "the worker returned `{}` ({ty}) and now returns no output",
                    old_field.name.text
                ),
                Some("the code that runs the worker reads what it returns: keep an `output`, or change that code in the same release".to_string()),
            );
            return;
        }
        let (Some(old_field), Some(new_field)) = (old_field, new_field) else {
            return;
        };
        let old = self.old.lowering.field(old_field);
        let new = self.new.lowering.field(new_field);
        let mut walk = self.walk(Surface::WorkerOutput, "worker output".to_string());
        walk.compare("", &old, &new);
    }

    fn triggers(&mut self) {
        let (old_model, new_model) = (self.old.version.model, self.new.version.model);
        let mut kept: HashSet<&str> = HashSet::new();
        // Triggers new now, and neither before nor declared renamed.
        let mut added: Vec<&'m Trigger> = Vec::new();
        for trigger in &new_model.protocol.triggers {
            let name = trigger.name.text.as_str();
            let (old_side, new_side) = (self.old, self.new);
            let mut walk = self.walk(Surface::Input, format!("trigger `{name}`"));
            let renamed = || {
                hints::renamed_from(new_side.version.source, trigger.name.span)
                    .filter(|from| new_model.trigger(from).is_none())
                    .and_then(|from| old_model.trigger(from))
            };
            let was = match old_model.trigger(name) {
                Some(was) => was,
                None => match renamed() {
                    Some(was) => {
                        walk.push(
                            Code::TriggerRenamed,
                            trigger.name.span,
                            Some(was.name.span),
                            "",
                            false,
                            false,
                            format!("trigger `{}` was renamed `{name}`", was.name.text),
                            Some("code sends a trigger by name: deployed code sends the old name, which the new protocol does not know".to_string()),
                        );
                        was
                    }
                    None => {
                        added.push(trigger);
                        continue;
                    }
                },
            };
            kept.insert(was.name.text.as_str());
            let old = input_object(&old_side, &was.input, was.name.span);
            let new = input_object(&new_side, &trigger.input, trigger.name.span);
            walk.kinds("", &old, &new, None, None);
        }
        let removed: Vec<&'m Trigger> = old_model
            .protocol
            .triggers
            .iter()
            .filter(|t| !kept.contains(t.name.text.as_str()))
            .collect();
        let (old_side, new_side) = (self.old, self.new);
        let pairs = rename_candidates(
            &added,
            &removed,
            |t| shape(&input_object(&new_side, &t.input, t.name.span)),
            |t| shape(&input_object(&old_side, &t.input, t.name.span)),
        );
        for (trigger, paired) in added.iter().zip(&pairs.added) {
            let name = trigger.name.text.as_str();
            let (widened, help) = match paired {
                Some(j) => (
                    false,
                    Some(undeclared_rename("trigger", &removed[*j].name.text, name)),
                ),
                None => (true, None),
            };
            let mut walk = self.walk(Surface::Input, format!("trigger `{name}`"));
            walk.push(
                Code::TriggerAdded,
                trigger.name.span,
                None,
                "",
                false,
                widened,
                format!("trigger `{name}` was added"),
                help,
            );
        }
        let triggers_key = self.section("triggers");
        for (trigger, paired) in removed.iter().zip(&pairs.removed) {
            let name = trigger.name.text.as_str();
            let (narrowed, help) = match paired {
                Some(i) => (
                    false,
                    Some(undeclared_rename("trigger", name, &added[*i].name.text)),
                ),
                None => (true, None),
            };
            let mut walk = self.walk(Surface::Input, format!("trigger `{name}`"));
            walk.push(
                Code::TriggerRemoved,
                triggers_key,
                Some(trigger.name.span),
                "",
                narrowed,
                false,
                format!("trigger `{name}` was removed, and code deployed before this change may still send it"),
                help,
            );
        }
    }

    fn session_input(&mut self) {
        let old_side = self.old;
        let new_side = self.new;
        let old_input = &old_side.version.model.protocol.input;
        let new_input = &new_side.version.model.protocol.input;
        if old_input.is_empty() && new_input.is_empty() {
            return;
        }
        let at = self.section("input");
        let was = old_side
            .version
            .model
            .protocol
            .section("input")
            .map_or(Span::empty(0), |n| n.span);
        let old = input_object(&old_side, old_input, was);
        let new = input_object(&new_side, new_input, at);
        let mut walk = self.walk(Surface::Input, "session input".to_string());
        walk.kinds("", &old, &new, None, None);
    }
}

/// Compares a tool's parameters, and its description.
fn compare_tools<'m>(walk: &mut Walk<'_, 'm>, old_side: &Side<'m>, old: &'m Tool, new: &'m Tool) {
    let old_description = old.presentation.description.as_ref();
    let new_description = new.presentation.description.as_ref();
    if let (Some(was), Some(now)) = (old_description, new_description)
        && was.text != now.text
    {
        walk.push(
            Code::DescriptionChanged,
            now.span,
            Some(was.span),
            "",
            true,
            true,
            format!("the description of tool `{}` changed", new.name.text),
            Some("the model reads descriptions to decide when to call a tool".to_string()),
        );
    }
    let old_parameters = old_side.lowering.object(&old.parameters, old.name.span);
    let new_parameters = walk.new.lowering.object(&new.parameters, new.name.span);
    walk.kinds("", &old_parameters, &new_parameters, None, None);
}
