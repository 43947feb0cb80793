//! The fixed words a value may be, and the limits of numbers and names.

/// How something shows in the UI while it runs.
pub const DISPLAY: &[&str] = &["hidden", "name", "description", "stream", "title"];
pub const THINKING: &[&str] = &["low", "medium", "high", "max", "off"];
pub const SPEED: &[&str] = &["fast", "standard"];
pub const CACHE: &[&str] = &["auto", "extended", "off"];
pub const EXECUTION: &[&str] = &["sandbox", "device"];
pub const MCP_SOURCES: &[&str] = &["remote", "device", "consumer"];
pub const CONNECTION: &[&str] = &["eager", "lazy"];
pub const ROLES: &[&str] = &["user", "assistant", "system"];
pub const SERIALIZE_FORMATS: &[&str] = &["markdown", "json"];
pub const SPEECH_FORMATS: &[&str] = &["mp3", "opus", "aac", "flac", "wav"];
pub const RESOLUTIONS: &[&str] = &["1K", "2K", "4K"];
pub const ANTHROPIC_TOOLS: &[&str] = &["web-search", "code-execution"];
pub const ANTHROPIC_SKILL_TYPES: &[&str] = &["anthropic", "custom"];

/// Longest skill sandbox a thread may ask for: one hour, in milliseconds.
pub const MAX_SANDBOX_TIMEOUT: i64 = 3_600_000;

/// Most `[]` suffixes on one type expression. Every later stage walks the
/// nesting recursively; real protocols use one or two.
pub const MAX_LIST_DEPTH: usize = 16;

/// How variables are named (see [`super::is_variable_name`]).
pub const VARIABLE_NAME: &str = "^[A-Z][A-Z0-9_]*$";

/// How type names are written (PascalCase).
pub const TYPE_NAME: &str = "^[A-Z][A-Za-z0-9]*$";

/// JSON Schema keywords people reach for that the types language does not
/// have.
pub const UNSUPPORTED_CONSTRAINTS: &[&str] = &[
    "minItems",
    "maxItems",
    "uniqueItems",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
];

/// The built-in type names of the types language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    String,
    Number,
    Integer,
    Boolean,
    Unknown,
    File,
}

impl Builtin {
    pub const ALL: [Builtin; 6] = [
        Builtin::String,
        Builtin::Number,
        Builtin::Integer,
        Builtin::Boolean,
        Builtin::Unknown,
        Builtin::File,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Builtin::String => "string",
            Builtin::Number => "number",
            Builtin::Integer => "integer",
            Builtin::Boolean => "boolean",
            Builtin::Unknown => "unknown",
            Builtin::File => "file",
        }
    }

    pub fn from_name(name: &str) -> Option<Builtin> {
        Builtin::ALL.into_iter().find(|b| b.name() == name)
    }
}
