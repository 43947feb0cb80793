//! Handlers and their blocks, and a worker's `steps`. Which keys a kind of
//! block takes, which it needs and what each holds are rows of
//! [`crate::grammar::BLOCKS`].

use super::sections::{Presentation, ThreadConfig};
use super::values::{InputMapping, Setting};
use super::{Lower, Name, Titled, TypeExpr};
use crate::diagnostic::{Code, Diagnostic, article};
use crate::grammar::{self, Place, Refers, Value as Kind};
use crate::span::Span;
use crate::yaml::{Entry, Node};

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
    /// In the order of [`grammar::BLOCKS`].
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

    /// The kind's row in the grammar.
    pub fn place(self) -> &'static Place {
        &grammar::BLOCKS[self as usize]
    }

    pub fn name(self) -> &'static str {
        self.place().name
    }

    /// The keys a block of this kind takes besides `block`, `display`,
    /// `description` and `title`.
    pub fn keys(self) -> Vec<&'static str> {
        self.place()
            .keys()
            .skip(grammar::BLOCK_COMMON.len())
            .map(|key| key.name)
            .collect()
    }

    /// Keys without which the block cannot run.
    pub fn required(self) -> Vec<&'static str> {
        self.place()
            .required()
            .filter(|key| key.name != "block")
            .map(|key| key.name)
            .collect()
    }

    /// Whether the value of `key` may name variables: ones the block reads
    /// or writes (`output`, `uiContent`, a `generate-image` `prompt`, ...),
    /// or a setting given by a variable (`model: MODEL`). `input`, which
    /// maps labels to variables, is apart.
    pub fn names_variables(self, key: &str) -> bool {
        self.place()
            .key(key)
            .is_some_and(grammar::Key::names_variables)
    }

    pub fn from_name(name: &str) -> Option<BlockKind> {
        BlockKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// A variable a block reads, and the key that names it (`uiContent`,
/// `value`, ...).
#[derive(Clone, Debug)]
pub struct Read {
    pub name: Name,
    pub key: &'static str,
}

/// A `tool-call` input: the parameter and its value.
#[derive(Clone, Debug)]
pub struct Argument {
    pub parameter: Name,
    pub value: ArgumentValue,
}

/// What a `tool-call` gives a parameter.
#[derive(Clone, Debug)]
pub enum ArgumentValue {
    /// A variable's value: an UPPERCASE name, written plain.
    Variable(Name),
    /// A value written in place, which the tool gets as YAML reads it
    /// (`priority: medium`, `limit: 10`, `tags: [a, b]`).
    Literal(Box<Node<'static>>),
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
    /// The models a block names, each with its key (`imageModel`,
    /// `speechModel`, ...).
    pub models: Vec<(&'static str, Setting)>,
}

impl Lower<'_> {
    pub(super) fn handlers(&mut self, node: &Node) -> Vec<Handler> {
        let entries = self.mapping(node, "`handlers`");
        super::lower_each(entries, |entry| self.handler(entry))
    }

    pub(super) fn handler(&mut self, entry: &Entry) -> Handler {
        Handler {
            trigger: Name::of(&entry.key),
            blocks: self.blocks(&entry.value, &Titled::new("handler", &entry.key.text)),
        }
    }

    pub(super) fn blocks(
        &mut self,
        node: &Node,
        place: &(impl std::fmt::Display + ?Sized),
    ) -> Vec<Block> {
        self.mapping(node, place)
            .iter()
            .map(|entry| self.block(entry))
            .collect()
    }

    fn block(&mut self, entry: &Entry) -> Block {
        let name = Name::of(&entry.key);
        let what = Titled::new("block", &entry.key.text);
        let body = self.mapping(&entry.value, &what);
        // Every kind has the common keys; the kind's own place has them too.
        let common = &grammar::BLOCKS[0];
        let mut block = Block {
            kind_span: name.span,
            name,
            kind: None,
            presentation: self.presentation(body, common),
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
        let place = kind.place();
        if let Some(deprecation) = place.deprecated {
            self.deprecated(kind_name.span, deprecation, deprecation.help.to_string());
        }
        self.keys_of(
            body,
            place,
            &format!("{} `{}` block", article(kind.name()), kind.name()),
        );
        for required in place.required() {
            if !body.iter().any(|e| e.key.text == required.name) {
                let required = required.name;
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
            self.block_key(kind, place, field, &mut block, &mut config);
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

    /// One key of a block, checked against its kind's row and kept where
    /// later stages read it.
    fn block_key(
        &mut self,
        kind: BlockKind,
        place: &Place,
        entry: &Entry,
        block: &mut Block,
        config: &mut ThreadConfig,
    ) {
        let Some(key) = place.key(&entry.key.text) else {
            return;
        };
        let value = &entry.value;
        match key.name {
            // Read with the presentation, or above.
            name if grammar::BLOCK_COMMON
                .iter()
                .any(|common| common.name == name) => {}
            "thread" => block.thread = self.literal(key, value),
            "output" => block.output = self.literal(key, value),
            _ if kind == BlockKind::StartThread => self.config_key(place, entry, config),
            "responseType" => block.response_type = self.type_expr(value, "`responseType`"),
            "input" if matches!(key.value, Kind::Arguments) => {
                block.arguments = self.arguments(value)
            }
            "input" => block.input = self.input_mapping(value),
            _ => match key.value {
                Kind::Name(Refers::Variable) => {
                    if let Some(name) = self.literal(key, value) {
                        if key.name == "resource" {
                            block.resource = Some(name);
                        } else {
                            block.reads.push(Read {
                                name,
                                key: key.name,
                            });
                        }
                    }
                }
                Kind::Names(Refers::Variable) => {
                    for name in self.names(value, &format!("`{}`", key.name)) {
                        block.reads.push(Read {
                            name,
                            key: key.name,
                        });
                    }
                }
                Kind::Name(Refers::Prompt) => block.prompt = self.literal(key, value),
                Kind::Name(Refers::Tool) => block.tool = self.literal(key, value),
                Kind::Name(Refers::Worker) => block.worker = self.literal(key, value),
                Kind::Model => {
                    if let Some(model) = self.scalar(key, value) {
                        block.models.push((key.name, model));
                    }
                }
                // Checked, not kept: later stages do not read them.
                Kind::Text
                | Kind::Flag
                | Kind::Integer { .. }
                | Kind::Number { .. }
                | Kind::Fraction
                | Kind::Temperature
                | Kind::AspectRatio
                | Kind::Choice(_) => {
                    self.scalar(key, value);
                }
                // No block's key holds these but under a name read above;
                // a new one is reported until it has an arm.
                Kind::Name(_)
                | Kind::Names(_)
                | Kind::InputMapping
                | Kind::Arguments
                | Kind::TypeExpr
                | Kind::ArrayTypeExpr
                | Kind::TypeName
                | Kind::Variants
                | Kind::EnumValues
                | Kind::Literal
                | Kind::Any
                | Kind::BlockKind
                | Kind::Nested(_)
                | Kind::MapOf(_)
                | Kind::Block
                | Kind::TypeDef => self.unread(entry, place.name),
            },
        }
    }
}
