//! The structural comparison of one contract's old and new schema: both
//! lowered with references kept ([`Mode::Refs`]), walked in parallel,
//! references followed on both sides, each pair of named types compared
//! once per contract (so a type used many times, or a chain of types each
//! used twice, costs its size and not its expansion).
//!
//! Each change found records whether the new schema accepts only values
//! the old one did (narrowed) and whether it accepts every value the old
//! one did (widened), for the node it is at: the inclusion test, done
//! where the difference is. Objects are compared as their reader reads
//! them ([`Reader`]).

use super::change::{Change, Reader, Version};
use super::hints;
use super::renames::{rename_candidates, shape, undeclared_rename};
use crate::diagnostic::{Code, MAX_DIAGNOSTICS, Surface};
use crate::emit::lower::{Kind, Lowering, Mode, Primitive, Property, Schema};
use crate::model::TypeId;
use crate::span::Span;
use crate::syntax::{Literal, TypeDefKind};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

/// One side of the comparison.
#[derive(Clone, Copy)]
pub(super) struct Side<'m> {
    pub version: Version<'m>,
    pub lowering: Lowering<'m>,
}

impl<'m> Side<'m> {
    pub fn new(version: Version<'m>) -> Side<'m> {
        Side {
            version,
            lowering: Lowering::new(version.model, Mode::Refs),
        }
    }

    /// The schema a reference stands for, seen from where it is used, and
    /// the type it names; any other schema as it is.
    fn resolve<'s>(
        &self,
        schema: &'s Schema<'m>,
    ) -> (Cow<'s, Schema<'m>>, Option<(&'m str, TypeId)>) {
        if let Kind::Ref(name) = schema.kind
            && let Some(id) = self.version.model.lookup(name)
        {
            let mut definition = self.lowering.definition(id);
            if schema.description.is_some() {
                definition.description = schema.description;
            }
            return (Cow::Owned(definition), Some((name, id)));
        }
        (Cow::Borrowed(schema), None)
    }

    /// The `discriminator` of the union type `id`.
    fn discriminator(&self, id: Option<TypeId>) -> Option<(&'m str, Span)> {
        match &self.version.model.def(id?).kind {
            TypeDefKind::Union(union) => union
                .discriminator
                .as_ref()
                .map(|d| (d.text.as_str(), d.span)),
            _ => None,
        }
    }
}

/// Compares the schemas of one contract.
pub(super) struct Walk<'a, 'm> {
    pub old: Side<'m>,
    pub new: Side<'m>,
    pub surface: Surface,
    pub contract: String,
    pub reader: Reader,
    /// Pairs of named types already compared in this contract.
    seen: HashSet<(TypeId, TypeId)>,
    /// How many times a pair was skipped as already compared here.
    skipped: usize,
    pub out: &'a mut Vec<Change>,
    /// Nodes left to compare in the whole diff; at zero, the walk stops.
    pub limits: &'a mut Limits,
    /// How many schemas deep the walk is.
    depth: usize,
}

/// What bounds one diff's work, shared by its contracts.
#[derive(Debug)]
pub(super) struct Limits {
    /// Nodes left to compare; at zero, the walk stops.
    pub budget: usize,
    /// How many times a schema nested deeper than [`MAX_DEPTH`] was left
    /// out.
    pub too_deep: usize,
    /// Pairs of named types (old, new, reader) compared whole without a
    /// change: any contract that reaches them again skips them, so a type
    /// many contracts share is compared once.
    pub clean: HashSet<(TypeId, TypeId, Reader)>,
    /// Changes found past [`MAX_DIAGNOSTICS`], counted, not kept.
    pub dropped: usize,
}

/// The deepest the walk follows schemas (through references, which YAML's
/// own nesting limit does not bound): a chain of thousands of types, each
/// naming the next, costs no stack.
pub(super) const MAX_DEPTH: usize = 128;

/// How a schema's kind reads in a message.
fn describe(kind: &Kind) -> String {
    match kind {
        Kind::Any => "`unknown`".to_string(),
        Kind::File => "`file`".to_string(),
        Kind::Primitive { ty, .. } => format!("`{}`", ty.name()),
        Kind::Array(_) => "an array".to_string(),
        Kind::Object(_) => "an object".to_string(),
        Kind::Union(_) => "a union".to_string(),
        Kind::Ref(name) => format!("`{name}`"),
    }
}

/// `path` as a message names it.
fn named(path: &str) -> String {
    if path.is_empty() {
        "the value".to_string()
    } else {
        format!("`{path}`")
    }
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

/// A literal as a comparable key and as text for a message.
fn literal(value: &Literal) -> (String, String) {
    (
        format!("{:?}", value.scalar.value()),
        value.scalar.text.to_string(),
    )
}

/// The values an `enum` or `const` allows, or `None` for every value of
/// the type; and whether it is a `const`.
fn allowed<'m>(
    enum_values: Option<&'m [Literal]>,
    constant: Option<&'m Literal>,
) -> Option<(Vec<&'m Literal>, bool)> {
    match (constant, enum_values) {
        (Some(constant), _) => Some((vec![constant], true)),
        (None, Some(values)) => Some((values.iter().collect(), false)),
        (None, None) => None,
    }
}

impl<'a, 'm> Walk<'a, 'm> {
    pub fn new(
        old: Side<'m>,
        new: Side<'m>,
        surface: Surface,
        contract: String,
        reader: Reader,
        out: &'a mut Vec<Change>,
        limits: &'a mut Limits,
    ) -> Walk<'a, 'm> {
        Walk {
            old,
            new,
            surface,
            contract,
            reader,
            seen: HashSet::new(),
            skipped: 0,
            out,
            limits,
            depth: 0,
        }
    }

    /// Records a change at `at` (new) and `was` (old); the change recorded,
    /// none past the limit.
    #[allow(clippy::too_many_arguments)]
    pub fn push(
        &mut self,
        code: Code,
        at: Span,
        was: Option<Span>,
        path: &str,
        narrowed: bool,
        widened: bool,
        message: String,
        help: Option<String>,
    ) -> Option<&mut Change> {
        if self.out.len() >= MAX_DIAGNOSTICS {
            self.limits.dropped += 1;
            return None;
        }
        self.out.push(Change {
            code,
            at,
            was,
            surface: self.surface,
            contract: self.contract.clone(),
            path: path.to_string(),
            subject: String::new(),
            message,
            help,
            narrowed,
            widened,
        });
        self.out.last_mut()
    }

    /// [`Self::push`] of a change whose code, contract and path do not say
    /// what it made of the value or type there: `subject` does.
    #[allow(clippy::too_many_arguments)]
    fn push_about(
        &mut self,
        subject: String,
        code: Code,
        at: Span,
        was: Option<Span>,
        path: &str,
        (narrowed, widened): (bool, bool),
        message: String,
        help: Option<String>,
    ) {
        if let Some(change) = self.push(code, at, was, path, narrowed, widened, message, help) {
            change.subject = subject;
        }
    }

    /// Records a change of the node itself: at the new node, with the old
    /// one as where it was, and no help of its own.
    fn node(
        &mut self,
        code: Code,
        path: &str,
        (old, new): (&Schema<'m>, &Schema<'m>),
        (narrowed, widened): (bool, bool),
        message: String,
        subject: String,
    ) {
        self.push_about(
            subject,
            code,
            new.span,
            Some(old.span),
            path,
            (narrowed, widened),
            message,
            None,
        );
    }

    /// Compares two schemas at `path`, following references.
    pub fn compare(&mut self, path: &str, old: &Schema<'m>, new: &Schema<'m>) {
        if self.limits.budget == 0 {
            return;
        }
        if self.depth >= MAX_DEPTH {
            self.limits.too_deep += 1;
            return;
        }
        self.limits.budget -= 1;
        self.depth += 1;
        self.compare_at(path, old, new);
        self.depth -= 1;
    }

    fn compare_at(&mut self, path: &str, old: &Schema<'m>, new: &Schema<'m>) {
        if old.description != new.description
            && let (Some(_), Some(_)) = (old.description, new.description)
        {
            self.push(
                Code::DescriptionChanged,
                new.span,
                Some(old.span),
                path,
                true,
                true,
                format!("the description of {} changed", named(path)),
                Some(
                    "the model reads descriptions: check that what it produces still fits"
                        .to_string(),
                ),
            );
        }
        let (old_schema, old_type) = self.old.resolve(old);
        let (new_schema, new_type) = self.new.resolve(new);
        let (Some((old_name, old_id)), Some((new_name, new_id))) = (old_type, new_type) else {
            self.kinds(
                path,
                &old_schema,
                &new_schema,
                old_type.map(|t| t.1),
                new_type.map(|t| t.1),
            );
            return;
        };
        // Two named types: compared once per contract, and not at all once
        // known to hold no change (for any contract with this reader).
        let pair = (old_id, new_id, self.reader);
        let renamed = |walk: &mut Self| {
            if old_name != new_name {
                walk.push(
                    Code::TypeRenamed,
                    new.span,
                    Some(old.span),
                    path,
                    true,
                    true,
                    format!(
                        "{} is now of type `{new_name}` instead of `{old_name}`, which has the same shape",
                        named(path)
                    ),
                    Some("values are unchanged; code generated from the protocol names the type differently".to_string()),
                );
            }
        };
        if self.limits.clean.contains(&pair) {
            renamed(self);
            return;
        }
        if !self.seen.insert((old_id, new_id)) {
            // Compared earlier in this contract, and its changes reported
            // there: what encloses it is not known to be clean.
            self.skipped += 1;
            return;
        }
        let before = (
            self.out.len(),
            self.limits.dropped,
            self.limits.too_deep,
            self.skipped,
        );
        self.kinds(path, &old_schema, &new_schema, Some(old_id), Some(new_id));
        let after = (
            self.out.len(),
            self.limits.dropped,
            self.limits.too_deep,
            self.skipped,
        );
        if before == after && self.limits.budget > 0 {
            self.limits.clean.insert(pair);
            renamed(self);
        }
    }

    /// Compares two resolved schemas; `old_type` and `new_type` are the
    /// named types they come from, if any.
    pub fn kinds(
        &mut self,
        path: &str,
        old: &Schema<'m>,
        new: &Schema<'m>,
        old_type: Option<TypeId>,
        new_type: Option<TypeId>,
    ) {
        match (&old.kind, &new.kind) {
            (Kind::Any, Kind::Any) | (Kind::File, Kind::File) => {}
            (_, Kind::Any) => self.node(
                Code::PropertyTypeWidened,
                path,
                (old, new),
                (false, true),
                format!(
                    "{} was {} and is now `unknown`",
                    named(path),
                    describe(&old.kind)
                ),
                format!("{} -> unknown", describe(&old.kind)),
            ),
            (Kind::Any, _) => self.node(
                Code::PropertyTypeNarrowed,
                path,
                (old, new),
                (true, false),
                format!(
                    "{} was `unknown` and is now {}",
                    named(path),
                    describe(&new.kind)
                ),
                format!("unknown -> {}", describe(&new.kind)),
            ),
            (Kind::File, _) => {
                let file = Schema::file_object(old.span, old.description);
                self.kinds(path, &file, new, old_type, new_type);
            }
            (_, Kind::File) => {
                let file = Schema::file_object(new.span, new.description);
                self.kinds(path, old, &file, old_type, new_type);
            }
            (
                Kind::Primitive {
                    ty: old_ty,
                    enum_values: old_enum,
                    constant: old_const,
                },
                Kind::Primitive {
                    ty: new_ty,
                    enum_values: new_enum,
                    constant: new_const,
                },
            ) => {
                if old_ty != new_ty {
                    self.primitive_changed(path, old, new, *old_ty, *new_ty);
                } else {
                    let old_values = allowed(*old_enum, *old_const);
                    let new_values = allowed(*new_enum, *new_const);
                    self.values(path, old, new, old_values, new_values);
                }
            }
            (Kind::Array(old_items), Kind::Array(new_items)) => {
                self.compare(&format!("{path}[]"), old_items, new_items);
            }
            (Kind::Object(old_properties), Kind::Object(new_properties)) => {
                self.objects(path, new, old_properties, new_properties);
            }
            (Kind::Union(old_variants), Kind::Union(new_variants)) => {
                self.unions(
                    path,
                    (old_variants, old_type),
                    (new, new_variants, new_type),
                );
            }
            // A union narrowed to one of its variants, or a variant widened
            // to a union of it and others: every value of the narrower is
            // one of the wider.
            (Kind::Union(variants), Kind::Object(_))
                if self.is_variant(&self.old, variants, new_type.map(|id| (&self.new, id))) =>
            {
                self.union_and_variant(path, (old, new), true, (old_type, new_type));
            }
            (Kind::Object(_), Kind::Union(variants))
                if self.is_variant(&self.new, variants, old_type.map(|id| (&self.old, id))) =>
            {
                self.union_and_variant(path, (old, new), false, (old_type, new_type));
            }
            _ => self.node(
                Code::PropertyTypeChanged,
                path,
                (old, new),
                (false, false),
                format!(
                    "{} was {} and is now {}",
                    named(path),
                    describe(&old.kind),
                    describe(&new.kind)
                ),
                format!("{} -> {}", describe(&old.kind), describe(&new.kind)),
            ),
        }
    }

    fn primitive_changed(
        &mut self,
        path: &str,
        old: &Schema<'m>,
        new: &Schema<'m>,
        old_ty: Primitive,
        new_ty: Primitive,
    ) {
        let message = format!(
            "{} was `{}` and is now `{}`",
            named(path),
            old_ty.name(),
            new_ty.name()
        );
        let (code, narrowed, widened) = match (old_ty, new_ty) {
            (Primitive::Integer, Primitive::Number) => (Code::PropertyTypeWidened, false, true),
            (Primitive::Number, Primitive::Integer) => (Code::PropertyTypeNarrowed, true, false),
            _ => (Code::PropertyTypeChanged, false, false),
        };
        let subject = format!("{} -> {}", old_ty.name(), new_ty.name());
        self.node(
            code,
            path,
            (old, new),
            (narrowed, widened),
            message,
            subject,
        );
    }

    /// Compares what an `enum` or `const` allows on each side.
    fn values(
        &mut self,
        path: &str,
        old: &Schema<'m>,
        new: &Schema<'m>,
        old_values: Option<(Vec<&'m Literal>, bool)>,
        new_values: Option<(Vec<&'m Literal>, bool)>,
    ) {
        let list = |values: &[&Literal]| {
            values
                .iter()
                .map(|v| format!("`{}`", literal(v).1))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match (old_values, new_values) {
            (None, None) => {}
            (Some((values, _)), None) => self.node(
                Code::PropertyTypeWidened,
                path,
                (old, new),
                (false, true),
                format!("{} is no longer limited to {}", named(path), list(&values)),
                format!("{} -> any", list(&values)),
            ),
            (None, Some((values, _))) => self.node(
                Code::PropertyTypeNarrowed,
                path,
                (old, new),
                (true, false),
                format!("{} is now limited to {}", named(path), list(&values)),
                format!("any -> {}", list(&values)),
            ),
            (Some((old_values, true)), Some((new_values, true))) => {
                let (old_key, old_text) = literal(old_values[0]);
                let (new_key, new_text) = literal(new_values[0]);
                if old_key != new_key {
                    self.push_about(
                        format!("{old_key} -> {new_key}"),
                        Code::ConstChanged,
                        new_values[0].span,
                        Some(old_values[0].span),
                        path,
                        (false, false),
                        format!(
                            "{} was the constant `{old_text}` and is now `{new_text}`",
                            named(path)
                        ),
                        None,
                    );
                }
            }
            (Some((old_values, _)), Some((new_values, _))) => {
                let old_keys: HashSet<String> = old_values.iter().map(|v| literal(v).0).collect();
                let new_keys: HashSet<String> = new_values.iter().map(|v| literal(v).0).collect();
                for value in &new_values {
                    let (key, text) = literal(value);
                    if !old_keys.contains(&key) {
                        self.push_about(
                            key,
                            Code::EnumValueAdded,
                            value.span,
                            Some(old.span),
                            path,
                            (false, true),
                            format!("{} can now be `{text}`", named(path)),
                            None,
                        );
                    }
                }
                for value in &old_values {
                    let (key, text) = literal(value);
                    if !new_keys.contains(&key) {
                        self.push_about(
                            key,
                            Code::EnumValueRemoved,
                            new.span,
                            Some(value.span),
                            path,
                            (true, false),
                            format!("{} can no longer be `{text}`", named(path)),
                            None,
                        );
                    }
                }
            }
        }
    }

    fn objects(
        &mut self,
        path: &str,
        new: &Schema<'m>,
        old_properties: &[Property<'m>],
        new_properties: &[Property<'m>],
    ) {
        let strict = self.reader == Reader::Strict;
        // By name, so an object of many properties costs linear time.
        let mut old_index: HashMap<&str, usize> = HashMap::with_capacity(old_properties.len());
        for (i, property) in old_properties.iter().enumerate() {
            old_index.entry(property.name).or_insert(i);
        }
        let new_names: HashSet<&str> = new_properties.iter().map(|p| p.name).collect();
        let mut kept = vec![false; old_properties.len()];
        // Neither there before nor declared renamed.
        let mut added: Vec<&Property<'m>> = Vec::new();
        for property in new_properties {
            let here = join(path, property.name);
            if let Some(&i) = old_index.get(property.name) {
                kept[i] = true;
                let was = &old_properties[i];
                self.optionality(&here, was, property);
                self.compare(&here, &was.schema, &property.schema);
                continue;
            }
            let renamed = hints::renamed_from(self.new.version.source, property.name_span)
                .filter(|from| !new_names.contains(from))
                .and_then(|from| old_index.get(from).copied())
                .filter(|&i| !kept[i]);
            if let Some(i) = renamed {
                kept[i] = true;
                let was = &old_properties[i];
                self.push(
                    Code::PropertyRenamed,
                    property.name_span,
                    Some(was.name_span),
                    &here,
                    false,
                    false,
                    format!("`{}` was renamed `{}`", join(path, was.name), here),
                    Some(
                        "values written for one name are not read under the other: keep both names until both sides have moved"
                            .to_string(),
                    ),
                );
                self.optionality(&here, was, property);
                self.compare(&here, &was.schema, &property.schema);
                continue;
            }
            added.push(property);
        }
        let removed: Vec<&Property<'m>> = old_properties
            .iter()
            .zip(&kept)
            .filter(|(_, kept)| !**kept)
            .map(|(property, _)| property)
            .collect();
        // An added and a removed property of the same shape and the same
        // optionality: as severe as a declared rename (each version's code
        // knows one name), with the line that declares it.
        let key = |property: &&Property<'m>| {
            let optional = if property.optional { "?" } else { "!" };
            format!("{optional}{}", shape(&property.schema))
        };
        let pairs = rename_candidates(&added, &removed, key, key);
        for (i, property) in added.iter().enumerate() {
            let here = join(path, property.name);
            let renamed = pairs.added[i]
                .map(|j| undeclared_rename("property", removed[j].name, property.name));
            let (code, message, help) = match property.optional {
                true => (
                    Code::PropertyAdded,
                    format!("optional `{here}` was added"),
                    None,
                ),
                false => (
                    Code::RequiredPropertyAdded,
                    format!("required `{here}` was added"),
                    Some(format!(
                        "values made before this change have no `{}`: make it optional, or give readers a default",
                        property.name
                    )),
                ),
            };
            let flags = match (&renamed, property.optional) {
                (Some(_), _) => (false, false),
                (None, true) => (!strict, true),
                (None, false) => (!strict, false),
            };
            self.push(
                code,
                property.name_span,
                None,
                &here,
                flags.0,
                flags.1,
                message,
                renamed.or(help),
            );
        }
        for (j, property) in removed.iter().enumerate() {
            let here = join(path, property.name);
            let renamed = pairs.removed[j]
                .map(|i| undeclared_rename("property", property.name, added[i].name));
            let (code, message, help) = match property.optional {
                true => (
                    Code::PropertyRemoved,
                    format!("optional `{here}` was removed"),
                    None,
                ),
                false => (
                    Code::RequiredPropertyRemoved,
                    format!("required `{here}` was removed"),
                    Some(format!(
                        "code written for the old version reads `{}` and finds nothing",
                        property.name
                    )),
                ),
            };
            let flags = match (&renamed, property.optional) {
                (Some(_), _) => (false, false),
                (None, true) => (true, !strict),
                (None, false) => (false, !strict),
            };
            self.push(
                code,
                new.span,
                Some(property.name_span),
                &here,
                flags.0,
                flags.1,
                message,
                renamed.or(help),
            );
        }
    }

    fn optionality(&mut self, path: &str, old: &Property<'m>, new: &Property<'m>) {
        let _ = match (old.optional, new.optional) {
            (true, false) => self.push(
                Code::OptionalMadeRequired,
                new.name_span,
                Some(old.name_span),
                path,
                true,
                false,
                format!("`{path}` was optional and is now required"),
                Some("values made before this change may lack it".to_string()),
            ),
            (false, true) => self.push(
                Code::RequiredMadeOptional,
                new.name_span,
                Some(old.name_span),
                path,
                false,
                true,
                format!("`{path}` was required and is now optional"),
                Some("code written for the old version expects it to be there".to_string()),
            ),
            _ => None,
        };
    }

    /// A union narrowed to one of its variants (`narrowed`), or a variant
    /// widened to a union that lists it: every value of the narrower is one
    /// of the wider.
    fn union_and_variant(
        &mut self,
        path: &str,
        (old, new): (&Schema<'m>, &Schema<'m>),
        narrowed: bool,
        (old_type, new_type): (Option<TypeId>, Option<TypeId>),
    ) {
        let name = |side: &Side<'m>, id: Option<TypeId>| {
            id.map_or("a type", |id| side.version.model.def(id).name.text.as_str())
        };
        let (from, to) = (name(&self.old, old_type), name(&self.new, new_type));
        let (code, message) = match narrowed {
            true => (
                Code::PropertyTypeNarrowed,
                format!("{} was `{from}` and is now its variant `{to}`", named(path)),
            ),
            false => (
                Code::PropertyTypeWidened,
                format!(
                    "{} was `{from}` and is now `{to}`, of which `{from}` is a variant",
                    named(path)
                ),
            ),
        };
        let subject = format!("{from} -> {to}");
        self.node(
            code,
            path,
            (old, new),
            (narrowed, !narrowed),
            message,
            subject,
        );
    }

    /// Whether the object type `object` (on its side) is one of `variants`
    /// (a union's, on `side`): the same name, and the same shape on both
    /// sides, so that its values are the union's.
    fn is_variant(
        &self,
        side: &Side<'m>,
        variants: &[Schema<'m>],
        object: Option<(&Side<'m>, TypeId)>,
    ) -> bool {
        let Some((object_side, id)) = object else {
            return false;
        };
        let name = object_side.version.model.def(id).name.text.as_str();
        let Some(variant_id) = side.version.model.lookup(name) else {
            return false;
        };
        let listed = variants.iter().any(
            |variant| matches!(side.resolve(variant).1, Some((_, found)) if found == variant_id),
        );
        listed
            && super::renames::shape(&side.lowering.definition(variant_id))
                == super::renames::shape(&object_side.lowering.definition(id))
    }

    /// The discriminator value (as a comparable key and as text) and the
    /// type name of a union's variant.
    fn variant(
        side: &Side<'m>,
        discriminator: Option<&str>,
        variant: &Schema<'m>,
    ) -> (Option<(String, String)>, Option<&'m str>) {
        let (schema, named) = side.resolve(variant);
        let tag = match (&schema.kind, discriminator) {
            (Kind::Object(properties), Some(discriminator)) => properties
                .iter()
                .find(|p| p.name == discriminator)
                .and_then(|p| match &p.schema.kind {
                    Kind::Primitive {
                        constant: Some(value),
                        ..
                    } => Some(literal(value)),
                    _ => None,
                }),
            _ => None,
        };
        (tag, named.map(|(name, _)| name))
    }

    fn unions(
        &mut self,
        path: &str,
        (old_variants, old_type): (&[Schema<'m>], Option<TypeId>),
        (new, new_variants, new_type): (&Schema<'m>, &[Schema<'m>], Option<TypeId>),
    ) {
        let old_discriminator = self.old.discriminator(old_type);
        let new_discriminator = self.new.discriminator(new_type);
        if let (Some((old_name, old_span)), Some((new_name, new_span))) =
            (old_discriminator, new_discriminator)
            && old_name != new_name
        {
            self.push_about(
                format!("{old_name} -> {new_name}"),
                Code::DiscriminatorChanged,
                new_span,
                Some(old_span),
                path,
                (false, false),
                format!(
                    "the union at {} is told apart by `{new_name}` instead of `{old_name}`",
                    named(path)
                ),
                Some("every stored or sent value carries the old property, which the new readers do not look at".to_string()),
            );
            return;
        }
        let old_info: Vec<_> = old_variants
            .iter()
            .map(|v| Self::variant(&self.old, old_discriminator.map(|d| d.0), v))
            .collect();
        let new_info: Vec<_> = new_variants
            .iter()
            .map(|v| Self::variant(&self.new, new_discriminator.map(|d| d.0), v))
            .collect();
        // Old variants by tag and by type name, first ones first.
        let mut old_tags: HashMap<&str, usize> = HashMap::new();
        let mut old_names: HashMap<&str, usize> = HashMap::new();
        for (i, (tag, name)) in old_info.iter().enumerate() {
            if let Some((key, _)) = tag {
                old_tags.entry(key.as_str()).or_insert(i);
            }
            if let Some(name) = name {
                old_names.entry(name).or_insert(i);
            }
        }
        let mut matched = vec![false; old_variants.len()];
        let new_types: HashSet<&str> = new_info.iter().filter_map(|(_, name)| *name).collect();
        for (variant, (tag, name)) in new_variants.iter().zip(&new_info) {
            let by_tag = tag
                .as_ref()
                .and_then(|(key, _)| old_tags.get(key.as_str()).copied());
            let by_name = |matched: &[bool]| {
                name.and_then(|name| old_names.get(name).copied())
                    .filter(|&i| !matched[i])
            };
            let label = tag
                .as_ref()
                .map(|t| t.1.clone())
                .or(name.map(str::to_string))
                .unwrap_or_default();
            let here = format!("{path}<{label}>");
            // A variant is the type it names (docs/diff.md: matched by type
            // name), so two variants that swap their tags are each a tag
            // changed; one whose type is new is matched by its tag to an
            // old variant whose type is gone (a type renamed).
            let by_type = by_name(&matched);
            let same_tag =
                |i: usize| old_info[i].0.as_ref().map(|t| &t.0) == tag.as_ref().map(|t| &t.0);
            let renamed = || {
                by_tag
                    .filter(|&i| !matched[i])
                    .filter(|&i| old_info[i].1.is_none_or(|old| !new_types.contains(old)))
            };
            let same = match by_type {
                Some(i) => Some(i).filter(|&i| same_tag(i)),
                None => renamed(),
            };
            if let Some(i) = same {
                matched[i] = true;
                self.compare(&here, &old_variants[i], variant);
            } else if let Some(i) = by_type {
                matched[i] = true;
                let old_tag = old_info[i]
                    .0
                    .as_ref()
                    .map_or(String::new(), |t| t.1.clone());
                self.push_about(
                    format!("{old_tag} -> {label}"),
                    Code::DiscriminatorValueChanged,
                    variant.span,
                    Some(old_variants[i].span),
                    &here,
                    (false, false),
                    format!(
                        "variant `{}` of {} is tagged `{label}` instead of `{old_tag}`",
                        name.unwrap_or_default(),
                        named(path)
                    ),
                    Some("values tagged with the old value match no variant of the new union, and the reverse".to_string()),
                );
            } else {
                self.push(
                    Code::VariantAdded,
                    variant.span,
                    None,
                    &here,
                    false,
                    true,
                    format!("{} can now be the variant `{label}`", named(path)),
                    Some("readers that switch over every variant (TypeScript, zod, pydantic) reject a variant they do not know".to_string()),
                );
            }
        }
        for (i, variant) in old_variants.iter().enumerate() {
            if matched[i] {
                continue;
            }
            let (tag, name) = &old_info[i];
            let label = tag
                .as_ref()
                .map(|t| t.1.clone())
                .or(name.map(str::to_string))
                .unwrap_or_default();
            self.push(
                Code::VariantRemoved,
                new.span,
                Some(variant.span),
                &format!("{path}<{label}>"),
                true,
                false,
                format!("{} can no longer be the variant `{label}`", named(path)),
                None,
            );
        }
    }
}
