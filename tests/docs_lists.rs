//! What the README and `docs/` tell a user stays true to the tool:
//! - every list of formats, targets, languages, AG-UI versions or AAP
//!   kinds names all of them, as the binary's own `--help` lists them (the
//!   registries the code uses: clap prints the values of each enum);
//! - every link to a file of the repository leads to one that exists,
//!   and none leaves the repository (a clone has nothing beside it).
//!
//! A paragraph that names some of a registry on purpose (the one-line
//! formats, say) says so with an HTML comment, `<!-- some: formats -->`,
//! which a reader of the rendered page does not see.

mod common;

use std::path::{Component, Path, PathBuf};

/// The Markdown a user reads: the README, `docs/` (codes included) and the
/// editor extension's README.
fn pages() -> Vec<PathBuf> {
    let root = common::root();
    let mut pages = vec![
        root.join("README.md"),
        root.join("editors/vscode/README.md"),
    ];
    pages.extend(common::files_below(&root.join("docs"), "md"));
    pages
}

/// The values `agentc ARGS --help` lists for `option` (clap's
/// `[possible values: a, b, c]`).
fn possible_values(args: &[&str], option: &str) -> Vec<String> {
    let mut with_help: Vec<&str> = args.to_vec();
    with_help.push("-h");
    let help = common::stdout(&common::agentc(&with_help));
    let at = help
        .find(option)
        .unwrap_or_else(|| panic!("`{option}` is not in `agentc {args:?} -h`:\n{help}"));
    let rest = &help[at..];
    let start = rest.find("[possible values: ").expect("possible values") + 18;
    let end = start + rest[start..].find(']').expect("end of the values");
    rest[start..end]
        .split(", ")
        .map(|v| v.trim().to_string())
        .collect()
}

struct Registry {
    name: &'static str,
    values: Vec<String>,
}

fn registries() -> Vec<Registry> {
    vec![
        Registry {
            name: "formats",
            values: possible_values(&["check"], "--format"),
        },
        Registry {
            name: "targets",
            values: possible_values(&["emit"], "--target"),
        },
        Registry {
            name: "languages",
            values: possible_values(&["gen"], "--lang"),
        },
        Registry {
            name: "ag-ui-versions",
            values: possible_values(&["validate", "run-input"], "--ag-ui-version"),
        },
        Registry {
            name: "aap-kinds",
            values: possible_values(&["validate", "aap"], "<KIND>"),
        },
    ]
}

/// The names of `registry` a paragraph names: in code spans (`` `json` ``,
/// `` `--format json` ``) or as alternatives (`human|json`).
fn named<'r>(paragraph: &str, registry: &'r Registry) -> Vec<&'r str> {
    let mut spans: Vec<&str> = Vec::new();
    let mut parts = paragraph.split('`');
    parts.next();
    while let Some(span) = parts.next() {
        spans.push(span);
        parts.next();
    }
    registry
        .values
        .iter()
        .map(String::as_str)
        .filter(|value| {
            spans
                .iter()
                .any(|span| span.split(['|', ' ', '=', ',']).any(|word| word == *value))
        })
        .collect()
}

#[test]
fn every_list_a_user_reads_names_the_whole_registry() {
    let registries = registries();
    for registry in &registries {
        assert!(
            registry.values.len() >= 3,
            "{}: {:?}",
            registry.name,
            registry.values
        );
    }
    let mut problems = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("read page");
        // Paragraphs, and each table row or list item on its own.
        for paragraph in text.split("\n\n").flat_map(|p| {
            if p.lines().all(|l| l.starts_with('|')) {
                p.lines().collect::<Vec<_>>()
            } else {
                vec![p]
            }
        }) {
            if paragraph.trim_start().starts_with("```") {
                continue;
            }
            for registry in &registries {
                let found = named(paragraph, registry);
                // Three names make a list; so do two written as alternatives
                // (`--format human|json`), which is how a usage line lists
                // every value.
                let alternatives = found.len() >= 2
                    && paragraph.contains(&format!("{}|", found[0]))
                    || found.len() >= 2 && paragraph.contains(&format!("|{}", found[0]));
                if (found.len() < 3 && !alternatives) || found.len() == registry.values.len() {
                    continue;
                }
                if paragraph.contains(&format!("<!-- some: {} -->", registry.name)) {
                    continue;
                }
                let missing: Vec<&String> = registry
                    .values
                    .iter()
                    .filter(|v| !found.contains(&v.as_str()))
                    .collect();
                problems.push(format!(
                    "{}: names {} of the {} but not {:?}:\n{}\n",
                    common::display(&page),
                    found.len(),
                    registry.name,
                    missing,
                    paragraph.chars().take(400).collect::<String>()
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `path` with `.` and `..` taken out, as text; `None` when `..` climbs
/// above where it starts.
fn normal(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            other => out.push(other),
        }
    }
    Some(out)
}

#[test]
fn every_link_to_a_file_stays_in_the_repository_and_leads_somewhere() {
    let root = common::root();
    let mut problems = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("read page");
        let folder = page
            .parent()
            .expect("a folder")
            .strip_prefix(root)
            .expect("in the repository")
            .to_path_buf();
        let mut in_code = false;
        for (number, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("```") {
                in_code = !in_code;
                continue;
            }
            if in_code {
                continue;
            }
            for (at, _) in line.match_indices("](") {
                let rest = &line[at + 2..];
                let Some(end) = rest.find(')') else {
                    continue;
                };
                let target = rest[..end].split_whitespace().next().unwrap_or("");
                if target.is_empty()
                    || target.starts_with('#')
                    || target.contains("://")
                    || target.starts_with("mailto:")
                {
                    continue;
                }
                let file = target.split('#').next().unwrap_or(target);
                let place = format!("{}:{}: `{target}`", common::display(&page), number + 1);
                match normal(&folder.join(file)) {
                    None => problems.push(format!("{place} leaves the repository")),
                    Some(inside) if !root.join(&inside).exists() => {
                        problems.push(format!("{place} leads to nothing"))
                    }
                    Some(_) => {}
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
