//! `agentc gen`: the TypeScript and zod printers, and the command.
//!
//! - Snapshots of the code for every protocol in `protocols/`.
//! - The code for every protocol in `protocols/` and in
//!   `../shared/corpus/octavus-examples/` compiles under `tsc --strict`
//!   with zod 4; the zod module proves each schema infers exactly its
//!   TypeScript type, and the proof fails when they differ. The handler
//!   `docs/gen-typescript.md` shows compiles against the shop assistant's
//!   bindings, and what `toolHandlers()` returns is `@octavus/core`'s
//!   `ToolHandlers` (its `FileReference` is ours, both ways).
//! - The Python for the same protocols passes `mypy --strict` and imports,
//!   with the handler `docs/gen-python.md` shows.
//! - Hostile protocols (names that start with a digit, that the generated
//!   code uses itself, keywords and builtins; texts and a path with NUL,
//!   ESC, `*/`, `"""`, backslashes, U+2028, U+2029, U+0085, `\r`): no raw
//!   line break or control character reaches the code, what cannot be
//!   generated is a located diagnostic, and the rest compiles under
//!   `tsc --strict` and `mypy --strict` and imports.
//! - zod, pydantic and agentc's validator give the same verdicts on
//!   generated values, valid and broken, for generated protocols, plain
//!   and hostile.
//! - The command writes, checks (`--check`), refuses to overwrite a file it
//!   did not write, and reads `[[gen]]`.
//! - What `agentc init` writes, for each template, generates (as its
//!   `agentc.toml` says, and in Python) code that `tsc --strict` and
//!   `mypy --strict` take, and its tools' arguments are typed.
//!
//! The TypeScript and zod tests need `tests/codegen/ts/install` (npm ci of
//! the pinned TypeScript and zod) and node, the Python ones a Python with
//! the pinned pydantic and mypy (`AGENTC_CODEGEN_PYTHON`), so they are
//! `#[ignore]`d; `.ci/run` installs both and runs them (`cargo test --
//! --include-ignored`). Run so without them, they say why and return,
//! unless `AGENTC_REQUIRE_CODEGEN=1` (set by `.ci/run`). The corpus's
//! protocols are compiled too when `../shared/` is there
//! (`AGENTC_REQUIRE_SHARED=1` makes its absence a failure).

mod common;

use agentc::codegen::{self, Lang, Options};
use agentc::validate::Validator;
use common::generated::{self, Rng};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The pinned TypeScript and zod (`tests/codegen/ts/install`), with node;
/// `None` when missing (see `common::unavailable`:
/// `AGENTC_REQUIRE_CODEGEN=1` fails instead).
fn toolchain() -> Option<PathBuf> {
    let dir = common::root().join("tests/codegen/ts/node_modules");
    let ready = dir.join(".bin/tsc").exists() && dir.join("zod").exists();
    let node = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if ready && node {
        return Some(dir);
    }
    common::unavailable(
        "AGENTC_REQUIRE_CODEGEN",
        "tests/codegen/ts/install has not been run, or node is missing",
    );
    None
}

/// The Python with pydantic and mypy (`AGENTC_CODEGEN_PYTHON`, which
/// `.ci/run` points at a venv of `tests/codegen/python/requirements.txt`);
/// `None` when missing, as `toolchain`.
fn python() -> Option<PathBuf> {
    let python = std::env::var_os("AGENTC_CODEGEN_PYTHON").map(PathBuf::from);
    let ready = python.as_ref().is_some_and(|python| {
        Command::new(python)
            .args(["-c", "import pydantic, mypy"])
            .output()
            .is_ok_and(|o| o.status.success())
    });
    if ready {
        return python;
    }
    common::unavailable(
        "AGENTC_REQUIRE_CODEGEN",
        "AGENTC_CODEGEN_PYTHON does not name a Python with pydantic and mypy \
         (a venv of tests/codegen/python/requirements.txt)",
    );
    None
}

fn scratch(name: &str) -> tempfile::TempDir {
    common::scratch(&format!("codegen-{name}"))
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// A folder set up as a TypeScript project: strict, ES modules, the pinned
/// packages.
fn project(dir: &Path, node_modules: &Path, emit: bool) {
    let out = if emit {
        r#""outDir": "js""#
    } else {
        r#""noEmit": true"#
    };
    std::fs::write(
        dir.join("tsconfig.json"),
        format!(
            r#"{{ "compilerOptions": {{ "strict": true, "target": "es2022", "module": "nodenext", "moduleResolution": "nodenext", "types": [], {out} }}, "include": ["*.ts"] }}"#
        ),
    )
    .expect("write tsconfig.json");
    std::fs::write(dir.join("package.json"), r#"{ "type": "module" }"#).expect("package.json");
    #[cfg(unix)]
    std::os::unix::fs::symlink(node_modules, dir.join("node_modules")).expect("link node_modules");
}

fn tsc(dir: &Path, node_modules: &Path) -> Output {
    Command::new(node_modules.join(".bin/tsc"))
        .arg("-p")
        .arg(dir)
        .output()
        .expect("run tsc")
}

/// Every valid protocol of `protocols/`, with a slug each.
fn protocols() -> Vec<(String, agentc::FileReport)> {
    common::valid_protocols()
        .into_iter()
        .map(|path| {
            let slug = path
                .parent()
                .and_then(|p| p.file_name())
                .and_then(|n| n.to_str())
                .expect("folder name")
                .to_string();
            (slug, common::compile(&path))
        })
        .collect()
}

/// Property names each language must write in its own way: not
/// identifiers, keywords, names of the languages' own, and names of what
/// the generated code declares.
const ODD_NAMES: &str = "\
types:
  Odd:
    content-type: { type: string }
    from: { type: string, optional: true }
    str: { type: integer }
    json: { type: boolean }
    model_config: { type: string, optional: true }
    __proto__: { type: string }
    _private: { type: number }
    class: { type: string, enum: [a, b] }
    userId: { type: string }
    user_id: { type: string, optional: true }

triggers:
  go:
    input:
      TEXT: { type: string }

variables:
  OUT: { type: Odd }

agent:
  model: anthropic/claude-sonnet-4-5
  system: system

handlers:
  go:
    Add:
      block: add-message
      role: user
      prompt: p
      input: [TEXT]
    Reply:
      block: next-message
      responseType: Odd
      output: OUT
";

/// The protocols of `protocols/`, one with odd property names, and those
/// of the corpus when it is there.
fn protocols_and_corpus() -> Vec<(String, agentc::FileReport)> {
    let mut reports = protocols();
    let odd = agentc::compile("odd-names.yaml", ODD_NAMES.as_bytes().to_vec());
    assert!(!odd.has_errors(), "{:?}", odd.diagnostics);
    reports.push(("odd-names".to_string(), odd));
    if let Some(corpus) = common::shared("corpus/octavus-examples") {
        for path in common::files(&corpus, "yaml") {
            let name = path.file_stem().and_then(|n| n.to_str()).expect("name");
            reports.push((codegen::slug(name), common::compile(&path)));
        }
    }
    reports
}

/// How many hostile protocols the compile and verdict tests take: each
/// compiler runs once over all of them.
const HOSTILE_SEEDS: u64 = 120;

/// A path for the header that would end its line in every language.
const HOSTILE_PATH: &str =
    "agents/inj\u{2028}console.log(\"PWNED\")/*x\r\n\u{2029}\u{85}\0\u{1b}*/\"\"\"/protocol.yaml";

/// The hostile protocol of `seed` (`common::generated::hostile_protocol`),
/// compiled, with the tool `t`'s parameters.
fn hostile(seed: u64) -> (String, agentc::FileReport, generated::Ty) {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut ids = generated::Ids(0);
    let params = generated::gen_obj_in(&mut rng, &mut ids, 0, true);
    let text = generated::hostile_protocol(&params, &mut rng);
    let report = agentc::compile("hostile.yaml", text.as_bytes().to_vec());
    (text, report, generated::Ty::Obj(params))
}

/// The hostile protocols of seeds `1..=HOSTILE_SEEDS` that `check` accepts
/// and that `gen` generates (the rest: `hostile_names_and_texts_never_reach_the_code_raw`).
fn hostile_protocols() -> Vec<(u64, agentc::FileReport, generated::Ty)> {
    (1..=HOSTILE_SEEDS)
        .map(|seed| {
            let (_, report, ty) = hostile(seed);
            (seed, report, ty)
        })
        .filter(|(_, report, _)| {
            !report.has_errors()
                && codegen::generate(
                    report.model.as_ref().expect("a model"),
                    "p",
                    HOSTILE_PATH,
                    &[Lang::Ts],
                    &Options::default(),
                )
                .is_ok()
        })
        .collect()
}

/// Whether `c` must never be in generated code as it is: a control
/// character (C0, DEL, C1) but `\n`, a character that ends a line in
/// JavaScript (U+2028, U+2029) or a bidirectional formatting character.
/// Written here again, not taken from `codegen`, to check it.
fn raw(c: char) -> bool {
    (c.is_control() && c != '\n')
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{200e}' | '\u{200f}' | '\u{61c}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// Generated code is code, never a way in: for hostile protocols (names
/// and texts with NUL, ESC, `*/`, `"""`, backslashes, U+2028, U+2029,
/// U+0085, `\r`, keywords and names of the generated code) and a hostile
/// path, no generated text holds a line break but `\n` or a control
/// character, the header stays one line, and what `gen` cannot generate
/// is a located diagnostic of its own. Needs no toolchain; the code is
/// compiled by the tests below.
#[test]
fn hostile_names_and_texts_never_reach_the_code_raw() {
    let (mut accepted, mut generated, mut refused) = (0, 0, 0);
    let mut escaped = [false; 3];
    for seed in 1..=400u64 {
        let (text, report, _) = hostile(seed);
        if report.has_errors() {
            continue;
        }
        accepted += 1;
        let model = report.model.as_ref().expect("a model");
        for options in &VARIANTS {
            match codegen::generate(model, "p", HOSTILE_PATH, &Lang::ALL, options) {
                Ok(files) => {
                    generated += 1;
                    for file in files {
                        let bad: Vec<(usize, char)> =
                            file.text.char_indices().filter(|&(_, c)| raw(c)).collect();
                        assert!(
                            bad.is_empty(),
                            "{}: raw {:?} at {:?} for\n{text}\n---\n{}",
                            file.name,
                            bad.first().map(|b| b.1),
                            bad.first().map(|b| &file.text[b.0.saturating_sub(60)..b.0]),
                            file.text
                        );
                        let first = file.text.lines().next().expect("a header");
                        assert!(
                            codegen::is_generated(&file.text)
                                && first.contains("inj\\u{2028}console.log(\"PWNED\")")
                                && first.ends_with(". DO NOT EDIT."),
                            "{first}"
                        );
                        escaped[0] |= file.text.contains("\\u2028");
                        escaped[1] |= file.text.contains("\\u0000");
                        escaped[2] |= file.text.contains("*\\/");
                    }
                }
                Err(problems) => {
                    refused += 1;
                    for problem in problems {
                        assert!(
                            matches!(
                                problem.code.name(),
                                "gen-reserved-name" | "gen-name-collision"
                            ) && problem.span.start < problem.span.end
                                && (problem.span.end as usize) <= text.len(),
                            "{problem:?}\n{text}"
                        );
                    }
                }
            }
        }
    }
    println!("hostile: {accepted} of 400 checked clean; {generated} generated, {refused} refused");
    assert!(
        accepted >= 200 && refused >= 2 && generated >= 300,
        "{accepted} {generated} {refused}"
    );
    assert_eq!(
        escaped, [true; 3],
        "the hostile texts reached the code escaped"
    );
}

/// The options every protocol's code is checked under: the defaults, and
/// every option on.
const VARIANTS: [Options; 2] = [
    Options {
        strict: false,
        optional_null: false,
        snake_case: false,
    },
    Options {
        strict: true,
        optional_null: true,
        snake_case: true,
    },
];

fn generate(report: &agentc::FileReport, slug: &str, options: &Options) -> Vec<codegen::GenFile> {
    let model = report.model.as_ref().expect("a model");
    codegen::generate(
        model,
        slug,
        "protocol.yaml",
        &[Lang::Ts, Lang::Zod, Lang::Python],
        options,
    )
    .unwrap_or_else(|e| panic!("{slug}: {e:?}"))
}

#[test]
fn code_snapshots() {
    let settings = common::snapshot_settings();
    settings.bind(|| {
        for (slug, report) in protocols() {
            for file in generate(&report, &slug, &Options::default()) {
                insta::assert_snapshot!(format!("codegen-{}", file.name), file.text);
            }
        }
    });
}

#[test]
#[ignore = "needs node, tsc and zod: tests/codegen/ts/install (CI runs it)"]
fn every_protocol_compiles_under_tsc_strict() {
    let Some(node_modules) = toolchain() else {
        return;
    };
    let folder = scratch("compile");
    let dir = folder.path();
    let reports = protocols_and_corpus();
    for (slug, report) in &reports {
        for (i, options) in VARIANTS.iter().enumerate() {
            let slug = format!("{slug}-{i}");
            for file in generate(report, &slug, options) {
                std::fs::write(dir.join(&file.name), &file.text).expect("write");
            }
        }
    }
    // The handler `docs/gen-typescript.md` shows, against the shop
    // assistant's bindings.
    let (_, shop) = reports
        .iter()
        .find(|(slug, _)| slug == "shop-assistant")
        .expect("the shop assistant");
    for file in generate(shop, "shop-assistant", &Options::default()) {
        std::fs::write(dir.join(&file.name), &file.text).expect("write");
    }
    let page = std::fs::read_to_string(common::root().join("docs/gen-typescript.md"))
        .expect("docs/gen-typescript.md");
    let snippet = page
        .split("```ts\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a ```ts block in docs/gen-typescript.md");
    assert!(snippet.starts_with("// handlers.ts\n"), "{snippet}");
    std::fs::write(dir.join("handlers.ts"), snippet).expect("write");
    // And the generated code meets `@octavus/core`'s own types: what
    // `toolHandlers()` returns is the SDK's `ToolHandlers`, and
    // `FileReference` is the SDK's, both ways.
    std::fs::write(
        dir.join("sdk.ts"),
        r#"import type { FileReference as CoreFileReference, ToolHandlers } from "@octavus/core";
import { shopTools, type Shop } from "./handlers.js";
import { toolHandlers as typedOnly, type FileReference } from "./shop-assistant.js";

export function attachable(shop: Shop): ToolHandlers {
  return shopTools(shop);
}

export const typesOnly: ToolHandlers = typedOnly({ "get-order": async ({ orderId }) => orderId });

export function bothWays(ours: FileReference, theirs: CoreFileReference): [CoreFileReference, FileReference] {
  return [ours, theirs];
}
"#,
    )
    .expect("write sdk.ts");

    project(dir, &node_modules, false);
    let output = tsc(dir, &node_modules);
    assert!(output.status.success(), "tsc --strict:\n{}", text(&output));

    // The proof can fail: a TypeScript type that drifts from its schema
    // does not compile.
    let shop = dir.join("shop-assistant-0.ts");
    let before = std::fs::read_to_string(&shop).expect("read");
    let drifted = before.replacen(r#""USD" | "EUR" | "GBP""#, r#""USD" | "EUR""#, 1);
    assert_ne!(before, drifted, "the shop assistant changed its currencies");
    std::fs::write(&shop, drifted).expect("write");
    let output = tsc(dir, &node_modules);
    assert!(!output.status.success());
    assert!(
        text(&output).contains("shop-assistant-0.zod.ts") && text(&output).contains("TS2344"),
        "{}",
        text(&output)
    );
}

#[test]
#[ignore = "needs a Python with pydantic and mypy: AGENTC_CODEGEN_PYTHON, a venv of tests/codegen/python/requirements.txt (CI runs it)"]
fn every_protocol_type_checks_under_mypy_strict_and_imports() {
    let Some(python) = python() else {
        return;
    };
    let folder = scratch("mypy");
    let dir = folder.path();
    let reports = protocols_and_corpus();
    let mut modules = Vec::new();
    for (slug, report) in &reports {
        for (i, options) in VARIANTS.iter().enumerate() {
            let slug = format!("{slug}-{i}");
            let model = report.model.as_ref().expect("a model");
            for file in codegen::generate(model, &slug, "protocol.yaml", &[Lang::Python], options)
                .expect("bindings")
            {
                modules.push(file.name.trim_end_matches(".py").to_string());
                std::fs::write(dir.join(&file.name), &file.text).expect("write");
            }
        }
    }
    // The handler `docs/gen-python.md` shows, against the shop assistant's
    // models.
    let (_, shop) = reports
        .iter()
        .find(|(slug, _)| slug == "shop-assistant")
        .expect("the shop assistant");
    let model = shop.model.as_ref().expect("a model");
    for file in codegen::generate(
        model,
        "shop-assistant",
        "protocol.yaml",
        &[Lang::Python],
        &Options::default(),
    )
    .expect("bindings")
    {
        std::fs::write(dir.join(&file.name), &file.text).expect("write");
    }
    let page = std::fs::read_to_string(common::root().join("docs/gen-python.md"))
        .expect("docs/gen-python.md");
    let snippet = page
        .split("```python\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a ```python block in docs/gen-python.md");
    assert!(snippet.starts_with("# handlers.py\n"), "{snippet}");
    std::fs::write(dir.join("handlers.py"), snippet).expect("write");
    modules.push("handlers".to_string());

    let output = Command::new(&python)
        .args(["-m", "mypy", "--strict", "--no-incremental", "."])
        .current_dir(dir)
        .output()
        .expect("run mypy");
    assert!(output.status.success(), "mypy --strict:\n{}", text(&output));
    // pydantic builds every model (a forward reference it cannot resolve
    // fails only here).
    let mut imports: String = modules.iter().map(|m| format!("import {m}\n")).collect();
    // With snake_case fields (the second variant), data is read and written
    // by its wire names.
    imports.push_str(
        "item = shop_assistant_1.CartItem.model_validate({'productId': 'A', 'quantity': 2, 'giftWrap': True})\n\
         assert item.gift_wrap is True and item.product_id == 'A'\n\
         assert item.model_dump(exclude_none=True) == {'productId': 'A', 'quantity': 2, 'giftWrap': True}\n",
    );
    let output = Command::new(&python)
        .args(["-W", "error", "-c", &imports])
        .current_dir(dir)
        .output()
        .expect("run python");
    assert!(output.status.success(), "{}", text(&output));
}

/// What `agentc init` writes, for each template, is generated by `agentc
/// gen` as its `agentc.toml` says (TypeScript and zod), into code that
/// compiles under `tsc --strict`, beside a handler written against it.
#[test]
#[ignore = "needs node, tsc and zod: tests/codegen/ts/install (CI runs it)"]
fn what_init_writes_generates_code_that_compiles_under_tsc_strict() {
    let Some(node_modules) = toolchain() else {
        return;
    };
    let folder = scratch("init-tsc");
    let dir = folder.path();
    for (slug, template) in [("support-bot", "chat"), ("doc-summarizer", "worker")] {
        let output = agentc(dir, &["init", slug, "--template", template]);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output));
        let output = agentc(&dir.join(slug), &["gen"]);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output));
        for name in [format!("{slug}.ts"), format!("{slug}.zod.ts")] {
            std::fs::copy(
                dir.join(slug).join("generated").join(&name),
                dir.join(&name),
            )
            .expect("copy the generated file");
        }
    }
    // The tools' arguments are typed: a handler that reads a property the
    // parameters do not have does not compile.
    let handler = r#"import { toolHandlers } from "./support-bot.zod.js";
import { toolHandlers as workerTools } from "./doc-summarizer.js";

export const chat = toolHandlers({
  "create-ticket": async ({ ticket }) => ({ id: ticket.subject, urgent: ticket.priority === "urgent", email: ticket.contact?.email }),
});
export const worker = workerTools({ "fetch-document": async ({ url }) => url.length });
"#;
    std::fs::write(dir.join("handlers.ts"), handler).expect("write handlers.ts");
    project(dir, &node_modules, false);
    let output = tsc(dir, &node_modules);
    assert!(output.status.success(), "tsc --strict:\n{}", text(&output));
    std::fs::write(
        dir.join("handlers.ts"),
        handler.replace("ticket.subject", "ticket.title"),
    )
    .expect("write handlers.ts");
    let output = tsc(dir, &node_modules);
    assert!(!output.status.success(), "a wrong property compiled");
}

/// The same, in Python: `agentc gen --lang python` of each template passes
/// `mypy --strict` and imports.
#[test]
#[ignore = "needs a Python with pydantic and mypy: AGENTC_CODEGEN_PYTHON, a venv of tests/codegen/python/requirements.txt (CI runs it)"]
fn what_init_writes_generates_python_that_type_checks() {
    let Some(python) = python() else {
        return;
    };
    let folder = scratch("init-mypy");
    let dir = folder.path();
    for (slug, template) in [("support-bot", "chat"), ("doc-summarizer", "worker")] {
        let output = agentc(dir, &["init", slug, "--template", template]);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output));
        let output = agentc(dir, &["gen", slug, "--lang", "python", "--out", "py"]);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    }
    let py = dir.join("py");
    let output = Command::new(&python)
        .args(["-m", "mypy", "--strict", "--no-incremental", "."])
        .current_dir(&py)
        .output()
        .expect("run mypy");
    assert!(output.status.success(), "mypy --strict:\n{}", text(&output));
    let output = Command::new(&python)
        .args(["-W", "error", "-c", "import support_bot, doc_summarizer"])
        .current_dir(&py)
        .output()
        .expect("run python");
    assert!(output.status.success(), "{}", text(&output));
}

/// Every file of the hostile protocols that `gen` generates, with every
/// option on and off, in `langs`, written to `dir`; the module names.
fn write_hostile(dir: &Path, langs: &[Lang]) -> Vec<String> {
    let mut modules = Vec::new();
    let protocols = hostile_protocols();
    println!(
        "{} of {HOSTILE_SEEDS} hostile protocols generated",
        protocols.len()
    );
    for (seed, report, _) in protocols {
        let model = report.model.as_ref().expect("a model");
        for (i, options) in VARIANTS.iter().enumerate() {
            let slug = format!("hostile-{seed}-{i}");
            for file in
                codegen::generate(model, &slug, HOSTILE_PATH, langs, options).expect("bindings")
            {
                modules.push(file.name.trim_end_matches(".py").to_string());
                std::fs::write(dir.join(&file.name), &file.text).expect("write");
            }
        }
    }
    assert!(modules.len() > HOSTILE_SEEDS as usize, "{}", modules.len());
    modules
}

/// Generated code always compiles: the TypeScript and zod of the hostile
/// protocols (`hostile_names_and_texts_never_reach_the_code_raw`) that
/// `check` and `gen` accept pass `tsc --strict`, in one run.
#[test]
#[ignore = "needs node, tsc and zod: tests/codegen/ts/install (CI runs it)"]
fn hostile_protocols_compile_under_tsc_strict() {
    let Some(node_modules) = toolchain() else {
        return;
    };
    let folder = scratch("hostile-tsc");
    let dir = folder.path();
    write_hostile(dir, &[Lang::Ts, Lang::Zod]);
    project(dir, &node_modules, false);
    let output = tsc(dir, &node_modules);
    assert!(output.status.success(), "tsc --strict:\n{}", text(&output));
}

/// The Python of the same protocols passes `mypy --strict`, and every
/// module imports without a warning (pydantic builds each model when the
/// module is imported).
#[test]
#[ignore = "needs a Python with pydantic and mypy: AGENTC_CODEGEN_PYTHON, a venv of tests/codegen/python/requirements.txt (CI runs it)"]
fn hostile_protocols_type_check_under_mypy_strict_and_import() {
    let Some(python) = python() else {
        return;
    };
    let folder = scratch("hostile-mypy");
    let dir = folder.path();
    let modules = write_hostile(dir, &[Lang::Python]);
    let output = Command::new(&python)
        .args(["-m", "mypy", "--strict", "--no-incremental", "."])
        .current_dir(dir)
        .output()
        .expect("run mypy");
    assert!(output.status.success(), "mypy --strict:\n{}", text(&output));
    let imports: String = modules.iter().map(|m| format!("import {m}\n")).collect();
    let output = Command::new(&python)
        .args(["-W", "error", "-c", &imports])
        .current_dir(dir)
        .output()
        .expect("run python");
    assert!(output.status.success(), "{}", text(&output));
}

/// `value` with one thing broken: a leaf of another JSON type, a required
/// key dropped, or a key no type declares.
fn broken(value: &Value, rng: &mut Rng) -> Value {
    // A path down the value, as a JSON pointer.
    let mut pointer = String::new();
    let mut node = value;
    loop {
        let descend = rng.chance(60);
        match node {
            Value::Object(map) if descend && !map.is_empty() => {
                let key = map.keys().nth(rng.below(map.len())).expect("a key");
                pointer.push('/');
                pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
                node = &map[key];
            }
            Value::Array(items) if descend && !items.is_empty() => {
                let i = rng.below(items.len());
                pointer.push_str(&format!("/{i}"));
                node = &items[i];
            }
            _ => break,
        }
    }
    let mut value = value.clone();
    let node = value.pointer_mut(&pointer).expect("the path just taken");
    match node {
        Value::Object(map) => match rng.below(3) {
            0 if !map.is_empty() => {
                let key = map
                    .keys()
                    .nth(rng.below(map.len()))
                    .cloned()
                    .expect("a key");
                map.remove(&key);
            }
            1 => {
                map.insert("undeclaredKey".to_string(), json!(1));
            }
            _ => *node = json!("not an object"),
        },
        Value::String(_) => *node = json!(7),
        Value::Number(_) => *node = json!("7"),
        Value::Bool(_) => *node = json!(null),
        Value::Array(_) => *node = json!({}),
        Value::Null => *node = json!([true]),
    }
    value
}

/// Whether `ty` has, at any depth, a property named one of `names`.
fn declares(ty: &generated::Ty, names: &[&str]) -> bool {
    let object = |obj: &generated::Obj| {
        obj.fields
            .iter()
            .any(|f| names.contains(&f.name.as_str()) || declares(&f.ty, names))
    };
    match ty {
        generated::Ty::List(items) => declares(items, names),
        generated::Ty::Obj(obj) => object(obj),
        generated::Ty::Union(_, discriminator, variants) => {
            names.contains(&discriminator.as_str()) || variants.iter().any(|(_, o)| object(o))
        }
        _ => false,
    }
}

/// `value` with about half of its whole numbers written as floats (`2.0`),
/// which JSON Schema's `integer` takes.
fn whole_floats(value: &Value, rng: &mut Rng) -> Value {
    match value {
        Value::Number(n) if n.is_u64() && rng.chance(50) => json!(n.as_f64()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), whole_floats(v, rng)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(|v| whole_floats(v, rng)).collect()),
        other => other.clone(),
    }
}

/// `value` with every object member that is `null` left out.
fn without_nulls(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), without_nulls(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_nulls).collect()),
        other => other.clone(),
    }
}

/// The values zod, pydantic and agentc's validator judge, with agentc's
/// verdicts, and the bindings of their protocols (written to `dir`):
/// valid values made from a generated protocol (plain, and hostile: odd
/// property names, enum values, consts and discriminators), about half of
/// their whole numbers written as floats (`2.0`), and the same broken in
/// one place. The bindings are strict (`z.strictObject`, `extra="forbid"`),
/// which is what agentc's closed schemas mean.
struct Verdicts {
    dir: tempfile::TempDir,
    cases: Vec<Value>,
    validators: std::collections::HashMap<String, Validator>,
    /// Whether each protocol declares a property named like a member of
    /// `Object.prototype`.
    prototype_names: std::collections::HashMap<String, bool>,
}

fn verdict_cases(name: &str) -> Verdicts {
    let dir = scratch(name);
    let options = Options {
        strict: true,
        ..Options::default()
    };
    // Plain protocols, and the hostile ones of the compile tests, with the
    // hostile path in their header: a header that ran code on import would
    // print, and the verdicts would not parse.
    let plain = (1..=40u64).map(|seed| {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let params = generated::gen_obj(&mut rng, &mut generated::Ids(0), 0);
        let text = generated::protocol(&params);
        let report = agentc::compile("generated.yaml", text.as_bytes().to_vec());
        assert!(!report.has_errors(), "{text}\n{:?}", report.diagnostics);
        (format!("p{seed}"), report, generated::Ty::Obj(params), rng)
    });
    let hostile = hostile_protocols()
        .into_iter()
        .take(60)
        .map(|(seed, report, ty)| {
            let rng = Rng(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1);
            (format!("hostile{seed}"), report, ty, rng)
        });
    let mut cases = Vec::new();
    let mut validators = std::collections::HashMap::new();
    let mut prototype_names = std::collections::HashMap::new();
    for (slug, report, ty, mut rng) in plain.chain(hostile) {
        let source = if slug.starts_with("hostile") {
            HOSTILE_PATH
        } else {
            "protocol.yaml"
        };
        let model = report.model.as_ref().expect("model");
        for file in codegen::generate(model, &slug, source, &Lang::ALL, &options).expect("bindings")
        {
            std::fs::write(dir.path().join(&file.name), &file.text).expect("write");
        }
        let validator = Validator::for_tool(model, "t").expect("validator");
        for _ in 0..25 {
            let valid = whole_floats(&generated::value(&ty, &mut rng), &mut rng);
            for value in [broken(&valid, &mut rng), valid] {
                cases.push(json!({
                    "slug": slug,
                    "value": value,
                    "valid": validator.is_valid(&value),
                }));
            }
        }
        prototype_names.insert(
            slug.clone(),
            declares(&ty, &codegen::bindings::OBJECT_MEMBERS),
        );
        validators.insert(slug, validator);
    }
    Verdicts {
        dir,
        cases,
        validators,
        prototype_names,
    }
}

/// The cases the validators are compared on are 5,000, from 100 protocols,
/// and agentc accepts some and refuses others (a comparison on one verdict
/// only would prove little). Needs no toolchain; the comparisons are below.
#[test]
fn the_verdict_cases_are_valid_and_broken_values() {
    let verdicts = verdict_cases("verdict-cases");
    assert_eq!(verdicts.validators.len(), 100);
    assert_eq!(verdicts.cases.len(), 5_000);
    let valid = verdicts.cases.iter().filter(|c| c["valid"] == true).count();
    assert!(
        valid > 1_000 && valid < 4_000,
        "{valid} of 5,000 cases are valid"
    );
}

/// zod and agentc's validator agree on every case of `verdict_cases`. The
/// known difference: zod never checks a property named `__proto__`, and
/// reads an absent one named like a member of `Object.prototype` from the
/// prototype (docs/conformance.md).
#[test]
#[ignore = "needs node, tsc and zod: tests/codegen/ts/install (CI runs it)"]
fn zod_gives_the_same_verdicts() {
    let Some(node_modules) = toolchain() else {
        return;
    };
    let Verdicts {
        dir: folder,
        cases,
        prototype_names,
        ..
    } = verdict_cases("verdicts-zod");
    let dir = folder.path();
    project(dir, &node_modules, true);
    let output = tsc(dir, &node_modules);
    assert!(output.status.success(), "tsc:\n{}", text(&output));
    let zod_cases: Vec<Value> = cases
        .iter()
        .map(|c| json!({"module": format!("./js/{}.zod.js", c["slug"].as_str().expect("slug")), "value": c["value"]}))
        .collect();
    std::fs::write(
        dir.join("zod-cases.json"),
        Value::Array(zod_cases).to_string(),
    )
    .expect("cases");
    let output = Command::new("node")
        .arg(common::root().join("tests/codegen/ts/verdicts.mjs"))
        .arg(dir.join("zod-cases.json"))
        .current_dir(dir)
        .output()
        .expect("run node");
    assert!(output.status.success(), "{}", text(&output));
    let verdicts: Vec<bool> = serde_json::from_slice(&output.stdout).expect("verdicts");
    let known = |case: &Value, _| prototype_names[case["slug"].as_str().expect("slug")];
    println!(
        "zod: {} of {} protocols declare a property named like a member of Object.prototype",
        prototype_names.values().filter(|v| **v).count(),
        prototype_names.len()
    );
    compare("zod", &cases, &verdicts, known);
}

/// pydantic and agentc's validator agree on every case of
/// `verdict_cases`. The one known difference: pydantic accepts `null` for
/// an optional property (`docs/gen-python.md`), so a value pydantic accepts
/// and agentc refuses must become valid once its `null` members are left
/// out.
#[test]
#[ignore = "needs a Python with pydantic and mypy: AGENTC_CODEGEN_PYTHON, a venv of tests/codegen/python/requirements.txt (CI runs it)"]
fn pydantic_gives_the_same_verdicts() {
    let Some(python) = python() else {
        return;
    };
    let Verdicts {
        dir: folder,
        cases,
        validators,
        ..
    } = verdict_cases("verdicts-pydantic");
    let dir = folder.path();
    let py_cases: Vec<Value> = cases
        .iter()
        .map(|c| json!({"module": c["slug"], "value": c["value"]}))
        .collect();
    std::fs::write(
        dir.join("py-cases.json"),
        Value::Array(py_cases).to_string(),
    )
    .expect("cases");
    let output = Command::new(&python)
        .arg(common::root().join("tests/codegen/python/verdicts.py"))
        .arg(dir.join("py-cases.json"))
        .current_dir(dir)
        .output()
        .expect("run python");
    assert!(output.status.success(), "{}", text(&output));
    let verdicts: Vec<bool> = serde_json::from_slice(&output.stdout).expect("verdicts");
    let known = |case: &Value, verdict: bool| {
        let slug = case["slug"].as_str().expect("slug");
        verdict && validators[slug].is_valid(&without_nulls(&case["value"]))
    };
    compare("pydantic", &cases, &verdicts, known);
}

/// Fails naming every case where `verdicts` differ from agentc's, but for
/// those `known` accepts (given the other validator's verdict).
fn compare(name: &str, cases: &[Value], verdicts: &[bool], known: impl Fn(&Value, bool) -> bool) {
    assert_eq!(verdicts.len(), cases.len());
    let mut differences = 0;
    let disagreements: Vec<String> = cases
        .iter()
        .zip(verdicts)
        .filter(|(case, verdict)| case["valid"].as_bool() != Some(**verdict))
        .inspect(|_| differences += 1)
        .filter(|(case, verdict)| !known(case, **verdict))
        .map(|(case, verdict)| format!("{case} ({name} says {verdict})"))
        .collect();
    assert!(
        disagreements.is_empty(),
        "{} of {} {name} verdicts differ:\n{}",
        disagreements.len(),
        cases.len(),
        disagreements[..disagreements.len().min(10)].join("\n")
    );
    println!(
        "{name}: {} cases, {differences} known differences",
        cases.len()
    );
}

fn agentc(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_agentc"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("run agentc")
}

/// A `protocol.yaml` with no `settings.json` is named for its folder,
/// whether `agentc gen` runs inside the folder or above it (inside, the
/// folder of `protocol.yaml` is the empty path, which once named nothing,
/// and the file was `protocol.ts`).
#[test]
fn a_protocol_is_named_for_its_folder_from_inside_it_too() {
    let folder = scratch("cli");
    let dir = common::worker_folder(folder.path(), "billing");
    std::fs::write(
        dir.join("agentc.toml"),
        "[[gen]]\nlang = [\"ts\"]\nout = \"gen\"\n",
    )
    .expect("write agentc.toml");
    let inside = agentc(&dir, &["gen"]);
    assert_eq!(inside.status.code(), Some(0), "{}", text(&inside));
    assert!(dir.join("gen/billing.ts").is_file(), "{}", text(&inside));
    let above = agentc(
        folder.path(),
        &[
            "gen",
            "--check",
            "--config",
            "billing/agentc.toml",
            "billing",
        ],
    );
    assert_eq!(above.status.code(), Some(0), "{}", text(&above));
}

/// Two `[[gen]]` entries that write one file: once when they agree (`zod`
/// writes the TypeScript types too); when they do not, a failure, and the
/// first entry's file, so that `gen --check` compares what `gen` wrote.
#[test]
fn two_gen_entries_writing_one_file_agree_or_fail() {
    let folder = scratch("cli");
    let dir = folder.path();
    common::copy_dir(&common::root().join("protocols/worker"), dir);
    let write = |config: &str| std::fs::write(dir.join("agentc.toml"), config).expect("write");
    write("[[gen]]\nlang = [\"ts\"]\nout = \"gen\"\n\n[[gen]]\nlang = [\"zod\"]\nout = \"gen/\"\n");
    let agreeing = agentc(dir, &["gen"]);
    assert_eq!(agreeing.status.code(), Some(0), "{}", text(&agreeing));
    let checked = agentc(dir, &["gen", "--check"]);
    assert_eq!(checked.status.code(), Some(0), "{}", text(&checked));

    std::fs::remove_dir_all(dir.join("gen")).expect("remove gen");
    write(
        "[[gen]]\nlang = [\"zod\"]\nout = \"gen\"\nstrict = true\n\n[[gen]]\nlang = [\"zod\"]\nout = \"gen/\"\n",
    );
    let differing = agentc(dir, &["gen", "--format", "short"]);
    assert_eq!(differing.status.code(), Some(2), "{}", text(&differing));
    assert!(
        text(&differing)
            .contains("error[gen-name-collision] two `[[gen]]` entries would write `gen/"),
        "{}",
        text(&differing)
    );
    let written = std::fs::read_dir(dir.join("gen"))
        .expect("gen")
        .filter_map(Result::ok)
        .find(|entry| entry.file_name().to_string_lossy().ends_with(".zod.ts"))
        .expect("a zod file");
    let zod = std::fs::read_to_string(written.path()).expect("read");
    assert!(zod.contains("z.strictObject"), "the first entry's: {zod}");
    let checked = agentc(dir, &["gen", "--check", "--format", "short"]);
    assert!(!text(&checked).contains("gen-stale"), "{}", text(&checked));
}

#[test]
fn gen_writes_checks_and_refuses_to_overwrite() {
    let folder = scratch("cli");
    let dir = folder.path();
    common::copy_dir(
        &common::root().join("protocols/shop-assistant"),
        &dir.join("agents/shop"),
    );
    std::fs::write(
        dir.join("agentc.toml"),
        "[[gen]]\nlang = [\"ts\", \"zod\"]\nout = \"web/src/agents\"\n",
    )
    .expect("write agentc.toml");

    // Nothing written yet: stale.
    let output = agentc(dir, &["gen", "--check", "--format", "short"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert!(
        text(&output).contains("web/src/agents/shop-assistant.ts: error[gen-stale]")
            || text(&output).contains("shop-assistant.ts:1:1: error[gen-stale]"),
        "{}",
        text(&output)
    );

    let output = agentc(dir, &["gen"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(
        text(&output).contains("generated 2 files"),
        "{}",
        text(&output)
    );
    let ts = dir.join("web/src/agents/shop-assistant.ts");
    let written = std::fs::read_to_string(&ts).expect("written");
    assert!(written.starts_with(
        "// Code generated by agentc from ../../../agents/shop/protocol.yaml. DO NOT EDIT.\n"
    ));
    // Up to date, and byte-identical when written again.
    let output = agentc(dir, &["gen", "--check"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    agentc(dir, &["gen"]);
    assert_eq!(std::fs::read_to_string(&ts).expect("read"), written);

    // A protocol change the committed code does not follow.
    let protocol = dir.join("agents/shop/protocol.yaml");
    let yaml = std::fs::read_to_string(&protocol).expect("read");
    std::fs::write(
        &protocol,
        yaml.replacen("[USD, EUR, GBP]", "[USD, EUR, GBP, JPY]", 1),
    )
    .expect("write");
    let output = agentc(dir, &["gen", "--check", "--format", "github"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    let all = text(&output);
    assert!(
        all.contains("::error file=web/src/agents/shop-assistant.ts,line=1,col=1"),
        "{all}"
    );
    assert!(all.contains("title=gen-stale::"), "{all}");
    assert!(
        all.contains(r#"+  currency: \"USD\" | \"EUR\" | \"GBP\" | \"JPY\";"#)
            || all.contains(r#"+  currency: "USD" | "EUR" | "GBP" | "JPY";"#),
        "{all}"
    );

    // A file agentc generated for a protocol that is gone is stale too; a
    // file it did not generate is none of its business.
    std::fs::write(&protocol, &yaml).expect("write");
    agentc(dir, &["gen"]);
    let orphan = dir.join("web/src/agents/old-agent.ts");
    std::fs::write(
        &orphan,
        "// Code generated by agentc from x. DO NOT EDIT.\n",
    )
    .expect("write");
    std::fs::write(dir.join("web/src/agents/mine.ts"), "export {};\n").expect("write");
    let output = agentc(dir, &["gen", "--check", "--format", "short"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert!(
        text(&output).contains("web/src/agents/old-agent.ts:1:1: error[gen-stale] `web/src/agents/old-agent.ts` was generated by agentc, but no protocol generates it now"),
        "{}",
        text(&output)
    );
    assert_eq!(
        text(&output).matches("[gen-stale]").count(),
        1,
        "{}",
        text(&output)
    );
    // With paths, the run does not cover every protocol: no orphans.
    let output = agentc(dir, &["gen", "--check", "agents/shop"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    std::fs::remove_file(&orphan).expect("remove");

    // A file agentc did not write is never overwritten, and then nothing
    // of the run is written: no bindings beside a file they would import.
    std::fs::write(&ts, "export const mine = 1;\n").expect("write");
    let others: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(ts.parent().expect("a folder"))
        .expect("list")
        .flatten()
        .map(|e| e.path())
        .filter(|p| *p != ts)
        .map(|p| {
            let bytes = std::fs::read(&p).expect("read");
            (p, bytes)
        })
        .collect();
    assert!(!others.is_empty());
    for (path, _) in &others {
        std::fs::write(path, "// Code generated by agentc from x. DO NOT EDIT.\n").expect("write");
    }
    let output = agentc(dir, &["gen"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(
        text(&output).contains("gen-would-overwrite")
            && text(&output).contains("generated 0 files"),
        "{}",
        text(&output)
    );
    assert_eq!(
        std::fs::read_to_string(&ts).expect("read"),
        "export const mine = 1;\n"
    );
    for (path, bytes) in &others {
        let now = std::fs::read(path).expect("read");
        assert_ne!(&now, bytes, "{} was written", path.display());
        std::fs::write(path, bytes).expect("restore");
    }

    // --stdout prints; a protocol with errors generates nothing.
    let output = agentc(dir, &["gen", "agents/shop", "--lang", "ts", "--stdout"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(String::from_utf8_lossy(&output.stdout).contains("export interface Money {"));
    std::fs::write(&protocol, yaml.replacen("type: Money", "type: Mony", 1)).expect("write");
    let output = agentc(dir, &["gen", "agents/shop", "--lang", "ts", "--stdout"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert!(text(&output).contains("unknown-type"), "{}", text(&output));

    // Without a job: exit 2 saying what to add.
    let output = agentc(dir, &["gen", "--no-config"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(text(&output).contains("[[gen]]"), "{}", text(&output));
}

#[test]
fn names_the_languages_cannot_take_are_reported() {
    let text = "types:\n  Promise:\n    a: { type: string }\n  GetOrderArgs:\n    b: { type: string }\n\n\
                triggers:\n  go:\n    input:\n      TEXT: { type: string }\n  session:\n    input:\n      TEXT: { type: string }\n\n\
                tools:\n  get-order:\n    description: d\n  tool:\n    description: d\n  3d-render:\n    description: d\n  3d_render:\n    description: d\n\n\
                agent:\n  model: anthropic/claude-sonnet-4-5\n  system: system\n  tools: [get-order, tool, 3d-render, 3d_render]\n\n\
                handlers:\n  go:\n    Add:\n      block: add-message\n      role: user\n      prompt: p\n      input: [TEXT]\n\
                \x20 session:\n    Add:\n      block: add-message\n      role: user\n      prompt: p\n      input: [TEXT]\n";
    let report = agentc::compile("p.yaml", text.as_bytes().to_vec());
    assert!(!report.has_errors(), "{:?}", report.diagnostics);
    let problems = codegen::generate(
        report.model.as_ref().expect("model"),
        "p",
        "p.yaml",
        &[Lang::Ts],
        &Options::default(),
    )
    .expect_err("the names are taken");
    let found: Vec<String> = problems
        .iter()
        .map(|d| {
            let at = report.source.position(d.span.start as usize);
            format!("{}:{} {}", at.line, at.column, d.code.name())
        })
        .collect();
    // `Promise` is a global; `get-order` gives `GetOrderArgs`, a type;
    // `session` gives `SessionInput` and `tool` gives `ToolArgs`, names of
    // the generated code; `3d_render` gives `Tool3dRenderArgs` as
    // `3d-render` does.
    assert_eq!(
        found,
        [
            "2:3 gen-reserved-name",
            "11:3 gen-name-collision",
            "16:3 gen-name-collision",
            "18:3 gen-name-collision",
            "22:3 gen-name-collision",
        ]
    );
    let messages: Vec<&str> = problems.iter().map(|d| d.message.as_str()).collect();
    assert!(
        messages.contains(&"the tool `3d_render` would be generated as `Tool3dRenderArgs`, which is already the tool `3d-render`"),
        "{messages:?}"
    );
}

/// Every name the generated modules declare themselves is in
/// `GENERATED_NAMES` or `MODULE_NAMES`, the lists a protocol's types and
/// derived names are checked against: a declaration added to a printer
/// without them would let a name through, and the code would not compile.
#[test]
fn the_reserved_names_are_what_the_printers_declare() {
    use codegen::bindings::{GENERATED_NAMES, MODULE_NAMES};
    for (slug, report) in protocols() {
        let model = report.model.as_ref().expect("a model");
        let ours: Vec<String> = model
            .protocol
            .types
            .iter()
            .map(|t| t.name.text.to_string())
            .collect();
        for file in generate(&report, &slug, &VARIANTS[1]) {
            // Every name a line at the top level binds.
            for line in file.text.lines() {
                let rest = [
                    "export interface ",
                    "export type ",
                    "export const ",
                    "export function ",
                    "type ",
                    "function ",
                    "class ",
                    "def ",
                ]
                .iter()
                .find_map(|start| line.strip_prefix(start))
                .or_else(|| {
                    line.strip_prefix("import ")
                        .and_then(|l| l.split(" as ").nth(1))
                })
                .or_else(|| line.strip_prefix("import { "))
                .or_else(|| line.strip_prefix("from __future__ import "))
                .or_else(|| {
                    // `NAME = ...` and `NAME: ... = ...` in Python.
                    (file.lang == Lang::Python
                        && line.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
                    .then_some(line)
                });
                let Some(rest) = rest else {
                    continue;
                };
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                let derived = name.ends_with("Args") || name.ends_with("Input");
                if name.is_empty() || derived || ours.contains(&name) {
                    continue;
                }
                assert!(
                    GENERATED_NAMES.contains(&name.as_str())
                        || MODULE_NAMES.contains(&name.as_str()),
                    "{}: `{name}` is declared but not in GENERATED_NAMES or MODULE_NAMES:\n{line}",
                    file.name
                );
            }
        }
    }
}

/// A pydantic model reads a key by a field's name as well as by its alias
/// (`validate_by_name`), so no field is named as another property is
/// written on the wire: `userId` in snake_case is not `user_id` beside a
/// property `user_id`, which would read the one key into both and accept
/// data missing `userId`.
#[test]
fn python_fields_are_never_named_as_another_property_is_written() {
    let text = "types:\n  Pair:\n    userId: { type: string }\n    user_id: { type: string }\n    a-b: { type: string }\n    a_b: { type: string }\n";
    let report = common::compile_text(text);
    let options = Options {
        strict: false,
        optional_null: false,
        snake_case: true,
    };
    let python = generate(&report, "pair", &options)
        .into_iter()
        .find(|file| file.lang == Lang::Python)
        .expect("a Python module");
    let fields: Vec<(String, String)> = python
        .text
        .lines()
        .filter(|line| line.starts_with("    ") && line.contains(": str"))
        .map(|line| {
            let name = line
                .trim()
                .split(':')
                .next()
                .unwrap_or_default()
                .to_string();
            let alias = line
                .split("alias=\"")
                .nth(1)
                .and_then(|rest| rest.split('"').next())
                .map_or_else(|| name.clone(), str::to_string);
            (name, alias)
        })
        .collect();
    assert_eq!(fields.len(), 4, "{}", python.text);
    for (name, alias) in &fields {
        assert!(
            fields
                .iter()
                .all(|(_, other)| other == alias || other != name),
            "field `{name}` is named as another property is written:\n{}",
            python.text
        );
    }
}

/// A tool is a key of the object `toolHandlers()` takes: one named like a
/// member of every JavaScript object (`constructor`, `__proto__`) could
/// not be typed or set there, and is refused for every language, as the
/// bindings are one contract.
#[test]
fn a_tool_named_like_a_member_of_every_object_is_refused() {
    let text = "tools:\n  constructor:\n    description: Builds\n  __proto__:\n    description: p\n  to-string:\n    description: fine\n";
    let report = common::compile_text(text);
    let model = report.model.as_ref().expect("a model");
    let refused = codegen::generate(model, "t", "t.yaml", &[Lang::Python], &VARIANTS[0])
        .expect_err("refused");
    let codes: Vec<_> = refused.iter().map(|d| (d.code, d.span.start)).collect();
    assert_eq!(
        codes,
        [
            (
                agentc::Code::GenReservedName,
                text.find("constructor").unwrap() as u32
            ),
            (
                agentc::Code::GenReservedName,
                text.find("__proto__").unwrap() as u32
            ),
        ]
    );
}

/// A protocol in error generates nothing, and the files it generated are
/// not orphans to delete; `settings.json`, which names the files (its
/// `slug`), in error stops `gen` as the protocol does.
#[test]
fn a_protocol_or_its_settings_in_error_generate_nothing_and_orphan_nothing() {
    let folder = scratch("gen-errors");
    let dir = folder.path();
    let output = agentc(dir, &["init", "bot"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let bot = dir.join("bot");
    let output = agentc(&bot, &["gen"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));

    let protocol = bot.join("protocol.yaml");
    let yaml = std::fs::read_to_string(&protocol).expect("read");
    std::fs::write(&protocol, yaml.replacen("type: string", "type: strng", 1)).expect("write");
    for args in [&["gen"][..], &["gen", "--check"][..]] {
        let output = agentc(&bot, args);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {}", text(&output));
        assert!(text(&output).contains("unknown-type"), "{}", text(&output));
        assert!(
            !text(&output).contains("no protocol generates"),
            "{args:?}: {}",
            text(&output)
        );
    }

    std::fs::write(&protocol, &yaml).expect("write");
    let settings = bot.join("settings.json");
    let json = std::fs::read_to_string(&settings).expect("read");
    std::fs::write(
        &settings,
        json.replacen("\"slug\": \"bot\"", "\"slug\": \"\"", 1),
    )
    .expect("write");
    std::fs::remove_dir_all(bot.join("generated")).expect("remove");
    let output = agentc(&bot, &["gen"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert!(
        text(&output).contains("`slug` is empty"),
        "{}",
        text(&output)
    );
    assert!(
        !bot.join("generated").exists(),
        "nothing is written, no folder made"
    );
}
