//! JSON Schema from the checked model. `schema` is the one lowering every
//! target starts from; each target is a module over it. Emitters run only on
//! a model without errors, so every name resolves and no type is recursive.

pub mod schema;

pub use schema::{EmitError, emit_all, emit_tool, emit_type};
