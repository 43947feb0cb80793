// Finds the agentc binary for this machine: the launcher (bin/agentc) runs
// it, and editors call `require("@agentc/cli/resolve").binaryPath()` to
// start `agentc lsp` themselves.
//
// biome's pattern: the binary is not downloaded at install time; it comes
// in one optional dependency per platform (`@agentc/cli-linux-x64`, ...),
// whose `os`, `cpu` and `libc` fields let the package manager install only
// the one that fits. Which packages exist is read from platforms.json,
// written into this package by packaging/npm/pack from the repository's
// packaging/platforms.json, the one list of platforms.
"use strict";

const fs = require("node:fs");
const path = require("node:path");

const PLATFORMS = require("./platforms.json");

/** "glibc" or "musl" on Linux (as detect-libc and napi-rs tell them apart), else undefined. */
function libc() {
  if (process.platform !== "linux") return undefined;
  try {
    if (process.report) process.report.excludeNetwork = true;
    const report = process.report && process.report.getReport();
    const header = report && report.header;
    if (header && header.glibcVersionRuntime) return "glibc";
  } catch {
    // No report: decide from the files below.
  }
  for (const loader of ["/lib/ld-musl-x86_64.so.1", "/lib/ld-musl-aarch64.so.1"]) {
    if (fs.existsSync(loader)) return "musl";
  }
  return "glibc";
}

/** The packages that can run here, best first: the exact libc, then, on a
 * glibc Linux, the static musl build, which runs there too. */
function candidates(os, cpu, lib) {
  const here = PLATFORMS.filter((p) => p.os === os && p.cpu === cpu);
  const exact = here.filter((p) => p.libc === undefined || p.libc === lib);
  const fallback = lib === "glibc" ? here.filter((p) => p.libc === "musl") : [];
  return [...exact, ...fallback];
}

function describe(os, cpu, lib) {
  return lib ? `${os} ${cpu} (${lib})` : `${os} ${cpu}`;
}

function isFile(file) {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The absolute path of the agentc binary to run: `AGENTC_BINARY` when set
 * (a binary you built), else the one in this platform's package. Throws an
 * Error that names the platform when there is none.
 */
function binaryPath() {
  const override = process.env.AGENTC_BINARY;
  if (override) {
    if (!isFile(override)) {
      throw new Error(`agentc: AGENTC_BINARY is ${override}, which is not a file`);
    }
    return path.resolve(override);
  }
  const os = process.platform;
  const cpu = process.arch;
  const lib = libc();
  for (const platform of candidates(os, cpu, lib)) {
    let folder;
    try {
      folder = path.dirname(require.resolve(`${platform.package}/package.json`));
    } catch {
      continue;
    }
    const file = path.join(folder, platform.os === "win32" ? "agentc.exe" : "agentc");
    if (isFile(file)) return file;
  }
  const ours = candidates(os, cpu, lib);
  const supported = PLATFORMS.map((p) => describe(p.os, p.cpu, p.libc)).join(", ");
  const lines = [`agentc: no agentc binary is installed for ${describe(os, cpu, lib)}.`];
  if (ours.length > 0) {
    const names = ours.map((p) => p.package).join(" or ");
    lines.push(
      `Its package, ${names}, is an optional dependency of @agentc/cli that was not installed:`,
      "reinstall without --omit=optional (or --no-optional), and if a lockfile written on",
      "another platform left it out, update the lockfile.",
    );
  } else {
    lines.push(`@agentc/cli has binaries for: ${supported}.`);
  }
  lines.push(
    "Or build agentc yourself (cargo install --locked --git https://github.com/agentc/agentc agentc)",
    "and set AGENTC_BINARY to the binary's path.",
  );
  throw new Error(lines.join("\n"));
}

module.exports = { binaryPath, candidates, libc };
