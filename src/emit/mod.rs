//! JSON Schema from the checked model, in the shape each consumer needs.
//!
//! [`lower`] is the one lowering every target starts from; each target is a
//! module over it that applies its consumer's rules and reports, at the
//! YAML node responsible, what the consumer cannot express or would reject
//! for its size. Nothing is changed silently: a rendering that differs from
//! the protocol's meaning comes with a diagnostic, and `docs/targets.md`
//! shows each one.
//!
//! Emitters run only on a model without errors, so every name resolves and
//! no type is recursive.

pub mod aap;
pub mod anthropic;
pub mod gemini;
mod kit;
pub mod lower;
pub mod openai;
pub mod plain;
pub mod schema;

pub use kit::{Cx, EmitError, Output, Selection, Target, response_types};
pub use schema::{emit_all, emit_tool, emit_type};

use crate::diagnostic::Diagnostics;
use crate::model::Model;

/// Emits `selection` for `target`. What the target cannot express, and
/// what the provider would reject, goes to `diags`; when that includes an
/// error the output must not be used.
pub fn emit(
    model: &Model,
    target: Target,
    selection: Selection,
    diags: &mut Diagnostics,
) -> Result<Output, EmitError> {
    dispatch(&mut Cx::new(model, target, diags), selection)
}

fn dispatch(cx: &mut Cx, selection: Selection) -> Result<Output, EmitError> {
    match cx.target {
        Target::JsonSchema => schema::emit(cx.model, &selection),
        Target::OpenAi => openai::emit(cx, selection),
        Target::Anthropic => anthropic::emit(cx, selection),
        Target::Gemini => gemini::emit(cx, selection),
        Target::AgUi | Target::Aap | Target::ToolsPrompt => plain::emit(cx, selection),
    }
}

/// Reports everything `target` cannot express or would reject, for
/// `agentc check --target`: every tool, as the one request that carries
/// them all, every type the protocol uses as a `responseType` (for the
/// providers with structured output), and for AAP the inputs that have no
/// `GET /meta` option.
pub fn check(model: &Model, target: Target, diags: &mut Diagnostics) {
    let mut cx = Cx::new(model, target, diags);
    let responses = match target {
        // The reference mapping expresses everything and has no limits.
        Target::JsonSchema => return,
        // Anthropic's limits count a request's tools and output together.
        Target::Anthropic => return anthropic::check(&mut cx),
        Target::OpenAi | Target::Gemini => response_types(model),
        Target::Aap => {
            aap::options(model, cx.diags);
            Vec::new()
        }
        Target::AgUi | Target::ToolsPrompt => Vec::new(),
    };
    // Only what emitting reports is needed; every selection here names
    // something that exists, so none fails.
    let _ = dispatch(&mut cx, Selection::All);
    for id in responses {
        let _ = dispatch(&mut cx, Selection::Response(&model.def(id).name.text));
    }
}
