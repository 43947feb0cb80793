//! The same input gives byte-identical output: run after run, and when
//! many checks run at once on different threads (as `agentc check` does
//! with rayon, and the language server beside the CLI). Every protocol
//! under `protocols/` is checked, rendered in every format and emitted for
//! every target, once on this thread and then on eight threads at once.

mod common;

use agentc::emit::{Selection, Target};
use agentc::render::{github, human, json, sarif, short};
use agentc::{Diagnostics, FileReport, emit};
use std::path::PathBuf;

/// Everything agentc writes about one file, as one text.
fn everything(path: &PathBuf) -> String {
    let bytes = std::fs::read(path).expect("read a protocol");
    let mut compiled = agentc::compile(&common::display(path), bytes);
    agentc::check_targets(&mut compiled, &Target::ALL);
    let files = std::slice::from_ref(&compiled);
    let mut out = [
        json::render(files),
        sarif::render(files),
        short::render(files),
        github::render(files),
        human::render(&compiled, human::Style::Plain),
    ]
    .join("\n");
    out.push_str(&emitted(&compiled));
    out
}

fn emitted(compiled: &FileReport) -> String {
    let Some(model) = &compiled.model else {
        return String::new();
    };
    let mut out = String::new();
    for target in Target::ALL {
        let mut diags = Diagnostics::default();
        match emit::emit(model, target, Selection::All, &mut diags) {
            Ok(output) => out.push_str(&output.into_text()),
            Err(error) => out.push_str(&format!("{error:?}")),
        }
        out.push_str(&format!("{:?}", diags.into_vec()));
    }
    out
}

#[test]
fn output_is_the_same_run_after_run_and_on_any_thread() {
    let mut paths = common::valid_protocols();
    paths.extend(common::yaml_files(&common::root().join("protocols")));
    paths.sort();
    paths.dedup();
    assert!(paths.len() > 20, "found only {} protocols", paths.len());
    let first: Vec<String> = paths.iter().map(everything).collect();
    let second: Vec<String> = paths.iter().map(everything).collect();
    assert!(first == second, "a second run differs");
    let threads: Vec<Vec<String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..8)
            .map(|i| {
                let paths = &paths;
                scope.spawn(move || {
                    // Each thread starts at a different file, so the same
                    // files are checked at the same time in different orders.
                    let mut out = vec![String::new(); paths.len()];
                    for k in 0..paths.len() {
                        let at = (k + i * 7) % paths.len();
                        out[at] = everything(&paths[at]);
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a checking thread panicked"))
            .collect()
    });
    for (i, outputs) in threads.iter().enumerate() {
        for (k, output) in outputs.iter().enumerate() {
            assert!(
                *output == first[k],
                "thread {i} wrote something else for {}",
                paths[k].display()
            );
        }
    }
}
