//! `agentc check`'s phases over synthetic protocols of growing size, with
//! the raw `saphyr-parser` event pass over the same text as the floor: the
//! check's cost per byte should stay a small multiple of it, whatever the
//! size. Throughput is in bytes, so criterion reports MB/s and linear
//! growth shows as a flat rate. The shapes: ordinary protocols of 1k to
//! 100k types (31k types is 10 MB), a reference chain 30k types long and a
//! union of 1k variants. Run with `cargo bench --bench check`, or one shape
//! with `cargo bench --bench check -- "chain"`. `docs/performance.md` has
//! the results.

mod synthetic;

use agentc::emit::{Selection, Target};
use agentc::{Diagnostics, Model, Source, check, emit, syntax, yaml};
use criterion::{
    BatchSize, BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
};
use saphyr_parser::{Event, Parser};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("check");
    group.sample_size(10);
    // The big cases take a second an iteration: the same few iterations in
    // every sample, rather than criterion's growing counts.
    group.sampling_mode(SamplingMode::Flat);
    let cases = [
        ("1k types", synthetic::protocol(1_000)),
        ("10k types", synthetic::protocol(10_000)),
        ("31k types (10 MB)", synthetic::protocol(31_000)),
        ("100k types", synthetic::protocol(100_000)),
        ("chain of 30k", synthetic::chain(30_000)),
        ("union of 1k", synthetic::wide_union(1_000)),
    ];
    for (case, text) in cases {
        let source = Source::new("bench.yaml", text.as_str());
        let compiled = agentc::compile_source(source.clone());
        assert!(
            compiled.diagnostics.is_empty(),
            "the synthetic protocol should be clean: {:?}",
            compiled.diagnostics.first()
        );
        group.throughput(Throughput::Bytes(text.len() as u64));
        let id = |phase: &str| BenchmarkId::new(phase, case);

        group.bench_function(id("saphyr events (floor)"), |b| {
            b.iter(|| {
                let mut events = 0usize;
                for event in Parser::new_from_str(&text) {
                    match event {
                        Ok((Event::StreamEnd, _)) | Err(_) => break,
                        Ok(_) => events += 1,
                    }
                }
                black_box(events)
            })
        });
        group.bench_function(id("yaml tree"), |b| {
            b.iter(|| yaml::parse(&source, &mut Diagnostics::default()))
        });
        let mut diags = Diagnostics::default();
        let root = yaml::parse(&source, &mut diags).expect("the protocol parses");
        group.bench_function(id("lower"), |b| {
            // Lowering takes the tree; its copy is made outside the timing.
            b.iter_batched(
                || root.clone(),
                |root| Model::new(syntax::lower(root, &mut Diagnostics::default())),
                BatchSize::LargeInput,
            )
        });
        let model = Model::new(syntax::lower(root, &mut diags));
        group.bench_function(id("check"), |b| {
            b.iter(|| {
                let mut diags = Diagnostics::default();
                check::check(&model, &source, &mut diags);
                diags
            })
        });
        group.bench_function(id("emit json-schema"), |b| {
            b.iter(|| {
                emit::emit(
                    &model,
                    Target::JsonSchema,
                    Selection::All,
                    &mut Diagnostics::default(),
                )
            })
        });
        group.bench_function(id("end to end"), |b| {
            // From a `Source`, as the 100k-type protocol (32 MB) is past
            // the 16 MiB agentc reads from a file; the phases have no limit.
            b.iter(|| agentc::compile_source(Source::new("bench.yaml", text.as_str())))
        });
    }
    group.finish();
}

/// Floods of problems: a type whose one key is repeated on every line, at
/// three sizes either side of the limit of recorded diagnostics, compiled
/// and rendered in each format into a sink (as `agentc check` writes them,
/// the human one capped as `--max-diagnostics` does by default). The YAML
/// parser alone over the same text is the floor; throughput is in
/// problems, so a flat rate is linear growth.
fn floods(c: &mut Criterion) {
    use agentc::render::{self, human};
    let mut group = c.benchmark_group("flood");
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    for problems in [25_000, 100_000, 400_000] {
        let text = format!(
            "types:\n  T:\n{}",
            "    a: { type: string }\n".repeat(problems + 1)
        );
        group.throughput(Throughput::Elements(problems as u64));
        let id = |phase: &str| BenchmarkId::new(phase, problems);
        group.bench_function(id("saphyr events (floor)"), |b| {
            b.iter(|| {
                Parser::new_from_str(&text)
                    .take_while(Result::is_ok)
                    .count()
            })
        });
        group.bench_function(id("compile"), |b| {
            b.iter(|| agentc::compile_source(Source::new("flood.yaml", text.as_str())))
        });
        let compiled = [agentc::compile_source(Source::new(
            "flood.yaml",
            text.as_str(),
        ))];
        let sink = || std::io::sink();
        group.bench_function(id("json"), |b| {
            b.iter(|| render::json::write(&mut sink(), &compiled, &[]))
        });
        group.bench_function(id("sarif"), |b| {
            b.iter(|| render::sarif::write(&mut sink(), &compiled, &[]))
        });
        group.bench_function(id("short"), |b| {
            b.iter(|| render::short::write(&mut sink(), &compiled, &[]))
        });
        group.bench_function(id("human (50 drawn)"), |b| {
            b.iter(|| human::render_at_most(&compiled[0], human::Style::Plain, 50))
        });
    }
    group.finish();
}

/// The contract diff (`agentc diff`) of a synthetic protocol against
/// itself (nothing changed: every contract compared whole) and against a
/// copy in which every type's enum gained a value (a change in every
/// contract that reaches one), beside compiling the new version, the
/// check that `agentc check --against` adds the diff to. Throughput is in
/// bytes of one version.
fn diffs(c: &mut Criterion) {
    let mut group = c.benchmark_group("diff");
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    for types in [1_000, 10_000, 31_000] {
        let old_text = synthetic::protocol(types);
        let new_text = old_text.replace(
            "enum: [open, closed, pending]",
            "enum: [open, closed, pending, archived]",
        );
        let old = agentc::compile_source(Source::new("old.yaml", old_text.as_str()));
        let new = agentc::compile_source(Source::new("new.yaml", new_text.as_str()));
        group.throughput(Throughput::Bytes(old_text.len() as u64));
        let case = format!("{}k types", types / 1000);
        let id = |phase: &str| BenchmarkId::new(phase, &case);
        group.bench_function(id("compile (check)"), |b| {
            b.iter(|| agentc::compile_source(Source::new("new.yaml", new_text.as_str())))
        });
        let options = agentc::diff::Options::default();
        group.bench_function(id("diff, unchanged"), |b| {
            b.iter(|| agentc::diff::reports(&old, &old, "old.yaml", &options))
        });
        group.bench_function(id("diff, every enum widened"), |b| {
            b.iter(|| agentc::diff::reports(&old, &new, "old.yaml", &options))
        });
    }
    group.finish();
}

criterion_group!(benches, bench, floods, diffs);
criterion_main!(benches);
