//! Naming conventions of the types language: type names are PascalCase (an
//! error: the spec requires it), property names camelCase and enum values
//! snake_case or camelCase (warnings: conventions, not rules).

use crate::diagnostic::{Code, Diagnostic, Diagnostics, Edit};
use crate::model::Model;
use crate::model::resolve::{SymbolKind, unquoted};
use crate::source::Source;
use crate::span::Span;
use crate::syntax::{EnumValues, Name, TypeDefKind};
use crate::yaml::{Scalar, ScalarStyle, Value};
use heck::{ToKebabCase, ToLowerCamelCase, ToShoutySnakeCase, ToSnakeCase, ToUpperCamelCase};

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

fn is_pascal_case(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric())
}

fn is_camel_case(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric())
}

fn is_snake_case(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Codes such as `USD` or `EUR` (the spec's own example uses them).
fn is_upper_code(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
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
    !name.is_empty()
        && name.split('-').all(|part| {
            !part.is_empty()
                && part
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
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

/// Whether `other`, another name of the same kind as the one renamed to
/// `new`, is `new` already or would be renamed to it too.
fn collides(convention: &Convention, other: &str, new: &str) -> bool {
    other == new || (!(convention.accepts)(other) && (convention.convert)(other) == new)
}

/// `diagnostic` with the fix that renames the name to `new` by `edits`.
fn with_rename(diagnostic: Diagnostic, new: &str, edits: Option<Vec<Edit>>) -> Diagnostic {
    match edits {
        Some(edits) => diagnostic.with_fix(format!("rename to `{new}`"), edits),
        None => diagnostic,
    }
}

/// The edits that rename the symbol declared at `name` to `new`, at its
/// declaration and at every use the model's occurrences know: none when
/// it is declared more than once, when another name of its kind is `new`
/// or would become it, or when one of its places is not written as the
/// name itself (a rename there would leave a dangling reference).
fn rename_symbol(
    convention: &Convention,
    model: &Model,
    source: &Source,
    kind: SymbolKind,
    name: &Name,
    new: &str,
) -> Option<Vec<Edit>> {
    let resolution = model.resolution();
    let occurrences = resolution.occurrences();
    let declared = occurrences
        .iter()
        .find(|o| o.span == name.span && o.role.is_definition())?;
    let symbol = resolution.symbol(declared.symbol);
    if symbol.kind != kind || symbol.name != name.text {
        return None;
    }
    let others = occurrences.iter().map(|o| (o, resolution.symbol(o.symbol)));
    let mut taken = others.filter(|(o, s)| o.symbol != declared.symbol && s.kind == kind);
    if taken.any(|(_, s)| collides(convention, &s.name, new)) {
        return None;
    }
    let mut places: Vec<_> = occurrences
        .iter()
        .filter(|o| o.symbol == declared.symbol)
        .collect();
    // A YAML alias repeats its anchor's places.
    places.sort_by_key(|o| (o.span.start, o.span.end));
    places.dedup_by_key(|o| o.span);
    if places.iter().filter(|o| o.role.is_definition()).count() != 1 {
        return None;
    }
    places
        .into_iter()
        .map(|o| {
            let edit = rewrite(source, o.span, &symbol.name, new)?;
            match o.labelled {
                // `input: [X]` passes `X` as `X`: the label stays.
                true if edit.span == o.span => Some(Edit {
                    text: format!("{}: {new}", symbol.name),
                    ..edit
                }),
                true => None,
                false => Some(edit),
            }
        })
        .collect()
}

/// What the rename fixes read: the model, for every use of a name, and
/// the text it was lowered from, for the exact place of each.
#[derive(Clone, Copy)]
pub struct Renaming<'a> {
    pub model: &'a Model,
    pub source: &'a Source,
}

impl Renaming<'_> {
    /// The diagnostic of a declared name outside `convention`, with the fix
    /// that renames it everywhere.
    fn symbol(&self, convention: &Convention, kind: SymbolKind, name: &Name) -> Option<Diagnostic> {
        let diagnostic = problem(convention, &name.text, name.span)?;
        let Some(new) = renamed(convention, &name.text) else {
            return Some(diagnostic);
        };
        let edits = rename_symbol(convention, self.model, self.source, kind, name, &new);
        Some(with_rename(diagnostic, &new, edits))
    }
}

pub fn check_type_name(renaming: Renaming, name: &Name, diags: &mut Diagnostics) {
    diags.extend(renaming.symbol(&TYPE_NAME, SymbolKind::Type, name));
}

/// A property of `properties` (an object type's): renamed with its
/// siblings' names in mind, and not when a union discriminates by it
/// (each variant's property of that name would have to change with it).
pub fn check_property_name(
    renaming: Renaming,
    properties: &[crate::syntax::Field],
    name: &Name,
    diags: &mut Diagnostics,
) {
    let Some(diagnostic) = problem(&PROPERTY_NAME, &name.text, name.span) else {
        return;
    };
    let discriminates = || {
        renaming
            .model
            .protocol
            .types
            .iter()
            .any(|def| match &def.kind {
                TypeDefKind::Union(union) => union
                    .discriminator
                    .as_ref()
                    .is_some_and(|d| d.text == name.text),
                _ => false,
            })
    };
    let edits = renamed(&PROPERTY_NAME, &name.text).and_then(|new| {
        let others = properties.iter().filter(|p| p.name.span != name.span);
        if others
            .clone()
            .any(|p| collides(&PROPERTY_NAME, &p.name.text, &new))
            || discriminates()
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

/// A tool, trigger, skill, server or worker name; `what` says which
/// ("tool", "trigger", ...), `kind` the symbol it declares.
pub fn check_slug(
    renaming: Renaming,
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
    renaming: Renaming,
    what: &'static str,
    name: &Name,
    diags: &mut Diagnostics,
) {
    let convention = Convention { what, ..VARIABLE };
    diags.extend(renaming.symbol(&convention, SymbolKind::Variable, name));
}

/// Only identifier-like values (starting with a letter) follow a naming
/// convention; `720`, `4k` or `16:9` are data, not names. The value `at`
/// (of `values`) is renamed where it is written, again too, and not when
/// a `const` or `default` may name it (`valued`).
pub fn check_enum_value(
    source: &Source,
    valued: bool,
    values: &EnumValues,
    at: usize,
    diags: &mut Diagnostics,
) {
    let Some(literal) = values.values.get(at) else {
        return;
    };
    let value = literal.scalar.text.as_ref();
    if !value.starts_with(|c: char| c.is_alphabetic()) {
        return;
    }
    let Some(diagnostic) = problem(&ENUM_VALUE, value, literal.span) else {
        return;
    };
    let edits = renamed(&ENUM_VALUE, value).and_then(|new| {
        let others = values.values.iter().filter(|l| l.span != literal.span);
        if valued
            || others
                .clone()
                .any(|l| collides(&ENUM_VALUE, &l.scalar.text, &new))
        {
            return None;
        }
        let again = values.repeats.iter().filter(|(_, i)| *i as usize == at);
        let spans = std::iter::once(literal.span).chain(again.map(|(span, _)| *span));
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
}
