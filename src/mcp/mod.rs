//! `agentc mcp`: a Model Context Protocol server over stdio, for coding
//! agents that write protocols. It is a thin front end on the library:
//! each tool ([`tools::TOOLS`]) parses its arguments, calls the library
//! and returns the data as `structuredContent` (with the same JSON as
//! text, for clients that read only text).
//!
//! Built on the official Rust SDK, `rmcp`, on a one-thread tokio runtime:
//! the transport and the protocol run there, and each tool call runs on
//! the runtime's blocking pool, so that a cancellation is answered while
//! a long call is still running (its result is then dropped).
//!
//! What it may touch: files under the roots the client declares
//! (`roots/list`, asked again after `notifications/roots/list_changed`),
//! or under the working folder when the client declares none
//! ([`roots::Roots`]); every read goes through the disk adapter's rules
//! (regular files, no links out). Nothing is written but the fixes a
//! `fix` call with `write: true` asks for. Nothing is fetched.

mod resources;
pub mod roots;
mod server;
pub mod tools;

pub use resources::{EXAMPLE, new_tool};
pub use server::Server;

use std::error::Error;

/// The longest message read: a larger one is dropped by the transport
/// (and logged) without an answer. A `text` argument larger than agentc
/// reads ([`crate::source::MAX_FILE_BYTES`]) but within this gets an
/// error result that says so.
pub const MAX_MESSAGE_BYTES: usize = 128 * 1024 * 1024;

/// Serves MCP on standard input and output until the client closes its
/// end; an error when the runtime could not start or the transport
/// failed.
pub fn serve_stdio() -> Result<(), Box<dyn Error + Send + Sync>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .max_blocking_threads(4)
        .build()?;
    runtime.block_on(async {
        let here = std::env::current_dir()?;
        let transport = rmcp::transport::async_rw::AsyncRwTransport::new_server(
            tokio::io::stdin(),
            tokio::io::stdout(),
        )
        .with_max_line_length(MAX_MESSAGE_BYTES);
        let service = rmcp::ServiceExt::serve(Server::new(here), transport).await?;
        service.waiting().await?;
        Ok(())
    })
}
