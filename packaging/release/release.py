#!/usr/bin/env python3
"""The release's own steps, in one file, so that the release workflow
(.github/workflows/release.yml) calls only code that tests/release.rs runs.

Usage:
  release.py version               print the version (Cargo.toml's, the one source)
  release.py plan [--tag TAG]      print the build matrix and the version as GitHub
                                   step outputs (`version=...`, `matrix=...`);
                                   refuse a TAG other than v<version>
  release.py archive TARGET DIST   pack DIST/bin/TARGET/agentc (agentc.exe on Windows)
                                   with the README and licences into
                                   DIST/archives/agentc-VERSION-TARGET.tar.gz (.zip on
                                   Windows), byte-identical from run to run
  release.py checksums DIR         write DIR/SHA256SUMS for every other file in DIR, in
                                   the format `sha256sum --check` reads
  release.py versions              list every file that carries the version; exit 1,
                                   naming each, when one disagrees with Cargo.toml
  release.py set-version NEW       write NEW into every one of them
  release.py mirror CHECKOUT       make CHECKOUT (a clone of the agentc-pre-commit
                                   repository) hold packaging/pre-commit/ and the
                                   hooks of .pre-commit-hooks.yaml, run from the
                                   wheel; commit, and tag v<version>; pushing is
                                   left to the caller

Needs Python 3.11 or later (tomllib) and nothing else, so it runs as-is on
every GitHub runner. The platforms are read from packaging/platforms.json.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import re
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A fixed time for every archive member (2020-01-01), so an archive's bytes
# depend on its contents alone.
EPOCH = 1577836800

# What an archive holds beside the binary.
ARCHIVE_EXTRAS = ("README.md", "LICENSE-MIT", "LICENSE-APACHE")


def fail(message: str) -> None:
    print(f"release.py: {message}", file=sys.stderr)
    sys.exit(1)


def platforms() -> list[dict]:
    return json.loads((ROOT / "packaging/platforms.json").read_text())["platforms"]


def platform(target: str) -> dict:
    for row in platforms():
        if row["target"] == target:
            return row
    fail(f"{target} is not in packaging/platforms.json")
    raise AssertionError


def cargo_version() -> str:
    return tomllib.loads((ROOT / "Cargo.toml").read_text())["package"]["version"]


def executable(target: str) -> str:
    return "agentc.exe" if platform(target)["os"] == "win32" else "agentc"


# --- the files that carry the version --------------------------------------


class TextField:
    """A version written in a text file, found by a pattern whose one group
    is the version; `count` is how many times it must occur."""

    def __init__(self, path: str, pattern: str, count: int = 1) -> None:
        self.path = path
        self.pattern = re.compile(pattern, re.MULTILINE)
        self.count = count

    def describe(self) -> str:
        return self.path

    def read(self) -> list[str]:
        text = (ROOT / self.path).read_text()
        found = [m.group(1) for m in self.pattern.finditer(text)]
        if len(found) != self.count:
            fail(f"{self.path}: expected the version {self.count} time(s), found {len(found)}")
        return found

    def write(self, version: str) -> None:
        file = ROOT / self.path
        text = file.read_text()

        def replace(m: re.Match) -> str:
            start, end = m.span(1)
            whole = m.group(0)
            return whole[: start - m.start()] + version + whole[end - m.start() :]

        file.write_text(self.pattern.sub(replace, text))


class JsonField:
    """A version at a path of keys in a JSON file (package.json and its
    lock); written back with npm's own layout: two spaces, a final newline."""

    def __init__(self, path: str, *keys: tuple[str, ...]) -> None:
        self.path = path
        self.keys = keys

    def describe(self) -> str:
        return self.path

    def read(self) -> list[str]:
        data = json.loads((ROOT / self.path).read_text())
        found = []
        for key_path in self.keys:
            value = data
            for key in key_path:
                if not isinstance(value, dict) or key not in value:
                    fail(f"{self.path}: no {'.'.join(key_path)}")
                value = value[key]
            found.append(value)
        return found

    def write(self, version: str) -> None:
        file = ROOT / self.path
        data = json.loads(file.read_text())
        for key_path in self.keys:
            value = data
            for key in key_path[:-1]:
                value = value[key]
            value[key_path[-1]] = version
        file.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


# A version in an install line: `uses: agentc/agentc@vX`, `rev: vX`,
# `agentc-lint==X`.
DOC_VERSION = r"(?:agentc/agentc@v|rev: v|agentc-lint==)(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)"

# Every file that carries the version, besides Cargo.toml. The wheel's
# version is Cargo.toml's itself (pyproject.toml declares it dynamic, which
# `versions` checks); the npm platform packages take theirs from the main
# package's package.json when packaging/npm/pack writes them.
FIELDS = [
    # agentc's and the browser package's crates.
    TextField("Cargo.lock", r'^\[\[package\]\]\nname = "agentc(?:-wasm)?"\nversion = "([^"]+)"$', 2),
    JsonField("packaging/npm/cli/package.json", ("version",)),
    # The browser package (npm @agentc/wasm): its crate and its manifest.
    TextField("wasm/Cargo.toml", r'^version = "([^"]+)"$'),
    JsonField("wasm/package/package.json", ("version",)),
    JsonField("editors/vscode/package.json", ("version",)),
    JsonField("editors/vscode/package-lock.json", ("version",), ("packages", "", "version")),
    TextField("packaging/pre-commit/pyproject.toml", r'"agentc-lint==([^"]+)"'),
    TextField("action.yml", r'^  version:\n(?:    .*\n)*?    default: "([^"]+)"$'),
    # The install lines the docs show.
    TextField("README.md", DOC_VERSION, 3),
    TextField("docs/install.md", DOC_VERSION, 3),
    TextField("docs/diff.md", DOC_VERSION, 2),
    TextField("docs/gen.md", DOC_VERSION, 1),
    TextField("packaging/pypi/README.md", DOC_VERSION, 1),
    TextField("packaging/pre-commit/README.md", DOC_VERSION, 1),
]


def versions() -> None:
    want = cargo_version()
    wrong = []
    print(f"Cargo.toml: {want}")
    for field in FIELDS:
        found = field.read()
        print(f"{field.describe()}: {', '.join(found)}")
        if any(v != want for v in found):
            wrong.append(field.describe())
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    if "version" in pyproject or "version" not in pyproject.get("dynamic", []):
        wrong.append("pyproject.toml (its version must be dynamic: maturin reads Cargo.toml's)")
    else:
        print("pyproject.toml: dynamic, from Cargo.toml")
    if wrong:
        fail(f"these disagree with Cargo.toml's version {want}: {', '.join(wrong)}")


def set_version(new: str) -> None:
    if not re.fullmatch(r"\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?", new):
        fail(f"{new!r} is not a version such as 1.2.3 or 1.2.3-rc.1")
    TextField("Cargo.toml", r'\A(?:.*\n)*?\[package\]\n(?:.*\n)*?version = "([^"]+)"$').write(new)
    for field in FIELDS:
        field.write(new)
    versions()


# --- plan, archive, checksums ------------------------------------------------


def plan(tag: str | None) -> None:
    version = cargo_version()
    if tag is not None and tag != f"v{version}":
        fail(f"the tag {tag} is not v{version}, Cargo.toml's version; run `release.py set-version` first")
    matrix = {"include": platforms()}
    print(f"version={version}")
    print(f"matrix={json.dumps(matrix, separators=(',', ':'))}")


def archive(target: str, dist: Path) -> None:
    version = cargo_version()
    name = executable(target)
    binary = dist / "bin" / target / name
    if not binary.is_file():
        fail(f"{binary} does not exist; build it first (packaging/build {target} {dist})")
    stem = f"agentc-{version}-{target}"
    members = [(name, binary.read_bytes(), 0o755)]
    members += [(extra, (ROOT / extra).read_bytes(), 0o644) for extra in ARCHIVE_EXTRAS]
    out = dist / "archives"
    out.mkdir(parents=True, exist_ok=True)
    if platform(target)["os"] == "win32":
        path = out / f"{stem}.zip"
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
            for member, data, mode in members:
                info = zipfile.ZipInfo(f"{stem}/{member}", date_time=(2020, 1, 1, 0, 0, 0))
                info.external_attr = (0o100000 | mode) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                zf.writestr(info, data)
    else:
        path = out / f"{stem}.tar.gz"
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tf:
            for member, data, mode in members:
                info = tarfile.TarInfo(f"{stem}/{member}")
                info.size = len(data)
                info.mode = mode
                info.mtime = EPOCH
                info.uname = info.gname = ""
                tf.addfile(info, io.BytesIO(data))
        with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=EPOCH, filename="") as gz:
            gz.write(buffer.getvalue())
    print(path)


def checksums(folder: Path) -> None:
    files = sorted(p for p in folder.iterdir() if p.is_file() and p.name != "SHA256SUMS")
    if not files:
        fail(f"{folder} has no files to sum")
    lines = [f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.name}\n" for p in files]
    (folder / "SHA256SUMS").write_text("".join(lines))
    print(folder / "SHA256SUMS")


def mirror_hooks() -> str:
    """The mirror's .pre-commit-hooks.yaml: the main repository's hooks, to
    run the agentc-lint wheel (`language: python`) instead of building
    agentc with cargo (`language: rust`), so the hook is written once."""
    text = (ROOT / ".pre-commit-hooks.yaml").read_text()
    body = text[text.index("\n- id:") + 1 :]
    if body.count("  language: rust\n") != 1:
        fail(".pre-commit-hooks.yaml should have one hook, with `language: rust`")
    header = (
        "# pre-commit hooks for agentc (https://pre-commit.com), written by agentc's\n"
        "# release from its .pre-commit-hooks.yaml: the same hooks, installing the\n"
        "# agentc-lint wheel that pyproject.toml pins instead of building agentc.\n"
    )
    return header + body.replace("  language: rust\n", "  language: python\n")


def mirror(checkout: Path) -> None:
    """ruff-pre-commit's pattern: a repository whose only content is the hook
    and a package that pins the wheel, tagged like agentc itself."""
    import shutil
    import subprocess

    version = cargo_version()
    if not (checkout / ".git").exists():
        fail(f"{checkout} is not a git checkout")
    for path in sorted(checkout.iterdir()):
        if path.name == ".git":
            continue
        shutil.rmtree(path) if path.is_dir() else path.unlink()
    shutil.copytree(ROOT / "packaging/pre-commit", checkout, dirs_exist_ok=True)
    (checkout / ".pre-commit-hooks.yaml").write_text(mirror_hooks())
    identity = ["-c", "user.name=agentc release", "-c", "user.email=release@agentc.invalid"]

    def git(*args: str) -> None:
        subprocess.run(["git", *identity, "-C", str(checkout), *args], check=True)

    git("add", "--all")
    git("commit", "--quiet", "--allow-empty", "--message", f"agentc-lint {version}")
    git("tag", "--annotate", f"v{version}", "--message", f"agentc-lint {version}")
    print(f"{checkout}: committed and tagged v{version}")


def main(argv: list[str]) -> None:
    match argv:
        case ["version"]:
            print(cargo_version())
        case ["plan"]:
            plan(None)
        case ["plan", "--tag", tag]:
            plan(tag)
        case ["archive", target, dist]:
            archive(target, Path(dist))
        case ["checksums", folder]:
            checksums(Path(folder))
        case ["versions"]:
            versions()
        case ["set-version", new]:
            set_version(new)
        case ["mirror", checkout]:
            mirror(Path(checkout))
        case _:
            print(__doc__, file=sys.stderr)
            sys.exit(2)


if __name__ == "__main__":
    main(sys.argv[1:])
