//! Compiling again after an edit (`agentc::compile_again`) gives what a
//! compile from nothing gives: random edits, applied one after another to
//! every fixture under `protocols/` and to a synthetic protocol, each
//! result compared with `agentc::compile_source` of the same text, down
//! to every diagnostic (code, place, message, labels, help, fix) and the
//! model's every declaration and span.

use agentc::{FileReport, Source, compile_source, incremental};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

#[path = "../benches/synthetic/mod.rs"]
#[allow(dead_code)]
mod synthetic;

fn fixtures() -> &'static [(String, String)] {
    static FIXTURES: OnceLock<Vec<(String, String)>> = OnceLock::new();
    FIXTURES.get_or_init(|| {
        let mut files = Vec::new();
        collect(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("protocols"),
            &mut files,
        );
        files.sort();
        let mut texts: Vec<(String, String)> = files
            .into_iter()
            .filter_map(|path| {
                let text = String::from_utf8(std::fs::read(&path).ok()?).ok()?;
                Some((path.display().to_string(), text))
            })
            .collect();
        texts.push(("synthetic.yaml".to_string(), synthetic::protocol(60)));
        texts
    })
}

fn collect(dir: PathBuf, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            collect(path, out);
        } else if kind.is_file() && path.extension().is_some_and(|e| e == "yaml") {
            out.push(path);
        }
    }
}

/// Everything a report says, as text: each diagnostic whole, and the
/// model's declarations with their spans.
fn said(report: &FileReport) -> String {
    format!(
        "{:#?}\n{:#?}\nsound: {}",
        report.diagnostics,
        report.model.as_ref().map(|m| &m.protocol),
        report.sound
    )
}

/// What an edit writes: text that changes a protocol's shape, names and
/// types, YAML's own marks, and whole lines and entries.
const INSERTS: &[&str] = &[
    "b",
    "c",
    "1",
    "_",
    "Type1",
    ", optional: true",
    "\n    also: { type: Type2[] }",
    " ",
    "\n",
    "a",
    "x",
    ":",
    "#",
    "-",
    "'",
    "\"",
    "{",
    "}",
    "[",
    "]",
    "&a ",
    "*a",
    "|",
    "\t",
    "é",
    "strin",
    "string",
    "  ",
    "    ",
    "\n    extra: { type: strin }",
    "\n    note:\n      type: string\n      description: \"two\n  lines\"",
    "\n      description: >\n        folded\n\n",
    "\n  Added:\n    id: string\n",
    "\n  Added: string\n",
    "    more: { type: Order, optional: true }\n",
    "\n# a comment\n",
    "\ntypes:\n",
    "customerInfo",
    "Created",
    "kind",
    "order_id",
    "lonely_type",
    "Loop",
    "\n    kind: { type: string, const: x }",
];

#[derive(Clone, Debug)]
enum Edit {
    Insert { at: f64, text: usize },
    Delete { at: f64, len: usize },
    Replace { at: f64, len: usize, text: usize },
}

fn edit() -> impl Strategy<Value = Edit> {
    let at = 0.0..=1.0f64;
    prop_oneof![
        (at.clone(), 0..INSERTS.len()).prop_map(|(at, text)| Edit::Insert { at, text }),
        (at.clone(), 1..40usize).prop_map(|(at, len)| Edit::Delete { at, len }),
        (at, 1..12usize, 0..INSERTS.len()).prop_map(|(at, len, text)| Edit::Replace {
            at,
            len,
            text
        }),
    ]
}

fn boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn apply(text: &str, edit: &Edit) -> String {
    let place = |at: f64| boundary(text, (at * text.len() as f64) as usize);
    let (start, end, insert) = match *edit {
        Edit::Insert { at, text } => (place(at), place(at), INSERTS[text]),
        Edit::Delete { at, len } => {
            let start = place(at);
            (start, boundary(text, start + len), "")
        }
        Edit::Replace { at, len, text: t } => {
            let start = place(at);
            (start, boundary(text, start + len), INSERTS[t])
        }
    };
    format!("{}{}{}", &text[..start], insert, &text[end..])
}

/// How many edits were compiled from the previous compile, and how many
/// in all: the comparison must not hold only because every edit was
/// compiled from nothing.
static REUSED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
static EDITS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn check_edits(file: usize, edits: &[Edit]) -> Result<(), TestCaseError> {
    let (name, text) = &fixtures()[file % fixtures().len()];
    check_edits_of(name, text, edits)
}

fn check_edits_of(name: &str, text: &str, edits: &[Edit]) -> Result<(), TestCaseError> {
    let mut text = text.to_string();
    let mut report = compile_source(Source::new(name, text.as_str()));
    for edit in edits {
        text = apply(&text, edit);
        let fresh = compile_source(Source::new(name, text.as_str()));
        let source = Source::new(name, text.as_str());
        let (again, reused) = incremental::again(report.into_previous(), source);
        if reused {
            REUSED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        EDITS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        prop_assert_eq!(
            said(&again),
            said(&fresh),
            "{} after {:?}:\n{}",
            name,
            edit,
            text
        );
        report = again;
    }
    Ok(())
}

/// Types whose checks read one another: a union reads its variants, a
/// rename fixes every use of a name (in types and tools), a name that
/// breaks the convention is renamed only where no other name would
/// become the same, an unknown type is matched against every name, and
/// two types refer to each other in a cycle. An edit inside one type
/// gives again what the others' checks found before; each result must
/// still be a compile from nothing's.
const TYPE_CHECKS: &str = "\
types:
  Order:
    order_id: { type: string }
    status: { type: string, enum: [Open, closed, open, 3] }
    customer: { type: customerInfo }
    lines: { type: \"Line[]\" }
    note: { type: strng }
    extra: { type: object }
  customerInfo:
    name: { type: string }
    orders: { type: \"Order[]\" }
    event: { type: Event, optional: true }
  Line:
    sku: { type: string, const: 12 }
    qty: { type: integer, enum: [1, 2] }
    raw: { type: array }
  Event:
    anyOf: [Created, Cancelled, Created, string]
    discriminator: kind
  Created:
    kind: { type: string, const: created }
    at: { type: string }
  Cancelled:
    kind: { type: string }
    reason: { type: string }
  Dup:
    anyOf: [Created, Line]
    discriminator: kind
  NoKey:
    anyOf: [Created, Cancelled]
  lonely_type:
    value: { type: unknown }
  Tags:
    type: array
    items: { type: string, enum: [] }
  Loop:
    next: { type: Loop, optional: true }
tools:
  find-order:
    description: Finds an order
    parameters:
      id: { type: string }
      who: { type: customerInfo }
      other: { type: lonely_type }
";

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn an_edited_protocol_compiles_again_as_from_nothing(
        file in 0..10_000usize,
        edits in proptest::collection::vec(edit(), 1..6),
    ) {
        check_edits(file, &edits)?;
    }

    #[test]
    fn edits_among_types_that_read_each_other_compile_again_as_from_nothing(
        edits in proptest::collection::vec(edit(), 1..8),
    ) {
        check_edits_of("type-checks.yaml", TYPE_CHECKS, &edits)?;
    }
}

/// Types `typed` a character at a time at `at` in `base`, each text
/// compiled from the compile of the one before and compared with a
/// compile from nothing; `each` sees each report compiled in place, with
/// what was typed so far. Most keystrokes must be compiled in place; says
/// how many were.
fn type_into(base: &str, at: usize, typed: &str, mut each: impl FnMut(&FileReport, &str)) -> usize {
    let mut report = compile_source(Source::new("p.yaml", base));
    let mut reused = 0;
    for n in 1..=typed.len() {
        let text = format!("{}{}{}", &base[..at], &typed[..n], &base[at..]);
        let fresh = compile_source(Source::new("p.yaml", text.as_str()));
        let again =
            incremental::again(report.into_previous(), Source::new("p.yaml", text.as_str()));
        report = again.0;
        assert_eq!(
            said(&report),
            said(&fresh),
            "after typing {:?}",
            &typed[..n]
        );
        if again.1 {
            reused += 1;
            each(&report, &typed[..n]);
        }
    }
    eprintln!(
        "{reused} of {} keystrokes reused the compile before",
        typed.len()
    );
    assert!(
        reused * 2 >= typed.len(),
        "{reused} of {} keystrokes reused the compile before",
        typed.len()
    );
    reused
}

/// Typing inside one type checks that type and the types linked to it
/// again, not every type: the others' diagnostics are given again.
#[test]
fn typing_inside_a_type_checks_only_the_types_it_touches() {
    let base = TYPE_CHECKS;
    let opened = compile_source(Source::new("p.yaml", base));
    let types = opened.model.as_ref().map_or(0, |m| m.protocol.types.len());
    assert_eq!(incremental::types_checked(&opened), Some(types));
    // A property typed into `Line`, which `Order` and `Dup` name.
    let at = base.find("  Event:\n").expect("type Event") - 1;
    let mut checked_in_all = 0;
    let reused = type_into(
        base,
        at,
        "\n    added:\n      type: strin",
        |report, typed| {
            let checked = incremental::types_checked(report).expect("kept for the next edit");
            checked_in_all += checked;
            // `Line`, the two types that name it, and `customerInfo` and
            // `lonely_type` once a new name is typed (their names break the
            // convention, so whether their rename collides is read again).
            assert!(
                checked <= 5,
                "{checked} of {types} types checked again after typing {typed:?}"
            );
        },
    );
    eprintln!("{checked_in_all} types checked in {reused} keystrokes (of {types} each time)");
}

/// Edits inside one entry are the language server's keystrokes; most of
/// them must be compiled from the compile before.
#[test]
fn typing_inside_an_entry_reuses_the_compile_before() {
    let base = synthetic::protocol(40);
    // A new property typed into the tenth type.
    let at = base.find("  Type11:\n").expect("type Type11") - 1;
    type_into(&base, at, "\n    added:\n      type: strin", |_, _| {});
}

#[test]
fn the_random_edits_reuse_the_compile_before_often() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = (0..10_000usize, proptest::collection::vec(edit(), 1..6));
    for _ in 0..300 {
        let (file, edits) = strategy.new_tree(&mut runner).expect("a case").current();
        check_edits(file, &edits).expect("the same report");
    }
    let reused = REUSED.load(std::sync::atomic::Ordering::Relaxed);
    let edits = EDITS.load(std::sync::atomic::Ordering::Relaxed);
    eprintln!("{reused} of {edits} edits reused the compile before");
    assert!(
        reused * 20 >= edits,
        "only {reused} of {edits} edits were compiled from the compile before"
    );
}

/// An entry nested to YAML's depth limit reads the same alone as in its
/// file, at the limit and one level past it: the limit counts the levels
/// above the entry too.
#[test]
fn the_nesting_limit_counts_the_levels_above_an_entry() {
    for depth in [2, 122, 123, 124, 125, 126, 127, 128, 129] {
        let mut nested = String::new();
        for level in 0..depth {
            nested.push_str(&" ".repeat(4 + 2 * level));
            nested.push_str("k:\n");
        }
        let base = format!(
            "types:\n  A:\n    id: string\n  B:\n    id: string\n{nested}  C:\n    id: string\n"
        );
        let before = compile_source(Source::new("p.yaml", base.as_str()));
        // One level more, typed at the deepest.
        let deepest = format!("{}k:\n", " ".repeat(4 + 2 * (depth - 1)));
        let deeper = format!("{deepest}{}k:\n", " ".repeat(4 + 2 * depth));
        let text = base.replacen(&deepest, &deeper, 1);
        let fresh = compile_source(Source::new("p.yaml", text.as_str()));
        let (again, reused) =
            incremental::again(before.into_previous(), Source::new("p.yaml", text.as_str()));
        assert_eq!(
            said(&again),
            said(&fresh),
            "nested {depth} deep (reused: {reused})"
        );
        // Under the limit the entry is read alone; past it, the limit is a
        // problem of reading, and the text is read whole.
        let limited = fresh
            .diagnostics
            .iter()
            .any(|d| d.code == agentc::Code::NestingLimit);
        assert!(
            reused != limited,
            "nested {depth} deep: reused {reused}, limited {limited}"
        );
    }
}

/// A compile from nothing stops at the step after `cancel` first says so,
/// however far it got (asked before the YAML, every few thousand events
/// or lines in it and in the indentation repair, then between the
/// phases), and gives back the text and the compile before it was given,
/// still whole: compiling the next text from that compile is the compile
/// from nothing of that text, and reuses it. Both for a text that reads
/// (a comment above the sections, outside every entry) and for one with a
/// YAML mistake typed into a type.
#[test]
fn a_cancelled_compile_gives_back_what_it_was_given() {
    use agentc::cancel::Cancel;
    use std::sync::atomic::{AtomicUsize, Ordering};

    let base = synthetic::protocol(400);
    let at = base.find("  Type11:\n").expect("type Type11") - 1;
    let commented = format!("# the shop's types\n{base}");
    let broken = format!("{}\n    added: [\n{}", &base[..at], &base[at..]);
    let typed = base.replacen("Identifier of item 3", "Identifier of item three", 1);
    let source = |text: &str| Source::new("p.yaml", text);
    for (text, least) in [(&commented, 5), (&broken, 2)] {
        let fresh = compile_source(source(text));
        // How often a compile that runs to its end asks.
        let asks = AtomicUsize::new(0);
        let counted = || {
            asks.fetch_add(1, Ordering::Relaxed);
            false
        };
        let before = compile_source(source(&base)).into_previous();
        let whole = agentc::compile_again_unless(before, source(text), &Cancel::when(&counted));
        assert_eq!(said(&whole.expect("never told to stop")), said(&fresh));
        let questions = asks.load(Ordering::Relaxed);
        assert!(questions >= least, "asked {questions} times over 400 types");

        let mut previous = compile_source(source(&base)).into_previous();
        for stop in 1..=questions {
            let asks = AtomicUsize::new(0);
            let asked = || asks.fetch_add(1, Ordering::Relaxed) + 1 >= stop;
            let cancel = Cancel::when(&asked);
            let stopped = agentc::compile_again_unless(previous.take(), source(text), &cancel);
            let Err(cancelled) = stopped else {
                panic!("not stopped when told to at question {stop} of {questions}");
            };
            assert_eq!(
                asks.load(Ordering::Relaxed),
                stop,
                "no question after the answer"
            );
            assert_eq!(cancelled.source.text(), text.as_str());
            previous = cancelled.previous.map(|previous| *previous);
            assert!(previous.is_some(), "the compile before is given back");
        }
        let (again, reused) = incremental::again(previous, source(&typed));
        assert_eq!(said(&again), said(&compile_source(source(&typed))));
        assert!(reused, "the compile given back is reused");
    }
}

/// An edit the compile before takes in place is one frame's work: it is
/// not stopped, whatever `cancel` says.
#[test]
fn an_edit_taken_in_place_is_not_cancelled() {
    use agentc::cancel::Cancel;

    let base = synthetic::protocol(40);
    let before = compile_source(Source::new("p.yaml", base.as_str()));
    let text = base.replacen("Identifier of item 3", "Identifier of item three", 1);
    let stop = || true;
    let again = agentc::compile_again_unless(
        before.into_previous(),
        Source::new("p.yaml", text.as_str()),
        &Cancel::when(&stop),
    );
    let fresh = compile_source(Source::new("p.yaml", text.as_str()));
    assert_eq!(said(&again.expect("taken in place")), said(&fresh));
}

/// Compiles `before`, then `after` from it, and asserts the edit was taken
/// in place and reads as a compile from nothing of `after`.
fn edited_in_place_as_from_nothing(before: &str, after: &str) {
    edits_in_place_as_from_nothing(&[before, after]);
}

/// Compiles each text from the compile of the one before it.
fn edits_in_place_as_from_nothing(texts: &[&str]) {
    let mut report = compile_source(Source::new("p.yaml", texts[0]));
    for text in &texts[1..] {
        let (again, reused) =
            incremental::again(report.into_previous(), Source::new("p.yaml", *text));
        assert!(reused, "the edit was taken in place:\n{text}");
        let fresh = compile_source(Source::new("p.yaml", *text));
        assert_eq!(said(&again), said(&fresh), "after the edit:\n{text}");
        report = again;
    }
}

/// Each thing a type's checks or the model read from other types and
/// entries, changed by an edit inside an entry they are not linked to: it
/// is read again. Each case: what it changes, the text, and the edit (the
/// text's one `from` becomes `to`).
#[test]
fn what_an_edit_changes_is_read_again() {
    let cases = [
        (
            "a property is not renamed when a union discriminates by its name",
            "types:\n  Plain:\n    my_kind: { type: string }\n  U:\n    anyOf: [A, B]\n    discriminator: other\n  A:\n    other: { type: string, const: a }\n  B:\n    other: { type: string, const: b }\n",
            "discriminator: other",
            "discriminator: my_kind",
        ),
        (
            "a type is not renamed to a name another type is used by",
            "types:\n  fooBar:\n    x: { type: string }\n  Other:\n    y: { type: string }\n  User:\n    z: { type: fooBar }\n",
            "y: { type: string }",
            "y: { type: FooBar }",
        ),
        (
            "a reference typed into a type closes a cycle through others",
            "types:\n  A:\n    x: { type: C }\n  B:\n    y: { type: string }\n  C:\n    z: { type: string }\n",
            "z: { type: string }",
            "z: { type: A }",
        ),
        (
            "a type renamed: every unknown type's suggestion may change",
            "types:\n  Order:\n    x: { type: Ordr }\n  Item:\n    y: { type: string }\n",
            "  Item:",
            "  Ordx:",
        ),
        (
            "a variant's discriminator property changed under its union",
            "types:\n  U:\n    anyOf: [A, B]\n    discriminator: kind\n  A:\n    kind: { type: string, const: a }\n  B:\n    kind: { type: string, const: b }\n",
            "const: b",
            "const: a",
        ),
        (
            "a use of a badly named type removed: its rename no longer edits there",
            "types:\n  fooBar:\n    x: { type: string }\n  User:\n    z: { type: fooBar }\n    w: { type: string }\n",
            "z: { type: fooBar }",
            "z: { type: string }",
        ),
        (
            "the names read a trigger's inputs",
            HANDLED,
            "      QUESTION: {",
            "      ASKED: {",
        ),
        (
            "the names read the threads handlers start",
            HANDLED,
            "thread: summary\n    Reply",
            "thread: digest\n    Reply",
        ),
    ];
    for (what, before, from, to) in cases {
        assert_eq!(before.matches(from).count(), 1, "{what}: one `{from}`");
        eprintln!("{what}");
        edited_in_place_as_from_nothing(before, &before.replace(from, to));
    }
    // The type graph kept from edit to edit: a tool edited before the
    // types moves their references, which a later edit's cycle reads.
    let first = "tools:\n  t:\n    description: x\n    parameters:\n      a: { type: string }\ntypes:\n  A:\n    b: { type: B }\n  B:\n    a: { type: A }\n";
    let second = first.replace("description: x", "description: xyz");
    let third = second.replace("b: { type: B }", "b: { type: B, description: d }");
    edits_in_place_as_from_nothing(&[first, &second, &third]);
}

/// A trigger with an input a handler reads, and a handler that starts a
/// thread another block talks to.
const HANDLED: &str = "triggers:\n  ask:\n    input:\n      QUESTION: { type: string }\n  done: {}\nhandlers:\n  ask:\n    Add:\n      block: add-message\n      role: user\n      prompt: ask\n      input: [QUESTION]\n  done:\n    Start:\n      block: start-thread\n      thread: summary\n    Reply:\n      block: next-message\n      thread: summary\n";
