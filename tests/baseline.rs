//! The baseline (`agentc check --write-baseline FILE`, `baseline = "FILE"`,
//! `--baseline FILE`): the real binary in a temporary folder writes one,
//! accepts what it lists when lines move, fails on a new problem alone,
//! reports an entry the check no longer needs at its place, and stops
//! (exit 2) on a broken one; the library's fixes on the baseline file; the
//! committed fixture `protocols/baseline/`; and properties over generated
//! protocols: recording then applying leaves nothing, wherever lines are
//! added.

mod common;

use agentc::Workspace;
use agentc::config::baseline::Baseline;
use agentc::diagnostic::Applicability;
use common::{snapshot_settings, stderr, stdout};
use proptest::prelude::*;
use std::path::Path;
use std::process::Output;

/// A folder of files for one test, removed when dropped.
struct Tree(tempfile::TempDir);

impl Tree {
    fn new(name: &str, files: &[(&str, &str)]) -> Tree {
        let tree = Tree(common::scratch(name));
        for (path, text) in files {
            tree.write(path, text);
        }
        tree
    }

    fn write(&self, path: &str, text: &str) {
        let path = self.0.path().join(path);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("create folder");
        std::fs::write(path, text).expect("write file");
    }

    fn read(&self, path: &str) -> String {
        std::fs::read_to_string(self.0.path().join(path)).expect("read file")
    }

    fn run(&self, args: &[&str]) -> Output {
        common::agentc_in(self.0.path(), args)
    }
}

fn code(output: &Output) -> i32 {
    output.status.code().unwrap_or(-1)
}

/// Two agents' protocols, with warnings and an error between them.
const SHOP: &str = "\
agent:
  model: anthropic/claude-sonnet-4-5
  system: system
types:
  Order:
    order_id: { type: string }
    total: { type: money }
  Line:
    unit_price: { type: number }
";

const DESK: &str = "\
agent:
  model: anthropic/claude-sonnet-4-5
  system: system
types:
  Ticket:
    ticket_id: { type: string }
";

fn project() -> Tree {
    Tree::new(
        "baseline",
        &[
            ("agentc.toml", "baseline = \"agentc-baseline.toml\"\n"),
            ("agents/shop/protocol.yaml", SHOP),
            ("agents/shop/prompts/system.md", "You sell.\n"),
            (
                "agents/shop/settings.json",
                "{\"slug\": \"shop\", \"name\": \"Shop\", \"format\": \"interactive\"}\n",
            ),
            ("agents/desk/protocol.yaml", DESK),
            ("agents/desk/prompts/system.md", "You help.\n"),
            (
                "agents/desk/settings.json",
                "{\"slug\": \"desk\", \"name\": \"Desk\", \"format\": \"interactive\"}\n",
            ),
        ],
    )
}

#[test]
fn a_written_baseline_accepts_what_is_there_and_only_that() {
    let tree = project();
    // Without it, the check fails (and the configured file is missing).
    let before = tree.run(&["check", "--no-config", "--format", "short"]);
    assert_eq!(code(&before), 1, "{}", stdout(&before));
    let missing = tree.run(&["check", "--format", "short"]);
    assert_eq!(code(&missing), 2);
    assert!(
        stdout(&missing)
            .contains("error[invalid-baseline] the baseline `agentc-baseline.toml` was not read"),
        "{}",
        stdout(&missing)
    );

    let written = tree.run(&["check", "--write-baseline", "agentc-baseline.toml"]);
    assert_eq!(code(&written), 0, "{}", stderr(&written));
    assert_eq!(
        stderr(&written),
        "wrote agentc-baseline.toml: 4 entries, accepting 4 problems\n"
    );
    let text = tree.read("agentc-baseline.toml");
    snapshot_settings().bind(|| insta::assert_snapshot!("baseline-written", text));

    let after = tree.run(&["check", "--format", "short"]);
    assert_eq!(code(&after), 0, "{}", stdout(&after));
    assert_eq!(stdout(&after), "");
    assert_eq!(stderr(&after), "checked 6 files: no problems\n");

    // Byte for byte the same when written again, and from another folder
    // (the files are relative to the baseline's folder).
    let again = tree.run(&["check", "--write-baseline", "agentc-baseline.toml"]);
    assert_eq!(code(&again), 0);
    assert_eq!(tree.read("agentc-baseline.toml"), text);
    let inside = std::process::Command::new(env!("CARGO_BIN_EXE_agentc"))
        .args(["check", "--write-baseline", "../agentc-baseline.toml", "."])
        .current_dir(tree.0.path().join("agents"))
        .output()
        .expect("run agentc");
    assert_eq!(code(&inside), 0, "{}", stderr(&inside));
    assert_eq!(tree.read("agentc-baseline.toml"), text);
    // Printed with `-`, relative to the current folder.
    let printed = tree.run(&["check", "--write-baseline", "-"]);
    assert_eq!(stdout(&printed), text);
}

#[test]
fn entries_are_sorted_by_file_path_and_code() {
    let tree = project();
    let printed = stdout(&tree.run(&["check", "--write-baseline", "-"]));
    let keys: Vec<(String, String, String)> =
        Baseline::parse(Path::new("b.toml"), printed.as_bytes())
            .map_err(|(_, problems)| format!("{problems:?}"))
            .expect("the written baseline reads back")
            .entries()
            .iter()
            .map(|e| (e.file.clone(), e.path.clone(), e.code.name().to_string()))
            .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    assert_eq!(
        keys.first().map(|k| k.0.as_str()),
        Some("agents/desk/protocol.yaml")
    );
}

#[test]
fn lines_added_above_a_problem_do_not_unsettle_it() {
    let tree = project();
    assert_eq!(
        code(&tree.run(&["check", "--write-baseline", "agentc-baseline.toml"])),
        0
    );
    // Lines above every problem, and a type moved below another.
    let moved = "\
# A comment added at the top.
agent:
  model: anthropic/claude-sonnet-4-5

  system: system
types:
  Line:
    unit_price: { type: number }
  Order:
    # Two more lines
    # above the problems.
    order_id: { type: string }
    total: { type: money }
";
    tree.write("agents/shop/protocol.yaml", moved);
    let after = tree.run(&["check", "--format", "short"]);
    assert_eq!(code(&after), 0, "{}", stdout(&after));
    assert_eq!(stdout(&after), "");
}

#[test]
fn a_new_problem_fails_alone() {
    let tree = project();
    assert_eq!(
        code(&tree.run(&["check", "--write-baseline", "agentc-baseline.toml"])),
        0
    );
    tree.write(
        "agents/shop/protocol.yaml",
        &format!("{SHOP}    line_total: {{ type: number }}\n"),
    );
    let after = tree.run(&["check", "--format", "short"]);
    assert_eq!(code(&after), 0, "a warning alone does not fail");
    assert_eq!(
        stdout(&after),
        "agents/shop/protocol.yaml:10:5: warning[property-name-case] property name `line_total` is not camelCase\n"
    );
    // The node a problem is at is what counts, not its message: another
    // unknown type at the same place is still the problem accepted.
    tree.write(
        "agents/shop/protocol.yaml",
        &SHOP.replace("type: money", "type: cash"),
    );
    let after = tree.run(&["check", "--format", "short"]);
    assert_eq!((code(&after), stdout(&after)), (0, String::new()));
    // A new error at a new place fails, alone.
    tree.write(
        "agents/shop/protocol.yaml",
        &SHOP.replace(
            "unit_price: { type: number }",
            "unit_price: { type: numbr }",
        ),
    );
    let after = tree.run(&["check", "--format", "short"]);
    assert_eq!(code(&after), 1, "{}", stdout(&after));
    assert_eq!(
        stdout(&after),
        "agents/shop/protocol.yaml:9:25: error[unknown-type] type `numbr` is not defined\n"
    );
}

#[test]
fn a_fixed_problem_leaves_an_unused_entry_at_its_place() {
    let tree = project();
    assert_eq!(
        code(&tree.run(&["check", "--write-baseline", "agentc-baseline.toml"])),
        0
    );
    tree.write(
        "agents/desk/protocol.yaml",
        &DESK.replace("ticket_id", "ticketId"),
    );
    let after = tree.run(&["check", "--format", "short"]);
    assert_eq!(code(&after), 0, "{}", stdout(&after));
    assert_eq!(
        stdout(&after),
        "agentc-baseline.toml:9:8: warning[unused-baseline-entry] this baseline entry accepts a `property-name-case` problem the check no longer finds\n"
    );
    assert_eq!(code(&tree.run(&["check", "--deny-warnings"])), 1);
    let human = tree.run(&["check"]);
    snapshot_settings().bind(|| insta::assert_snapshot!("baseline-unused.human", stdout(&human)));
    // The entry of a file the run did not check is not judged.
    let one = tree.run(&["check", "--format", "short", "agents/shop"]);
    assert_eq!((code(&one), stdout(&one)), (0, String::new()));
    // The entries of a file that is gone are judged in any run.
    std::fs::remove_dir_all(tree.0.path().join("agents/desk")).expect("remove an agent");
    let gone = tree.run(&["check", "--format", "short", "agents/shop"]);
    assert_eq!(
        stdout(&gone),
        "agentc-baseline.toml:9:8: warning[unused-baseline-entry] this baseline entry accepts a `property-name-case` problem in a file that no longer exists\n"
    );
    // Its severity is the configuration's.
    tree.write(
        "agentc.toml",
        "baseline = \"agentc-baseline.toml\"\n[severity]\nunused-baseline-entry = \"error\"\n",
    );
    assert_eq!(code(&tree.run(&["check"])), 1);
}

#[test]
fn a_broken_baseline_stops_the_run_with_every_problem_located() {
    let tree = project();
    tree.write(
        "agentc-baseline.toml",
        "[[accepted]]\nfile = \"/etc/x.yaml\"\npath = \"types\"\ncode = \"property-name-cas\"\ncount = 0\n\n[[accepted]]\nfile = \"a.yaml\"\n",
    );
    let broken = tree.run(&["check", "--format", "short"]);
    assert_eq!(code(&broken), 2);
    assert_eq!(
        stdout(&broken),
        "\
agentc-baseline.toml:2:8: error[invalid-baseline] `file` is not a relative path with `/` between folders
agentc-baseline.toml:4:8: error[invalid-baseline] `property-name-cas` is not a diagnostic code
agentc-baseline.toml:5:9: error[invalid-baseline] `count` is not a whole number of at least 1
agentc-baseline.toml:7:1: error[invalid-baseline] this `[[accepted]]` entry has no `path`, `code`, `count`
"
    );
    assert_eq!(
        stderr(&broken),
        "the baseline has problems; nothing was reported: 4 errors\n"
    );
    let human = tree.run(&["check"]);
    snapshot_settings().bind(|| insta::assert_snapshot!("baseline-broken.human", stdout(&human)));
    tree.write("agentc-baseline.toml", "[[accepted]\n");
    let syntax = tree.run(&["check", "--format", "short"]);
    assert_eq!(code(&syntax), 2);
    assert!(
        stdout(&syntax).starts_with("agentc-baseline.toml:1:"),
        "{}",
        stdout(&syntax)
    );
    // Writing it again mends it: the old one is not read.
    assert_eq!(
        code(&tree.run(&["check", "--write-baseline", "agentc-baseline.toml"])),
        0
    );
    assert_eq!(code(&tree.run(&["check"])), 0);
}

#[test]
fn the_command_line_names_a_baseline_from_the_current_folder() {
    let tree = project();
    let written = tree.run(&[
        "check",
        "--no-config",
        "--write-baseline",
        "ci/accepted.toml",
    ]);
    assert_eq!(
        code(&written),
        2,
        "the folder does not exist: {}",
        stdout(&written)
    );
    assert!(stdout(&written).contains("`ci/accepted.toml` could not be written"));
    tree.write("ci/.keep", "");
    assert_eq!(
        code(&tree.run(&[
            "check",
            "--no-config",
            "--write-baseline",
            "ci/accepted.toml"
        ])),
        0
    );
    assert!(
        tree.read("ci/accepted.toml")
            .contains("file = \"../agents/shop/protocol.yaml\"")
    );
    let checked = tree.run(&["check", "--no-config", "--baseline", "ci/accepted.toml"]);
    assert_eq!(code(&checked), 0, "{}", stdout(&checked));
    // `--baseline` replaces the configuration's (which does not exist here).
    assert_eq!(
        code(&tree.run(&["check", "--baseline", "ci/accepted.toml"])),
        0
    );
    // A path that could not be checked writes nothing.
    let failed = tree.run(&["check", "--write-baseline", "other.toml", "nowhere"]);
    assert_eq!(code(&failed), 2);
    assert!(!tree.0.path().join("other.toml").exists());
}

#[cfg(unix)]
#[test]
fn a_baseline_is_never_written_through_a_link() {
    let tree = project();
    tree.write("elsewhere.txt", "kept\n");
    std::os::unix::fs::symlink("elsewhere.txt", tree.0.path().join("agentc-baseline.toml"))
        .expect("make a link");
    let written = tree.run(&["check", "--write-baseline", "agentc-baseline.toml"]);
    assert_eq!(code(&written), 2, "{}", stdout(&written));
    assert!(
        stdout(&written).contains("could not be written"),
        "{}",
        stdout(&written)
    );
    assert_eq!(tree.read("elsewhere.txt"), "kept\n");
}

#[cfg(unix)]
#[test]
fn a_configured_baseline_that_links_out_of_its_folder_is_not_read() {
    let outside = common::scratch("baseline-outside");
    std::fs::write(outside.path().join("b.toml"), "").expect("write outside");
    let tree = project();
    std::os::unix::fs::symlink(
        outside.path().join("b.toml"),
        tree.0.path().join("agentc-baseline.toml"),
    )
    .expect("make a link");
    let checked = tree.run(&["check", "--format", "short"]);
    assert_eq!(code(&checked), 2, "{}", stdout(&checked));
    assert!(
        stdout(&checked).starts_with("agentc-baseline.toml: error[invalid-baseline] the baseline `agentc-baseline.toml` was not read"),
        "{}",
        stdout(&checked)
    );
    // Named on the command line, it is read wherever it leads.
    let named = tree.run(&[
        "check",
        "--format",
        "short",
        "--baseline",
        "agentc-baseline.toml",
    ]);
    assert_eq!(code(&named), 1, "{}", stdout(&named));
}

#[test]
fn the_fixes_delete_an_entry_or_lower_its_count() {
    let mut workspace = Workspace::new();
    let text = "types:\n  A:\n    b_c: { type: string }\n    d_e: { type: strin }\n    f_g: { type: strin }\n";
    workspace.insert("a.yaml", text);
    workspace
        .set_config("include = [\"*.yaml\"]\nbaseline = \"base.toml\"\n")
        .map_err(|r| format!("{:?}", r.diagnostics))
        .unwrap();
    let recorded = workspace.record_baseline("base.toml");
    // Two `unknown-type` at two paths; write one path's count as 2 by hand.
    let doubled = recorded.replace(
        "path = \"types.A.d_e.type\"\ncode = \"unknown-type\"\ncount = 1",
        "path = \"types.A.d_e.type\"\ncode = \"unknown-type\"\ncount = 2",
    );
    assert_ne!(doubled, recorded);
    workspace.insert("base.toml", doubled.clone());
    // `b_c` is fixed: its entry goes; `d_e` has one problem of two.
    workspace.insert("a.yaml", text.replace("b_c", "bC"));
    let reports = workspace.check();
    let last = reports.last().expect("the baseline's report");
    assert_eq!(last.source.name(), "base.toml");
    let fixes: Vec<(&str, &str)> = last
        .diagnostics
        .iter()
        .map(|d| (d.code.name(), last.source.slice(d.span)))
        .collect();
    assert_eq!(
        fixes,
        [
            ("unused-baseline-entry", "\"property-name-case\""),
            ("unused-baseline-entry", "2")
        ]
    );
    assert!(
        reports[..reports.len() - 1]
            .iter()
            .all(|r| r.diagnostics.is_empty())
    );
    // Every fix made, the baseline is what writing it again gives.
    let fixed = workspace.fix("base.toml", Applicability::Safe);
    assert_eq!(
        fixed.files[Path::new("base.toml")].after,
        workspace.record_baseline("base.toml")
    );
    // A file the workspace no longer holds: each of its entries is unused.
    workspace.remove("a.yaml");
    let reports = workspace.check();
    let messages: Vec<&str> = reports
        .iter()
        .flat_map(|r| &r.diagnostics)
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(messages.len(), 5, "{messages:?}");
    assert!(
        messages
            .iter()
            .all(|m| m.ends_with("in a file that no longer exists"))
    );
    let emptied = workspace.fix("base.toml", Applicability::Safe);
    assert_eq!(
        emptied.files[Path::new("base.toml")].after,
        workspace.record_baseline("base.toml")
    );
}

#[test]
fn the_committed_fixture_is_what_agentc_writes_and_accepts() {
    let root = common::root();
    let fixture = root.join("protocols/baseline/agentc-baseline.toml");
    let committed = std::fs::read_to_string(&fixture).expect("read the fixture's baseline");
    let printed = common::agentc(&[
        "check",
        "--config",
        "protocols/baseline/agentc.toml",
        "--write-baseline",
        "-",
        "protocols/baseline/orders.yaml",
    ]);
    // `-` writes files relative to the current folder.
    assert_eq!(
        stdout(&printed),
        committed.replace(
            "file = \"orders.yaml\"",
            "file = \"protocols/baseline/orders.yaml\""
        )
    );
    let checked = common::agentc(&["check", "protocols/baseline/orders.yaml"]);
    assert_eq!(code(&checked), 0, "{}", stdout(&checked));
    let unbaselined = common::agentc(&["check", "--no-config", "protocols/baseline/orders.yaml"]);
    assert_eq!(code(&unbaselined), 1);
}

/// Named types, each with its properties: a name, whether its type is
/// known, and how many lines come before it.
type Types = Vec<(String, Vec<(String, bool, usize)>)>;

/// A protocol made of named types whose properties are camelCase or not,
/// of known types or not, with `blank` lines before each property.
fn protocol(types: &Types) -> String {
    let mut text = String::from("types:\n");
    for (name, properties) in types {
        text.push_str(&format!("  {name}:\n"));
        for (property, known, blank) in properties {
            for _ in 0..*blank {
                text.push_str("    # a line added\n");
            }
            let ty = if *known { "string" } else { "strng" };
            text.push_str(&format!("    {property}: {{ type: {ty} }}\n"));
        }
    }
    text
}

fn types() -> impl Strategy<Value = Types> {
    let name = "[a-z]{1,6}(_[a-z]{1,4})?";
    let properties = prop::collection::btree_map(name, (any::<bool>(), 0usize..3), 1..5);
    prop::collection::btree_map("[A-Z][a-z]{1,6}", properties, 1..5).prop_map(|types| {
        types
            .into_iter()
            .map(|(name, properties)| {
                let properties = properties
                    .into_iter()
                    .map(|(property, (known, blank))| (property, known, blank))
                    .collect();
                (name, properties)
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any text, read as a baseline and applied: no panic, and every span
    /// it reports inside the text.
    #[test]
    fn any_text_is_read_without_panic(text in "(\\[\\[accepted\\]\\]\n|file = \"a.yaml\"\n|path = \"[a-z.\\[\\]0-9\"]{0,8}\"\n|code = \"(unknown-type|yaml-syntax|x)\"\n|count = -?[0-9]{1,3}\n|accepted = \\[\\{ \\}\\]\n|[ -~\n]{0,12})*") {
        let spans_inside = |spans: Vec<agentc::Span>| spans.iter().all(|s| s.end as usize <= text.len() && s.start <= s.end);
        match Baseline::parse(Path::new("b.toml"), text.as_bytes()) {
            Err((_, problems)) => {
                prop_assert!(!problems.is_empty());
                prop_assert!(spans_inside(problems.iter().map(|d| d.span).collect()));
            }
            Ok(baseline) => {
                let mut report = agentc::compile("a.yaml", "types:\n  A:\n    b_c: { type: strin }\n");
                if let Some(unused) = baseline.apply([&mut report]) {
                    let edits: Vec<agentc::Span> = unused.diagnostics.iter().filter_map(|d| d.fix.as_ref()).flat_map(|f| f.edits.iter().map(|e| e.span)).collect();
                    prop_assert!(spans_inside(edits));
                }
            }
        }
    }

    /// Recording a baseline and applying it leaves no problem and no
    /// unused entry, and lines added anywhere between properties change
    /// nothing.
    #[test]
    fn recorded_then_applied_leaves_nothing(types in types(), shift in 0usize..3) {
        let mut workspace = Workspace::new();
        workspace.insert("p/protocol.yaml", protocol(&types));
        let recorded = workspace.record_baseline("agentc-baseline.toml");
        workspace.insert("agentc-baseline.toml", recorded.clone());
        workspace.set_config("baseline = \"agentc-baseline.toml\"\n").map_err(|r| TestCaseError::fail(format!("{:?}", r.diagnostics)))?;
        let left: Vec<String> = workspace.check().iter().flat_map(|r| r.diagnostics.iter().map(|d| format!("{}: {}", r.source.name(), d.message))).collect();
        prop_assert!(left.is_empty(), "{left:?}\n{recorded}");
        // The same problems, lines moved.
        let moved: Types = types
            .iter()
            .map(|(n, ps)| (n.clone(), ps.iter().map(|(p, k, b)| (p.clone(), *k, (b + shift) % 3)).collect()))
            .collect();
        workspace.insert("p/protocol.yaml", protocol(&moved));
        let left: Vec<String> = workspace.check().iter().flat_map(|r| r.diagnostics.iter().map(|d| d.message.clone())).collect();
        prop_assert!(left.is_empty(), "{left:?}");
        prop_assert_eq!(workspace.record_baseline("agentc-baseline.toml"), recorded);
    }
}

/// An entry whose file lies outside the configuration's folder is never
/// looked for: whether such a path exists on the machine that runs the
/// check (a pull request's baseline naming `../../etc/passwd`) makes no
/// difference to the output.
#[test]
fn entries_outside_the_project_never_tell_whether_a_path_exists() {
    let tree = project();
    let outside = tree.0.path().parent().expect("a parent folder");
    let name = tree.0.path().file_name().expect("a name").to_string_lossy();
    let there = outside.join(format!("{name}-probe-exists.txt"));
    std::fs::write(&there, "x").expect("write a file beside the project");
    let entry = |file: &str| {
        format!(
            "[[accepted]]\nfile = \"{file}\"\ncode = \"property-name-case\"\npath = \"types\"\ncount = 1\n"
        )
    };
    tree.write(
        "agentc-baseline.toml",
        &format!(
            "{}\n{}",
            entry(&format!("../{name}-probe-exists.txt")),
            entry(&format!("../{name}-probe-missing.txt"))
        ),
    );
    let run = tree.run(&["check", "--format", "short"]);
    std::fs::remove_file(&there).expect("remove");
    assert!(
        !stdout(&run).contains("unused-baseline-entry"),
        "{}",
        stdout(&run)
    );
}
