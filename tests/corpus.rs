//! The real protocols in `../shared/corpus/octavus-examples/` (from public
//! Octavus example apps, written by nobody here) check without errors.

mod common;

use agentc::render::human;

#[test]
#[ignore = "needs ../shared/corpus beside the checkout (CI runs it)"]
fn real_protocols_check_without_errors() {
    let Some(dir) = common::shared("corpus/octavus-examples") else {
        return;
    };
    let files = common::files(&dir, "yaml");
    assert!(!files.is_empty(), "no protocols in {}", dir.display());
    for path in files {
        let bytes = std::fs::read(&path).expect("read corpus file");
        let compiled = agentc::compile(&path.display().to_string(), bytes.as_slice());
        assert!(compiled.model.is_some());
        assert!(
            !compiled.has_errors(),
            "{}",
            human::render(&compiled, human::Style::Plain)
        );
    }
}
