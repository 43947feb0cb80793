//! What the server offers to read (the code catalogue, each code's page,
//! the format schema) and its prompt: a walk through writing a new tool.

use crate::diagnostic::Code;

/// The catalogue's address; a code's page is under it.
pub const CODES: &str = "agentc://codes";
/// The protocol format's JSON Schema.
pub const SCHEMA: &str = "agentc://schema";
/// The protocol format reference, generated from the grammar
/// (`agentc schema --reference`).
pub const REFERENCE: &str = "agentc://reference";

/// One resource: its address, name, what it is, its type and its text.
pub struct Resource {
    pub uri: String,
    pub name: String,
    pub description: String,
    pub mime_type: &'static str,
}

/// Every resource, in a stable order: the catalogue, the reference, the
/// schema, then each code's page in the registry's order.
pub fn list() -> Vec<Resource> {
    let mut all = vec![
        Resource {
            uri: CODES.to_string(),
            name: "codes".to_string(),
            description: "Every diagnostic code agentc reports: its name, default severity and summary; each has its page at agentc://codes/CODE.".to_string(),
            mime_type: "text/markdown",
        },
        Resource {
            uri: REFERENCE.to_string(),
            name: "reference".to_string(),
            description: "The protocol file format: every place in a protocol.yaml, its keys, what each holds, which are required or deprecated (and what replaces them); generated from agentc's grammar (`agentc schema --reference`).".to_string(),
            mime_type: "text/markdown",
        },
        Resource {
            uri: SCHEMA.to_string(),
            name: "schema".to_string(),
            description: "The JSON Schema of the protocol file format (what `agentc schema` prints).".to_string(),
            mime_type: "application/schema+json",
        },
    ];
    all.extend(Code::ALL.iter().map(|code| Resource {
        uri: format!("{CODES}/{}", code.name()),
        name: code.name().to_string(),
        description: code.summary().to_string(),
        mime_type: "text/markdown",
    }));
    all
}

/// The text at `uri`, and its type; `None` for an address that names
/// nothing.
pub fn read(uri: &str) -> Option<(String, &'static str)> {
    match uri {
        CODES => Some((catalogue(), "text/markdown")),
        REFERENCE => Some((crate::grammar::reference(), "text/markdown")),
        SCHEMA => Some((
            format!("{:#}\n", crate::grammar::editor_schema::schema()),
            "application/schema+json",
        )),
        _ => {
            let name = uri.strip_prefix(CODES)?.strip_prefix('/')?;
            Code::from_name(name).map(|code| (page(code), "text/markdown"))
        }
    }
}

/// A code's page (`agentc explain CODE`).
pub fn page(code: Code) -> String {
    crate::diagnostic::page(code)
}

/// The catalogue: a table of every code.
fn catalogue() -> String {
    let mut text = String::from(
        "# agentc's diagnostic codes\n\nEach code's page is at `agentc://codes/CODE` (and `agentc explain CODE`).\n\n| Code | Severity | Summary |\n| --- | --- | --- |\n",
    );
    for code in Code::ALL {
        text.push_str(&format!(
            "| `{}` | {} | {} |\n",
            code.name(),
            code.severity().as_str(),
            code.summary().replace('|', "\\|")
        ));
    }
    text
}

/// The prompt's name.
pub const NEW_TOOL: &str = "new-tool";

/// A protocol with one tool and the type it takes, which `check` passes
/// (with `settings.json` and `prompts/system.md` beside it): the prompt's
/// example.
pub const EXAMPLE: &str = "types:
  OrderLine:
    sku:
      type: string
      description: The catalog SKU
    quantity:
      type: integer
      description: How many, at least 1

tools:
  place-order:
    description: Placing the order
    parameters:
      lines:
        type: OrderLine[]
        description: What to order
      note:
        type: string
        description: A note for the warehouse
        optional: true

agent:
  model: openai/gpt-4o
  system: system
  tools: [place-order]
";

/// The prompt's text for a tool named `name`, for `purpose`.
pub fn new_tool(name: &str, purpose: Option<&str>) -> String {
    let purpose = match purpose {
        Some(purpose) if !purpose.trim().is_empty() => format!(" Its purpose: {purpose}."),
        _ => String::new(),
    };
    format!(
        "Add a tool named `{name}` to the Octavus protocol (protocol.yaml) I am working on.{purpose}

Work in this order, and do not stop while `check` reports an error:

1. Read the protocol first (and the resource agentc://reference if a key is unclear).
2. Declare the data the tool takes as types under `types:` (type names are PascalCase; a field is
   `type`, `description`, and `optional: true` where it may be left out; lists are `Type[]`;
   providers ignore constraints such as `minimum`, so say them in the `description`).
3. Add the tool under `tools:` with a `description` the model reads and its `parameters`, each with a
   `type` and a `description`. Tool names are kebab-case.
4. List the tool in `agent.tools` (or in the `tools` of the thread or worker step that should call
   it): a tool nobody lists is never offered to the model.
5. Call the `check` tool with the new text (`path` and `text` together check a draft of a file
   before you write it). For each diagnostic, read its `help`; call `explain` with its `code` when
   the help is not enough.
6. Call `fix` to apply the fixes agentc is sure of, then `check` again until no error remains.
7. Call `emit` with `target: \"openai\"` (or the provider you use) and `tool: \"{name}\"` to see the
   exact schema the provider gets, and `validate` with `tool: \"{name}\"` and a sample call's
   arguments to see that what the model will send fits.

A protocol with one tool and its type, which passes `check` (with the agent's `settings.json`
beside it, and its `system` prompt in `prompts/system.md`):

```yaml
{EXAMPLE}```
"
    )
}
