//! The protocol sections around the types: triggers, tools, skills, MCP
//! servers, workers, the agent config, handlers and their blocks, and the
//! worker format's `steps` and `output`.
//!
//! Lowering decides form only: which keys a place takes, the shape of each
//! value, and whether an enumerated value is one of its choices. Whether a
//! name refers to something declared is decided in `check::protocol`.
//!
//! A value that may be a variable reference (a `tool-call` input, a dynamic
//! config value such as `temperature: TEMPERATURE`) is one when it is a
//! plain, unquoted scalar in UPPERCASE_SNAKE_CASE; anything else is a
//! literal. Quoting an upper-case word makes it a literal.

use super::{Field, FieldContext, Lower, Name, TypeExpr, list};
use crate::diagnostic::{Code, Diagnostic, article, nearest};
use crate::source::Span;
use crate::yaml::{Entry, Node, NodeKind, Scalar, ScalarStyle, Value};

#[derive(Clone, Debug)]
pub struct Trigger {
    pub name: Name,
    pub description: Option<Name>,
    pub input: Vec<Field>,
}

/// How a tool, skill, server or worker appears in the UI.
#[derive(Clone, Debug, Default)]
pub struct Presentation {
    pub description: Option<Name>,
    pub display: Option<Name>,
    pub title: Option<Name>,
}

#[derive(Clone, Debug)]
pub struct Tool {
    pub name: Name,
    pub presentation: Presentation,
    pub parameters: Vec<Field>,
}

#[derive(Clone, Debug)]
pub struct Skill {
    pub name: Name,
    pub presentation: Presentation,
    pub execution: Option<Name>,
}

#[derive(Clone, Debug)]
pub struct McpServer {
    pub name: Name,
    pub presentation: Presentation,
    pub source: Option<Name>,
    pub connection: Option<Name>,
    pub execution: Option<Name>,
}

/// An entry of `onDemandMcpServers:`, keyed by source.
#[derive(Clone, Debug)]
pub struct OnDemandMcp {
    pub source: Name,
    pub presentation: Presentation,
    pub execution: Option<Name>,
}

/// A worker an interactive agent may call, under `workers:`.
#[derive(Clone, Debug)]
pub struct WorkerDecl {
    pub name: Name,
    pub presentation: Presentation,
    /// `worker tool → parent tool`.
    pub tools: Vec<(Name, Name)>,
}

/// A value that is either a variable reference or a literal.
#[derive(Clone, Debug)]
pub enum Setting {
    Variable(Name),
    Literal(Name),
}

impl Setting {
    pub fn span(&self) -> Span {
        match self {
            Setting::Variable(name) | Setting::Literal(name) => name.span,
        }
    }
}

/// One entry of an input mapping: the prompt (or worker) sees `label`, the
/// value comes from `source`. In `input: [A]` both are `A`.
#[derive(Clone, Debug)]
pub struct InputMapping {
    pub label: Name,
    pub source: Name,
}

/// The configuration of a thread: the `agent:` section (the main thread) or
/// a `start-thread` block.
#[derive(Clone, Debug, Default)]
pub struct ThreadConfig {
    pub model: Option<Setting>,
    pub backup_model: Option<Setting>,
    pub system: Option<Name>,
    pub input: Vec<InputMapping>,
    pub tools: Vec<Name>,
    pub skills: Vec<Name>,
    pub mcp_servers: Vec<Name>,
    pub on_demand_mcp_servers: Vec<Name>,
    pub workers: Vec<Name>,
    pub references: Vec<Name>,
    pub image_model: Option<Setting>,
    pub video_model: Option<Setting>,
    pub speech_model: Option<Setting>,
    pub speech_voice: Option<Setting>,
    pub transcription_model: Option<Setting>,
    pub temperature: Option<Setting>,
    pub thinking: Option<Setting>,
    pub speed: Option<Setting>,
    pub max_steps: Option<Setting>,
    pub anthropic: Option<Anthropic>,
    pub context_management: Option<ContextManagement>,
}

#[derive(Clone, Debug)]
pub struct Anthropic {
    /// The `anthropic` key.
    pub key: Span,
}

#[derive(Clone, Debug)]
pub struct ContextManagement {
    pub key: Span,
    pub summarizer_worker: Option<Name>,
    pub recent_percent: Option<Span>,
}

#[derive(Clone, Debug)]
pub struct Agent {
    /// The `agent` key.
    pub key: Span,
    pub config: ThreadConfig,
}

#[derive(Clone, Debug)]
pub struct Handler {
    pub trigger: Name,
    pub blocks: Vec<Block>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockKind {
    NextMessage,
    AddMessage,
    ToolCall,
    SetResource,
    StartThread,
    SerializeThread,
    GenerateImage,
    GenerateVideo,
    GenerateSpeech,
    TranscribeAudio,
    RunWorker,
}

impl BlockKind {
    pub const ALL: [BlockKind; 11] = [
        BlockKind::NextMessage,
        BlockKind::AddMessage,
        BlockKind::ToolCall,
        BlockKind::SetResource,
        BlockKind::StartThread,
        BlockKind::SerializeThread,
        BlockKind::GenerateImage,
        BlockKind::GenerateVideo,
        BlockKind::GenerateSpeech,
        BlockKind::TranscribeAudio,
        BlockKind::RunWorker,
    ];

    pub fn name(self) -> &'static str {
        match self {
            BlockKind::NextMessage => "next-message",
            BlockKind::AddMessage => "add-message",
            BlockKind::ToolCall => "tool-call",
            BlockKind::SetResource => "set-resource",
            BlockKind::StartThread => "start-thread",
            BlockKind::SerializeThread => "serialize-thread",
            BlockKind::GenerateImage => "generate-image",
            BlockKind::GenerateVideo => "generate-video",
            BlockKind::GenerateSpeech => "generate-speech",
            BlockKind::TranscribeAudio => "transcribe-audio",
            BlockKind::RunWorker => "run-worker",
        }
    }

    /// The keys a block of this kind takes besides `block`, `display`,
    /// `description` and `title`. `generate-video` is named by the docs but
    /// not specified; its keys are those of `generate-image` with
    /// `videoModel`, and unknown keys are not reported on it.
    pub fn keys(self) -> &'static [&'static str] {
        match self {
            BlockKind::NextMessage => &["thread", "output", "independent", "responseType"],
            BlockKind::AddMessage => &[
                "thread",
                "role",
                "prompt",
                "input",
                "files",
                "uiContent",
                "visible",
            ],
            BlockKind::ToolCall => &["tool", "input", "output", "thread"],
            BlockKind::SetResource => &["resource", "value"],
            BlockKind::StartThread => THREAD_KEYS,
            BlockKind::SerializeThread => &["thread", "format", "output"],
            BlockKind::GenerateImage => &[
                "prompt",
                "imageModel",
                "aspectRatio",
                "resolution",
                "size",
                "referenceImages",
                "output",
                "thread",
            ],
            BlockKind::GenerateVideo => &[
                "prompt",
                "videoModel",
                "aspectRatio",
                "durationSeconds",
                "referenceImages",
                "output",
                "thread",
            ],
            BlockKind::GenerateSpeech => &[
                "text",
                "speechModel",
                "voice",
                "format",
                "instructions",
                "language",
                "speed",
                "output",
                "thread",
            ],
            BlockKind::TranscribeAudio => &[
                "audio",
                "transcriptionModel",
                "language",
                "timestamps",
                "output",
                "thread",
            ],
            BlockKind::RunWorker => &["worker", "input", "output", "thread"],
        }
    }

    /// Keys without which the block cannot run.
    pub fn required(self) -> &'static [&'static str] {
        match self {
            BlockKind::AddMessage => &["role", "prompt"],
            BlockKind::ToolCall => &["tool"],
            BlockKind::SetResource => &["resource", "value"],
            BlockKind::StartThread => &["system"],
            BlockKind::GenerateImage => &["prompt", "imageModel"],
            BlockKind::GenerateSpeech => &["text", "speechModel"],
            BlockKind::TranscribeAudio => &["audio", "transcriptionModel"],
            BlockKind::RunWorker => &["worker"],
            BlockKind::NextMessage | BlockKind::SerializeThread | BlockKind::GenerateVideo => &[],
        }
    }

    /// Whether the value of `key` may name variables: ones the block reads
    /// or writes (`output`, `uiContent`, a `generate-image` `prompt`, ...),
    /// or a setting given by a variable (`model: MODEL`). `input`, which
    /// maps labels to variables, is apart.
    pub fn names_variables(self, key: &str) -> bool {
        use BlockKind::*;
        matches!(
            (self, key),
            (_, "output")
                | (
                    StartThread,
                    "model"
                        | "backupModel"
                        | "imageModel"
                        | "maxSteps"
                        | "temperature"
                        | "thinking"
                        | "speed"
                )
                | (GenerateImage, "imageModel")
                | (GenerateVideo, "videoModel")
                | (GenerateSpeech, "speechModel")
                | (TranscribeAudio, "transcriptionModel")
                | (AddMessage, "files" | "uiContent")
                | (SetResource, "resource" | "value")
                | (GenerateImage | GenerateVideo, "prompt" | "referenceImages")
                | (GenerateSpeech, "text")
                | (TranscribeAudio, "audio")
        )
    }

    pub fn from_name(name: &str) -> Option<BlockKind> {
        BlockKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// A variable a block reads, and in which role, as diagnostics name it
/// ("`uiContent`", "`value`", ...).
#[derive(Clone, Debug)]
pub struct Read {
    pub name: Name,
    pub role: &'static str,
}

/// A `tool-call` input: the parameter and its value.
#[derive(Clone, Debug)]
pub struct Argument {
    pub parameter: Name,
    pub value: Setting,
}

#[derive(Clone, Debug)]
pub struct Block {
    pub name: Name,
    /// The kind, when `block:` names one.
    pub kind: Option<BlockKind>,
    /// The value of `block:`, or the block's name when there is none.
    pub kind_span: Span,
    pub presentation: Presentation,
    /// `thread:`; for `start-thread`, the thread it creates (the block
    /// name when `thread:` is absent).
    pub thread: Option<Name>,
    pub output: Option<Name>,
    pub input: Vec<InputMapping>,
    /// Variables read by name (`uiContent`, `files`, `value`, `prompt` of
    /// `generate-image`, ...), besides `input`.
    pub reads: Vec<Read>,
    pub response_type: Option<TypeExpr>,
    /// `prompt:` of `add-message`.
    pub prompt: Option<Name>,
    /// `tool:` and the inputs of `tool-call`.
    pub tool: Option<Name>,
    pub arguments: Vec<Argument>,
    /// `resource:` of `set-resource`.
    pub resource: Option<Name>,
    /// `worker:` of `run-worker`.
    pub worker: Option<Name>,
    /// The configuration of a `start-thread`.
    pub config: Option<Box<ThreadConfig>>,
    /// The models a block names (`imageModel`, `speechModel`, ...).
    pub models: Vec<Setting>,
}

/// The keys of the `agent:` section.
pub const AGENT_KEYS: &[&str] = &[
    "model",
    "backupModel",
    "system",
    "input",
    "tools",
    "mcpServers",
    "onDemandMcpServers",
    "skills",
    "references",
    "workers",
    "sandboxTimeout",
    "imageModel",
    "videoModel",
    "speechModel",
    "speechVoice",
    "transcriptionModel",
    "webSearch",
    "todoList",
    "agentic",
    "maxSteps",
    "temperature",
    "thinking",
    "speed",
    "cache",
    "maxToolOutputTokens",
    "maxImageDimension",
    "maxOutputTokens",
    "loopGuard",
    "contextManagement",
    "anthropic",
];

/// The keys of a `start-thread` block besides the common block keys.
pub const THREAD_KEYS: &[&str] = &[
    "thread",
    "model",
    "backupModel",
    "system",
    "input",
    "tools",
    "mcpServers",
    "onDemandMcpServers",
    "skills",
    "references",
    "sandboxTimeout",
    "imageModel",
    "webSearch",
    "todoList",
    "maxSteps",
    "temperature",
    "thinking",
    "speed",
    "cache",
    "maxToolOutputTokens",
    "maxImageDimension",
    "maxOutputTokens",
    "loopGuard",
];

/// The keys of a `triggers:` entry.
pub const TRIGGER_KEYS: &[&str] = &["description", "input"];
/// The keys of a `tools:` entry.
pub const TOOL_KEYS: &[&str] = &["description", "display", "title", "parameters"];
/// The keys of a `skills:` or `onDemandSkills:` entry.
pub const SKILL_KEYS: &[&str] = &["display", "title", "description", "execution"];
/// The keys of an `mcpServers:` entry.
pub const MCP_SERVER_KEYS: &[&str] = &[
    "description",
    "source",
    "display",
    "title",
    "connection",
    "execution",
];
/// The keys of an `onDemandMcpServers:` entry.
pub const ON_DEMAND_MCP_KEYS: &[&str] = &[
    "description",
    "display",
    "title",
    "execution",
    "contextRetention",
];
/// The keys of a `workers:` entry.
pub const WORKER_KEYS: &[&str] = &["description", "display", "title", "tools"];
/// The keys of `contextManagement`.
pub const CONTEXT_MANAGEMENT_KEYS: &[&str] = &[
    "summarizerWorker",
    "thresholdPercent",
    "recentPercent",
    "recentWindow",
];
/// The keys every block takes, whatever its kind.
pub const BLOCK_COMMON: &[&str] = &["block", "display", "description", "title"];
pub(crate) const DISPLAY: &[&str] = &["hidden", "name", "description", "stream", "title"];
pub(crate) const THINKING: &[&str] = &["low", "medium", "high", "max", "off"];
pub(crate) const SPEED: &[&str] = &["fast", "standard"];
pub(crate) const CACHE: &[&str] = &["auto", "extended", "off"];
pub(crate) const EXECUTION: &[&str] = &["sandbox", "device"];
pub(crate) const MCP_SOURCES: &[&str] = &["remote", "device", "consumer"];
pub(crate) const CONNECTION: &[&str] = &["eager", "lazy"];
pub(crate) const ROLES: &[&str] = &["user", "assistant", "system"];
pub(crate) const SERIALIZE_FORMATS: &[&str] = &["markdown", "json"];
pub(crate) const SPEECH_FORMATS: &[&str] = &["mp3", "opus", "aac", "flac", "wav"];
pub(crate) const RESOLUTIONS: &[&str] = &["1K", "2K", "4K"];
pub(crate) const ANTHROPIC_TOOLS: &[&str] = &["web-search", "code-execution"];
pub(crate) const ANTHROPIC_SKILL_TYPES: &[&str] = &["anthropic", "custom"];
/// Longest skill sandbox a thread may ask for: one hour, in milliseconds.
pub(crate) const MAX_SANDBOX_TIMEOUT: i64 = 3_600_000;

/// `[A-Z][A-Z0-9_]*`: how variables are named, and so how a reference is
/// told apart from a literal.
pub fn is_variable_name(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_uppercase())
        && text
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// A plain scalar written as a variable name is a reference.
fn is_reference(scalar: &Scalar) -> bool {
    scalar.style == ScalarStyle::Plain && is_variable_name(&scalar.text)
}

impl Lower<'_> {
    pub(super) fn triggers(&mut self, node: &Node) -> Vec<Trigger> {
        let mut triggers = Vec::new();
        for entry in self.mapping(node, "`triggers`").iter() {
            let name = Name::of(&entry.key);
            let place = format!("trigger `{}`", name.text);
            let mut trigger = Trigger {
                name,
                description: None,
                input: Vec::new(),
            };
            let body = self.mapping(&entry.value, &place);
            self.check_keys(body, TRIGGER_KEYS, &place);
            for field in body.iter() {
                match field.key.text.as_ref() {
                    "description" => trigger.description = self.description(&field.value),
                    "input" => {
                        trigger.input =
                            self.fields(&field.value, "input", FieldContext::TriggerInput)
                    }
                    _ => {}
                }
            }
            triggers.push(trigger);
        }
        triggers
    }

    pub(super) fn tools(&mut self, node: &Node) -> Vec<Tool> {
        let mut tools = Vec::new();
        for entry in self.mapping(node, "`tools`").iter() {
            let name = Name::of(&entry.key);
            let place = format!("tool `{}`", name.text);
            let body = self.mapping(&entry.value, &place);
            self.check_keys(body, TOOL_KEYS, &place);
            let presentation = self.presentation(body);
            if presentation.description.is_none() {
                self.missing(&name, &place, "description", "write `description:` saying what the tool does; the model reads it to decide when to call the tool");
            }
            let parameters = body
                .iter()
                .find(|e| e.key.text == "parameters")
                .map(|e| self.parameters(&e.value, &name))
                .unwrap_or_default();
            tools.push(Tool {
                name,
                presentation,
                parameters,
            });
        }
        tools
    }

    pub(super) fn skills(&mut self, node: &Node) -> Vec<Skill> {
        let mut skills = Vec::new();
        for entry in self.mapping(node, "`skills`").iter() {
            let name = Name::of(&entry.key);
            let place = format!("skill `{}`", name.text);
            let body = self.mapping(&entry.value, &place);
            self.check_keys(body, SKILL_KEYS, &place);
            let presentation = self.presentation(body);
            let execution = self.choice_of(body, "execution", EXECUTION);
            skills.push(Skill {
                name,
                presentation,
                execution,
            });
        }
        skills
    }

    /// `onDemandSkills:` is one declaration, not a mapping of skills.
    pub(super) fn on_demand_skills(&mut self, node: &Node) {
        let body = self.mapping(node, "`onDemandSkills`");
        self.check_keys(body, SKILL_KEYS, "`onDemandSkills`");
        self.presentation(body);
        self.choice_of(body, "execution", EXECUTION);
    }

    pub(super) fn mcp_servers(&mut self, node: &Node) -> Vec<McpServer> {
        let mut servers = Vec::new();
        for entry in self.mapping(node, "`mcpServers`").iter() {
            let name = Name::of(&entry.key);
            let place = format!("MCP server `{}`", name.text);
            let body = self.mapping(&entry.value, &place);
            self.check_keys(body, MCP_SERVER_KEYS, &place);
            let presentation = self.presentation(body);
            let source = self.choice_of(body, "source", MCP_SOURCES);
            if !body.iter().any(|e| e.key.text == "source") {
                self.missing(&name, &place, "source", "write `source: remote` (platform-managed), `device` (the agent's computer) or `consumer` (your server-sdk process)");
            }
            if presentation.description.is_none() {
                self.missing(
                    &name,
                    &place,
                    "description",
                    "write `description:` saying what the server provides",
                );
            }
            let connection = self.choice_of(body, "connection", CONNECTION);
            let execution = self.choice_of(body, "execution", EXECUTION);
            servers.push(McpServer {
                name,
                presentation,
                source,
                connection,
                execution,
            });
        }
        servers
    }

    pub(super) fn on_demand_mcp_servers(&mut self, node: &Node) -> Vec<OnDemandMcp> {
        let mut sources = Vec::new();
        for entry in self.mapping(node, "`onDemandMcpServers`").iter() {
            let source = Name::of(&entry.key);
            // Only the three sources are kept, so lookups stay trivial.
            let valid = MCP_SOURCES.contains(&source.text.as_str());
            if !valid {
                self.invalid_choice(&source, "an `onDemandMcpServers` source", MCP_SOURCES);
            }
            let place = format!("on-demand MCP source `{}`", source.text);
            let body = self.mapping(&entry.value, &place);
            self.check_keys(body, ON_DEMAND_MCP_KEYS, &place);
            let presentation = self.presentation(body);
            let execution = self.choice_of(body, "execution", EXECUTION);
            if let Some(retention) = body.iter().find(|e| e.key.text == "contextRetention") {
                self.context_retention(&retention.value);
            }
            if !valid {
                continue;
            }
            sources.push(OnDemandMcp {
                source,
                presentation,
                execution,
            });
        }
        sources
    }

    /// `contextRetention: { toolResults: { retainLast: N } }`.
    fn context_retention(&mut self, node: &Node) {
        let body = self.mapping(node, "`contextRetention`");
        self.check_keys(body, &["toolResults"], "`contextRetention`");
        for entry in body.iter() {
            let inner = self.mapping(&entry.value, "`toolResults`");
            self.check_keys(inner, &["retainLast"], "`toolResults`");
            for field in inner.iter() {
                self.integer(&field.value, "`retainLast`", 0, i64::MAX);
            }
        }
    }

    pub(super) fn workers(&mut self, node: &Node) -> Vec<WorkerDecl> {
        let mut workers = Vec::new();
        for entry in self.mapping(node, "`workers`").iter() {
            let name = Name::of(&entry.key);
            let place = format!("worker `{}`", name.text);
            let body = self.mapping(&entry.value, &place);
            self.check_keys(body, WORKER_KEYS, &place);
            let presentation = self.presentation(body);
            let mut tools = Vec::new();
            if let Some(mapping) = body.iter().find(|e| e.key.text == "tools") {
                for tool in self.mapping(&mapping.value, "worker `tools`").iter() {
                    if let Some(parent) = self.text(&tool.value, "a worker tool mapping") {
                        tools.push((Name::of(&tool.key), parent));
                    }
                }
            }
            workers.push(WorkerDecl {
                name,
                presentation,
                tools,
            });
        }
        workers
    }

    pub(super) fn agent(&mut self, entry: &Entry) -> Agent {
        let body = self.mapping(&entry.value, "`agent`");
        self.check_keys(body, AGENT_KEYS, "`agent`");
        let mut config = ThreadConfig::default();
        for field in body.iter() {
            self.config_key(field, &mut config);
        }
        let key = entry.key.span;
        for required in ["model", "system"] {
            if !body.iter().any(|e| e.key.text == required) {
                self.push(
                    Diagnostic::new(
                        Code::MissingField,
                        key,
                        format!("`agent` has no `{required}`"),
                    )
                    .with_help(match required {
                        "model" => "write `model: anthropic/claude-sonnet-4-5` (a `provider/model-id`, or a variable)",
                        _ => "write `system: system` to use `prompts/system.md` as the system prompt",
                    }),
                );
            }
        }
        Agent { key, config }
    }

    /// One key of a thread configuration (`agent:` or `start-thread`).
    /// Keys that are not configuration are left to the caller.
    fn config_key(&mut self, entry: &Entry, config: &mut ThreadConfig) {
        let value = &entry.value;
        let key = entry.key.text.as_ref();
        match key {
            "model" => config.model = self.model(value, "`model`"),
            "backupModel" => config.backup_model = self.model(value, "`backupModel`"),
            "imageModel" => config.image_model = self.model(value, "`imageModel`"),
            "videoModel" => config.video_model = self.model(value, "`videoModel`"),
            "speechModel" => config.speech_model = self.model(value, "`speechModel`"),
            "transcriptionModel" => {
                config.transcription_model = self.model(value, "`transcriptionModel`")
            }
            "speechVoice" => {
                config.speech_voice = self.dynamic(value, |lower, node| {
                    lower.text(node, "`speechVoice`");
                })
            }
            "system" => config.system = self.text(value, "`system`"),
            "input" => config.input = self.input_mapping(value),
            "tools" => config.tools = self.names(value, "`tools`"),
            "skills" => config.skills = self.names(value, "`skills`"),
            "mcpServers" => config.mcp_servers = self.names(value, "`mcpServers`"),
            "onDemandMcpServers" => {
                config.on_demand_mcp_servers = self.names(value, "`onDemandMcpServers`")
            }
            "workers" => config.workers = self.names(value, "`workers`"),
            "references" => config.references = self.names(value, "`references`"),
            "sandboxTimeout" => {
                self.integer(
                    value,
                    "`sandboxTimeout` (milliseconds, at most one hour)",
                    1,
                    MAX_SANDBOX_TIMEOUT,
                );
            }
            "maxToolOutputTokens" | "maxImageDimension" | "maxOutputTokens" => {
                self.integer(value, &format!("`{key}`"), 1, i64::MAX);
            }
            "webSearch" | "todoList" | "agentic" | "loopGuard" => {
                self.boolean(value, &format!("`{key}`"));
            }
            "maxSteps" => {
                config.max_steps = self.dynamic(value, |lower, node| {
                    lower.integer(node, "`maxSteps`", 1, i64::MAX);
                })
            }
            "temperature" => {
                config.temperature = self.dynamic(value, |lower, node| lower.temperature(node))
            }
            "thinking" => {
                config.thinking = self.dynamic(value, |lower, node| {
                    lower.choice(node, "`thinking`", THINKING);
                })
            }
            "speed" => {
                config.speed = self.dynamic(value, |lower, node| {
                    lower.choice(node, "`speed`", SPEED);
                })
            }
            "cache" => {
                self.choice(value, "`cache`", CACHE);
            }
            "anthropic" => {
                self.anthropic(value);
                config.anthropic = Some(Anthropic {
                    key: entry.key.span,
                });
            }
            "contextManagement" => {
                config.context_management = Some(self.context_management(entry));
            }
            _ => {}
        }
    }

    /// A value that may name a variable; otherwise `literal` checks it.
    fn dynamic(&mut self, node: &Node, literal: impl FnOnce(&mut Self, &Node)) -> Option<Setting> {
        let scalar = match &node.kind {
            NodeKind::Scalar(s) if !s.is_null() => s,
            _ => {
                literal(self, node);
                return None;
            }
        };
        let name = Name {
            text: scalar.text.to_string(),
            span: node.span,
        };
        if is_reference(scalar) {
            return Some(Setting::Variable(name));
        }
        literal(self, node);
        Some(Setting::Literal(name))
    }

    /// A model: `provider/model-id`, or a variable reference.
    fn model(&mut self, node: &Node, what: &str) -> Option<Setting> {
        self.dynamic(node, |lower, node| {
            let Some(name) = lower.text(node, what) else {
                return;
            };
            let well_formed = name
                .text
                .split_once('/')
                .is_some_and(|(provider, id)| !provider.is_empty() && !id.is_empty());
            if !well_formed {
                lower.push(
                    Diagnostic::new(
                        Code::InvalidValue,
                        name.span,
                        format!("{what} `{}` is not a `provider/model-id`", name.text),
                    )
                    .with_help("write the provider and the model, as in `anthropic/claude-sonnet-4-5`, `openai/gpt-4o` or `google/gemini-2.5-flash`; or an UPPERCASE variable declared under `input:`"),
                );
            }
        })
    }

    /// `temperature`: a number from 0 to 2, or `off`.
    fn temperature(&mut self, node: &Node) {
        let ok = match node.as_scalar().map(Scalar::value) {
            Some(Value::Int(i)) => (0..=2).contains(&i),
            Some(Value::Float(f)) => (0.0..=2.0).contains(&f),
            Some(Value::Str(s)) => s == "off",
            _ => false,
        };
        if !ok {
            self.push(
                Diagnostic::new(
                    Code::InvalidValue,
                    node.span,
                    format!(
                        "`temperature` must be a number from 0 to 2 or `off`, found {}",
                        node.describe()
                    ),
                )
                .with_help("write `temperature: 0.7`, `temperature: off`, or an UPPERCASE variable declared under `input:`"),
            );
        }
    }

    fn anthropic(&mut self, node: &Node) {
        let body = self.mapping(node, "`anthropic`");
        self.check_keys(body, &["tools", "skills"], "`anthropic`");
        for entry in body.iter() {
            match entry.key.text.as_ref() {
                "tools" => {
                    for tool in self.mapping(&entry.value, "`anthropic.tools`").iter() {
                        let name = Name::of(&tool.key);
                        if !ANTHROPIC_TOOLS.contains(&name.text.as_str()) {
                            self.invalid_choice(
                                &name,
                                "an Anthropic provider tool",
                                ANTHROPIC_TOOLS,
                            );
                        }
                        let place = format!("Anthropic tool `{}`", name.text);
                        let body = self.mapping(&tool.value, &place);
                        self.check_keys(body, &["display", "title", "description"], &place);
                        self.presentation(body);
                    }
                }
                "skills" => {
                    for skill in self.mapping(&entry.value, "`anthropic.skills`").iter() {
                        let name = Name::of(&skill.key);
                        let place = format!("Anthropic skill `{}`", name.text);
                        let body = self.mapping(&skill.value, &place);
                        self.check_keys(
                            body,
                            &["type", "version", "display", "title", "description"],
                            &place,
                        );
                        self.presentation(body);
                        if let Some(version) = body.iter().find(|e| e.key.text == "version") {
                            self.text(&version.value, "`version`");
                        }
                        if self
                            .choice_of(body, "type", ANTHROPIC_SKILL_TYPES)
                            .is_none()
                            && !body.iter().any(|e| e.key.text == "type")
                        {
                            self.missing(&name, &place, "type", "write `type: anthropic` for a built-in skill (`pdf`, `xlsx`, `docx`, `pptx`) or `type: custom` for one you uploaded");
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn context_management(&mut self, entry: &Entry) -> ContextManagement {
        let body = self.mapping(&entry.value, "`contextManagement`");
        self.check_keys(body, CONTEXT_MANAGEMENT_KEYS, "`contextManagement`");
        let mut management = ContextManagement {
            key: entry.key.span,
            summarizer_worker: None,
            recent_percent: None,
        };
        for field in body.iter() {
            match field.key.text.as_ref() {
                "summarizerWorker" => {
                    management.summarizer_worker = self.text(&field.value, "`summarizerWorker`")
                }
                "thresholdPercent" => self.fraction(&field.value, "`thresholdPercent`"),
                "recentPercent" => {
                    self.fraction(&field.value, "`recentPercent`");
                    management.recent_percent = Some(field.key.span);
                }
                "recentWindow" => {
                    self.push(
                        Diagnostic::new(Code::Deprecated, field.key.span, "`recentWindow` is deprecated and ignored")
                            .with_help("write `recentPercent:`, the fraction of the context window kept verbatim, as in `recentPercent: 0.3`"),
                    );
                }
                _ => {}
            }
        }
        management
    }

    /// A fraction of the context window: a number above 0 and at most 1.
    fn fraction(&mut self, node: &Node, what: &str) {
        let ok = match node.as_scalar().map(Scalar::value) {
            Some(Value::Int(i)) => i == 1,
            Some(Value::Float(f)) => f > 0.0 && f <= 1.0,
            _ => false,
        };
        if !ok {
            self.push(
                Diagnostic::new(
                    Code::InvalidValue,
                    node.span,
                    format!(
                        "{what} must be a fraction above 0 and at most 1, found {}",
                        node.describe()
                    ),
                )
                .with_help(format!(
                    "write {what} as a fraction of the context window, as in `0.8`"
                )),
            );
        }
    }

    pub(super) fn handlers(&mut self, node: &Node) -> Vec<Handler> {
        self.mapping(node, "`handlers`")
            .iter()
            .map(|entry| Handler {
                trigger: Name::of(&entry.key),
                blocks: self.blocks(&entry.value, &format!("handler `{}`", entry.key.text)),
            })
            .collect()
    }

    pub(super) fn blocks(&mut self, node: &Node, place: &str) -> Vec<Block> {
        self.mapping(node, place)
            .iter()
            .map(|entry| self.block(entry))
            .collect()
    }

    fn block(&mut self, entry: &Entry) -> Block {
        let name = Name::of(&entry.key);
        let what = format!("block `{}`", name.text);
        let body = self.mapping(&entry.value, &what);
        let mut block = Block {
            kind_span: name.span,
            name,
            kind: None,
            presentation: self.presentation(body),
            thread: None,
            output: None,
            input: Vec::new(),
            reads: Vec::new(),
            response_type: None,
            prompt: None,
            tool: None,
            arguments: Vec::new(),
            resource: None,
            worker: None,
            config: None,
            models: Vec::new(),
        };
        let Some(kind_entry) = body.iter().find(|e| e.key.text == "block") else {
            self.push(
                Diagnostic::new(Code::MissingField, block.name.span, format!("{what} has no `block` kind"))
                    .with_help("add `block: next-message` (or `add-message`, `tool-call`, `start-thread`, ...)"),
            );
            return block;
        };
        let Some(kind_name) = self.text(&kind_entry.value, "`block`") else {
            if kind_entry.value.is_null() {
                self.push(
                    Diagnostic::new(Code::InvalidValue, kind_entry.key.span, format!("{what} has an empty `block` kind"))
                        .with_help("write `block: next-message` (or `add-message`, `tool-call`, `start-thread`, ...)"),
                );
            }
            return block;
        };
        let Some(kind) = BlockKind::from_name(&kind_name.text) else {
            let names: Vec<&str> = BlockKind::ALL.iter().map(|k| k.name()).collect();
            self.invalid_choice(&kind_name, "a block kind", &names);
            return block;
        };
        block.kind = Some(kind);
        block.kind_span = kind_name.span;
        if kind == BlockKind::SetResource {
            self.push(
                Diagnostic::new(
                    Code::Deprecated,
                    kind_name.span,
                    "the `set-resource` block is deprecated",
                )
                .with_help("persist state with a `tool-call` to a tool your application implements")
                .with_note("resources are superseded by tools; the block still runs for now"),
            );
        }
        if kind != BlockKind::GenerateVideo {
            let mut allowed = BLOCK_COMMON.to_vec();
            allowed.extend_from_slice(kind.keys());
            self.check_keys(
                body,
                &allowed,
                &format!("{} `{}` block", article(kind.name()), kind.name()),
            );
        }
        for required in kind.required() {
            if !body.iter().any(|e| e.key.text == *required) {
                self.push(
                    Diagnostic::new(
                        Code::MissingField,
                        block.name.span,
                        format!("{what} (`{}`) has no `{required}`", kind.name()),
                    )
                    .with_label(
                        kind_name.span,
                        format!(
                            "{} `{}` block needs `{required}`",
                            article(kind.name()),
                            kind.name()
                        ),
                    ),
                );
            }
        }
        let mut config = ThreadConfig::default();
        for field in body.iter() {
            self.block_key(kind, field, &mut block, &mut config);
        }
        if kind == BlockKind::StartThread {
            if block.thread.is_none() {
                block.thread = Some(block.name.clone());
            }
            block.input = std::mem::take(&mut config.input);
            block.config = Some(Box::new(config));
        }
        block
    }

    fn block_key(
        &mut self,
        kind: BlockKind,
        entry: &Entry,
        block: &mut Block,
        config: &mut ThreadConfig,
    ) {
        let value = &entry.value;
        let key = entry.key.text.as_ref();
        match (kind, key) {
            (_, "block" | "display" | "description" | "title") => {}
            (_, "thread") => block.thread = self.text(value, "`thread`"),
            (_, "output") => block.output = self.text(value, "`output`"),
            (BlockKind::StartThread, _) if THREAD_KEYS.contains(&key) => {
                self.config_key(entry, config)
            }
            (BlockKind::NextMessage, "responseType") => {
                block.response_type = self.type_expr(value, "`responseType`")
            }
            (BlockKind::NextMessage, "independent")
            | (BlockKind::AddMessage, "visible")
            | (BlockKind::TranscribeAudio, "timestamps") => {
                self.boolean(value, &format!("`{key}`"));
            }
            (BlockKind::AddMessage, "role") => {
                self.choice(value, "`role`", ROLES);
            }
            (BlockKind::AddMessage, "prompt") => block.prompt = self.text(value, "`prompt`"),
            (BlockKind::AddMessage | BlockKind::RunWorker, "input") => {
                block.input = self.input_mapping(value)
            }
            (BlockKind::AddMessage, "files") => self.read_names(value, "`files`", block),
            (BlockKind::AddMessage, "uiContent") => self.read_one(value, "`uiContent`", block),
            (BlockKind::ToolCall, "tool") => block.tool = self.text(value, "`tool`"),
            (BlockKind::ToolCall, "input") => block.arguments = self.arguments(value),
            (BlockKind::SetResource, "resource") => block.resource = self.text(value, "`resource`"),
            (BlockKind::SetResource, "value") => self.read_one(value, "`value`", block),
            (BlockKind::SerializeThread, "format") => {
                self.choice(value, "`format`", SERIALIZE_FORMATS);
            }
            (BlockKind::GenerateImage | BlockKind::GenerateVideo, "prompt") => {
                self.read_one(value, "`prompt`", block)
            }
            (BlockKind::GenerateImage | BlockKind::GenerateVideo, "referenceImages") => {
                self.read_names(value, "`referenceImages`", block)
            }
            (BlockKind::GenerateImage, "resolution") => {
                self.choice(value, "`resolution`", RESOLUTIONS);
            }
            (BlockKind::GenerateImage | BlockKind::GenerateVideo, "aspectRatio") => {
                self.aspect_ratio(value)
            }
            (BlockKind::GenerateImage, "size") => {
                let ratio = self
                    .text(value, "`size`")
                    .and_then(|size| match size.text.as_str() {
                        "1024x1024" => Some("1:1"),
                        "1792x1024" => Some("16:9"),
                        "1024x1792" => Some("9:16"),
                        _ => None,
                    });
                let help = match ratio {
                    Some(ratio) => format!("write `aspectRatio: \"{ratio}\"` instead"),
                    None => {
                        "write `aspectRatio:` instead, as in `aspectRatio: \"16:9\"`".to_string()
                    }
                };
                self.push(
                    Diagnostic::new(
                        Code::Deprecated,
                        entry.key.span,
                        "`size` on `generate-image` is deprecated",
                    )
                    .with_help(help),
                );
            }
            (BlockKind::GenerateVideo, "durationSeconds") => {
                self.integer(value, "`durationSeconds`", 1, i64::MAX);
            }
            (
                BlockKind::GenerateImage
                | BlockKind::GenerateVideo
                | BlockKind::GenerateSpeech
                | BlockKind::TranscribeAudio,
                "imageModel" | "videoModel" | "speechModel" | "transcriptionModel",
            ) => {
                if let Some(model) = self.model(value, &format!("`{key}`")) {
                    block.models.push(model);
                }
            }
            (BlockKind::GenerateSpeech, "text") => self.read_one(value, "`text`", block),
            (BlockKind::GenerateSpeech, "format") => {
                self.choice(value, "`format`", SPEECH_FORMATS);
            }
            (BlockKind::GenerateSpeech, "speed") => self.speech_speed(value),
            (BlockKind::GenerateSpeech | BlockKind::TranscribeAudio, "language")
            | (BlockKind::GenerateSpeech, "voice" | "instructions") => {
                self.text(value, &format!("`{key}`"));
            }
            (BlockKind::TranscribeAudio, "audio") => self.read_one(value, "`audio`", block),
            (BlockKind::RunWorker, "worker") => block.worker = self.text(value, "`worker`"),
            _ => {}
        }
    }

    /// Reads `display`, `title` and `description`, checking `display`.
    fn presentation(&mut self, body: &[Entry]) -> Presentation {
        let mut presentation = Presentation::default();
        for entry in body.iter() {
            match entry.key.text.as_ref() {
                "description" => presentation.description = self.description(&entry.value),
                "title" => presentation.title = self.text(&entry.value, "`title`"),
                "display" => presentation.display = self.choice(&entry.value, "`display`", DISPLAY),
                _ => {}
            }
        }
        presentation
    }

    /// The three forms of an input mapping: `[A, B]`, `[LABEL: SOURCE]` and
    /// `{LABEL: SOURCE}`.
    fn input_mapping(&mut self, node: &Node) -> Vec<InputMapping> {
        let mut mappings = Vec::new();
        match &node.kind {
            NodeKind::Sequence(items) => {
                for item in items {
                    match &item.kind {
                        NodeKind::Scalar(s) if !s.is_null() => {
                            let name = Name {
                                text: s.text.to_string(),
                                span: item.span,
                            };
                            mappings.push(InputMapping {
                                label: name.clone(),
                                source: name,
                            });
                        }
                        NodeKind::Mapping(entries) if entries.len() == 1 => {
                            if let Some(mapping) = self.rename(&entries[0]) {
                                mappings.push(mapping);
                            }
                        }
                        _ => self.push(
                            Diagnostic::new(
                                Code::WrongShape,
                                item.span,
                                format!(
                                    "an `input` entry must be a variable name or one `LABEL: SOURCE` pair, found {}",
                                    item.describe()
                                ),
                            )
                            .with_help("write `- COMPANY_NAME` or `- CONTEXT: CONVERSATION_SUMMARY`"),
                        ),
                    }
                }
            }
            NodeKind::Mapping(entries) => {
                for entry in entries.iter() {
                    if let Some(mapping) = self.rename(entry) {
                        mappings.push(mapping);
                    }
                }
            }
            NodeKind::Scalar(s) if s.is_null() => {}
            _ => self.push(
                Diagnostic::new(
                    Code::WrongShape,
                    node.span,
                    format!("`input` must be a list or a mapping, found {}", node.describe()),
                )
                .with_help("write `input: [COMPANY_NAME]`, `input: [CONTEXT: SUMMARY]` or `input: { CONTEXT: SUMMARY }`"),
            ),
        }
        mappings
    }

    fn rename(&mut self, entry: &Entry) -> Option<InputMapping> {
        let source = self.text(&entry.value, "an `input` source")?;
        Some(InputMapping {
            label: Name::of(&entry.key),
            source,
        })
    }

    /// `tool-call` inputs: parameter names to references or literals.
    fn arguments(&mut self, node: &Node) -> Vec<Argument> {
        let mut arguments = Vec::new();
        for entry in self.mapping(node, "`tool-call` `input`").iter() {
            let value = &entry.value;
            let text = match &value.kind {
                NodeKind::Scalar(s) => s.text.to_string(),
                _ => String::new(),
            };
            let name = Name {
                text,
                span: value.span,
            };
            let setting = if value.as_scalar().is_some_and(is_reference) {
                Setting::Variable(name)
            } else {
                Setting::Literal(name)
            };
            arguments.push(Argument {
                parameter: Name::of(&entry.key),
                value: setting,
            });
        }
        arguments
    }

    /// A list of names (`tools: [a, b]`).
    fn names(&mut self, node: &Node, what: &str) -> Vec<Name> {
        match &node.kind {
            NodeKind::Sequence(items) => items
                .iter()
                .filter_map(|item| self.text(item, &format!("an entry of {what}")))
                .collect(),
            NodeKind::Scalar(s) if s.is_null() => Vec::new(),
            _ => {
                let mut diagnostic = Diagnostic::new(
                    Code::WrongShape,
                    node.span,
                    format!("{what} must be a list, found {}", node.describe()),
                );
                if let Some(s) = node.as_scalar() {
                    diagnostic = diagnostic.with_help(format!("write `[{}]`", s.text));
                }
                self.push(diagnostic);
                Vec::new()
            }
        }
    }

    /// A variable read by name: one, or a list.
    fn read_one(&mut self, node: &Node, role: &'static str, block: &mut Block) {
        if let Some(name) = self.text(node, role) {
            block.reads.push(Read { name, role });
        }
    }

    fn read_names(&mut self, node: &Node, role: &'static str, block: &mut Block) {
        for name in self.names(node, role) {
            block.reads.push(Read { name, role });
        }
    }

    fn aspect_ratio(&mut self, node: &Node) {
        let Some(name) = self.text(node, "`aspectRatio`") else {
            return;
        };
        let well_formed = name.text.split_once(':').is_some_and(|(w, h)| {
            [w, h]
                .iter()
                .all(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        });
        if !well_formed {
            self.push(
                Diagnostic::new(
                    Code::InvalidValue,
                    name.span,
                    format!("`aspectRatio` `{}` is not a ratio", name.text),
                )
                .with_help("write a ratio such as `1:1`, `16:9` or `9:16`"),
            );
        }
    }

    fn speech_speed(&mut self, node: &Node) {
        let ok = match node.as_scalar().map(Scalar::value) {
            Some(Value::Int(i)) => (1..=4).contains(&i),
            Some(Value::Float(f)) => (0.25..=4.0).contains(&f),
            _ => false,
        };
        if !ok {
            self.push(Diagnostic::new(
                Code::InvalidValue,
                node.span,
                format!(
                    "`speed` must be a multiplier from 0.25 to 4.0, found {}",
                    node.describe()
                ),
            ));
        }
    }

    /// An integer in `min..=max`.
    fn integer(&mut self, node: &Node, what: &str, min: i64, max: i64) {
        let value = node.as_scalar().map(Scalar::value);
        let ok = matches!(value, Some(Value::Int(i)) if (min..=max).contains(&i));
        if !ok {
            let range = if max == i64::MAX {
                format!("an integer of at least {min}")
            } else {
                format!("an integer from {min} to {max}")
            };
            self.push(Diagnostic::new(
                Code::InvalidValue,
                node.span,
                format!("{what} must be {range}, found {}", node.describe()),
            ));
        }
    }

    /// The value of key `key` in `body`, checked against `choices`.
    fn choice_of(&mut self, body: &[Entry], key: &str, choices: &[&str]) -> Option<Name> {
        let entry = body.iter().find(|e| e.key.text == key)?;
        self.choice(&entry.value, &format!("`{key}`"), choices)
    }

    /// A scalar that must be one of `choices`.
    fn choice(&mut self, node: &Node, what: &str, choices: &[&str]) -> Option<Name> {
        let name = self.text(node, what)?;
        if choices.contains(&name.text.as_str()) {
            Some(name)
        } else {
            self.invalid_choice(&name, what, choices);
            None
        }
    }

    fn invalid_choice(&mut self, name: &Name, what: &str, choices: &[&str]) {
        self.diags.push_with(Code::InvalidValue, || {
            let diagnostic = Diagnostic::new(
                Code::InvalidValue,
                name.span,
                format!("`{}` is not {}", name.text, choice_phrase(what)),
            );
            match nearest(&name.text, choices.iter().copied()) {
                Some(near) => diagnostic.did_you_mean(name.span, near),
                None => diagnostic.with_help(format!("the choices are {}", list(choices))),
            }
        });
    }

    fn missing(&mut self, name: &Name, place: &str, key: &str, help: &str) {
        self.push(
            Diagnostic::new(
                Code::MissingField,
                name.span,
                format!("{place} has no `{key}`"),
            )
            .with_help(help),
        );
    }
}

/// "a valid `display`" for a key; "a block kind" stays as written.
fn choice_phrase(what: &str) -> String {
    if what.starts_with('`') {
        format!("a valid {what}")
    } else {
        what.to_string()
    }
}
