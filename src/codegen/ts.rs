//! TypeScript types (`--lang ts`): an interface per object type, a
//! literal-tagged union per discriminated union, a named argument type per
//! tool and the maps (`ToolArgs`, `ResponseTypes`, `TriggerInputs`), and
//! `toolHandlers()`, the one place typed handlers meet the SDK's
//! `Record<string, unknown>` signature. No import: the generated module
//! depends on nothing.

use super::bindings::{self, Bindings, Decl, Entry, Prop, Ty};
use super::options::Options;
use super::text;

/// What the SDKs take as tool handlers, and `DeepPartial`.
const PRELUDE: &str = "\
/** A tool handler as `@octavus/server-sdk` and `@octavus/client-sdk` take it. */
export type ToolHandler = (args: { [key: string]: unknown }) => Promise<unknown>;

/** Tool handlers by tool name, as the SDKs take them. */
export type ToolHandlerMap = { [name: string]: ToolHandler };

/** `T` with every property optional, at every depth: a reply while it streams. */
export type DeepPartial<T> = T extends readonly (infer U)[]
  ? DeepPartial<U>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;
";

/// The module for `bindings`, after `header`.
pub fn module(bindings: &Bindings, header: &str, options: &Options) -> String {
    let mut out = String::new();
    out.push_str(header);
    out.push('\n');
    out.push_str(PRELUDE);
    if bindings.file {
        out.push_str("\n/** A file the user uploaded, as the protocol's `file` type carries it (`@octavus/core`'s `FileReference`). */\n");
        object(
            &mut out,
            "FileReference",
            &bindings::file_reference(),
            options,
        );
    }
    for decl in &bindings.types {
        out.push('\n');
        match decl {
            Decl::Object {
                name,
                description,
                props,
            } => {
                doc(&mut out, *description, "");
                object(&mut out, name, props, options);
            }
            Decl::Array {
                name,
                description,
                items,
            } => {
                doc(&mut out, *description, "");
                out.push_str(&format!("export type {name} = {}[];\n", element(items)));
            }
            Decl::Union {
                name,
                description,
                variants,
                ..
            } => {
                doc(&mut out, *description, "");
                out.push_str(&format!("export type {name} = {};\n", variants.join(" | ")));
            }
        }
    }
    for entry in &bindings.tools {
        out.push('\n');
        entry_object(&mut out, entry, options, "The arguments of tool");
    }
    out.push_str("\n/** Each tool's arguments, by tool name. */\n");
    map(
        &mut out,
        "ToolArgs",
        bindings.tools.iter().map(|e| (e.key, e.type_name.clone())),
    );
    out.push_str("\n/** Each reply type, by the name a `UIObjectPart` carries as `typeName`. */\n");
    map(
        &mut out,
        "ResponseTypes",
        bindings
            .responses
            .iter()
            .map(|&name| (name, name.to_string())),
    );
    out.push_str(
        "\n/** Each reply type while it streams (`UIObjectPart.partial`), by `typeName`. */\n\
         export type PartialResponseTypes = {\n  [K in keyof ResponseTypes]: DeepPartial<ResponseTypes[K]>;\n};\n",
    );
    for entry in &bindings.triggers {
        out.push('\n');
        entry_object(&mut out, entry, options, "The input of trigger");
    }
    out.push_str("\n/** Each trigger's input, by trigger name. */\n");
    map(
        &mut out,
        "TriggerInputs",
        bindings
            .triggers
            .iter()
            .map(|e| (e.key, e.type_name.clone())),
    );
    if let Some(session) = &bindings.session {
        out.push_str("\n/** The session's input (`agentSessions.create`). */\n");
        object(&mut out, &session.type_name, &session.props, options);
    }
    out.push_str(HANDLERS);
    out
}

/// Typed handlers, and the one crossing into the SDK's signature.
const HANDLERS: &str = "
/** A handler for each tool this code handles, with typed arguments. */
export type TypedToolHandlers = {
  [K in keyof ToolArgs]?: (args: ToolArgs[K]) => Promise<unknown>;
};

/**
 * The handlers as the SDKs take them (`tools` of `attach()`, `clientTools`).
 * The arguments are not checked at run time: the zod module's
 * `toolHandlers()` parses them first.
 */
export function toolHandlers(handlers: TypedToolHandlers): ToolHandlerMap {
  const out: ToolHandlerMap = {};
  for (const [name, handler] of Object.entries(handlers)) {
    if (handler !== undefined) {
      const call = handler as unknown as ToolHandler;
      out[name] = (args) => call(args);
    }
  }
  return out;
}
";

fn entry_object(out: &mut String, entry: &Entry, options: &Options, what: &str) {
    let summary = format!("{what} `{}`.", entry.key);
    let description = match entry.description {
        Some(d) => format!("{summary}\n\n{d}"),
        None => summary,
    };
    doc(out, Some(&description), "");
    object(out, &entry.type_name, &entry.props, options);
}

/// `export interface Name { ... }`; no properties: an object that takes
/// none.
fn object(out: &mut String, name: &str, props: &[Prop], options: &Options) {
    if props.is_empty() {
        out.push_str(&format!(
            "export interface {name} {{\n  [key: string]: never;\n}}\n"
        ));
        return;
    }
    out.push_str(&format!("export interface {name} {{\n"));
    for prop in props {
        doc(out, prop.description, "  ");
        let optional = if prop.optional { "?" } else { "" };
        let null = if prop.optional && options.optional_null {
            " | null"
        } else {
            ""
        };
        out.push_str(&format!(
            "  {}{optional}: {}{null};\n",
            key(prop.name),
            ty(&prop.ty)
        ));
    }
    out.push_str("}\n");
}

/// `export interface Name { "key": Type; ... }`.
fn map<'a>(out: &mut String, name: &str, entries: impl Iterator<Item = (&'a str, String)>) {
    let entries: Vec<_> = entries.collect();
    if entries.is_empty() {
        out.push_str(&format!("export interface {name} {{}}\n"));
        return;
    }
    out.push_str(&format!("export interface {name} {{\n"));
    for (key_name, type_name) in entries {
        out.push_str(&format!("  {}: {type_name};\n", key(key_name)));
    }
    out.push_str("}\n");
}

/// A property key: as written when it is an identifier, else quoted.
pub(super) fn key(name: &str) -> String {
    let identifier = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if identifier {
        name.to_string()
    } else {
        text::string_literal(name)
    }
}

/// A `const` as a TypeScript literal type, and as the value `z.literal()`
/// takes: the same text.
pub(super) fn literal(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(s) => text::string_literal(s),
        serde_json::Value::Number(n) => n.to_string(),
        serde_json::Value::Bool(b) => b.to_string(),
        _ => "null".to_string(),
    }
}

fn ty(ty: &Ty) -> String {
    match ty {
        Ty::String => "string".to_string(),
        Ty::Number | Ty::Integer => "number".to_string(),
        Ty::Boolean => "boolean".to_string(),
        Ty::Unknown => "unknown".to_string(),
        Ty::File => "FileReference".to_string(),
        Ty::Named(name) => name.to_string(),
        Ty::Array(items) => format!("{}[]", element(items)),
        Ty::Enum(values) => text::string_literals(values, " | "),
        Ty::Const(value) => literal(value),
    }
}

/// A type as an array's element: a union in parentheses.
fn element(items: &Ty) -> String {
    match items {
        Ty::Enum(values) if values.len() > 1 => format!("({})", ty(items)),
        _ => ty(items),
    }
}

/// A JSDoc comment, indented, when there is a description: its lines as
/// [`text::doc_lines`] gives them, and no `*/` to end it early.
fn doc(out: &mut String, description: Option<&str>, indent: &str) {
    let Some(description) = description else {
        return;
    };
    let lines: Vec<String> = text::doc_lines(description)
        .into_iter()
        .map(|line| line.replace("*/", "*\\/"))
        .collect();
    if lines.len() == 1 {
        out.push_str(&format!("{indent}/** {} */\n", lines[0]));
        return;
    }
    out.push_str(&format!("{indent}/**\n"));
    for line in lines {
        if line.is_empty() {
            out.push_str(&format!("{indent} *\n"));
        } else {
            out.push_str(&format!("{indent} * {line}\n"));
        }
    }
    out.push_str(&format!("{indent} */\n"));
}
