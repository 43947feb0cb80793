"""Drives `agentc mcp` with the official MCP Python SDK's client
(`mcp.client.stdio` and `ClientSession`), a client agentc's authors did not
write (tests/mcp_client.rs runs it; see requirements.txt).

    python client.py AGENTC [--timeout SECONDS]

Run from the repository's root (the server's working folder, hence its one
root when the client declares none). Starts `AGENTC mcp` over stdio and:

- initializes (serverInfo `agentc`, the crate's version; tools, resources
  and prompts offered), lists the eight tools, each with an inputSchema and
  an outputSchema, the resources and the prompts, and gets `new-tool`;
- shows that the SDK's own check of `structuredContent` against the tool's
  `outputSchema` is on: `ClientSession.validate_tool_result`, which
  `call_tool` runs on every result that is not an error, refuses a `check`
  result with its `summary` taken out (so a schema mismatch in any call
  below fails it);
- calls each tool once on the clean protocol (protocols/shop-assistant) and
  once on a broken one (protocols/invalid/unknown-type.yaml, or a bad
  argument where the tool reads no protocol), and compares each result with
  what the CLI prints for the same thing, run here: `check --format json`,
  `check --diff` and `--fix`, `explain`, `emit`, `validate --format json`,
  `diff --format json`, `gen --stdout`, `schema`;
- reads every resource `resources/list` gives: the schema is what `agentc
  schema` prints, each code's page what `agentc explain CODE` prints, the
  catalogue names every code;
- in a second session whose client declares one root (a temporary folder,
  through the SDK's `list_roots_callback`): a path outside it is an
  `isError` result, a path inside it a result, `fix` with `write` writes
  there, and after `notifications/roots/list_changed` the new roots count.

Each result's text content is the same JSON as its `structuredContent`.
Exits 0 with a summary on success; 1 with the reason on a failed check.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from importlib.metadata import version
from pathlib import Path

import warnings

import anyio
import mcp.types as types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

TOOLS = ["check", "fix", "explain", "emit", "validate", "diff", "gen", "schema"]
CLEAN = "protocols/shop-assistant"
BROKEN = "protocols/invalid/unknown-type.yaml"


class Failure(Exception):
    """A check that did not hold."""


def check(condition, message):
    if not condition:
        raise Failure(message)


def short(value, limit=1500):
    text = value if isinstance(value, str) else json.dumps(value, indent=1, sort_keys=True)
    return text if len(text) <= limit else text[:limit] + " [...]"


def same(got, want, what):
    """`got` (from the server) equals `want` (from the CLI), or a Failure
    naming the first place they differ."""
    if got == want:
        return
    where = first_difference(got, want, "")
    raise Failure(f"{what}: the server's result differs from the CLI's at `{where}`:\n"
                  f"--- server\n{short(got)}\n--- CLI\n{short(want)}")


def first_difference(a, b, at):
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if a.get(key, KeyError) != b.get(key, KeyError):
                return first_difference(a.get(key), b.get(key), f"{at}/{key}")
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, f"{at}/{i}")
        if len(a) != len(b):
            return f"{at} (lengths {len(a)} and {len(b)})"
    return at or "/"


# ---------------------------------------------------------------------
# The CLI: what the server's results are compared with.
# ---------------------------------------------------------------------


class Cli:
    def __init__(self, agentc):
        self.agentc = agentc

    def run(self, *args, cwd=None, codes=(0,)):
        done = subprocess.run(
            [self.agentc, *args],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=cwd,
            env={**os.environ, "NO_COLOR": "1"},
        )
        check(
            done.returncode in codes,
            f"`agentc {' '.join(args)}` exited with {done.returncode} (expected {codes}):\n"
            f"{done.stdout}{done.stderr}",
        )
        return done.stdout

    def json(self, *args, cwd=None, codes=(0, 1)):
        out = self.run(*args, cwd=cwd, codes=codes)
        try:
            return json.loads(out)
        except json.JSONDecodeError:
            raise Failure(f"`agentc {' '.join(args)}` printed no JSON:\n{short(out)}")


# ---------------------------------------------------------------------
# Calls.
# ---------------------------------------------------------------------


class Session:
    """A ClientSession with the checks every call gets."""

    def __init__(self, session, timeout):
        self.session = session
        self.timeout = timeout
        self.calls = 0

    async def call(self, name, arguments):
        """A tool's structuredContent; the call must succeed. `call_tool`
        has already checked it against the tool's outputSchema."""
        with anyio.fail_after(self.timeout):
            result = await self.session.call_tool(name, arguments)
        self.calls += 1
        check(isinstance(result, types.CallToolResult), f"{name}: not a CallToolResult: {result!r}")
        text = text_of(result, name)
        check(not result.is_error, f"{name} {short(arguments, 300)}: isError: {text}")
        check(result.structured_content is not None, f"{name}: no structuredContent")
        try:
            parsed = json.loads(text)
        except json.JSONDecodeError:
            raise Failure(f"{name}: content[0] is not JSON: {short(text)}")
        check(parsed == result.structured_content,
              f"{name}: content[0]'s JSON is not the structuredContent")
        return result.structured_content

    async def refused(self, name, arguments, says):
        """The call is a result with isError whose text says `says`."""
        with anyio.fail_after(self.timeout):
            result = await self.session.call_tool(name, arguments)
        self.calls += 1
        text = text_of(result, name)
        check(result.is_error, f"{name} {short(arguments, 300)}: expected isError, got {short(text)}")
        check(says in text, f"{name}: the error does not say `{says}`: {text}")
        return text


def text_of(result, name):
    check(result.content, f"{name}: no content")
    first = result.content[0]
    check(isinstance(first, types.TextContent), f"{name}: content[0] is not text: {first!r}")
    return first.text


def parameters(cwd, **kwargs):
    return StdioServerParameters(
        command=ARGS.agentc,
        args=["mcp"],
        cwd=str(cwd),
        env={"NO_COLOR": "1"},
        **kwargs,
    )


# ---------------------------------------------------------------------
# The session with no roots declared: the working folder is the root.
# ---------------------------------------------------------------------


async def listing(s, summary):
    session = s.session
    with anyio.fail_after(s.timeout):
        init = await session.initialize()
    info = init.server_info
    cargo = (Path.cwd() / "Cargo.toml").read_text()
    crate = next(line.split('"')[1] for line in cargo.splitlines() if line.startswith("version"))
    check(info.name == "agentc", f"serverInfo.name is {info.name!r}")
    check(info.version == crate, f"serverInfo.version is {info.version!r}, the crate's is {crate}")
    caps = init.capabilities
    check(caps.tools is not None and caps.resources is not None and caps.prompts is not None,
          f"capabilities lack tools, resources or prompts: {caps!r}")
    summary.append(f"initialize: {info.name} {info.version}, protocol {init.protocol_version}")

    with anyio.fail_after(s.timeout):
        tools = (await session.list_tools()).tools
    names = [tool.name for tool in tools]
    check(names == TOOLS, f"tools/list gives {names}, expected {TOOLS}")
    for tool in tools:
        for kind, schema in (("inputSchema", tool.input_schema), ("outputSchema", tool.output_schema)):
            check(isinstance(schema, dict) and schema.get("type") == "object",
                  f"{tool.name}: {kind} is not an object schema: {schema!r}")
        check(tool.description, f"{tool.name}: no description")
    summary.append(f"tools/list: {', '.join(names)}, each with inputSchema and outputSchema")

    with anyio.fail_after(s.timeout):
        prompts = (await session.list_prompts()).prompts
    check([p.name for p in prompts] == ["new-tool"], f"prompts/list gives {prompts!r}")
    arguments = {a.name: a.required for a in prompts[0].arguments or []}
    check(arguments == {"name": True, "purpose": False}, f"new-tool's arguments are {arguments}")
    with anyio.fail_after(s.timeout):
        got = await session.get_prompt("new-tool", {"name": "refund-order", "purpose": "Refunding"})
    check(len(got.messages) == 1 and isinstance(got.messages[0].content, types.TextContent),
          f"new-tool gives {got!r}")
    text = got.messages[0].content.text
    check("`refund-order`" in text and "Refunding" in text, f"new-tool's text: {short(text)}")
    summary.append("prompts/list, prompts/get new-tool: one user message naming the tool")
    return tools


async def output_validation_is_on(s, summary):
    """The SDK checks structuredContent against the outputSchema it was
    given: a `check` result without `summary` (which the schema requires)
    is refused by the very method `call_tool` runs on each result."""
    good = await s.call("check", {"path": CLEAN})
    for broken in ({k: v for k, v in good.items() if k != "summary"},
                   {**good, "version": "1"}):
        result = types.CallToolResult(
            content=[types.TextContent(type="text", text=json.dumps(broken))],
            structured_content=broken,
        )
        try:
            await s.session.validate_tool_result("check", result)
        except RuntimeError as error:
            check("Invalid structured content" in str(error), f"unexpected refusal: {error}")
        else:
            raise Failure("the SDK accepted a `check` result that breaks its outputSchema: "
                          "output validation is off")
    result = types.CallToolResult(content=[], structured_content=good)
    await s.session.validate_tool_result("check", result)
    summary.append("outputSchema validation on: the SDK refuses a `check` result without "
                   "`summary` or with a string `version`, and takes the real one")


async def tools(s, cli, summary):
    # check
    got = await s.call("check", {"path": CLEAN})
    same(got, cli.json("check", "--format", "json", CLEAN), "check (clean)")
    check(got["summary"]["errors"] == 0, f"{CLEAN} has errors: {short(got)}")
    got = await s.call("check", {"path": BROKEN})
    same(got, cli.json("check", "--format", "json", BROKEN), "check (broken)")
    check(got["summary"]["errors"] > 0, "the broken protocol has no error")
    draft = Path(BROKEN).read_text()
    got_text = await s.call("check", {"text": draft})
    check([d["code"] for d in got_text["diagnostics"]] == [d["code"] for d in got["diagnostics"]],
          "check of the broken protocol's text gives other codes than of its path")
    check({d["file"] for d in got_text["diagnostics"]} == {"protocol.yaml"},
          "a text's diagnostics are not named protocol.yaml")
    summary.append(f"check: {CLEAN} and {BROKEN} ({got['summary']['errors']} errors) "
                   "= `agentc check --format json`; the text alone gives the same codes")

    # fix
    got = await s.call("fix", {"path": CLEAN})
    check(got["applied"] == 0 and got["files"] == [] and got["written"] is False,
          f"fix of the clean protocol: {short(got)}")
    same(got["report"], cli.json("check", "--format", "json", CLEAN), "fix (clean): report")
    got = await s.call("fix", {"path": BROKEN})
    check(got["applied"] > 0 and len(got["files"]) == 1 and got["written"] is False,
          f"fix of the broken protocol: {short(got)}")
    changed = got["files"][0]
    check(changed["path"] == BROKEN, f"fix changed {changed['path']}")
    check(Path(BROKEN).read_text() == draft, f"fix without write changed {BROKEN}")
    same(changed["diff"], cli.run("check", "--diff", BROKEN, codes=(1,)), "fix (broken): diff")
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / Path(BROKEN).name
        shutil.copyfile(BROKEN, copy)
        after = cli.json("check", "--fix", "--format", "json", copy.name, cwd=folder)
        same(changed["text"], copy.read_text(), "fix (broken): the fixed text")
        for d in after["diagnostics"]:
            d["file"] = BROKEN
        same(got["report"], after, "fix (broken): what remains")
    summary.append(f"fix: nothing on the clean one; on the broken one {got['applied']} fixes, "
                   "the diff `check --diff` prints, the text and report `check --fix` leaves, "
                   "nothing written")

    # explain
    got = await s.call("explain", {"code": "unknown-type"})
    check(got["code"] == "unknown-type" and got["severity"] == "error" and got["fix"] == "safe",
          f"explain unknown-type: {short({k: v for k, v in got.items() if k != 'page'})}")
    same(got["page"], cli.run("explain", "unknown-type"), "explain unknown-type: page")
    await s.refused("explain", {"code": "unknown-typ"}, "unknown-type")
    summary.append("explain: unknown-type's page = `agentc explain unknown-type`; "
                   "`unknown-typ` is isError with a did-you-mean")

    # emit
    for target, tool in (("openai", None), ("anthropic", "get-order"), ("tools-prompt", None)):
        arguments = {"path": CLEAN, "target": target}
        flags = ["--target", target]
        if tool:
            arguments["tool"] = tool
            flags += ["--tool", tool]
        got = await s.call("emit", arguments)
        printed = cli.run("emit", *flags, CLEAN)
        want = printed if target == "tools-prompt" else json.loads(printed)
        same(got["output"], want, f"emit {' '.join(flags)}")
        check(got["target"] == target, f"emit: target {got['target']}")
    await s.refused("emit", {"path": BROKEN, "target": "openai"}, "the protocol has errors")
    summary.append("emit: openai, anthropic --tool get-order, tools-prompt = `agentc emit`; "
                   "the broken protocol is isError")

    # validate
    with tempfile.TemporaryDirectory() as folder:
        for label, data in (("valid", {"orderId": "A-1"}), ("invalid", {"orderId": 7, "x": 1})):
            path = Path(folder) / f"{label}.json"
            path.write_text(json.dumps(data))
            got = await s.call("validate", {"path": CLEAN, "tool": "get-order",
                                            "data": json.dumps(data), "name": str(path)})
            want = cli.json("validate", "--format", "json", "--tool", "get-order", CLEAN, str(path))
            same(got, want, f"validate ({label} data)")
            errors = got["summary"]["errors"]
            check((errors == 0) == (label == "valid"), f"validate ({label}): {errors} errors")
    await s.refused("validate", {"path": BROKEN, "tool": "add-to-cart", "data": "{}"},
                    "the protocol has errors")
    summary.append("validate: get-order's arguments, valid and not = `agentc validate --format "
                   "json`; against the broken protocol isError")

    # diff
    old = Path(CLEAN, "protocol.yaml").read_text()
    new = "\n".join(line for line in old.splitlines() if "orderId" not in line) + "\n"
    with tempfile.TemporaryDirectory() as folder:
        for side, text in (("old", old), ("new", new)):
            Path(folder, side).mkdir()
            Path(folder, side, "protocol.yaml").write_text(text)

        def cli_diff(new_side):
            doc = cli.json("diff", "--format", "json", "old/protocol.yaml",
                           f"{new_side}/protocol.yaml", cwd=folder)
            for d in doc["diagnostics"]:
                d["file"] = "protocol.yaml"
                if "base" in d:
                    # The server names the old text so (both are protocol.yaml).
                    d["base"]["file"] = "protocol.yaml (old)"
            return doc

        got = await s.call("diff", {"old": old, "new": old})
        Path(folder, "same").mkdir()
        Path(folder, "same", "protocol.yaml").write_text(old)
        same(got, cli_diff("same"), "diff (no change)")
        check(got["diagnostics"] == [], f"diff of a text with itself: {short(got)}")
        got = await s.call("diff", {"old": old, "new": new})
        same(got, cli_diff("new"), "diff (orderId removed)")
        check(got["diagnostics"], "removing orderId is no change")
        changes = len(got["diagnostics"])
        Path(folder, "broken").mkdir()
        Path(folder, "broken", "protocol.yaml").write_text(draft)
        got = await s.call("diff", {"old": old, "new": draft})
        same(got, cli_diff("broken"), "diff (a broken new version)")
        check(got["summary"]["errors"] > 0, "a broken new version has no error")
    summary.append(f"diff: a text with itself (nothing), without orderId ({changes} changes), "
                   f"and a broken new text (its {got['summary']['errors']} errors) "
                   "= `agentc diff --format json`")

    # gen
    for lang in ("ts", "zod", "python"):
        got = await s.call("gen", {"path": CLEAN, "lang": lang})
        printed = cli.run("gen", "--lang", lang, "--stdout", CLEAN)
        check(got["files"], f"gen {lang}: no file")
        same("".join(f["text"] for f in got["files"]), printed, f"gen --lang {lang}")
    await s.refused("gen", {"path": BROKEN, "lang": "ts"}, "the protocol has errors")
    summary.append("gen: ts, zod, python = `agentc gen --lang L --stdout`; the broken protocol "
                   "is isError")

    # schema
    got = await s.call("schema", {})
    same(got["schema"], json.loads(cli.run("schema")), "schema")
    await s.refused("schema", {"path": CLEAN}, "unknown argument `path`")
    summary.append("schema: = `agentc schema`; an argument it does not take is isError")

    # Paths outside the working folder, the root when none is declared.
    await s.refused("check", {"path": "/etc/passwd"}, "outside the roots")
    await s.refused("check", {"path": "../"}, "outside the roots")
    summary.append("no roots declared: /etc/passwd and ../ are isError (outside the roots)")


async def resources(s, cli, summary):
    with anyio.fail_after(s.timeout):
        listed = (await s.session.list_resources()).resources
    uris = [r.uri for r in listed]
    check(len(uris) == len(set(uris)), "resources/list repeats an address")
    codes = []
    for resource in listed:
        uri = str(resource.uri)
        with anyio.fail_after(s.timeout):
            read = await s.session.read_resource(uri)
        check(len(read.contents) == 1, f"{uri}: {len(read.contents)} contents")
        content = read.contents[0]
        check(isinstance(content, types.TextResourceContents), f"{uri}: not text: {content!r}")
        check(str(content.uri) == uri, f"{uri}: read as {content.uri}")
        check(content.mime_type == resource.mime_type,
              f"{uri}: listed as {resource.mime_type}, read as {content.mime_type}")
        text = content.text
        check(text.strip(), f"{uri} is empty")
        if uri == "agentc://schema":
            same(json.loads(text), json.loads(cli.run("schema")), uri)
        elif uri.startswith("agentc://codes/"):
            code = uri.removeprefix("agentc://codes/")
            same(text, cli.run("explain", code), uri)
            codes.append(code)
    check(codes, "resources/list gives no code page")
    with anyio.fail_after(s.timeout):
        catalogue = (await s.session.read_resource("agentc://codes")).contents[0].text
    missing = [code for code in codes if f"`{code}`" not in catalogue]
    check(not missing, f"agentc://codes does not name {missing}")
    others = sorted(u for u in map(str, uris) if not u.startswith("agentc://codes/"))
    summary.append(f"resources: read all {len(uris)}: {', '.join(others)} and {len(codes)} code "
                   "pages (each = `agentc explain CODE`; the schema = `agentc schema`; the "
                   "catalogue names every code)")


async def without_roots(cli, summary):
    async with stdio_client(parameters(Path.cwd())) as (read, write):
        async with ClientSession(read, write) as session:
            s = Session(session, ARGS.timeout)
            await listing(s, summary)
            await output_validation_is_on(s, summary)
            await tools(s, cli, summary)
            await resources(s, cli, summary)
            summary.append(f"{s.calls} tool calls in the first session")


# ---------------------------------------------------------------------
# The session whose client declares its roots.
# ---------------------------------------------------------------------


async def with_roots(summary):
    with tempfile.TemporaryDirectory() as inside, tempfile.TemporaryDirectory() as other:
        inside, other = Path(inside).resolve(), Path(other).resolve()
        shutil.copytree(CLEAN, inside / "shop-assistant")
        shutil.copyfile(BROKEN, inside / "broken.yaml")
        shutil.copyfile(BROKEN, other / "broken.yaml")
        declared = [inside]
        asked = []

        async def list_roots(context):
            asked.append(list(declared))
            return types.ListRootsResult(
                roots=[types.Root(uri=folder.as_uri(), name=folder.name) for folder in declared]
            )

        # The server's working folder is the repository, outside the root.
        async with stdio_client(parameters(Path.cwd())) as (read, write):
            async with ClientSession(read, write, list_roots_callback=list_roots) as session:
                s = Session(session, ARGS.timeout)
                with anyio.fail_after(s.timeout):
                    await session.initialize()
                    await session.list_tools()
                await s.refused("check", {"path": CLEAN}, "outside the roots")
                await s.refused("check", {"path": str(Path.cwd() / CLEAN)}, "outside the roots")
                await s.refused("fix", {"path": str(other / "broken.yaml"), "write": True},
                                "outside the roots")
                check(asked, "the server never asked for the roots")
                got = await s.call("check", {"path": str(inside / "shop-assistant")})
                check(got["summary"]["errors"] == 0 and got["summary"]["files"] > 1,
                      f"check inside the root: {short(got)}")
                before = (inside / "broken.yaml").read_text()
                got = await s.call("fix", {"path": str(inside / "broken.yaml"), "write": True})
                check(got["written"] is True and got["applied"] > 0, f"fix write: {short(got)}")
                written = (inside / "broken.yaml").read_text()
                check(written != before and written == got["files"][0]["text"],
                      "fix with write did not write its text")
                check((other / "broken.yaml").read_text() == before, "the other folder changed")
                summary.append(
                    "roots [tmp]: the repository's protocol (relative and absolute) and a fix "
                    "with write outside are isError; check inside is a result; fix with write "
                    "wrote its text inside"
                )

                # The client's roots change: the server asks again.
                declared[:] = [other]
                asked_before = len(asked)
                await session.send_roots_list_changed()
                got = await s.call("check", {"path": str(other / "broken.yaml")})
                check(got["summary"]["errors"] > 0, f"check in the new root: {short(got)}")
                check(len(asked) > asked_before, "the server did not ask for the roots again")
                await s.refused("check", {"path": str(inside / "shop-assistant")},
                                "outside the roots")
                summary.append("roots/list_changed to [other tmp]: the server asks again; the "
                               "new root is read, the old one is isError")

                # No root at all: nothing is read.
                declared[:] = []
                await session.send_roots_list_changed()
                await s.refused("check", {"path": str(other / "broken.yaml")},
                                "declared no folder")
                summary.append("roots [] : every path is isError")


async def main():
    cli = Cli(ARGS.agentc)
    summary = []
    await without_roots(cli, summary)
    await with_roots(summary)
    return summary


def reasons(failure):
    """What went wrong, out of the exception groups anyio wraps it in."""
    if isinstance(failure, BaseExceptionGroup):
        return [reason for inner in failure.exceptions for reason in reasons(inner)]
    if isinstance(failure, Failure):
        return [str(failure)]
    return [f"{type(failure).__name__}: {failure}"]


def run():
    global ARGS
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("agentc", help="the agentc binary")
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="seconds to wait for each answer")
    ARGS = parser.parse_args()
    ARGS.agentc = str(Path(ARGS.agentc).resolve())
    try:
        summary = anyio.run(main)
    except Exception as failure:  # a Failure, or an error the SDK raised
        print(f"FAIL: {'; '.join(reasons(failure))}", file=sys.stderr)
        return 1
    print(f"agentc mcp under the MCP Python SDK's client (mcp {version('mcp')}) OK")
    for line in summary:
        print(f"  {line}")
    return 0


ARGS = None

# mcp 2.x marks roots deprecated as of the 2026-07-28 revision (SEP-2577);
# the handshake revisions this client and agentc speak (2025-11-25) have them.
warnings.filterwarnings("ignore", message="The roots capability is deprecated")

if __name__ == "__main__":
    sys.exit(run())
