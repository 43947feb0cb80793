// The extension's registration of `agentc mcp` for VS Code's agent mode
// (out/mcp.js, compiled from src/mcp.ts), with a stand-in for the part of
// the `vscode` API it uses: package.json contributes the provider id it
// registers; an editor without the API (before 1.101) gets nothing
// registered and no error; the provider offers the binary the extension
// found, started with `mcp`, or nothing when none was found. Then that
// definition is started as VS Code would start it, with this build of
// agentc (AGENTC_TEST_BINARY), answers `initialize` as agentc, and exits
// when its input closes. Timeouts turn a hang into a failure.
"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const readline = require("node:readline");
const { spawn } = require("node:child_process");
const { registerMcp, mcpProviderId } = require("../out/mcp.js");
const { findBinary } = require("../out/binary.js");

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "package.json"), "utf8"));

/** VS Code 1.101's McpStdioServerDefinition, as far as its constructor goes. */
class Definition {
  constructor(label, command, args, env, version) {
    Object.assign(this, { label, command, args, env, version });
  }
}

/** A stand-in for the API: records what is registered. */
function editor() {
  const registered = [];
  return {
    registered,
    api: {
      lm: {
        registerMcpServerDefinitionProvider(id, provider) {
          registered.push({ id, provider });
          return { dispose() {} };
        },
      },
      McpStdioServerDefinition: Definition,
    },
  };
}

const onDidChange = () => ({ dispose() {} });

test("package.json contributes the provider the extension registers, and keeps its engine", () => {
  assert.deepEqual(
    manifest.contributes.mcpServerDefinitionProviders.map((p) => p.id),
    [mcpProviderId],
  );
  // The API is looked for at run time, so older editors still install it.
  assert.equal(manifest.engines.vscode, "^1.82.0");
});

test("an editor without the API gets nothing registered, and no error", () => {
  const target = () => ({ binary: "/bin/agentc" });
  assert.equal(registerMcp({}, target, onDidChange), undefined);
  assert.equal(registerMcp({ lm: {} }, target, onDidChange), undefined);
  assert.equal(
    registerMcp({ lm: { registerMcpServerDefinitionProvider() {} } }, target, onDidChange),
    undefined,
    "no McpStdioServerDefinition: nothing to offer",
  );
});

test("the provider offers the binary found, with mcp, in the workspace folder", () => {
  const { api, registered } = editor();
  const folder = { fsPath: "/work/space" };
  let binary = "/opt/agentc/bin/agentc";
  const disposable = registerMcp(api, () => ({ binary, cwd: folder }), onDidChange);
  assert.equal(typeof disposable.dispose, "function");
  assert.equal(registered.length, 1);
  const { id, provider } = registered[0];
  assert.equal(id, mcpProviderId);
  assert.equal(provider.onDidChangeMcpServerDefinitions, onDidChange);
  const [definition, ...more] = provider.provideMcpServerDefinitions();
  assert.equal(more.length, 0);
  assert.ok(definition instanceof Definition);
  assert.equal(definition.label, "agentc");
  assert.equal(definition.command, binary);
  assert.deepEqual(definition.args, ["mcp"]);
  assert.equal(definition.cwd, folder);
  // No binary (the language server has said why): no server.
  binary = undefined;
  assert.deepEqual(provider.provideMcpServerDefinitions(), []);
});

function within(ms, promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

test("the definition starts agentc mcp, which answers initialize", { skip: !process.env.AGENTC_TEST_BINARY && "AGENTC_TEST_BINARY is not set (tests/vscode_extension.rs sets it)" }, async () => {
  const found = findBinary({
    setting: process.env.AGENTC_TEST_BINARY,
    folders: [],
    env: process.env,
    platform: process.platform,
  });
  const { api, registered } = editor();
  registerMcp(api, () => ({ binary: found.path }), onDidChange);
  const [definition] = registered[0].provider.provideMcpServerDefinitions();
  // As VS Code starts it: the command and args, the env laid over its own.
  const child = spawn(definition.command, definition.args, {
    env: { ...process.env, ...definition.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  const lines = readline.createInterface({ input: child.stdout });
  const first = new Promise((resolve) => lines.once("line", resolve));
  try {
    child.stdin.write(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "0" } },
      }) + "\n",
    );
    const answer = JSON.parse(await within(10000, first, "answer to initialize"));
    assert.equal(answer.id, 1, JSON.stringify(answer));
    assert.equal(answer.result.serverInfo.name, "agentc", JSON.stringify(answer));
    child.stdin.end();
    const { code, signal } = await within(10000, exited, "exit after its input closed");
    assert.equal(signal, null, stderr);
    assert.equal(code, 0, stderr);
  } finally {
    lines.close();
    child.kill();
  }
});
