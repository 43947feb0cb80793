//! The order of a handler's blocks or a worker's steps: threads started
//! before use, variables written before they are read, what `output`,
//! `tool-call` and a structured `next-message` store.

use super::references::{
    Reader, Scope, TOOL, WORKER, check_dynamic, check_listed, check_set_resource,
};
use super::settings::{check_config, check_presentation};
use super::types::{Judged, check_value};
use crate::diagnostic::{Code, Diagnostic, Diagnostics, Near, nearest};
use crate::model::resolve::MAIN_THREAD;
use crate::model::{Model, VariableOrigin};
use crate::span::Span;
use crate::syntax::{
    ArgumentValue, Block, BlockKind, Builtin, Name, Setting, Tool, TypeDefKind, TypeExpr,
    TypeExprKind,
};
use std::collections::{HashMap, HashSet};

/// Most names a help line lists.
pub(super) const MAX_LISTED: usize = 12;

/// A block of a worker (named `block`, its kind at `span`) that uses a
/// thread and names none.
fn worker_block_without_thread(block: &Name, span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::UnknownThread,
        span,
        format!(
            "block `{}` names no `thread`, and a worker has no main thread",
            block.text
        ),
    )
    .with_help("add `thread:` naming a thread that an earlier `start-thread` step creates")
}

/// `later` is the name of the block that starts the thread after this
/// use, if one does; else `near` is the nearest started thread, if one is
/// near. `worker`: in a worker's steps (no main thread).
fn thread_not_started(
    thread: &Name,
    later: Option<Span>,
    near: Option<Near>,
    worker: bool,
) -> Diagnostic {
    let name = thread.text.as_str();
    let diagnostic = Diagnostic::new(
        Code::UnknownThread,
        thread.span,
        format!("thread `{name}` is used before any `start-thread` creates it"),
    );
    match (later, near) {
        (Some(later), _) => diagnostic
            .with_label(later, "started only here, later")
            .with_help("move the `start-thread` block before this one"),
        (None, Some(near)) => diagnostic.did_you_mean(thread.span, near),
        (None, None) => diagnostic.with_help(format!(
            "add a `start-thread` block with `thread: {name}` before this block{}",
            if worker {
                "; workers have no main thread"
            } else {
                ", or leave `thread` out to use the main thread"
            }
        )),
    }
}

/// `declared` is where the variable is declared; `worker`: in a
/// worker's steps.
fn read_before_write(name: &Name, declared: Span, worker: bool) -> Diagnostic {
    let anywhere = if worker {
        "no earlier step writes it"
    } else {
        "no earlier block in this handler, and no other handler, writes it"
    };
    Diagnostic::new(
        Code::ReadBeforeWrite,
        name.span,
        format!("variable `{}` is read before anything sets it", name.text),
    )
    .with_label(declared, "declared here without a `default`")
    .with_help(format!(
        "{anywhere}; set it with `output: {}` in an earlier block, or give it a `default`",
        name.text
    ))
}

/// `output` names an input or a resource (`origin`), declared at `declared`.
fn output_not_a_variable(output: &Name, origin: VariableOrigin, declared: Span) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidOutput,
        output.span,
        format!(
            "`output` must name a variable, but `{}` is {}",
            output.text,
            origin.describe()
        ),
    )
    .with_label(declared, "declared here")
    .with_help(match origin {
        VariableOrigin::Resource => {
            "write the value to a variable, then persist it with a tool call"
        }
        _ => "inputs are immutable; declare a variable under `variables:` for the result",
    })
}

/// `near` is the nearest declared variable, if one is near.
fn output_not_declared(output: &Name, near: Option<Near>) -> Diagnostic {
    let diagnostic = Diagnostic::new(
        Code::InvalidOutput,
        output.span,
        format!(
            "`output` names `{}`, which is not a declared variable",
            output.text
        ),
    );
    match near {
        Some(near) => diagnostic.did_you_mean(output.span, near),
        None => diagnostic.with_help(format!(
            "declare it: `variables: {{ {}: {{ type: string }} }}`",
            output.text
        )),
    }
}

/// An argument of a `tool-call` that is not a parameter of `tool`: the
/// nearest parameter, else (when there are few) all of them.
fn unknown_parameter(tool: &Tool, parameter: &Name) -> Diagnostic {
    let parameters = || tool.parameters.iter().map(|p| p.name.text.as_str());
    let diagnostic = Diagnostic::new(
        Code::UnknownKey,
        parameter.span,
        format!(
            "tool `{}` has no parameter `{}`",
            tool.name.text, parameter.text
        ),
    )
    .with_label(tool.name.span, "the tool is declared here");
    match nearest(&parameter.text, parameters()) {
        Some(near) => diagnostic.did_you_mean(parameter.span, near),
        None if tool.parameters.is_empty() => diagnostic.with_help("the tool takes no parameters"),
        None if tool.parameters.len() > MAX_LISTED => diagnostic,
        None => diagnostic.with_help(format!(
            "its parameters are {}",
            parameters()
                .map(|p| format!("`{p}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// The `tool-call` (its tool named at `call`) gives no value for the
/// required `parameter`.
fn missing_argument(call: Span, tool: &str, parameter: &Name) -> Diagnostic {
    Diagnostic::new(
        Code::MissingField,
        call,
        format!(
            "`tool-call` of `{tool}` gives no value for required parameter `{}`",
            parameter.text
        ),
    )
    .with_label(parameter.span, "required here")
    .with_help(format!(
        "add `{}: ...` under the block's `input:`",
        parameter.text
    ))
}

/// The variable `output` is declared of type `declared`, and the block
/// stores a `response`.
fn response_type_mismatch(output: &Name, declared: &TypeExpr, response: &TypeExpr) -> Diagnostic {
    let written = declared.display();
    Diagnostic::new(
        Code::ResponseTypeMismatch,
        output.span,
        format!(
            "variable `{}` is declared `{written}`, but this block stores a `{}`",
            output.text,
            response.display()
        ),
    )
    .with_label(declared.span, format!("declared `{written}` here"))
    .with_label(response.span, "the response type")
    .with_help(format!(
        "declare `{}` with `type: {}`",
        output.text,
        response.display()
    ))
}

/// The blocks of one handler, or a worker's steps, in order.
/// Returns the variables the blocks write.
pub(super) fn check_sequence<'m>(
    model: &Model,
    blocks: &'m [Block],
    scope: &Scope,
    diags: &mut Diagnostics,
) -> HashSet<&'m str> {
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
            .map(|m| (&m.source, Reader::InputSource))
            .chain(block.reads.iter().map(|r| (&r.name, Reader::Key(r.key))))
            .chain(block.arguments.iter().filter_map(|a| match &a.value {
                ArgumentValue::Variable(name) => Some((name, Reader::ToolInput)),
                ArgumentValue::Literal(_) => None,
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
        for (_, setting) in &block.models {
            if let Setting::Variable(name) = setting {
                check_dynamic(model, scope, "model", name, diags);
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
            diags.push(worker_block_without_thread(&block.name, block.kind_span));
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
    written
}

/// A worker's `output`, which its run returns when the steps end: a
/// variable with no `default` that no step writes is never set, and the
/// worker then fails (`WorkerError`, "completes without producing
/// output").
pub(super) fn check_worker_output(
    model: &Model,
    output: &Name,
    written: &HashSet<&str>,
    diags: &mut Diagnostics,
) {
    if written.contains(output.text.as_str()) {
        return;
    }
    let Some((VariableOrigin::Variable, field)) = model.variable(&output.text) else {
        return;
    };
    if field.default.is_some() {
        return;
    }
    diags.push(
        Diagnostic::new(
            Code::ReadBeforeWrite,
            output.span,
            format!(
                "the worker's `output` `{}` is never set: no step writes it",
                output.text
            ),
        )
        .with_label(field.name.span, "declared here without a `default`")
        .with_help(format!(
            "set it with `output: {}` in a step, or give it a `default`; a worker that ends without its output fails",
            output.text
        )),
    );
}

/// A thread is started before a block uses it.
/// `later` is the thread's first `start-thread` in this sequence: the thread
/// is not started yet, so that one comes after this block.
pub(super) fn check_thread(
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
    let names = scope.model.names();
    if !scope.worker && names.is_started(name) && later.is_none() {
        return;
    }
    let later = later.map(|block| block.name.span);
    let near = match later {
        Some(_) => None,
        None => nearest(name, names.started_threads()),
    };
    diags.push(thread_not_started(thread, later, near, scope.worker));
}

/// A variable with no default that nothing can have written yet.
pub(super) fn check_read_before_write(
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
    let trigger = scope.trigger().map(|t| t.name.text.as_str());
    if let Some(trigger) = trigger
        && scope.facts.written_elsewhere(&name.text, trigger)
    {
        return;
    }
    diags.push(read_before_write(name, field.name.span, scope.worker));
}

/// `output:` names a declared variable.
pub(super) fn check_output(model: &Model, output: &Name, diags: &mut Diagnostics) {
    match model.variable(&output.text) {
        Some((VariableOrigin::Variable, _)) => {}
        Some((origin, field)) => {
            diags.push(output_not_a_variable(output, origin, field.name.span));
        }
        None => {
            let candidates = model
                .protocol
                .variables
                .iter()
                .map(|f| f.name.text.as_str());
            let near = nearest(&output.text, candidates);
            diags.push(output_not_declared(output, near));
        }
    }
}

/// The tool exists, and the inputs are its parameters.
pub(super) fn check_tool_call(model: &Model, block: &Block, diags: &mut Diagnostics) {
    let Some(name) = &block.tool else {
        return;
    };
    let Some(tool) = model.tool(&name.text) else {
        let tools = || model.protocol.tools.iter().map(|t| &t.name);
        check_listed([name], |_| false, tools, TOOL, diags);
        return;
    };
    let given: HashSet<&str> = block
        .arguments
        .iter()
        .map(|a| a.parameter.text.as_str())
        .collect();
    for argument in &block.arguments {
        let parameter = &argument.parameter;
        match tool
            .parameters
            .iter()
            .find(|p| p.name.text == parameter.text)
        {
            None => diags.push(unknown_parameter(tool, parameter)),
            // An empty value is left to the platform, as an empty
            // `default:` is.
            Some(field) => match &argument.value {
                ArgumentValue::Literal(node) if !node.is_null() => {
                    let judged = Judged {
                        code: Code::InvalidToolInput,
                        key: &parameter.text,
                    };
                    check_value(node, field, judged, diags);
                }
                _ => {}
            },
        }
    }
    for parameter in tool.parameters.iter().filter(|p| !p.optional) {
        if !given.contains(parameter.name.text.as_str()) {
            diags.push(missing_argument(
                name.span,
                &tool.name.text,
                &parameter.name,
            ));
        }
    }
}

/// A structured `next-message` stores an object of its `responseType`.
pub(super) fn check_response_output(model: &Model, block: &Block, diags: &mut Diagnostics) {
    let Some(output) = &block.output else {
        return;
    };
    let Some((VariableOrigin::Variable, field)) = model.variable(&output.text) else {
        return;
    };
    let Some(ty) = &field.ty else {
        return;
    };
    if ty.kind == TypeExprKind::Builtin(Builtin::Unknown) {
        return;
    }
    match &block.response_type {
        Some(response) if ty.kind != response.kind => {
            diags.push(response_type_mismatch(output, ty, response));
        }
        Some(_) => {}
        // Without a `responseType` the reply is stored as text.
        None if ty.kind != TypeExprKind::Builtin(Builtin::String) => {
            let object = match &ty.kind {
                TypeExprKind::Named(name) => model
                    .lookup(name)
                    .is_some_and(|id| matches!(model.def(id).kind, TypeDefKind::Object(_))),
                _ => false,
            };
            diags.push(text_into_typed(output, ty, object));
        }
        None => {}
    }
}

/// A `next-message` with no `responseType` stores its reply as text in
/// `output`, declared of another type (`object`: an object type, which a
/// `responseType` could give it).
fn text_into_typed(output: &Name, declared: &TypeExpr, object: bool) -> Diagnostic {
    let written = declared.display();
    let diagnostic = Diagnostic::new(
        Code::ResponseTypeMismatch,
        output.span,
        format!(
            "variable `{}` is declared `{written}`, but this block stores its reply as text",
            output.text
        ),
    )
    .with_label(declared.span, format!("declared `{written}` here"));
    match object {
        true => diagnostic.with_help(format!(
            "give the block `responseType: {written}` to store the parsed object, or declare `{}` with `type: string`",
            output.text
        )),
        false => diagnostic.with_help(format!(
            "declare `{}` with `type: string`: a `next-message` replies with text, or with an object of its `responseType`",
            output.text
        )),
    }
}
