//! The MCP handler: lists and calls the tools, serves the resources and
//! the prompt, and keeps the client's roots.

use super::resources;
use super::roots::{self, Roots};
use super::tools::{self, Outcome};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, GetPromptRequestParams,
    GetPromptResponse, GetPromptResult, Implementation, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    Prompt, PromptArgument, PromptMessage, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, Resource, ResourceContents, ResourceTemplate, Role, ServerCapabilities,
    ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// How long the client has to answer `roots/list`.
const ROOTS_PATIENCE: Duration = Duration::from_secs(10);

/// The server of one session.
pub struct Server {
    /// The working folder: relative paths start here, and it is the root
    /// when the client declares none.
    here: PathBuf,
    /// The roots as last asked, shared with an answer that comes late.
    roots: Arc<Known>,
    /// Held while the client is asked, so that calls made meanwhile wait
    /// for the same answer rather than each asking.
    asking: tokio::sync::Mutex<()>,
}

/// The roots as last asked; `None` until asked, and again after the
/// client says they changed, which also starts a new generation.
#[derive(Default)]
struct Known(Mutex<(Option<Arc<Roots>>, u64)>);

impl Known {
    fn get(&self) -> (Option<Arc<Roots>>, u64) {
        let held = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        (held.0.clone(), held.1)
    }

    /// Keeps `roots` unless the client has said since that they changed.
    fn set(&self, generation: u64, roots: Arc<Roots>) {
        let mut held = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if held.1 == generation {
            held.0 = Some(roots);
        }
    }

    /// Keeps `roots` unless roots are known (or the client has said since
    /// that they changed).
    fn set_if_unknown(&self, generation: u64, roots: Arc<Roots>) {
        let mut held = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if held.1 == generation && held.0.is_none() {
            held.0 = Some(roots);
        }
    }

    fn forget(&self) {
        let mut held = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        *held = (None, held.1 + 1);
    }
}

impl Server {
    pub fn new(here: PathBuf) -> Server {
        Server {
            here,
            roots: Arc::default(),
            asking: tokio::sync::Mutex::new(()),
        }
    }

    /// The roots: asked of the client once (when it can list them), kept
    /// until it says they changed. A client that has not answered within
    /// [`ROOTS_PATIENCE`] gets none for now (nothing is read), and its
    /// answer is kept when it comes. Roots are deprecated by SEP-2577 for
    /// the protocol's 2026-07-28 revision; the clients of the revisions
    /// before it declare them, and a client that does not gets the working
    /// folder.
    #[allow(deprecated)]
    async fn roots(&self, context: &RequestContext<RoleServer>) -> Arc<Roots> {
        if let (Some(known), _) = self.roots.get() {
            return known;
        }
        let _asking = self.asking.lock().await;
        let (known, generation) = self.roots.get();
        if let Some(known) = known {
            return known;
        }
        let can_list = context
            .peer
            .peer_info()
            .is_some_and(|info| info.capabilities.roots.is_some());
        let declared = |listed: &rmcp::model::ListRootsResult| {
            Some(
                listed
                    .roots
                    .iter()
                    .filter_map(|root| roots::from_uri(&root.uri))
                    .collect(),
            )
        };
        if !can_list {
            let roots = Arc::new(Roots::new(&self.here, None));
            self.roots.set(generation, Arc::clone(&roots));
            return roots;
        }
        // The task that asks keeps the answer itself, when it comes: in
        // time, or after the patience below, when a call made just after
        // the answer must find it kept.
        let peer = context.peer.clone();
        let known = Arc::clone(&self.roots);
        let here = self.here.clone();
        let asked = tokio::spawn(async move {
            let listed = peer.list_roots().await;
            if let Ok(listed) = &listed {
                known.set(generation, Arc::new(Roots::new(&here, declared(listed))));
            }
            listed.is_ok()
        });
        let none = || Arc::new(Roots::new(&self.here, Some(Vec::new())));
        match tokio::time::timeout(ROOTS_PATIENCE, asked).await {
            Ok(Ok(true)) => self.roots.get().0.unwrap_or_else(none),
            // A client that says it has roots and then cannot list them
            // gets none: nothing is read.
            Ok(_) => {
                let roots = none();
                self.roots.set(generation, Arc::clone(&roots));
                roots
            }
            // None for now, unless the answer came meanwhile.
            Err(_) => {
                let roots = none();
                self.roots.set_if_unknown(generation, Arc::clone(&roots));
                self.roots.get().0.unwrap_or(roots)
            }
        }
    }
}

/// A tool's definition, as `tools/list` gives it.
fn definition(spec: &tools::Spec) -> Tool {
    let mut annotations = ToolAnnotations::new();
    annotations.read_only_hint = Some(!spec.writes);
    // `fix` with `write` puts its text in place of a file's: not additive.
    annotations.destructive_hint = Some(spec.writes);
    annotations.idempotent_hint = Some(true);
    annotations.open_world_hint = Some(false);
    Tool::new(spec.name, spec.description, (spec.input)())
        .with_title(spec.title)
        .with_raw_output_schema((spec.output)())
        .with_annotations(annotations)
}

/// A tool's result: its data as structured content and as JSON text, or
/// the reason it failed as a result with `isError`.
fn result(outcome: Outcome) -> CallToolResult {
    match outcome {
        Ok(value) => {
            let text = serde_json::to_string_pretty(&value).unwrap_or_default();
            let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
            result.structured_content = Some(value);
            result
        }
        Err(reason) => CallToolResult::error(vec![ContentBlock::text(reason)]),
    }
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_prompts()
            .build();
        let mut info = Implementation::new("agentc", env!("CARGO_PKG_VERSION"));
        info.title = Some("agentc".to_string());
        info.description = Some(
            "Offline compiler and linter for Octavus agent protocols (protocol.yaml)".to_string(),
        );
        ServerConfig::new(capabilities)
            .with_server_info(info)
            .with_instructions(
                "agentc checks Octavus agent protocols (protocol.yaml and its agent folder) offline. \
                 After every edit of a protocol, call `check` (a `path`, or a draft as `text`); \
                 apply `fix`; read a code's page with `explain`; see what a provider gets with \
                 `emit`; check data against the protocol with `validate`.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(
            tools::TOOLS.iter().map(definition).collect(),
        ))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        tools::find(name).map(definition)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let Some(spec) = tools::find(&request.name) else {
            return Err(McpError::invalid_params(
                format!(
                    "no tool `{}`; the tools are {}",
                    crate::render::inert(&request.name),
                    tools::TOOLS
                        .iter()
                        .map(|t| format!("`{}`", t.name))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                None,
            ));
        };
        // A tool that reads no file and looks for no configuration does not
        // wait for the client's roots.
        let roots = match spec.reads {
            true => self.roots(&context).await,
            false => Arc::new(Roots::new(&self.here, Some(Vec::new()))),
        };
        let arguments = request.arguments.map(Value::Object).unwrap_or(Value::Null);
        let call = spec.call;
        let work = tokio::task::spawn_blocking(move || call(&roots, arguments));
        let outcome = tokio::select! {
            done = work => match done {
                Ok(outcome) => outcome,
                // A bug, never the input's doing: the call failed, the
                // server goes on.
                Err(_) => Err(format!("internal error: the `{}` call failed; please report it", spec.name)),
            },
            () = context.ct.cancelled() => {
                return Err(McpError::internal_error("the call was cancelled", None));
            }
        };
        Ok(CallToolResponse::Complete(result(outcome)))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        Ok(ListResourcesResult::with_all_items(
            resources::list()
                .into_iter()
                .map(|r| {
                    Resource::new(r.uri, r.name)
                        .with_description(r.description)
                        .with_mime_type(r.mime_type)
                })
                .collect(),
        ))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        Ok(ListResourceTemplatesResult::with_all_items(vec![
            ResourceTemplate::new(format!("{}/{{code}}", resources::CODES), "code")
                .with_description("A diagnostic code's page (`agentc explain CODE`).")
                .with_mime_type("text/markdown"),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        match resources::read(&request.uri) {
            Some((text, mime_type)) => Ok(ReadResourceResponse::Complete(ReadResourceResult::new(
                vec![ResourceContents::text(text, request.uri.clone()).with_mime_type(mime_type)],
            ))),
            None => Err(McpError::resource_not_found(
                format!(
                    "no resource `{}`; `resources/list` lists them",
                    crate::render::inert(&request.uri)
                ),
                None,
            )),
        }
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        let mut name = PromptArgument::new("name");
        name.description = Some("The new tool's name, kebab-case (`place-order`).".to_string());
        name.required = Some(true);
        let mut purpose = PromptArgument::new("purpose");
        purpose.description = Some("What the tool is for, in a sentence.".to_string());
        purpose.required = Some(false);
        Ok(ListPromptsResult::with_all_items(vec![Prompt::new(
            resources::NEW_TOOL,
            Some("Write a new tool and its types in a protocol so that they pass `check`."),
            Some(vec![name, purpose]),
        )]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        if request.name != resources::NEW_TOOL {
            return Err(McpError::invalid_params(
                format!(
                    "no prompt `{}`; the prompt is `{}`",
                    crate::render::inert(&request.name),
                    resources::NEW_TOOL
                ),
                None,
            ));
        }
        let arguments = request.arguments.unwrap_or_default();
        let argument = |key: &str| arguments.get(key).and_then(Value::as_str);
        let Some(name) = argument("name").filter(|name| !name.trim().is_empty()) else {
            return Err(McpError::invalid_params(
                "the prompt needs `name`, the new tool's name",
                None,
            ));
        };
        let text = resources::new_tool(name, argument("purpose"));
        Ok(GetPromptResponse::Complete(
            GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
                .with_description("Write a new tool and its types so that they pass `check`."),
        ))
    }

    async fn on_roots_list_changed(&self, _context: NotificationContext<RoleServer>) {
        self.roots.forget();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// An answer that comes after the client said its roots changed is
    /// not kept: it is about the roots before.
    #[test]
    fn a_late_answer_is_kept_only_for_its_generation() {
        let known = Known::default();
        let roots = |folder: &str| Arc::new(Roots::new(Path::new("/"), Some(vec![folder.into()])));
        let (none, first) = known.get();
        assert!(none.is_none());
        known.set(first, roots("/tmp"));
        assert_eq!(known.get().0.unwrap().folders(), roots("/tmp").folders());
        // A late answer of the same generation replaces what was kept.
        known.set(first, roots("/"));
        assert_eq!(known.get().0.unwrap().folders(), roots("/").folders());
        known.forget();
        let (none, second) = known.get();
        assert!(none.is_none());
        known.set(first, roots("/tmp"));
        assert!(known.get().0.is_none(), "an answer of before the change");
        known.set(second, roots("/tmp"));
        assert!(known.get().0.is_some());
    }
}
