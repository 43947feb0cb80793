//! Every command the documentation shows with its output (a ```console
//! block of `README.md` or any page under `docs/`) is run, and what it
//! prints is compared with what the page says, so the pages cannot drift
//! from the binary.
//!
//! A block holds commands, each a line starting with `$ `, followed by the
//! output a terminal would show (standard output, then standard error,
//! where agentc writes its summary and `--timings` after everything else)
//! and, when it is not 0, `# exit code N`. Commands run in a
//! shell from the crate root, with this build's `agentc` first on the
//! `PATH` and colour off. In the expected output, a line `...` stands for
//! any number of lines (the page shows an excerpt), and numbers with a
//! decimal point, and a thread count, may differ (`--timings`). A command
//! that needs a folder of its own makes one with `mktemp -d`: `TMPDIR` is a
//! scratch folder of the test, removed when it ends.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// One command of a page, with what it must print and exit with.
struct Example {
    page: String,
    line: usize,
    command: String,
    output: Vec<String>,
    exit: i32,
}

fn pages() -> Vec<PathBuf> {
    let mut pages = vec![common::root().join("README.md")];
    pages.extend(common::files_below(&common::root().join("docs"), "md"));
    pages
}

fn examples(path: &Path) -> Vec<Example> {
    let page = common::display(path);
    let text = std::fs::read_to_string(path).expect("read page");
    let mut examples: Vec<Example> = Vec::new();
    let mut in_block = false;
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            in_block = !in_block && trimmed == "```console";
            continue;
        }
        if !in_block {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            examples.push(Example {
                page: page.clone(),
                line: index + 1,
                command: command.to_string(),
                output: Vec::new(),
                exit: 0,
            });
        } else if let Some(example) = examples.last_mut() {
            match line.strip_prefix("# exit code ") {
                Some(code) => example.exit = code.parse().expect("an exit code"),
                None => example.output.push(line.to_string()),
            }
        }
    }
    examples
}

/// A line with what may differ from run to run made the same.
fn normalize(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            let mut number = String::from(c);
            while let Some(&next) = chars.peek() {
                if next.is_ascii_digit() || next == '.' {
                    number.push(next);
                    chars.next();
                } else {
                    break;
                }
            }
            if number.contains('.') && !number.ends_with('.') {
                out.push('#');
            } else {
                out.push_str(&number);
            }
        } else {
            out.push(c);
        }
    }
    // "on 2 threads" / "on 1 thread"
    let out = match out.find(" ms on ") {
        Some(at) => format!("{} ms on # threads", &out[..at]),
        None => out,
    };
    // Columns of numbers align to the widest, which differs too.
    if line.contains("   #") || out.contains("  #") {
        out.split_whitespace().collect::<Vec<_>>().join(" ")
    } else {
        out
    }
}

/// Whether `actual` is `expected`, where a `...` line stands for any
/// number of lines.
fn matches(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(line, tail)| normalize(first) == normalize(line) && matches(rest, tail)),
    }
}

/// Lines without trailing blank ones.
fn lines(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    lines
}

#[test]
fn every_command_shown_prints_what_the_page_says() {
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_agentc"));
    let bin_dir = binary.parent().expect("the binary's folder");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![bin_dir.to_path_buf()];
    paths.extend(std::env::split_paths(&path));
    let path = std::env::join_paths(paths).expect("PATH");
    let scratch = common::scratch("docs-commands");
    let mut run = 0;
    let mut wrong = Vec::new();
    for page in pages() {
        for example in examples(&page) {
            run += 1;
            let output = Command::new("sh")
                .arg("-c")
                .arg(&example.command)
                .current_dir(common::root())
                .env("PATH", &path)
                .env("TMPDIR", scratch.path())
                .env("NO_COLOR", "1")
                .env_remove("CLICOLOR_FORCE")
                .output()
                .expect("run sh");
            // What a terminal shows: agentc writes standard error (its
            // summary, `--timings`) after standard output.
            let printed = format!(
                "{}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
            let status = output.status.code().unwrap_or(-1);
            // In a pipeline the shell reports the last command's status.
            let exit = if example.command.contains(" | ") {
                0
            } else {
                example.exit
            };
            if status != exit || !matches(&lines(&example.output.join("\n")), &lines(&printed)) {
                wrong.push(format!(
                    "{}:{}: `{}` exited with {status} (the page says {exit}) and printed:\n{printed}",
                    example.page, example.line, example.command
                ));
            }
        }
    }
    assert!(run >= 15, "only {run} commands found: is the parser right?");
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

#[test]
fn the_matcher_skips_excerpts_and_timings_only() {
    let s = |lines: &[&str]| lines.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(matches(&s(&["a", "...", "d"]), &s(&["a", "b", "c", "d"])));
    assert!(matches(&s(&["a", "..."]), &s(&["a"])));
    assert!(!matches(&s(&["a", "d"]), &s(&["a", "b", "d"])));
    assert!(matches(&s(&["x  0.108  1.2"]), &s(&["x  0.221  3.0"])));
    assert!(!matches(&s(&["line 12"]), &s(&["line 13"])));
    assert!(matches(
        &s(&["wall clock 0.998 ms on 2 threads"]),
        &s(&["wall clock 1.5 ms on 1 thread"])
    ));
}
