// The extension's client side with the real language server, as far as it
// runs without VS Code: the binary is found by the extension's own lookup
// (out/binary.js, the setting = AGENTC_TEST_BINARY), started exactly as
// out/server.js tells the extension to start it, and spoken to with
// vscode-jsonrpc, the transport vscode-languageclient itself uses. A
// broken protocol.yaml gets its diagnostic at the exact range; fixing it
// clears it; shutdown and exit end the process with 0. Timeouts turn a
// hang into a failure.
"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { spawn } = require("node:child_process");
const { pathToFileURL } = require("node:url");
const rpc = require("vscode-jsonrpc/node");
const { findBinary } = require("../out/binary.js");
const { serverCommand, documentSelector } = require("../out/server.js");

const root = path.resolve(__dirname, "..", "..", "..");

function within(ms, promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function copy(from, to) {
  fs.cpSync(from, to, { recursive: true });
}

test("initialize, diagnostics as the protocol changes, shutdown", { skip: !process.env.AGENTC_TEST_BINARY && "AGENTC_TEST_BINARY is not set (tests/vscode_extension.rs sets it)" }, async () => {
  assert.deepEqual(documentSelector, [
    { scheme: "file", pattern: "**/protocol.yaml" },
    { scheme: "file", pattern: "**/settings.json" },
    { scheme: "file", pattern: "**/{prompts,references,skills}/**/*.md" },
  ]);
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "agentc-vscode-rt-"));
  copy(path.join(root, "protocols", "worker"), path.join(workspace, "agents", "reviews"));
  const file = path.join(workspace, "agents", "reviews", "protocol.yaml");
  const fixed = fs.readFileSync(file, "utf8");
  const marker = "\n    reviewCount:\n      type: integer\n";
  assert.ok(fixed.includes(marker), "the worker example changed; pick another line");
  const broken = fixed.replace(marker, "\n    reviewCount:\n      type: integr\n");
  const line = broken.split("\n").findIndex((l) => l === "      type: integr");

  const found = findBinary({
    setting: process.env.AGENTC_TEST_BINARY,
    folders: [workspace],
    env: process.env,
    platform: process.platform,
  });
  assert.equal(found.source, "setting");
  const run = serverCommand(found.path, process.env);
  assert.deepEqual(run.args, ["lsp"]);
  const child = spawn(run.command, run.args, { ...run.options, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));

  const connection = rpc.createMessageConnection(
    new rpc.StreamMessageReader(child.stdout),
    new rpc.StreamMessageWriter(child.stdin),
  );
  const uri = pathToFileURL(file).href;
  const published = [];
  const waiters = [];
  connection.onNotification("textDocument/publishDiagnostics", (params) => {
    if (params.uri !== uri) return;
    published.push(params);
    for (const waiter of waiters.splice(0)) waiter();
  });
  const next = (predicate, what) =>
    within(
      10000,
      new Promise((resolve) => {
        const look = () => {
          const hit = published.find(predicate);
          if (hit) resolve(hit);
          else waiters.push(look);
        };
        look();
      }),
      what,
    );
  connection.listen();

  try {
    const init = await within(
      10000,
      connection.sendRequest("initialize", {
        processId: process.pid,
        clientInfo: { name: "agentc-vscode-test" },
        rootUri: pathToFileURL(workspace).href,
        workspaceFolders: [{ uri: pathToFileURL(workspace).href, name: "workspace" }],
        capabilities: {
          textDocument: {
            publishDiagnostics: { relatedInformation: true },
            synchronization: { didSave: true },
          },
          general: { positionEncodings: ["utf-16"] },
        },
      }),
      "initialize result",
    );
    const capabilities = init.capabilities;
    // What the extension relies on: open/change sync, and the features it advertises.
    assert.equal(capabilities.textDocumentSync.openClose, true);
    assert.ok([1, 2].includes(capabilities.textDocumentSync.change));
    assert.ok(capabilities.hoverProvider);
    assert.ok(capabilities.completionProvider);
    assert.ok(capabilities.definitionProvider);
    connection.sendNotification("initialized", {});

    connection.sendNotification("textDocument/didOpen", {
      textDocument: { uri, languageId: "yaml", version: 1, text: broken },
    });
    const first = await next((p) => p.diagnostics.length > 0, "diagnostics for the broken protocol");
    const unknown = first.diagnostics.find((d) => d.code === "unknown-type");
    assert.ok(unknown, JSON.stringify(first.diagnostics));
    assert.equal(unknown.severity, 1);
    assert.equal(unknown.source, "agentc");
    assert.deepEqual(unknown.range, {
      start: { line, character: 12 },
      end: { line, character: 18 },
    });
    assert.match(unknown.message, /type `integr` is not defined/);

    // A whole-text change (allowed under incremental sync) that fixes it.
    connection.sendNotification("textDocument/didChange", {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: fixed }],
    });
    await next((p) => p.version === 2 || (p.diagnostics.length === 0 && published.indexOf(p) > 0), "diagnostics after the fix");
    const last = published[published.length - 1];
    assert.deepEqual(last.diagnostics, []);

    await within(10000, connection.sendRequest("shutdown"), "shutdown result");
    connection.sendNotification("exit");
    const { code, signal } = await within(10000, exited, "exit");
    assert.equal(signal, null, stderr);
    assert.equal(code, 0, stderr);
  } finally {
    connection.dispose();
    child.kill();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
});
