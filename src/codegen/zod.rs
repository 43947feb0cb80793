//! zod 4 schemas (`--lang zod`): a schema per declared type in dependency
//! order, `z.discriminatedUnion` for unions, the maps as values, and a
//! `toolHandlers()` that parses each tool's arguments before its typed
//! handler sees them. The module imports the TypeScript types of
//! `{slug}.ts` and proves at compile time that each schema infers exactly
//! its type, so the two cannot drift.

use super::bindings::{self, Bindings, Decl, Entry, Prop, Ty};
use super::options::Options;
use super::text::{string_literal, string_literals};

/// The module for `bindings`, after `header`; `types` is the module of
/// the TypeScript types, as imported (`./shop.js`).
pub fn module(bindings: &Bindings, header: &str, types: &str, options: &Options) -> String {
    let mut out = String::new();
    out.push_str(header);
    out.push('\n');
    out.push_str("import { z } from \"zod\";\n");
    out.push_str(&format!(
        "import type * as __T from {};\n",
        string_literal(types)
    ));
    let object = if options.strict {
        "z.strictObject"
    } else {
        "z.object"
    };
    // What each schema must infer, checked at the end.
    let mut checks: Vec<(String, String)> = Vec::new();
    if bindings.file {
        out.push_str(&format!(
            "\nexport const FileReference = {};\n",
            shape(object, &bindings::file_reference(), options)
        ));
        checks.push(("FileReference".to_string(), "__T.FileReference".to_string()));
    }
    for decl in &bindings.types {
        out.push('\n');
        match decl {
            Decl::Object {
                name,
                description,
                props,
            } => {
                out.push_str(&format!(
                    "export const {name} = {}{};\n",
                    shape(object, props, options),
                    describe(*description)
                ));
            }
            Decl::Array {
                name,
                description,
                items,
            } => {
                out.push_str(&format!(
                    "export const {name} = z.array({}){};\n",
                    schema(items),
                    describe(*description)
                ));
            }
            Decl::Union {
                name,
                description,
                discriminator,
                variants,
            } => {
                out.push_str(&format!(
                    "export const {name} = z.discriminatedUnion({}, [{}]){};\n",
                    string_literal(discriminator),
                    variants.join(", "),
                    describe(*description)
                ));
            }
        }
        checks.push((decl.name().to_string(), format!("__T.{}", decl.name())));
    }
    for entry in &bindings.tools {
        out.push('\n');
        entry_schema(&mut out, entry, object, options);
        checks.push((entry.type_name.clone(), format!("__T.{}", entry.type_name)));
    }
    out.push_str("\n/** Each tool's arguments, by tool name. */\nexport const toolArgs = ");
    values(
        &mut out,
        bindings.tools.iter().map(|e| (e.key, e.type_name.as_str())),
    );
    out.push_str("\n/** Each reply type, by `typeName`. */\nexport const responseTypes = ");
    values(&mut out, bindings.responses.iter().map(|&n| (n, n)));
    for entry in &bindings.triggers {
        out.push('\n');
        entry_schema(&mut out, entry, object, options);
        checks.push((entry.type_name.clone(), format!("__T.{}", entry.type_name)));
    }
    out.push_str("\n/** Each trigger's input, by trigger name. */\nexport const triggerInputs = ");
    values(
        &mut out,
        bindings
            .triggers
            .iter()
            .map(|e| (e.key, e.type_name.as_str())),
    );
    if let Some(session) = &bindings.session {
        out.push('\n');
        entry_schema(&mut out, session, object, options);
        checks.push((
            session.type_name.clone(),
            format!("__T.{}", session.type_name),
        ));
    }
    out.push_str(
        "
/** Whether `A` and `B` are the same type. */
type Equals<A, B> =
  (<G>() => G extends A ? 1 : 2) extends <G>() => G extends B ? 1 : 2 ? true : false;

/** Compiles only when `T` is `true`. */
function assertType<T extends true>(): T | void {}

// Each schema infers exactly the TypeScript type of the same name.
",
    );
    for (schema, ty) in &checks {
        out.push_str(&format!(
            "assertType<Equals<z.infer<typeof {schema}>, {ty}>>();\n"
        ));
    }
    out.push_str(HANDLERS);
    out
}

/// `toolHandlers()` that parses the arguments first.
const HANDLERS: &str = "
/**
 * The handlers as the SDKs take them (`tools` of `attach()`, `clientTools`),
 * each parsing its arguments with the tool's schema first: arguments that
 * do not fit throw a `z.ZodError` before the handler runs.
 */
export function toolHandlers(handlers: __T.TypedToolHandlers): __T.ToolHandlerMap {
  const out: __T.ToolHandlerMap = {};
  const schemas: { [name: string]: z.ZodType } = toolArgs;
  for (const [name, handler] of Object.entries(handlers)) {
    const schema = schemas[name];
    if (handler !== undefined && schema !== undefined) {
      const call = handler as unknown as (args: unknown) => Promise<unknown>;
      out[name] = (args) => call(schema.parse(args));
    }
  }
  return out;
}
";

fn entry_schema(out: &mut String, entry: &Entry, object: &str, options: &Options) {
    out.push_str(&format!(
        "export const {} = {}{};\n",
        entry.type_name,
        shape(object, &entry.props, options),
        describe(entry.description)
    ));
}

/// `z.object({ ... })`.
fn shape(object: &str, props: &[Prop], options: &Options) -> String {
    if props.is_empty() {
        return format!("{object}({{}})");
    }
    let mut out = format!("{object}({{\n");
    for prop in props {
        let optional = if prop.optional { optional(options) } else { "" };
        out.push_str(&format!(
            "  {}: {}{optional}{},\n",
            key(prop.name),
            schema(&prop.ty),
            describe(prop.description)
        ));
    }
    out.push_str("})");
    out
}

/// A key of an object literal. `__proto__` in an object literal sets the
/// prototype: as a computed key, it is a property.
fn key(name: &str) -> String {
    match name {
        "__proto__" => "[\"__proto__\"]".to_string(),
        name => super::ts::key(name),
    }
}

fn optional(options: &Options) -> &'static str {
    if options.optional_null {
        ".nullish()"
    } else {
        ".optional()"
    }
}

fn schema(ty: &Ty) -> String {
    match ty {
        Ty::String => "z.string()".to_string(),
        Ty::Number => "z.number()".to_string(),
        Ty::Integer => "z.int()".to_string(),
        Ty::Boolean => "z.boolean()".to_string(),
        Ty::Unknown => "z.unknown()".to_string(),
        Ty::File => "FileReference".to_string(),
        Ty::Named(name) => name.to_string(),
        Ty::Array(items) => format!("z.array({})", schema(items)),
        Ty::Enum(values) => format!("z.enum([{}])", string_literals(values, ", ")),
        Ty::Const(value) => format!("z.literal({})", super::ts::literal(value)),
    }
}

/// `.describe("...")`, when there is a description.
fn describe(description: Option<&str>) -> String {
    match description {
        Some(text) => format!(".describe({})", string_literal(text)),
        None => String::new(),
    }
}

/// `{ "key": Schema, ... } as const;`
fn values<'a>(out: &mut String, entries: impl Iterator<Item = (&'a str, &'a str)>) {
    let entries: Vec<_> = entries.collect();
    if entries.is_empty() {
        out.push_str("{} as const;\n");
        return;
    }
    out.push_str("{\n");
    for (key, value) in entries {
        out.push_str(&format!("  {}: {value},\n", self::key(key)));
    }
    out.push_str("} as const;\n");
}
