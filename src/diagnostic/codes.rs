//! The registry of diagnostic codes: every code agentc can report, its
//! default severity, a one-line summary, and its long explanation (the text
//! `agentc explain CODE` prints, kept in `docs/codes/CODE.md`). A code is
//! stable once released: tools and suppressions refer to it by name.

use super::{Applicability, Severity};
use serde::{Serialize, Serializer};

macro_rules! codes {
    ($($variant:ident = $name:literal, $severity:ident, $summary:literal;)*) => {
        /// A stable, kebab-case diagnostic code.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $($variant,)*
        }

        impl Code {
            /// Every code, in registry order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            pub fn name(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)*
                }
            }

            pub fn severity(self) -> Severity {
                match self {
                    $(Code::$variant => Severity::$severity,)*
                }
            }

            pub fn summary(self) -> &'static str {
                match self {
                    $(Code::$variant => $summary,)*
                }
            }

            /// The long explanation, in Markdown.
            pub fn explanation(self) -> &'static str {
                match self {
                    $(Code::$variant => include_str!(concat!("../../docs/codes/", $name, ".md")),)*
                }
            }
        }
    };
}

codes! {
    // Reading the file.
    FileTooLarge = "file-too-large", Error, "the file is larger than agentc reads";
    InvalidUtf8 = "invalid-utf8", Error, "the file is not valid UTF-8";
    NulByte = "nul-byte", Error, "the file contains a NUL byte";
    UnreadableFile = "unreadable-file", Error, "a file that cannot be read: a dangling link, a loop of links, no permission";
    NotAFile = "not-a-file", Error, "a FIFO, socket or device where a file is expected; never opened";
    LinkOutsideFolder = "link-outside-folder", Error, "a link out of the folder being checked; never followed";
    InvalidPath = "invalid-path", Error, "a path given to agentc that does not exist, cannot be read, or finds no protocol";
    TooManyProblems = "too-many-problems", Error, "more problems in one file than agentc records";

    // YAML.
    YamlSyntax = "yaml-syntax", Error, "the file is not well-formed YAML";
    MultipleDocuments = "multiple-documents", Error, "the file holds more than one YAML document";
    RootNotMapping = "root-not-mapping", Error, "the protocol is not a YAML mapping";
    DuplicateKey = "duplicate-key", Error, "a mapping, or a JSON object, has the same key twice";
    NonScalarKey = "non-scalar-key", Error, "a mapping key is a list or mapping";
    MergeKey = "merge-key", Error, "a YAML merge key (`<<`), which YAML 1.2 does not have";
    AliasLimit = "alias-limit", Error, "YAML aliases expand to too much data";
    NestingLimit = "nesting-limit", Error, "the YAML, or JSON data, is nested too deeply";
    ScalarTooLarge = "scalar-too-large", Error, "a YAML value longer than agentc reads";

    // The shape of the protocol.
    UnknownKey = "unknown-key", Error, "a key that this place does not define";
    WrongShape = "wrong-shape", Error, "a mapping, list or scalar where another is expected";
    InvalidValue = "invalid-value", Error, "a scalar that is not a valid value here";
    MissingField = "missing-field", Error, "a required key is missing";

    // The types language.
    InvalidTypeName = "invalid-type-name", Error, "a type name that is not PascalCase";
    InvalidTypeDefinition = "invalid-type-definition", Error, "a named type that is neither an object, an array nor a union";
    UnknownType = "unknown-type", Error, "a reference to a type that is not defined";
    CircularType = "circular-type", Error, "a type that contains itself";
    StandaloneObject = "standalone-object", Error, "`object` used as a type";
    BareArray = "bare-array", Error, "`array` used where its items cannot be given";
    ArrayWithoutItems = "array-without-items", Error, "`type: array` without `items`";
    UnionTooFewVariants = "union-too-few-variants", Error, "a union with fewer than two variants";
    MissingDiscriminator = "missing-discriminator", Error, "a union without a `discriminator`";
    InvalidUnionVariant = "invalid-union-variant", Error, "a union variant that is not an object type";
    MissingDiscriminatorProperty = "missing-discriminator-property", Error, "a union variant without the discriminator property";
    InvalidDiscriminatorProperty = "invalid-discriminator-property", Error, "a discriminator property that is not a required string `const`";
    DuplicateDiscriminator = "duplicate-discriminator", Error, "two union variants with the same discriminator value";
    InvalidEnum = "invalid-enum", Error, "an `enum` that is empty or has values that are not strings";
    EnumOnNonString = "enum-on-non-string", Error, "an `enum` on a field whose type is not `string`";
    DuplicateEnumValue = "duplicate-enum-value", Warning, "an `enum` lists the same value twice";
    EnumLimit = "enum-limit", Error, "an `enum` with more than 100,000 values, more than agentc reads";
    InvalidConst = "invalid-const", Error, "a `const` that is not a 64-bit literal of the field's type, or that has an `enum` beside it";
    InvalidDefault = "invalid-default", Error, "a `default` that is not a value of its field's type, or not one of its `enum` values";
    InvalidToolInput = "invalid-tool-input", Error, "a `tool-call` input written in place that is not a value of its parameter's type, or not one of its `enum` values";
    UnsupportedConstraint = "unsupported-constraint", Error, "a JSON Schema constraint the types language does not have";
    InvalidResponseType = "invalid-response-type", Error, "a `responseType` that is not an object type";
    InvalidToolParameters = "invalid-tool-parameters", Error, "tool `parameters` that are not a mapping of named parameters";

    // The protocol: cross-references and rules.
    ProtocolFormat = "protocol-format", Error, "sections of the interactive and worker formats mixed, or a format's required section missing";
    UnknownTrigger = "unknown-trigger", Error, "a handler for a trigger that is not declared";
    MissingHandler = "missing-handler", Error, "a trigger without a handler";
    UnknownTool = "unknown-tool", Error, "a reference to a tool that is not declared";
    UnknownSkill = "unknown-skill", Error, "a reference to a skill that is not declared";
    UnknownMcpServer = "unknown-mcp-server", Error, "a reference to an MCP server (or on-demand source) that is not declared";
    UnknownWorker = "unknown-worker", Error, "a reference to a worker that is not declared";
    UnknownVariable = "unknown-variable", Error, "a reference to a variable, input or resource that is not available there";
    UnknownResource = "unknown-resource", Error, "a `set-resource` of a resource that is not declared";
    ReadonlyResource = "readonly-resource", Error, "a `set-resource` of a `readonly` resource";
    InvalidOutput = "invalid-output", Error, "an `output` that does not name a declared variable";
    DuplicateVariable = "duplicate-variable", Error, "one name declared as more than one of input, resource, variable or trigger input";
    UnknownThread = "unknown-thread", Error, "a thread used before any `start-thread` creates it";
    ResponseTypeMismatch = "response-type-mismatch", Error, "a `next-message` whose output variable has another type than its reply (its `responseType`, or text)";
    ProviderOptionMismatch = "provider-option-mismatch", Error, "provider options for a provider the model does not use";
    InvalidMcpOption = "invalid-mcp-option", Error, "an MCP server option its source does not allow";
    InvalidMcpNamespace = "invalid-mcp-namespace", Error, "a `consumer` MCP server key the server SDK refuses as a namespace";
    McpToolCollision = "mcp-tool-collision", Warning, "a tool named like a tool of a `consumer` MCP server (`namespace__tool`)";
    ReservedName = "reserved-name", Error, "a name with the reserved `octavus_` prefix";
    VariableNameCase = "variable-name-case", Error, "an input, resource or variable name that is not UPPERCASE_SNAKE_CASE";
    ReadBeforeWrite = "read-before-write", Warning, "a variable read before anything can have set it";
    IneffectiveSetting = "ineffective-setting", Warning, "a setting that has no effect where it is written";
    Deprecated = "deprecated", Warning, "a deprecated section, block or field";

    // Agent folders: settings.json, prompts and references.
    InvalidJson = "invalid-json", Error, "`settings.json`, or data to validate, is not well-formed JSON";
    ByteOrderMark = "byte-order-mark", Warning, "a JSON file or event stream that starts with a UTF-8 byte order mark, which agentc reads past";
    MissingSettings = "missing-settings", Error, "an agent folder without `settings.json`";
    UnknownPrompt = "unknown-prompt", Error, "a prompt (or prompt include) whose file does not exist";
    PromptSyntax = "prompt-syntax", Error, "a malformed `{{...}}` tag or unbalanced `{{#if}}` block in a prompt";
    UnknownPromptVariable = "unknown-prompt-variable", Error, "a prompt variable that the prompt does not receive";
    UnknownEnumLiteral = "unknown-enum-literal", Error, "a prompt condition literal outside the input's `enum`";
    IncludeCycle = "include-cycle", Error, "prompts that include each other";
    UnknownReference = "unknown-reference", Error, "a reference name with no file in `references/`";
    UnusedReference = "unused-reference", Warning, "a file in `references/` that nothing lists";
    SkillFile = "skill-file", Error, "a skill folder `octavus skills sync` refuses: no `SKILL.md`, no frontmatter, or no `name`";
    SkillFrontmatter = "skill-frontmatter", Warning, "`SKILL.md` frontmatter that `octavus skills sync` ignores or drops";
    SkillSecrets = "skill-secrets", Warning, "a skill's `.env` that disagrees with the secrets `SKILL.md` declares";

    // Targets: what a consumer cannot express, and providers' limits
    // (`agentc check --target T`, `agentc emit --target T`).
    FileReference = "file-reference", Warning, "a `file` in a schema a model fills in";
    TargetNotStrict = "target-not-strict", Warning, "a schema that a provider's strict mode cannot express, emitted non-strict";
    TargetLoosened = "target-loosened", Warning, "a constraint the target cannot express, left out of its schema";
    TargetUnsupported = "target-unsupported", Error, "a schema the target cannot express at all";
    SchemaTooLarge = "schema-too-large", Error, "a schema too large or too deep to write out inline";
    InvalidToolName = "invalid-tool-name", Error, "a tool or schema name the provider does not accept";
    InvalidPropertyKey = "invalid-property-key", Error, "a parameter name the provider does not accept";
    TooManyProperties = "too-many-properties", Error, "a schema with more properties than the provider allows";
    SchemaTooDeep = "schema-too-deep", Error, "a schema nested deeper than the provider allows";
    TooManyEnumValues = "too-many-enum-values", Error, "more enum values, or longer ones, than the provider allows";
    SchemaTextTooLong = "schema-text-too-long", Error, "property names and enum values longer in total than the provider allows";
    TooManyStrictTools = "too-many-strict-tools", Error, "more strict tools in one request than the provider allows";
    TooManyOptionalProperties = "too-many-optional-properties", Error, "more optional properties in one request than the provider allows";
    TooManyUnionProperties = "too-many-union-properties", Error, "more union-typed properties in one request than the provider allows";
    UnmappedInput = "unmapped-input", Info, "an input with no faithful AAP option, left out of `GET /meta`";

    // Data (`agentc validate`).
    ValueTooLarge = "value-too-large", Error, "a JSON value to validate longer than agentc reads";
    TypeMismatch = "type-mismatch", Error, "a value of the wrong JSON type";
    MissingProperty = "missing-property", Error, "an object without a property its type requires";
    UnknownProperty = "unknown-property", Error, "an object property its type does not declare";
    ValueNotAllowed = "value-not-allowed", Error, "a value outside an `enum` or other than a `const`";
    UnknownVariant = "unknown-variant", Error, "a union value whose discriminator names no variant";
    NoMatchingVariant = "no-matching-variant", Error, "a value that matches none of the alternatives allowed there";
    SchemaViolation = "schema-violation", Error, "a value that breaks a JSON Schema rule of the data's schema";
    InvalidArguments = "invalid-arguments", Error, "tool-call arguments that are not a JSON text";
    DuplicateMessageId = "duplicate-message-id", Error, "two messages of a `RunAgentInput` with one id";
    DuplicateToolCallId = "duplicate-tool-call-id", Error, "two tool calls of a `RunAgentInput` or an AAP payload with one id";
    UnknownToolCallId = "unknown-tool-call-id", Error, "a tool message or AAP tool result that answers no earlier tool call";
    UndeclaredTool = "undeclared-tool", Warning, "a tool call to a tool that `tools` (or, for AAP, the protocol) does not list";
    UnknownOption = "unknown-option", Error, "AAP: an `agent.options` key the agent does not declare";
    InvalidOptionValue = "invalid-option-value", Error, "AAP: a select option set to a value it does not list";
    InvalidTurnMessages = "invalid-turn-messages", Error, "AAP: a turn that is not one user message or only tool results and permissions";
    InvalidEventStream = "invalid-event-stream", Error, "AAP: an SSE event without data, whose `event:` line and data disagree, or that the stream ends inside";
    EventOrder = "event-order", Error, "AAP: SSE events outside one `turn_start` ... `turn_stop` turn";
    StreamModeMismatch = "stream-mode-mismatch", Error, "AAP: delta and message events in one stream";
    DeprecatedBinaryPart = "deprecated-binary-part", Warning, "pre-1.0 AG-UI (`--ag-ui-version draft`): a legacy `binary` content part";
    BinaryPart = "binary-part", Error, "AG-UI 1.x: a legacy `binary` content part, which 1.0 removed";
    UnknownMember = "unknown-member", Warning, "a `RunAgentInput` member AG-UI does not define, tolerated (`--strict` makes it `unknown-property`)";
    InvalidProtocolVersion = "invalid-protocol-version", Warning, "a `protocolVersion` that is not `MAJOR.MINOR`";
    NewerProtocolVersion = "newer-protocol-version", Warning, "a `protocolVersion` newer than the AG-UI version validated against";
    NullForwardedProps = "null-forwarded-props", Warning, "`forwardedProps: null`, which the TypeScript SDK rejects";
    ActivityMessageInInput = "activity-message-in-input", Warning, "an activity message, which clients strip before sending";
    PayloadTooLarge = "payload-too-large", Error, "backend profile: a `RunAgentInput` over 256 KiB";
    InvalidThreadId = "invalid-thread-id", Error, "backend profile: a `threadId` that is not a UUID";
    RunIdTooLong = "run-id-too-long", Error, "backend profile: a `runId` over 128 characters";
    TooManyMessages = "too-many-messages", Error, "backend profile: more than 200 messages";
    UserTextTooLong = "user-text-too-long", Error, "backend profile: a user message over 10,000 characters";
    UserMessageCount = "user-message-count", Error, "backend profile: not exactly one user message";
    UserMessageNotFirst = "user-message-not-first", Error, "backend profile: `messages[0]` is not the user message";
    BinaryNotImage = "binary-not-image", Error, "backend profile: a `binary` part whose `mimeType` is not `image/*`";
    BinaryWithoutUrl = "binary-without-url", Error, "backend profile: a `binary` part without a `url`";
    BinaryDataNotAllowed = "binary-data-not-allowed", Error, "backend profile: a `binary` part with `data`";

    // Contract diff (`agentc diff`, `agentc check --against`): a change
    // between two versions of a protocol that the code around it can
    // notice. The severity is derived from the change and its direction
    // (`src/diff`); the one here is what `agentc explain` lists.
    ToolAdded = "tool-added", Warning, "a tool became callable, and code deployed before it has no handler";
    ToolRemoved = "tool-removed", Warning, "a tool can no longer be called";
    ToolRenamed = "tool-renamed", Error, "a tool renamed (`# agentc-renamed-from:`): old and new handlers know one name each";
    TriggerAdded = "trigger-added", Warning, "a trigger added: the protocol must be synced before code sends it";
    TriggerRemoved = "trigger-removed", Warning, "a trigger removed while deployed code may still send it";
    TriggerRenamed = "trigger-renamed", Error, "a trigger renamed (`# agentc-renamed-from:`)";
    PropertyAdded = "property-added", Info, "an optional property or parameter added";
    RequiredPropertyAdded = "required-property-added", Warning, "a required property or parameter added";
    PropertyRemoved = "property-removed", Info, "an optional property or parameter removed";
    RequiredPropertyRemoved = "required-property-removed", Warning, "a required property or parameter removed";
    PropertyRenamed = "property-renamed", Error, "a property or parameter renamed (`# agentc-renamed-from:`)";
    OptionalMadeRequired = "optional-made-required", Warning, "an optional property or parameter made required";
    RequiredMadeOptional = "required-made-optional", Warning, "a required property or parameter made optional";
    PropertyTypeChanged = "property-type-changed", Error, "a type changed to one that shares no values with it (string to boolean, T to T[])";
    PropertyTypeWidened = "property-type-widened", Warning, "a type widened (integer to number, an enum or const dropped, T to unknown)";
    PropertyTypeNarrowed = "property-type-narrowed", Warning, "a type narrowed (number to integer, string to an enum, unknown to T)";
    EnumValueAdded = "enum-value-added", Warning, "a value added to an `enum`";
    EnumValueRemoved = "enum-value-removed", Warning, "a value removed from an `enum`";
    ConstChanged = "const-changed", Error, "a `const` changed";
    VariantAdded = "variant-added", Warning, "a union gained a variant";
    VariantRemoved = "variant-removed", Warning, "a union lost a variant";
    DiscriminatorValueChanged = "discriminator-value-changed", Error, "a union variant's discriminator value changed";
    DiscriminatorChanged = "discriminator-changed", Error, "a union's `discriminator` property changed";
    ResponseTypeChanged = "response-type-changed", Error, "a `next-message` block's `responseType` names another type";
    ResponseTypeAdded = "response-type-added", Warning, "a `next-message` block that replied with text now replies with a `responseType`";
    ResponseTypeRemoved = "response-type-removed", Info, "a `next-message` block replies with text instead of its `responseType`";
    TypeRenamed = "type-renamed", Info, "a type used by a contract is now another type with the same shape";
    DescriptionChanged = "description-changed", Info, "the description of a tool or of a property, parameter or input changed";
    DiffSkipped = "diff-skipped", Warning, "the old version has errors (not compared), or the comparison reached a limit";
    MissingRevision = "missing-revision", Error, "a git revision, or an object of that version, that is not in the clone (agentc never fetches)";

    // Typed bindings (`agentc gen`).
    GenReservedName = "gen-reserved-name", Error, "a type named like a declaration the generated code makes or a global it uses, or not PascalCase";
    GenNameCollision = "gen-name-collision", Error, "a name derived for generated code (`GetOrderArgs`) that is already taken, by a type, another tool or trigger, or the generated code itself";
    GenWouldOverwrite = "gen-would-overwrite", Error, "an output file agentc did not generate, which it does not overwrite";
    GenStale = "gen-stale", Error, "a generated file that differs from what the protocol generates now (`agentc gen --check`)";

    // A new agent folder (`agentc init`).
    InitWouldOverwrite = "init-would-overwrite", Error, "a file `agentc init` would write, where something already is; nothing is written";

    // Conventions.
    PropertyNameCase = "property-name-case", Warning, "a property name that is not camelCase";
    EnumValueCase = "enum-value-case", Warning, "an enum value that is not snake_case or camelCase";
    SlugNameCase = "slug-name-case", Warning, "a tool, trigger, skill, server, worker, prompt or reference name that is not lowercase-with-dashes";

    // Configuration (`agentc.toml`) and inline suppressions.
    InvalidConfig = "invalid-config", Error, "`agentc.toml` is not well-formed, or has a key or value agentc does not know";
    GlobLimit = "glob-limit", Error, "`agentc.toml`: more than 1,000 globs in `include` or `exclude`, one longer than 256 bytes, or globs too complex to compile together";
    InvalidSuppression = "invalid-suppression", Warning, "an `agentc-ignore` comment that names no code, or one it cannot silence";
    SuppressionWithoutReason = "suppression-without-reason", Warning, "an `agentc-ignore` comment without a reason";
    UnusedSuppression = "unused-suppression", Warning, "an `agentc-ignore` comment that silences nothing";

    // The baseline (`agentc check --write-baseline`, `baseline = "FILE"`).
    InvalidBaseline = "invalid-baseline", Error, "a baseline file that is not well-formed, or has an entry agentc cannot use";
    UnusedBaselineEntry = "unused-baseline-entry", Warning, "a baseline entry that accepts more problems than the check finds";
}

impl Code {
    pub fn from_name(name: &str) -> Option<Code> {
        Code::ALL.iter().copied().find(|code| code.name() == name)
    }

    /// The code among `codes` that an unknown name `written` most likely
    /// meant: every code is compared ([`super::nearest_of_all`]), the
    /// likeliest lengths first, so a tie goes to the code nearest in
    /// length.
    pub fn nearest(
        written: &str,
        codes: impl IntoIterator<Item = Code>,
    ) -> Option<super::Near<'static>> {
        let length = written.chars().count();
        let mut candidates: Vec<&'static str> = codes.into_iter().map(Code::name).collect();
        candidates.sort_by_key(|name| name.len().abs_diff(length));
        super::nearest_of_all(written, candidates)
    }

    /// How sure the fixes this code's diagnostics carry are, for the codes
    /// that carry one (`agentc explain` says it, `agentc check --fix`
    /// applies the safe ones). A diagnostic whose fix is one answer among
    /// others says so itself ([`Applicability::Choice`]).
    pub fn fix(self) -> Option<Applicability> {
        match self {
            // A name that is one edit from the one declared name that near
            // (did-you-mean), a value quoted so YAML reads it as written,
            // a suppression's `:` or the suppression that silences
            // nothing, a baseline entry that accepts nothing: the protocol
            // means what it was written to mean.
            Code::YamlSyntax
            | Code::UnknownKey
            | Code::InvalidValue
            | Code::UnknownType
            | Code::UnknownTrigger
            | Code::UnknownTool
            | Code::UnknownSkill
            | Code::UnknownMcpServer
            | Code::UnknownWorker
            | Code::UnknownVariable
            | Code::UnknownResource
            | Code::UnknownThread
            | Code::InvalidOutput
            | Code::UnknownPrompt
            | Code::UnknownReference
            | Code::SkillFrontmatter
            | Code::InvalidSuppression
            | Code::UnusedSuppression
            | Code::UnusedBaselineEntry => Some(Applicability::Safe),
            // A `responseType` wrapped in a new object type: the name of
            // the type and of its one property are invented, and the reply
            // a consumer receives changes shape (`{ response: ... }`).
            Code::InvalidResponseType => Some(Applicability::Unsafe),
            // A deprecated key renamed to the key the grammar names in its
            // place: no replacement today keeps its value as written (a
            // `size` becomes the `aspectRatio` nearest it), so each is a
            // suggestion. A replacement that kept the value would make this
            // safe, and `size`'s fix would then have to say it is a
            // suggestion itself.
            Code::Deprecated => Some(Applicability::Suggestion),
            // A `settings.json` without `slug` given its folder's name:
            // likely (`agentc init` names an agent so), but the slug is the
            // agent's identity on the platform, which only a person knows
            // (the folder may be a copy, or the agent deployed as another).
            Code::MissingField => Some(Applicability::Unsafe),
            // A name put in its case, at its declaration and every use the
            // model knows (none where the new name is taken, or one of its
            // places is written with escapes): the protocol means the
            // same, but the contract a consumer sees (a property, a value,
            // a tool's or trigger's name) changes.
            Code::PropertyNameCase
            | Code::EnumValueCase
            | Code::SlugNameCase
            | Code::VariableNameCase
            | Code::InvalidTypeName => Some(Applicability::Unsafe),
            _ => None,
        }
    }

    /// Whether `agentc.toml` may change this code's severity and an
    /// `agentc-ignore` comment may silence it. Not for the codes that say
    /// the file could not be read as written (its bytes, its YAML or
    /// JSON, agentc's own configuration): past them, every other answer
    /// about the file is unreliable, so they always stop a check.
    pub fn can_be_silenced(self) -> bool {
        !matches!(
            self,
            Code::FileTooLarge
                | Code::InvalidUtf8
                | Code::NulByte
                | Code::UnreadableFile
                | Code::NotAFile
                | Code::LinkOutsideFolder
                | Code::InvalidPath
                | Code::TooManyProblems
                | Code::YamlSyntax
                | Code::MultipleDocuments
                | Code::RootNotMapping
                | Code::DuplicateKey
                | Code::NonScalarKey
                | Code::MergeKey
                | Code::AliasLimit
                | Code::NestingLimit
                | Code::ScalarTooLarge
                | Code::EnumLimit
                | Code::InvalidJson
                | Code::InvalidConfig
                | Code::GlobLimit
                | Code::InvalidBaseline
        )
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Code {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::Code;

    #[test]
    fn names_are_unique_kebab_case_and_explained() {
        for (i, code) in Code::ALL.iter().enumerate() {
            let name = code.name();
            assert!(
                name.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{name} is not kebab-case"
            );
            assert_eq!(Code::from_name(name), Some(*code));
            assert!(Code::ALL[..i].iter().all(|other| other.name() != name));
            assert!(
                code.explanation().starts_with(&format!("# {name}\n")),
                "docs/codes/{name}.md must start with `# {name}`"
            );
        }
    }
}
