//! The rules, run over the model, one concern per file: the types language
//! (`types`, `unions`, `cycles`, `naming`), the protocol's sections and
//! settings, names that do not resolve (`references`), and the order of a
//! handler's blocks (`flow`). Each code is raised in one file, next to the
//! diagnostics it builds; this file only runs them.

mod cycles;
mod flow;
mod memo;
mod naming;
mod references;
mod sections;
mod settings;
mod types;
mod unions;

pub(crate) use memo::Memo;
pub use naming::{is_slug, slug_problem};
pub use sections::agent_format;

use crate::diagnostic::Diagnostics;
use crate::model::{Edit, Model};
use crate::source::Source;
use crate::syntax::{FieldContext, TypeDef, TypeDefKind};
use flow::{check_output, check_sequence, check_worker_output};
use references::{Facts, Scope};
use sections::{check_declarations, check_format, check_handlers, check_names};
use settings::check_config;
use types::{check_field, check_response_type};

/// `source` is the text `model` was lowered from: a fix's edits are
/// placed in it (its indentation, its line endings).
pub fn check(model: &Model, source: &Source, diags: &mut Diagnostics) {
    check_again(model, source, diags, None, false);
}

/// [`check`], giving again what the checks of the text before an edit
/// found (`memo`) wherever they read nothing the edit changed, and, when
/// `record`, keeping what the types' checks find for the next edit. Says
/// how many types were checked (not given again).
pub(crate) fn check_again(
    model: &Model,
    source: &Source,
    diags: &mut Diagnostics,
    edited: Option<(Memo, &Edit)>,
    record: bool,
) -> (Option<Memo>, usize) {
    let protocol = &model.protocol;
    let renaming = naming::Renaming::new(model, source);
    let reuse = edited.and_then(|(memo, edit)| memo::Reuse::new(model, memo, edit));
    let mut recorder = memo::Recorder::new(record);
    let mut checked = 0;
    for (index, def) in protocol.types.iter().enumerate() {
        let mark = diags.len();
        match reuse.as_ref().and_then(|reuse| reuse.of_type(index)) {
            Some(kept) => diags.extend(kept),
            None => {
                check_type(model, source, &renaming, def, diags);
                checked += 1;
            }
        }
        recorder.end_type(diags, mark);
    }
    let mark = diags.len();
    match reuse.as_ref().and_then(memo::Reuse::cycles) {
        Some(kept) => diags.extend(kept),
        None => cycles::check_cycles(model, diags),
    }
    recorder.end_cycles(diags, mark);

    let sections = [
        (&protocol.input, FieldContext::Input),
        (&protocol.resources, FieldContext::Resource),
        (&protocol.variables, FieldContext::Variable),
    ];
    for (fields, context) in sections {
        for field in fields {
            check_field(model, source, field, context, diags);
        }
    }
    for trigger in &protocol.triggers {
        for field in &trigger.input {
            check_field(model, source, field, FieldContext::TriggerInput, diags);
        }
    }
    for tool in &protocol.tools {
        for parameter in &tool.parameters {
            check_field(model, source, parameter, FieldContext::Parameter, diags);
        }
    }
    for block in protocol.blocks() {
        if let Some(response_type) = &block.response_type {
            check_response_type(model, source, response_type, diags);
        }
    }
    check_protocol(model, &renaming, diags);
    (recorder.finish(), checked)
}

/// The checks of one type: its name, its properties' names and fields, or
/// its union.
fn check_type(
    model: &Model,
    source: &Source,
    renaming: &naming::Renaming,
    def: &TypeDef,
    diags: &mut Diagnostics,
) {
    naming::check_type_name(renaming, &def.name, diags);
    match &def.kind {
        TypeDefKind::Object(properties) => {
            naming::check_property_names(renaming, properties, diags);
            for property in properties {
                check_field(model, source, property, FieldContext::Property, diags);
            }
        }
        TypeDefKind::Array(field) => {
            check_field(model, source, field, FieldContext::ArrayType, diags)
        }
        TypeDefKind::Union(union) => unions::check_union(model, def, union, diags),
        TypeDefKind::Invalid => {}
    }
}

/// The rules of the protocol around the types: its sections, names,
/// thread configurations, cross-references and the order of its blocks.
fn check_protocol(model: &Model, renaming: &naming::Renaming, diags: &mut Diagnostics) {
    check_format(model, diags);
    check_names(model, renaming, diags);
    check_declarations(model, diags);
    check_handlers(model, diags);
    let facts = Facts::new(model);
    if let Some(agent) = &model.protocol.agent {
        let scope = Scope {
            model,
            facts: &facts,
            scope: None,
            worker: false,
        };
        check_config(model, &agent.config, &scope, true, diags);
    }
    for (h, handler) in model.protocol.handlers.iter().enumerate() {
        // A handler under a misspelt trigger name (reported) is checked as
        // the handler of the trigger it most likely means (the resolution
        // says which), so its reads of that trigger's inputs are not
        // reported again.
        let scope = Scope {
            model,
            facts: &facts,
            scope: model.names().handler_scope(h),
            worker: false,
        };
        check_sequence(model, &handler.blocks, &scope, diags);
    }
    let scope = Scope {
        model,
        facts: &facts,
        scope: None,
        worker: model.is_worker(),
    };
    let written = check_sequence(model, &model.protocol.steps, &scope, diags);
    if let Some(output) = &model.protocol.output {
        check_output(model, output, diags);
        // Without steps, `protocol-format` says what is missing.
        if model.is_worker() && !model.protocol.steps.is_empty() {
            check_worker_output(model, output, &written, diags);
        }
    }
}
