//! Naming conventions of the types language: type names are PascalCase (an
//! error: the spec requires it), property names camelCase and enum values
//! snake_case or camelCase (warnings: conventions, not rules).

use crate::diagnostic::{Code, Diagnostic, Diagnostics, Edit};
use crate::model::Model;
use crate::model::resolve::{Occurrence, SymbolId, SymbolKind, rename_edit, unquoted};
use crate::source::Source;
use crate::span::Span;
use crate::syntax::{EnumValues, Name, TypeDef};
use crate::yaml::{Scalar, ScalarStyle, Value};
use heck::{ToKebabCase, ToLowerCamelCase, ToShoutySnakeCase, ToSnakeCase, ToUpperCamelCase};
use std::cell::OnceCell;
use std::collections::{HashMap, HashSet};

/// A name outside its convention: renamed to `suggestion` when that
/// follows it, else the convention's rule.
fn not_in_convention(
    convention: &Convention,
    name: &str,
    suggestion: &str,
    span: Span,
) -> Diagnostic {
    let diagnostic = Diagnostic::new(
        convention.code,
        span,
        format!("{} `{name}` is not {}", convention.what, convention.style),
    );
    if (convention.accepts)(suggestion) {
        diagnostic.with_help(format!("rename it to `{suggestion}`"))
    } else {
        diagnostic.with_help(convention.rule)
    }
}

/// `suggestion` is the name with each `/`-separated part made a slug.
fn prompt_name_case(name: &str, suggestion: &str, span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::SlugNameCase,
        span,
        format!("prompt name `{name}` is not lowercase-with-dashes"),
    )
    .with_help(format!(
        "rename the file and write `{suggestion}`; subfolders are joined with `/`"
    ))
}

// The conventions are ASCII: each is told byte by byte (a byte of a
// character past ASCII fails every test, as the character would).

fn is_pascal_case(name: &str) -> bool {
    name.as_bytes().first().is_some_and(u8::is_ascii_uppercase)
        && name.bytes().all(|c| c.is_ascii_alphanumeric())
}

fn is_camel_case(name: &str) -> bool {
    name.as_bytes().first().is_some_and(u8::is_ascii_lowercase)
        && name.bytes().all(|c| c.is_ascii_alphanumeric())
}

fn is_snake_case(name: &str) -> bool {
    name.as_bytes().first().is_some_and(u8::is_ascii_lowercase)
        && name
            .bytes()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_')
}

/// Codes such as `USD` or `EUR` (the spec's own example uses them).
fn is_upper_code(name: &str) -> bool {
    name.as_bytes().first().is_some_and(u8::is_ascii_uppercase)
        && name
            .bytes()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_')
}

/// One naming convention: what it accepts, how to convert a name to it,
/// and how a diagnostic describes it.
struct Convention {
    code: Code,
    /// "type name", "property name", "enum value".
    what: &'static str,
    style: &'static str,
    accepts: fn(&str) -> bool,
    convert: fn(&str) -> String,
    rule: &'static str,
}

const TYPE_NAME: Convention = Convention {
    code: Code::InvalidTypeName,
    what: "type name",
    style: "PascalCase",
    accepts: is_pascal_case,
    convert: |name| name.to_upper_camel_case(),
    rule: "start with an uppercase letter and use only letters and digits, as in `OrderStatus`",
};

const PROPERTY_NAME: Convention = Convention {
    code: Code::PropertyNameCase,
    what: "property name",
    style: "camelCase",
    accepts: is_camel_case,
    convert: |name| name.to_lower_camel_case(),
    rule: "start with a lowercase letter and use only letters and digits, as in `orderId`",
};

const ENUM_VALUE: Convention = Convention {
    code: Code::EnumValueCase,
    what: "enum value",
    style: "snake_case or camelCase",
    accepts: |v| is_snake_case(v) || is_camel_case(v) || is_upper_code(v),
    convert: |value| value.to_snake_case(),
    rule: "use lowercase letters, digits and underscores, as in `in_stock`",
};

/// `lowercase-with-dashes`: tools, triggers, skills, servers, workers,
/// references, slugs.
pub fn is_slug(name: &str) -> bool {
    // Parts of lowercase letters and digits joined by single dashes: no
    // dash first, last or twice in a row.
    let bytes = name.as_bytes();
    bytes.first().is_some_and(|&c| c != b'-')
        && bytes.last().is_some_and(|&c| c != b'-')
        && !bytes.windows(2).any(|pair| pair == b"--")
        && bytes
            .iter()
            .all(|&c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
}

const SLUG: Convention = Convention {
    code: Code::SlugNameCase,
    what: "name",
    style: "lowercase-with-dashes",
    accepts: is_slug,
    convert: |name| name.to_kebab_case(),
    rule: "use lowercase letters, digits and single dashes, as in `get-user-account`",
};

const VARIABLE: Convention = Convention {
    code: Code::VariableNameCase,
    what: "name",
    style: "UPPERCASE_SNAKE_CASE",
    accepts: crate::syntax::is_variable_name,
    convert: |name| name.to_shouty_snake_case(),
    rule: "use uppercase letters, digits and underscores, as in `USER_MESSAGE`",
};

fn problem(convention: &Convention, name: &str, span: Span) -> Option<Diagnostic> {
    if (convention.accepts)(name) {
        return None;
    }
    let suggestion = (convention.convert)(name);
    Some(not_in_convention(convention, name, &suggestion, span))
}

/// The name `convention` renames `name` to, when it has one that follows
/// the convention and reads back as the same string where it is written.
fn renamed(convention: &Convention, name: &str) -> Option<String> {
    let new = (convention.convert)(name);
    let plain = Scalar {
        text: new.as_str().into(),
        style: ScalarStyle::Plain,
    };
    ((convention.accepts)(&new) && new != name && plain.value() == Value::Str(&new)).then_some(new)
}

/// The edit that writes `new` over the name at `span`, the quotes of a
/// quoted scalar kept: none where the text there is not `old` as is (a
/// name written with escapes).
fn rewrite(source: &Source, span: Span, old: &str, new: &str) -> Option<Edit> {
    let (inner, text) = unquoted(source, span);
    (text == old).then(|| Edit {
        span: inner,
        text: new.to_string(),
    })
}

/// `diagnostic` with the fix that renames the name to `new` by `edits`.
fn with_rename(diagnostic: Diagnostic, new: &str, edits: Option<Vec<Edit>>) -> Diagnostic {
    match edits {
        Some(edits) => diagnostic.with_fix(format!("rename to `{new}`"), edits),
        None => diagnostic,
    }
}

/// The convention the declared names of a kind follow, for those the
/// rename fixes cover.
fn convention_of(kind: SymbolKind) -> Option<&'static Convention> {
    match kind {
        SymbolKind::Type => Some(&TYPE_NAME),
        SymbolKind::Variable => Some(&VARIABLE),
        SymbolKind::Tool
        | SymbolKind::Trigger
        | SymbolKind::Skill
        | SymbolKind::McpServer
        | SymbolKind::Worker => Some(&SLUG),
        SymbolKind::Thread | SymbolKind::Prompt | SymbolKind::Reference => None,
    }
}

/// How many of `names` are `new` already or would be renamed to it; each
/// name counted once.
fn targets<'n>(
    convention: &Convention,
    names: impl Iterator<Item = &'n str>,
) -> HashMap<String, usize> {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for name in names {
        *counts.entry(name.to_string()).or_default() += 1;
        if !(convention.accepts)(name) {
            let new = (convention.convert)(name);
            if new != name {
                *counts.entry(new).or_default() += 1;
            }
        }
    }
    counts
}

/// Every place of every symbol, by symbol, found once for all the rename
/// fixes of a check: each fix then costs its own places, not the file's.
struct Places<'a> {
    /// Each declaration's span, and what it declares.
    declared: HashMap<Span, SymbolId>,
    /// Each symbol's places, each once (a YAML alias repeats its anchor's).
    of: HashMap<SymbolId, Vec<&'a Occurrence>>,
    /// By kind and name: how many symbols of the kind are named so or
    /// would be renamed so.
    taken: HashMap<(SymbolKind, String), usize>,
    /// The properties a union discriminates by.
    discriminators: HashSet<&'a str>,
}

impl<'a> Places<'a> {
    fn new(model: &'a Model) -> Places<'a> {
        let resolution = model.resolution();
        let mut declared = HashMap::new();
        let mut of: HashMap<SymbolId, Vec<&Occurrence>> = HashMap::new();
        for occurrence in resolution.occurrences() {
            if occurrence.role.is_definition() {
                declared.entry(occurrence.span).or_insert(occurrence.symbol);
            }
            of.entry(occurrence.symbol).or_default().push(occurrence);
        }
        let mut taken = HashMap::new();
        for places in of.values_mut() {
            places.sort_by_key(|o| (o.span.start, o.span.end));
            places.dedup_by_key(|o| o.span);
        }
        let mut by_kind: HashMap<SymbolKind, Vec<&str>> = HashMap::new();
        for &id in of.keys() {
            let symbol = resolution.symbol(id);
            by_kind.entry(symbol.kind).or_default().push(&symbol.name);
        }
        for (kind, names) in by_kind {
            let Some(convention) = convention_of(kind) else {
                continue;
            };
            for (name, count) in targets(convention, names.into_iter()) {
                taken.insert((kind, name), count);
            }
        }
        // What `check::memo` reads of an edited type to know whether
        // this set changed: `TypeDef::discriminator`.
        let discriminators = model
            .protocol
            .types
            .iter()
            .filter_map(TypeDef::discriminator)
            .collect();
        Places {
            declared,
            of,
            taken,
            discriminators,
        }
    }
}

/// What the rename fixes read: the model, for every use of a name, and
/// the text it was lowered from, for the exact place of each.
pub struct Renaming<'a> {
    model: &'a Model,
    source: &'a Source,
    places: OnceCell<Places<'a>>,
}

impl<'a> Renaming<'a> {
    pub fn new(model: &'a Model, source: &'a Source) -> Renaming<'a> {
        Renaming {
            model,
            source,
            places: OnceCell::new(),
        }
    }

    fn places(&self) -> &Places<'a> {
        self.places.get_or_init(|| Places::new(self.model))
    }

    /// The diagnostic of a declared name outside `convention`, with the fix
    /// that renames it everywhere.
    fn symbol(&self, convention: &Convention, kind: SymbolKind, name: &Name) -> Option<Diagnostic> {
        let diagnostic = problem(convention, &name.text, name.span)?;
        let Some(new) = renamed(convention, &name.text) else {
            return Some(diagnostic);
        };
        let edits = self.rename_symbol(kind, name, &new);
        Some(with_rename(diagnostic, &new, edits))
    }

    /// The edits that rename the symbol declared at `name` to `new`, at
    /// its declaration and at every use the model's occurrences know: none
    /// when it is declared more than once, when another name of its kind
    /// is `new` or would become it, or when one of its places is not
    /// written as the name itself (a rename there would leave a dangling
    /// reference).
    fn rename_symbol(&self, kind: SymbolKind, name: &Name, new: &str) -> Option<Vec<Edit>> {
        let places = self.places();
        let resolution = self.model.resolution();
        let id = *places.declared.get(&name.span)?;
        let symbol = resolution.symbol(id);
        if symbol.kind != kind || symbol.name != name.text {
            return None;
        }
        // This name is one that would become `new`; any other is a collision.
        if places
            .taken
            .get(&(kind, new.to_string()))
            .is_none_or(|&n| n > 1)
        {
            return None;
        }
        let of = places.of.get(&id)?;
        if of.iter().filter(|o| o.role.is_definition()).count() != 1 {
            return None;
        }
        of.iter()
            .map(|o| {
                // Only where the name is written as it is (no escapes).
                rewrite(self.source, o.span, &symbol.name, new)?;
                let (span, text) = rename_edit(self.source, o.span, o.labelled, new);
                Some(Edit { span, text })
            })
            .collect()
    }
}

/// Whether a type's name is one [`check_type_name`] accepts, whatever the
/// rest of the protocol holds.
pub(super) fn follows_type_name_convention(name: &str) -> bool {
    (TYPE_NAME.accepts)(name)
}

pub fn check_type_name(renaming: &Renaming, name: &Name, diags: &mut Diagnostics) {
    diags.extend(renaming.symbol(&TYPE_NAME, SymbolKind::Type, name));
}

/// The properties of an object type: each renamed with its siblings'
/// names in mind, and not when a union discriminates by it (each
/// variant's property of that name would have to change with it).
pub fn check_property_names(
    renaming: &Renaming,
    properties: &[crate::syntax::Field],
    diags: &mut Diagnostics,
) {
    let names = || properties.iter().map(|p| p.name.text.as_str());
    if names().all(|name| (PROPERTY_NAME.accepts)(name)) {
        return;
    }
    let taken = targets(&PROPERTY_NAME, names());
    for property in properties {
        let name = &property.name;
        let Some(diagnostic) = problem(&PROPERTY_NAME, &name.text, name.span) else {
            continue;
        };
        let edits = renamed(&PROPERTY_NAME, &name.text).and_then(|new| {
            let alone = taken.get(&new) == Some(&1);
            if !alone
                || renaming
                    .places()
                    .discriminators
                    .contains(name.text.as_str())
            {
                return None;
            }
            let edit = rewrite(renaming.source, name.span, &name.text, &new)?;
            Some((new, vec![edit]))
        });
        diags.push(match edits {
            Some((new, edits)) => with_rename(diagnostic, &new, Some(edits)),
            None => diagnostic,
        });
    }
}

/// A tool, trigger, skill, server or worker name; `what` says which
/// ("tool", "trigger", ...), `kind` the symbol it declares.
pub fn check_slug(
    renaming: &Renaming,
    what: &'static str,
    kind: SymbolKind,
    name: &Name,
    diags: &mut Diagnostics,
) {
    diags.extend(renaming.symbol(&Convention { what, ..SLUG }, kind, name));
}

/// The diagnostic for a name that is not lowercase-with-dashes, if it is
/// not; for names outside the protocol (`settings.json`, file names).
pub fn slug_problem(what: &'static str, name: &str, span: Span) -> Option<Diagnostic> {
    problem(&Convention { what, ..SLUG }, name, span)
}

/// A prompt name: lowercase-with-dashes segments joined by `/`.
pub fn check_prompt_name(name: &Name, diags: &mut Diagnostics) {
    // `system.md` or `prompts/system`: the unknown-prompt check, which
    // knows the files, says what to write.
    let path_like = name.text.ends_with(".md") || name.text.starts_with("prompts/");
    if path_like || name.text.split('/').all(is_slug) {
        return;
    }
    let suggestion: Vec<String> = name.text.split('/').map(|s| s.to_kebab_case()).collect();
    diags.push(prompt_name_case(
        &name.text,
        &suggestion.join("/"),
        name.span,
    ));
}

/// An input, resource, variable or trigger input name.
pub fn check_variable_name(
    renaming: &Renaming,
    what: &'static str,
    name: &Name,
    diags: &mut Diagnostics,
) {
    let convention = Convention { what, ..VARIABLE };
    diags.extend(renaming.symbol(&convention, SymbolKind::Variable, name));
}

/// Only identifier-like values (starting with a letter) follow a naming
/// convention; `720`, `4k` or `16:9` are data, not names. A value is
/// renamed where it is written, again too, and not when a `const` or
/// `default` may name it (`valued`). Values that are not strings are
/// another code's.
pub fn check_enum_values(
    source: &Source,
    valued: bool,
    values: &EnumValues,
    diags: &mut Diagnostics,
) {
    let named = |literal: &&crate::syntax::Literal| {
        matches!(literal.scalar.value(), Value::Str(_))
            && literal.scalar.text.starts_with(|c: char| c.is_alphabetic())
    };
    let strings = || values.values.iter().filter(named);
    if strings().all(|l| (ENUM_VALUE.accepts)(&l.scalar.text)) {
        return;
    }
    let taken = targets(
        &ENUM_VALUE,
        values.values.iter().map(|l| l.scalar.text.as_ref()),
    );
    let mut again: HashMap<usize, Vec<Span>> = HashMap::new();
    for &(span, index) in &values.repeats {
        again.entry(index as usize).or_default().push(span);
    }
    for (at, literal) in values.values.iter().enumerate() {
        if !named(&literal) {
            continue;
        }
        let value = literal.scalar.text.as_ref();
        let Some(diagnostic) = problem(&ENUM_VALUE, value, literal.span) else {
            continue;
        };
        let edits = renamed(&ENUM_VALUE, value).and_then(|new| {
            if valued || taken.get(&new) != Some(&1) {
                return None;
            }
            let repeats = again.get(&at).into_iter().flatten().copied();
            let spans = std::iter::once(literal.span).chain(repeats);
            let edits: Option<Vec<Edit>> = spans
                .map(|span| rewrite(source, span, value, &new))
                .collect();
            Some((new, edits?))
        });
        diags.push(match edits {
            Some((new, edits)) => with_rename(diagnostic, &new, Some(edits)),
            None => diagnostic,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conventions() {
        assert!(is_pascal_case("OrderStatus") && is_pascal_case("HTTPResponse"));
        assert!(
            !is_pascal_case("orderStatus")
                && !is_pascal_case("Order_Status")
                && !is_pascal_case("Order-Status")
        );
        assert!(
            is_camel_case("firstName") && is_camel_case("type") && !is_camel_case("first_name")
        );
        assert!(is_snake_case("in_stock") && is_upper_code("USD") && !is_snake_case("In Stock"));
    }

    proptest::proptest! {
        /// Read byte by byte, the conventions say what they said read
        /// character by character (and split at dashes, for slugs).
        #[test]
        fn the_conventions_read_bytes_as_characters(name in "[a0-]{0,8}|[aZ0_ é-]{0,8}") {
            let parts = !name.is_empty()
                && name.split('-').all(|part| {
                    !part.is_empty() && part.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
                });
            proptest::prop_assert_eq!(is_slug(&name), parts);
            let first = |test: fn(&char) -> bool| name.chars().next().as_ref().is_some_and(test);
            let all = |test: fn(char) -> bool| name.chars().all(test);
            proptest::prop_assert_eq!(
                is_pascal_case(&name),
                first(char::is_ascii_uppercase) && all(|c| c.is_ascii_alphanumeric())
            );
            proptest::prop_assert_eq!(
                is_camel_case(&name),
                first(char::is_ascii_lowercase) && all(|c| c.is_ascii_alphanumeric())
            );
            proptest::prop_assert_eq!(
                is_snake_case(&name),
                first(char::is_ascii_lowercase)
                    && all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            );
            proptest::prop_assert_eq!(
                is_upper_code(&name),
                first(char::is_ascii_uppercase)
                    && all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            );
        }
    }
}
