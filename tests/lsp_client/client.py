"""Drives `agentc lsp` with pygls' language client, a client agentc's
authors did not write (tests/lsp_client.rs runs it; see requirements.txt).

    python client.py AGENTC PROTOCOL [--type NAME] [--timeout SECONDS]

Starts `AGENTC lsp` over stdio, initializes it as an editor would, opens
PROTOCOL (read from disk, under its real file:// URI) and checks:

- the diagnostics published for it are exactly those `AGENTC check --format
  json PROTOCOL` reports (code, severity, first line of the message, range),
  converted independently from the CLI's 1-based lines and Unicode-scalar
  columns (end exclusive) to LSP's 0-based UTF-16 positions;
- a hover on the first use of the type NAME (default `Address`) in a
  `type:` value names the type, shows its declaration and a ```json block
  whose schema has the properties the declaration lists;
- go to definition from that use lands on the declaration's line;

then sends `shutdown` and `exit` and expects the server to exit with 0.
Exits 0 with a summary on success; 1 with the reason and the messages
exchanged on a failed check; 2 on bad arguments.
"""

import argparse
import asyncio
import json
import logging
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import BaseLanguageClient


class Failure(Exception):
    """A check that did not hold."""


def check(condition, message):
    if not condition:
        raise Failure(message)


# ---------------------------------------------------------------------
# The transcript: every message pygls sends and receives, for a failure.
# ---------------------------------------------------------------------


class Transcript(logging.Handler):
    """Keeps the JSON-RPC traffic pygls logs (sent at INFO, received at DEBUG)."""

    def __init__(self):
        super().__init__(level=logging.DEBUG)
        self.lines = []
        self.problems = []

    def emit(self, record):
        if record.msg == "Sending data: %s":
            self.lines.append("--> " + str(record.args[0]))
        elif record.msg == "Received %r":
            body = record.args[0].split(b"\r\n\r\n", 1)[-1]  # without headers
            self.lines.append("<-- " + body.decode("utf-8", "replace"))
        elif record.levelno >= logging.WARNING:
            # Unknown ids, undecodable messages, ignored notifications.
            self.problems.append(record.getMessage())

    def dump(self, limit=2000):
        out = []
        for line in self.lines:
            out.append(line if len(line) <= limit else line[:limit] + " [...]")
        return "\n".join(out) or "(none)"


# ---------------------------------------------------------------------
# The client.
# ---------------------------------------------------------------------


class Client(BaseLanguageClient):
    def __init__(self):
        super().__init__("agentc-lsp-client-test", "1")
        self.diagnostics = {}  # uri -> every list published for it, in order
        self.published = asyncio.Event()
        self.exited = asyncio.Event()
        self.returncode = None
        self.stderr = b""
        self.server_errors = []

        @self.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: types.PublishDiagnosticsParams):
            self.diagnostics.setdefault(params.uri, []).append(params.diagnostics)
            self.published.set()

        @self.feature(types.WINDOW_LOG_MESSAGE)
        def on_log(params: types.LogMessageParams):
            self.server_errors.append(f"window/logMessage: {params.message}")

    async def server_exit(self, server):
        self.returncode = server.returncode
        if server.stderr is not None:
            self.stderr = await server.stderr.read()
        self.exited.set()

    def report_server_error(self, error, source):
        self.server_errors.append(f"{type(error).__name__}: {error}")


def capabilities():
    """What a real editor's client says it can do, UTF-16 positions only."""
    return types.ClientCapabilities(
        general=types.GeneralClientCapabilities(
            position_encodings=[types.PositionEncodingKind.Utf16],
        ),
        workspace=types.WorkspaceClientCapabilities(
            apply_edit=True,
            workspace_edit=types.WorkspaceEditClientCapabilities(document_changes=True),
            configuration=False,
            workspace_folders=False,
        ),
        text_document=types.TextDocumentClientCapabilities(
            synchronization=types.TextDocumentSyncClientCapabilities(
                dynamic_registration=False,
                will_save=False,
                will_save_wait_until=False,
                did_save=True,
            ),
            hover=types.HoverClientCapabilities(
                content_format=[types.MarkupKind.Markdown, types.MarkupKind.PlainText],
            ),
            definition=types.DefinitionClientCapabilities(link_support=False),
            references=types.ReferenceClientCapabilities(),
            rename=types.RenameClientCapabilities(prepare_support=True),
            completion=types.CompletionClientCapabilities(
                completion_item=types.CompletionClientCapabilitiesCompletionItemType(
                    snippet_support=False,
                    documentation_format=[types.MarkupKind.Markdown],
                ),
            ),
            code_action=types.CodeActionClientCapabilities(
                code_action_literal_support=types.CodeActionClientCapabilitiesCodeActionLiteralSupportType(
                    code_action_kind=types.CodeActionClientCapabilitiesCodeActionLiteralSupportTypeCodeActionKindType(
                        value_set=[types.CodeActionKind.QuickFix],
                    ),
                ),
            ),
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(
                related_information=True,
                version_support=True,
                code_description_support=True,
                data_support=True,
            ),
        ),
        window=types.WindowClientCapabilities(work_done_progress=False),
    )


# ---------------------------------------------------------------------
# What to expect, computed without the server.
# ---------------------------------------------------------------------


def lsp_position(lines, line, column):
    """LSP (0-based line, UTF-16 character) of a 1-based line and 1-based
    column counted in Unicode scalar values, as `agentc check` gives them."""
    index = line - 1
    if index >= len(lines):
        return (index, 0)
    before = lines[index][: column - 1]
    return (index, len(before.encode("utf-16-le")) // 2)


def expected_diagnostics(agentc, path, lines):
    run = subprocess.run(
        [agentc, "check", "--format", "json", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    try:
        report = json.loads(run.stdout)
    except json.JSONDecodeError:
        raise Failure(
            f"`agentc check --format json` printed no JSON (exit {run.returncode}):\n"
            f"{run.stdout}{run.stderr}"
        )
    severities = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning}
    expected = []
    for d in report["diagnostics"]:
        start = lsp_position(lines, d["line"], d["column"])
        end = lsp_position(lines, d["endLine"], d["endColumn"])
        expected.append((d["code"], int(severities[d["severity"]]), start, end, d["message"]))
    return sorted(expected)


def published_key(d):
    severity = int(d.severity) if d.severity is not None else None
    start = (d.range.start.line, d.range.start.character)
    end = (d.range.end.line, d.range.end.character)
    return (d.code, severity, start, end, d.message.split("\n", 1)[0])


def use_of(lines, name):
    """(line, character) of the first `type: NAME` value."""
    pattern = re.compile(r"\btype:\s*(" + re.escape(name) + r")\b")
    for index, line in enumerate(lines):
        match = pattern.search(line)
        if match:
            return (index, len(line[: match.start(1)].encode("utf-16-le")) // 2)
    raise Failure(f"no `type: {name}` in the protocol to hover over")


def declaration_of(lines, name):
    """(line, character, property names) of `NAME:` under `types:`."""
    in_types = False
    for index, line in enumerate(lines):
        if re.match(r"^\S", line):
            in_types = line.startswith("types:")
            continue
        match = re.match(r"^( +)" + re.escape(name) + r":\s*$", line)
        if in_types and match:
            indent = len(match.group(1))
            properties = []
            for body in lines[index + 1 :]:
                if body.strip() and len(body) - len(body.lstrip(" ")) <= indent:
                    break
                key = re.match(r"^ {" + str(indent + 2) + r"}([A-Za-z_][A-Za-z0-9_]*):", body)
                if key:
                    properties.append(key.group(1))
            return (index, indent, properties)
    raise Failure(f"no declaration of type `{name}` under `types:`")


def json_block(markdown):
    match = re.search(r"```json\n(.*?)```", markdown, re.S)
    check(match, f"hover has no ```json block:\n{markdown}")
    try:
        return json.loads(match.group(1))
    except json.JSONDecodeError as error:
        raise Failure(f"the hover's ```json block is not JSON ({error}):\n{match.group(1)}")


def property_names(schema, name):
    """The properties of the schema the hover shows for type NAME: its own,
    or those of the `$defs` entry it refers to."""
    if isinstance(schema, dict) and "properties" in schema:
        return set(schema["properties"])
    defs = schema.get("$defs", {}) if isinstance(schema, dict) else {}
    if name in defs and "properties" in defs[name]:
        return set(defs[name]["properties"])
    return set()


# ---------------------------------------------------------------------
# The session.
# ---------------------------------------------------------------------


async def session(args, client, summary):
    path = Path(args.protocol).resolve()
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    uri = path.as_uri()
    expected = expected_diagnostics(args.agentc, path, lines)
    use = use_of(lines, args.type)
    declaration = declaration_of(lines, args.type)
    timeout = args.timeout

    async def within(awaitable, what):
        try:
            return await asyncio.wait_for(awaitable, timeout)
        except asyncio.TimeoutError:
            raise Failure(f"no {what} within {timeout:g} s")

    await client.start_io(args.agentc, "lsp")

    result = await within(
        client.initialize_async(
            types.InitializeParams(
                process_id=None,
                root_uri=path.parent.as_uri(),
                capabilities=capabilities(),
                client_info=types.InitializeParamsClientInfoType(name="pygls", version=version("pygls")),
            )
        ),
        "answer to `initialize`",
    )
    caps = result.capabilities
    check(
        result.server_info is not None and result.server_info.name == "agentc",
        f"serverInfo is {result.server_info!r}, not agentc",
    )
    check(
        caps.position_encoding in (None, types.PositionEncodingKind.Utf16),
        f"the server chose position encoding {caps.position_encoding!r}, not the utf-16 offered",
    )
    check(caps.hover_provider, "the server does not offer hover")
    check(caps.definition_provider, "the server does not offer go to definition")
    check(caps.text_document_sync is not None, "the server does not offer text sync")
    client.initialized(types.InitializedParams())
    summary.append(
        f"initialize: server {result.server_info.name} {result.server_info.version}, "
        f"positionEncoding {caps.position_encoding}"
    )

    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)
        )
    )
    await within(client.published.wait(), "textDocument/publishDiagnostics")
    check(
        set(client.diagnostics) == {uri},
        f"diagnostics published for {sorted(client.diagnostics)}, expected only {uri}",
    )
    check(expected, "`agentc check` reports nothing for the protocol: the test wants an error")
    published = client.diagnostics[uri][0]
    actual = sorted(published_key(d) for d in published)
    for d in published:
        check(d.source == "agentc", f"diagnostic source is {d.source!r}, not agentc")
    check(
        actual == expected,
        "published diagnostics differ from `agentc check --format json`:\n"
        f"  expected {expected}\n  published {actual}",
    )
    summary.append(
        f"publishDiagnostics: {len(actual)} diagnostic(s), as `agentc check` reports: "
        + "; ".join(f"{code} at {s[0]}:{s[1]}-{e[0]}:{e[1]}" for code, _, s, e, _ in actual)
    )

    position = types.Position(line=use[0], character=use[1] + 1)
    where = types.TextDocumentIdentifier(uri=uri)
    hover = await within(
        client.text_document_hover_async(types.HoverParams(text_document=where, position=position)),
        "answer to textDocument/hover",
    )
    check(hover is not None, f"no hover at {use[0]}:{use[1] + 1} (`{args.type}`)")
    contents = hover.contents
    check(
        isinstance(contents, types.MarkupContent) and contents.kind == types.MarkupKind.Markdown,
        f"hover contents are not Markdown: {contents!r}",
    )
    markdown = contents.value
    check(f"`{args.type}`" in markdown, f"hover does not name the type `{args.type}`:\n{markdown}")
    check(
        f"{args.type}:" in markdown.split("```json")[0],
        f"hover does not show the declaration of `{args.type}`:\n{markdown}",
    )
    schema = json_block(markdown)
    want = set(declaration[2])
    got = property_names(schema, args.type)
    check(
        want and got == want,
        f"the hover's schema has properties {sorted(got)}, the declaration {sorted(want)}",
    )
    if hover.range is not None:
        span = (
            (hover.range.start.line, hover.range.start.character),
            (hover.range.end.line, hover.range.end.character),
        )
        wanted = ((use[0], use[1]), (use[0], use[1] + len(args.type)))
        check(span == wanted, f"hover range is {span}, expected {wanted}")
    summary.append(
        f"hover at {use[0]}:{use[1] + 1}: Markdown naming `{args.type}` with a ```json schema "
        f"of properties {sorted(got)}"
    )

    found = await within(
        client.text_document_definition_async(
            types.DefinitionParams(text_document=where, position=position)
        ),
        "answer to textDocument/definition",
    )
    check(found, f"no definition for `{args.type}` at {use[0]}:{use[1] + 1}")
    if isinstance(found, types.Location):
        found = [found]
    check(len(found) == 1, f"expected one definition, got {found!r}")
    location = found[0]
    check(isinstance(location, types.Location), f"definition is not a Location: {location!r}")
    check(location.uri == uri, f"definition is in {location.uri}, not {uri}")
    start = (location.range.start.line, location.range.start.character)
    end = (location.range.end.line, location.range.end.character)
    line, character, _ = declaration
    check(
        start[0] == line,
        f"definition points at line {start[0]}, the declaration is on line {line}",
    )
    check(
        (start, end) == ((line, character), (line, character + len(args.type))),
        f"definition range is {start}-{end}, expected the name at {line}:{character}",
    )
    summary.append(f"definition: {args.type} declared at {line}:{character} (0-based)")

    await within(client.shutdown_async(None), "answer to `shutdown`")
    client.exit(None)
    await within(client.exited.wait(), "server exit after `exit`")
    check(client.returncode == 0, f"the server exited with {client.returncode} after `exit`")
    check(not client.server_errors, "the server reported: " + "; ".join(client.server_errors))
    summary.append("shutdown + exit: server exited with 0")


async def main(args):
    client = Client()
    summary = []
    try:
        await session(args, client, summary)
    finally:
        await asyncio.wait_for(client.stop(), 10)
    return summary


def run():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("agentc", help="the agentc binary")
    parser.add_argument("protocol", help="the protocol file to open")
    parser.add_argument("--type", default="Address", help="the type to hover and go to (default Address)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for each answer")
    args = parser.parse_args()

    transcript = Transcript()
    logging.getLogger("pygls").addHandler(transcript)
    logging.getLogger("pygls").setLevel(logging.DEBUG)

    try:
        summary = asyncio.run(main(args))
    except Exception as failure:  # a Failure, or an error pygls raised
        reason = failure if isinstance(failure, Failure) else f"{type(failure).__name__}: {failure}"
        print(f"FAIL: {reason}", file=sys.stderr)
        if transcript.problems:
            print("\npygls warnings:\n  " + "\n  ".join(transcript.problems), file=sys.stderr)
        print("\nmessages exchanged:\n" + transcript.dump(), file=sys.stderr)
        return 1
    print(f"agentc lsp under pygls' client: {Path(args.protocol).name} OK")
    for line in summary:
        print(f"  {line}")
    if transcript.problems:
        print("  pygls warnings: " + "; ".join(transcript.problems))
    return 0


if __name__ == "__main__":
    sys.exit(run())
