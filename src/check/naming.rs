//! Naming conventions of the types language: type names are PascalCase (an
//! error: the spec requires it), property names camelCase and enum values
//! snake_case or camelCase (warnings: conventions, not rules).

use crate::diagnostic::{Code, Diagnostic, Diagnostics};
use crate::source::Span;
use crate::syntax::Name;
use heck::{ToLowerCamelCase, ToUpperCamelCase};

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

pub fn check_type_name(name: &Name, diags: &mut Diagnostics) {
    if is_pascal_case(&name.text) {
        return;
    }
    let suggestion = name.text.to_upper_camel_case();
    let diagnostic = Diagnostic::new(
        Code::InvalidTypeName,
        name.span,
        format!("type name `{}` is not PascalCase", name.text),
    );
    diags.push(if is_pascal_case(&suggestion) {
        diagnostic.with_help(format!("rename it to `{suggestion}`"))
    } else {
        diagnostic.with_help(
            "start with an uppercase letter and use only letters and digits, as in `OrderStatus`",
        )
    });
}

pub fn check_property_name(name: &Name, diags: &mut Diagnostics) {
    if is_camel_case(&name.text) {
        return;
    }
    let suggestion = name.text.to_lower_camel_case();
    let diagnostic = Diagnostic::new(
        Code::PropertyNameCase,
        name.span,
        format!("property name `{}` is not camelCase", name.text),
    );
    diags.push(if is_camel_case(&suggestion) {
        diagnostic.with_help(format!("rename it to `{suggestion}`"))
    } else {
        diagnostic.with_help(
            "start with a lowercase letter and use only letters and digits, as in `orderId`",
        )
    });
}

/// Only identifier-like values (starting with a letter) follow a naming
/// convention; `720`, `4k` or `16:9` are data, not names.
pub fn check_enum_value(value: &str, span: Span, diags: &mut Diagnostics) {
    let identifier_like = value.starts_with(|c: char| c.is_alphabetic());
    if !identifier_like || is_snake_case(value) || is_camel_case(value) || is_upper_code(value) {
        return;
    }
    let suggestion = heck::ToSnakeCase::to_snake_case(value);
    let diagnostic = Diagnostic::new(
        Code::EnumValueCase,
        span,
        format!("enum value `{value}` is not snake_case or camelCase"),
    );
    diags.push(if is_snake_case(&suggestion) {
        diagnostic.with_help(format!("write `{suggestion}`"))
    } else {
        diagnostic.with_help("use lowercase letters, digits and underscores, as in `in_stock`")
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
