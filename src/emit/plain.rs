//! The consumers that take plain JSON Schema for a tool's parameters: an
//! AG-UI `Tool[]` (for `RunAgentInput.tools`), an AAP `ToolSpec[]`, and the
//! tools block a backend writes into its system prompt
//! (run-agent-input-backend-profile.md, `build_tools_prompt`). Each
//! parameter schema stands alone, with every type written out, because
//! these schemas are pasted into requests and prompts one tool at a time.

use super::kit::{self, Cx, EmitError, Entries, Output, Selection, Target};
use super::schema::render;
use crate::diagnostic::{Code, Diagnostic};
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
    let mut entries = Entries::new(selection, "", 0);
    let mut prompt = ToolsPrompt::default();
    for tool in cx.tools(selection)? {
        // Every tool's name is checked, whether or not an error before
        // means no output is made.
        if cx.target == Target::ToolsPrompt && !prompt_name(cx, tool) {
            continue;
        }
        let Some(schema) = cx.parameters(tool) else {
            continue;
        };
        if !entries.keeps(cx.diags) {
            continue;
        }
        let parameters = render(&schema);
        match cx.target {
            Target::ToolsPrompt => {
                let description = tool.presentation.description.as_ref();
                prompt.add(
                    &tool.name.text,
                    description.map_or("", |d| d.text.as_str()),
                    &parameters,
                );
            }
            target => entries.push(cx.diags, entry(target, tool, parameters)),
        }
    }
    Ok(match cx.target {
        Target::ToolsPrompt => Output::Text(prompt.finish()),
        _ => entries.finish(""),
    })
}

/// Whether the tools prompt can write `tool`'s name, reported when not:
/// the prompt gives each tool two lines, its name first, so a name holding
/// a line break would write lines of its own (another tool, say).
fn prompt_name(cx: &mut Cx, tool: &Tool) -> bool {
    if !tool.name.text.chars().any(char::is_control) {
        return true;
    }
    cx.diags.push(
        Diagnostic::new(
            Code::InvalidToolName,
            tool.name.span,
            format!(
                "{} is not valid as a tool name for the tools prompt: it holds a line break or another control character",
                kit::quote_name(&tool.name.text)
            ),
        )
        .with_help("rename it to letters, digits, `_` or `-`; the prompt writes each tool's name on a line of its own"),
    );
    false
}

/// An AG-UI `Tool` (`name`, `description`, `parameters`) or an AAP
/// `ToolSpec` (`name`, `title?`, `description`, `parameters`).
pub(super) fn entry(target: Target, tool: &Tool, parameters: Value) -> Value {
    let mut entry = Map::new();
    entry.insert("name".into(), tool.name.text.as_str().into());
    if target == Target::Aap
        && let Some(title) = &tool.presentation.title
    {
        entry.insert("title".into(), title.text.as_str().into());
    }
    // The syntax stage requires a tool's description.
    let description = tool
        .presentation
        .description
        .as_ref()
        .map_or("", |d| d.text.as_str());
    entry.insert("description".into(), description.into());
    entry.insert("parameters".into(), parameters);
    Value::Object(entry)
}

/// The backend's rendering of `(name, description, parameters)`: two lines
/// per tool, then a blank line and the note; nothing at all for no tools.
/// The JSON is compact, keys in declaration order, non-ASCII text as is.
pub fn tools_prompt(tools: &[(&str, &str, Value)]) -> String {
    let mut prompt = ToolsPrompt::default();
    for (name, description, parameters) in tools {
        prompt.add(name, description, parameters);
    }
    prompt.finish()
}

/// [`tools_prompt`], written a tool at a time.
#[derive(Default)]
struct ToolsPrompt {
    out: String,
}

impl ToolsPrompt {
    fn add(&mut self, name: &str, description: &str, parameters: &Value) {
        self.out.push_str(&format!("- {name}: {description}\n"));
        self.out.push_str(&format!("- args_schema: {parameters}\n"));
    }

    fn finish(mut self) -> String {
        if self.out.is_empty() {
            return String::new();
        }
        self.out.push('\n');
        self.out.push_str(TOOLS_PROMPT_NOTE);
        self.out.push('\n');
        self.out
    }
}
