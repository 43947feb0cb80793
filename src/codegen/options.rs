//! What `agentc gen` is asked for: the languages and how they read data.

/// A language agentc writes bindings in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Lang {
    /// TypeScript types: `{slug}.ts`.
    Ts,
    /// zod 4 schemas, checked at compile time against the TypeScript
    /// types: `{slug}.zod.ts`, beside `{slug}.ts`.
    Zod,
    /// pydantic v2 models: `{slug}.py`, the slug made a module name that
    /// `import` takes (`-` made `_`, `_` before a digit or after a keyword).
    Python,
}

impl Lang {
    pub const ALL: [Lang; 3] = [Lang::Ts, Lang::Zod, Lang::Python];

    pub fn name(self) -> &'static str {
        match self {
            Lang::Ts => "ts",
            Lang::Zod => "zod",
            Lang::Python => "python",
        }
    }

    /// What the language's files hold, as people name it.
    pub fn title(self) -> &'static str {
        match self {
            Lang::Ts => "TypeScript",
            Lang::Zod => "zod",
            Lang::Python => "pydantic",
        }
    }

    pub fn from_name(name: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.name() == name)
    }

    /// The file a protocol's bindings go to.
    pub fn file_name(self, slug: &str) -> String {
        match self {
            Lang::Ts => format!("{slug}.ts"),
            Lang::Zod => format!("{slug}.zod.ts"),
            Lang::Python => format!("{}.py", module_name(slug)),
        }
    }

    /// How a comment starts, for the header.
    pub fn comment(self) -> &'static str {
        match self {
            Lang::Ts | Lang::Zod => "//",
            Lang::Python => "#",
        }
    }
}

/// How generated code reads data.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Validators refuse keys the type does not declare (zod
    /// `z.strictObject`); by default they drop them, as a tolerant reader
    /// does (`[diff] readers`).
    pub strict: bool,
    /// An optional property may also be `null`, as data that passed through
    /// OpenAI's strict mode carries it.
    pub optional_null: bool,
    /// Python fields in snake_case, each with its wire name as its alias
    /// (`field-case = "snake"`); by default the wire names themselves.
    pub snake_case: bool,
}

/// Python's keywords, which a property or a module cannot be named.
pub(super) const PYTHON_KEYWORDS: [&str; 35] = [
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// The module a slug's bindings are, as `import` takes it: the slug's `-`
/// made `_`, with `_` before a leading digit (`1-agent` is `_1_agent`) and
/// after a keyword (`class` is `class_`). A slug holds only lowercase
/// letters, digits, `-` and `_` ([`super::slug`]).
fn module_name(slug: &str) -> String {
    let name = slug.replace('-', "_");
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{name}")
    } else if PYTHON_KEYWORDS.contains(&name.as_str()) {
        format!("{name}_")
    } else {
        name
    }
}
