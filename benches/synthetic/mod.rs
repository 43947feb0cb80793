//! Synthetic protocols for the benchmarks: realistic in shape (objects
//! that nest each other, arrays of them, discriminated unions, tools that
//! use the types, handlers replying with a `responseType`) and of any size.

use std::fmt::Write;

/// A protocol of `types` types: objects that nest each other, arrays of
/// them, a discriminated union every tenth type, a tool for every fifth
/// and a handler for every tenth, replying with an object type.
#[allow(dead_code)] // each bench uses some of the generators
pub fn protocol(types: usize) -> String {
    let mut out = String::from("types:\n");
    for i in 0..types {
        if i % 10 == 9 {
            let _ = writeln!(
                out,
                "  Type{i}:\n    anyOf: [Kind{i}A, Kind{i}B]\n    discriminator: kind"
            );
            continue;
        }
        let _ = writeln!(out, "  Type{i}:");
        let _ = writeln!(
            out,
            "    id: {{ type: string, description: Identifier of item {i} }}"
        );
        let _ = writeln!(out, "    count: {{ type: integer, optional: true }}");
        let _ = writeln!(
            out,
            "    status: {{ type: string, enum: [open, closed, pending] }}"
        );
        if i > 0 && (i - 1) % 10 != 9 {
            let _ = writeln!(out, "    parent: {{ type: Type{}, optional: true }}", i - 1);
            let _ = writeln!(
                out,
                "    children: {{ type: \"Type{}[]\", optional: true }}",
                i - 1
            );
        }
    }
    for i in (0..types).filter(|i| i % 10 == 9) {
        for (variant, field) in [("A", "text"), ("B", "url")] {
            let _ = writeln!(out, "  Kind{i}{variant}:");
            let _ = writeln!(
                out,
                "    kind: {{ type: string, const: {} }}",
                variant.to_lowercase()
            );
            let _ = writeln!(out, "    {field}: {{ type: string }}");
        }
    }
    out.push_str("\ntools:\n");
    for i in (0..types).step_by(5) {
        let _ = writeln!(
            out,
            "  tool-{i}:\n    description: Works on item {i}\n    parameters:"
        );
        let _ = writeln!(out, "      item: {{ type: Type{i} }}");
        let _ = writeln!(out, "      note: {{ type: string, optional: true }}");
    }
    out.push_str("\ntriggers:\n");
    let handlers: Vec<usize> = (0..types).step_by(10).collect();
    for i in &handlers {
        let _ = writeln!(
            out,
            "  run-{i}:\n    input:\n      MESSAGE_{i}: {{ type: string }}"
        );
    }
    out.push_str(AGENT);
    out.push_str("\nhandlers:\n");
    for i in &handlers {
        let _ = writeln!(out, "  run-{i}:");
        let _ = writeln!(
            out,
            "    Add message:\n      block: add-message\n      role: user\n      prompt: user-message\n      input: [MESSAGE_{i}]"
        );
        let _ = writeln!(
            out,
            "    Reply:\n      block: next-message\n      responseType: Type{i}"
        );
    }
    out
}

/// The `agent:` section every synthetic protocol ends its declarations with.
const AGENT: &str =
    "\nagent:\n  model: anthropic/claude-sonnet-4-5\n  system: system\n  tools: [tool-0]\n";

/// A reference chain of `length` types, each holding the next (`Link0` →
/// `Link1` → …), used by one tool: the deepest graph a protocol can have.
#[allow(dead_code)] // each bench uses some of the generators
pub fn chain(length: usize) -> String {
    let mut out = String::from("types:\n");
    for i in 0..length {
        let _ = writeln!(out, "  Link{i}:");
        let _ = writeln!(
            out,
            "    id: {{ type: string, description: Identifier of link {i} }}"
        );
        let _ = writeln!(out, "    count: {{ type: integer, optional: true }}");
        if i + 1 < length {
            let _ = writeln!(out, "    next: {{ type: Link{}, optional: true }}", i + 1);
        }
    }
    out.push_str("\ntools:\n  tool-0:\n    description: Walks the chain\n    parameters:\n");
    out.push_str("      head: { type: Link0 }\n");
    out.push_str(AGENT);
    out
}

/// One discriminated union of `variants` object types, used by one tool:
/// the widest node a protocol can have.
#[allow(dead_code)] // each bench uses some of the generators
pub fn wide_union(variants: usize) -> String {
    let mut out = String::from("types:\n  Event:\n    anyOf:\n");
    for i in 0..variants {
        let _ = writeln!(out, "      - Variant{i}");
    }
    out.push_str("    discriminator: kind\n");
    for i in 0..variants {
        let _ = writeln!(out, "  Variant{i}:");
        let _ = writeln!(out, "    kind: {{ type: string, const: variant-{i} }}");
        let _ = writeln!(
            out,
            "    id: {{ type: string, description: Identifier of variant {i} }}"
        );
        let _ = writeln!(out, "    count: {{ type: integer, optional: true }}");
    }
    out.push_str("\ntools:\n  tool-0:\n    description: Records an event\n    parameters:\n");
    out.push_str("      event: { type: Event }\n");
    out.push_str(AGENT);
    out
}

/// Arguments of the example agent's `search-products` tool
/// (`protocols/shop-assistant`), all valid and the same every run, in
/// three shapes: a query; a query and a limit; a query, a nested filter
/// and a limit. What the validation benchmark and the regression guard
/// validate.
#[allow(dead_code)] // each bench uses some of the generators
pub fn search_arguments(count: usize) -> Vec<serde_json::Value> {
    use serde_json::json;
    let categories = ["electronics", "clothing", "home_garden", "sports", "toys"];
    (0..count)
        .map(|i| match i % 3 {
            0 => json!({"query": format!("item {i}")}),
            1 => json!({"query": format!("item {i}"), "limit": (i % 20) as i64}),
            _ => json!({
                "query": format!("item {i}"),
                "filter": {
                    "category": categories[i % categories.len()],
                    "maxPrice": (i % 500) as f64 + 0.99,
                    "inStockOnly": i % 2 == 0,
                    "attributes": {"size": "M", "colour": "blue"}
                },
                "limit": 5
            }),
        })
        .collect()
}
