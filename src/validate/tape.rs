//! `jsonschema` reading an [`Index`] in place: the `Json` representation
//! `agentc validate` validates, instead of a `serde_json::Value`. A value
//! costs the index's 20 bytes a node rather than a `Value`'s 72, and
//! nothing is copied out of the text until something asks for it as a
//! `Value` (the instance of a `jsonschema` error, which is built from the
//! node's text only when read).

use super::json::{Children, Index, Kind, Members};
use jsonschema::JsonType;
use jsonschema::json::{Array, Json, JsonNumber, Node, NodeIdentity, Object};
use jsonschema_value::LazyInstance;
use serde_json::Value;
use std::borrow::Cow;
use std::sync::OnceLock;

/// The representation: nodes of an [`Index`].
pub struct Tape;

/// One value of an [`Index`], or a lone string (a property name that
/// `propertyNames` validates).
#[derive(Clone, Copy)]
pub enum TapeNode<'a> {
    At(&'a Index<'a>, u32),
    Str(&'a str),
}

impl<'a> TapeNode<'a> {
    pub fn new(index: &'a Index<'a>, id: u32) -> TapeNode<'a> {
        TapeNode::At(index, id)
    }

    fn kind(&self) -> Kind {
        match self {
            TapeNode::At(index, id) => index.kind(*id),
            TapeNode::Str(_) => Kind::String,
        }
    }
}

impl Json for Tape {
    type Node<'a> = TapeNode<'a>;
    type PreparedKey = Box<str>;
    type StringBuffer = ();

    fn prepare_key(key: &str) -> Box<str> {
        key.into()
    }

    fn with_string_node<T>(_: &mut (), string: &str, f: impl FnOnce(TapeNode<'_>) -> T) -> T {
        f(TapeNode::Str(string))
    }
}

/// A number node: its literal, read as `serde_json` reads it.
pub struct TapeNumber(serde_json::Number);

impl JsonNumber for TapeNumber {
    fn as_u64(&self) -> Option<u64> {
        self.0.as_u64()
    }

    fn as_i64(&self) -> Option<i64> {
        self.0.as_i64()
    }

    fn as_f64(&self) -> Option<f64> {
        self.0.as_f64()
    }

    fn as_str(&self) -> Cow<'_, str> {
        Cow::Owned(self.0.to_string())
    }

    fn to_number(&self) -> Cow<'_, serde_json::Number> {
        Cow::Borrowed(&self.0)
    }
}

/// The number a literal stands for, as `serde_json` reads it (without
/// arbitrary precision: a big integer is a float).
pub fn number(literal: &str) -> Option<serde_json::Number> {
    serde_json::from_str(literal).ok()
}

impl<'a> Node<'a, Tape> for TapeNode<'a> {
    type Object = TapeObject<'a>;
    type Array = TapeArray<'a>;
    type Number = TapeNumber;

    fn as_object(&self) -> Option<TapeObject<'a>> {
        match *self {
            TapeNode::At(index, id) if index.kind(id) == Kind::Object => {
                Some(TapeObject { index, id })
            }
            _ => None,
        }
    }

    fn as_array(&self) -> Option<TapeArray<'a>> {
        match *self {
            TapeNode::At(index, id) if index.kind(id) == Kind::Array => {
                Some(TapeArray { index, id })
            }
            _ => None,
        }
    }

    fn as_string(&self) -> Option<Cow<'a, str>> {
        match *self {
            TapeNode::At(index, id) => index.string(id),
            TapeNode::Str(text) => Some(Cow::Borrowed(text)),
        }
    }

    fn as_number(&self) -> Option<TapeNumber> {
        match *self {
            TapeNode::At(index, id) if index.kind(id) == Kind::Number => {
                number(index.source(id)).map(TapeNumber)
            }
            _ => None,
        }
    }

    fn is_number(&self) -> bool {
        self.kind() == Kind::Number
    }

    fn as_boolean(&self) -> Option<bool> {
        match self.kind() {
            Kind::True => Some(true),
            Kind::False => Some(false),
            _ => None,
        }
    }

    fn is_null(&self) -> bool {
        self.kind() == Kind::Null
    }

    fn is_string(&self) -> bool {
        self.kind() == Kind::String
    }

    fn json_type(&self) -> JsonType {
        match self.kind() {
            Kind::Null => JsonType::Null,
            Kind::False | Kind::True => JsonType::Boolean,
            Kind::Number => JsonType::Number,
            Kind::String => JsonType::String,
            Kind::Array => JsonType::Array,
            Kind::Object => JsonType::Object,
            // Never in an index of a text that parsed.
            Kind::Invalid => JsonType::Null,
        }
    }

    fn equals_value(&self, expected: &Value) -> bool {
        equals(*self, expected)
    }

    fn to_value(&self) -> Cow<'a, Value> {
        Cow::Owned(match *self {
            TapeNode::At(index, id) => value_of(index.source(id).as_bytes(), 0),
            TapeNode::Str(text) => Value::String(text.to_string()),
        })
    }

    fn lazy_value(&self) -> LazyInstance<'a> {
        match *self {
            // The node's text, read into a `Value` only if an error's
            // instance is asked for.
            TapeNode::At(index, id) => LazyInstance::Deferred {
                bytes: index.source(id).as_bytes(),
                tag: 0,
                make: value_of,
                cell: OnceLock::new(),
            },
            TapeNode::Str(_) => LazyInstance::Ready(self.to_value()),
        }
    }

    fn identity(&self) -> Option<NodeIdentity> {
        match *self {
            TapeNode::At(index, id) => {
                Some(NodeIdentity::tagged(std::ptr::from_ref(index) as usize, id))
            }
            TapeNode::Str(_) => None,
        }
    }
}

/// A node's text as a `Value`.
fn value_of(bytes: &[u8], _: u32) -> Value {
    serde_json::from_slice(bytes).unwrap_or(Value::Null)
}

/// JSON equality (numbers by value), without building the node as a
/// `Value`: a `const` compared with a megabyte object looks at its type.
pub fn equals(node: TapeNode<'_>, expected: &Value) -> bool {
    let mut pending = vec![(node, expected)];
    while let Some((node, expected)) = pending.pop() {
        let equal = match expected {
            Value::Null => node.is_null(),
            Value::Bool(b) => node.as_boolean() == Some(*b),
            Value::Number(n) => node
                .as_number()
                .is_some_and(|got| jsonschema::json::cmp::equal_numbers(&got, n)),
            Value::String(s) => node.as_string().is_some_and(|got| got == s.as_str()),
            Value::Array(items) => node.as_array().is_some_and(|array| {
                array.len() == items.len() && {
                    pending.extend(array.elements().zip(items));
                    true
                }
            }),
            Value::Object(map) => node.as_object().is_some_and(|object| {
                object.len() == map.len()
                    && object
                        .members()
                        .all(|(key, value)| match map.get(key.as_ref()) {
                            Some(expected) => {
                                pending.push((value, expected));
                                true
                            }
                            None => false,
                        })
            }),
        };
        if !equal {
            return false;
        }
    }
    true
}

#[derive(Clone, Copy)]
pub struct TapeObject<'a> {
    index: &'a Index<'a>,
    id: u32,
}

impl<'a> Object<'a, Tape> for TapeObject<'a> {
    type Node = TapeNode<'a>;
    type MemberName = Cow<'a, str>;
    type MembersIter = TapeMembers<'a>;

    fn len(&self) -> usize {
        self.index.len(self.id)
    }

    fn get(&self, key: &Box<str>) -> Option<TapeNode<'a>> {
        let index = self.index;
        index.member(self.id, key).map(|m| TapeNode::At(index, m))
    }

    fn members(&self) -> TapeMembers<'a> {
        TapeMembers {
            index: self.index,
            members: self.index.members(self.id),
        }
    }
}

pub struct TapeMembers<'a> {
    index: &'a Index<'a>,
    members: Members<'a>,
}

impl<'a> Iterator for TapeMembers<'a> {
    type Item = (Cow<'a, str>, TapeNode<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        let m = self.members.next()?;
        Some((
            self.index.key(m).unwrap_or_default(),
            TapeNode::At(self.index, m),
        ))
    }
}

#[derive(Clone, Copy)]
pub struct TapeArray<'a> {
    index: &'a Index<'a>,
    id: u32,
}

impl<'a> Array<'a, Tape> for TapeArray<'a> {
    type Node = TapeNode<'a>;
    type ElementsIter = TapeElements<'a>;

    fn len(&self) -> usize {
        self.index.len(self.id)
    }

    fn elements(&self) -> TapeElements<'a> {
        TapeElements {
            index: self.index,
            items: self.index.children(self.id),
        }
    }
}

pub struct TapeElements<'a> {
    index: &'a Index<'a>,
    items: Children<'a>,
}

impl<'a> Iterator for TapeElements<'a> {
    type Item = TapeNode<'a>;

    fn next(&mut self) -> Option<TapeNode<'a>> {
        self.items.next().map(|i| TapeNode::At(self.index, i))
    }
}
