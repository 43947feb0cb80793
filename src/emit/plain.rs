//! The consumers that take plain JSON Schema for a tool's parameters: an
//! AG-UI `Tool[]` (for `RunAgentInput.tools`), an AAP `ToolSpec[]`, and the
//! tools block a backend writes into its system prompt
//! (run-agent-input-backend-profile.md, `build_tools_prompt`). Each
//! parameter schema stands alone, with every type written out, because
//! these schemas are pasted into requests and prompts one tool at a time.

use super::kit::{Cx, EmitError, Output, Selection, Target};
use super::schema::render;
use crate::syntax::Tool;
use serde_json::{Map, Value};

/// The line that closes the tools prompt, as the backend writes it.
pub const TOOLS_PROMPT_NOTE: &str = "Note: tool arguments must strictly match args_schema.";

pub(super) fn emit(cx: &mut Cx, selection: Selection) -> Result<Output, EmitError> {
    let flag = match selection {
        Selection::Type(_) => Some("--type"),
        Selection::Response(_) => Some("--response"),
        Selection::All | Selection::Tool(_) => None,
    };
    if let Some(flag) = flag {
        return Err(EmitError::new(format!(
            "the {} target emits tools; `{flag}` does not apply to it",
            cx.target.name()
        ))
        .with_help(
            "use `--tool NAME` or no selector, or `--target json-schema` for a type's schema",
        ));
    }
    let mut tools = Vec::new();
    for tool in cx.tools(selection)? {
        if let Some(schema) = cx.parameters(tool) {
            tools.push((tool, render(&schema)));
        }
    }
    Ok(match cx.target {
        Target::ToolsPrompt => {
            let entries: Vec<(&str, &str, Value)> = tools
                .into_iter()
                .map(|(tool, parameters)| {
                    let description = tool.presentation.description.as_ref();
                    (
                        tool.name.text.as_str(),
                        description.map_or("", |d| d.text.as_str()),
                        parameters,
                    )
                })
                .collect();
            Output::Text(tools_prompt(&entries))
        }
        target => {
            let mut entries: Vec<Value> = tools
                .into_iter()
                .map(|(tool, parameters)| entry(target, tool, parameters))
                .collect();
            match selection {
                Selection::Tool(_) => Output::Json(entries.pop().unwrap_or(Value::Null)),
                _ => Output::Json(Value::Array(entries)),
            }
        }
    })
}

/// An AG-UI `Tool` (`name`, `description`, `parameters`) or an AAP
/// `ToolSpec` (`name`, `title?`, `description`, `parameters`).
pub(super) fn entry(target: Target, tool: &Tool, parameters: Value) -> Value {
    let mut entry = Map::new();
    entry.insert("name".into(), tool.name.text.clone().into());
    if target == Target::Aap
        && let Some(title) = &tool.presentation.title
    {
        entry.insert("title".into(), title.text.clone().into());
    }
    // The syntax stage requires a tool's description.
    let description = tool
        .presentation
        .description
        .as_ref()
        .map_or(String::new(), |d| d.text.clone());
    entry.insert("description".into(), description.into());
    entry.insert("parameters".into(), parameters);
    Value::Object(entry)
}

/// The backend's rendering of `(name, description, parameters)`: two lines
/// per tool, then a blank line and the note; nothing at all for no tools.
/// The JSON is compact, keys in declaration order, non-ASCII text as is.
pub fn tools_prompt(tools: &[(&str, &str, Value)]) -> String {
    if tools.is_empty() {
        return String::new();
    }
    let mut out = String::new();
    for (name, description, parameters) in tools {
        out.push_str(&format!("- {name}: {description}\n"));
        out.push_str(&format!("- args_schema: {parameters}\n"));
    }
    out.push('\n');
    out.push_str(TOOLS_PROMPT_NOTE);
    out.push('\n');
    out
}
