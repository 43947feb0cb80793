#!/usr/bin/env python3
"""Provider-conformance driver for agentc.

Runs agentc over every protocol and checks each target's output with the
consumers' own code: openai-python, anthropic-sdk-python, google-genai and
ag-ui-protocol here, Ajv and @ag-ui/core (zod) in check.mjs. Prints one line
per check:

    ok   <check> <file> <item>
    FAIL <check> <file> <item>: <reason>
    skip <check> <file> <item>: <reason>

(a failing check may add indented detail lines after its line), then
`conformance: N passed, N failed, N skipped`, and exits 1 on any failure.
See README.md beside this file.
"""

from __future__ import annotations

import argparse
import copy
import difflib
import json
import os
import re
import subprocess
import sys
import tempfile
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pydantic

HERE = Path(__file__).resolve().parent
AGENT_VERSION = "1.0.0"
JSON_SCHEMA_2020 = "https://json-schema.org/draft/2020-12/schema"
# Function / response-format names, as openai-python's FunctionDefinition.name
# and JSONSchema.name docstrings state them.
OPENAI_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


# --------------------------------------------------------------------------
# Reporting


class Report:
    def __init__(self) -> None:
        self.counts = {"ok": 0, "FAIL": 0, "skip": 0}

    def line(self, status: str, check: str, file: str, item: str, reason: str | None = None) -> None:
        self.counts[status] += 1
        label = {"ok": "ok  ", "FAIL": "FAIL", "skip": "skip"}[status]
        text = f"{label} {check} {file} {item}"
        if reason:
            first, *rest = reason.rstrip("\n").split("\n")
            text += f": {first}"
            text += "".join(f"\n    | {r}" for r in rest[:40])
            if len(rest) > 40:
                text += f"\n    | ... ({len(rest) - 40} more lines)"
        print(text, flush=True)

    def ok(self, check: str, file: str, item: str) -> None:
        self.line("ok", check, file, item)

    def fail(self, check: str, file: str, item: str, reason: str) -> None:
        self.line("FAIL", check, file, item, reason)

    def skip(self, check: str, file: str, item: str, reason: str) -> None:
        self.line("skip", check, file, item, reason)

    def run(self, check: str, file: str, item: str, fn: Callable[[], list[str] | None]) -> bool:
        """Run one check; fn returns a list of problems (empty/None: ok)."""
        try:
            problems = fn()
        except Exception as e:  # a raise from the SDK is the check failing
            problems = [f"{type(e).__name__}: {short(str(e), 1200)}"]
        if problems:
            self.fail(check, file, item, "\n".join(problems))
            return False
        self.ok(check, file, item)
        return True


def short(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


# --------------------------------------------------------------------------
# Comparing JSON values


def json_diff(expected: Any, actual: Any, ordered: Callable[[tuple[str, ...]], bool], limit: int = 8) -> list[str]:
    """Differences between two JSON values as `at /path: ...` lines.

    `ordered(path)` says whether the key order of the object at `path` counts.
    """
    out: list[str] = []

    def ptr(path: tuple[str, ...]) -> str:
        return "/" + "/".join(p.replace("~", "~0").replace("/", "~1") for p in path)

    def walk(a: Any, b: Any, path: tuple[str, ...]) -> None:
        if len(out) >= limit:
            return
        if isinstance(a, dict) and isinstance(b, dict):
            for k in a:
                if k not in b:
                    out.append(f"at {ptr(path)}: key {k!r} removed (was {short(dumps(a[k]), 160)})")
            for k in b:
                if k not in a:
                    out.append(f"at {ptr(path)}: key {k!r} added: {short(dumps(b[k]), 160)}")
            for k in a:
                if k in b:
                    walk(a[k], b[k], path + (k,))
            if set(a) == set(b) and list(a) != list(b) and ordered(path) and len(out) < limit:
                out.append(f"at {ptr(path)}: key order changed: {list(a)} -> {list(b)}")
        elif isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                out.append(f"at {ptr(path)}: {short(dumps(a), 160)} -> {short(dumps(b), 160)}")
                return
            for i, (x, y) in enumerate(zip(a, b)):
                walk(x, y, path + (str(i),))
        elif type(a) is not type(b) or a != b:
            out.append(f"at {ptr(path)}: {short(dumps(a), 160)} -> {short(dumps(b), 160)}")

    walk(expected, actual, ())
    return out


def all_ordered(_path: tuple[str, ...]) -> bool:
    return True


def name_maps_ordered(path: tuple[str, ...]) -> bool:
    """Only the order of named members counts: `properties` and `$defs`."""
    return bool(path) and path[-1] in ("properties", "$defs", "definitions")


def fixpoint(transform: Callable[[Any], Any], schema: Any, ordered: Callable[[tuple[str, ...]], bool]) -> list[str]:
    """Problems if transform(deep copy of schema) is not schema itself."""
    result = transform(copy.deepcopy(schema))
    diff = json_diff(schema, result, ordered)
    if result != schema:
        return ["the SDK transform changes the schema:"] + diff
    if ordered is all_ordered and json.dumps(result) != json.dumps(schema):
        return ["the SDK transform changes key order:"] + diff
    if diff:
        return ["the SDK transform changes the order of names:"] + diff
    return []


SCHEMA_KEYS = {"parameters", "schema", "input_schema", "parametersJsonSchema", "responseJsonSchema"}


def inside_schema(path: tuple[str, ...]) -> bool:
    """In an SDK round trip only the order of property and definition names
    inside a schema counts: the SDKs write their own envelope fields in
    declaration order, and a TypedDict such as anthropic's InputSchemaTyped
    moves its declared keywords (type, properties, required) first."""
    return any(p in SCHEMA_KEYS for p in path) and name_maps_ordered(path)


def round_trip(label: str, original: Any, dumped: Any) -> list[str]:
    diff = json_diff(original, dumped, inside_schema)
    return [f"{label} does not round-trip:"] + diff if diff else []


def pydantic_extras(model: Any, path: str = "") -> list[str]:
    """Fields a pydantic model (extra='allow') kept but does not declare, at any depth."""
    found: list[str] = []
    if isinstance(model, pydantic.BaseModel):
        for k in (model.model_extra or {}):
            found.append(f"{path}/{k}")
        for name in type(model).model_fields:
            found += pydantic_extras(getattr(model, name, None), f"{path}/{name}")
    elif isinstance(model, (list, tuple)):
        for i, x in enumerate(model):
            found += pydantic_extras(x, f"{path}/{i}")
    return found


def typed_dict_round_trip(adapter: pydantic.TypeAdapter, label: str, value: Any) -> list[str]:
    """A TypedDict adapter drops keys it does not know: compare its output."""
    return round_trip(label, value, adapter.validate_python(value))


# --------------------------------------------------------------------------
# Running agentc


@dataclass
class Run:
    args: tuple[str, ...]
    code: int
    out: str
    err: str

    def summary(self) -> str:
        """agentc's stderr, down to one line: its `error:` line if it has one."""
        lines = [ln.strip() for ln in self.err.splitlines() if ln.strip()]
        for ln in lines:
            if ln.startswith("error"):
                return short(ln)
        for ln in lines:
            if ln.startswith("×"):
                return short(ln)
        return short(lines[0]) if lines else "(no stderr)"

    def reason(self) -> str:
        return f"agentc exit {self.code}: {self.summary()}"


class Agentc:
    def __init__(self, binary: str, cwd: Path, jobs: int) -> None:
        self.binary = binary
        self.cwd = cwd
        self.pool = ThreadPoolExecutor(max_workers=jobs)
        self.futures: dict[tuple[str, ...], Any] = {}

    def _call(self, args: tuple[str, ...]) -> Run:
        try:
            p = subprocess.run(
                [self.binary, *args],
                cwd=self.cwd,
                capture_output=True,
                timeout=120,
                stdin=subprocess.DEVNULL,
            )
        except subprocess.TimeoutExpired:
            return Run(args, -1, "", "error: timed out after 120 s")
        return Run(args, p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"))

    def prefetch(self, *calls: tuple[str, ...]) -> None:
        for args in calls:
            if args not in self.futures:
                self.futures[args] = self.pool.submit(self._call, args)

    def __call__(self, *args: str) -> Run:
        self.prefetch(args)
        return self.futures[args].result()


class DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise DuplicateKey(f"duplicate key {k!r}")
        out[k] = v
    return out


def load(run: Run) -> Any:
    return json.loads(run.out, object_pairs_hook=_no_duplicates)


class Emits:
    """One agentc selection: exit 1/2 is a skip line, a crash or bad JSON a FAIL."""

    def __init__(self, report: Report, agentc: Agentc, file_arg: str, disp: str) -> None:
        self.report, self.agentc, self.file_arg, self.disp = report, agentc, file_arg, disp

    def args(self, *extra: str) -> tuple[str, ...]:
        return ("emit", self.file_arg, *extra)

    def get(self, check: str, item: str, *extra: str, text: bool = False) -> Any:
        """The parsed output, or None after printing a skip/FAIL line."""
        run = self.agentc(*self.args(*extra))
        if run.code in (1, 2):
            self.report.skip(check, self.disp, item, run.reason())
            return None
        if run.code != 0:
            self.report.fail(check, self.disp, item, f"agentc {' '.join(extra) or 'emit'} crashed: {run.reason()}")
            return None
        if text:
            return run.out
        try:
            return load(run)
        except ValueError as e:
            self.report.fail(check, self.disp, item, f"stdout is not JSON ({e}): {short(run.out, 200)!r}")
            return None


# --------------------------------------------------------------------------
# SDK checks. Each returns a list of problems.


class Sdk:
    def __init__(self) -> None:
        from openai.lib._pydantic import _ensure_strict_json_schema
        from openai.lib._parsing._completions import validate_input_tools
        from openai.types.chat import ChatCompletionFunctionTool, ChatCompletionToolParam
        from openai.types.chat.completion_create_params import ResponseFormat as OpenAIResponseFormatParam
        from openai.types.shared import ResponseFormatJSONSchema
        from openai.types.shared_params import ResponseFormatJSONSchema as ResponseFormatJSONSchemaParam

        from anthropic.lib._parse._transform import transform_schema
        from anthropic.types import ToolParam, JSONOutputFormatParam, OutputConfigParam

        from google.genai import types as genai

        import ag_ui.core as agui

        self.openai_strict = lambda s: _ensure_strict_json_schema(s, path=(), root=s)
        self.openai_validate_input_tools = validate_input_tools
        self.openai_tool_model = ChatCompletionFunctionTool
        self.openai_tool_param = pydantic.TypeAdapter(ChatCompletionToolParam)
        self.openai_format_model = ResponseFormatJSONSchema
        self.openai_format_param = pydantic.TypeAdapter(ResponseFormatJSONSchemaParam)
        self.openai_response_format_param = pydantic.TypeAdapter(OpenAIResponseFormatParam)

        self.anthropic_transform = transform_schema
        self.anthropic_tool_param = pydantic.TypeAdapter(ToolParam)
        self.anthropic_format_param = pydantic.TypeAdapter(JSONOutputFormatParam)
        self.anthropic_output_config = pydantic.TypeAdapter(OutputConfigParam)

        self.genai = genai
        self.agui = agui

    # --- openai

    def openai_tool(self, tool: Any) -> list[str]:
        problems = typed_dict_round_trip(self.openai_tool_param, "ChatCompletionToolParam", tool)
        m = self.openai_tool_model.model_validate(tool)
        problems += [f"ChatCompletionFunctionTool: unknown field {p}" for p in pydantic_extras(m)]
        problems += round_trip("ChatCompletionFunctionTool.to_dict()", tool, m.to_dict())
        fn = tool.get("function", {})
        if not OPENAI_NAME.match(str(fn.get("name"))):
            problems.append(f"function.name {fn.get('name')!r} does not match {OPENAI_NAME.pattern}")
        if not isinstance(fn.get("strict"), bool):
            problems.append(f"function.strict is not sent explicitly as a boolean: {fn.get('strict')!r}")
        if fn.get("strict") is True:
            self.openai_validate_input_tools([tool])
        return problems

    def openai_response(self, fmt: Any) -> list[str]:
        problems = typed_dict_round_trip(self.openai_format_param, "shared_params.ResponseFormatJSONSchema", fmt)
        problems += typed_dict_round_trip(self.openai_response_format_param, "completion_create_params.ResponseFormat", fmt)
        m = self.openai_format_model.model_validate(fmt)
        problems += [f"ResponseFormatJSONSchema: unknown field {p}" for p in pydantic_extras(m)]
        problems += round_trip("ResponseFormatJSONSchema.to_dict()", fmt, m.to_dict())
        js = fmt.get("json_schema", {})
        if not OPENAI_NAME.match(str(js.get("name"))):
            problems.append(f"json_schema.name {js.get('name')!r} does not match {OPENAI_NAME.pattern}")
        if not isinstance(js.get("strict"), bool):
            problems.append(f"json_schema.strict is not sent explicitly as a boolean: {js.get('strict')!r}")
        if not isinstance(js.get("schema"), dict):
            problems.append("json_schema.schema is missing")
        return problems

    def openai_fixpoint(self, schema: Any) -> list[str]:
        return fixpoint(self.openai_strict, schema, all_ordered)

    # --- anthropic

    def anthropic_tool(self, tool: Any) -> list[str]:
        problems = typed_dict_round_trip(self.anthropic_tool_param, "ToolParam", tool)
        schema = tool.get("input_schema")
        if not isinstance(schema, dict) or schema.get("type") != "object":
            problems.append(f"input_schema is not a type: object schema: {short(dumps(schema), 160)}")
        if "strict" in tool and tool["strict"] is not True:
            problems.append(f"strict is {tool['strict']!r}: send true or leave it out")
        return problems

    def anthropic_response(self, fmt: Any) -> list[str]:
        problems = typed_dict_round_trip(self.anthropic_format_param, "JSONOutputFormatParam", fmt)
        problems += typed_dict_round_trip(self.anthropic_output_config, "OutputConfigParam", {"format": fmt})
        if not isinstance(fmt.get("schema"), dict):
            problems.append("schema is missing")
        return problems

    def anthropic_fixpoint(self, schema: Any) -> list[str]:
        # transform_schema rebuilds every node in its own keyword order, so
        # only the order of property and definition names is compared.
        return fixpoint(self.anthropic_transform, schema, name_maps_ordered)

    # --- gemini

    def _genai(self, cls: Any, value: Any, label: str) -> list[str]:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            m = cls.model_validate(value)
        problems = [f"{label} warned: {w.message}" for w in caught]
        problems += round_trip(
            f"{label}.model_dump(by_alias=True, exclude_unset=True)",
            value,
            m.model_dump(mode="json", by_alias=True, exclude_unset=True),
        )
        return problems

    def gemini_tool(self, tool: Any) -> list[str]:
        problems = self._genai(self.genai.Tool, tool, "Tool")
        if set(tool) != {"functionDeclarations"}:
            problems.append(f"Tool keys are {list(tool)}, expected only functionDeclarations")
        return problems

    def gemini_declaration(self, decl: Any) -> list[str]:
        problems = self._genai(self.genai.FunctionDeclaration, decl, "FunctionDeclaration")
        if "parameters" in decl:
            problems.append("uses `parameters` (OpenAPI Schema) rather than parametersJsonSchema")
        return problems

    def gemini_response(self, config: Any) -> list[str]:
        problems = self._genai(self.genai.GenerateContentConfig, config, "GenerateContentConfig")
        if config.get("responseMimeType") != "application/json":
            problems.append(f"responseMimeType is {config.get('responseMimeType')!r}")
        if not isinstance(config.get("responseJsonSchema"), dict):
            problems.append("responseJsonSchema is missing")
        return problems

    # --- ag-ui

    def agui_tool(self, tool: Any) -> list[str]:
        m = self.agui.Tool.model_validate(tool)
        problems = [f"ag_ui.core.Tool: unknown field {p}" for p in pydantic_extras(m)]
        problems += round_trip("ag_ui.core.Tool", tool, m.model_dump(mode="json", by_alias=True, exclude_unset=True))
        return problems

    def agui_input(self, payload: Any) -> list[str]:
        m = self.agui.RunAgentInput.model_validate(payload)
        problems = [f"RunAgentInput: unknown field {p}" for p in pydantic_extras(m)]
        problems += round_trip(
            "RunAgentInput.tools",
            payload["tools"],
            [t.model_dump(mode="json", by_alias=True, exclude_unset=True) for t in m.tools or []],
        )
        return problems


def run_agent_input(tools: list[Any]) -> dict[str, Any]:
    return {
        "threadId": "7f1c2a9e-2f4b-4c1e-9a57-3d0c1b2a4e6f",
        "runId": "conformance-run-1",
        "state": {},
        "messages": [{"id": "msg-1", "role": "user", "content": "Hello"}],
        "tools": tools,
        "context": [],
        "forwardedProps": {},
    }


def render_tools_prompt(tools: list[Any]) -> str:
    """The backend profile's build_tools_prompt, from the AG-UI tools."""
    if not tools:
        return ""
    out = []
    for t in tools:
        out.append(f"- {t['name']}: {t['description']}\n")
        params = json.dumps(t.get("parameters"), separators=(",", ":"), ensure_ascii=False)
        out.append(f"- args_schema: {params}\n")
    out.append("\nNote: tool arguments must strictly match args_schema.\n")
    return "".join(out)


def text_diff(expected: str, actual: str) -> str:
    lines = difflib.unified_diff(
        expected.splitlines(keepends=True),
        actual.splitlines(keepends=True),
        "expected (rendered from --target ag-ui)",
        "agentc --target tools-prompt",
        n=1,
    )
    out = []
    for ln in lines:
        text = ln[:-1] if ln.endswith("\n") else ln + "\\ (no newline at end)"
        if any(ch < " " and ch != "\t" for ch in text):
            text = repr(text)
        out.append(short(text, 400))
    return "\n".join(out)


# --------------------------------------------------------------------------
# Per protocol


class Checker:
    def __init__(self, report: Report, agentc: Agentc, sdk: Sdk) -> None:
        self.report, self.agentc, self.sdk = report, agentc, sdk
        self.manifest: list[dict[str, Any]] = []

    def ajv(self, disp: str, item: str, schema: Any, dialect: str = "standard") -> None:
        self.manifest.append(
            {"check": "ajv", "file": disp, "item": item, "kind": "schema", "dialect": dialect, "schema": schema}
        )

    def node(self, check: str, disp: str, item: str, kind: str, data: Any, **extra: Any) -> None:
        self.manifest.append({"check": check, "file": disp, "item": item, "kind": kind, "data": data, **extra})

    def protocol(self, path: Path, disp: str) -> None:
        r, e = self.report, Emits(self.report, self.agentc, str(path), disp)
        self.agentc.prefetch(e.args(), e.args("--target", "ag-ui"))

        doc = e.get("json-schema", "document")
        if doc is None:
            return
        defs = doc.get("$defs") if isinstance(doc, dict) else None
        r.run("json-schema", disp, "document", lambda: self.document_shape(doc, whole=True))
        if not isinstance(defs, dict):
            return
        self.ajv(disp, "json-schema:document", doc)
        objects = [n for n, s in defs.items() if isinstance(s, dict) and s.get("type") == "object"]

        agui = e.get("ag-ui", "tools", "--target", "ag-ui")
        names = [t.get("name") for t in agui if isinstance(t, dict)] if isinstance(agui, list) else None

        # Everything else at once, so agentc runs in parallel.
        calls = [e.args("--type", n) for n in defs]
        calls += [e.args("--tool", n) for n in names or []]
        for target in ("openai", "anthropic", "gemini"):
            calls.append(e.args("--target", target))
            calls += [e.args("--target", target, "--response", n) for n in objects]
        calls += [
            e.args("--target", "aap"),
            e.args("--target", "aap", "--meta", "--agent-version", AGENT_VERSION),
            e.args("--target", "tools-prompt"),
        ]
        self.agentc.prefetch(*calls)

        for name in defs:
            sub = e.get("json-schema", f"type:{name}", "--type", name)
            if sub is not None:
                r.run("json-schema", disp, f"type:{name}", lambda: self.document_shape(sub, whole=False))
                self.ajv(disp, f"json-schema:type:{name}", sub)
        if names is None:
            r.skip("json-schema", disp, "tool:*", "no --target ag-ui output to list the tools")
        for name in names or []:
            sub = e.get("json-schema", f"tool:{name}", "--tool", name)
            if sub is not None:
                r.run("json-schema", disp, f"tool:{name}", lambda: self.document_shape(sub, whole=False))
                self.ajv(disp, f"json-schema:tool:{name}", sub)

        self.openai(e, objects)
        self.anthropic(e, objects)
        self.gemini(e, objects)
        self.agui(e, agui)
        self.aap(e)
        self.tools_prompt(e, agui)

    def document_shape(self, doc: Any, whole: bool) -> list[str]:
        if not isinstance(doc, dict):
            return [f"not an object: {short(dumps(doc), 120)}"]
        problems = []
        if doc.get("$schema") != JSON_SCHEMA_2020:
            problems.append(f"$schema is {doc.get('$schema')!r}, not {JSON_SCHEMA_2020}")
        if whole:
            if not isinstance(doc.get("$defs"), dict):
                problems.append("no $defs object")
            elif not all(isinstance(s, dict) for s in doc["$defs"].values()):
                problems.append("a $defs entry is not an object")
        return problems

    def tool_list(self, check: str, disp: str, value: Any) -> bool:
        if isinstance(value, list) and all(isinstance(t, dict) for t in value):
            return True
        self.report.fail(check, disp, "tools", f"not a JSON array of objects: {short(dumps(value), 200)}")
        return False

    # --- targets

    def openai(self, e: Emits, objects: list[str]) -> None:
        r, disp, sdk = self.report, e.disp, self.sdk
        tools = e.get("openai-tool", "tools", "--target", "openai")
        if tools is not None and self.tool_list("openai-tool", disp, tools):
            if not tools:
                r.ok("openai-tool", disp, "tools")
            for tool in tools:
                fn = tool.get("function") if isinstance(tool.get("function"), dict) else {}
                item = f"tool:{fn.get('name')}"
                r.run("openai-tool", disp, item, lambda: sdk.openai_tool(tool))
                params = fn.get("parameters")
                if isinstance(params, dict):
                    self.ajv(disp, f"openai:{item}", params)
                # agentc keeps the strict shape even where `unknown` turns
                # `strict` off, so every schema is checked.
                r.run("openai-strict", disp, item, lambda: sdk.openai_fixpoint(params))
        for name in objects:
            item = f"response:{name}"
            fmt = e.get("openai-response", item, "--target", "openai", "--response", name)
            if fmt is None:
                continue
            r.run("openai-response", disp, item, lambda: sdk.openai_response(fmt))
            js = fmt.get("json_schema") if isinstance(fmt, dict) else None
            if not isinstance(js, dict):
                continue
            schema = js.get("schema")
            if isinstance(schema, dict):
                self.ajv(disp, f"openai:{item}", schema)
            r.run("openai-strict", disp, item, lambda: sdk.openai_fixpoint(schema))

    def anthropic(self, e: Emits, objects: list[str]) -> None:
        r, disp, sdk = self.report, e.disp, self.sdk
        tools = e.get("anthropic-tool", "tools", "--target", "anthropic")
        if tools is not None and self.tool_list("anthropic-tool", disp, tools):
            if not tools:
                r.ok("anthropic-tool", disp, "tools")
            for tool in tools:
                item = f"tool:{tool.get('name')}"
                r.run("anthropic-tool", disp, item, lambda: sdk.anthropic_tool(tool))
                schema = tool.get("input_schema")
                if isinstance(schema, dict):
                    self.ajv(disp, f"anthropic:{item}", schema)
                if tool.get("strict") is True:
                    r.run("anthropic-strict", disp, item, lambda: sdk.anthropic_fixpoint(schema))
                else:
                    r.skip("anthropic-strict", disp, item, "not a strict tool: transform_schema does not apply")
        for name in objects:
            item = f"response:{name}"
            fmt = e.get("anthropic-response", item, "--target", "anthropic", "--response", name)
            if fmt is None:
                continue
            r.run("anthropic-response", disp, item, lambda: sdk.anthropic_response(fmt))
            schema = fmt.get("schema") if isinstance(fmt, dict) else None
            if isinstance(schema, dict):
                self.ajv(disp, f"anthropic:{item}", schema)
                r.run("anthropic-strict", disp, item, lambda: sdk.anthropic_fixpoint(schema))

    def gemini(self, e: Emits, objects: list[str]) -> None:
        r, disp, sdk = self.report, e.disp, self.sdk
        tool = e.get("gemini-tool", "tool", "--target", "gemini")
        if tool is not None:
            if not isinstance(tool, dict):
                r.fail("gemini-tool", disp, "tool", f"not a JSON object: {short(dumps(tool), 200)}")
            else:
                r.run("gemini-tool", disp, "tool", lambda: sdk.gemini_tool(tool))
                decls = tool.get("functionDeclarations")
                for decl in decls if isinstance(decls, list) else []:
                    if not isinstance(decl, dict):
                        r.fail("gemini-tool", disp, "tool", f"a functionDeclarations entry is not an object: {short(dumps(decl), 120)}")
                        continue
                    item = f"tool:{decl.get('name')}"
                    r.run("gemini-tool", disp, item, lambda: sdk.gemini_declaration(decl))
                    schema = decl.get("parametersJsonSchema")
                    if isinstance(schema, dict):
                        self.ajv(disp, f"gemini:{item}", schema, "gemini")
        for name in objects:
            item = f"response:{name}"
            config = e.get("gemini-response", item, "--target", "gemini", "--response", name)
            if config is None:
                continue
            r.run("gemini-response", disp, item, lambda: sdk.gemini_response(config))
            schema = config.get("responseJsonSchema") if isinstance(config, dict) else None
            if isinstance(schema, dict):
                self.ajv(disp, f"gemini:{item}", schema, "gemini")

    def agui(self, e: Emits, tools: Any) -> None:
        r, disp, sdk = self.report, e.disp, self.sdk
        if tools is None or not self.tool_list("ag-ui", disp, tools):
            return
        if not tools:
            r.ok("ag-ui", disp, "tools")
        for tool in tools:
            item = f"tool:{tool.get('name')}"
            r.run("ag-ui", disp, item, lambda: sdk.agui_tool(tool))
            self.node("ag-ui-zod", disp, item, "ag-ui-tool", tool)
            if isinstance(tool.get("parameters"), dict):
                self.ajv(disp, f"ag-ui:{item}", tool["parameters"])
        payload = run_agent_input(tools)
        r.run("ag-ui", disp, "run-agent-input", lambda: sdk.agui_input(payload))
        self.node("ag-ui-zod", disp, "run-agent-input", "ag-ui-input", payload)

    def aap(self, e: Emits) -> None:
        disp = e.disp
        tools = e.get("aap", "tools", "--target", "aap")
        if tools is not None and self.tool_list("aap", disp, tools):
            self.node("aap", disp, "tools", "aap-tools", tools)
            for tool in tools:
                if isinstance(tool.get("parameters"), dict):
                    self.ajv(disp, f"aap:tool:{tool.get('name')}", tool["parameters"])
        meta = e.get("aap", "meta", "--target", "aap", "--meta", "--agent-version", AGENT_VERSION)
        if meta is not None:
            self.node("aap", disp, "meta", "aap-meta", meta, agentVersion=AGENT_VERSION)

    def tools_prompt(self, e: Emits, tools: Any) -> None:
        r, disp = self.report, e.disp
        text = e.get("tools-prompt", "prompt", "--target", "tools-prompt", text=True)
        if text is None:
            return
        if not isinstance(tools, list):
            r.skip("tools-prompt", disp, "prompt", "no --target ag-ui output to render it from")
            return
        expected = render_tools_prompt(tools)
        if text == expected:
            r.ok("tools-prompt", disp, "prompt")
        else:
            r.fail("tools-prompt", disp, "prompt", "differs from the ag-ui tools rendered:\n" + text_diff(expected, text))

    # --- node half

    def run_node(self, node: str) -> None:
        if not self.manifest:
            return
        with tempfile.NamedTemporaryFile("w", suffix=".json", prefix="agentc-conformance-", delete=False) as f:
            json.dump({"items": self.manifest}, f, ensure_ascii=False)
            path = f.name
        try:
            p = subprocess.run([node, str(HERE / "check.mjs"), path], capture_output=True, text=True, timeout=600)
        finally:
            os.unlink(path)
        seen = 0
        for ln in p.stdout.splitlines():
            try:
                res = json.loads(ln)
            except ValueError:
                self.report.fail("node", "check.mjs", "-", f"unexpected output: {short(ln)}")
                continue
            seen += 1
            self.report.line(res["status"], res["check"], res["file"], res["item"], res.get("reason"))
        if p.returncode != 0 or seen != len(self.manifest):
            self.report.fail(
                "node", "check.mjs", "-",
                f"exit {p.returncode}, {seen} of {len(self.manifest)} results\n{p.stderr[-3000:]}",
            )


# --------------------------------------------------------------------------


def protocols(root: Path, report: Report) -> list[tuple[Path, str]]:
    found = [(p, p.relative_to(root).as_posix()) for p in sorted((root / "protocols").rglob("*.yaml"))]
    corpus = root.parent / "shared" / "corpus" / "octavus-examples"
    if corpus.is_dir():
        found += [(p, f"corpus/{p.name}") for p in sorted(corpus.glob("*.yaml"))]
    else:
        report.skip("corpus", "../shared/corpus/octavus-examples", "-", f"{corpus} is absent")
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agentc", required=True, help="the agentc binary")
    ap.add_argument("--root", required=True, help="the repository root")
    ap.add_argument("--node", default="node", help="the Node.js binary (default: node)")
    ap.add_argument("--only", help="check only protocols whose path contains this")
    ap.add_argument("--jobs", type=int, default=max(2, min(8, (os.cpu_count() or 2) * 2)))
    args = ap.parse_args()

    root = Path(args.root).resolve()
    binary = str(Path(args.agentc).resolve())
    report = Report()
    agentc = Agentc(binary, root, args.jobs)
    checker = Checker(report, agentc, Sdk())

    for path, disp in protocols(root, report):
        if args.only and args.only not in disp:
            continue
        try:
            arg = path.relative_to(root).as_posix()
        except ValueError:
            arg = str(path)
        try:
            checker.protocol(Path(arg), disp)
        except Exception as e:  # a bug in this driver: report it, go on
            report.fail("driver", disp, "-", f"{type(e).__name__}: {e}")
    checker.run_node(args.node)
    agentc.pool.shutdown()

    c = report.counts
    print(f"conformance: {c['ok']} passed, {c['FAIL']} failed, {c['skip']} skipped", flush=True)
    return 1 if c["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
