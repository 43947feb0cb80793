//! `agentc::validate::aap`: AAP v3 payloads written from the shapes of
//! `aap-schema.txt`, valid ones of every kind and member, and event streams
//! under odd and hostile framing (never a panic, never a hang).

mod common;

use agentc::validate::aap::{AapValidator, Kind, StreamMode, check_events};
use agentc::{Code, Source};
use serde_json::{Value, json};

const SHOP: &str = "protocols/shop-assistant/protocol.yaml";

fn shop() -> agentc::Model {
    let path = common::root().join(SHOP);
    let bytes = std::fs::read(&path).unwrap();
    agentc::compile(SHOP, bytes)
        .model
        .expect("the shop protocol compiles")
}

fn codes(kind: Kind, value: &Value, protocol: bool) -> Vec<Code> {
    let mut validator = AapValidator::new(kind).unwrap();
    if protocol {
        validator = validator.with_protocol(&shop()).unwrap();
    }
    validator
        .validate(value)
        .into_iter()
        .map(|v| v.code)
        .collect()
}

fn stream(text: &str, mode: Option<StreamMode>) -> Vec<Code> {
    let validator = AapValidator::new(Kind::Events)
        .unwrap()
        .with_protocol(&shop())
        .unwrap();
    check_events(&validator, &Source::new("s.sse", text), mode)
        .into_iter()
        .map(|d| d.code)
        .collect()
}

#[test]
fn every_member_of_a_session_request() {
    let request = json!({
        "agent": {
            "name": "shop",
            "tools": [{"name": "get-order"}, {"name": "get-cart", "trust": true}],
            "options": {"LOYALTY_TIER": "gold"}
        },
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": [
                {"type": "text", "text": "What is this?"},
                {"type": "image", "url": "data:image/png;base64,AAAA"}
            ]},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "Look it up."},
                {"type": "text", "text": "Checking."},
                {"type": "tool_use", "toolCallId": "c1", "name": "get-order", "input": {"orderId": "1"}}
            ]},
            {"role": "tool", "toolCallId": "c1", "content": [{"type": "text", "text": "shipped"}]},
            {"role": "assistant", "content": "It shipped."}
        ],
        "tools": [{"name": "pick", "title": "Pick", "description": "d", "parameters": {"type": "object"}}]
    });
    assert_eq!(codes(Kind::PostSessionsRequest, &request, true), []);
    assert_eq!(codes(Kind::PostSessionsRequest, &request, false), []);
    // The agent's name is required at session creation.
    let nameless = json!({"agent": {}});
    assert_eq!(
        codes(Kind::PostSessionsRequest, &nameless, false),
        [Code::MissingProperty]
    );
}

#[test]
fn turn_requests() {
    let user = json!({"stream": "delta", "messages": [{"role": "user", "content": "hi"}]});
    assert_eq!(codes(Kind::PostSessionTurnRequest, &user, true), []);
    let answers = json!({"stream": "none", "messages": [
        {"role": "tool", "toolCallId": "c1", "content": "42"},
        {"role": "tool_permission", "toolCallId": "c2", "granted": false, "reason": "no"}
    ]});
    assert_eq!(codes(Kind::PostSessionTurnRequest, &answers, true), []);
    let two_users = json!({"messages": [
        {"role": "user", "content": "a"}, {"role": "user", "content": "b"}
    ]});
    assert_eq!(
        codes(Kind::PostSessionTurnRequest, &two_users, false),
        [Code::InvalidTurnMessages]
    );
    let empty = json!({"messages": []});
    assert_eq!(
        codes(Kind::PostSessionTurnRequest, &empty, false),
        [Code::InvalidTurnMessages]
    );
    // The name cannot be changed in a turn; a system message is history only.
    let renamed =
        json!({"agent": {"name": "other"}, "messages": [{"role": "system", "content": "x"}]});
    let found = codes(Kind::PostSessionTurnRequest, &renamed, false);
    assert!(found.contains(&Code::UnknownProperty), "{found:?}");
    assert!(found.contains(&Code::UnknownVariant), "{found:?}");
}

#[test]
fn options_are_the_ones_get_meta_lists() {
    // STORE_NAME is a required input: it has no AAP option.
    let request = json!({"agent": {"options": {"STORE_NAME": "x", "LOYALTY_TIER": "Gold"}},
        "messages": [{"role": "user", "content": "hi"}]});
    assert_eq!(
        codes(Kind::PostSessionTurnRequest, &request, true),
        [Code::UnknownOption, Code::InvalidOptionValue]
    );
    // Without a protocol, options are only strings.
    assert_eq!(codes(Kind::PostSessionTurnRequest, &request, false), []);
    let number = json!({"agent": {"options": {"LOYALTY_TIER": 3}},
        "messages": [{"role": "user", "content": "hi"}]});
    assert_eq!(
        codes(Kind::PostSessionTurnRequest, &number, true),
        [Code::TypeMismatch]
    );
}

#[test]
fn turn_responses() {
    let reply = json!({"stopReason": "end_turn", "messages": [
        {"role": "tool", "toolCallId": "from-an-earlier-turn", "content": "ok"},
        {"role": "assistant", "content": "Done."}
    ]});
    assert_eq!(codes(Kind::PostSessionTurnResponse, &reply, true), []);
    for reason in ["end_turn", "tool_use", "max_tokens", "refusal", "error"] {
        let reply = json!({"stopReason": reason, "messages": []});
        assert_eq!(codes(Kind::PostSessionTurnResponse, &reply, false), []);
    }
    let bad = json!({"stopReason": "stop", "messages": []});
    assert_eq!(
        codes(Kind::PostSessionTurnResponse, &bad, false),
        [Code::ValueNotAllowed]
    );
}

const DELTA: &str = "data: {\"event\":\"turn_start\"}\n\n\
    data: {\"event\":\"thinking_delta\",\"delta\":\"hm\"}\n\n\
    data: {\"event\":\"text_delta\",\"delta\":\"Hi\"}\n\n\
    data: {\"event\":\"tool_call\",\"toolCallId\":\"c\",\"name\":\"get-cart\",\"input\":{}}\n\n\
    data: {\"event\":\"tool_result\",\"toolCallId\":\"c\",\"content\":[{\"type\":\"text\",\"text\":\"[]\"}]}\n\n\
    data: {\"event\":\"turn_stop\",\"stopReason\":\"end_turn\"}\n\n";

#[test]
fn a_delta_stream_in_every_line_ending() {
    assert_eq!(stream(DELTA, None), []);
    assert_eq!(stream(DELTA, Some(StreamMode::Delta)), []);
    assert_eq!(stream(&DELTA.replace('\n', "\r\n"), None), []);
    assert_eq!(stream(&DELTA.replace('\n', "\r"), None), []);
    // The SSE rules drop an event that no blank line ends: a stream that
    // ends inside one is reported, whatever its last line ends with.
    assert_eq!(stream(DELTA.trim_end(), None), [Code::InvalidEventStream]);
    assert_eq!(
        stream(&format!("{}\n", DELTA.trim_end()), None),
        [Code::InvalidEventStream]
    );
    assert_eq!(
        stream(&format!("{}\r\n", DELTA.trim_end()), None),
        [Code::InvalidEventStream]
    );
    assert_eq!(
        stream(DELTA, Some(StreamMode::Message)),
        [Code::StreamModeMismatch, Code::StreamModeMismatch]
    );
}

#[test]
fn the_order_of_one_turn() {
    let start = "data: {\"event\":\"turn_start\"}\n\n";
    let stop = "data: {\"event\":\"turn_stop\",\"stopReason\":\"end_turn\"}\n\n";
    let text = "data: {\"event\":\"text\",\"text\":\"x\"}\n\n";
    assert_eq!(stream("", None), [Code::EventOrder]);
    assert_eq!(stream(": only a comment\n\n", None), [Code::EventOrder]);
    assert_eq!(stream(start, None), [Code::EventOrder]);
    assert_eq!(
        stream(&format!("{text}{start}{stop}"), None),
        [Code::EventOrder]
    );
    assert_eq!(
        stream(&format!("{start}{start}{stop}"), None),
        [Code::EventOrder]
    );
    assert_eq!(
        stream(&format!("{start}{stop}{text}"), None),
        [Code::EventOrder]
    );
    assert_eq!(stream(&format!("{start}{text}{stop}"), None), []);
}

#[test]
fn a_multi_line_event_is_located_in_the_file() {
    let text = "data: {\"event\":\"turn_start\"}\n\n\
        data: {\"event\": \"tool_call\", \"toolCallId\": \"c\",\n\
        data:  \"name\": \"get-order\",\n\
        data:  \"input\": {\"orderId\": 7}}\n\n\
        data: {\"event\":\"turn_stop\",\"stopReason\":\"tool_use\"}\n\n";
    let validator = AapValidator::new(Kind::Events)
        .unwrap()
        .with_protocol(&shop())
        .unwrap();
    let source = Source::new("s.sse", text);
    let found = check_events(&validator, &source, None);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].code, Code::TypeMismatch);
    let at = found[0].span.start as usize;
    assert_eq!(&text[at..at + 1], "7");
    assert_eq!(found[0].pointer.as_deref(), Some("/input/orderId"));
}

#[test]
fn hostile_streams_end_in_a_report() {
    // Fragments that stress the framing: lone CRs, colons, NULs, unclosed
    // JSON, huge lines, non-ASCII; mixed by a fixed pseudo-random walk.
    let parts = [
        "data:",
        "data: ",
        "event:",
        "event: x",
        ":",
        "\r",
        "\n",
        "\r\n",
        "{",
        "}",
        "\"event\"",
        "\u{0}",
        "é",
        "data: {\"event\":\"turn_start\"}",
        "id:",
        "retry: 9",
        "data: [",
        "\"",
        "\\",
        "turn_stop",
    ];
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    for _ in 0..400 {
        let mut text = String::new();
        for _ in 0..(seed % 40) {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            text.push_str(parts[(seed % parts.len() as u64) as usize]);
        }
        let _ = stream(&text, None);
    }
    let long = format!("data: {}\n\n", "[".repeat(100_000));
    assert_eq!(stream(&long, None), [Code::NestingLimit]);
    let huge = format!("data: \"{}\"\n\n", "x".repeat(5 * 1024 * 1024));
    assert_eq!(stream(&huge, None), [Code::ValueTooLarge]);
    assert_eq!(stream("event: ping\n\n", None), [Code::InvalidEventStream]);
}

/// What the brief measured: one event of a million `[]` that names no
/// `event`, one of a `tool_result` whose content is a flood of wrong
/// blocks. Each is explained as its union's discriminator says (one
/// problem, or one per block up to the limit), not by every branch.
#[test]
fn large_invalid_events_are_explained_by_the_branch_they_name() {
    let validator = AapValidator::new(Kind::Events).unwrap();
    let big = format!("data: [{}[]]\n\n", "[],".repeat(1_000_000));
    let found = check_events(&validator, &Source::new("s.sse", big), None);
    let messages: Vec<&str> = found.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        ["expected object, found an array of 1000001 items"],
        "no `event`, so nothing more than that"
    );
    let limit = agentc::diagnostic::MAX_DIAGNOSTICS;
    let blocks = "1,".repeat(2 * limit);
    let flood = format!(
        "data: {{\"event\":\"tool_result\",\"toolCallId\":\"c\",\"content\":[{blocks}1]}}\n\n"
    );
    let found = check_events(&validator, &Source::new("s.sse", flood), None);
    assert_eq!(found.len(), limit + 1);
    assert_eq!(found[0].code, Code::TooManyProblems);
    assert!(
        found[1..]
            .iter()
            .filter(|d| d.code == Code::TypeMismatch)
            .all(|d| d.message == "expected object, found number `1`")
    );
}

#[test]
fn what_agentc_emits_for_aap_is_what_the_schema_accepts() {
    // The conformance suite checks this with ajv; the same schema, in Rust.
    let model = shop();
    let agent =
        agentc::emit::aap::AgentMeta::new("shop", "Shop", Some("Sells things"), "1.2.3").unwrap();
    let mut notes = agentc::Diagnostics::default();
    let meta = agentc::emit::aap::meta(&model, agent, &mut notes);
    let schema = AapValidator::definition("GetMetaResponse").unwrap();
    assert_eq!(schema.validate(&meta), Ok(()));
    // A client may send back what /meta declares: its tools as client
    // tools, and every option at its default.
    let info = &meta["agents"][0];
    let options: serde_json::Map<String, Value> = info["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["name"].as_str().unwrap().to_string(),
                o["default"].clone(),
            )
        })
        .collect();
    let request = json!({"agent": {"name": "shop", "options": options}, "tools": info["tools"]});
    assert_eq!(codes(Kind::PostSessionsRequest, &request, true), []);
}
