//! Emitted JSON Schema: every document passes the 2020-12 metaschema, the
//! mapping follows ARCHITECTURE.md, and values a person would expect to
//! pass or fail do so under the `jsonschema` crate.

mod common;

use agentc::Model;
use agentc::emit::{emit_all, emit_tool, emit_type};
use serde_json::{Value, json};

fn model(text: &str) -> Model {
    let compiled = common::compile_text(text);
    assert!(
        !compiled.has_errors(),
        "{}",
        agentc::render::human::render(&compiled, agentc::render::human::Style::Plain)
    );
    compiled.model.expect("a model")
}

fn assert_meta_valid(schema: &Value) {
    if let Err(error) = jsonschema::meta::validate(schema) {
        panic!("not a valid 2020-12 schema: {error}\n{schema:#}");
    }
}

/// Asserts each value in `accept` passes and each in `reject` fails.
fn check_instances(schema: &Value, accept: &[Value], reject: &[Value]) {
    assert_meta_valid(schema);
    let validator = jsonschema::validator_for(schema).expect("schema compiles");
    for value in accept {
        let errors: Vec<String> = validator
            .iter_errors(value)
            .map(|e| e.to_string())
            .collect();
        assert!(
            errors.is_empty(),
            "{value} should be accepted: {errors:?}\n{schema:#}"
        );
    }
    for value in reject {
        assert!(
            !validator.is_valid(value),
            "{value} should be rejected by\n{schema:#}"
        );
    }
}

#[test]
fn the_metaschema_check_can_fail() {
    assert!(jsonschema::meta::validate(&json!({"type": "objekt"})).is_err());
}

#[test]
fn every_schema_emitted_for_the_example_protocols_is_valid() {
    let settings = common::snapshot_settings();
    for path in common::valid_protocols() {
        let compiled = common::compile(&path);
        let model = compiled.model.expect("example protocols parse");
        let all = emit_all(&model);
        assert_meta_valid(&all);
        for def in &model.protocol.types {
            assert_meta_valid(&emit_type(&model, &def.name.text).expect("declared type"));
        }
        for tool in &model.protocol.tools {
            assert_meta_valid(&emit_tool(&model, &tool.name.text).expect("declared tool"));
        }
        let name = path
            .parent()
            .and_then(|p| p.file_name())
            .and_then(|n| n.to_str())
            .expect("folder");
        settings.bind(|| insta::assert_json_snapshot!(format!("emit-{name}"), all));
    }
}

#[test]
fn objects_are_closed_with_required_in_declaration_order() {
    let model = model(
        "types:
  Customer:
    name: { type: string, description: Full name }
    email: { type: string, optional: true }
    age: { type: integer }
",
    );
    let schema = emit_type(&model, "Customer").expect("declared");
    assert_eq!(
        schema,
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "Full name"},
                "email": {"type": "string"},
                "age": {"type": "integer"}
            },
            "required": ["name", "age"],
            "additionalProperties": false
        })
    );
    let keys: Vec<&String> = schema["properties"]
        .as_object()
        .expect("object")
        .keys()
        .collect();
    assert_eq!(keys, ["name", "email", "age"]);
    check_instances(
        &schema,
        &[
            json!({"name": "Ada", "age": 36}),
            json!({"name": "Ada", "age": 36, "email": "a@b.c"}),
        ],
        &[
            json!({"name": "Ada"}),
            json!({"name": "Ada", "age": 36.5}),
            json!({"name": "Ada", "age": 36, "nickname": "A"}),
            json!({"name": 1, "age": 36}),
            json!([]),
        ],
    );
}

#[test]
fn unions_dispatch_on_their_discriminator() {
    let model = model(
        "types:
  PaymentResult:
    anyOf: [PaymentSuccess, PaymentFailure]
    discriminator: status
  PaymentSuccess:
    status: { type: string, const: success }
    amount: { type: number }
  PaymentFailure:
    status: { type: string, const: failure }
    message: { type: string }
",
    );
    let schema = emit_type(&model, "PaymentResult").expect("declared");
    assert_eq!(
        schema["anyOf"],
        json!([{"$ref": "#/$defs/PaymentSuccess"}, {"$ref": "#/$defs/PaymentFailure"}])
    );
    check_instances(
        &schema,
        &[
            json!({"status": "success", "amount": 12.5}),
            json!({"status": "failure", "message": "declined"}),
        ],
        &[
            json!({"status": "pending", "amount": 1}),
            json!({"status": "success", "message": "declined"}),
            json!({"amount": 1}),
        ],
    );
}

#[test]
fn arrays_enums_files_and_unknown() {
    let model = model(
        "types:
  CartItem:
    productId: { type: string }
    quantity: { type: integer }
  CartItemList:
    type: array
    items: { type: CartItem }
    description: Items in the cart
  Order:
    items: { type: CartItemList }
    tags: { type: 'string[]' }
    sizes:
      type: array
      items: { type: string, enum: [small, large] }
    status: { type: string, enum: [pending, shipped] }
    receipt: { type: file }
    extra: { type: unknown }
    scores: { type: 'number[]', optional: true }
",
    );
    let schema = emit_type(&model, "Order").expect("declared");
    assert_eq!(
        schema["$defs"]["CartItemList"],
        json!({"type": "array", "description": "Items in the cart", "items": {"$ref": "#/$defs/CartItem"}})
    );
    assert_eq!(
        schema["properties"]["tags"],
        json!({"type": "array", "items": {"type": "string"}})
    );
    assert_eq!(schema["properties"]["extra"], json!({}));
    let file = json!({"id": "f1", "mediaType": "image/png", "url": "https://x/y.png"});
    let order = json!({
        "items": [{"productId": "p1", "quantity": 2}],
        "tags": ["gift"],
        "sizes": ["small"],
        "status": "pending",
        "receipt": file,
        "extra": {"anything": [1, null]}
    });
    let with = |key: &str, value: Value| {
        let mut o = order.clone();
        o[key] = value;
        o
    };
    check_instances(
        &schema,
        &[
            order.clone(),
            with("scores", json!([1, 2.5])),
            with("extra", json!(null)),
        ],
        &[
            with("status", json!("lost")),
            with("sizes", json!(["huge"])),
            with("items", json!([{"productId": "p1"}])),
            with("items", json!({"productId": "p1", "quantity": 1})),
            with("receipt", json!({"id": "f1", "mediaType": "image/png"})),
            with(
                "receipt",
                json!({"id": "f1", "mediaType": "image/png", "url": "u", "owner": "x"}),
            ),
            with("tags", json!([1])),
        ],
    );
}

#[test]
fn const_values_keep_their_type() {
    let model = model(
        "types:
  Versioned:
    version: { type: integer, const: 2 }
    enabled: { type: boolean, const: true }
    kind: { type: string, const: 'yes' }
",
    );
    let schema = emit_type(&model, "Versioned").expect("declared");
    assert_eq!(
        schema["properties"]["version"],
        json!({"type": "integer", "const": 2})
    );
    assert_eq!(
        schema["properties"]["enabled"],
        json!({"type": "boolean", "const": true})
    );
    assert_eq!(
        schema["properties"]["kind"],
        json!({"type": "string", "const": "yes"})
    );
    check_instances(
        &schema,
        &[json!({"version": 2, "enabled": true, "kind": "yes"})],
        &[
            json!({"version": 3, "enabled": true, "kind": "yes"}),
            json!({"version": 2, "enabled": true, "kind": "no"}),
        ],
    );
}

#[test]
fn tool_parameters_form_a_standalone_object() {
    let model = model(
        "types:
  Filter:
    category: { type: string }
tools:
  search-products:
    description: Search the catalog
    parameters:
      query: { type: string }
      filter: { type: Filter, optional: true }
  get-time:
    description: Current time
",
    );
    let search = emit_tool(&model, "search-products").expect("declared");
    assert_eq!(
        search["$defs"],
        json!({"Filter": {
            "type": "object",
            "properties": {"category": {"type": "string"}},
            "required": ["category"],
            "additionalProperties": false
        }})
    );
    check_instances(
        &search,
        &[
            json!({"query": "shoes"}),
            json!({"query": "shoes", "filter": {"category": "men"}}),
        ],
        &[
            json!({}),
            json!({"query": "shoes", "filter": {}}),
            json!({"query": "shoes", "limit": 3}),
        ],
    );
    let time = emit_tool(&model, "get-time").expect("declared");
    assert_eq!(time.get("$defs"), None);
    check_instances(&time, &[json!({})], &[json!({"tz": "UTC"}), json!("now")]);
}

#[test]
fn a_standalone_document_holds_only_what_its_root_uses() {
    let model = model(
        "types:
  Unused:
    a: { type: string }
  Leaf:
    b: { type: string }
  Middle:
    leaf: { type: 'Leaf[]' }
  Root:
    middle: { type: Middle }
",
    );
    let schema = emit_type(&model, "Root").expect("declared");
    let defs: Vec<&String> = schema["$defs"].as_object().expect("defs").keys().collect();
    assert_eq!(defs, ["Leaf", "Middle"]);
    assert_meta_valid(&schema);
    let all = emit_all(&model);
    let defs: Vec<&String> = all["$defs"].as_object().expect("defs").keys().collect();
    assert_eq!(defs, ["Unused", "Leaf", "Middle", "Root"]);
}

#[test]
fn unknown_selectors_are_errors_with_a_suggestion() {
    let model = model("types:\n  Address:\n    street: { type: string }\n");
    let error = emit_type(&model, "Adress").expect_err("not declared");
    assert_eq!(error.help.as_deref(), Some("did you mean `Address`?"));
    assert!(emit_tool(&model, "search").is_err());
}

#[test]
fn parameters_named_like_schema_keywords_are_parameters() {
    let model = model(
        "tools:
  update-listing:
    description: Update a listing
    parameters:
      properties: { type: unknown, description: Listing attributes }
      type: { type: string, enum: [rent, sale] }
",
    );
    let schema = emit_tool(&model, "update-listing").expect("declared");
    assert_eq!(schema["required"], json!(["properties", "type"]));
    check_instances(
        &schema,
        &[json!({"properties": {"rooms": 3}, "type": "rent"})],
        &[json!({"properties": {}, "type": "lease"})],
    );
}
