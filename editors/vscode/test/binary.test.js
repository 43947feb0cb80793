// The extension's binary lookup (out/binary.js, compiled from
// src/binary.ts), in temporary folders: the setting beats the npm package,
// which beats PATH; a setting that names no file is an error naming it;
// nothing found is an error that says what to do.
"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { findBinary, NotFound } = require("../out/binary.js");

function folder() {
  return fs.mkdtempSync(path.join(os.tmpdir(), "agentc-vscode-"));
}

function executable(file) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, "#!/bin/sh\nexit 0\n");
  fs.chmodSync(file, 0o755);
  return file;
}

// A stand-in for the npm package @agentc/cli with its resolver contract:
// binaryPath() returns the binary, or throws an Error naming the platform.
function npmPackage(workspace, binary) {
  const dir = path.join(workspace, "node_modules", "@agentc", "cli");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "@agentc/cli", version: "0.0.0", exports: { "./resolve": "./resolve.js" } }),
  );
  const body =
    binary === undefined
      ? 'exports.binaryPath = () => { throw new Error("agentc: no agentc binary is installed for plan9 mips."); };'
      : `exports.binaryPath = () => ${JSON.stringify(binary)};`;
  fs.writeFileSync(path.join(dir, "resolve.js"), body);
}

const posix = { platform: "linux" };

test("the setting comes first, relative to the workspace folder", () => {
  const workspace = folder();
  const bin = folder();
  const mine = executable(path.join(workspace, "tools", "agentc"));
  npmPackage(workspace, executable(path.join(workspace, "from-npm")));
  executable(path.join(bin, "agentc"));
  const found = findBinary({ ...posix, setting: "tools/agentc", folders: [workspace], env: { PATH: bin } });
  assert.deepEqual(found, { path: mine, source: "setting" });
});

test("a setting that names no file is an error naming it", () => {
  const workspace = folder();
  assert.throws(
    () => findBinary({ ...posix, setting: "/no/such/agentc", folders: [workspace], env: { PATH: "" } }),
    (error) => error instanceof NotFound && error.message.includes('agentc.path is "/no/such/agentc"'),
  );
});

test("then the workspace's @agentc/cli, through its resolver", () => {
  const workspace = folder();
  const bin = folder();
  const npmBinary = executable(path.join(workspace, "from-npm"));
  npmPackage(workspace, npmBinary);
  executable(path.join(bin, "agentc"));
  const found = findBinary({ ...posix, setting: "", folders: [workspace], env: { PATH: bin } });
  assert.deepEqual(found, { path: npmBinary, source: "npm" });
});

test("then agentc on PATH, executable files only", () => {
  const workspace = folder();
  const first = folder();
  const second = folder();
  fs.writeFileSync(path.join(first, "agentc"), "not executable");
  const onPath = executable(path.join(second, "agentc"));
  const found = findBinary({ ...posix, setting: undefined, folders: [workspace], env: { PATH: `${first}:${second}` } });
  assert.deepEqual(found, { path: onPath, source: "path" });
});

test("nothing found: what to do, and why the npm package had no binary", () => {
  const workspace = folder();
  npmPackage(workspace, undefined);
  assert.throws(
    () => findBinary({ ...posix, setting: "", folders: [workspace], env: { PATH: folder() } }),
    (error) =>
      error instanceof NotFound &&
      error.message.includes("Set agentc.path") &&
      error.message.includes("npm i -D @agentc/cli") &&
      error.message.includes("no agentc binary is installed for plan9 mips"),
  );
});

test("on Windows, agentc.exe on PATH", () => {
  const bin = folder();
  const exe = executable(path.join(bin, "agentc.exe"));
  const found = findBinary({ platform: "win32", setting: "", folders: [], env: { PATH: bin, PATHEXT: ".COM;.EXE" } });
  assert.deepEqual(found, { path: exe, source: "path" });
});
