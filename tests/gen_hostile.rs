//! `agentc gen` in a pull request that is hostile: links committed where
//! the generated files go, or as the output folder, must never make agentc
//! read a file outside the project (and print it in a stale file's
//! difference) or write one. Each case is a rule of `docs/security.md`,
//! held by `disk::read` and `disk::write` with `Reach::Own` and
//! `disk::folder_within`.
#![cfg(unix)]

mod common;

use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::Output;

/// What a file outside the project holds: never printed, never changed.
const SECRET: &str = "AWS_SECRET_ACCESS_KEY=do-not-print-me\n";

fn agentc(dir: &Path, args: &[&str]) -> Output {
    common::agentc_in(dir, args)
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// A project with the example agent and a `[[gen]]` entry writing
/// TypeScript to `gen/`, and a secret file beside the project.
struct Project {
    _root: tempfile::TempDir,
    dir: std::path::PathBuf,
    secret: std::path::PathBuf,
}

fn project() -> Project {
    let root = tempfile::tempdir().expect("temporary folder");
    let dir = root.path().join("project");
    common::copy_dir(
        &common::root().join("protocols/shop-assistant"),
        &dir.join("agents/shop"),
    );
    std::fs::write(
        dir.join("agentc.toml"),
        "[[gen]]\nlang = [\"ts\"]\nout = \"gen\"\n",
    )
    .expect("write agentc.toml");
    let secret = root.path().join("secret.env");
    std::fs::write(&secret, SECRET).expect("write secret");
    Project {
        dir,
        secret,
        _root: root,
    }
}

impl Project {
    fn assert_secret_untouched(&self, output: &Output) {
        assert!(
            !text(output).contains("do-not-print-me"),
            "the secret was printed:\n{}",
            text(output)
        );
        assert_eq!(
            std::fs::read_to_string(&self.secret).expect("read secret"),
            SECRET,
            "the secret was written"
        );
    }
}

#[test]
fn gen_check_never_reads_through_a_committed_link() {
    let project = project();
    let out = project.dir.join("gen");
    std::fs::create_dir_all(&out).expect("mkdir");
    // The generated file committed as a link to a file outside, and (as
    // bad) one to a file inside: --check follows neither.
    symlink(&project.secret, out.join("shop-assistant.ts")).expect("link");
    for format in ["human", "json", "github", "short", "sarif", "markdown"] {
        let output = agentc(&project.dir, &["gen", "--check", "--format", format]);
        assert_eq!(output.status.code(), Some(1), "{format}: {}", text(&output));
        assert!(
            text(&output).contains("gen-stale"),
            "{format}: {}",
            text(&output)
        );
        project.assert_secret_untouched(&output);
    }
    let output = agentc(&project.dir, &["gen", "--check"]);
    assert!(text(&output).contains("is a link"), "{}", text(&output));
}

#[test]
fn gen_never_writes_through_a_committed_link() {
    let project = project();
    let out = project.dir.join("gen");
    std::fs::create_dir_all(&out).expect("mkdir");
    // The temporary name the writer used to use, and the file itself.
    symlink(&project.secret, out.join("shop-assistant.agentc-tmp")).expect("link");
    symlink(&project.secret, out.join("shop-assistant.ts")).expect("link");
    let output = agentc(&project.dir, &["gen"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(
        text(&output).contains("gen-would-overwrite"),
        "{}",
        text(&output)
    );
    project.assert_secret_untouched(&output);
    // The link is still a link: refused, not replaced.
    assert!(
        std::fs::symlink_metadata(out.join("shop-assistant.ts"))
            .expect("still there")
            .file_type()
            .is_symlink()
    );

    // Once the link is gone, the file is written, as a regular file, and
    // the planted temporary name is left alone.
    std::fs::remove_file(out.join("shop-assistant.ts")).expect("remove");
    let output = agentc(&project.dir, &["gen"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    project.assert_secret_untouched(&output);
    let meta = std::fs::symlink_metadata(out.join("shop-assistant.ts")).expect("written");
    assert!(meta.file_type().is_file());
    // Nothing but the generated file and the planted link is left.
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["shop-assistant.agentc-tmp", "shop-assistant.ts"]);
}

#[test]
fn an_output_folder_that_links_out_is_refused() {
    let project = project();
    let outside = project.secret.parent().expect("parent").join("outside");
    std::fs::create_dir_all(&outside).expect("mkdir");
    symlink(&outside, project.dir.join("gen")).expect("link");
    for args in [vec!["gen"], vec!["gen", "--check"]] {
        let output = agentc(&project.dir, &args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", text(&output));
        assert!(
            text(&output).contains("outside"),
            "{args:?}: {}",
            text(&output)
        );
        project.assert_secret_untouched(&output);
        assert_eq!(
            std::fs::read_dir(&outside).expect("list").count(),
            0,
            "{args:?}: written outside"
        );
    }
    // A link above the output folder, deeper: `out = "web/gen"` with `web`
    // leading out.
    std::fs::remove_file(project.dir.join("gen")).expect("remove");
    std::fs::write(
        project.dir.join("agentc.toml"),
        "[[gen]]\nlang = [\"python\"]\nout = \"web/gen\"\n",
    )
    .expect("write");
    symlink(&outside, project.dir.join("web")).expect("link");
    let output = agentc(&project.dir, &["gen"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert_eq!(std::fs::read_dir(&outside).expect("list").count(), 0);
}

#[test]
fn links_that_stay_inside_the_project_are_followed_for_the_folder() {
    let project = project();
    std::fs::create_dir_all(project.dir.join("web/generated")).expect("mkdir");
    symlink("web/generated", project.dir.join("gen")).expect("link");
    let output = agentc(&project.dir, &["gen"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(
        project
            .dir
            .join("web/generated/shop-assistant.ts")
            .is_file()
    );
    let output = agentc(&project.dir, &["gen", "--check"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
}

#[test]
fn a_dangling_link_or_a_fifo_in_place_of_a_generated_file_is_refused() {
    let project = project();
    let out = project.dir.join("gen");
    std::fs::create_dir_all(&out).expect("mkdir");
    symlink("/nonexistent/agentc-target", out.join("shop-assistant.ts")).expect("link");
    let output = agentc(&project.dir, &["gen"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(!Path::new("/nonexistent/agentc-target").exists());
    std::fs::remove_file(out.join("shop-assistant.ts")).expect("remove");
    let made = std::process::Command::new("mkfifo")
        .arg(out.join("shop-assistant.ts"))
        .status();
    if made.is_ok_and(|s| s.success()) {
        // Neither opened (it would block) nor replaced.
        for args in [vec!["gen"], vec!["gen", "--check"]] {
            let output = agentc(&project.dir, &args);
            assert_ne!(output.status.code(), Some(0), "{args:?}: {}", text(&output));
            assert!(
                text(&output).contains("FIFO"),
                "{args:?}: {}",
                text(&output)
            );
        }
    }
}

#[test]
fn emit_output_is_written_whole_through_a_temporary_file() {
    let project = project();
    let out = project.dir.join("schema.json");
    let output = agentc(
        &project.dir,
        &[
            "emit",
            "agents/shop/protocol.yaml",
            "--tool",
            "add-to-cart",
            "--output",
            "schema.json",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let written = std::fs::read_to_string(&out).expect("written");
    assert!(serde_json::from_str::<serde_json::Value>(&written).is_ok());
    // No temporary file is left beside it.
    let leftovers = std::fs::read_dir(&project.dir)
        .expect("list")
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.file_name().to_string_lossy().starts_with(".agentc-"))
        })
        .count();
    assert_eq!(leftovers, 0);
}

/// An error that `agentc.toml` turns off, or an `agentc-ignore` comment
/// silences, is gone from `check`'s report, but the model still has it: a
/// type that does not resolve. `gen` reports it and writes nothing, and the
/// contract diff says it did not compare (an error: a gate that skipped in
/// silence would pass what it never compared).
#[test]
fn errors_a_configuration_silences_still_stop_gen_and_the_diff() {
    let project = project();
    let protocol = project.dir.join("agents/shop/protocol.yaml");
    let yaml = std::fs::read_to_string(&protocol).expect("read");
    std::fs::write(&protocol, yaml.replacen("type: Money", "type: Mony", 1)).expect("write");
    std::fs::write(
        project.dir.join("agentc.toml"),
        "[severity]\nunknown-type = \"off\"\n\n[[gen]]\nlang = [\"ts\", \"zod\", \"python\"]\nout = \"gen\"\n",
    )
    .expect("write agentc.toml");
    let check = agentc(&project.dir, &["check", "agents/shop"]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check));
    let output = agentc(&project.dir, &["gen"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert!(text(&output).contains("unknown-type"), "{}", text(&output));
    assert!(text(&output).contains("silences"), "{}", text(&output));
    assert!(!project.dir.join("gen/shop-assistant.ts").exists());

    let old = project.dir.join("old.yaml");
    std::fs::write(&old, &yaml).expect("write");
    let output = agentc(
        &project.dir,
        &[
            "diff",
            "old.yaml",
            "agents/shop/protocol.yaml",
            "--format",
            "short",
        ],
    );
    // The diff compiles NEW itself, without the configuration's
    // severities for its own errors: they stop it.
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert!(text(&output).contains("unknown-type"), "{}", text(&output));
}
