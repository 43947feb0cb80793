//! The protocol format reference (`agentc schema --reference`,
//! `agentc::grammar::reference()`): the whole of it as a snapshot, every
//! key of every place in it, and the binary printing it.

mod common;

use agentc::grammar::{self, BLOCK_COMMON};

#[test]
fn the_reference() {
    common::snapshot_settings().bind(|| {
        insta::assert_snapshot!("reference", grammar::reference());
    });
}

/// Every place has a section, and its table has a row for each of its
/// keys, in order: a row added to the grammar shows up.
#[test]
fn every_key_of_every_place_is_in_the_reference() {
    let reference = grammar::reference();
    let places = grammar::places();
    assert!(places.len() >= 30, "{} places", places.len());
    for place in places {
        let heading = reference
            .lines()
            .position(|line| {
                line == format!("## {}", place.name) || line == format!("## `{}` block", place.name)
            })
            .unwrap_or_else(|| panic!("no section for {}", place.name));
        let rows: Vec<&str> = reference
            .lines()
            .skip(heading + 1)
            .take_while(|line| !line.starts_with("## "))
            .filter_map(|line| line.strip_prefix("| `")?.split('`').next())
            .collect();
        assert_eq!(rows, place.key_names(), "the rows of {}", place.name);
    }
    let common = BLOCK_COMMON.iter().map(|key| key.name).collect::<Vec<_>>();
    let blocks = reference
        .split("\n## Blocks\n")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .unwrap_or_default();
    let rows: Vec<&str> = blocks
        .lines()
        .filter_map(|line| line.strip_prefix("| `")?.split('`').next())
        .collect();
    assert_eq!(rows, common);
}

/// What a key says of itself is in its row: its choices, whether it may
/// name a variable, whether it is required, and its deprecation.
#[test]
fn a_keys_row_says_what_the_grammar_says() {
    let reference = grammar::reference();
    let row = |section: &str, key: &str| -> String {
        let start = reference
            .find(&format!("\n## {section}\n"))
            .unwrap_or_else(|| panic!("no section {section}"));
        let rest = &reference[start + 1..];
        let end = rest[3..].find("\n## ").map_or(rest.len(), |end| end + 3);
        rest[..end]
            .lines()
            .find(|line| line.starts_with(&format!("| `{key}` |")))
            .unwrap_or_else(|| panic!("no row {key} in {section}"))
            .to_string()
    };
    assert_eq!(
        row("Agent", "model"),
        "| `model` | [model](#values) | yes, may be empty | yes | The model: `provider/model-id` (as in `anthropic/claude-sonnet-4-5`), or an UPPERCASE variable holding one. |"
    );
    let thinking = row("Agent", "thinking");
    assert!(
        thinking.contains("one of `low`, `medium`, `high`, `max` or `off` | no | yes |"),
        "{thinking}"
    );
    let size = row("`generate-image` block", "size");
    assert!(
        size.contains("**Deprecated:** write `aspectRatio:` instead")
            && size.contains("Replaced by `aspectRatio`: `1024x1024` becomes `1:1`"),
        "{size}"
    );
    assert!(row("Tool", "parameters").contains("mapping of names to [Parameter](#parameter)"));
}

#[test]
fn agentc_schema_reference_prints_it() {
    let output = common::agentc(&["schema", "--reference"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stderr.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        grammar::reference()
    );
    // Without the flag, the JSON Schema, as before.
    let output = common::agentc(&["schema"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stdout.starts_with(b"{"));
}
