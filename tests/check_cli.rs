//! `agentc check` as CI runs it: many paths in parallel, configuration,
//! globs, exit codes and `--timings`. Each test builds its own tree in a
//! temporary folder and runs the real binary there, so paths in the output
//! are short and stable.

mod common;

use common::{snapshot_settings, stderr, stdout};
use std::process::Output;

/// A folder of files for one test, removed when dropped.
struct Tree(tempfile::TempDir);

impl Tree {
    fn new(name: &str, files: &[(&str, &str)]) -> Tree {
        let dir = common::scratch(name);
        for (path, text) in files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("create folder");
            std::fs::write(path, text).expect("write file");
        }
        Tree(dir)
    }

    fn run(&self, args: &[&str]) -> Output {
        self.run_with(args, &[])
    }

    fn run_with(&self, args: &[&str], env: &[(&str, &str)]) -> Output {
        std::process::Command::new(env!("CARGO_BIN_EXE_agentc"))
            .args(args)
            .current_dir(self.0.path())
            .env("NO_COLOR", "1")
            .env_remove("CLICOLOR_FORCE")
            .envs(env.iter().copied())
            .output()
            .expect("run agentc")
    }
}

/// A protocol with one warning (line 3) and one error (line 4).
/// What makes the test protocols below whole agents (a `protocol.yaml`
/// must have a format's sections): appended, so that their lines stay.
macro_rules! agent_tail {
    () => {
        "agent:\n  model: anthropic/claude-sonnet-4-5\n  system: system\n"
    };
}

const WARNING_AND_ERROR: &str = concat!(
    "types:\n  Ticket:\n    ticket_id: { type: string }\n    status: { type: Staus }\n",
    agent_tail!()
);

/// A protocol with one warning (line 3), and a `file` parameter the
/// `openai` target reports (line 9).
const WARNING_AND_FILE: &str = concat!(
    "types:\n  Ticket:\n    ticket_id: { type: string }\ntools:\n  describe-photo:\n    description: Describe a photo\n    parameters:\n      photo:\n        type: file\n        description: The photo\n",
    agent_tail!()
);

#[test]
fn output_is_in_path_order_whatever_the_threads() {
    // Thirty folders, written in an order unlike their names' order; each
    // protocol's error is on a different line, so any mix-up shows.
    let files: Vec<(String, String)> = (0..30)
        .map(|i| {
            let name = format!("agents/team-{:02}/protocol.yaml", (i * 7) % 30);
            let padding = "\n".repeat(i);
            (
                name,
                format!(
                    "{padding}types:\n  T:\n    a: {{ type: Missing{i} }}\n{}",
                    agent_tail!()
                ),
            )
        })
        .collect();
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let tree = Tree::new("order", &borrowed);
    let outputs: Vec<String> = ["1", "2", "8", "8"]
        .iter()
        .map(|threads| {
            let output = tree.run_with(
                &["check", "--format", "short"],
                &[("RAYON_NUM_THREADS", threads)],
            );
            assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
            stdout(&output)
        })
        .collect();
    assert!(
        outputs.iter().all(|o| o == &outputs[0]),
        "output changed with the thread count"
    );
    let names: Vec<&str> = outputs[0]
        .lines()
        .map(|l| l.split(':').next().unwrap_or(""))
        .collect();
    assert_eq!(names.len(), 30);
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    // The JSON contract is as stable.
    let json: Vec<String> = ["1", "8"]
        .iter()
        .map(|t| {
            stdout(&tree.run_with(&["check", "--format", "json"], &[("RAYON_NUM_THREADS", t)]))
        })
        .collect();
    assert_eq!(json[0], json[1]);
}

#[test]
fn many_paths_files_folders_and_globs() {
    let tree = Tree::new(
        "paths",
        &[
            ("a/protocol.yaml", WARNING_AND_ERROR),
            ("b/protocol.yaml", WARNING_AND_ERROR),
            ("c/extra.yaml", WARNING_AND_ERROR),
            (".hidden/protocol.yaml", WARNING_AND_ERROR),
            ("node_modules/x/protocol.yaml", WARNING_AND_ERROR),
        ],
    );
    let files = |output: &Output| -> Vec<String> {
        let mut names: Vec<String> = stdout(output)
            .lines()
            .map(|l| l.split(':').next().unwrap_or("").to_string())
            .collect();
        names.dedup();
        names
    };
    // A folder: every protocol.yaml below it, not in hidden folders or
    // node_modules.
    let output = tree.run(&["check", "--format", "short"]);
    assert_eq!(files(&output), ["a/protocol.yaml", "b/protocol.yaml"]);
    assert_eq!(stderr(&output), "checked 2 files: 2 errors, 2 warnings\n");
    // A glob the shell did not expand, a file, and the same file again,
    // spelled three ways: each file is checked once, in path order.
    let output = tree.run(&[
        "check",
        "--format",
        "short",
        "c/extra.yaml",
        "*/protocol.yaml",
        "a/protocol.yaml",
        "a/protocol.yaml",
        "b/../a/protocol.yaml",
    ]);
    assert_eq!(
        files(&output),
        ["a/protocol.yaml", "b/protocol.yaml", "c/extra.yaml"]
    );
    // A link to a folder is not followed (one to a folder above would
    // never end), and breaks nothing.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(tree.0.path().join("a"), tree.0.path().join("linked"))
            .expect("symlink");
        std::os::unix::fs::symlink(tree.0.path(), tree.0.path().join("b/loop")).expect("symlink");
        let output = tree.run(&["check", "--format", "short", "*/protocol.yaml", "**/*.yaml"]);
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        assert_eq!(
            files(&output),
            ["a/protocol.yaml", "b/protocol.yaml", "c/extra.yaml"]
        );
    }
    // A glob that names a hidden folder searches it.
    assert_eq!(
        files(&tree.run(&["check", "--format", "short", ".*/protocol.yaml"])),
        [".hidden/protocol.yaml"]
    );
    // `**` crosses folders.
    let output = tree.run(&["check", "--format", "short", "**/*.yaml"]);
    assert_eq!(
        files(&output),
        ["a/protocol.yaml", "b/protocol.yaml", "c/extra.yaml"]
    );
    // A glob that matches nothing and a missing file are usage errors (2),
    // reported after the files that could be checked, and counted.
    let output = tree.run(&[
        "check",
        "--format",
        "short",
        "a",
        "nothing/*.yaml",
        "missing.yaml",
        "missing[.yaml",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        files(&output),
        [
            "a/protocol.yaml",
            "nothing/*.yaml",
            "missing.yaml",
            "missing[.yaml"
        ]
    );
    let printed = stdout(&output);
    assert!(
        printed.contains("nothing/*.yaml: error[invalid-path] no file matches `nothing/*.yaml`\n"),
        "{printed}"
    );
    assert!(
        printed.contains(
            "missing.yaml: error[invalid-path] `missing.yaml` was not read: no such file or directory\n"
        ),
        "{printed}"
    );
    // A path that is neither a file nor a pattern says both.
    assert!(
        printed.contains(
            "missing[.yaml: error[invalid-path] `missing[.yaml` was not read: no such file or directory, and as a glob: unclosed character class; missing ']'\n"
        ),
        "{printed}"
    );
    assert_eq!(stderr(&output), "checked 1 file: 4 errors, 1 warning\n");
}

#[test]
fn exit_codes_are_0_clean_1_errors_2_usage() {
    let tree = Tree::new(
        "exit",
        &[
            (
                "clean/protocol.yaml",
                concat!(
                    "types:\n  Ticket:\n    id: { type: string }\n",
                    agent_tail!()
                ),
            ),
            (
                "warn/protocol.yaml",
                concat!(
                    "types:\n  Ticket:\n    ticket_id: { type: string }\n",
                    agent_tail!()
                ),
            ),
            ("error/protocol.yaml", WARNING_AND_ERROR),
        ],
    );
    let code = |args: &[&str]| tree.run(args).status.code();
    assert_eq!(code(&["check", "clean"]), Some(0));
    assert_eq!(code(&["check", "warn"]), Some(0));
    assert_eq!(code(&["check", "--deny-warnings", "warn"]), Some(1));
    assert_eq!(code(&["check", "error"]), Some(1));
    assert_eq!(code(&["check", "--format", "yaml", "clean"]), Some(2));
    assert_eq!(code(&["check", "clean", "missing"]), Some(2));
}

#[test]
fn the_nearest_config_wins_and_flags_override_it() {
    let tree = Tree::new(
        "precedence",
        &[
            (
                "agentc.toml",
                "targets = [\"openai\"]\n[severity]\nproperty-name-case = \"error\"\n",
            ),
            ("top/protocol.yaml", WARNING_AND_FILE),
            (
                "team/agentc.toml",
                "[severity]\nproperty-name-case = \"off\"\n",
            ),
            ("team/inner/protocol.yaml", WARNING_AND_FILE),
            ("other.toml", "[severity]\nproperty-name-case = \"info\"\n"),
        ],
    );
    // `agentc check --format short ARGS`.
    let short =
        |args: &[&str]| stdout(&tree.run(&[&["check", "--format", "short"], args].concat()));
    // The root configuration: the warning is an error, and the openai
    // target reports the `file` parameter.
    assert_eq!(
        short(&["top"]),
        "top/protocol.yaml:3:5: error[property-name-case] property name `ticket_id` is not camelCase\n\
         top/protocol.yaml:9:15: warning[file-reference] `file` is sent to OpenAI as a file-reference object (`id`, `mediaType`, `url`, `filename`, `size`)\n"
    );
    // --config replaces it whole: no targets, unless --target gives them.
    let output = short(&["--config", "other.toml", "top"]);
    assert_eq!(
        output,
        "top/protocol.yaml:3:5: info[property-name-case] property name `ticket_id` is not camelCase\n"
    );
    let output = short(&["--config", "other.toml", "--target", "openai", "top"]);
    assert!(output.contains("3:5: info[property-name-case]"), "{output}");
    assert!(output.contains("9:15: warning[file-reference]"), "{output}");
    // --target replaces the configured targets.
    let output = short(&["--target", "json-schema", "top"]);
    assert!(!output.contains("file-reference"), "{output}");
    // The nearer configuration turns the code off; its own (empty)
    // targets apply, not the root's.
    assert_eq!(short(&["team"]), "");
    // --no-config: the defaults.
    assert_eq!(
        short(&["--no-config", "team"]),
        "team/inner/protocol.yaml:3:5: warning[property-name-case] property name `ticket_id` is not camelCase\n"
    );
    // One run governed by both: each file by its nearest.
    let both = short(&["."]);
    assert!(
        both.contains("top/protocol.yaml:3:5: error[property-name-case]"),
        "{both}"
    );
    assert!(!both.contains("team/inner"), "{both}");
    // --config applies to every file, wherever it is.
    let output = short(&["--config", "other.toml", "team", "top"]);
    assert_eq!(
        output.matches("info[property-name-case]").count(),
        2,
        "{output}"
    );
}

#[test]
fn print_config_shows_the_effective_configuration() {
    let tree = Tree::new(
        "print",
        &[
            (
                "agentc.toml",
                "targets = [\"openai\"]\nexclude = [\"legacy\"]\n[severity]\ndeprecated = \"off\"\n",
            ),
            ("sub/protocol.yaml", WARNING_AND_ERROR),
        ],
    );
    let output = tree.run(&["check", "--print-config", "sub/protocol.yaml"]);
    assert_eq!(output.status.code(), Some(0));
    let printed = stdout(&output);
    let config_file = "agentc.toml";
    let expected_head = format!(
        "# from {config_file}\ntargets = [\"openai\"]\ninclude = [\"**/protocol.yaml\"]\nexclude = [\"legacy\"]\n\n[severity]\n"
    );
    assert!(printed.starts_with(&expected_head), "{printed}");
    assert!(printed.contains("\ndeprecated = \"off\"\n"));
    assert!(printed.contains("\nproperty-name-case = \"warning\"\n"));
    assert!(printed.contains("\n# yaml-syntax = \"error\" (cannot be changed)\n"));
    // What it prints is a configuration that reads back the same.
    std::fs::write(tree.0.path().join("sub/agentc.toml"), &printed).expect("write printed config");
    let again = stdout(&tree.run(&["check", "--print-config", "sub/protocol.yaml"]));
    assert_eq!(
        again.replacen("# from sub/agentc.toml", "# from agentc.toml", 1),
        printed
    );
    // Every code has its line.
    let severity = printed
        .split("\n[diff]\n")
        .next()
        .expect("the [severity] table");
    assert!(
        printed.ends_with("\n[diff]\norder = \"any\"\nreaders = \"tolerant\"\nplatform-reader = \"strict\"\nignore = []\n"),
        "{printed}"
    );
    let codes = severity.lines().filter(|l| l.contains(" = \"")).count();
    let listed = stdout(&tree.run(&["explain"])).lines().count();
    assert_eq!(codes, listed);
    // --target replaces the configured targets.
    let printed = stdout(&tree.run(&[
        "check",
        "--print-config",
        "--target",
        "gemini",
        "--target",
        "aap",
    ]));
    assert!(
        printed.contains("\ntargets = [\"gemini\", \"aap\"]\n"),
        "{printed}"
    );
    // Without a configuration: the defaults, and where globs are relative to.
    let printed = stdout(&tree.run(&["check", "--print-config", "--no-config"]));
    assert!(printed.starts_with("# no agentc.toml found: the defaults, globs relative to "));
    assert!(printed.contains("\ntargets = []\ninclude = [\"**/protocol.yaml\"]\nexclude = []\n"));
}

#[test]
fn include_and_exclude_decide_what_searches_take() {
    let tree = Tree::new(
        "include",
        &[
            (
                "agentc.toml",
                "include = [\"agents/**/*.agent.yaml\", \"agents/**/protocol.yaml\"]\nexclude = [\"agents/legacy\", \"**/*.draft.agent.yaml\"]\n",
            ),
            ("agents/a/protocol.yaml", WARNING_AND_ERROR),
            ("agents/b/support.agent.yaml", WARNING_AND_ERROR),
            ("agents/b/next.draft.agent.yaml", WARNING_AND_ERROR),
            ("agents/legacy/old/protocol.yaml", WARNING_AND_ERROR),
            ("agents/notes.yaml", WARNING_AND_ERROR),
            ("elsewhere/protocol.yaml", WARNING_AND_ERROR),
        ],
    );
    let files = |args: &[&str]| -> Vec<String> {
        let mut names: Vec<String> = stdout(&tree.run(args))
            .lines()
            .map(|l| l.split(':').next().unwrap_or("").to_string())
            .collect();
        names.dedup();
        names
    };
    assert_eq!(
        files(&["check", "--format", "short", "agents"]),
        ["agents/a/protocol.yaml", "agents/b/support.agent.yaml"]
    );
    // A glob takes what it matches, less what is excluded.
    assert_eq!(
        files(&["check", "--format", "short", "agents/**/*.yaml"]),
        [
            "agents/a/protocol.yaml",
            "agents/b/support.agent.yaml",
            "agents/notes.yaml"
        ]
    );
    // A file named on the command line is checked even when excluded, as
    // it was asked for by name.
    assert_eq!(
        files(&[
            "check",
            "--format",
            "short",
            "agents/legacy/old/protocol.yaml"
        ]),
        ["agents/legacy/old/protocol.yaml"]
    );
    // A named folder that is excluded, or one inside it, is skipped with a
    // note saying why.
    for folder in ["agents/legacy", "agents/legacy/old"] {
        let output = tree.run(&["check", folder]);
        assert_eq!(output.status.code(), Some(0));
        assert_eq!(
            stderr(&output),
            format!("note: skipped {folder}: the `exclude` of agentc.toml excludes it\n")
        );
        assert_eq!(stdout(&output), "checked 0 files: no problems\n");
    }
    // A glob in an excluded folder, or whose every match is excluded: a
    // note, too.
    let output = tree.run(&["check", "agents/legacy/*/protocol.yaml"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        stderr(&output),
        "note: skipped agents/legacy/*/protocol.yaml: the `exclude` of agentc.toml excludes agents/legacy, where it searches\n"
    );
    let output = tree.run(&["check", "agents/*/*.draft.agent.yaml"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(
        stderr(&output).contains("agentc.toml excludes the 1 file it matches"),
        "{}",
        stderr(&output)
    );
    // A folder's own agentc.toml cannot take back its exclusion from
    // above, and is not even read.
    std::fs::write(
        tree.0.path().join("agents/legacy/agentc.toml"),
        "bogus = 1\n",
    )
    .expect("write");
    assert_eq!(
        files(&["check", "--format", "short", "agents"]),
        ["agents/a/protocol.yaml", "agents/b/support.agent.yaml"]
    );
    // Nothing included under a folder: said, with the configuration.
    let output = tree.run(&["check", "elsewhere"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stdout(&output).contains("nothing under `elsewhere` matches the `include` of "),
        "{}",
        stdout(&output)
    );
}

#[test]
fn config_problems_point_into_the_file_and_stop_the_run() {
    let tree = Tree::new(
        "broken",
        &[
            (
                "agentc.toml",
                "targets = [\"open-ai\"]\nexclued = [\"legacy/**\"]\n\n[severity]\nunused-refernce = \"off\"\ndeprecated = \"ignore\"\nyaml-syntax = \"warning\"\n",
            ),
            ("a/protocol.yaml", WARNING_AND_ERROR),
        ],
    );
    let output = tree.run(&["check"]);
    assert_eq!(output.status.code(), Some(2));
    let short = tree.run(&["check", "--format", "short"]);
    assert_eq!(short.status.code(), Some(2));
    let settings = snapshot_settings();
    settings.bind(|| {
        insta::assert_snapshot!("cli-check-broken-config", stdout(&output));
        insta::assert_snapshot!("cli-check-broken-config-short", stdout(&short));
    });
    // Not valid TOML at all.
    let tree = Tree::new(
        "malformed",
        &[
            ("agentc.toml", "targets = [\"openai\"\n"),
            ("a/protocol.yaml", WARNING_AND_ERROR),
        ],
    );
    let output = tree.run(&["check", "--format", "short"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stdout(&output)
            .starts_with("agentc.toml:1:20: error[invalid-config] `agentc.toml` is not valid TOML"),
        "{}",
        stdout(&output)
    );
    // --print-config reports it the same way.
    assert_eq!(
        tree.run(&["check", "--print-config"]).status.code(),
        Some(2)
    );
    // A --config file that does not exist.
    let output = tree.run(&["check", "--config", "missing.toml"]);
    assert_eq!(output.status.code(), Some(2));
    let printed = stdout(&output);
    assert!(
        printed.contains("invalid-config") && printed.contains("`missing.toml` was not read"),
        "{printed}"
    );
    assert!(
        printed.ends_with("`missing.toml` has problems; nothing was checked: 1 error\n"),
        "nothing is checked, and the file is named as given: {printed}"
    );
}

#[test]
fn suppressions_follow_the_configured_severities() {
    let protocol = concat!(
        "types:\n  Ticket:\n    # agentc-ignore: property-name-case the backend's column name\n    ticket_id: { type: string }\n    user_id: { type: string } # agentc-ignore: property-name-case\n",
        agent_tail!()
    );
    let tree = Tree::new("suppress", &[("a/protocol.yaml", protocol)]);
    let output = tree.run(&["check", "--format", "short", "--no-config"]);
    assert_eq!(
        stdout(&output),
        "a/protocol.yaml:5:31: warning[suppression-without-reason] this suppression gives no reason\n",
    );
    // A code turned off leaves its suppressions nothing to silence; the
    // suppression codes have severities like any other.
    std::fs::write(
        tree.0.path().join("agentc.toml"),
        "[severity]\nproperty-name-case = \"off\"\nsuppression-without-reason = \"off\"\nunused-suppression = \"error\"\n",
    )
    .expect("write config");
    let output = tree.run(&["check", "--format", "short"]);
    assert_eq!(output.status.code(), Some(1));
    let lines: Vec<String> = stdout(&output)
        .lines()
        .map(|l| l.split(" ").take(2).collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(
        lines,
        [
            "a/protocol.yaml:3:22: error[unused-suppression]",
            "a/protocol.yaml:5:48: error[unused-suppression]"
        ]
    );
}

#[test]
fn timings_print_each_phase_per_file_and_in_total() {
    let tree = Tree::new(
        "timings",
        &[
            ("a/protocol.yaml", WARNING_AND_FILE),
            ("b/protocol.yaml", WARNING_AND_FILE),
        ],
    );
    let output = tree.run(&["check", "--timings", "--target", "openai"]);
    assert_eq!(output.status.code(), Some(0));
    let table = stderr(&output);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 5, "{table}");
    let columns: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(
        columns,
        ["ms", "read", "parse", "lower", "check", "emit", "total"]
    );
    for (line, name) in lines[1..4]
        .iter()
        .zip(["a/protocol.yaml", "b/protocol.yaml", "total"])
    {
        let cells: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(cells[0], name);
        let numbers: Vec<f64> = cells[1..]
            .iter()
            .map(|c| c.parse().expect("a number"))
            .collect();
        assert_eq!(numbers.len(), 6);
        let sum: f64 = numbers[..5].iter().sum();
        assert!((sum - numbers[5]).abs() < 0.01, "{line}");
        // The emit phase ran: --target checks each file.
        assert!(numbers[4] > 0.0, "{line}");
    }
    assert!(lines[4].starts_with("wall clock "), "{table}");
    // Without --timings, nothing on standard error.
    assert_eq!(stderr(&tree.run(&["check"])), "");
}

/// A search skips what git ignores (`.gitignore`, `.ignore`, the global
/// excludes file) as ripgrep does, `--no-ignore` searches it too, and a
/// path named on the command line is checked whatever ignores it. Paths
/// are printed as typed, without `./`, in every format.
#[test]
fn searches_skip_what_git_ignores_and_print_paths_as_typed() {
    let protocol = concat!("types:\n  T:\n    a: { type: Strng }\n", agent_tail!());
    let tree = Tree::new(
        "gitignore",
        &[
            ("a/protocol.yaml", protocol),
            ("dist/b/protocol.yaml", protocol),
            ("generated/c/protocol.yaml", protocol),
            ("local/d/protocol.yaml", protocol),
            (".hidden/e/protocol.yaml", protocol),
            (".gitignore", "dist/\n"),
            (".ignore", "generated/\n"),
            ("home/excludes", "local/\n"),
        ],
    );
    let excludes = tree.0.path().join("home/excludes");
    std::fs::write(
        tree.0.path().join("home/.gitconfig"),
        format!("[core]\n\texcludesFile = {}\n", excludes.display()),
    )
    .expect("write .gitconfig");
    let home = tree.0.path().join("home");
    let home = home.to_str().expect("utf-8 path");
    let env = [("HOME", home), ("XDG_CONFIG_HOME", home)];
    let files = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["check", "--format", "short"];
        all.extend_from_slice(args);
        let output = tree.run_with(&all, &env);
        let mut names: Vec<String> = stdout(&output)
            .lines()
            .map(|l| l.split(':').next().unwrap_or("").to_string())
            .collect();
        names.dedup();
        names
    };
    assert_eq!(files(&[]), ["a/protocol.yaml"]);
    assert_eq!(files(&["."]), ["a/protocol.yaml"]);
    assert_eq!(files(&["./"]), ["a/protocol.yaml"]);
    assert_eq!(
        files(&["--no-ignore"]),
        [
            "a/protocol.yaml",
            "dist/b/protocol.yaml",
            "generated/c/protocol.yaml",
            "local/d/protocol.yaml"
        ]
    );
    // Named on the command line: checked, ignored or not.
    assert_eq!(files(&["./dist/b/protocol.yaml"]), ["dist/b/protocol.yaml"]);
    assert_eq!(files(&["dist"]), ["dist/b/protocol.yaml"]);
    // Every format prints the path as typed: no `./`.
    let run = |format: &str| stdout(&tree.run_with(&["check", "--format", format], &env));
    let json: serde_json::Value = serde_json::from_str(&run("json")).expect("JSON");
    assert_eq!(json["diagnostics"][0]["file"], "a/protocol.yaml");
    let sarif: serde_json::Value = serde_json::from_str(&run("sarif")).expect("SARIF");
    assert_eq!(
        sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "a/protocol.yaml"
    );
    assert!(run("github").starts_with("::error file=a/protocol.yaml,"));
    assert!(run("human").contains("╭─[a/protocol.yaml:3:16]"));
}
