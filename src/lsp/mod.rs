//! `agentc lsp`: a language server over stdio (its own transport,
//! lsp-server's `Connection`, lsp-types).
//!
//! Checking is synchronous, so the server is one loop. A change is
//! applied at once and checked when no message is waiting (or before the
//! next request): a burst of keystrokes queued behind each other costs one
//! check, after the last, and a request is answered about the text as it
//! is then. A check compiled from nothing looks at the queue as it goes
//! ([`Inbox::edit_waiting`]) and stops once an edit to its protocol or its
//! folder is waiting, since its text is then already stale (an edit to
//! another document is not: [`concerns`]): nothing waits behind it, and the edit is
//! checked next, from the compile before (an edit an entry can take in
//! place is one frame's work and always runs to its end). A request about
//! a document whose check stopped for edits sent after the request is
//! answered `ContentModified`, as LSP has it. Nothing a client sends can stop the
//! loop: malformed and oversized messages are answered or logged by the
//! transport (`transport.rs`), messages out of place in the lifecycle get
//! errors ([`serve`]), malformed parameters get an error response,
//! positions out of range are clamped, and a request that fails anyway (a
//! bug) is answered with an internal error while the server goes on.
//!
//! Files in an agent folder (`protocol.yaml` beside `settings.json`) are
//! checked together, as `agentc check` checks the folder, with the
//! editor's unsaved text in place of what is on disk.

// `lsp_types::Uri` keeps parsed parts in cells, which clippy takes for a
// mutable key; it compares, orders and hashes by its text, which never
// changes.
#![allow(clippy::mutable_key_type)]

mod completion;
mod convert;
mod features;
mod text;
mod transport;

pub use convert::Encoding;
pub use text::MAX_DOCUMENT_BYTES;
pub use transport::{
    Incoming, IoThreads, MAX_HEADER_BYTES, MAX_JSON_VALUES, MAX_MESSAGE_BYTES, connect, stdio,
};

use crate::agent;
use crate::cancel::Cancel;
use crate::config::Config;
use crate::diagnostic::Applicability;
use crate::disk::{self, Reach};
use crate::files::FileError;
use crate::model::resolve::{Index, Resolution};
use crate::project;
use crate::workspace::Workspace;
use crate::{Diagnostic, FileReport};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response, ResponseError};
use lsp_types as lsp;
use lsp_types::notification::Notification as _;
use serde_json::Value;
use std::collections::VecDeque;
use std::collections::{BTreeMap, BTreeSet};
use std::error::Error;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::Duration;
use text::Document;

/// How a session ended.
#[derive(Clone, Debug)]
pub struct Ended {
    /// The client sent `shutdown` first. LSP has the server exit with 0
    /// then and 1 otherwise, whether `exit` or the end of input ended it.
    pub shutdown: bool,
    /// What the server still held at the end, for the tests.
    #[doc(hidden)]
    pub held: Held,
}

/// The sizes of what the server keeps between messages, and the work its
/// edits took.
#[doc(hidden)]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Held {
    pub documents: usize,
    /// The bytes of the open documents' texts.
    pub text_bytes: usize,
    pub analyses: usize,
    pub published: usize,
    pub spellings: usize,
    /// The bytes read to place every change of the session.
    pub edit_bytes_scanned: u64,
    /// How many times an `agentc.toml` was parsed and its globs built.
    pub config_builds: u64,
    /// How many times a document was checked.
    pub checks: u64,
    /// How many checks stopped because an edit was waiting.
    pub cancelled: u64,
    /// Compiles kept from stopped checks, for the next check.
    pub kept: usize,
}

/// The client's messages, in the order sent. A check looks ahead in the
/// queue for edits; what it reads ahead waits here, in order, before
/// anything still in the channel.
struct Inbox<'c> {
    receiver: &'c crossbeam_channel::Receiver<Message>,
    /// What the transport's reader has read ahead of the channel.
    incoming: &'c Incoming,
    ahead: Mutex<Ahead>,
}

#[derive(Default)]
struct Ahead {
    messages: VecDeque<Message>,
    /// How many of them open, change, save or close a document.
    edits: usize,
    /// How many messages came out of the channel.
    received: u64,
}

impl Ahead {
    fn push(&mut self, message: Message) {
        if is_edit(&message) {
            self.edits += 1;
        }
        self.messages.push_back(message);
    }
}

/// How long the server waits for a message the reader has decoded and is
/// handing over: it is on its way.
const IN_HAND: Duration = Duration::from_secs(1);

/// How long the server waits for a message whose first bytes the client
/// has already sent before it calls a burst over and checks.
const ARRIVING: Duration = Duration::from_millis(20);

impl<'c> Inbox<'c> {
    fn new(
        receiver: &'c crossbeam_channel::Receiver<Message>,
        incoming: &'c Incoming,
    ) -> Inbox<'c> {
        Inbox {
            receiver,
            incoming,
            ahead: Mutex::default(),
        }
    }

    fn ahead(&self) -> MutexGuard<'_, Ahead> {
        self.ahead.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The next message, waiting for one; `None` once the client hung up.
    fn next(&self) -> Option<Message> {
        {
            let mut ahead = self.ahead();
            if let Some(message) = ahead.messages.pop_front() {
                if is_edit(&message) {
                    ahead.edits -= 1;
                }
                return Some(message);
            }
        }
        let message = self.receiver.recv().ok()?;
        self.ahead().received += 1;
        Some(message)
    }

    /// Whether no message is waiting, nor on its way: read ahead, in the
    /// channel, decoded by the transport's reader and being handed over,
    /// or already sent by the client, in part, and being read (then the
    /// server waits for it a moment, [`ARRIVING`]). The transport's
    /// channels hold no message, so a burst of changes is in none of them
    /// while the reader decodes the next; this tells it from a pause.
    fn is_empty(&self) -> bool {
        let received = {
            let mut ahead = self.ahead();
            if !ahead.messages.is_empty() {
                return false;
            }
            if let Ok(message) = self.receiver.try_recv() {
                ahead.received += 1;
                ahead.push(message);
                return false;
            }
            ahead.received
        };
        let patience = if self.incoming.decoded() > received {
            IN_HAND
        } else if self.incoming.buffered() {
            ARRIVING
        } else {
            return true;
        };
        match self.receiver.recv_timeout(patience) {
            Ok(message) => {
                let mut ahead = self.ahead();
                ahead.received += 1;
                ahead.push(message);
                false
            }
            Err(_) => true,
        }
    }

    /// Whether a message that opens, changes, saves or closes a document
    /// that `concerns` picks is waiting, without waiting for one. It reads
    /// ahead only until it finds one, and at most [`MAX_AHEAD`] messages,
    /// so a client that floods the server still waits for it rather than
    /// filling its memory.
    fn edit_waiting(&self, concerns: &dyn Fn(&Message) -> bool) -> bool {
        let mut ahead = self.ahead();
        let relevant = |message: &Message| is_edit(message) && concerns(message);
        if ahead.edits > 0 && ahead.messages.iter().any(relevant) {
            return true;
        }
        while ahead.messages.len() < MAX_AHEAD {
            // A message the reader has decoded is on its way: looked at too.
            let message = match self.receiver.try_recv() {
                Ok(message) => message,
                Err(_) if self.incoming.decoded() > ahead.received => {
                    match self.receiver.recv_timeout(IN_HAND) {
                        Ok(message) => message,
                        Err(_) => break,
                    }
                }
                Err(_) => break,
            };
            ahead.received += 1;
            let found = relevant(&message);
            ahead.push(message);
            if found {
                return true;
            }
        }
        false
    }
}

/// Whether an edit waiting makes the check of the protocol `uri` stale: an
/// edit to the protocol itself, or to a file in its folder or below it
/// (its `settings.json`, its prompts; a protocol in a folder below, which
/// stops the check for nothing, is rare). An edit to a document elsewhere
/// does not: a request about this protocol is then answered, not refused as
/// changed. An edit whose document cannot be read concerns every check.
fn concerns(uri: &lsp::Uri, message: &Message) -> bool {
    let Message::Notification(n) = message else {
        return false;
    };
    let edited = n
        .params
        .get("textDocument")
        .and_then(|document| document.get("uri"))
        .and_then(Value::as_str)
        .and_then(|edited| edited.parse::<lsp::Uri>().ok());
    let Some(edited) = edited.map(|edited| convert::canonical(&edited)) else {
        return true;
    };
    if edited == *uri {
        return true;
    }
    let folder = convert::path_of(uri).and_then(|path| path.parent().map(Path::to_path_buf));
    match (folder, convert::path_of(&edited)) {
        (Some(folder), Some(path)) => path.starts_with(folder),
        _ => false,
    }
}

/// How many messages a check reads ahead at most, looking for an edit.
const MAX_AHEAD: usize = 1_024;

/// A message after which a check of the text before it is stale: one
/// that opens, changes, saves or closes a document.
fn is_edit(message: &Message) -> bool {
    use lsp::notification::*;
    let Message::Notification(n) = message else {
        return false;
    };
    matches!(
        n.method.as_str(),
        DidOpenTextDocument::METHOD
            | DidChangeTextDocument::METHOD
            | DidSaveTextDocument::METHOD
            | DidCloseTextDocument::METHOD
    )
}

/// Serves one client until it sends `exit`, or hangs up. The lifecycle is
/// the server's own rather than lsp-server's (`initialize_start`,
/// `handle_shutdown`), which end the session on any message out of place:
/// before `initialize`, requests get `ServerNotInitialized` and
/// notifications are dropped; after `shutdown`, requests get
/// `InvalidRequest` and notifications other than `exit` are dropped. The
/// error is only a client that stopped reading.
/// Serves the client at the other end of `connection` until it exits or
/// hangs up. `incoming` is what the transport's reader has read
/// ([`IoThreads::incoming`]; `Incoming::default()` for a connection with
/// no reader, such as `Connection::memory`).
pub fn serve(
    connection: &Connection,
    incoming: &Incoming,
) -> Result<Ended, Box<dyn Error + Send + Sync>> {
    let inbox = Inbox::new(&connection.receiver, incoming);
    let mut server: Option<Server> = None;
    let mut shutdown = false;
    while let Some(message) = inbox.next() {
        match message {
            Message::Request(request) => {
                use lsp::request::{Initialize, Request as _, Shutdown};
                let method = request.method.as_str();
                let response = if shutdown {
                    refuse(
                        request,
                        ErrorCode::InvalidRequest,
                        "the server is shutting down: only `exit` is accepted",
                    )
                } else if let Some(server) = server.as_mut() {
                    // Answered about the text as it is now: the changes
                    // queued before the request are checked first, once.
                    server.flush();
                    match method {
                        Initialize::METHOD => refuse(
                            request,
                            ErrorCode::InvalidRequest,
                            "the server is already initialized",
                        ),
                        Shutdown::METHOD => {
                            shutdown = true;
                            Response::new_ok(request.id, Value::Null)
                        }
                        _ => server.respond(request),
                    }
                } else if method == Initialize::METHOD {
                    let (response, started) = initialize(connection, &inbox, request);
                    server = Some(started);
                    response
                } else {
                    refuse(
                        request,
                        ErrorCode::ServerNotInitialized,
                        "the server is not initialized: send `initialize` first",
                    )
                };
                connection.sender.send(Message::Response(response))?;
            }
            Message::Notification(notification) => {
                if notification.method == lsp::notification::Exit::METHOD {
                    break;
                }
                if let Some(server) = server.as_mut().filter(|_| !shutdown) {
                    server.notify(notification);
                    // A burst of changes already queued costs one check,
                    // after the last of them.
                    if inbox.is_empty() {
                        server.flush();
                    }
                }
            }
            Message::Response(_) => {}
        }
    }
    let held = server.as_ref().map(Server::held).unwrap_or_default();
    Ok(Ended { shutdown, held })
}

fn refuse(request: Request, code: ErrorCode, message: &str) -> Response {
    Response::new_err(request.id, code as i32, message.to_string())
}

/// Answers `initialize`: parameters that do not decode are taken as the
/// defaults (UTF-16 positions) rather than refused, so that a client that
/// sends odd capabilities still gets a server.
fn initialize<'c>(
    connection: &'c Connection,
    inbox: &'c Inbox<'c>,
    request: Request,
) -> (Response, Server<'c>) {
    let params: lsp::InitializeParams = serde_json::from_value(request.params).unwrap_or_default();
    let encoding = negotiate(&params);
    let result = lsp::InitializeResult {
        capabilities: capabilities(encoding),
        server_info: Some(lsp::ServerInfo {
            name: "agentc".to_string(),
            version: Some(env!("CARGO_PKG_VERSION").to_string()),
        }),
    };
    let response = Response::new_ok(request.id, result);
    (response, Server::new(connection, inbox, encoding))
}

/// UTF-8 when the client offers it (no conversion needed), else LSP's
/// default, UTF-16.
fn negotiate(params: &lsp::InitializeParams) -> Encoding {
    let offered = params
        .capabilities
        .general
        .as_ref()
        .and_then(|general| general.position_encodings.as_ref());
    match offered {
        Some(kinds) if kinds.contains(&lsp::PositionEncodingKind::UTF8) => Encoding::Utf8,
        _ => Encoding::Utf16,
    }
}

fn capabilities(encoding: Encoding) -> lsp::ServerCapabilities {
    lsp::ServerCapabilities {
        position_encoding: Some(encoding.kind()),
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Options(
            lsp::TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(lsp::TextDocumentSyncKind::INCREMENTAL),
                save: Some(lsp::TextDocumentSyncSaveOptions::Supported(true)),
                ..lsp::TextDocumentSyncOptions::default()
            },
        )),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        definition_provider: Some(lsp::OneOf::Left(true)),
        references_provider: Some(lsp::OneOf::Left(true)),
        rename_provider: Some(lsp::OneOf::Right(lsp::RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: lsp::WorkDoneProgressOptions::default(),
        })),
        completion_provider: Some(lsp::CompletionOptions {
            trigger_characters: Some(vec![":".to_string(), " ".to_string()]),
            ..lsp::CompletionOptions::default()
        }),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Options(
            lsp::CodeActionOptions {
                code_action_kinds: Some(vec![
                    lsp::CodeActionKind::QUICKFIX,
                    lsp::CodeActionKind::SOURCE_FIX_ALL,
                ]),
                ..lsp::CodeActionOptions::default()
            },
        )),
        ..lsp::ServerCapabilities::default()
    }
}

/// The latest check of a protocol file open in the editor.
pub(crate) struct Analysis {
    pub uri: lsp::Uri,
    pub compilation: FileReport,
    /// Every use of every name: built when a request first needs it, not
    /// on every keystroke.
    index: OnceLock<Index>,
    /// The agent folder, when the protocol is one's `protocol.yaml`.
    pub folder: Option<PathBuf>,
    /// While the file cannot be read, the names of the last check that
    /// could.
    stale: Option<Arc<Resolution>>,
    /// The prompts of the agent folder, by name.
    pub prompts: Vec<String>,
}

impl Analysis {
    pub fn index(&self) -> &Index {
        self.index.get_or_init(|| {
            self.compilation
                .model
                .as_ref()
                .map(|model| Index::new(model, &self.compilation.source))
                .unwrap_or_default()
        })
    }

    /// The names completion offers: this check's (resolved when first
    /// asked for), or while the file cannot be read, the last ones it had.
    pub fn names(&self) -> &Resolution {
        match (&self.compilation.model, &self.stale) {
            (Some(model), _) => model.resolution(),
            (None, Some(stale)) => stale,
            (None, None) => {
                static NONE: OnceLock<Resolution> = OnceLock::new();
                NONE.get_or_init(Resolution::default)
            }
        }
    }

    /// The names to keep past this check for one that cannot read the
    /// file, when they were resolved.
    fn resolved(&self) -> Option<Arc<Resolution>> {
        match &self.compilation.model {
            Some(model) => model.resolved().cloned(),
            None => self.stale.clone(),
        }
    }
}

struct Server<'c> {
    connection: &'c Connection,
    inbox: &'c Inbox<'c>,
    encoding: Encoding,
    documents: BTreeMap<lsp::Uri, Document>,
    /// By the protocol's URI.
    analyses: BTreeMap<lsp::Uri, Analysis>,
    /// Files whose last published diagnostics were not empty, by the
    /// protocol whose check found them.
    published: BTreeMap<lsp::Uri, BTreeSet<lsp::Uri>>,
    /// The URI of each open file as the client spelled it. Inside, a file
    /// is known by one spelling ([`convert::canonical`]), since clients
    /// differ in which characters they escape.
    spellings: BTreeMap<lsp::Uri, lsp::Uri>,
    /// The bytes read to place every change so far.
    edit_bytes_scanned: u64,
    /// The configurations checks run under, by file and content.
    configs: project::ConfigCache,
    /// The baselines the configurations name, by file and content.
    baselines: project::baseline::BaselineCache,
    /// Documents changed since their last check: checked when no message
    /// is waiting, or before the next request.
    dirty: BTreeSet<lsp::Uri>,
    /// How many times a document was checked.
    checks: u64,
    /// How many checks stopped because an edit was waiting.
    cancelled: u64,
    /// What a stopped check was given, by the protocol's URI: the next
    /// check starts from it.
    kept: BTreeMap<lsp::Uri, Kept>,
}

/// What a check that stopped leaves for the next one.
struct Kept {
    names: Option<Arc<Resolution>>,
    compiled: Option<Box<crate::Previous>>,
}

/// The editor's buffers, laid over the disk ([`agent::Layered`]): a file
/// not open is read as `agentc check` reads it, never a FIFO, never out of
/// the agent folder, so no file can block the server.
struct Overlay<'d>(&'d BTreeMap<lsp::Uri, Document>);

impl agent::Buffers for Overlay<'_> {
    fn bytes(&self, path: &Path) -> Option<Vec<u8>> {
        let open = convert::uri_of(path).and_then(|uri| self.0.get(&uri));
        open.map(Document::bytes)
    }

    fn source(&self, path: &Path) -> Option<crate::Source> {
        let open = convert::uri_of(path).and_then(|uri| self.0.get(&uri))?;
        open.source(&path.display().to_string())
    }
}

/// A buffer with no file behind it (`untitled:`), named by its URI: the
/// only file there is, checked alone under the defaults.
struct Untitled<'d> {
    name: &'d Path,
    document: &'d Document,
}

impl agent::Files for Untitled<'_> {
    fn read(&self, path: &Path, _reach: Reach) -> Result<Vec<u8>, FileError> {
        match path == self.name {
            true => Ok(self.document.bytes()),
            false => Err(FileError::Io(std::io::ErrorKind::NotFound.into())),
        }
    }

    fn source(&self, path: &Path, _reach: Reach) -> Option<crate::Source> {
        (path == self.name)
            .then(|| self.document.source(&path.display().to_string()))
            .flatten()
    }

    fn agent_folder(&self, _dir: &Path, _reader: &dyn agent::Files) -> Option<agent::AgentFiles> {
        None
    }
}

impl<'c> Server<'c> {
    fn new(connection: &'c Connection, inbox: &'c Inbox<'c>, encoding: Encoding) -> Server<'c> {
        Server {
            connection,
            inbox,
            encoding,
            documents: BTreeMap::new(),
            analyses: BTreeMap::new(),
            published: BTreeMap::new(),
            spellings: BTreeMap::new(),
            edit_bytes_scanned: 0,
            configs: project::ConfigCache::default(),
            baselines: project::baseline::BaselineCache::default(),
            dirty: BTreeSet::new(),
            checks: 0,
            cancelled: 0,
            kept: BTreeMap::new(),
        }
    }

    fn held(&self) -> Held {
        Held {
            documents: self.documents.len(),
            text_bytes: self.documents.values().map(Document::len).sum(),
            analyses: self.analyses.len(),
            published: self.published.len(),
            spellings: self.spellings.len(),
            edit_bytes_scanned: self.edit_bytes_scanned,
            config_builds: self.configs.builds(),
            checks: self.checks,
            cancelled: self.cancelled,
            kept: self.kept.len(),
        }
    }

    fn respond(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        if let Some(uri) = self.stale_document(&request) {
            return Response::new_err(
                id,
                ErrorCode::ContentModified as i32,
                format!("`{}` changed after this request; ask again", uri.as_str()),
            );
        }
        match catch_unwind(AssertUnwindSafe(|| self.dispatch(request))) {
            Ok(response_result) => Response {
                id,
                response_result,
            },
            Err(_) => Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                "agentc failed on this request (a bug: please report it with the file)".to_string(),
            ),
        }
    }

    fn dispatch(&mut self, request: Request) -> Result<Value, ResponseError> {
        use lsp::request::*;
        let encoding = self.encoding;
        match request.method.as_str() {
            HoverRequest::METHOD => handle::<HoverRequest>(request, |p| {
                let at = &p.text_document_position_params;
                let analysis = self.analysis(&at.text_document.uri)?;
                features::hover(analysis, at.position, encoding)
            }),
            GotoDefinition::METHOD => handle::<GotoDefinition>(request, |p| {
                let at = &p.text_document_position_params;
                let analysis = self.analysis(&at.text_document.uri)?;
                features::definition(analysis, at.position, encoding)
                    .map(lsp::GotoDefinitionResponse::Array)
            }),
            References::METHOD => handle::<References>(request, |p| {
                let at = &p.text_document_position;
                let analysis = self.analysis(&at.text_document.uri)?;
                let declarations = p.context.include_declaration;
                features::references(analysis, at.position, declarations, encoding)
            }),
            PrepareRenameRequest::METHOD => handle::<PrepareRenameRequest>(request, |p| {
                let analysis = self.analysis(&p.text_document.uri)?;
                features::prepare_rename(analysis, p.position, encoding)
            }),
            Rename::METHOD => handle_fallible::<Rename>(request, |p| {
                let at = &p.text_document_position;
                let Some(analysis) = self.analysis(&at.text_document.uri) else {
                    return Ok(None);
                };
                features::rename(analysis, at.position, &p.new_name, encoding)
            }),
            Completion::METHOD => handle::<Completion>(request, |p| {
                let at = &p.text_document_position;
                let analysis = self.analysis(&at.text_document.uri)?;
                let items = completion::complete(analysis, at.position, encoding);
                Some(lsp::CompletionResponse::Array(items))
            }),
            CodeActionRequest::METHOD => handle::<CodeActionRequest>(request, |p| {
                let analysis = self.analysis(&p.text_document.uri)?;
                let mut actions = features::code_actions(analysis, p.range, encoding);
                if features::wants_fix_all(&p.context) {
                    actions.extend(self.fix_all(&p.text_document.uri));
                }
                Some(actions)
            }),
            #[cfg(test)]
            tests::PANIC => panic!("a test asked for a panic"),
            _ => Err(ResponseError {
                code: ErrorCode::MethodNotFound as i32,
                message: format!("agentc does not answer `{}`", request.method),
                data: None,
            }),
        }
    }

    /// The document a request is about, when its check stopped for an
    /// edit sent after the request: an answer would be about text the
    /// editor no longer shows.
    fn stale_document(&self, request: &Request) -> Option<lsp::Uri> {
        let uri = request.params.get("textDocument")?.get("uri")?.as_str()?;
        let uri = convert::canonical(&uri.parse().ok()?);
        self.dirty.contains(&uri).then_some(uri)
    }

    fn analysis(&self, uri: &lsp::Uri) -> Option<&Analysis> {
        self.analyses.get(&convert::canonical(uri))
    }

    /// `source.fixAll.agentc`: every safe fix of the document, as `agentc
    /// check --fix` makes them (the library's fix loop over the open
    /// buffers laid on the disk), as one edit of the whole document; none
    /// when nothing would change.
    fn fix_all(&mut self, uri: &lsp::Uri) -> Option<lsp::CodeActionOrCommand> {
        let canonical = convert::canonical(uri);
        let safe = Applicability::Safe;
        let fixed = match convert::path_of(&canonical) {
            Some(path) => {
                let config = self.configs.of(&path);
                let files = agent::Layered {
                    buffers: &Overlay(&self.documents),
                    under: &disk::Disk,
                };
                Workspace::fix_in(&files, &path, Reach::Named, &config, safe)
            }
            None => {
                let document = self.documents.get(&canonical)?;
                let name = Path::new(canonical.as_str());
                let untitled = Untitled { name, document };
                let config = Config::defaults(Path::new("."));
                Workspace::fix_in(&untitled, name, Reach::Named, &config, safe)
            }
        };
        let change = fixed.files.get(&fixed.path)?;
        let analysis = self.analysis(&canonical)?;
        features::fix_all(
            analysis,
            &change.before,
            &change.after,
            fixed.applied,
            self.encoding,
        )
    }

    /// A file's URI as the client knows it.
    fn spelled(&self, uri: &lsp::Uri) -> lsp::Uri {
        self.spellings.get(uri).unwrap_or(uri).clone()
    }

    fn notify(&mut self, notification: Notification) {
        use lsp::notification::*;
        let method = notification.method.clone();
        let result = catch_unwind(AssertUnwindSafe(|| match method.as_str() {
            DidOpenTextDocument::METHOD => {
                if let Ok(p) = params::<DidOpenTextDocument>(notification) {
                    let mut document = Document::new(p.text_document.text);
                    let uri = convert::canonical(&p.text_document.uri);
                    // Opened again without a close: what it was checked
                    // with is still the server's to forget.
                    if let Some(open) = self.documents.remove(&uri) {
                        document.protocol = open.protocol;
                    }
                    self.spellings.insert(uri.clone(), p.text_document.uri);
                    self.documents.insert(uri.clone(), document);
                    self.refresh(&uri);
                }
            }
            DidChangeTextDocument::METHOD => {
                if let Ok(p) = params::<DidChangeTextDocument>(notification) {
                    let uri = convert::canonical(&p.text_document.uri);
                    let Some(document) = self.documents.get_mut(&uri) else {
                        return;
                    };
                    let scanned = document.change(p.content_changes, self.encoding);
                    self.edit_bytes_scanned += scanned;
                    self.dirty.insert(uri);
                }
            }
            DidSaveTextDocument::METHOD => {
                if let Ok(p) = params::<DidSaveTextDocument>(notification) {
                    self.refresh(&convert::canonical(&p.text_document.uri));
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(p) = params::<DidCloseTextDocument>(notification) {
                    self.close(&convert::canonical(&p.text_document.uri));
                }
            }
            _ => {}
        }));
        if result.is_err() {
            self.log(&format!(
                "agentc failed on `{method}` (a bug: please report it)"
            ));
        }
    }

    fn log(&self, message: &str) {
        let params = lsp::LogMessageParams {
            typ: lsp::MessageType::ERROR,
            message: message.to_string(),
        };
        self.send(lsp::notification::LogMessage::METHOD, params);
    }

    fn send(&self, method: &str, params: impl serde::Serialize) {
        let notification = Notification::new(method.to_string(), params);
        // A client that hung up ends the loop on the next read.
        let _ = self
            .connection
            .sender
            .send(Message::Notification(notification));
    }

    /// Checks the protocol an open file belongs to and publishes what
    /// changed. A file not open (a `didSave` or `didChange` for one never
    /// opened) is not the server's to check: checking it would keep its
    /// analysis with nothing to ever close it.
    /// Checks every document changed since its last check.
    fn flush(&mut self) {
        for uri in std::mem::take(&mut self.dirty) {
            let checked = catch_unwind(AssertUnwindSafe(|| self.refresh(&uri)));
            if checked.is_err() {
                self.log("agentc failed on `textDocument/didChange` (a bug: please report it)");
            }
        }
    }

    fn refresh(&mut self, uri: &lsp::Uri) {
        self.dirty.remove(uri);
        let protocol = self.protocol_of(uri);
        let Some(document) = self.documents.get_mut(uri) else {
            return;
        };
        let before = std::mem::replace(&mut document.protocol, protocol.clone());
        if let Some(protocol) = &protocol
            && !self.check(protocol)
        {
            // Stopped for an edit waiting: checked again after it.
            self.dirty.insert(uri.clone());
        }
        if before.is_some() && before != protocol {
            // The disk moved the file to another protocol, or to none.
            self.sweep();
        }
    }

    /// The protocol a file is checked with: itself, or for an agent
    /// folder's `settings.json` and the Markdown files under its
    /// `prompts/`, `references/` and `skills/`, the folder's
    /// `protocol.yaml`. Other JSON and
    /// Markdown files are not the server's.
    fn protocol_of(&self, uri: &lsp::Uri) -> Option<lsp::Uri> {
        let Some(path) = convert::path_of(uri) else {
            return Some(uri.clone());
        };
        let folder = match path.extension().and_then(|e| e.to_str()) {
            Some("json") => path
                .parent()
                .filter(|_| path.file_name().is_some_and(|n| n == "settings.json"))
                .filter(|dir| disk::is_agent_folder(dir))?,
            Some("md") => path.ancestors().skip(2).take(16).find(|dir| {
                let inside = |sub: &str| path.starts_with(dir.join(sub));
                (inside("prompts") || inside("references") || inside("skills"))
                    && disk::is_agent_folder(dir)
            })?,
            _ => return Some(uri.clone()),
        };
        convert::uri_of(&folder.join("protocol.yaml"))
    }

    /// `false` when the check stopped because an edit is waiting.
    fn check(&mut self, uri: &lsp::Uri) -> bool {
        // The previous check goes before the next is built. What survives
        // is its names, when they were resolved (for completion while the
        // file cannot be read), and its compile, which the edited text is
        // compiled from (`agentc::compile_again`): an edit inside one type,
        // tool, trigger or handler reads and lowers only that one again,
        // in the previous model's memory.
        let (previous, compiled) = match self.analyses.remove(uri) {
            Some(analysis) => (analysis.resolved(), analysis.compilation.into_previous()),
            None => match self.kept.remove(uri) {
                Some(kept) => (kept.names, kept.compiled.map(|previous| *previous)),
                None => (None, None),
            },
        };
        let inbox = self.inbox;
        let protocol = uri.clone();
        let waiting = move || inbox.edit_waiting(&|message| concerns(&protocol, message));
        let cancel = Cancel::when(&waiting);
        #[cfg(test)]
        if let Some(document) = self.documents.get(uri) {
            assert!(
                !document.text().contains(tests::PANIC),
                "a test asked for a panic"
            );
        }
        let path = convert::path_of(uri);
        let open = self.documents.contains_key(uri);
        // As `agentc check` would report it: under the nearest
        // `agentc.toml` (the defaults when there is none, or it is broken;
        // the command line says what is wrong with it), parsed once for
        // its content, not on every keystroke.
        let compilations = match (&path, self.documents.get(uri)) {
            // Neither open nor on disk any more: nothing to report on.
            (Some(path), _) if !open && !disk::exists(path) => {
                self.forget(uri);
                return true;
            }
            (Some(path), _) => {
                let config = self.configs.of(path);
                let files = agent::Layered {
                    buffers: &Overlay(&self.documents),
                    under: &disk::Disk,
                };
                let checked =
                    Workspace::check_again(&files, path, Reach::Named, &config, compiled, &cancel);
                // What the baseline accepts is not shown, as `agentc check`
                // does not report it.
                checked.map(|mut checked| {
                    self.baselines.apply(&config, &files, &mut checked);
                    checked
                })
            }
            (None, Some(document)) => {
                let name = Path::new(uri.as_str());
                let config = Config::defaults(Path::new("."));
                let files = Untitled { name, document };
                Workspace::check_again(&files, name, Reach::Named, &config, compiled, &cancel)
            }
            (None, None) => return true,
        };
        let mut compilations = match compilations {
            Ok(compilations) => compilations,
            Err(cancelled) => {
                self.cancelled += 1;
                let kept = Kept {
                    names: previous,
                    compiled: cancelled.previous,
                };
                self.kept.insert(uri.clone(), kept);
                return false;
            }
        };
        self.checks += 1;
        // Publish each file with problems now, or with problems last time
        // (to clear them), and the protocol always; clear the files this
        // check no longer covers.
        let before = self.published.remove(uri).unwrap_or_default();
        let mut checked = BTreeSet::new();
        let mut published = BTreeSet::new();
        for compilation in &compilations {
            let Some(file) = self.uri_of_file(uri, &compilation.source) else {
                continue;
            };
            let has_problems = !compilation.diagnostics.is_empty();
            if has_problems || before.contains(&file) || &file == uri {
                self.publish(&file, compilation);
            }
            if has_problems {
                published.insert(file.clone());
            }
            checked.insert(file);
        }
        for gone in before.difference(&checked) {
            self.clear(gone);
        }
        self.published.insert(uri.clone(), published);
        if compilations.is_empty() {
            return true;
        }
        let mut compilation = compilations.swap_remove(0);
        let folder = path
            .filter(|p| p.file_name().is_some_and(|n| n == "protocol.yaml"))
            .and_then(|p| p.parent().map(Path::to_path_buf))
            .filter(|dir| disk::is_agent_folder(dir));
        // Without a model, completion offers the last names there were:
        // resolved before, or from the last compile that could be reused.
        let stale = match compilation.model {
            Some(_) => None,
            None => previous.or_else(|| compilation.earlier_resolution()),
        };
        let prompts = folder
            .as_deref()
            .map(disk::prompt_names)
            .unwrap_or_default();
        let analysis = Analysis {
            uri: self.spelled(uri),
            compilation,
            index: OnceLock::new(),
            folder,
            stale,
            prompts,
        };
        self.analyses.insert(uri.clone(), analysis);
        true
    }

    /// The URI of a file a check reported on: the protocol's own, or the
    /// path its name gives.
    fn uri_of_file(&self, protocol: &lsp::Uri, source: &crate::Source) -> Option<lsp::Uri> {
        let path = Path::new(source.name());
        match convert::path_of(protocol) {
            Some(own) if own == path => Some(protocol.clone()),
            Some(_) => convert::uri_of(path),
            None => Some(protocol.clone()),
        }
    }

    fn publish(&self, uri: &lsp::Uri, compilation: &FileReport) {
        let uri = &self.spelled(uri);
        let mut positions = convert::Positions::new(&compilation.source, self.encoding);
        let diagnostics = compilation
            .diagnostics
            .iter()
            .map(|d: &Diagnostic| convert::diagnostic(&mut positions, uri, d))
            .collect();
        let params = lsp::PublishDiagnosticsParams::new(uri.clone(), diagnostics, None);
        self.send(lsp::notification::PublishDiagnostics::METHOD, params);
    }

    fn clear(&self, uri: &lsp::Uri) {
        let params = lsp::PublishDiagnosticsParams::new(self.spelled(uri), Vec::new(), None);
        self.send(lsp::notification::PublishDiagnostics::METHOD, params);
    }

    /// A closed file's saved text counts again: its protocol is checked
    /// from disk while another file it is checked with is open, and
    /// forgotten once none is. Which protocol that is comes from the file's
    /// last check, not the disk now, which may have changed since.
    fn close(&mut self, uri: &lsp::Uri) {
        self.dirty.remove(uri);
        let Some(document) = self.documents.remove(uri) else {
            return;
        };
        if let Some(protocol) = document.protocol {
            let still_open = self
                .documents
                .values()
                .any(|open| open.protocol.as_ref() == Some(&protocol));
            if still_open {
                if !self.check(&protocol) {
                    // Stopped for an edit waiting: each open file of the
                    // protocol is checked again after it.
                    let open = self.documents.iter();
                    let with = open.filter(|(_, d)| d.protocol.as_ref() == Some(&protocol));
                    let again: Vec<lsp::Uri> = with.map(|(uri, _)| uri.clone()).collect();
                    self.dirty.extend(again);
                }
            } else {
                self.forget(&protocol);
            }
        }
        self.sweep();
        self.spellings.remove(uri);
    }

    /// Forgets every protocol no open file was last checked with, so that
    /// what the server holds stays what is open.
    fn sweep(&mut self) {
        let wanted: BTreeSet<&lsp::Uri> = self
            .documents
            .values()
            .filter_map(|d| d.protocol.as_ref())
            .collect();
        let stale: BTreeSet<lsp::Uri> = self
            .analyses
            .keys()
            .chain(self.published.keys())
            .chain(self.kept.keys())
            .filter(|uri| !wanted.contains(uri))
            .cloned()
            .collect();
        for uri in stale {
            self.forget(&uri);
        }
    }

    /// Drops a protocol's check and the diagnostics it published.
    fn forget(&mut self, uri: &lsp::Uri) {
        self.analyses.remove(uri);
        self.kept.remove(uri);
        let published = self.published.remove(uri).unwrap_or_default();
        for file in published.iter().chain(std::iter::once(uri)) {
            self.clear(file);
        }
    }
}

fn params<N: lsp::notification::Notification>(notification: Notification) -> Result<N::Params, ()> {
    notification.extract(N::METHOD).map_err(|_| ())
}

/// Decodes a request's parameters, runs `f`, encodes its answer; `None`
/// (the file is not open, nothing at the position) is `null`.
fn handle<R: lsp::request::Request>(
    request: Request,
    f: impl FnOnce(R::Params) -> R::Result,
) -> Result<Value, ResponseError> {
    handle_fallible::<R>(request, |p| Ok(f(p)))
}

fn handle_fallible<R: lsp::request::Request>(
    request: Request,
    f: impl FnOnce(R::Params) -> Result<R::Result, ResponseError>,
) -> Result<Value, ResponseError> {
    let (_, params) = request
        .extract::<R::Params>(R::METHOD)
        .map_err(|error| ResponseError {
            code: ErrorCode::InvalidParams as i32,
            message: match error {
                lsp_server::ExtractError::JsonError { error, .. } => {
                    format!("invalid parameters for `{}`: {error}", R::METHOD)
                }
                lsp_server::ExtractError::MethodMismatch(_) => {
                    format!("not a `{}` request", R::METHOD)
                }
            },
            data: None,
        })?;
    let result = f(params)?;
    Ok(serde_json::to_value(result).unwrap_or(Value::Null))
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_server::RequestId;
    use serde_json::json;

    /// A request method, or a document's text, that makes the server
    /// panic: what a bug would do.
    pub(super) const PANIC: &str = "$/agentc/panic";

    struct Client {
        connection: Connection,
        next: i32,
    }

    impl Client {
        /// The responses the server sent, by id, once it has ended.
        fn answers(&self) -> BTreeMap<String, Response> {
            let mut answers = BTreeMap::new();
            while let Ok(message) = self.connection.receiver.try_recv() {
                if let Message::Response(response) = message {
                    answers.insert(response.id.to_string(), response);
                }
            }
            answers
        }

        fn request(&mut self, method: &str, params: Value) -> Response {
            self.next += 1;
            let id = RequestId::from(self.next);
            let request = Request::new(id.clone(), method.to_string(), params);
            self.connection.sender.send(request.into()).unwrap();
            loop {
                match self.connection.receiver.recv().unwrap() {
                    Message::Response(response) if response.id == id => return response,
                    _ => {}
                }
            }
        }

        fn notify(&self, method: &str, params: Value) {
            let notification = Notification::new(method.to_string(), params);
            self.connection.sender.send(notification.into()).unwrap();
        }

        /// Queues `initialize` (request 1), `initialized` and the opening
        /// of `uri` with `text`, without waiting for an answer: for a
        /// server that reads them after they are all queued.
        fn queue_open(&self, uri: &str, text: &str) {
            let initialize = Request::new(
                RequestId::from(1),
                "initialize".into(),
                json!({"capabilities": {}}),
            );
            self.connection.sender.send(initialize.into()).unwrap();
            self.notify("initialized", json!({}));
            self.notify(
                "textDocument/didOpen",
                json!({"textDocument": {"uri": uri, "languageId": "yaml", "version": 1,
                    "text": text}}),
            );
        }

        /// The next notification of `method`.
        fn next(&self, method: &str) -> Value {
            loop {
                match self.connection.receiver.recv().unwrap() {
                    Message::Notification(n) if n.method == method => return n.params,
                    _ => {}
                }
            }
        }
    }

    /// Ten keystrokes queued behind each other cost one check, after the
    /// last, and its diagnostics are those of the final text; a request
    /// queued after them is answered about that text.
    #[test]
    fn a_burst_of_changes_is_checked_once() {
        let (server, connection) = Connection::memory();
        let client = Client {
            connection,
            next: 0,
        };
        let uri = "untitled:burst.yaml";
        // Everything is queued before the server reads its first message.
        let send = |message: Message| client.connection.sender.send(message).unwrap();
        client.queue_open(uri, "types:\n  A:\n    x: { type: string }\n");
        // `string` (columns 15 to 21) becomes `strinx`, one keystroke at
        // a time, with second thoughts: ten changes.
        let edits = [
            (20, 21, ""),
            (19, 20, ""),
            (19, 19, "n"),
            (20, 20, "x"),
            (20, 21, ""),
            (20, 20, "g"),
            (20, 21, ""),
            (20, 20, "x"),
            (20, 21, ""),
            (20, 20, "x"),
        ];
        for (version, (start, end, text)) in edits.iter().enumerate() {
            client.notify(
                "textDocument/didChange",
                json!({"textDocument": {"uri": uri, "version": version + 2},
                    "contentChanges": [{"range": {"start": {"line": 2, "character": start},
                        "end": {"line": 2, "character": end}}, "text": text}]}),
            );
        }
        send(Request::new(RequestId::from(2), "shutdown".into(), Value::Null).into());
        client.notify("exit", Value::Null);
        let ended = serve(&server, &Incoming::default()).unwrap();
        assert_eq!(ended.held.checks, 1, "one check, for the ten changes");
        assert_eq!(
            ended.held.cancelled, 1,
            "the check on open stops: ten changes wait behind it"
        );
        assert_eq!(ended.held.kept, 0);
        let mut published = Vec::new();
        while let Ok(message) = client.connection.receiver.try_recv() {
            if let Message::Notification(n) = message
                && n.method == "textDocument/publishDiagnostics"
            {
                published.push(n.params);
            }
        }
        assert_eq!(published.len(), 1, "{published:?}");
        let last = &published[0]["diagnostics"];
        assert_eq!(last[0]["code"], json!("unknown-type"), "{last}");
        assert!(
            last[0]["message"].as_str().unwrap().contains("strinx"),
            "{last}"
        );
    }

    /// The same over the real transport, whose channels hold no message:
    /// a burst the client sent in one write is one check, though the
    /// reader hands the server each change only as it asks for it.
    #[test]
    fn a_burst_sent_over_the_transport_is_checked_once() {
        use std::io::Write as _;
        #[derive(Clone, Default)]
        struct Written(Arc<Mutex<Vec<u8>>>);
        impl std::io::Write for Written {
            fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(bytes);
                Ok(bytes.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut input = Vec::new();
        let mut send = |message: Value| {
            let body = message.to_string();
            write!(input, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        };
        let uri = "untitled:burst.yaml";
        send(
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
        );
        send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
        send(
            json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument":
            {"uri": uri, "languageId": "yaml", "version": 1, "text": "types:\n  A:\n    x: { type: string }\n"}}}),
        );
        // `string` becomes `stringxxx...`, a hundred keystrokes.
        for n in 0..100 {
            send(
                json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": n + 2},
                "contentChanges": [{"range": {"start": {"line": 2, "character": 21 + n},
                    "end": {"line": 2, "character": 21 + n}}, "text": "x"}]}}),
            );
        }
        send(json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}));
        send(json!({"jsonrpc": "2.0", "method": "exit"}));
        let output = Written::default();
        let (connection, threads) = connect(std::io::Cursor::new(input), output.clone()).unwrap();
        let ended = serve(&connection, threads.incoming()).unwrap();
        drop(connection);
        threads.join().unwrap();
        // The check on open starts at once, and stops if it sees the first
        // change waiting; the hundred changes are one check.
        let started = ended.held.checks + ended.held.cancelled;
        assert!(started <= 2, "{started} checks started");
        let written = String::from_utf8(output.0.lock().unwrap().clone()).unwrap();
        let published = written.matches("textDocument/publishDiagnostics").count();
        assert!(published <= 2, "{written}");
        let last = written.rfind("textDocument/publishDiagnostics").unwrap();
        assert!(
            written[last..].contains(&format!("string{}", "x".repeat(100))),
            "{written}"
        );
    }

    /// A check stops once an edit waits behind it, since its text is
    /// stale: a request queued after the edit waits only for the check of
    /// the text it is about, and one queued before the edit, whose answer
    /// would be about text the editor no longer shows, is answered
    /// `ContentModified` at once.
    #[test]
    fn requests_never_wait_behind_the_check_of_a_stale_text() {
        let (server, connection) = Connection::memory();
        let client = Client {
            connection,
            next: 0,
        };
        let uri = "untitled:stale.yaml";
        let send = |message: Message| client.connection.sender.send(message).unwrap();
        let definition = |id: i32| {
            Request::new(
                RequestId::from(id),
                "textDocument/definition".into(),
                json!({"textDocument": {"uri": uri}, "position": {"line": 2, "character": 16}}),
            )
        };
        client.queue_open(
            uri,
            "types:\n  A:\n    x: { type: B }\n  B:\n    y: { type: string }\n",
        );
        // Sent before the edit: about the text where `B` is on line 3.
        send(definition(2).into());
        // Two lines above `B`, which moves to line 5.
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": 2},
                "contentChanges": [{"range": {"start": {"line": 3, "character": 0},
                    "end": {"line": 3, "character": 0}}, "text": "  C:\n    z: { type: string }\n"}]}),
        );
        send(definition(3).into());
        send(Request::new(RequestId::from(4), "shutdown".into(), Value::Null).into());
        client.notify("exit", Value::Null);
        let ended = serve(&server, &Incoming::default()).unwrap();
        let answers = client.answers();
        let Err(error) = &answers["2"].response_result else {
            panic!("the text changed after it: {:?}", answers["2"]);
        };
        assert_eq!(error.code, ErrorCode::ContentModified as i32, "{error:?}");
        let Ok(after) = &answers["3"].response_result else {
            panic!("an answer: {:?}", answers["3"]);
        };
        assert_eq!(after[0]["range"]["start"]["line"], json!(5), "{after}");
        assert_eq!(ended.held.checks, 1, "only the text after the edit");
        assert_eq!(
            ended.held.cancelled, 2,
            "on open and before the first request, an edit was waiting"
        );
        assert_eq!(ended.held.kept, 0);
    }

    /// An edit to another document does not make a protocol's check stale:
    /// a request about the protocol sent before it is answered, not refused
    /// as changed (typing in one file while the editor asks about another).
    #[test]
    fn an_edit_elsewhere_leaves_a_request_answered() {
        let (server, connection) = Connection::memory();
        let client = Client {
            connection,
            next: 0,
        };
        let (big, small) = ("untitled:big.yaml", "untitled:small.yaml");
        let send = |message: Message| client.connection.sender.send(message).unwrap();
        client.queue_open(
            big,
            "types:\n  A:\n    x: { type: B }\n  B:\n    y: { type: string }\n",
        );
        client.queue_open(small, "types:\n  S:\n    x: { type: string }\n");
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": big, "version": 2},
                "contentChanges": [{"range": {"start": {"line": 0, "character": 0},
                    "end": {"line": 0, "character": 0}}, "text": "# a comment\n"}]}),
        );
        send(
            Request::new(
                RequestId::from(2),
                "textDocument/definition".into(),
                json!({"textDocument": {"uri": big}, "position": {"line": 3, "character": 16}}),
            )
            .into(),
        );
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": small, "version": 2},
                "contentChanges": [{"range": {"start": {"line": 0, "character": 0},
                    "end": {"line": 0, "character": 0}}, "text": "#"}]}),
        );
        send(Request::new(RequestId::from(3), "shutdown".into(), Value::Null).into());
        client.notify("exit", Value::Null);
        serve(&server, &Incoming::default()).unwrap();
        let answers = client.answers();
        let Ok(found) = &answers["2"].response_result else {
            panic!("answered: {:?}", answers["2"]);
        };
        assert_eq!(found[0]["range"]["start"]["line"], json!(4), "{found}");
    }

    /// Looking for an edit reads ahead at most `MAX_AHEAD` messages and
    /// stops at the first edit; every message read ahead comes out in the
    /// order sent.
    #[test]
    fn the_inbox_reads_ahead_a_bounded_way_and_keeps_the_order() {
        let (sender, receiver) = crossbeam_channel::unbounded();
        let incoming = Incoming::default();
        let inbox = Inbox::new(&receiver, &incoming);
        let log = |i: usize| Message::from(Notification::new("$/log".into(), json!(i)));
        let edit =
            |i: usize| Message::from(Notification::new("textDocument/didChange".into(), json!(i)));
        for i in 0..MAX_AHEAD + 10 {
            sender.send(log(i)).unwrap();
        }
        sender.send(edit(MAX_AHEAD + 10)).unwrap();
        sender.send(log(MAX_AHEAD + 11)).unwrap();
        let any = |_: &Message| true;
        assert!(
            !inbox.edit_waiting(&any),
            "the edit is past what is read ahead"
        );
        assert_eq!(inbox.ahead().messages.len(), MAX_AHEAD);
        let params = |message: Option<Message>| match message {
            Some(Message::Notification(n)) => n.params,
            other => panic!("{other:?}"),
        };
        for i in 0..20 {
            assert_eq!(params(inbox.next()), json!(i));
        }
        assert!(inbox.edit_waiting(&any));
        assert_eq!(
            inbox.ahead().messages.len(),
            MAX_AHEAD - 20 + 11,
            "read up to the edit, not past it"
        );
        for i in 20..MAX_AHEAD + 12 {
            assert_eq!(params(inbox.next()), json!(i));
        }
        assert!(inbox.is_empty());
        assert!(!inbox.edit_waiting(&any));
    }

    /// A request that panics is answered with `InternalError`; a
    /// notification whose check panics is logged; the document it was
    /// about still gets answers, and once edited, its diagnostics.
    #[test]
    fn panics_in_requests_and_notifications_leave_the_server_answering() {
        let (server, connection) = Connection::memory();
        let thread = std::thread::spawn(move || serve(&server, &Incoming::default()).unwrap());
        let mut client = Client {
            connection,
            next: 0,
        };
        client.request("initialize", json!({"capabilities": {}}));
        client.notify("initialized", json!({}));
        let answer = client.request(PANIC, Value::Null);
        let error = answer.response_result.unwrap_err();
        assert_eq!(error.code, ErrorCode::InternalError as i32);
        let uri = "untitled:p.yaml";
        let text = format!("# {PANIC}\ntypes:\n  A:\n    x: {{ type: strin }}\n");
        client.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}),
        );
        let log = client.next("window/logMessage");
        assert!(
            log["message"].as_str().unwrap().contains("didOpen"),
            "{log}"
        );
        let position =
            json!({"textDocument": {"uri": uri}, "position": {"line": 3, "character": 18}});
        let hover = client.request("textDocument/hover", position.clone());
        assert_eq!(hover.response_result.unwrap(), Value::Null);
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": 2},
                   "contentChanges": [{"range": {"start": {"line": 0, "character": 0},
                                                 "end": {"line": 0, "character": 99}},
                                       "text": "# fine"}]}),
        );
        let published = client.next("textDocument/publishDiagnostics");
        assert_eq!(
            published["diagnostics"][0]["code"], "unknown-type",
            "{published}"
        );
        let hover = client.request("textDocument/hover", position);
        assert!(hover.response_result.unwrap()["contents"].is_object());
        client.request("shutdown", Value::Null);
        client.notify("exit", Value::Null);
        assert!(thread.join().unwrap().shutdown);
    }
}
