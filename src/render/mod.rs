//! Renderers turn diagnostics into text for people (`human`) and for tools
//! (`json`). They return strings; the binary decides where they go.

pub mod human;
pub mod json;
