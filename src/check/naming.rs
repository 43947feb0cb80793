//! Naming conventions of the types language: type names are PascalCase (an
//! error: the spec requires it), property names camelCase and enum values
//! snake_case or camelCase (warnings: conventions, not rules).

use crate::diagnostic::{Code, Diagnostic, Diagnostics};
use crate::span::Span;
use crate::syntax::Name;
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

fn check(convention: &Convention, name: &str, span: Span, diags: &mut Diagnostics) {
    if let Some(diagnostic) = problem(convention, name, span) {
        diags.push(diagnostic);
    }
}

pub fn check_type_name(name: &Name, diags: &mut Diagnostics) {
    check(&TYPE_NAME, &name.text, name.span, diags);
}

pub fn check_property_name(name: &Name, diags: &mut Diagnostics) {
    check(&PROPERTY_NAME, &name.text, name.span, diags);
}

/// A tool, trigger, skill, server, worker or reference name; `what` says
/// which ("tool", "trigger", ...).
pub fn check_slug(what: &'static str, name: &Name, diags: &mut Diagnostics) {
    diags.extend(slug_problem(what, &name.text, name.span));
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
pub fn check_variable_name(what: &'static str, name: &Name, diags: &mut Diagnostics) {
    let convention = Convention { what, ..VARIABLE };
    check(&convention, &name.text, name.span, diags);
}

/// Only identifier-like values (starting with a letter) follow a naming
/// convention; `720`, `4k` or `16:9` are data, not names.
pub fn check_enum_value(value: &str, span: Span, diags: &mut Diagnostics) {
    if value.starts_with(|c: char| c.is_alphabetic()) {
        check(&ENUM_VALUE, value, span, diags);
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
}
