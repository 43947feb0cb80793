//! Values, checked against their key's row in the grammar: the keys a
//! place takes, required keys, deprecations, and each scalar's kind,
//! choices and range. What a value means is built by the callers.

use super::{Lower, Name, Text, list};
use crate::diagnostic::{Code, Diagnostic, nearest};
use crate::grammar::{self, Deprecation, Key, Place, Replacement, Value as Kind};
use crate::span::Span;
use crate::yaml::{Entry, Node, NodeKind, Scalar, ScalarStyle, Value};

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

/// A plain scalar written as a variable name is a reference.
fn is_reference(scalar: &Scalar) -> bool {
    scalar.style == ScalarStyle::Plain && grammar::is_variable_name(&scalar.text)
}

/// How diagnostics name a key: "`sandboxTimeout` (milliseconds, at most
/// one hour)" where the unit is not obvious, otherwise "`key`".
/// Written out only when a message needs it.
fn what(key: &Key) -> KeyNamed<'_> {
    KeyNamed(key)
}

struct KeyNamed<'a>(&'a Key);

impl std::fmt::Display for KeyNamed<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.name {
            "sandboxTimeout" => f.write_str("`sandboxTimeout` (milliseconds, at most one hour)"),
            name => write!(f, "`{name}`"),
        }
    }
}

impl Lower<'_> {
    /// Reports every key of `body` that `place` does not take, and every
    /// deprecated one.
    pub(super) fn keys_of(
        &mut self,
        body: &[Entry],
        place: &Place,
        what: &(impl std::fmt::Display + ?Sized),
    ) {
        if place.closed {
            self.check_keys(body, place, what);
        }
        for entry in body {
            if let Some(deprecation) = place.key(&entry.key.text).and_then(|key| key.deprecated) {
                let help = match &deprecation.replacement {
                    Some(replacement) if !replacement.values.is_empty() => {
                        replaced_help(replacement, &entry.value)
                    }
                    _ => deprecation.help.to_string(),
                };
                let mut diagnostic = deprecated(entry.key.span, deprecation, help);
                if let Some((title, edits)) = replace(deprecation, entry, body) {
                    diagnostic = diagnostic.with_fix(title, edits);
                }
                self.push(diagnostic);
            }
        }
    }

    pub(super) fn deprecated(&mut self, span: Span, deprecation: &Deprecation, help: String) {
        self.push(deprecated(span, deprecation, help));
    }

    /// Reports each key `place` requires that `body` leaves out, at `name`,
    /// with the key's help.
    pub(super) fn required_of(
        &mut self,
        body: &[Entry],
        place: &Place,
        name: Span,
        what: &(impl std::fmt::Display + ?Sized),
    ) {
        for key in place.required() {
            if !body.iter().any(|e| e.key.text == key.name) {
                self.push(
                    Diagnostic::new(
                        Code::MissingField,
                        name,
                        format!("{what} has no `{}`", key.name),
                    )
                    .with_help(key.missing),
                );
            }
        }
    }

    /// A scalar checked against its key: its kind, choices and range. A
    /// dynamic key's UPPERCASE plain scalar is a variable instead. The
    /// value comes back as written, or `None` when it is empty, not a
    /// scalar, or not one of its choices.
    pub(super) fn scalar(&mut self, key: &Key, node: &Node) -> Option<Setting> {
        if key.dynamic {
            return self.dynamic(node, |lower, node| {
                lower.literal(key, node);
            });
        }
        self.literal(key, node).map(Setting::Literal)
    }

    /// A scalar that is not a variable, checked against its key.
    pub(super) fn literal(&mut self, key: &Key, node: &Node) -> Option<Name> {
        let what = what(key);
        match key.value {
            Kind::Text if key.name == "description" => self.description(node),
            Kind::Text | Kind::Name(_) => self.text(node, &what),
            Kind::Choice(choices) => self.choice(node, &what, choices),
            Kind::Model => self.model(node, &what),
            Kind::Flag => {
                self.boolean(node, &what);
                None
            }
            Kind::Integer { min, max } => {
                self.integer(node, &what, min, max);
                None
            }
            Kind::Number { min, max } => {
                self.multiplier(node, &what, min, max);
                None
            }
            Kind::Fraction => {
                self.fraction(node, &what);
                None
            }
            Kind::Temperature => {
                self.temperature(node);
                None
            }
            Kind::AspectRatio => {
                self.aspect_ratio(node);
                None
            }
            _ => None,
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
            text: Text::from(scalar.text.as_ref()),
            span: node.span,
        };
        if is_reference(scalar) {
            return Some(Setting::Variable(name));
        }
        literal(self, node);
        Some(Setting::Literal(name))
    }

    /// A model: `provider/model-id`.
    fn model(&mut self, node: &Node, what: &(impl std::fmt::Display + ?Sized)) -> Option<Name> {
        let name = self.text(node, what)?;
        let well_formed = name
            .text
            .split_once('/')
            .is_some_and(|(provider, id)| !provider.is_empty() && !id.is_empty());
        if !well_formed {
            self.push(
                Diagnostic::new(
                    Code::InvalidValue,
                    name.span,
                    format!("{what} `{}` is not a `provider/model-id`", name.text),
                )
                .with_help("write the provider and the model, as in `anthropic/claude-sonnet-4-5`, `openai/gpt-4o` or `google/gemini-2.5-flash`; or an UPPERCASE variable declared under `input:`"),
            );
        }
        Some(name)
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

    /// A fraction of the context window: a number above 0 and at most 1.
    fn fraction(&mut self, node: &Node, what: &(impl std::fmt::Display + ?Sized)) {
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

    /// A multiplier in `min..=max` (`speed` of `generate-speech`).
    fn multiplier(
        &mut self,
        node: &Node,
        what: &(impl std::fmt::Display + ?Sized),
        min: f64,
        max: f64,
    ) {
        let ok = match node.as_scalar().map(Scalar::value) {
            Some(Value::Int(i)) => (min..=max).contains(&(i as f64)),
            Some(Value::Float(f)) => (min..=max).contains(&f),
            _ => false,
        };
        if !ok {
            self.push(Diagnostic::new(
                Code::InvalidValue,
                node.span,
                format!(
                    "{what} must be a multiplier from {min:?} to {max:?}, found {}",
                    node.describe()
                ),
            ));
        }
    }

    /// An integer in `min..=max`.
    pub(super) fn integer(
        &mut self,
        node: &Node,
        what: &(impl std::fmt::Display + ?Sized),
        min: i64,
        max: i64,
    ) {
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

    /// A scalar that must be one of `choices`.
    pub(super) fn choice(
        &mut self,
        node: &Node,
        what: &(impl std::fmt::Display + ?Sized),
        choices: &[&str],
    ) -> Option<Name> {
        let name = self.text(node, what)?;
        if choices.contains(&name.text.as_str()) {
            Some(name)
        } else {
            self.invalid_choice(&name, what, choices);
            None
        }
    }

    pub(super) fn invalid_choice(
        &mut self,
        name: &Name,
        what: &(impl std::fmt::Display + ?Sized),
        choices: &[&str],
    ) {
        self.diags.push_with(Code::InvalidValue, || {
            let diagnostic = Diagnostic::new(
                Code::InvalidValue,
                name.span,
                format!(
                    "`{}` is not {}",
                    name.text,
                    choice_phrase(&what.to_string())
                ),
            );
            match nearest(&name.text, choices.iter().copied()) {
                Some(near) => diagnostic.did_you_mean(name.span, near),
                None => diagnostic.with_help(format!("the choices are {}", list(choices))),
            }
        });
    }

    /// A list of names (`tools: [a, b]`).
    pub(super) fn names(
        &mut self,
        node: &Node,
        what: &(impl std::fmt::Display + ?Sized),
    ) -> Vec<Name> {
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

    /// The three forms of an input mapping: `[A, B]`, `[LABEL: SOURCE]` and
    /// `{LABEL: SOURCE}`.
    pub(super) fn input_mapping(&mut self, node: &Node) -> Vec<InputMapping> {
        let mut mappings = Vec::new();
        match &node.kind {
            NodeKind::Sequence(items) => {
                for item in items {
                    match &item.kind {
                        NodeKind::Scalar(s) if !s.is_null() => {
                            let name = Name {
                                text: Text::from(s.text.as_ref()),
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
    pub(super) fn arguments(&mut self, node: &Node) -> Vec<super::Argument> {
        let mut arguments = Vec::new();
        for entry in self.mapping(node, "`tool-call` `input`").iter() {
            let value = &entry.value;
            let value = match value.as_scalar() {
                Some(scalar) if is_reference(scalar) => super::ArgumentValue::Variable(Name {
                    text: Text::from(scalar.text.as_ref()),
                    span: value.span,
                }),
                _ => super::ArgumentValue::Literal(Box::new(value.clone().into_owned())),
            };
            arguments.push(super::Argument {
                parameter: Name::of(&entry.key),
                value,
            });
        }
        arguments
    }
}

fn deprecated(span: Span, deprecation: &Deprecation, help: String) -> Diagnostic {
    let diagnostic = Diagnostic::new(Code::Deprecated, span, deprecation.message).with_help(help);
    match deprecation.note {
        Some(note) => diagnostic.with_note(note),
        None => diagnostic,
    }
}

/// The value that replaces `value` under the replacement's key, when the
/// replacement rewrites values and knows this one.
fn replaced_value(replacement: &Replacement, value: &Node) -> Option<&'static str> {
    let old = value.as_scalar()?;
    replacement
        .values
        .iter()
        .find(|(from, _)| *from == old.text)
        .map(|(_, to)| *to)
}

/// The help for a deprecated key whose replacement rewrites values (`size`
/// on `generate-image`): the value its value becomes, when it is known.
fn replaced_help(replacement: &Replacement, value: &Node) -> String {
    let key = replacement.key;
    match replaced_value(replacement, value) {
        Some(new) => format!("write `{key}: \"{new}\"` instead"),
        None => match replacement.values.first() {
            Some((_, example)) => format!("write `{key}:` instead, as in `{key}: \"{example}\"`"),
            None => format!("write `{key}:` instead"),
        },
    }
}

/// The fix of a deprecated key the grammar names a replacement for: the
/// key renamed (and its value rewritten, where the replacement rewrites
/// values and knows this one). None where the replacement is already
/// there, which the rename would repeat.
fn replace(
    deprecation: &Deprecation,
    entry: &Entry,
    body: &[Entry],
) -> Option<(String, Vec<crate::diagnostic::Edit>)> {
    use crate::diagnostic::Edit;
    let replacement = deprecation.replacement.as_ref()?;
    if body.iter().any(|e| e.key.text == replacement.key) {
        return None;
    }
    let key = Edit {
        span: entry.key.span,
        text: replacement.key.to_string(),
    };
    if replacement.values.is_empty() {
        return Some((format!("rename to `{}`", replacement.key), vec![key]));
    }
    let new = replaced_value(replacement, &entry.value)?;
    let value = Edit {
        span: entry.value.span,
        text: format!("\"{new}\""),
    };
    Some((
        format!("write `{}: \"{new}\"`", replacement.key),
        vec![key, value],
    ))
}

/// "a valid `display`" for a key; "a block kind" stays as written.
fn choice_phrase(what: &str) -> String {
    if what.starts_with('`') {
        format!("a valid {what}")
    } else {
        what.to_string()
    }
}
