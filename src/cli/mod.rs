//! The `agentc` binary's own modules: the arguments, one module per
//! subcommand, and the printing they share. Each calls the library and
//! renders; what a subcommand decides about protocols lives in the library.

pub(crate) mod args;
pub(crate) mod check;
pub(crate) mod diff;
pub(crate) mod emit;
pub(crate) mod explain;
pub(crate) mod generate;
pub(crate) mod init;
pub(crate) mod lsp;
pub(crate) mod manual;
pub(crate) mod mcp;
pub(crate) mod output;
pub(crate) mod schema;
pub(crate) mod validate;
pub(crate) mod watch;
