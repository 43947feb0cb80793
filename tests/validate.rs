//! `agentc validate` as a library: values against a protocol's types and
//! tools, AG-UI `RunAgentInput` payloads against the seeds and the draft
//! fixtures, the conversation checks, and the backend profile's ten rules
//! at their boundaries with their exact messages.

mod common;

use agentc::Code;
use agentc::validate::run_input::{self, Options, Profile, RunInputValidator, Version};
use agentc::validate::{ToolValidators, Validator, Violation};
use serde_json::{Value, json};

fn shop() -> agentc::Model {
    let path = common::root().join("protocols/shop-assistant/protocol.yaml");
    let compiled = common::compile(&path);
    assert!(!compiled.has_errors());
    compiled.model.expect("the example protocol has a model")
}

/// (code, pointer) of each violation, in order.
fn found(violations: &[Violation]) -> Vec<(&'static str, &str)> {
    violations
        .iter()
        .map(|v| (v.code.name(), v.pointer.as_str()))
        .collect()
}

fn errors_of(result: Result<(), Vec<Violation>>) -> Vec<Violation> {
    result.err().unwrap_or_default()
}

#[test]
fn a_valid_value_has_no_violations() {
    let model = shop();
    let tool = Validator::for_tool(&model, "search-products").unwrap();
    let args = json!({"query": "red shoes", "filter": {"category": "sports"}, "limit": 3});
    assert!(tool.is_valid(&args));
    assert_eq!(tool.validate(&args), Ok(()));
}

#[test]
fn every_problem_is_reported_at_its_pointer_with_expected_and_found() {
    let model = shop();
    let tool = Validator::for_tool(&model, "search-products").unwrap();
    let args = json!({"query": 5, "filter": {"category": "shoes", "maxPrice": "50"}, "limt": 2});
    let violations = errors_of(tool.validate(&args));
    assert_eq!(
        found(&violations),
        [
            ("type-mismatch", "/query"),
            ("value-not-allowed", "/filter/category"),
            ("type-mismatch", "/filter/maxPrice"),
            ("unknown-property", "/limt"),
        ]
    );
    assert_eq!(violations[0].message, "expected string, found number `5`");
    assert_eq!(
        violations[2].message,
        "expected number, found string `\"50\"`"
    );
    assert_eq!(violations[3].help.as_deref(), Some("did you mean `limit`?"));
    let missing = errors_of(tool.validate(&json!({})));
    assert_eq!(found(&missing), [("missing-property", "")]);
    assert_eq!(missing[0].message, "missing required property `query`");
}

#[test]
fn the_discriminator_picks_the_branch_whose_problems_are_shown() {
    let model = shop();
    let reply = Validator::for_type(&model, "AssistantReply").unwrap();
    // An `order_update` with one problem: only that branch speaks, no wall
    // of anyOf failures from `text` and `product_suggestions`.
    let value = json!({"reply": {"kind": "order_update", "message": "on its way", "order": {
        "orderId": "o1", "status": "sent", "total": {"amount": 5, "currency": "EUR"},
        "items": [], "shippingAddress": {"street": "a", "city": "b", "postalCode": "c", "country": "d"}
    }}});
    let violations = errors_of(reply.validate(&value));
    assert_eq!(
        found(&violations),
        [("value-not-allowed", "/reply/order/status")]
    );

    // An unknown tag is one error that lists the tags.
    let violations = errors_of(reply.validate(&json!({"reply": {"kind": "txt", "message": "hi"}})));
    assert_eq!(found(&violations), [("unknown-variant", "/reply/kind")]);
    assert_eq!(
        violations[0].message,
        "no variant has `kind` `\"txt\"`; expected one of `\"text\"`, `\"product_suggestions\"`, `\"order_update\"`"
    );
    assert_eq!(violations[0].help.as_deref(), Some("did you mean `text`?"));

    // No tag at all, or not an object: one error each.
    let violations = errors_of(reply.validate(&json!({"reply": {"message": "hi"}})));
    assert_eq!(found(&violations), [("missing-property", "/reply")]);
    let violations = errors_of(reply.validate(&json!({"reply": "hi"})));
    assert_eq!(found(&violations), [("type-mismatch", "/reply")]);
}

#[test]
fn tool_validators_cover_every_tool_and_share_between_threads() {
    let model = shop();
    let tools = std::sync::Arc::new(ToolValidators::new(&model).unwrap());
    assert_eq!(
        tools.names().collect::<Vec<_>>(),
        [
            "add-to-cart",
            "create-return",
            "get-cart",
            "get-order",
            "search-products"
        ]
    );
    let handles: Vec<_> = (0..4)
        .map(|i| {
            let tools = tools.clone();
            std::thread::spawn(move || {
                let get_order = tools.get("get-order").unwrap();
                get_order.is_valid(&json!({"orderId": format!("o{i}")}))
            })
        })
        .collect();
    for handle in handles {
        assert!(handle.join().unwrap());
    }
    // A tool without parameters takes an empty object, and nothing else.
    let get_cart = tools.get("get-cart").unwrap();
    assert!(get_cart.is_valid(&json!({})));
    assert_eq!(
        found(&errors_of(get_cart.validate(&json!({"x": 1})))),
        [("unknown-property", "/x")]
    );
}

#[test]
fn unknown_names_are_errors_with_a_suggestion() {
    let model = shop();
    let error = Validator::for_tool(&model, "search-product").err().unwrap();
    assert_eq!(
        error.message,
        "no tool named `search-product` in the protocol"
    );
    assert_eq!(
        error.help.as_deref(),
        Some("did you mean `search-products`?")
    );
    assert!(Validator::for_type(&model, "Nope").is_err());
}

// ---------------------------------------------------------------- RunAgentInput

fn run_input(profile: Profile, payload: &Value) -> Vec<Violation> {
    let validator = RunInputValidator::new(profile).unwrap();
    let bytes = serde_json::to_vec(payload).unwrap().len();
    validator.validate(payload, bytes)
}

fn versioned(version: Version, strict: bool, payload: &Value) -> Vec<Violation> {
    let validator = RunInputValidator::with_options(Options {
        profile: Profile::AgUi,
        version,
        strict,
    })
    .unwrap();
    validator.validate(payload, 0)
}

fn payload(messages: Value) -> Value {
    json!({
        "threadId": "550e8400-e29b-41d4-a716-446655440000",
        "runId": "run-001",
        "messages": messages,
    })
}

#[test]
fn the_backend_examples_are_valid_under_both_profiles() {
    let examples = [
        payload(json!([{"id": "msg-001", "role": "user", "content": "帮我查一下北京今天的天气"}])),
        payload(json!([{"id": "msg-001", "role": "user", "content": [
            {"type": "text", "text": "这张图片里的内容是什么?"},
            {"type": "binary", "mimeType": "image/png", "url": "https://storage.example.com/a.png?signature=xxx"}
        ]}])),
    ];
    for example in &examples {
        assert_eq!(found(&run_input(Profile::Backend, example)), []);
    }
    // AG-UI 1.0 removed the legacy part; the pre-1.0 shape deprecated it.
    let violations = run_input(Profile::AgUi, &examples[1]);
    assert_eq!(
        found(&violations),
        [("binary-part", "/messages/0/content/1/type")]
    );
    assert_eq!(
        violations[0].help.as_deref(),
        Some(
            "write the part for its modality, with a `source`: {\"type\":\"image\",\"source\":\
             {\"type\":\"url\",\"value\":\"https://storage.example.com/a.png?signature=xxx\",\
             \"mimeType\":\"image/png\"}}"
        )
    );
    assert_eq!(
        found(&versioned(Version::Draft, false, &examples[1])),
        [("deprecated-binary-part", "/messages/0/content/1/type")]
    );
}

#[test]
fn every_role_and_content_part_of_the_seeds_is_accepted() {
    let input = json!({
        "threadId": "t1", "runId": "r2", "parentRunId": "r1",
        "state": {"step": 1}, "forwardedProps": [1],
        "messages": [
            {"id": "1", "role": "developer", "content": "be brief", "name": "dev"},
            {"id": "2", "role": "system", "content": "you are an agent"},
            {"id": "3", "role": "user", "content": [
                {"type": "text", "text": "look"},
                {"type": "image", "source": {"type": "data", "value": "aGk=", "mimeType": "image/png"}},
                {"type": "audio", "source": {"type": "url", "value": "https://e.com/a.mp3"}},
                {"type": "video", "source": {"type": "url", "value": "https://e.com/v.mp4", "mimeType": "video/mp4"}, "metadata": 1},
                {"type": "document", "source": {"type": "url", "value": "https://e.com/d.pdf"}}
            ]},
            {"id": "4", "role": "assistant", "toolCalls": [
                {"id": "c1", "type": "function", "function": {"name": "search", "arguments": "{\"q\":\"x\"}"}}
            ]},
            {"id": "5", "role": "tool", "content": "3 results", "toolCallId": "c1", "error": "partial"},
            {"id": "6", "role": "activity", "activityType": "search", "content": {"hits": 3}},
            {"id": "7", "role": "reasoning", "content": "weighing options", "encryptedValue": "x"}
        ],
        "tools": [{"name": "search", "description": "Searches", "parameters": {"type": "object"}}],
        "context": [{"description": "locale", "value": "en-GB"}]
    });
    // Activity messages are valid, but a client should have stripped them.
    assert_eq!(
        found(&run_input(Profile::AgUi, &input)),
        [("activity-message-in-input", "/messages/5/role")]
    );
}

#[test]
fn what_ag_ui_1_0_added_is_accepted_and_absent_before_it() {
    let input = json!({
        "threadId": "t1", "runId": "r1", "protocolVersion": "1.0",
        "messages": [
            {"id": "1", "role": "user", "content": [
                {"type": "text", "id": "p1", "text": "look", "metadata": {"hit": "kb"}},
                {"type": "image", "id": "p2", "source": {"type": "file", "value": "file-1", "provider": "openai", "mimeType": "image/png"}},
                {"type": "audio", "id": "p3", "source": {"type": "file", "value": "gs://b/a.mp3"}}
            ]},
            {"id": "2", "role": "assistant", "toolCalls": [
                {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
            ]},
            {"id": "3", "role": "tool", "toolCallId": "c1", "error": "partial", "content": [
                {"type": "text", "text": "a chart"},
                {"type": "image", "source": {"type": "url", "value": "https://e.com/c.png"}}
            ]}
        ],
        "tools": [{"name": "f", "description": "F"}]
    });
    for version in [Version::V1_0, Version::V1_1] {
        for strict in [false, true] {
            assert_eq!(
                found(&versioned(version, strict, &input)),
                [],
                "{version:?}"
            );
        }
    }
    assert_eq!(
        found(&versioned(Version::Draft, true, &input)),
        [
            ("unknown-property", "/messages/0/content/0/id"),
            ("unknown-property", "/messages/0/content/0/metadata"),
            ("unknown-variant", "/messages/0/content/1/source/type"),
            ("unknown-property", "/messages/0/content/1/id"),
            ("unknown-variant", "/messages/0/content/2/source/type"),
            ("unknown-property", "/messages/0/content/2/id"),
            ("type-mismatch", "/messages/2/content"),
            ("unknown-property", "/protocolVersion"),
        ]
    );
    // Other source types are still unknown.
    let other = payload(json!([{"id": "1", "role": "user", "content": [
        {"type": "image", "source": {"type": "handle", "value": "x"}}]}]));
    assert_eq!(
        found(&run_input(Profile::AgUi, &other)),
        [("unknown-variant", "/messages/0/content/0/source/type")]
    );
}

#[test]
fn encrypted_value_type_is_1_1() {
    let input = json!({"threadId": "t", "runId": "r", "messages": [
        {"id": "1", "role": "reasoning", "content": "x", "encryptedValue": "e", "encryptedValueType": "sig"},
        {"id": "2", "role": "assistant", "toolCalls": [{"id": "c", "type": "function",
            "function": {"name": "f", "arguments": "{}"}, "encryptedValue": "e", "encryptedValueType": "sig"}]}
    ], "tools": [{"name": "f", "description": "F"}]});
    assert_eq!(found(&versioned(Version::V1_1, true, &input)), []);
    assert_eq!(
        found(&versioned(Version::V1_0, false, &input)),
        [
            ("unknown-member", "/messages/0/encryptedValueType"),
            (
                "unknown-member",
                "/messages/1/toolCalls/0/encryptedValueType"
            ),
        ]
    );
    assert_eq!(
        found(&versioned(Version::V1_0, true, &input)),
        [
            ("unknown-property", "/messages/0/encryptedValueType"),
            (
                "unknown-property",
                "/messages/1/toolCalls/0/encryptedValueType"
            ),
        ]
    );
}

#[test]
fn protocol_version_is_checked_and_a_newer_one_is_tolerated() {
    let with = |version: &str| {
        json!({"threadId": "t", "runId": "r", "protocolVersion": version, "messages": [
            {"id": "1", "role": "user", "content": "hi", "mood": "curious"}]})
    };
    // Same version, strict: the unknown member is an error.
    assert_eq!(
        found(&versioned(Version::V1_0, true, &with("1.0"))),
        [("unknown-property", "/messages/0/mood")]
    );
    // Older is fine too.
    assert_eq!(
        found(&versioned(Version::V1_1, true, &with("1.0"))),
        [("unknown-property", "/messages/0/mood")]
    );
    // Newer, or unreadable: warnings, even when strict.
    for (version, code) in [
        ("1.1", "newer-protocol-version"),
        ("2.0", "newer-protocol-version"),
        ("1.0.0", "invalid-protocol-version"),
        ("01.0", "invalid-protocol-version"),
        ("1", "invalid-protocol-version"),
        ("", "invalid-protocol-version"),
        ("1.x", "invalid-protocol-version"),
    ] {
        let violations = versioned(Version::V1_0, true, &with(version));
        assert_eq!(
            found(&violations),
            [
                ("unknown-member", "/messages/0/mood"),
                (code, "/protocolVersion")
            ],
            "{version}"
        );
        assert!(
            violations
                .iter()
                .all(|v| v.code.severity() == agentc::Severity::Warning)
        );
    }
    // Not a string: the schema says so.
    let number = json!({"threadId": "t", "runId": "r", "protocolVersion": 1.0, "messages": []});
    assert_eq!(
        found(&run_input(Profile::AgUi, &number)),
        [("type-mismatch", "/protocolVersion")]
    );
    // Absent: a pre-1.0 sender, reported by nothing.
    assert_eq!(found(&run_input(Profile::AgUi, &payload(json!([])))), []);
}

#[test]
fn forwarded_props_null_is_a_warning() {
    let mut input = payload(json!([]));
    input["forwardedProps"] = Value::Null;
    let violations = run_input(Profile::AgUi, &input);
    assert_eq!(
        found(&violations),
        [("null-forwarded-props", "/forwardedProps")]
    );
    assert_eq!(violations[0].code.severity(), agentc::Severity::Warning);
    input["forwardedProps"] = json!({});
    assert_eq!(found(&run_input(Profile::AgUi, &input)), []);
}

#[test]
fn shapes_are_checked_with_one_error_per_problem() {
    let input = json!({
        "thread_id": "t1", "runId": 7,
        "messages": [
            {"id": "1", "role": "bot", "content": "hi"},
            {"id": "2", "role": "user", "content": [{"type": "binary", "mimeType": "image/png"}]},
            {"id": "3", "role": "user", "content": 42},
            {"id": "4", "role": "user", "content": [{"type": "image", "source": {"type": "file", "value": "x"}}]}
        ]
    });
    let violations = run_input(Profile::AgUi, &input);
    assert_eq!(
        found(&violations),
        [
            ("missing-property", ""),
            ("type-mismatch", "/runId"),
            ("unknown-variant", "/messages/0/role"),
            ("missing-property", "/messages/1/content/0"),
            ("type-mismatch", "/messages/2/content"),
            ("unknown-member", "/thread_id"),
            ("binary-part", "/messages/1/content/0/type"),
        ]
    );
    let message = |i: usize| violations[i].message.as_str();
    assert_eq!(message(0), "missing required property `threadId`");
    assert_eq!(
        violations[5].help.as_deref(),
        Some("keys are camelCase on the wire: `threadId`")
    );
    assert_eq!(message(3), "expected at least one of `id`, `url` or `data`");
    assert_eq!(message(4), "expected string or array, found number `42`");
}

#[test]
fn the_conversation_must_hang_together() {
    let input = json!({
        "threadId": "t1", "runId": "r1",
        "tools": [{"name": "search", "description": "Searches"}],
        "messages": [
            {"id": "1", "role": "user", "content": "hi"},
            {"id": "2", "role": "assistant", "toolCalls": [
                {"id": "c1", "type": "function", "function": {"name": "search", "arguments": "{\"q\": 1"}},
                {"id": "c1", "type": "function", "function": {"name": "serch", "arguments": "{}"}}
            ]},
            {"id": "2", "role": "tool", "content": "x", "toolCallId": "c2"},
            {"id": "4", "role": "tool", "content": "x", "toolCallId": "c1"}
        ]
    });
    let violations = run_input(Profile::AgUi, &input);
    assert_eq!(
        found(&violations),
        [
            (
                "invalid-arguments",
                "/messages/1/toolCalls/0/function/arguments"
            ),
            ("duplicate-tool-call-id", "/messages/1/toolCalls/1/id"),
            ("undeclared-tool", "/messages/1/toolCalls/1/function/name"),
            ("duplicate-message-id", "/messages/2/id"),
            ("unknown-tool-call-id", "/messages/2/toolCallId"),
        ]
    );
    assert_eq!(violations[2].code.severity(), agentc::Severity::Warning);
    assert_eq!(
        violations[2].help.as_deref(),
        Some("did you mean `search`?")
    );
    assert_eq!(violations[3].related[0].pointer, "/messages/1/id");
    // A tool message that comes before the call it answers answers nothing.
    let early = json!({"threadId": "t", "runId": "r", "messages": [
        {"id": "1", "role": "tool", "content": "x", "toolCallId": "c1"},
        {"id": "2", "role": "assistant", "toolCalls": [
            {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}
    ]});
    assert!(
        found(&run_input(Profile::AgUi, &early))
            .contains(&("unknown-tool-call-id", "/messages/0/toolCallId"))
    );
}

#[test]
fn with_a_protocol_tool_call_arguments_match_the_tool() {
    let model = shop();
    let validator = RunInputValidator::new(Profile::AgUi)
        .unwrap()
        .with_tools(ToolValidators::new(&model).unwrap());
    let input = json!({"threadId": "t", "runId": "r", "messages": [
        {"id": "1", "role": "user", "content": "find shoes"},
        {"id": "2", "role": "assistant", "toolCalls": [
            {"id": "c1", "type": "function", "function": {"name": "search-products", "arguments": "{\"query\": 3}"}},
            {"id": "c2", "type": "function", "function": {"name": "get-order", "arguments": "{\"orderId\": \"o1\"}"}}
        ]}
    ]});
    let violations = validator.validate(&input, 0);
    // Protocol tools count as declared: no `undeclared-tool` warning.
    assert_eq!(
        found(&violations),
        [(
            "type-mismatch",
            "/messages/1/toolCalls/0/function/arguments"
        )]
    );
    assert_eq!(
        violations[0].message,
        "`search-products` argument `/query`: expected string, found number `3`"
    );
}

// ---------------------------------------------------------------- backend profile

fn backend_codes(input: &Value, bytes: usize) -> Vec<(&'static str, String, String)> {
    RunInputValidator::new(Profile::Backend)
        .unwrap()
        .validate(input, bytes)
        .into_iter()
        .map(|v| (v.code.name(), v.pointer, v.message))
        .collect()
}

fn user(text: &str) -> Value {
    json!({"id": "u", "role": "user", "content": text})
}

#[test]
fn backend_rules_report_the_backends_exact_messages() {
    let messages: Vec<(&str, Value, usize)> = vec![
        (
            "RunAgentInput payload exceeds size limit",
            payload(json!([user("hi")])),
            run_input::MAX_PAYLOAD_BYTES + 1,
        ),
        (
            "threadId must be a valid UUID",
            json!({"threadId": "t1", "runId": "r", "messages": [user("hi")]}),
            0,
        ),
        (
            "runId exceeds length limit",
            json!({"threadId": "550e8400-e29b-41d4-a716-446655440000", "runId": "é".repeat(129), "messages": [user("hi")]}),
            0,
        ),
        (
            "RunAgentInput.messages exceeds limit",
            payload(Value::Array(
                std::iter::once(user("hi"))
                    .chain((0..200).map(
                        |i| json!({"id": format!("a{i}"), "role": "assistant", "content": "ok"}),
                    ))
                    .collect(),
            )),
            0,
        ),
        (
            "RunAgentInput user message text exceeds limit",
            payload(json!([user(&"字".repeat(10_001))])),
            0,
        ),
        (
            "RunAgentInput.messages must contain exactly one user message",
            payload(json!([user("a"), {"id": "2", "role": "user", "content": "b"}])),
            0,
        ),
        (
            "RunAgentInput.messages[0].role must be user",
            payload(json!([{"id": "s", "role": "system", "content": "x"}, user("hi")])),
            0,
        ),
        (
            "binary content requires image mimeType",
            payload(
                json!([{"id": "u", "role": "user", "content": [{"type": "binary", "mimeType": "application/pdf", "url": "https://e.com/a.pdf"}]}]),
            ),
            0,
        ),
        (
            "binary content requires url",
            payload(
                json!([{"id": "u", "role": "user", "content": [{"type": "binary", "mimeType": "image/png", "id": "f1"}]}]),
            ),
            0,
        ),
        (
            "binary content data is not allowed",
            payload(
                json!([{"id": "u", "role": "user", "content": [{"type": "binary", "mimeType": "image/png", "url": "https://e.com/a.png", "data": "aGk="}]}]),
            ),
            0,
        ),
    ];
    for (expected, input, bytes) in messages {
        let reported: Vec<String> = backend_codes(&input, bytes)
            .into_iter()
            .map(|(_, _, m)| m)
            .collect();
        assert_eq!(reported, [expected], "for {input}");
    }
}

#[test]
fn backend_limits_hold_at_their_boundaries() {
    // 256 KiB of payload is allowed; one byte more is not.
    let ok = payload(json!([user("hi")]));
    assert!(backend_codes(&ok, run_input::MAX_PAYLOAD_BYTES).is_empty());
    // 128 characters of runId, counted as characters not bytes.
    let run = json!({"threadId": "550e8400-e29b-41d4-a716-446655440000", "runId": "é".repeat(128), "messages": [user("hi")]});
    assert!(backend_codes(&run, 0).is_empty());
    // 200 messages.
    let many: Vec<Value> = std::iter::once(user("hi"))
        .chain(
            (0..199).map(|i| json!({"id": format!("a{i}"), "role": "assistant", "content": "ok"})),
        )
        .collect();
    assert!(backend_codes(&payload(Value::Array(many)), 0).is_empty());
    // 10,000 characters of user text, over all its text parts.
    let text = payload(json!([user(&"字".repeat(10_000))]));
    assert!(backend_codes(&text, 0).is_empty());
    let parts = payload(json!([{"id": "u", "role": "user", "content": [
        {"type": "text", "text": "a".repeat(5_000)}, {"type": "text", "text": "b".repeat(5_001)}]}]));
    assert_eq!(backend_codes(&parts, 0)[0].0, "user-text-too-long");
}

#[test]
fn backend_rules_fire_together_and_point_at_their_places() {
    let input = json!({"threadId": "t1", "runId": "r", "messages": [
        {"id": "a", "role": "assistant", "content": null},
        {"id": "u", "role": "user", "content": [{"type": "binary", "mimeType": "audio/mp3", "data": "aGk="}]},
        {"id": "v", "role": "user", "content": "again"}
    ]});
    let reported: Vec<(&str, String)> = backend_codes(&input, 0)
        .into_iter()
        .map(|(c, p, _)| (c, p))
        .collect();
    assert_eq!(
        reported,
        [
            ("invalid-thread-id", "/threadId".to_string()),
            ("user-message-count", "/messages".to_string()),
            ("user-message-not-first", "/messages/0/role".to_string()),
            (
                "binary-not-image",
                "/messages/1/content/0/mimeType".to_string()
            ),
            ("binary-without-url", "/messages/1/content/0".to_string()),
            (
                "binary-data-not-allowed",
                "/messages/1/content/0/data".to_string()
            ),
        ]
    );
    // `content: null` is the backend's documented `string | null`; the
    // ag-ui profile follows the TypeScript seed and the draft: no null.
    assert_eq!(
        found(&run_input(Profile::AgUi, &input))[..1],
        [("type-mismatch", "/messages/0/content")]
    );
}

// ---------------------------------------------------------------- the draft fixtures

/// The AG-UI draft's fixtures for the definitions agentc validates. Each
/// valid one is accepted; each invalid one is rejected at the place its
/// `.expect.json` names, except where docs/validate.md says agentc sides
/// with the SDK seeds: a legacy `binary` part is a warning.
#[test]
#[ignore = "needs ../shared/corpus beside the checkout (CI runs it)"]
fn the_ag_ui_draft_fixtures() {
    let Some(fixtures) = common::shared("corpus/ag-ui-draft/fixtures") else {
        return;
    };
    let divergences = [(
        "UserMessage",
        "legacy-binary-part",
        Code::DeprecatedBinaryPart,
    )];
    // The definitions are validated in the pre-1.0 shape the draft
    // describes; under 1.0 the legacy part is an error, as the draft says.
    let draft = |payload: &Value| versioned(Version::Draft, false, payload);
    let mut checked = 0;
    for definition in ["RunAgentInput", "Tool", "UserMessage", "ToolMessage"] {
        let validator =
            RunInputValidator::definition_of(Profile::AgUi, Version::Draft, definition).unwrap();
        for kind in ["valid", "invalid"] {
            let dir = fixtures.join(definition).join(kind);
            for path in common::files(&dir, "json") {
                let name = path.file_stem().unwrap().to_str().unwrap();
                if name.ends_with(".expect") {
                    continue;
                }
                checked += 1;
                let value: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
                let violations = errors_of(validator.validate(&value));
                let divergence = divergences
                    .iter()
                    .find(|(d, n, _)| *d == definition && *n == name);
                match (kind, divergence) {
                    ("valid", _) => assert_eq!(found(&violations), [], "{}", path.display()),
                    (_, Some((_, _, code))) => {
                        assert_eq!(found(&violations), [], "{}", path.display());
                        // As a message of a payload, it is flagged.
                        let wrapped = payload(json!([value]));
                        let codes: Vec<Code> = draft(&wrapped).iter().map(|v| v.code).collect();
                        assert_eq!(codes, [*code], "{}", path.display());
                        let codes: Vec<Code> = run_input(Profile::AgUi, &wrapped)
                            .iter()
                            .map(|v| v.code)
                            .collect();
                        assert_eq!(codes, [Code::BinaryPart], "{}", path.display());
                    }
                    _ => {
                        let expect: Value = serde_json::from_slice(
                            &std::fs::read(path.with_extension("expect.json")).unwrap(),
                        )
                        .unwrap();
                        let at = expect["instanceLocation"].as_str().unwrap();
                        assert!(
                            violations.iter().any(|v| v.pointer.starts_with(at)
                                && v.code.severity() == agentc::Severity::Error),
                            "{}: expected an error at `{at}`, got {:?}",
                            path.display(),
                            found(&violations)
                        );
                    }
                }
            }
        }
    }
    assert!(checked >= 30, "only {checked} fixtures found");
}

#[test]
#[ignore = "needs ../shared/corpus beside the checkout (CI runs it)"]
fn valid_draft_payloads_pass_the_whole_check() {
    let Some(dir) = common::shared("corpus/ag-ui-draft/fixtures/RunAgentInput/valid") else {
        return;
    };
    for path in common::files(&dir, "json") {
        let value: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let errors: Vec<_> = run_input(Profile::AgUi, &value)
            .into_iter()
            .filter(|v| v.code.severity() == agentc::Severity::Error)
            .collect();
        assert_eq!(found(&errors), [], "{}", path.display());
    }
}

/// `Validator::from_schema` takes any 2020-12 schema; keywords agentc's
/// own schemas never use still get a located report.
#[test]
fn schemas_agentc_does_not_emit_still_get_reports() {
    let union = Validator::from_schema(json!({"anyOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
        {"type": "object", "properties": {"b": {"type": "integer"}}, "required": ["b"]}
    ]}))
    .unwrap();
    let violations = errors_of(union.validate(&json!({"a": 1, "b": "x"})));
    assert_eq!(found(&violations), [("no-matching-variant", "")]);
    assert_eq!(
        violations[0].help.as_deref(),
        Some(
            "alternative 1: expected string, found number `1`; alternative 2: expected integer, found string `\"x\"`"
        )
    );
    let short = Validator::from_schema(json!({"type": "string", "minLength": 3})).unwrap();
    assert_eq!(
        found(&errors_of(short.validate(&json!("ab")))),
        [("schema-violation", "")]
    );
    assert!(Validator::from_schema(json!({"type": 5})).is_err());
}
