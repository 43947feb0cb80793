//! Properties of data validation over generated JSON: no value or text
//! makes it panic; a value has violations exactly when `jsonschema` says it
//! is invalid; every reported span lies on the text, on a character
//! boundary; and every pointer names a value that exists.

mod common;

use agentc::validate::data::{self, Layout};
use agentc::validate::run_input::{Options, Profile, RunInputValidator, Version};
use agentc::validate::{ToolValidators, Validator};
use agentc::{Diagnostic, Source};
use proptest::prelude::*;
use serde_json::Value;
use std::sync::OnceLock;

struct Fixtures {
    reply: Validator,
    search: Validator,
    run_input: RunInputValidator,
    /// Every AG-UI version, strict and tolerant.
    versions: Vec<RunInputValidator>,
}

fn fixtures() -> &'static Fixtures {
    static FIXTURES: OnceLock<Fixtures> = OnceLock::new();
    FIXTURES.get_or_init(|| {
        let path = common::root().join("protocols/shop-assistant/protocol.yaml");
        let model = common::compile(&path).model.expect("a model");
        Fixtures {
            reply: Validator::for_type(&model, "AssistantReply").unwrap(),
            search: Validator::for_tool(&model, "search-products").unwrap(),
            run_input: RunInputValidator::new(Profile::Backend)
                .unwrap()
                .with_tools(ToolValidators::new(&model).unwrap()),
            versions: [Version::Draft, Version::V1_0, Version::V1_1]
                .into_iter()
                .flat_map(|version| {
                    [false, true].map(|strict| {
                        RunInputValidator::with_options(Options {
                            profile: Profile::AgUi,
                            version,
                            strict,
                        })
                        .unwrap()
                    })
                })
                .collect(),
        }
    })
}

/// JSON built from the names the schemas use, so generated values reach
/// deep into them instead of failing at the root.
fn value() -> impl Strategy<Value = Value> {
    let word = prop::sample::select(vec![
        "reply",
        "kind",
        "text",
        "order_update",
        "message",
        "query",
        "filter",
        "category",
        "sports",
        "limit",
        "threadId",
        "runId",
        "protocolVersion",
        "1.0",
        "9.9",
        "forwardedProps",
        "binary",
        "file",
        "source",
        "activity",
        "encryptedValueType",
        "messages",
        "role",
        "user",
        "assistant",
        "tool",
        "id",
        "content",
        "type",
        "binary",
        "image",
        "source",
        "url",
        "toolCalls",
        "function",
        "name",
        "arguments",
        "toolCallId",
        "search-products",
        "{\"query\": 1}",
        "mimeType",
        "image/png",
        "550e8400-e29b-41d4-a716-446655440000",
        "é\"\\/",
    ]);
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        word.clone().prop_map(Value::from),
    ];
    leaf.prop_recursive(6, 64, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((word.clone(), inner), 0..6).prop_map(|entries| Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), v))
                    .collect()
            )),
        ]
    })
}

fn assert_placed(source: &Source, diagnostics: &[Diagnostic], value: Option<&Value>) {
    let text = source.text();
    for d in diagnostics {
        for span in std::iter::once(d.span).chain(d.labels.iter().map(|l| l.span)) {
            assert!(
                span.start <= span.end && span.end as usize <= text.len(),
                "{span} off {text}"
            );
            assert!(
                text.is_char_boundary(span.start as usize)
                    && text.is_char_boundary(span.end as usize)
            );
        }
        if let (Some(pointer), Some(value)) = (&d.pointer, value) {
            // The pointer names the value, or for an unknown key, the member.
            assert!(value.pointer(pointer).is_some(), "{pointer} not in {value}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn violations_exactly_when_invalid(value in value()) {
        let f = fixtures();
        for validator in [&f.reply, &f.search] {
            prop_assert_eq!(validator.validate(&value).is_ok(), validator.is_valid(&value));
            if let Err(violations) = validator.validate(&value) {
                prop_assert!(!violations.is_empty());
            }
        }
    }

    #[test]
    fn reports_point_into_the_text(value in value(), pretty in any::<bool>()) {
        let f = fixtures();
        let text = if pretty { serde_json::to_string_pretty(&value) } else { serde_json::to_string(&value) }.unwrap();
        let source = Source::new("data.json", text.clone());
        let found = data::check(&f.reply, &source, Layout::default());
        assert_placed(&source, &found, Some(&value));
        let found = data::check_run_input(&f.run_input, &source, Layout::default());
        // Conversation checks may point into tool-call arguments, which are
        // strings; pointers still name values of the payload.
        assert_placed(&source, &found, Some(&value));
        for validator in &f.versions {
            assert_placed(&source, &data::check_run_input(validator, &source, Layout::default()), Some(&value));
        }
        // The same value as a JSON-encoded string of arguments.
        let encoded = serde_json::to_string(&Value::String(text)).unwrap();
        let source = Source::new("args.json", encoded);
        let found = data::check(&f.search, &source, Layout { lines: false, encoded: true });
        assert_placed(&source, &found, None);
    }

    #[test]
    fn any_text_gets_diagnostics_not_a_panic(text in "[ -~\n\"{}\\[\\]:,é]{0,80}") {
        let f = fixtures();
        let source = Source::new("data.json", text);
        for lines in [false, true] {
            let layout = Layout { lines, encoded: true };
            assert_placed(&source, &data::check(&f.search, &source, layout), None);
            assert_placed(&source, &data::check_run_input(&f.run_input, &source, layout), None);
        }
    }
}
