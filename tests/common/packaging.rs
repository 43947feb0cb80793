//! Shared by the packaging tests (npm, wheel, Action, editor extension):
//! the platform list, the builds CI made, and the tools. Those tests are
//! `#[ignore = "needs ..."]`; run anyway, a missing tool skips the test
//! with a printed reason, but fails it when `AGENTC_REQUIRE_PACKAGING=1`
//! (set by `.ci/run`): `super::unavailable`.

use super::{root, unavailable};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Says why a test does not run, or fails it when CI requires it
/// (`AGENTC_REQUIRE_PACKAGING=1`).
pub fn skip(reason: &str) {
    unavailable("AGENTC_REQUIRE_PACKAGING", reason);
}

/// Whether `program --version` runs; skips (or fails) naming it when not.
pub fn has(program: &str) -> bool {
    let runs = Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !runs {
        skip(&format!("`{program}` is not on PATH"));
    }
    runs
}

/// The rows of packaging/platforms.json.
pub fn platforms() -> Vec<Value> {
    let text = std::fs::read_to_string(root().join("packaging/platforms.json"))
        .expect("read packaging/platforms.json");
    let parsed: Value = serde_json::from_str(&text).expect("platforms.json is JSON");
    parsed["platforms"]
        .as_array()
        .expect("a list of platforms")
        .clone()
}

pub fn platform(target: &str) -> Value {
    platforms()
        .into_iter()
        .find(|row| row["target"] == target)
        .unwrap_or_else(|| panic!("{target} is not in packaging/platforms.json"))
}

/// The row of the machine running the tests, if it is a released platform.
pub fn host() -> Option<Value> {
    let os = match std::env::consts::OS {
        "linux" => "linux",
        "macos" => "darwin",
        "windows" => "win32",
        _ => return None,
    };
    let cpu = match std::env::consts::ARCH {
        "x86_64" => "x64",
        "aarch64" => "arm64",
        _ => return None,
    };
    let libc = if cfg!(target_env = "musl") {
        Some("musl")
    } else if os == "linux" {
        Some("glibc")
    } else {
        None
    };
    platforms()
        .into_iter()
        .find(|row| row["os"] == os && row["cpu"] == cpu && row["libc"].as_str() == libc)
}

/// The folder `packaging/build` filled in CI (`AGENTC_DIST_DIR`), if any.
pub fn dist() -> Option<PathBuf> {
    std::env::var_os("AGENTC_DIST_DIR").map(PathBuf::from)
}

/// The binary CI built for `target`, when it did.
pub fn dist_binary(target: &str) -> Option<PathBuf> {
    let exe = if platform(target)["os"] == "win32" {
        "agentc.exe"
    } else {
        "agentc"
    };
    dist()
        .map(|d| d.join("bin").join(target).join(exe))
        .filter(|p| p.is_file())
}

/// A fresh folder under the system's temporary folder, removed when
/// dropped.
pub fn scratch(name: &str) -> tempfile::TempDir {
    super::scratch(&format!("pkg-{name}"))
}

pub fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Runs a command that must succeed; its standard output.
pub fn run(command: &mut Command) -> String {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{command:?}: {e}"));
    assert!(
        output.status.success(),
        "{command:?} failed:\n{}",
        text(&output)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Whether an ELF file asks for a program interpreter (a dynamic loader):
/// a static binary has no PT_INTERP program header. Reads the 64-bit
/// little-endian header only, which is what every Linux build here is.
pub fn elf_needs_interpreter(path: &Path) -> bool {
    let bytes = std::fs::read(path).expect("read the binary");
    assert_eq!(&bytes[..4], b"\x7fELF", "{} is not ELF", path.display());
    assert_eq!(bytes[4], 2, "not a 64-bit ELF");
    assert_eq!(bytes[5], 1, "not little-endian");
    let u16_at = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]) as usize;
    let u64_at = |at: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(b) as usize
    };
    let phoff = u64_at(0x20);
    let phentsize = u16_at(0x36);
    let phnum = u16_at(0x38);
    const PT_INTERP: u32 = 3;
    (0..phnum).any(|i| {
        let at = phoff + i * phentsize;
        u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]) == PT_INTERP
    })
}

/// The ELF machine of a binary: 62 for x86-64, 183 for aarch64.
pub fn elf_machine(path: &Path) -> u16 {
    let bytes = std::fs::read(path).expect("read the binary");
    u16::from_le_bytes([bytes[0x12], bytes[0x13]])
}

/// A YAML file as JSON, read by a Python with PyYAML
/// (`$AGENTC_CI_TOOLS_BIN/python`, pre-commit's venv, or `python3`); `None`,
/// with the reason, when there is none.
pub fn yaml_as_json(file: &Path) -> Option<Value> {
    let mut candidates = Vec::new();
    if let Some(bin) = std::env::var_os("AGENTC_CI_TOOLS_BIN") {
        candidates.push(PathBuf::from(bin).join("python"));
    }
    candidates.push(PathBuf::from("python3"));
    let Some(python) = candidates.into_iter().find(|python| {
        Command::new(python)
            .args(["-c", "import yaml"])
            .output()
            .is_ok_and(|o| o.status.success())
    }) else {
        skip("no Python with PyYAML (AGENTC_CI_TOOLS_BIN/python or python3) to read YAML");
        return None;
    };
    let json = run(Command::new(python)
        .args([
            "-c",
            "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))",
        ])
        .arg(file));
    Some(serde_json::from_str(&json).expect("YAML as JSON"))
}

/// Checks a file against one of check-jsonschema's vendored SchemaStore
/// schemas (`vendor.github-actions`, `vendor.github-workflows`), from
/// `$AGENTC_CI_TOOLS_BIN`; without it, says why and returns, unless
/// `AGENTC_REQUIRE_CI_TOOLS=1`.
pub fn passes_schemastore(schema: &str, file: &Path) {
    let Some(bin) = std::env::var_os("AGENTC_CI_TOOLS_BIN").map(PathBuf::from) else {
        unavailable(
            "AGENTC_REQUIRE_CI_TOOLS",
            "AGENTC_CI_TOOLS_BIN is not set (a folder with check-jsonschema, \
             from tests/ci_snippets/requirements.txt; .ci/run sets it)",
        );
        return;
    };
    let output = Command::new(bin.join("check-jsonschema"))
        .args(["--builtin-schema", schema])
        .arg(file)
        .output()
        .expect("run check-jsonschema");
    assert!(output.status.success(), "{}", text(&output));
}

/// Whether `qemu-aarch64` runs here, to run an aarch64 binary. When it does
/// not, says so, and fails when `AGENTC_REQUIRE_QEMU=1` (set by `.ci/run`
/// where it installed qemu-user).
pub fn qemu_aarch64() -> bool {
    let runs = Command::new("qemu-aarch64")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !runs {
        unavailable(
            "AGENTC_REQUIRE_QEMU",
            "qemu-aarch64 is not on PATH (apt-get install qemu-user), so the aarch64 binary was not run",
        );
    }
    runs
}

/// The names in a zip file (a wheel, a .vsix), read with Python's zipfile.
pub fn zip_names(zip: &Path) -> Vec<String> {
    let listing = run(Command::new("python3")
        .args([
            "-c",
            "import sys, zipfile; print('\\n'.join(zipfile.ZipFile(sys.argv[1]).namelist()))",
        ])
        .arg(zip));
    listing.lines().map(str::to_string).collect()
}
