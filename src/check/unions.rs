//! Discriminated unions: at least two variants, a `discriminator`, every
//! variant an object type declaring the discriminator as a required
//! `string` with a `const`, and the consts unique across the union.

use super::types::{Expected, unknown_type};
use crate::diagnostic::{Code, Diagnostic, Diagnostics};
use crate::model::Model;
use crate::span::Span;
use crate::syntax::{Builtin, Field, TypeDef, TypeDefKind, TypeExprKind, Union};
use crate::yaml::Value;
use std::collections::{HashMap, HashSet};

pub fn check_union(model: &Model, def: &TypeDef, union: &Union, diags: &mut Diagnostics) {
    let name = &def.name.text;
    if union.variants.len() < 2 {
        diags.push(
            Diagnostic::new(
                Code::UnionTooFewVariants,
                union.any_of,
                format!(
                    "union `{name}` has {} variant{}; a union needs at least two",
                    union.variants.len(),
                    if union.variants.len() == 1 { "" } else { "s" }
                ),
            )
            .with_help(match union.variants.first() {
                Some(only) => format!(
                    "use `{}` directly instead of the union, or add another variant",
                    only.display()
                ),
                None => "list the variant types: `anyOf: [VariantA, VariantB]`".to_string(),
            }),
        );
    }

    // The variants that are object types, each with its properties.
    let mut objects: Vec<(&crate::syntax::TypeExpr, &TypeDef, &[Field])> = Vec::new();
    let mut listed = HashSet::with_capacity(union.variants.len());
    for variant in &union.variants {
        if !listed.insert(variant.display()) {
            diags.push(
                Diagnostic::new(
                    Code::InvalidUnionVariant,
                    variant.span,
                    format!("`{}` is listed twice in union `{name}`", variant.display()),
                )
                .with_help("remove the repeated variant"),
            );
            continue;
        }
        let TypeExprKind::Named(variant_name) = &variant.kind else {
            diags.push(
                Diagnostic::new(
                    Code::InvalidUnionVariant,
                    variant.span,
                    format!(
                        "union variant `{}` is not an object type",
                        variant.display()
                    ),
                )
                .with_help("each variant is a named object type with the discriminator property"),
            );
            continue;
        };
        let Some(id) = model.lookup(variant_name) else {
            diags.push_with(Code::UnknownType, || {
                unknown_type(model, variant_name, variant.span, Expected::ObjectType)
            });
            continue;
        };
        let target = model.def(id);
        match &target.kind {
            TypeDefKind::Object(properties) => objects.push((variant, target, properties)),
            TypeDefKind::Invalid => {}
            TypeDefKind::Union(_) | TypeDefKind::Array(_) => diags.push(
                Diagnostic::new(
                    Code::InvalidUnionVariant,
                    variant.span,
                    format!(
                        "union variant `{variant_name}` is {}, not an object type",
                        if matches!(target.kind, TypeDefKind::Union(_)) {
                            "a union"
                        } else {
                            "an array type"
                        }
                    ),
                )
                .with_label(
                    target.name.span,
                    format!("`{variant_name}` is defined here"),
                )
                .with_help(if matches!(target.kind, TypeDefKind::Union(_)) {
                    "list that union's variants here directly"
                } else {
                    "wrap the array in an object type with the discriminator property"
                }),
            ),
        }
    }

    let Some(discriminator) = &union.discriminator else {
        let mut diagnostic = Diagnostic::new(
            Code::MissingDiscriminator,
            def.name.span,
            format!("union `{name}` has no `discriminator`"),
        );
        diagnostic = match common_const_property(&objects) {
            Some(property) => diagnostic.with_help(format!("add `discriminator: {property}`; every variant has a `{property}` const")),
            None => diagnostic.with_help("add `discriminator: kind`, and give every variant a property `kind` with `type: string` and a distinct `const`"),
        };
        diags.push(diagnostic);
        return;
    };

    // Each discriminator value, with where and in which variant it first appears.
    let mut consts: HashMap<&str, (Span, &str)> = HashMap::new();
    for (variant, target, properties) in objects {
        let variant_name = &target.name.text;
        let Some(property) = properties
            .iter()
            .find(|p| p.name.text == discriminator.text)
        else {
            diags.push(
                Diagnostic::new(
                    Code::MissingDiscriminatorProperty,
                    variant.span,
                    format!(
                        "union variant `{variant_name}` has no discriminator property `{}`",
                        discriminator.text
                    ),
                )
                .with_label(
                    target.name.span,
                    format!("`{variant_name}` is defined here"),
                )
                .with_label(discriminator.span, "the discriminator is named here")
                .with_help(format!(
                    "add to `{variant_name}`:\n  {}:\n    type: string\n    const: {}",
                    discriminator.text,
                    heck::ToSnakeCase::to_snake_case(variant_name.as_str())
                )),
            );
            continue;
        };
        let is_string = property
            .ty
            .as_ref()
            .is_some_and(|t| t.kind == TypeExprKind::Builtin(Builtin::String));
        let const_text = property
            .const_value
            .as_ref()
            .filter(|c| matches!(c.scalar.value(), Value::Str(_)));
        let problem = if !is_string {
            Some("is not a `string`")
        } else if property.optional {
            Some("is optional")
        } else if property.const_value.is_none() {
            Some("has no `const`")
        } else {
            None
        };
        if let Some(problem) = problem {
            let value = property.const_value.as_ref().map_or_else(
                || heck::ToSnakeCase::to_snake_case(variant_name.as_str()),
                |c| c.scalar.text.to_string(),
            );
            diags.push(
                Diagnostic::new(
                    Code::InvalidDiscriminatorProperty,
                    property.name.span,
                    format!("discriminator `{}` of `{variant_name}` {problem}", discriminator.text),
                )
                .with_label(variant.span, format!("`{variant_name}` is a variant of union `{name}` here"))
                .with_help(format!(
                    "the discriminator must be a required string with a value of its own: `{}: {{ type: string, const: {value} }}`",
                    discriminator.text,
                )),
            );
            continue;
        }
        let Some(literal) = const_text else {
            // A non-string const on a string property is reported by the field check.
            continue;
        };
        let value = literal.scalar.text.as_ref();
        if let Some(&(first_span, first_variant)) = consts.get(value) {
            diags.push(
                Diagnostic::new(
                    Code::DuplicateDiscriminator,
                    literal.span,
                    format!("variants `{first_variant}` and `{variant_name}` of union `{name}` both have `{}: {value}`", discriminator.text),
                )
                .with_label(first_span, format!("`{first_variant}` uses it here"))
                .with_label(variant.span, format!("`{variant_name}` is a variant here"))
                .with_help("give each variant a distinct discriminator value"),
            );
        } else {
            consts.insert(value, (literal.span, variant_name));
        }
    }
}

/// A property name that every variant declares with a `const`: the likely
/// discriminator when none is named. The candidates only shrink, so the
/// work is linear in the properties read.
fn common_const_property<'a>(
    objects: &[(&crate::syntax::TypeExpr, &TypeDef, &'a [Field])],
) -> Option<&'a str> {
    let const_names = |properties: &'a [Field]| {
        properties
            .iter()
            .filter(|p| p.const_value.is_some())
            .map(|p| p.name.text.as_str())
    };
    let (_, _, first) = objects.first()?;
    let mut candidates: Vec<&str> = const_names(first).collect();
    for (_, _, properties) in &objects[1..] {
        let names: HashSet<&str> = const_names(properties).collect();
        candidates.retain(|c| names.contains(c));
    }
    candidates.first().copied()
}
