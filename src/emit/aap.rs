//! AAP (Agent Application Protocol, v3): the `GET /meta` response, one
//! `AgentInfo` built from the agent's `settings.json` and its protocol.
//! Tools are the protocol's tools as `ToolSpec`s; options come from the
//! inputs that have a faithful AAP form (aap-schema.txt, `AgentOption`).
//!
//! AAP options are strings that a client may leave out, so each needs a
//! default. An optional `string` input maps to a `text` option (a `select`
//! with `enum`), defaulting to its `default:` or, without one, to `"NONE"`,
//! the value Octavus gives an input that was not provided. A required input,
//! an input of another type, or an enum input whose default is not one of
//! its values has no faithful form: it is left out, with a note saying so.

use super::kit::{Cx, EmitError, Target};
use super::plain::entry;
use crate::diagnostic::{Code, Diagnostic, Diagnostics};
use crate::model::Model;
use crate::syntax::{Builtin, Field, TypeExprKind};
use crate::yaml::{Node, Value as Yaml};
use serde_json::{Map, Value};

/// The AAP version this module writes.
pub const AAP_VERSION: u64 = 3;

/// The value Octavus gives an optional input that was not provided
/// (04-protocol__02-input-resources.md, "Input Definition").
pub const OCTAVUS_INPUT_DEFAULT: &str = "NONE";

/// What `settings.json` and the caller say about the agent.
#[derive(Clone, Copy, Debug)]
pub struct AgentMeta<'a> {
    /// `settings.json` `slug`: the agent's identifier.
    pub name: &'a str,
    /// `settings.json` `name`: the name people see.
    pub title: &'a str,
    pub description: Option<&'a str>,
    /// The agent's semantic version, which neither file records.
    pub version: &'a str,
}

impl<'a> AgentMeta<'a> {
    /// The agent named `name` (its `settings.json` `slug`), shown as
    /// `title`, at `version`, which must be a semantic version.
    pub fn new(
        name: &'a str,
        title: &'a str,
        description: Option<&'a str>,
        version: &'a str,
    ) -> Result<AgentMeta<'a>, EmitError> {
        if let Err(error) = semver::Version::parse(version) {
            return Err(EmitError::new(format!(
                "`--agent-version {version}` is not a semantic version: {error}"
            ))
            .with_help("write MAJOR.MINOR.PATCH, as in `1.4.0`"));
        }
        Ok(AgentMeta {
            name,
            title,
            description,
            version,
        })
    }
}

/// The `GET /meta` response for one agent.
pub fn meta(model: &Model, agent: AgentMeta, diags: &mut Diagnostics) -> Value {
    let mut cx = Cx::new(model, Target::Aap, diags);
    let mut tools = Vec::new();
    for tool in &model.protocol.tools {
        if let Some(schema) = cx.parameters(tool) {
            tools.push(entry(Target::Aap, tool, super::schema::render(&schema)));
        }
    }
    let options = options(model, cx.diags);

    let mut info = Map::new();
    info.insert("name".into(), agent.name.into());
    info.insert("title".into(), agent.title.into());
    info.insert("version".into(), agent.version.into());
    if let Some(description) = agent.description {
        info.insert("description".into(), description.into());
    }
    if !tools.is_empty() {
        info.insert("tools".into(), Value::Array(tools));
    }
    if !options.is_empty() {
        info.insert("options".into(), Value::Array(options));
    }
    let mut out = Map::new();
    out.insert("version".into(), AAP_VERSION.into());
    out.insert("agents".into(), Value::Array(vec![Value::Object(info)]));
    Value::Object(out)
}

/// The `AgentOption`s of the inputs that have one, with a note for each
/// input that has none.
pub fn options(model: &Model, diags: &mut Diagnostics) -> Vec<Value> {
    model
        .protocol
        .input
        .iter()
        .filter_map(|input| option(input, diags))
        .collect()
}

/// An input's `AgentOption`, or `None` with a note saying why it has none.
fn option(input: &Field, diags: &mut Diagnostics) -> Option<Value> {
    let name = &input.name.text;
    let skip = |diags: &mut Diagnostics, why: String| {
        diags.push(
            Diagnostic::new(
                Code::UnmappedInput,
                input.name.span,
                format!("input `{name}` is not an AAP option: {why}"),
            )
            .with_help("the client cannot set it through `agent.options`; pass it the way your server creates sessions"),
        );
        None
    };
    let is_string = matches!(
        input.ty.as_ref().map(|t| &t.kind),
        Some(TypeExprKind::Builtin(Builtin::String))
    );
    if !is_string {
        let ty = input
            .ty
            .as_ref()
            .map_or("unknown".to_string(), |t| t.display());
        return skip(diags, format!("AAP options are strings, and it is `{ty}`"));
    }
    let default = match &input.default {
        Some(node) => match string_default(node) {
            Some(text) => text,
            None => return skip(diags, "its `default` is not a string".to_string()),
        },
        None if input.optional => OCTAVUS_INPUT_DEFAULT.to_string(),
        None => {
            return skip(
                diags,
                "it is required, and an AAP option may be left out".to_string(),
            );
        }
    };
    let mut option = Map::new();
    match &input.enum_values {
        Some(values) => {
            let values: Vec<&str> = values
                .values
                .iter()
                .map(|v| v.scalar.text.as_ref())
                .collect();
            if !values.contains(&default.as_str()) {
                let why = match input.default {
                    Some(_) => format!("its default `{default}` is not one of its `enum` values"),
                    None => format!(
                        "without a `default`, Octavus gives it `{default}`, which is not one of its `enum` values"
                    ),
                };
                return skip(diags, why);
            }
            option.insert("type".into(), "select".into());
            option.insert("name".into(), name.as_str().into());
            if let Some(description) = &input.description {
                option.insert("description".into(), description.text.as_str().into());
            }
            option.insert(
                "options".into(),
                values.into_iter().map(Value::from).collect(),
            );
        }
        None => {
            option.insert("type".into(), "text".into());
            option.insert("name".into(), name.as_str().into());
            if let Some(description) = &input.description {
                option.insert("description".into(), description.text.as_str().into());
            }
        }
    }
    option.insert("default".into(), default.into());
    Some(Value::Object(option))
}

fn string_default(node: &Node) -> Option<String> {
    match node.as_scalar()?.value() {
        Yaml::Str(text) => Some(text.to_string()),
        _ => None,
    }
}
