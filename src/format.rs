//! The protocol file format as a JSON Schema (draft-07), for editors: with
//! `# yaml-language-server: $schema=...` on its first line, a
//! `protocol.yaml` gets completion, hover text and validation as it is
//! typed, in VS Code's YAML extension, Neovim, Helix and anything else that
//! runs yaml-language-server.
//!
//! The types here hold no data: they describe the file, and `schemars`
//! turns them, with their doc comments as `description`s, into the schema.
//! The lowering in `syntax` stays the source of truth: enumerated values
//! are read from its tables, and `tests/format_schema.rs` checks that each
//! place lists exactly the keys the lowering accepts there. The schema
//! checks form only (keys, shapes, scalar kinds, enumerated values), never
//! whether a name is declared, and where it cannot tell it accepts: it must
//! never flag a protocol that agentc accepts.
//!
//! Editors type a plain YAML scalar by the YAML 1.2 core schema (`true` is a
//! boolean, `0.7` a number, `16:9` and `yes` strings; quoted scalars are
//! strings), so where agentc reads any scalar as text (a description, a
//! name) the schema accepts strings, numbers and booleans alike.
//!
//! How a field is declared says whether it may be left out or left empty
//! (`key:` with no value, which agentc mostly reads as absent):
//! `T` is required and never empty, `Nullable<T>` required but may be
//! empty, `Option<T>` may be left out or empty, and a field marked
//! `#[schemars(default)]` may be left out but not empty.

use crate::syntax::{
    ANTHROPIC_SKILL_TYPES, ANTHROPIC_TOOLS, Builtin, CACHE, CONNECTION, DISPLAY, EXECUTION,
    MAX_LIST_DEPTH, MAX_SANDBOX_TIMEOUT, MCP_SOURCES, RESOLUTIONS, ROLES, SERIALIZE_FORMATS,
    SPEECH_FORMATS, SPEED, THINKING,
};
use schemars::generate::SchemaSettings;
use schemars::transform::RecursiveTransform;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::marker::PhantomData;

/// The JSON Schema (draft-07, which yaml-language-server supports) of a
/// protocol file, as `agentc schema` prints it and
/// `schema/protocol.schema.json` holds it: `$schema`, a `title`, the
/// top-level sections under `properties`, and the shared shapes under
/// `definitions`. It has no `$id`: an editor names a schema by where it
/// found it. The output is the same on every run.
///
/// It accepts every protocol agentc accepts. It rejects unknown keys,
/// values of the wrong shape or scalar kind, and values outside an
/// enumeration, as agentc does; what needs the whole protocol (references
/// to declared names, the rules of unions and `responseType`, mixing the
/// interactive and worker formats) is left to `agentc check`.
pub fn schema() -> serde_json::Value {
    let schema = SchemaSettings::draft07()
        .with_transform(RecursiveTransform(tidy as fn(&mut Schema)))
        .into_generator()
        .into_root_schema_for::<Protocol>();
    let mut root = match serde_json::Value::from(schema) {
        serde_json::Value::Object(map) => map,
        other => return other,
    };
    // The header first, the shared shapes last.
    for (index, key) in ["$schema", "title", "description"].into_iter().enumerate() {
        if let Some(value) = root.shift_remove(key) {
            root.shift_insert(index, key.to_string(), value);
        }
    }
    if let Some(definitions) = root.shift_remove("definitions") {
        root.insert("definitions".to_string(), definitions);
    }
    serde_json::Value::Object(root)
}

/// Puts a schema's `description` first, one line per paragraph: doc
/// comments wrap at 80 columns, and editors wrap hover text themselves.
fn tidy(schema: &mut Schema) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    let Some(serde_json::Value::String(text)) = object.shift_remove("description") else {
        return;
    };
    let text = text
        .split("\n\n")
        .map(|paragraph| {
            paragraph
                .lines()
                .map(str::trim)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n\n");
    object.shift_insert(0, "description".to_string(), text.into());
}

/// How variables are named, and so how a reference is told from a literal
/// (`syntax::is_variable_name`).
const VARIABLE_NAME: &str = "^[A-Z][A-Z0-9_]*$";

/// How type names are written (PascalCase, an error otherwise).
const TYPE_NAME: &str = "^[A-Z][A-Za-z0-9]*$";

/// A name as the types language reads it, optionally padded (the lowering
/// trims a type expression).
const IDENTIFIER: &str = r"[A-Za-z_][A-Za-z0-9_]*";

// ---------------------------------------------------------------------
// The sections.
// ---------------------------------------------------------------------

/// An Octavus agent protocol (`protocol.yaml`). An interactive agent has
/// `triggers`, `handlers` and `agent`; a worker has `steps` and `output`.
/// Checked offline by `agentc check`.
#[derive(JsonSchema)]
#[schemars(
    title = "Octavus agent protocol",
    deny_unknown_fields,
    rename_all = "camelCase"
)]
pub struct Protocol {
    /// Values the consumer gives when it creates a session (or a worker's
    /// input), by UPPERCASE_SNAKE_CASE name. They cannot change afterwards.
    #[schemars(extend("propertyNames" = {"pattern": VARIABLE_NAME}))]
    pub input: Option<BTreeMap<String, Input>>,
    /// Deprecated: state that persists across triggers and is synced to the
    /// consumer. Persist state with a tool your application implements.
    #[schemars(extend(
        "propertyNames" = {"pattern": VARIABLE_NAME},
        "deprecated" = true,
        "deprecationMessage" = "`resources` are deprecated: persist state with a tool your application implements"
    ))]
    pub resources: Option<BTreeMap<String, Resource>>,
    /// Internal variables, by UPPERCASE_SNAKE_CASE name: block outputs and
    /// working state, never synced to the consumer.
    #[schemars(extend("propertyNames" = {"pattern": VARIABLE_NAME}))]
    pub variables: Option<BTreeMap<String, Variable>>,
    /// The ways the agent is invoked, by lowercase-with-dashes name; each
    /// needs a handler under `handlers`.
    pub triggers: Option<BTreeMap<String, Option<Trigger>>>,
    /// Tools your application implements, by lowercase-with-dashes name.
    /// The model calls them, or a `tool-call` block does.
    pub tools: Option<BTreeMap<String, Tool>>,
    /// Named types, by PascalCase name: an object (its properties), an
    /// array (`type: array` with `items`, or `type: "T[]"`), or a union
    /// (`anyOf` with a `discriminator`).
    #[schemars(extend("propertyNames" = {"pattern": TYPE_NAME}))]
    pub types: Option<BTreeMap<String, TypeDef>>,
    /// Octavus skills (code execution and knowledge packages), by slug.
    pub skills: Option<BTreeMap<String, Option<Skill>>>,
    /// How skills attached at runtime (through integrations) appear and run.
    pub on_demand_skills: Option<Skill>,
    /// MCP servers: remote services and device capabilities, by name (the
    /// namespace of their tools).
    pub mcp_servers: Option<BTreeMap<String, McpServer>>,
    /// Every connected MCP of a source, without declaring each one, keyed
    /// by source. A scope opts in with `onDemandMcpServers: [remote]`.
    pub on_demand_mcp_servers: Option<OnDemandMcpServers>,
    /// Worker agents this agent may run, by slug.
    pub workers: Option<BTreeMap<String, Option<Worker>>>,
    /// The main thread of an interactive agent: model, system prompt,
    /// tools and behaviour.
    #[schemars(default)]
    pub agent: Agent,
    /// What happens when each trigger fires: the trigger's name, then its
    /// blocks by name, run in order.
    pub handlers: Option<BTreeMap<String, Option<Blocks>>>,
    /// A worker's blocks by name, run in order.
    pub steps: Option<Blocks>,
    /// The variable whose value a worker returns.
    pub output: Option<Text>,
}

/// A trigger: one way the agent is invoked.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Trigger {
    /// What the trigger is for.
    pub description: Option<Text>,
    /// Values that come with the trigger, by UPPERCASE_SNAKE_CASE name.
    #[schemars(extend("propertyNames" = {"pattern": VARIABLE_NAME}))]
    pub input: Option<BTreeMap<String, Input>>,
}

/// A tool your application implements.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Tool {
    /// What the tool does. The model reads it to decide when to call the
    /// tool; the UI may show it.
    pub description: Text,
    /// How a call shows in the UI (default `description`).
    pub display: Option<Display>,
    /// The label shown with `display: title`.
    pub title: Option<Text>,
    /// The parameters by name; a call is an object of them. Left out, the
    /// tool takes an empty object.
    pub parameters: Option<BTreeMap<String, Parameter>>,
}

/// How something shows in the UI while it runs.
#[derive(JsonSchema)]
pub struct Presentation {
    /// How it shows in the UI: `hidden`, `name`, `description`, `stream`
    /// or `title`.
    pub display: Option<Display>,
    /// Text shown in the UI while it runs.
    pub description: Option<Text>,
    /// The label shown with `display: title`.
    pub title: Option<Text>,
}

/// An Octavus skill, or how skills attached at runtime behave.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Skill {
    #[schemars(flatten)]
    pub presentation: Presentation,
    /// Where the skill runs: `sandbox` (default, isolated) or `device` (the
    /// agent's computer).
    pub execution: Option<Execution>,
}

/// An MCP server.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct McpServer {
    /// What the server provides.
    pub description: Text,
    /// Where it runs: `remote` (HTTP, managed by the platform), `device`
    /// (the agent's computer) or `consumer` (your server-sdk process).
    pub source: Nullable<McpSource>,
    /// How its tool calls show in the UI (default `description`).
    pub display: Option<Display>,
    /// The label shown with `display: title`, for every tool of the server.
    pub title: Option<Text>,
    /// When to connect: `lazy` (default, on demand) or `eager` (before the
    /// first request). `remote` only.
    pub connection: Option<Connection>,
    /// Where the MCP process runs: `sandbox` (default) or `device`.
    /// `remote` only.
    pub execution: Option<Execution>,
}

/// `onDemandMcpServers:`, keyed by source.
pub struct OnDemandMcpServers;

impl JsonSchema for OnDemandMcpServers {
    fn schema_name() -> Cow<'static, str> {
        "OnDemandMcpServers".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        keyed_by(generator, MCP_SOURCES, Option::<OnDemandMcp>::json_schema)
    }
}

/// How the MCPs of one source, connected at runtime, appear.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields, rename_all = "camelCase")]
pub struct OnDemandMcp {
    #[schemars(flatten)]
    pub presentation: Presentation,
    /// Where the matched MCPs run: `sandbox` (default) or `device`.
    pub execution: Option<Execution>,
    /// How much of their output stays in the model's context.
    pub context_retention: Option<ContextRetention>,
}

/// How much tool output stays in the model's context.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields, rename_all = "camelCase")]
pub struct ContextRetention {
    /// Tool results.
    pub tool_results: Option<ToolResults>,
}

/// Which tool results stay in the model's context.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields, rename_all = "camelCase")]
pub struct ToolResults {
    /// How many of the latest tool results to keep.
    #[schemars(default)]
    pub retain_last: RetainLast,
}

/// A worker this agent may run, with `run-worker` or as a tool.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Worker {
    #[schemars(flatten)]
    pub presentation: Presentation,
    /// The worker's tools that this agent implements: worker tool name to
    /// this agent's tool name.
    pub tools: Option<BTreeMap<String, Option<Text>>>,
}

// ---------------------------------------------------------------------
// Threads: the agent and `start-thread`.
// ---------------------------------------------------------------------

/// The main thread of an interactive agent.
#[derive(JsonSchema, Default)]
#[schemars(deny_unknown_fields, rename_all = "camelCase")]
pub struct Agent {
    /// The model: `provider/model-id` (as in `anthropic/claude-sonnet-4-5`),
    /// or an UPPERCASE variable holding one.
    pub model: Nullable<Model>,
    /// The system prompt: a file under `prompts/`, without `.md`.
    pub system: Nullable<Text>,
    #[schemars(flatten)]
    pub settings: ThreadSettings,
    /// Workers the model may run as tools.
    pub workers: Option<Names>,
    /// The video model (agentic video generation): `provider/model-id` or
    /// a variable.
    pub video_model: Option<Model>,
    /// The speech model (agentic text-to-speech): `provider/model-id` or a
    /// variable.
    pub speech_model: Option<Model>,
    /// The default voice for speech generation, or a variable.
    pub speech_voice: Option<Text>,
    /// The transcription model (agentic speech-to-text): `provider/model-id`
    /// or a variable.
    pub transcription_model: Option<Model>,
    /// `true` lets the model call tools over several steps.
    #[schemars(default)]
    pub agentic: Flag,
    /// Automatic compaction of the context window.
    pub context_management: Option<ContextManagement>,
    /// Anthropic provider tools and skills.
    pub anthropic: Option<Anthropic>,
}

/// The settings a thread shares with the agent's main thread.
#[derive(JsonSchema, Default)]
#[schemars(rename_all = "camelCase")]
pub struct ThreadSettings {
    /// The model to fail over to on a transient provider error:
    /// `provider/model-id` or a variable.
    pub backup_model: Option<Model>,
    /// The variables the system prompt receives: `[A, B]`, `[LABEL: SOURCE]`
    /// or `{LABEL: SOURCE}`.
    pub input: Option<InputMapping>,
    /// Tools the model may call.
    pub tools: Option<Names>,
    /// MCP servers the model may use.
    pub mcp_servers: Option<Names>,
    /// Sources of on-demand MCP servers to pick up, as in `[remote]`.
    pub on_demand_mcp_servers: Option<Names>,
    /// Octavus skills the model may use.
    pub skills: Option<Names>,
    /// Reference documents (under `references/`) the model may read.
    pub references: Option<Names>,
    /// The skill sandbox timeout in milliseconds (default 5 minutes, at
    /// most one hour).
    #[schemars(default)]
    pub sandbox_timeout: SandboxTimeout,
    /// The image model (agentic image generation): `provider/model-id` or a
    /// variable.
    pub image_model: Option<Model>,
    /// `true` enables the built-in web search tool.
    #[schemars(default)]
    pub web_search: Flag,
    /// `true` enables structured task tracking.
    #[schemars(default)]
    pub todo_list: Flag,
    /// The most agentic steps (default 10), or a variable.
    #[schemars(default)]
    pub max_steps: MaxSteps,
    /// The model temperature: 0 to 2, `off`, or a variable.
    #[schemars(default)]
    pub temperature: Temperature,
    /// Extended reasoning: `low`, `medium`, `high`, `max` or `off`, or a
    /// variable.
    pub thinking: Option<Thinking>,
    /// Inference speed on models that support fast mode: `fast` or
    /// `standard`, or a variable.
    pub speed: Option<Speed>,
    /// Prompt caching: `auto` (default), `extended` or `off`. Threads do not
    /// inherit it.
    pub cache: Option<Cache>,
    /// Caps one tool result at this many tokens in the model's view.
    #[schemars(default)]
    pub max_tool_output_tokens: Count,
    /// Caps the longest side of every image in the model's view, in pixels.
    #[schemars(default)]
    pub max_image_dimension: Count,
    /// Caps the output tokens of one generation (one step).
    #[schemars(default)]
    pub max_output_tokens: Count,
    /// `true` aborts a generation that degenerates into a repeated string.
    #[schemars(default)]
    pub loop_guard: Flag,
}

/// Automatic compaction of the context window.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields, rename_all = "camelCase")]
pub struct ContextManagement {
    /// The worker (declared under `workers`) that writes the running summary.
    pub summarizer_worker: Option<Text>,
    /// The fraction of the context window at which compaction starts.
    #[schemars(default)]
    pub threshold_percent: Fraction,
    /// The fraction of the context window kept verbatim.
    #[schemars(default)]
    pub recent_percent: Fraction,
    /// Deprecated and ignored: write `recentPercent`.
    #[schemars(extend(
        "deprecated" = true,
        "deprecationMessage" = "`recentWindow` is deprecated and ignored: write `recentPercent`"
    ))]
    pub recent_window: Option<AnyValue>,
}

/// Anthropic-specific options, for Anthropic models.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Anthropic {
    /// Anthropic provider tools: `web-search`, `code-execution`.
    pub tools: Option<AnthropicTools>,
    /// Anthropic skills, by skill id.
    pub skills: Option<BTreeMap<String, AnthropicSkill>>,
}

/// `anthropic.tools:`, keyed by provider tool.
pub struct AnthropicTools;

impl JsonSchema for AnthropicTools {
    fn schema_name() -> Cow<'static, str> {
        "AnthropicTools".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        keyed_by(
            generator,
            ANTHROPIC_TOOLS,
            Option::<AnthropicTool>::json_schema,
        )
    }
}

/// How an Anthropic provider tool shows in the UI.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct AnthropicTool {
    #[schemars(flatten)]
    pub presentation: Presentation,
}

/// An Anthropic skill.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct AnthropicSkill {
    /// `anthropic` for a built-in skill (`pdf`, `xlsx`, `docx`, `pptx`),
    /// `custom` for one you uploaded.
    #[schemars(rename = "type")]
    pub kind: Nullable<AnthropicSkillType>,
    /// The skill version (default `latest`).
    pub version: Option<Text>,
    #[schemars(flatten)]
    pub presentation: Presentation,
}

// ---------------------------------------------------------------------
// Handlers and blocks.
// ---------------------------------------------------------------------

/// Blocks by name (shown in the debug UI), run in order.
#[derive(JsonSchema)]
pub struct Blocks(pub BTreeMap<String, Block>);

/// A step of a handler or worker; `block:` says which kind.
#[derive(JsonSchema)]
#[schemars(
    tag = "block",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase",
    deny_unknown_fields,
    transform = describe_block_kind
)]
pub enum Block {
    /// Generates the model's next message on a thread.
    NextMessage {
        #[schemars(flatten)]
        presentation: Presentation,
        /// The thread (default `main`).
        thread: Option<Text>,
        /// The variable that receives the message (or, with `responseType`,
        /// the parsed object).
        output: Option<Text>,
        /// `true` keeps the message out of the main chat.
        #[schemars(default)]
        independent: Flag,
        /// Structured output: the object type the reply must match.
        #[schemars(default)]
        response_type: TypeName,
    },
    /// Adds a message to a thread.
    AddMessage {
        #[schemars(flatten)]
        presentation: Presentation,
        /// The thread (default `main`).
        thread: Option<Text>,
        /// Who the message is from: `user`, `assistant` or `system`.
        role: Nullable<Role>,
        /// The prompt: a file under `prompts/`, without `.md`.
        prompt: Nullable<Text>,
        /// The variables the prompt receives: `[A, B]`, `[LABEL: SOURCE]`
        /// or `{LABEL: SOURCE}`.
        input: Option<InputMapping>,
        /// Variables holding files to attach.
        files: Option<Names>,
        /// A variable shown in the UI instead of the prompt text.
        ui_content: Option<Text>,
        /// `false` hides the message from the user; the model still sees it.
        #[schemars(default)]
        visible: Flag,
    },
    /// Calls a tool with fixed arguments.
    ToolCall {
        #[schemars(flatten)]
        presentation: Presentation,
        /// The tool to call.
        tool: Nullable<Text>,
        /// The arguments by parameter name: an UPPERCASE variable (unquoted)
        /// or a literal value.
        input: Option<Arguments>,
        /// The variable that receives the result.
        output: Option<Text>,
        /// The thread the call belongs to.
        thread: Option<Text>,
    },
    /// Deprecated: sets a resource. Call a tool instead.
    #[schemars(extend(
        "deprecated" = true,
        "deprecationMessage" = "the `set-resource` block is deprecated: persist state with a `tool-call`"
    ))]
    SetResource {
        #[schemars(flatten)]
        presentation: Presentation,
        /// The resource to set.
        resource: Nullable<Text>,
        /// The variable holding the new value.
        value: Nullable<Text>,
    },
    /// Starts a named thread with its own model and settings.
    StartThread {
        #[schemars(flatten)]
        presentation: Presentation,
        /// The thread's name (default: the block's name).
        thread: Option<Text>,
        /// The model: `provider/model-id` or a variable.
        model: Option<Model>,
        /// The system prompt: a file under `prompts/`, without `.md`.
        system: Nullable<Text>,
        #[schemars(flatten)]
        settings: ThreadSettings,
    },
    /// Writes a thread out as text.
    SerializeThread {
        #[schemars(flatten)]
        presentation: Presentation,
        /// The thread (default `main`).
        thread: Option<Text>,
        /// `markdown` or `json`.
        format: Option<SerializeFormat>,
        /// The variable that receives the text.
        output: Option<Text>,
    },
    /// Generates an image from a prompt variable.
    GenerateImage {
        #[schemars(flatten)]
        presentation: Presentation,
        /// The variable holding the prompt (or edit instructions).
        prompt: Nullable<Text>,
        /// The image model: `provider/model-id` or a variable.
        image_model: Nullable<Model>,
        /// The aspect ratio, as in `16:9` (default `1:1`).
        aspect_ratio: Option<AspectRatio>,
        /// `1K`, `2K` or `4K` (Gemini 3 image models only).
        resolution: Option<Resolution>,
        /// Deprecated: write `aspectRatio`.
        #[schemars(extend(
            "deprecated" = true,
            "deprecationMessage" = "`size` is deprecated: write `aspectRatio`"
        ))]
        size: Option<Text>,
        /// Variables holding images to edit or transform.
        reference_images: Option<Names>,
        /// The variable that receives the image.
        output: Option<Text>,
        /// The thread the image belongs to.
        thread: Option<Text>,
    },
    /// Generates a short video clip from a prompt variable. Not specified
    /// by the docs: other keys are accepted too.
    #[schemars(transform = open_object)]
    GenerateVideo {
        #[schemars(flatten)]
        presentation: Presentation,
        /// The variable holding the prompt.
        prompt: Option<Text>,
        /// The video model: `provider/model-id` or a variable.
        video_model: Option<Model>,
        /// The aspect ratio, as in `16:9`.
        aspect_ratio: Option<AspectRatio>,
        /// The clip's length in seconds.
        #[schemars(default)]
        duration_seconds: Count,
        /// Variables holding images to start from.
        reference_images: Option<Names>,
        /// The variable that receives the video.
        output: Option<Text>,
        /// The thread the video belongs to.
        thread: Option<Text>,
    },
    /// Speaks the text of a variable.
    GenerateSpeech {
        #[schemars(flatten)]
        presentation: Presentation,
        /// The variable holding the text to speak.
        text: Nullable<Text>,
        /// The speech model: `provider/model-id` or a variable.
        speech_model: Nullable<Model>,
        /// The voice id (provider-specific).
        voice: Option<Text>,
        /// `mp3` (default), `opus`, `aac`, `flac` or `wav`.
        format: Option<SpeechFormat>,
        /// Delivery instructions (model-dependent).
        instructions: Option<Text>,
        /// An ISO 639-1 language hint.
        language: Option<Text>,
        /// A speed multiplier from 0.25 to 4.
        #[schemars(default)]
        speed: SpeechSpeed,
        /// The variable that receives the audio file.
        output: Option<Text>,
        /// The thread the audio belongs to.
        thread: Option<Text>,
    },
    /// Transcribes an audio or video file.
    TranscribeAudio {
        #[schemars(flatten)]
        presentation: Presentation,
        /// The variable holding the file (a file reference or URL).
        audio: Nullable<Text>,
        /// The transcription model: `provider/model-id` or a variable.
        transcription_model: Nullable<Model>,
        /// An ISO 639-1 language hint (default: detected).
        language: Option<Text>,
        /// `true` asks for timestamped segments.
        #[schemars(default)]
        timestamps: Flag,
        /// The variable that receives the transcript.
        output: Option<Text>,
        /// The thread the block's events belong to.
        thread: Option<Text>,
    },
    /// Runs a worker declared under `workers`.
    RunWorker {
        #[schemars(flatten)]
        presentation: Presentation,
        /// The worker to run.
        worker: Nullable<Text>,
        /// The worker's input: `[A, B]`, `[LABEL: SOURCE]` or
        /// `{LABEL: SOURCE}`.
        input: Option<InputMapping>,
        /// The variable that receives the worker's output.
        output: Option<Text>,
        /// The thread the worker's events belong to.
        thread: Option<Text>,
    },
}

/// Gives `block:` hover text in every variant.
fn describe_block_kind(schema: &mut Schema) {
    let variants = schema
        .get_mut("oneOf")
        .and_then(serde_json::Value::as_array_mut);
    for variant in variants.into_iter().flatten() {
        if let Some(kind) = variant
            .pointer_mut("/properties/block")
            .and_then(serde_json::Value::as_object_mut)
        {
            kind.insert("description".to_string(), "The kind of block.".into());
        }
    }
}

/// Lets an object take keys it does not list.
fn open_object(schema: &mut Schema) {
    if let Some(object) = schema.as_object_mut() {
        object.shift_remove("additionalProperties");
    }
}

// ---------------------------------------------------------------------
// Types and typed fields.
// ---------------------------------------------------------------------

/// A named type. Its form is decided by its keys: `anyOf` makes a union; a
/// `type` whose value is a scalar makes an array type; otherwise every key
/// is a property of an object type.
pub struct TypeDef;

impl JsonSchema for TypeDef {
    fn schema_name() -> Cow<'static, str> {
        "TypeDef".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A named type: an object (its properties by camelCase name), an array (`type: array` with `items`, or `type: \"T[]\"`), or a union (`anyOf` with a `discriminator`).",
            "type": "object",
            "if": { "required": ["anyOf"] },
            "then": generator.subschema_for::<Union>(),
            "else": {
                "if": {
                    "required": ["type"],
                    "properties": { "type": { "type": ["string", "number", "boolean", "null"] } }
                },
                "then": generator.subschema_for::<ArrayType>(),
                "else": generator.subschema_for::<ObjectType>()
            }
        })
    }
}

/// An object type: its properties by camelCase name, in the order a model
/// generates them.
#[derive(JsonSchema)]
pub struct ObjectType(pub BTreeMap<String, Property>);

/// A union: one of several object types, told apart by the discriminator
/// property each declares as a `string` with a `const`.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields, rename_all = "camelCase")]
pub struct Union {
    /// The variants: at least two object type names.
    pub any_of: Variants,
    /// The property whose `const` tells the variants apart.
    pub discriminator: Text,
    /// What the union represents.
    pub description: Option<Text>,
}

/// A top-level array type.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields, transform = array_needs_items)]
pub struct ArrayType {
    /// `array` (with `items`), or an element type followed by `[]`.
    #[schemars(rename = "type")]
    pub kind: ArrayTypeExpr,
    /// The element type, with `type: array`.
    #[schemars(default)]
    pub items: ItemsField,
    /// What the array holds.
    pub description: Option<Text>,
}

/// A property of an object type. Required unless `optional: true`.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields, transform = array_needs_items)]
pub struct Property {
    /// The property's type.
    #[schemars(rename = "type")]
    pub kind: TypeExpr,
    /// What the property holds; the model reads it.
    pub description: Option<Text>,
    /// `true` when the property may be left out.
    #[schemars(default)]
    pub optional: Flag,
    /// The allowed values of a `string`.
    #[schemars(rename = "enum", default)]
    pub values: EnumValues,
    /// The one allowed value, of the property's type; a union variant's
    /// discriminator has one.
    #[schemars(rename = "const", default)]
    pub constant: Literal,
    /// The element type, with `type: array`.
    #[schemars(default)]
    pub items: ItemsField,
}

/// A tool parameter. Required unless `optional: true`.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields, transform = array_needs_items)]
pub struct Parameter {
    /// The parameter's type.
    #[schemars(rename = "type")]
    pub kind: TypeExpr,
    /// What the parameter is for; the model reads it.
    pub description: Option<Text>,
    /// `true` when the parameter may be left out.
    #[schemars(default)]
    pub optional: Flag,
    /// The allowed values of a `string`.
    #[schemars(rename = "enum", default)]
    pub values: EnumValues,
    /// The one allowed value, of the parameter's type.
    #[schemars(rename = "const", default)]
    pub constant: Literal,
    /// The element type, with `type: array`.
    #[schemars(default)]
    pub items: ItemsField,
}

/// The element type of an array.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields, transform = array_needs_items)]
pub struct Items {
    /// The element type.
    #[schemars(rename = "type")]
    pub kind: TypeExpr,
    /// What each element holds.
    pub description: Option<Text>,
    /// The allowed values of a `string` element.
    #[schemars(rename = "enum", default)]
    pub values: EnumValues,
    /// The one allowed value, of the element's type.
    #[schemars(rename = "const", default)]
    pub constant: Literal,
    /// The elements' element type, with `type: array`.
    #[schemars(default)]
    pub items: ItemsField,
}

/// An input of the agent or of a trigger.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields, transform = array_needs_items)]
pub struct Input {
    /// The input's type.
    #[schemars(rename = "type")]
    pub kind: TypeExpr,
    /// What the input is for.
    pub description: Option<Text>,
    /// `true` when the consumer need not give it.
    #[schemars(default)]
    pub optional: Flag,
    /// The value when it is not given.
    pub default: Option<AnyValue>,
    /// The allowed values of a `string` input.
    #[schemars(rename = "enum", default)]
    pub values: EnumValues,
    /// The element type, with `type: array`.
    #[schemars(default)]
    pub items: ItemsField,
}

/// A variable.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields, transform = array_needs_items)]
pub struct Variable {
    /// The variable's type.
    #[schemars(rename = "type")]
    pub kind: TypeExpr,
    /// What the variable stores.
    pub description: Option<Text>,
    /// The initial value.
    pub default: Option<AnyValue>,
    /// The element type, with `type: array`.
    #[schemars(default)]
    pub items: ItemsField,
}

/// A resource (deprecated).
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields, transform = array_needs_items)]
pub struct Resource {
    /// The resource's type.
    #[schemars(rename = "type")]
    pub kind: TypeExpr,
    /// What the resource is for.
    pub description: Option<Text>,
    /// The initial value.
    pub default: Option<AnyValue>,
    /// `true` when the agent cannot write it.
    #[schemars(default)]
    pub readonly: Flag,
    /// The element type, with `type: array`.
    #[schemars(default)]
    pub items: ItemsField,
}

/// `items` goes with `type: array` and nothing else, and `type: array`
/// needs `items`.
fn array_needs_items(schema: &mut Schema) {
    let array = json_schema!({
        "required": ["type"],
        "properties": { "type": { "type": "string", "pattern": r"^\s*array\s*$" } }
    });
    schema.insert("if".into(), array.into());
    schema.insert(
        "then".into(),
        json_schema!({ "required": ["items"] }).into(),
    );
    schema.insert(
        "else".into(),
        json_schema!({ "not": { "required": ["items"] } }).into(),
    );
}

// ---------------------------------------------------------------------
// Values.
// ---------------------------------------------------------------------

/// Declares a value whose schema is written here, inline where it is used.
macro_rules! value {
    ($(#[doc = $doc:literal])* $name:ident => $schema:tt) => {
        $(#[doc = $doc])*
        #[derive(Default)]
        pub struct $name;

        impl JsonSchema for $name {
            fn inline_schema() -> bool {
                true
            }

            fn schema_name() -> Cow<'static, str> {
                stringify!($name).into()
            }

            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                json_schema!($schema)
            }
        }
    };
}

value! {
    /// Any scalar, read as text: a string, and also a number or a boolean,
    /// which agentc reads as written.
    Text => { "type": ["string", "number", "boolean"] }
}

value! {
    /// A value of a field's type, for `const`.
    Literal => { "type": ["string", "number", "boolean"] }
}

value! {
    /// Any value, for `default`.
    AnyValue => true
}

value! {
    /// `true` or `false`; YAML 1.2 reads `yes` and `on` as text.
    Flag => { "type": "boolean" }
}

value! {
    /// A positive whole number.
    Count => { "type": "integer", "minimum": 1 }
}

value! {
    /// A whole number, zero or more.
    RetainLast => { "type": "integer", "minimum": 0 }
}

value! {
    /// Milliseconds, at most one hour.
    SandboxTimeout => { "type": "integer", "minimum": 1, "maximum": MAX_SANDBOX_TIMEOUT }
}

value! {
    /// A fraction of the context window: above 0, at most 1.
    Fraction => { "type": "number", "exclusiveMinimum": 0, "maximum": 1 }
}

value! {
    /// A speech speed multiplier.
    SpeechSpeed => { "type": "number", "minimum": 0.25, "maximum": 4 }
}

value! {
    /// `width:height`.
    AspectRatio => { "type": "string", "pattern": "^[0-9]+:[0-9]+$", "examples": ["1:1", "16:9", "9:16"] }
}

value! {
    /// A list of names; agentc checks that each is declared.
    Names => { "type": "array", "items": { "type": ["string", "number", "boolean", "null"] } }
}

value! {
    /// The allowed values of a string: a non-empty list of strings.
    EnumValues => { "type": "array", "items": { "type": "string" }, "minItems": 1 }
}

value! {
    /// `tool-call` arguments by parameter name.
    Arguments => { "type": "object" }
}

value! {
    /// A variable reference (an unquoted UPPERCASE_SNAKE_CASE name) or a
    /// number from 0 to 2, or `off`.
    Temperature => {
        "anyOf": [
            { "type": "number", "minimum": 0, "maximum": 2 },
            { "const": "off" },
            { "type": "string", "pattern": VARIABLE_NAME }
        ]
    }
}

value! {
    /// A positive whole number, or a variable reference.
    MaxSteps => {
        "anyOf": [
            { "type": "integer", "minimum": 1 },
            { "type": "string", "pattern": VARIABLE_NAME }
        ]
    }
}

/// Declares a value that is one of the lowering's enumerated choices.
macro_rules! choice {
    ($(#[doc = $doc:literal])* $name:ident => $choices:expr) => {
        value! { $(#[doc = $doc])* $name => { "type": "string", "enum": $choices } }
    };
    ($(#[doc = $doc:literal])* $name:ident => $choices:expr, or a variable) => {
        value! {
            $(#[doc = $doc])*
            $name => {
                "anyOf": [
                    { "type": "string", "enum": $choices },
                    { "type": "string", "pattern": VARIABLE_NAME }
                ]
            }
        }
    };
}

choice!(Display => DISPLAY);
choice!(Execution => EXECUTION);
choice!(McpSource => MCP_SOURCES);
choice!(Connection => CONNECTION);
choice!(Role => ROLES);
choice!(SerializeFormat => SERIALIZE_FORMATS);
choice!(SpeechFormat => SPEECH_FORMATS);
choice!(Resolution => RESOLUTIONS);
choice!(Cache => CACHE);
choice!(AnthropicSkillType => ANTHROPIC_SKILL_TYPES);
choice!(Thinking => THINKING, or a variable);
choice!(Speed => SPEED, or a variable);

/// A required key whose value may be left empty.
pub struct Nullable<T>(PhantomData<T>);

impl<T> Default for Nullable<T> {
    fn default() -> Self {
        Nullable(PhantomData)
    }
}

impl<T: JsonSchema> JsonSchema for Nullable<T> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        format!("Nullable_{}", T::schema_name()).into()
    }

    fn schema_id() -> Cow<'static, str> {
        format!("agentc::format::Nullable<{}>", T::schema_id()).into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        <Option<T>>::json_schema(generator)
    }
}

/// An `items` key: the element type, by reference (an element may be an
/// array in turn).
#[derive(Default)]
pub struct ItemsField;

impl JsonSchema for ItemsField {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "ItemsField".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        generator.subschema_for::<Items>()
    }
}

/// A model: `provider/model-id`, or a variable reference.
pub struct Model;

impl JsonSchema for Model {
    fn schema_name() -> Cow<'static, str> {
        "Model".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A model as `provider/model-id`, or an UPPERCASE variable (unquoted) holding one.",
            "type": "string",
            "anyOf": [
                { "pattern": "^[^/]+/[\\s\\S]+$" },
                { "pattern": VARIABLE_NAME }
            ],
            "examples": ["anthropic/claude-sonnet-4-5", "openai/gpt-4o", "google/gemini-2.5-flash"]
        })
    }
}

/// The variables a prompt or worker receives.
pub struct InputMapping;

impl JsonSchema for InputMapping {
    fn schema_name() -> Cow<'static, str> {
        "InputMapping".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let source = json_schema!({ "type": ["string", "number", "boolean", "null"] });
        json_schema!({
            "description": "Variables passed on: a list of names (`[COMPANY_NAME]`), a list of `LABEL: SOURCE` pairs, or a mapping of labels to sources. The label is what the prompt sees; the value comes from the source.",
            "type": ["array", "object"],
            "items": {
                "anyOf": [
                    { "type": ["string", "number", "boolean"] },
                    { "type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": source }
                ]
            },
            "additionalProperties": source
        })
    }
}

/// A type expression: a built-in, a type name, either followed by `[]`.
pub struct TypeExpr;

impl JsonSchema for TypeExpr {
    fn schema_name() -> Cow<'static, str> {
        "TypeExpr".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let pattern = format!(r"^\s*{IDENTIFIER}(\[\]){{0,{MAX_LIST_DEPTH}}}\s*$");
        let mut examples: Vec<&str> = Builtin::ALL.iter().map(|b| b.name()).collect();
        examples.extend(["array", "string[]"]);
        json_schema!({
            "description": "A type: `string`, `number`, `integer`, `boolean`, `unknown`, `file`, a type name, or one of these followed by `[]` (quoted in YAML: `\"string[]\"`); or `array` with `items`.",
            "anyOf": [
                {
                    "type": "string",
                    "pattern": pattern,
                    // `object` is not a type, nor is a list of bare arrays.
                    "not": { "pattern": r"^\s*(object(\[\])*|array(\[\])+)\s*$" }
                },
                // A type may be named `True` or `False`, which YAML reads as
                // booleans and agentc as names.
                { "type": "boolean" }
            ],
            "examples": examples
        })
    }
}

/// The type of a top-level array type.
#[derive(Default)]
pub struct ArrayTypeExpr;

impl JsonSchema for ArrayTypeExpr {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "ArrayTypeExpr".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let pattern = format!(r"^\s*({IDENTIFIER}(\[\]){{1,{MAX_LIST_DEPTH}}}|array)\s*$");
        json_schema!({
            "allOf": [generator.subschema_for::<TypeExpr>()],
            "type": "string",
            "pattern": pattern,
            "examples": ["array", "string[]"]
        })
    }
}

/// The name of a named type, without `[]`: a union variant or a
/// `responseType`, which must be object types.
#[derive(Default)]
pub struct TypeName;

impl JsonSchema for TypeName {
    fn schema_name() -> Cow<'static, str> {
        "TypeName".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let pattern = format!(r"^\s*{IDENTIFIER}\s*$");
        let mut reserved: Vec<&str> = Builtin::ALL.iter().map(|b| b.name()).collect();
        reserved.extend(["object", "array"]);
        let reserved = format!(r"^\s*({})\s*$", reserved.join("|"));
        json_schema!({
            "description": "The name of an object type declared under `types`.",
            "anyOf": [
                { "type": "string", "pattern": pattern, "not": { "pattern": reserved } },
                // A type may be named `True` or `False` (see `TypeExpr`).
                { "type": "boolean" }
            ]
        })
    }
}

/// A union's variants.
pub struct Variants;

impl JsonSchema for Variants {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "Variants".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "array",
            "items": generator.subschema_for::<TypeName>(),
            "minItems": 2
        })
    }
}

/// A mapping whose keys are the given choices, each valued by `value`.
fn keyed_by(
    generator: &mut SchemaGenerator,
    keys: &[&str],
    value: fn(&mut SchemaGenerator) -> Schema,
) -> Schema {
    let properties: serde_json::Map<String, serde_json::Value> = keys
        .iter()
        .map(|key| (key.to_string(), value(generator).into()))
        .collect();
    json_schema!({
        "type": "object",
        "properties": properties,
        "additionalProperties": false
    })
}
