//! Discriminated unions: at least two variants, a `discriminator`, every
//! variant an object type declaring the discriminator as a required
//! `string` with a `const`, and the consts unique across the union.

use super::types::{Expected, unknown_type};
use crate::diagnostic::{Code, Diagnostic, Diagnostics};
use crate::model::Model;
use crate::span::Span;
use crate::syntax::{Builtin, Field, Name, TypeDef, TypeDefKind, TypeExprKind, Union};
use crate::yaml::Value;
use std::collections::{HashMap, HashSet};

/// `only` is the one variant, when there is one.
fn union_too_few_variants(
    name: &str,
    count: usize,
    only: Option<String>,
    span: Span,
) -> Diagnostic {
    Diagnostic::new(
        Code::UnionTooFewVariants,
        span,
        format!(
            "union `{name}` has {count} variant{}; a union needs at least two",
            if count == 1 { "" } else { "s" }
        ),
    )
    .with_help(match only {
        Some(only) => format!("use `{only}` directly instead of the union, or add another variant"),
        None => "list the variant types: `anyOf: [VariantA, VariantB]`".to_string(),
    })
}

fn variant_listed_twice(variant: &str, name: &str, span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidUnionVariant,
        span,
        format!("`{variant}` is listed twice in union `{name}`"),
    )
    .with_help("remove the repeated variant")
}

fn variant_not_named(variant: &str, span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidUnionVariant,
        span,
        format!("union variant `{variant}` is not an object type"),
    )
    .with_help("each variant is a named object type with the discriminator property")
}

/// A variant that names a union (`union`) or an array type, defined at
/// `defined`.
fn variant_not_object(variant: &str, union: bool, span: Span, defined: Span) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidUnionVariant,
        span,
        format!(
            "union variant `{variant}` is {}, not an object type",
            if union { "a union" } else { "an array type" }
        ),
    )
    .with_label(defined, format!("`{variant}` is defined here"))
    .with_help(if union {
        "list that union's variants here directly"
    } else {
        "wrap the array in an object type with the discriminator property"
    })
}

/// `property` is the name every variant has a const for, if one is.
fn missing_discriminator(name: &str, property: Option<&str>, span: Span) -> Diagnostic {
    let diagnostic = Diagnostic::new(
        Code::MissingDiscriminator,
        span,
        format!("union `{name}` has no `discriminator`"),
    );
    match property {
        Some(property) => diagnostic.with_help(format!("add `discriminator: {property}`; every variant has a `{property}` const")),
        None => diagnostic.with_help("add `discriminator: kind`, and give every variant a property `kind` with `type: string` and a distinct `const`"),
    }
}

fn missing_discriminator_property(
    variant: &str,
    discriminator: &Name,
    span: Span,
    defined: Span,
) -> Diagnostic {
    Diagnostic::new(
        Code::MissingDiscriminatorProperty,
        span,
        format!(
            "union variant `{variant}` has no discriminator property `{}`",
            discriminator.text
        ),
    )
    .with_label(defined, format!("`{variant}` is defined here"))
    .with_label(discriminator.span, "the discriminator is named here")
    .with_help(format!(
        "add to `{variant}`:\n  {}:\n    type: string\n    const: {}",
        discriminator.text,
        heck::ToSnakeCase::to_snake_case(variant)
    ))
}

/// `problem` says what is wrong (`is optional`); `value` is the const to
/// suggest; `listed` is where the union lists the variant.
fn invalid_discriminator_property(
    discriminator: &str,
    variant: &str,
    name: &str,
    problem: &str,
    value: &str,
    span: Span,
    listed: Span,
) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidDiscriminatorProperty,
        span,
        format!("discriminator `{discriminator}` of `{variant}` {problem}"),
    )
    .with_label(listed, format!("`{variant}` is a variant of union `{name}` here"))
    .with_help(format!(
        "the discriminator must be a required string with a value of its own: `{discriminator}: {{ type: string, const: {value} }}`",
    ))
}

/// `first` is the variant that has the value first and where it does;
/// `variant` the one that repeats it and where the union lists it.
fn duplicate_discriminator(
    first: (&str, Span),
    variant: (&str, Span),
    name: &str,
    discriminator: &str,
    value: &str,
    span: Span,
) -> Diagnostic {
    let ((first, first_span), (variant, listed)) = (first, variant);
    Diagnostic::new(
        Code::DuplicateDiscriminator,
        span,
        format!("variants `{first}` and `{variant}` of union `{name}` both have `{discriminator}: {value}`"),
    )
    .with_label(first_span, format!("`{first}` uses it here"))
    .with_label(listed, format!("`{variant}` is a variant here"))
    .with_help("give each variant a distinct discriminator value")
}

pub fn check_union(model: &Model, def: &TypeDef, union: &Union, diags: &mut Diagnostics) {
    let name = &def.name.text;
    if union.variants.len() < 2 {
        let only = union.variants.first().map(|only| only.display());
        diags.push(union_too_few_variants(
            name,
            union.variants.len(),
            only,
            union.any_of,
        ));
    }

    // The variants that are object types, each with its properties.
    let mut objects: Vec<(&crate::syntax::TypeExpr, &TypeDef, &[Field])> = Vec::new();
    let mut listed = HashSet::with_capacity(union.variants.len());
    for variant in &union.variants {
        if !listed.insert(variant.display()) {
            diags.push(variant_listed_twice(&variant.display(), name, variant.span));
            continue;
        }
        let TypeExprKind::Named(variant_name) = &variant.kind else {
            diags.push(variant_not_named(&variant.display(), variant.span));
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
            TypeDefKind::Union(_) | TypeDefKind::Array(_) => diags.push(variant_not_object(
                variant_name,
                matches!(target.kind, TypeDefKind::Union(_)),
                variant.span,
                target.name.span,
            )),
        }
    }

    let Some(discriminator) = &union.discriminator else {
        let property = common_const_property(&objects);
        diags.push(missing_discriminator(name, property, def.name.span));
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
            diags.push(missing_discriminator_property(
                variant_name,
                discriminator,
                variant.span,
                target.name.span,
            ));
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
            diags.push(invalid_discriminator_property(
                &discriminator.text,
                variant_name,
                name,
                problem,
                &value,
                property.name.span,
                variant.span,
            ));
            continue;
        }
        let Some(literal) = const_text else {
            // A non-string const on a string property is reported by the field check.
            continue;
        };
        let value = literal.scalar.text.as_ref();
        if let Some(&(first_span, first_variant)) = consts.get(value) {
            diags.push(duplicate_discriminator(
                (first_variant, first_span),
                (variant_name, variant.span),
                name,
                &discriminator.text,
                value,
                literal.span,
            ));
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
