use super::excerpt::{self, CONTEXT, HEAD, LINE_LIMIT, MAX_GAP_LINES, MAX_SPAN_LINES, WORK};
use super::*;
use crate::FileReport;
use crate::diagnostic::Code;
use crate::source::Source;
use crate::span::Span;
use miette::{MietteError, NamedSource, SpanContents};
use proptest::prelude::*;

/// The widest line any test below may draw, in characters: the gutter, and
/// a few windows of `2 * CONTEXT` characters.
const WIDEST: usize = 400;

fn file(text: &str, diagnostics: Vec<Diagnostic>) -> FileReport {
    FileReport::uncompiled(Source::new("t.yaml", text), diagnostics)
}

fn span_of(text: &str, needle: &str) -> Span {
    let at = text
        .rfind(needle)
        .unwrap_or_else(|| panic!("`{needle}` is not in the text"));
    Span::new(at, at + needle.len())
}

fn unknown_type(span: Span) -> Diagnostic {
    Diagnostic::new(Code::UnknownType, span, "type `strng` is not defined")
        .with_help("did you mean `string`?")
}

/// Draws the file, and checks what every drawing must be: no line wider than
/// `WIDEST`, no carriage return, and each frame's header at the real line
/// and column (in Unicode scalar values) of its diagnostic's span.
fn drawn(file: &FileReport) -> String {
    let out = render(file, Style::Plain);
    for line in out.lines() {
        let width = line.chars().count();
        assert!(width <= WIDEST, "a line of {width} characters: {line:.200}");
        assert!(!line.contains('\r'), "{line:?}");
    }
    for d in &file.diagnostics {
        let at = file.source.position(d.span.start as usize);
        let header = format!("[{}:{}:{}]", file.source.name(), at.line, at.column);
        assert!(out.contains(&header), "no {header} in\n{out}");
    }
    out
}

/// The source lines of the drawing, as `(line number, text)`.
fn source_lines(out: &str) -> Vec<(usize, String)> {
    out.lines()
        .filter_map(|line| {
            let (number, text) = line.split_once(" │ ")?;
            let number = number.trim().parse().ok()?;
            Some((number, text.to_string()))
        })
        .collect()
}

#[test]
fn a_span_past_column_65535_is_drawn_around_the_span() {
    // miette 7.6 panics formatting a width over u16::MAX for this.
    let text = format!(
        "types:\n  T:\n    a: {{ description: \"{}\", type: strng }}\n",
        "x".repeat(70_000)
    );
    let out = drawn(&file(&text, vec![unknown_type(span_of(&text, "strng"))]));
    assert!(out.contains("[t.yaml:3:70033]"), "{out}");
    let lines = source_lines(&out);
    let line3 = &lines.iter().find(|(n, _)| *n == 3).expect("line 3").1;
    assert!(
        line3.starts_with('…') && line3.ends_with("type: strng }"),
        "{line3}"
    );
    assert_eq!(line3.chars().count(), 1 + CONTEXT + "strng }".len());
}

#[test]
fn a_span_at_the_end_of_a_long_line_of_wide_characters() {
    let text = format!("types:\n  T:\n    a: {}strng\n", "漢".repeat(300_000));
    let out = drawn(&file(&text, vec![unknown_type(span_of(&text, "strng"))]));
    assert!(
        out.contains(&format!("[t.yaml:3:{}]", 8 + 300_000)),
        "{out}"
    );
    assert!(out.contains("漢漢漢strng\n"), "{out}");
}

#[test]
fn a_megabyte_long_span_and_name_are_drawn_by_their_ends() {
    let name = format!("S{}E", "s".repeat(1 << 20));
    let text = format!("types:\n  T:\n    a: {{ type: {name} }}\n");
    let d = Diagnostic::new(
        Code::UnknownType,
        span_of(&text, &name),
        format!("type `{name}` is not defined"),
    )
    .with_label(span_of(&text, "a:"), format!("`{name}` is used here"))
    .with_help(format!("define `{name}` under `types:`"));
    let out = drawn(&file(&text, vec![d]));
    assert!(out.len() < 4_000, "{} bytes:\n{out}", out.len());
    // The span's start and end, with `…` between; the message, the label
    // and the help quote the name by its ends, too.
    assert!(out.contains(&format!("type: S{}…{}E }}", "s".repeat(39), "s".repeat(39))));
    // (The word shortened is the name in backquotes.)
    let short = format!(
        "S{}…{}E",
        "s".repeat(WORD_END - 2),
        "s".repeat(WORD_END - 2)
    );
    assert_eq!(out.matches(&short).count(), 3, "{out}");
}

#[test]
fn a_span_at_column_1_of_a_long_line() {
    let text = format!("{} x\n", "k".repeat(100_000));
    let d = Diagnostic::new(Code::YamlSyntax, Span::new(0, 1), "here");
    let out = drawn(&file(&text, vec![d]));
    assert!(out.contains("[t.yaml:1:1]"), "{out}");
    let lines = source_lines(&out);
    assert_eq!(lines[0].1, format!("{}…", "k".repeat(CONTEXT + 1)));
}

#[test]
fn a_span_at_the_end_of_the_file() {
    for end in ["", "\n"] {
        let text = format!("a: 1\nb: {}{end}", "v".repeat(10_000));
        let d = Diagnostic::new(Code::YamlSyntax, Span::empty(text.len()), "at the end");
        let out = drawn(&file(&text, vec![d]));
        assert!(out.contains("at the end"), "{out}");
    }
}

#[test]
fn an_empty_file_with_a_span_at_0() {
    let d = Diagnostic::new(Code::YamlSyntax, Span::empty(0), "empty");
    let out = drawn(&file("", vec![d]));
    assert!(out.contains("[t.yaml:1:1]"), "{out}");
}

#[test]
fn long_lines_after_crlf_and_lone_cr_breaks() {
    for br in ["\r\n", "\r"] {
        let long = "y".repeat(80_000);
        let text = format!("types:{br}  T:{br}    a: {{ d: {long}, type: strng }}{br}    b: 1{br}");
        let out = drawn(&file(&text, vec![unknown_type(span_of(&text, "strng"))]));
        assert!(out.contains("[t.yaml:3:80021]"), "{out}");
        let numbers: Vec<usize> = source_lines(&out).iter().map(|(n, _)| *n).collect();
        assert_eq!(numbers, [2, 3, 4], "{out}");
    }
}

#[test]
fn two_labels_far_apart_on_one_long_line() {
    let text = format!(
        "a: {{ first: 1, {} second: 2 }}\n",
        "pad: 0, ".repeat(10_000)
    );
    let d = Diagnostic::new(Code::DuplicateKey, span_of(&text, "second"), "duplicate")
        .with_label(span_of(&text, "first"), "first defined here");
    let out = drawn(&file(&text, vec![d]));
    assert!(out.contains("[t.yaml:1:80017]"), "{out}");
    assert!(out.contains("first defined here"), "{out}");
    let lines = source_lines(&out);
    assert_eq!(lines.len(), 1, "{out}");
    assert!(lines[0].1.starts_with("a: { first: 1, pad"), "{out}");
    assert_eq!(lines[0].1.matches('…').count(), 1, "{out}");
}

#[test]
fn a_label_on_another_line_of_a_long_file() {
    let mut text = String::from("types:\n  T:\n    a: { type: string }\n");
    for i in 0..50 {
        text.push_str(&format!(
            "    p{i}: {{ type: string, description: {} }}\n",
            "d".repeat(500)
        ));
    }
    text.push_str(&format!(
        "    a: {{ type: string, description: {} }}\n",
        "d".repeat(500)
    ));
    let second = text.rfind("a:").expect("the duplicate");
    let d = Diagnostic::new(
        Code::DuplicateKey,
        Span::new(second, second + 1),
        "duplicate",
    )
    .with_label(Span::new(16, 17), "first defined here");
    let out = drawn(&file(&text, vec![d]));
    // Two frames, one for each label: they are far apart.
    assert_eq!(out.matches("╭─[").count(), 2, "{out}");
    assert!(
        out.contains("[t.yaml:54:5]") && out.contains("[t.yaml:3:5]"),
        "{out}"
    );
    // Every long context line is drawn by its start.
    for (_, line) in source_lines(&out) {
        assert!(line.chars().count() <= HEAD + 1, "{line}");
    }
}

#[test]
fn a_span_over_many_lines_is_clipped_to_its_first_lines() {
    let items: String = (0..1000).map(|i| format!("  - item{i}\n")).collect();
    let text = format!("tools:\n{items}agent: {{}}\n");
    let start = text.find("- item0").expect("the list");
    let end = text.find("agent").expect("the end") - 1;
    let d = Diagnostic::new(Code::WrongShape, Span::new(start, end), "a list");
    let out = drawn(&file(&text, vec![d]));
    let numbers: Vec<usize> = source_lines(&out).iter().map(|(n, _)| *n).collect();
    assert_eq!(
        numbers,
        (1..=MAX_SPAN_LINES + 2).collect::<Vec<_>>(),
        "{out}"
    );
    assert!(out.contains("continues to line 1001"), "{out}");
}

#[test]
fn labels_far_apart_in_a_long_file_get_a_frame_each() {
    // miette's own rule would join these (it reaches further the further
    // down the file) and draw the hundred lines between them.
    let text: String = (0..300).map(|i| format!("k{i}: {i}\n")).collect();
    let second = text.find("k250:").expect("k250");
    let first = text.find("k150:").expect("k150");
    let d = Diagnostic::new(
        Code::DuplicateKey,
        Span::new(second, second + 4),
        "duplicate",
    )
    .with_label(Span::new(first, first + 4), "first defined here");
    let out = drawn(&file(&text, vec![d]));
    let numbers: Vec<usize> = source_lines(&out).iter().map(|(n, _)| *n).collect();
    assert_eq!(numbers, [150, 151, 152, 250, 251, 252], "{out}");
    // Closer, they share a frame, with the lines between them.
    let second = text
        .find(&format!("k{}:", 150 + MAX_GAP_LINES + 3))
        .expect("key");
    let d = Diagnostic::new(
        Code::DuplicateKey,
        Span::new(second, second + 4),
        "duplicate",
    )
    .with_label(Span::new(first, first + 4), "first defined here");
    let out = drawn(&file(&text, vec![d]));
    let numbers: Vec<usize> = source_lines(&out).iter().map(|(n, _)| *n).collect();
    assert_eq!(numbers, (150..=150 + MAX_GAP_LINES + 5).collect::<Vec<_>>());
}

#[test]
fn the_header_column_counts_characters() {
    // miette counted bytes: `é` made the column 17.
    let text = "types:\n  T:\n    é: { type: strng }\n";
    let out = drawn(&file(text, vec![unknown_type(span_of(text, "strng"))]));
    assert!(out.contains("[t.yaml:3:16]"), "{out}");
}

#[test]
fn long_words_are_shortened_in_the_texts_only() {
    let word = "w".repeat(LONG_WORD + 1);
    let text = format!("a {word} b\nc\n");
    let shortened = shorten_long_words(&text);
    let expected = format!("a {}…{} b\nc\n", "w".repeat(WORD_END), "w".repeat(WORD_END));
    assert_eq!(shortened, expected);
    let exact = "w".repeat(LONG_WORD);
    assert_eq!(shorten_long_words(&exact), exact);
    let wide = format!("`{}`", "漢".repeat(LONG_WORD * 2));
    let shortened = shorten_long_words(&wide);
    assert_eq!(shortened.chars().count(), 2 * WORD_END + 1);
}

#[test]
fn render_at_most_draws_the_first_diagnostics_and_counts_the_rest() {
    let text = "types:\n  T:\n    a: { type: strng }\n";
    let diagnostics = (0..5)
        .map(|_| unknown_type(span_of(text, "strng")))
        .collect();
    let f = file(text, diagnostics);
    let all = render(&f, Style::Plain);
    let (two, left) = render_at_most(&f, Style::Plain, 2);
    assert_eq!(left, 3);
    assert_eq!(two.matches("unknown-type").count(), 2);
    assert!(all.starts_with(&two));
    assert_eq!(render_at_most(&f, Style::Plain, 9), (all.clone(), 0));
    assert_eq!(render_at_most(&f, Style::Plain, 0), (String::new(), 5));
}

// What miette's own `SourceCode` draws, and what it costs.

/// miette's implementation for text, which reads the text from its first
/// byte to the end of the contents it returns, counted as such.
struct ScanFromStart<'a>(&'a NamedSource<String>);

impl SourceCode for ScanFromStart<'_> {
    fn read_span<'b>(
        &'b self,
        span: &miette::SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'b> + 'b>, MietteError> {
        let contents = self.0.read_span(span, before, after)?;
        excerpt::work(contents.span().offset() + contents.span().len());
        Ok(contents)
    }
}

/// The file drawn as agentc drew it before excerpts: miette given the whole
/// text, and the spans as they are.
fn render_with_whole_text(file: &FileReport) -> String {
    let named = NamedSource::new(file.source.name(), file.source.text().to_string());
    let source = ScanFromStart(&named);
    let handler = handler(Style::Plain);
    let len = file.source.text().len();
    let mut out = String::new();
    for d in &file.diagnostics {
        let span = |span: Span| {
            let start = (span.start as usize).min(len);
            let end = (span.end as usize).clamp(start, len);
            miette::SourceSpan::new(start.into(), end - start)
        };
        let primary = labels(d).remove(0).text;
        let labels: Vec<LabeledSpan> =
            std::iter::once(LabeledSpan::new_primary_with_span(primary, span(d.span)))
                .chain(
                    d.labels
                        .iter()
                        .map(|l| LabeledSpan::new_with_span(Some(l.message.clone()), span(l.span))),
                )
                .collect();
        draw(
            &handler,
            &mut out,
            &MietteDiagnostic::new(d, &source, &labels),
        );
    }
    out
}

/// The work, in bytes of the file read, of drawing with `draw`.
fn work_of(draw: impl FnOnce()) -> usize {
    WORK.with(|w| w.set(0));
    draw();
    WORK.with(|w| w.get())
}

/// A protocol of `filler` properties, then `duplicates` repeats of the
/// first, each reported where it is with a label on the first.
fn flood(filler: usize, duplicates: usize) -> FileReport {
    let mut text = String::from("types:\n  T:\n    a: { type: string }\n");
    for i in 0..filler {
        text.push_str(&format!("    p{i}: {{ type: string }}\n"));
    }
    let mut diagnostics = Vec::new();
    for _ in 0..duplicates {
        let at = text.len() + 4;
        text.push_str("    a: { type: string }\n");
        diagnostics.push(
            Diagnostic::new(
                Code::DuplicateKey,
                Span::new(at, at + 1),
                "duplicate key `a`",
            )
            .with_label(Span::new(16, 17), "first defined here"),
        );
    }
    file(&text, diagnostics)
}

#[test]
fn a_diagnostic_costs_its_excerpt_wherever_it_is_in_the_file() {
    // Bytes of the file read per diagnostic: a few lines of it.
    const BOUND: usize = 1_000;
    let shown = 20;
    for filler in [1_000, 16_000] {
        let f = flood(filler, 2 * shown);
        let work = work_of(|| {
            let (_, left) = render_at_most(&f, Style::Plain, shown);
            assert_eq!(left, shown);
        });
        assert!(
            work / shown <= BOUND,
            "{} bytes per diagnostic after {filler} lines",
            work / shown
        );
    }
    // The measure sees miette's own implementation read the file up to
    // each diagnostic.
    let f = flood(16_000, shown);
    let work = work_of(|| {
        render_with_whole_text(&f);
    });
    assert!(work / shown > 100 * BOUND, "{}", work / shown);
}

#[test]
fn drawing_a_flood_costs_in_proportion_to_it() {
    let n = 200;
    let small = flood(0, n);
    let large = flood(0, 4 * n);
    let excerpts = |f: &FileReport| work_of(|| drop(render(f, Style::Plain)));
    let (one, four) = (excerpts(&small), excerpts(&large));
    assert!(four <= 4 * one + one / 10, "{one} then {four}");
    // miette's own implementation: four times the diagnostics, each read
    // from four times further on average.
    let whole = |f: &FileReport| work_of(|| drop(render_with_whole_text(f)));
    let (one, four) = (whole(&small), whole(&large));
    assert!(four > 12 * one, "{one} then {four}");
}

// Where no line is long, no span covers many lines and no two labels are
// far apart, the excerpts draw exactly what miette drew from the whole
// text, but for the header's column, which miette counted in bytes.

fn ascii_file() -> impl Strategy<Value = (String, Vec<(usize, usize)>)> {
    let line = "[ a-z:{}#-]{0,30}";
    let lines = prop::collection::vec((line, prop::sample::select(&["\n", "\r\n"][..])), 1..14);
    lines.prop_flat_map(|lines| {
        let text: String = lines.iter().map(|(l, br)| format!("{l}{br}")).collect();
        let len = text.len();
        let span = (0..=len, 0..12usize).prop_map(move |(start, len_)| (start, start + len_));
        (Just(text), prop::collection::vec(span, 1..4))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn excerpts_draw_what_miette_drew(
        (text, spans) in ascii_file(),
        extend in prop::collection::vec(0..200usize, 3),
    ) {
        let len = text.len();
        let spans: Vec<Span> = spans
            .iter()
            .zip(&extend)
            .map(|(&(start, end), &more)| {
                let end = if more > 150 { end + more } else { end };
                // A span never starts or ends between `\r` and `\n`.
                let fix = |at: usize| {
                    let at = at.min(len);
                    if at > 0 && text.as_bytes()[at - 1] == b'\r' { at - 1 } else { at }
                };
                Span::new(fix(start), fix(end))
            })
            .collect();
        let source = Source::new("t.yaml", text.clone());
        for span in &spans {
            let first = source.position(span.start as usize).line;
            let last = source.position((span.end as usize).saturating_sub(1).max(span.start as usize)).line;
            prop_assume!(last - first < MAX_SPAN_LINES);
        }
        let mut d = Diagnostic::new(Code::YamlSyntax, spans[0], "here");
        for (i, span) in spans.iter().enumerate().skip(1) {
            d = d.with_label(*span, format!("label {i}"));
        }
        let f = file(&text, vec![d]);
        prop_assert_eq!(render(&f, Style::Plain), render_with_whole_text(&f));
    }
}

#[test]
fn line_limit_is_where_lines_start_to_be_cut() {
    let at = |n: usize| {
        let text = format!("{}x\n", "y".repeat(n - 1));
        let d = Diagnostic::new(Code::YamlSyntax, Span::new(n - 1, n), "x");
        source_lines(&drawn(&file(&text, vec![d])))[0].1.clone()
    };
    assert!(!at(LINE_LIMIT).contains('…'));
    assert!(at(LINE_LIMIT + 1).starts_with('…'));
}

/// An empty span at the start of a text whose first line ends with
/// `\r\n`: miette draws two lines after it, as it does after `\n` (a case
/// the property test below found).
#[test]
fn an_empty_span_before_a_crlf_draws_what_miette_drew() {
    for text in [
        "\r\nab\ncd\nef\n",
        "\nab\ncd\nef\n",
        "x\r\nab\ncd\nef\n",
        "\r\nab\r\ncd\r\nef\r\n",
    ] {
        let d = Diagnostic::new(Code::YamlSyntax, Span::new(0, 0), "here");
        let f = file(text, vec![d]);
        assert_eq!(
            render(&f, Style::Plain),
            render_with_whole_text(&f),
            "{text:?}"
        );
    }
}
