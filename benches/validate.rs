//! Compile once, validate many: 100,000 tool-call argument objects through
//! agentc's `Validator`, beside the `jsonschema` crate used directly on the
//! same emitted schema. agentc's answer for a valid value is one
//! `jsonschema` pass, so the two should stay within a few percent; the
//! target is agentc ≤ 1.5x. Run with `cargo bench --bench validate`.

use agentc::validate::{Validator, json};
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use serde_json::{Value, json};
use std::hint::black_box;

#[path = "synthetic/mod.rs"]
mod synthetic;

const CALLS: usize = 100_000;

/// The example protocol's `search-products` tool: a string, an optional
/// nested object with an enum, a number, a boolean and `unknown`, and an
/// optional integer.
fn protocol() -> agentc::Model {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/protocols/shop-assistant/protocol.yaml"
    );
    let bytes = std::fs::read(path).expect("read the example protocol");
    let compiled = agentc::compile(path, bytes);
    assert!(!compiled.has_errors(), "the example protocol has errors");
    compiled.model.expect("a model")
}

fn bench(c: &mut Criterion) {
    let model = protocol();
    let agentc = Validator::for_tool(&model, "search-products").expect("the tool");
    let direct =
        jsonschema::draft202012::new(agentc.schema()).expect("the emitted schema compiles");
    let objects = synthetic::search_arguments(CALLS);
    let strings: Vec<String> = objects.iter().map(Value::to_string).collect();
    assert!(objects.iter().all(|v| agentc.is_valid(v)));

    let mut group = c.benchmark_group("validate 100k tool-call arguments");
    group.throughput(Throughput::Elements(CALLS as u64));
    group.sample_size(20);
    group.bench_function("jsonschema directly (objects)", |b| {
        b.iter(|| {
            objects
                .iter()
                .filter(|v| direct.validate(black_box(v)).is_ok())
                .count()
        })
    });
    group.bench_function("agentc Validator (objects)", |b| {
        b.iter(|| {
            objects
                .iter()
                .filter(|v| agentc.validate(black_box(v)).is_ok())
                .count()
        })
    });
    // As AG-UI carries them: JSON text in `function.arguments`.
    group.bench_function("serde_json + jsonschema (strings)", |b| {
        b.iter(|| {
            strings
                .iter()
                .filter(|s| {
                    serde_json::from_str::<Value>(black_box(s))
                        .is_ok_and(|v| direct.validate(&v).is_ok())
                })
                .count()
        })
    });
    group.bench_function("serde_json + agentc Validator (strings)", |b| {
        b.iter(|| {
            strings
                .iter()
                .filter(|s| {
                    serde_json::from_str::<Value>(black_box(s))
                        .is_ok_and(|v| agentc.validate(&v).is_ok())
                })
                .count()
        })
    });
    // As `agentc validate` reads data: each text checked and indexed in
    // one pass, and validated through the index, with no `serde_json`
    // value.
    group.bench_function("agentc index + Validator (strings)", |b| {
        b.iter(|| {
            strings
                .iter()
                .filter(|s| {
                    json::Index::checked(black_box(s.as_str())).is_ok_and(|index| {
                        index
                            .root()
                            .is_some_and(|root| agentc.validate_in(&index, root).is_ok())
                    })
                })
                .count()
        })
    });
    // The same, as it read them before: the syntax checked by `serde_json`
    // in a pass of its own, then indexed.
    group.bench_function(
        "agentc syntax pass, then index + Validator (strings)",
        |b| {
            b.iter(|| {
                strings
                    .iter()
                    .filter(|s| {
                        let text = black_box(s.as_str());
                        json::check_syntax(text).is_ok() && {
                            let index = json::Index::new(text);
                            index
                                .root()
                                .is_some_and(|root| agentc.validate_in(&index, root).is_ok())
                        }
                    })
                    .count()
            })
        },
    );
    group.finish();

    // What a report costs: one argument object with four problems, located
    // by pointer, with expected and found.
    let bad = json!({"query": 5, "filter": {"category": "garden", "maxPrice": "50"}, "limt": 2});
    c.bench_function("report one invalid argument object", |b| {
        b.iter_batched(
            || bad.clone(),
            |v| agentc.validate(&v).err().map(|e| e.len()),
            BatchSize::SmallInput,
        )
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
