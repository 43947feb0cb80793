//! The tables: the top-level sections, the declarations, the thread
//! settings, the blocks and the typed fields. Keys are listed in the
//! order diagnostics name them.

use super::Presence::{OptionalNonNull, Required};
use super::Value::*;
use super::*;

/// A block kind: the common keys, then its own.
macro_rules! block_kind {
    ($name:literal, $doc:literal, &[$($key:expr),* $(,)?] $(,)?) => {
        Place {
            name: $name,
            doc: $doc,
            keys: &[BLOCK_COMMON, &[$($key),*]],
            closed: true,
            field: false,
            deprecated: None,
        }
    };
}

/// A typed slot's place.
macro_rules! field_place {
    ($name:literal, $doc:literal, &[$($key:expr),* $(,)?] $(,)?) => {
        Place {
            name: $name,
            doc: $doc,
            keys: &[&[$($key),*]],
            closed: true,
            field: true,
            deprecated: None,
        }
    };
}

// ---------------------------------------------------------------------
// The sections.
// ---------------------------------------------------------------------

/// A protocol file.
pub static PROTOCOL: Place = Place {
    name: "Protocol",
    doc: "An Octavus agent protocol (`protocol.yaml`). An interactive agent has `triggers`, `handlers` and `agent`; a worker has `steps` and `output`. Checked offline by `agentc check`.",
    keys: &[SECTIONS],
    closed: true,
    field: false,
    deprecated: None,
};

/// The top-level sections of a protocol (interactive and worker formats).
pub const SECTIONS: &[Key] = &[
    Key::new("input", MapOf(&INPUTS), "Values the consumer gives when it creates a session (or a worker's input), by UPPERCASE_SNAKE_CASE name. They cannot change afterwards."),
    Key::new("resources", MapOf(&RESOURCES), "Deprecated: state that persists across triggers and is synced to the consumer. Persist state with a tool your application implements.")
        .deprecated(&Deprecation {
            message: "`resources` are deprecated",
            help: "persist state with a tool your application implements, called from a `tool-call` block or by the model",
            note: Some("resources still work for now, but may be removed in a future major version"),
            summary: "`resources` are deprecated: persist state with a tool your application implements",
            replacement: None,
        }),
    Key::new("variables", MapOf(&VARIABLES), "Internal variables, by UPPERCASE_SNAKE_CASE name: block outputs and working state, never synced to the consumer."),
    Key::new("triggers", MapOf(&TRIGGERS), "The ways the agent is invoked, by lowercase-with-dashes name; each needs a handler under `handlers`."),
    Key::new("tools", MapOf(&TOOLS), "Tools your application implements, by lowercase-with-dashes name. The model calls them, or a `tool-call` block does."),
    Key::new("types", MapOf(&TYPES), "Named types, by PascalCase name: an object (its properties), an array (`type: array` with `items`, or `type: \"T[]\"`), or a union (`anyOf` with a `discriminator`)."),
    Key::new("skills", MapOf(&SKILLS), "Octavus skills (code execution and knowledge packages), by slug."),
    Key::new("onDemandSkills", Nested(&SKILL), "How skills attached at runtime (through integrations) appear and run."),
    Key::new("mcpServers", MapOf(&MCP_SERVERS), "MCP servers: remote services and device capabilities, by name (the namespace of their tools)."),
    Key::new("onDemandMcpServers", MapOf(&ON_DEMAND_MCP_SERVERS), "Every connected MCP of a source, without declaring each one, keyed by source. A scope opts in with `onDemandMcpServers: [remote]`."),
    Key::new("workers", MapOf(&WORKERS), "Worker agents this agent may run, by slug."),
    Key::new("agent", Nested(&AGENT), "The main thread of an interactive agent: model, system prompt, tools and behaviour.").presence(OptionalNonNull),
    Key::new("handlers", MapOf(&HANDLERS), "What happens when each trigger fires: the trigger's name, then its blocks by name, run in order."),
    Key::new("steps", MapOf(&BLOCK_MAP), "A worker's blocks by name, run in order."),
    Key::new("output", Name(Refers::Variable), "The variable whose value a worker returns."),
];

/// The sections that make an interactive agent.
pub const INTERACTIVE_SECTIONS: &[&str] = &["triggers", "handlers", "agent"];
/// The sections that make a worker.
pub const WORKER_SECTIONS: &[&str] = &["steps", "output"];

static INPUTS: Map = Map {
    name: "",
    doc: "",
    keys: MapKeys::Pattern(VARIABLE_NAME),
    entry: Nested(&INPUT),
    entry_nullable: false,
};

static RESOURCES: Map = Map {
    name: "",
    doc: "",
    keys: MapKeys::Pattern(VARIABLE_NAME),
    entry: Nested(&RESOURCE),
    entry_nullable: false,
};

static VARIABLES: Map = Map {
    name: "",
    doc: "",
    keys: MapKeys::Pattern(VARIABLE_NAME),
    entry: Nested(&VARIABLE),
    entry_nullable: false,
};

static TRIGGERS: Map = Map {
    name: "",
    doc: "",
    keys: MapKeys::Any,
    entry: Nested(&TRIGGER),
    entry_nullable: true,
};

static TOOLS: Map = Map {
    name: "",
    doc: "",
    keys: MapKeys::Any,
    entry: Nested(&TOOL),
    entry_nullable: false,
};

static TYPES: Map = Map {
    name: "",
    doc: "",
    keys: MapKeys::Pattern(TYPE_NAME),
    entry: TypeDef,
    entry_nullable: false,
};

static SKILLS: Map = Map {
    name: "",
    doc: "",
    keys: MapKeys::Any,
    entry: Nested(&SKILL),
    entry_nullable: true,
};

static MCP_SERVERS: Map = Map {
    name: "",
    doc: "",
    keys: MapKeys::Any,
    entry: Nested(&MCP_SERVER),
    entry_nullable: false,
};

static ON_DEMAND_MCP_SERVERS: Map = Map {
    name: "OnDemandMcpServers",
    doc: "",
    keys: MapKeys::Fixed(MCP_SOURCES),
    entry: Nested(&ON_DEMAND_MCP),
    entry_nullable: true,
};

static WORKERS: Map = Map {
    name: "",
    doc: "",
    keys: MapKeys::Any,
    entry: Nested(&WORKER),
    entry_nullable: true,
};

static HANDLERS: Map = Map {
    name: "",
    doc: "",
    keys: MapKeys::Names(Refers::Trigger),
    entry: MapOf(&BLOCK_MAP),
    entry_nullable: true,
};

// ---------------------------------------------------------------------
// Declarations.
// ---------------------------------------------------------------------

/// How something shows in the UI: written once, listed by every place
/// that has it.
pub const DISPLAY_KEY: Key = Key::new(
    "display",
    Choice(DISPLAY),
    "How it shows in the UI: `hidden`, `name`, `description`, `stream` or `title`.",
);
/// Text shown in the UI while it runs.
pub const DESCRIPTION_KEY: Key =
    Key::new("description", Text, "Text shown in the UI while it runs.");
/// The label shown with `display: title`.
pub const TITLE_KEY: Key = Key::new("title", Text, "The label shown with `display: title`.");

pub static TRIGGER: Place = Place {
    name: "Trigger",
    doc: "A trigger: one way the agent is invoked.",
    keys: &[&[
        Key::new("description", Text, "What the trigger is for."),
        Key::new(
            "input",
            MapOf(&INPUTS),
            "Values that come with the trigger, by UPPERCASE_SNAKE_CASE name.",
        ),
    ]],
    closed: true,
    field: false,
    deprecated: None,
};

pub static TOOL: Place = Place {
    name: "Tool",
    doc: "A tool your application implements.",
    keys: &[&[
        DESCRIPTION_KEY
            .doc("What the tool does. The model reads it to decide when to call the tool; the UI may show it.")
            .presence(Required)
            .missing("write `description:` saying what the tool does; the model reads it to decide when to call the tool"),
        DISPLAY_KEY.doc("How a call shows in the UI (default `description`)."),
        TITLE_KEY,
        Key::new("parameters", MapOf(&PARAMETERS), "The parameters by name; a call is an object of them. Left out, the tool takes an empty object."),
    ]],
    closed: true,
    field: false,
    deprecated: None,
};

static PARAMETERS: Map = Map {
    name: "",
    doc: "",
    keys: MapKeys::Any,
    entry: Nested(&PARAMETER),
    entry_nullable: false,
};

/// A skill, or how skills attached at runtime behave (`onDemandSkills:`).
pub static SKILL: Place = Place {
    name: "Skill",
    doc: "An Octavus skill, or how skills attached at runtime behave.",
    keys: &[&[
        DISPLAY_KEY,
        TITLE_KEY,
        DESCRIPTION_KEY,
        Key::new(
            "execution",
            Choice(EXECUTION),
            "Where the skill runs: `sandbox` (default, isolated) or `device` (the agent's computer).",
        ),
    ]],
    closed: true,
    field: false,
    deprecated: None,
};

pub static MCP_SERVER: Place = Place {
    name: "McpServer",
    doc: "An MCP server.",
    keys: &[&[
        DESCRIPTION_KEY
            .doc("What the server provides.")
            .presence(Required)
            .missing("write `description:` saying what the server provides"),
        Key::new("source", Choice(MCP_SOURCES), "Where it runs: `remote` (HTTP, managed by the platform), `device` (the agent's computer) or `consumer` (your server-sdk process).")
            .required()
            .missing("write `source: remote` (platform-managed), `device` (the agent's computer) or `consumer` (your server-sdk process)"),
        DISPLAY_KEY.doc("How its tool calls show in the UI (default `description`)."),
        TITLE_KEY.doc("The label shown with `display: title`, for every tool of the server."),
        Key::new("connection", Choice(CONNECTION), "When to connect: `lazy` (default, on demand) or `eager` (before the first request). `remote` only."),
        Key::new("execution", Choice(EXECUTION), "Where the MCP process runs: `sandbox` (default) or `device`. `remote` only."),
    ]],
    closed: true,
    field: false,
    deprecated: None,
};

/// An entry of `onDemandMcpServers:`.
pub static ON_DEMAND_MCP: Place = Place {
    name: "OnDemandMcp",
    doc: "How the MCPs of one source, connected at runtime, appear.",
    keys: &[&[
        DESCRIPTION_KEY,
        DISPLAY_KEY,
        TITLE_KEY,
        Key::new(
            "execution",
            Choice(EXECUTION),
            "Where the matched MCPs run: `sandbox` (default) or `device`.",
        ),
        Key::new(
            "contextRetention",
            Nested(&CONTEXT_RETENTION),
            "How much of their output stays in the model's context.",
        ),
    ]],
    closed: true,
    field: false,
    deprecated: None,
};

pub static CONTEXT_RETENTION: Place = Place {
    name: "ContextRetention",
    doc: "How much tool output stays in the model's context.",
    keys: &[&[Key::new(
        "toolResults",
        Nested(&TOOL_RESULTS),
        "Tool results.",
    )]],
    closed: true,
    field: false,
    deprecated: None,
};

pub static TOOL_RESULTS: Place = Place {
    name: "ToolResults",
    doc: "Which tool results stay in the model's context.",
    keys: &[&[Key::new(
        "retainLast",
        Integer {
            min: 0,
            max: i64::MAX,
        },
        "How many of the latest tool results to keep.",
    )
    .presence(OptionalNonNull)]],
    closed: true,
    field: false,
    deprecated: None,
};

/// A worker an interactive agent may run (`workers:`).
pub static WORKER: Place = Place {
    name: "Worker",
    doc: "A worker this agent may run, with `run-worker` or as a tool.",
    keys: &[&[
        DESCRIPTION_KEY,
        DISPLAY_KEY,
        TITLE_KEY,
        Key::new(
            "tools",
            MapOf(&WORKER_TOOLS),
            "The worker's tools that this agent implements: worker tool name to this agent's tool name.",
        ),
    ]],
    closed: true,
    field: false,
    deprecated: None,
};

static WORKER_TOOLS: Map = Map {
    name: "",
    doc: "",
    keys: MapKeys::Any,
    entry: Name(Refers::Tool),
    entry_nullable: true,
};

// ---------------------------------------------------------------------
// Threads: the agent and `start-thread`.
// ---------------------------------------------------------------------

/// The main thread of an interactive agent.
pub static AGENT: Place = Place {
    name: "Agent",
    doc: "The main thread of an interactive agent.",
    keys: &[
        &[Key::new("model", Model, "The model: `provider/model-id` (as in `anthropic/claude-sonnet-4-5`), or an UPPERCASE variable holding one.")
            .dynamic()
            .required()
            .missing("write `model: anthropic/claude-sonnet-4-5` (a `provider/model-id`, or a variable)")],
        THREAD_SETTINGS,
        &[Key::new("workers", Names(Refers::Worker), "Workers the model may run as tools.")],
        THREAD_LIMITS,
        &[
            Key::new("videoModel", Model, "The video model (agentic video generation): `provider/model-id` or a variable.").dynamic(),
            Key::new("speechModel", Model, "The speech model (agentic text-to-speech): `provider/model-id` or a variable.").dynamic(),
            Key::new("speechVoice", Text, "The default voice for speech generation, or a variable.").dynamic(),
            Key::new("transcriptionModel", Model, "The transcription model (agentic speech-to-text): `provider/model-id` or a variable.").dynamic(),
        ],
        THREAD_TOOLS,
        &[Key::new("agentic", Flag, "`true` lets the model call tools over several steps.").presence(OptionalNonNull)],
        THREAD_BEHAVIOUR,
        &[
            Key::new("contextManagement", Nested(&CONTEXT_MANAGEMENT), "Automatic compaction of the context window."),
            Key::new("anthropic", Nested(&ANTHROPIC), "Anthropic provider tools and skills."),
        ],
    ],
    closed: true,
    field: false,
    deprecated: None,
};

/// What a thread shares with the agent's main thread, after `model`.
const THREAD_SETTINGS: &[Key] = &[
    Key::new("backupModel", Model, "The model to fail over to on a transient provider error: `provider/model-id` or a variable.").dynamic(),
    Key::new("system", Name(Refers::Prompt), "The system prompt: a file under `prompts/`, without `.md`.")
        .required()
        .missing("write `system: system` to use `prompts/system.md` as the system prompt"),
    Key::new("input", InputMapping, "The variables the system prompt receives: `[A, B]`, `[LABEL: SOURCE]` or `{LABEL: SOURCE}`."),
    Key::new("tools", Names(Refers::Tool), "Tools the model may call."),
    Key::new("mcpServers", Names(Refers::McpServer), "MCP servers the model may use."),
    Key::new("onDemandMcpServers", Names(Refers::McpSource), "Sources of on-demand MCP servers to pick up, as in `[remote]`."),
    Key::new("skills", Names(Refers::Skill), "Octavus skills the model may use."),
    Key::new("references", Names(Refers::Reference), "Reference documents (under `references/`) the model may read."),
];

const THREAD_LIMITS: &[Key] = &[
    Key::new(
        "sandboxTimeout",
        Integer {
            min: 1,
            max: MAX_SANDBOX_TIMEOUT,
        },
        "The skill sandbox timeout in milliseconds (default 5 minutes, at most one hour).",
    )
    .presence(OptionalNonNull),
    Key::new(
        "imageModel",
        Model,
        "The image model (agentic image generation): `provider/model-id` or a variable.",
    )
    .dynamic(),
];

const THREAD_TOOLS: &[Key] = &[
    Key::new(
        "webSearch",
        Flag,
        "`true` enables the built-in web search tool.",
    )
    .presence(OptionalNonNull),
    Key::new("todoList", Flag, "`true` enables structured task tracking.")
        .presence(OptionalNonNull),
];

const THREAD_BEHAVIOUR: &[Key] = &[
    Key::new(
        "maxSteps",
        Integer {
            min: 1,
            max: i64::MAX,
        },
        "The most agentic steps (default 10), or a variable.",
    )
    .presence(OptionalNonNull)
    .dynamic(),
    Key::new(
        "temperature",
        Temperature,
        "The model temperature: 0 to 2, `off`, or a variable.",
    )
    .presence(OptionalNonNull)
    .dynamic(),
    Key::new(
        "thinking",
        Choice(THINKING),
        "Extended reasoning: `low`, `medium`, `high`, `max` or `off`, or a variable.",
    )
    .dynamic(),
    Key::new(
        "speed",
        Choice(SPEED),
        "Inference speed on models that support fast mode: `fast` or `standard`, or a variable.",
    )
    .dynamic(),
    Key::new(
        "cache",
        Choice(CACHE),
        "Prompt caching: `auto` (default), `extended` or `off`. Threads do not inherit it.",
    ),
    Key::new(
        "maxToolOutputTokens",
        Integer {
            min: 1,
            max: i64::MAX,
        },
        "Caps one tool result at this many tokens in the model's view.",
    )
    .presence(OptionalNonNull),
    Key::new(
        "maxImageDimension",
        Integer {
            min: 1,
            max: i64::MAX,
        },
        "Caps the longest side of every image in the model's view, in pixels.",
    )
    .presence(OptionalNonNull),
    Key::new(
        "maxOutputTokens",
        Integer {
            min: 1,
            max: i64::MAX,
        },
        "Caps the output tokens of one generation (one step).",
    )
    .presence(OptionalNonNull),
    Key::new(
        "loopGuard",
        Flag,
        "`true` aborts a generation that degenerates into a repeated string.",
    )
    .presence(OptionalNonNull),
];

pub static CONTEXT_MANAGEMENT: Place = Place {
    name: "ContextManagement",
    doc: "Automatic compaction of the context window.",
    keys: &[&[
        Key::new("summarizerWorker", Name(Refers::Worker), "The worker (declared under `workers`) that writes the running summary."),
        Key::new("thresholdPercent", Fraction, "The fraction of the context window at which compaction starts.").presence(OptionalNonNull),
        Key::new("recentPercent", Fraction, "The fraction of the context window kept verbatim.").presence(OptionalNonNull),
        Key::new("recentWindow", Any, "Deprecated and ignored: write `recentPercent`.").deprecated(&Deprecation {
            message: "`recentWindow` is deprecated and ignored",
            help: "write `recentPercent:`, the fraction of the context window kept verbatim, as in `recentPercent: 0.3`",
            note: None,
            summary: "`recentWindow` is deprecated and ignored: write `recentPercent`",
            // A count of messages, not a fraction of the window: no value
            // of one is a value of the other.
            replacement: None,
        }),
    ]],
    closed: true,
    field: false,
    deprecated: None,
};

pub static ANTHROPIC: Place = Place {
    name: "Anthropic",
    doc: "Anthropic-specific options, for Anthropic models.",
    keys: &[&[
        Key::new(
            "tools",
            MapOf(&ANTHROPIC_TOOL_MAP),
            "Anthropic provider tools: `web-search`, `code-execution`.",
        ),
        Key::new(
            "skills",
            MapOf(&ANTHROPIC_SKILLS),
            "Anthropic skills, by skill id.",
        ),
    ]],
    closed: true,
    field: false,
    deprecated: None,
};

static ANTHROPIC_TOOL_MAP: Map = Map {
    name: "AnthropicTools",
    doc: "",
    keys: MapKeys::Fixed(ANTHROPIC_TOOLS),
    entry: Nested(&ANTHROPIC_TOOL),
    entry_nullable: true,
};

pub static ANTHROPIC_TOOL: Place = Place {
    name: "AnthropicTool",
    doc: "How an Anthropic provider tool shows in the UI.",
    keys: &[&[DISPLAY_KEY, TITLE_KEY, DESCRIPTION_KEY]],
    closed: true,
    field: false,
    deprecated: None,
};

static ANTHROPIC_SKILLS: Map = Map {
    name: "",
    doc: "",
    keys: MapKeys::Any,
    entry: Nested(&ANTHROPIC_SKILL),
    entry_nullable: false,
};

pub static ANTHROPIC_SKILL: Place = Place {
    name: "AnthropicSkill",
    doc: "An Anthropic skill.",
    keys: &[&[
        Key::new("type", Choice(ANTHROPIC_SKILL_TYPES), "`anthropic` for a built-in skill (`pdf`, `xlsx`, `docx`, `pptx`), `custom` for one you uploaded.")
            .required()
            .missing("write `type: anthropic` for a built-in skill (`pdf`, `xlsx`, `docx`, `pptx`) or `type: custom` for one you uploaded"),
        Key::new("version", Text, "The skill version (default `latest`)."),
        DISPLAY_KEY,
        TITLE_KEY,
        DESCRIPTION_KEY,
    ]],
    closed: true,
    field: false,
    deprecated: None,
};

// ---------------------------------------------------------------------
// Handlers and blocks.
// ---------------------------------------------------------------------

/// Blocks by name, run in order: a handler's, or a worker's `steps`.
pub static BLOCK_MAP: Map = Map {
    name: "Blocks",
    doc: "Blocks by name (shown in the debug UI), run in order.",
    keys: MapKeys::Any,
    entry: Block,
    entry_nullable: false,
};

/// What a step of a handler or worker is, whatever its kind.
pub const BLOCK_DOC: &str = "A step of a handler or worker; `block:` says which kind.";

/// The keys every block takes, whatever its kind.
pub const BLOCK_COMMON: &[Key] = &[
    Key::new("block", BlockKind, "The kind of block.").presence(Required),
    DISPLAY_KEY,
    DESCRIPTION_KEY,
    TITLE_KEY,
];

/// The thread a block's events belong to: the default, `main`.
const THREAD: Key = Key::new(
    "thread",
    Name(Refers::Thread),
    "The thread (default `main`).",
);
const OUTPUT: Key = Key::new("output", Name(Refers::Variable), "");

/// Every block kind, in the order the docs list them.
pub static BLOCKS: [Place; 11] = [
    block_kind!(
        "next-message",
        "Generates the model's next message on a thread.",
        &[
            THREAD,
            OUTPUT.doc("The variable that receives the message (or, with `responseType`, the parsed object)."),
            Key::new("independent", Flag, "`true` keeps the message out of the main chat.").presence(OptionalNonNull),
            Key::new("responseType", TypeName, "Structured output: the object type the reply must match.").presence(OptionalNonNull),
        ],
    ),
    block_kind!(
        "add-message",
        "Adds a message to a thread.",
        &[
            THREAD,
            Key::new("role", Choice(ROLES), "Who the message is from: `user`, `assistant` or `system`.").required(),
            Key::new("prompt", Name(Refers::Prompt), "The prompt: a file under `prompts/`, without `.md`.").required(),
            Key::new("input", InputMapping, "The variables the prompt receives: `[A, B]`, `[LABEL: SOURCE]` or `{LABEL: SOURCE}`."),
            Key::new("files", Names(Refers::Variable), "Variables holding files to attach."),
            Key::new("uiContent", Name(Refers::Variable), "A variable shown in the UI instead of the prompt text."),
            Key::new("visible", Flag, "`false` hides the message from the user; the model still sees it.").presence(OptionalNonNull),
        ],
    ),
    block_kind!(
        "tool-call",
        "Calls a tool with fixed arguments.",
        &[
            Key::new("tool", Name(Refers::Tool), "The tool to call.").required(),
            Key::new("input", Arguments, "The arguments by parameter name: an UPPERCASE variable (unquoted) or a literal value."),
            OUTPUT.doc("The variable that receives the result."),
            THREAD.doc("The thread the call belongs to."),
        ],
    ),
    Place {
        deprecated: Some(&Deprecation {
            message: "the `set-resource` block is deprecated",
            help: "persist state with a `tool-call` to a tool your application implements",
            note: Some("resources are superseded by tools; the block still runs for now"),
            summary: "the `set-resource` block is deprecated: persist state with a `tool-call`",
            replacement: None,
        }),
        ..block_kind!(
            "set-resource",
            "Deprecated: sets a resource. Call a tool instead.",
            &[
                Key::new("resource", Name(Refers::Variable), "The resource to set.").required(),
                Key::new("value", Name(Refers::Variable), "The variable holding the new value.").required(),
            ],
        )
    },
    Place {
        name: "start-thread",
        doc: "Starts a named thread with its own model and settings.",
        keys: &[
            BLOCK_COMMON,
            &[
                THREAD.doc("The thread's name (default: the block's name)."),
                Key::new("model", Model, "The model: `provider/model-id` or a variable.").dynamic(),
            ],
            THREAD_SETTINGS,
            THREAD_LIMITS,
            THREAD_TOOLS,
            THREAD_BEHAVIOUR,
        ],
        closed: true,
        field: false,
        deprecated: None,
    },
    block_kind!(
        "serialize-thread",
        "Writes a thread out as text.",
        &[
            THREAD,
            Key::new("format", Choice(SERIALIZE_FORMATS), "`markdown` or `json`."),
            OUTPUT.doc("The variable that receives the text."),
        ],
    ),
    block_kind!(
        "generate-image",
        "Generates an image from a prompt variable.",
        &[
            Key::new("prompt", Name(Refers::Variable), "The variable holding the prompt (or edit instructions).").required(),
            Key::new("imageModel", Model, "The image model: `provider/model-id` or a variable.").dynamic().required(),
            Key::new("aspectRatio", AspectRatio, "The aspect ratio, as in `16:9` (default `1:1`)."),
            Key::new("resolution", Choice(RESOLUTIONS), "`1K`, `2K` or `4K` (Gemini 3 image models only)."),
            Key::new("size", Text, "Deprecated: write `aspectRatio`.").deprecated(&Deprecation {
                message: "`size` on `generate-image` is deprecated",
                help: "write `aspectRatio:` instead, as in `aspectRatio: \"16:9\"`",
                note: None,
                summary: "`size` is deprecated: write `aspectRatio`",
                // DALL-E 3's sizes, by the aspect ratio of their shape.
                replacement: Some(Replacement {
                    key: "aspectRatio",
                    values: &[("1024x1024", "1:1"), ("1792x1024", "16:9"), ("1024x1792", "9:16")],
                }),
            }),
            Key::new("referenceImages", Names(Refers::Variable), "Variables holding images to edit or transform."),
            OUTPUT.doc("The variable that receives the image."),
            THREAD.doc("The thread the image belongs to."),
        ],
    ),
    Place {
        closed: false,
        ..block_kind!(
            "generate-video",
            "Generates a short video clip from a prompt variable. Not specified by the docs: other keys are accepted too.",
            &[
                Key::new("prompt", Name(Refers::Variable), "The variable holding the prompt."),
                Key::new("videoModel", Model, "The video model: `provider/model-id` or a variable.").dynamic(),
                Key::new("aspectRatio", AspectRatio, "The aspect ratio, as in `16:9`."),
                Key::new("durationSeconds", Integer { min: 1, max: i64::MAX }, "The clip's length in seconds.").presence(OptionalNonNull),
                Key::new("referenceImages", Names(Refers::Variable), "Variables holding images to start from."),
                OUTPUT.doc("The variable that receives the video."),
                THREAD.doc("The thread the video belongs to."),
            ],
        )
    },
    block_kind!(
        "generate-speech",
        "Speaks the text of a variable.",
        &[
            Key::new("text", Name(Refers::Variable), "The variable holding the text to speak.").required(),
            Key::new("speechModel", Model, "The speech model: `provider/model-id` or a variable.").dynamic().required(),
            Key::new("voice", Text, "The voice id (provider-specific)."),
            Key::new("format", Choice(SPEECH_FORMATS), "`mp3` (default), `opus`, `aac`, `flac` or `wav`."),
            Key::new("instructions", Text, "Delivery instructions (model-dependent)."),
            Key::new("language", Text, "An ISO 639-1 language hint."),
            Key::new("speed", Number { min: 0.25, max: 4.0 }, "A speed multiplier from 0.25 to 4.").presence(OptionalNonNull),
            OUTPUT.doc("The variable that receives the audio file."),
            THREAD.doc("The thread the audio belongs to."),
        ],
    ),
    block_kind!(
        "transcribe-audio",
        "Transcribes an audio or video file.",
        &[
            Key::new("audio", Name(Refers::Variable), "The variable holding the file (a file reference or URL).").required(),
            Key::new("transcriptionModel", Model, "The transcription model: `provider/model-id` or a variable.").dynamic().required(),
            Key::new("language", Text, "An ISO 639-1 language hint (default: detected)."),
            Key::new("timestamps", Flag, "`true` asks for timestamped segments.").presence(OptionalNonNull),
            OUTPUT.doc("The variable that receives the transcript."),
            THREAD.doc("The thread the block's events belong to."),
        ],
    ),
    block_kind!(
        "run-worker",
        "Runs a worker declared under `workers`.",
        &[
            Key::new("worker", Name(Refers::Worker), "The worker to run.").required(),
            Key::new("input", InputMapping, "The worker's input: `[A, B]`, `[LABEL: SOURCE]` or `{LABEL: SOURCE}`."),
            OUTPUT.doc("The variable that receives the worker's output."),
            THREAD.doc("The thread the worker's events belong to."),
        ],
    ),
];

// ---------------------------------------------------------------------
// Types and typed fields.
// ---------------------------------------------------------------------

/// What a model value is (`model:`, `imageModel:`, ...).
pub const MODEL_DOC: &str =
    "A model as `provider/model-id`, or an UPPERCASE variable (unquoted) holding one.";

/// What an input mapping is (`input:` of a thread, `add-message` or
/// `run-worker`).
pub const INPUT_MAPPING_DOC: &str = "Variables passed on: a list of names (`[COMPANY_NAME]`), a list of `LABEL: SOURCE` pairs, or a mapping of labels to sources. The label is what the prompt sees; the value comes from the source.";

/// What a type expression is (`type:` of a field).
pub const TYPE_EXPR_DOC: &str = "A type: `string`, `number`, `integer`, `boolean`, `unknown`, `file`, a type name, or one of these followed by `[]` (quoted in YAML: `\"string[]\"`); or `array` with `items`.";

/// What a type name is where only an object type fits (`responseType:`,
/// a union's `anyOf`).
pub const TYPE_NAME_DOC: &str = "The name of an object type declared under `types`.";

/// What a named type is, before its keys say which form it takes.
pub const TYPE_DEF_DOC: &str = "A named type: an object (its properties by camelCase name), an array (`type: array` with `items`, or `type: \"T[]\"`), or a union (`anyOf` with a `discriminator`).";

pub static UNION: Place = Place {
    name: "Union",
    doc: "A union: one of several object types, told apart by the discriminator property each declares as a `string` with a `const`.",
    keys: &[&[
        Key::new(
            "anyOf",
            Variants,
            "The variants: at least two object type names.",
        )
        .presence(Required),
        Key::new(
            "discriminator",
            Text,
            "The property whose `const` tells the variants apart.",
        )
        .presence(Required),
        Key::new("description", Text, "What the union represents."),
    ]],
    closed: true,
    field: false,
    deprecated: None,
};

pub static ARRAY_TYPE: Place = Place {
    name: "ArrayType",
    doc: "A top-level array type.",
    keys: &[&[
        Key::new(
            "type",
            ArrayTypeExpr,
            "`array` (with `items`), or an element type followed by `[]`.",
        )
        .presence(Required),
        ITEMS_KEY,
        Key::new("description", Text, "What the array holds."),
    ]],
    closed: true,
    field: true,
    deprecated: None,
};

/// An object type: its properties by name.
pub static OBJECT_TYPE: Map = Map {
    name: "ObjectType",
    doc: "An object type: its properties by camelCase name, in the order a model generates them.",
    keys: MapKeys::Any,
    entry: Nested(&PROPERTY),
    entry_nullable: false,
};

const ITEMS_KEY: Key = Key::new(
    "items",
    Nested(&ITEMS),
    "The element type, with `type: array`.",
)
.presence(OptionalNonNull);
const OPTIONAL: Key = Key::new("optional", Flag, "").presence(OptionalNonNull);
const ENUM: Key =
    Key::new("enum", EnumValues, "The allowed values of a `string`.").presence(OptionalNonNull);
const CONST: Key = Key::new("const", Literal, "").presence(OptionalNonNull);
const DEFAULT: Key = Key::new("default", Any, "");

const fn type_key(doc: &'static str) -> Key {
    Key::new("type", TypeExpr, doc).presence(Required)
}

pub static PROPERTY: Place = field_place!(
    "Property",
    "A property of an object type. Required unless `optional: true`.",
    &[
        type_key("The property's type."),
        Key::new("description", Text, "What the property holds; the model reads it."),
        OPTIONAL.doc("`true` when the property may be left out."),
        ENUM,
        CONST.doc("The one allowed value, of the property's type; a union variant's discriminator has one."),
        ITEMS_KEY,
    ],
);

pub static PARAMETER: Place = field_place!(
    "Parameter",
    "A tool parameter. Required unless `optional: true`.",
    &[
        type_key("The parameter's type."),
        Key::new(
            "description",
            Text,
            "What the parameter is for; the model reads it."
        ),
        OPTIONAL.doc("`true` when the parameter may be left out."),
        ENUM,
        CONST.doc("The one allowed value, of the parameter's type."),
        ITEMS_KEY,
    ],
);

pub static ITEMS: Place = field_place!(
    "Items",
    "The element type of an array.",
    &[
        type_key("The element type."),
        Key::new("description", Text, "What each element holds."),
        ENUM.doc("The allowed values of a `string` element."),
        CONST.doc("The one allowed value, of the element's type."),
        // Written out: a constant cannot hold the place it is part of.
        Key::new(
            "items",
            Nested(&ITEMS),
            "The elements' element type, with `type: array`."
        )
        .presence(OptionalNonNull),
    ],
);

pub static INPUT: Place = field_place!(
    "Input",
    "An input of the agent or of a trigger.",
    &[
        type_key("The input's type."),
        Key::new("description", Text, "What the input is for."),
        OPTIONAL.doc("`true` when the consumer need not give it."),
        DEFAULT.doc("The value when it is not given."),
        ENUM.doc("The allowed values of a `string` input."),
        ITEMS_KEY,
    ],
);

pub static VARIABLE: Place = field_place!(
    "Variable",
    "A variable.",
    &[
        type_key("The variable's type."),
        Key::new("description", Text, "What the variable stores."),
        DEFAULT.doc("The initial value."),
        ITEMS_KEY,
    ],
);

pub static RESOURCE: Place = field_place!(
    "Resource",
    "A resource (deprecated).",
    &[
        type_key("The resource's type."),
        Key::new("description", Text, "What the resource is for."),
        DEFAULT.doc("The initial value."),
        Key::new("readonly", Flag, "`true` when the agent cannot write it.")
            .presence(OptionalNonNull),
        ITEMS_KEY,
    ],
);
