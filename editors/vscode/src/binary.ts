// Finds the agentc binary the extension starts. No `vscode` import here, so
// the tests run this very code under plain Node (test/binary.test.js).
//
// The order (what ruff's and biome's extensions do): the `agentc.path`
// setting; then the workspace's npm package @agentc/cli, asked through its
// own resolver (`@agentc/cli/resolve`, which knows the platform packages
// and AGENTC_BINARY); then `agentc` on PATH.
import * as fs from "node:fs";
import * as path from "node:path";
import { createRequire } from "node:module";

export interface Lookup {
  /** The `agentc.path` setting; empty or undefined when unset. */
  setting: string | undefined;
  /** The workspace folders, as file-system paths, first first. */
  folders: readonly string[];
  /** The environment to search PATH (and PATHEXT on Windows) in. */
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
}

export type Source = "setting" | "npm" | "path";

export interface Found {
  path: string;
  source: Source;
}

/** No binary: the message says what was tried and what to do. */
export class NotFound extends Error {}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function isExecutable(file: string, platform: NodeJS.Platform): boolean {
  if (!isFile(file)) return false;
  if (platform === "win32") return true;
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

interface Resolver {
  binaryPath(): string;
}

/** The binary of the workspace's @agentc/cli, or why there is none. */
function fromNpm(folder: string): { found?: string; problem?: string } {
  const require = createRequire(path.join(folder, "package.json"));
  let resolver: Resolver;
  try {
    resolver = require("@agentc/cli/resolve") as Resolver;
  } catch {
    return {};
  }
  try {
    return { found: resolver.binaryPath() };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}

function fromPath(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | undefined {
  const delimiter = platform === "win32" ? ";" : ":";
  const folders = (env.PATH ?? env.Path ?? "").split(delimiter).filter((f) => f !== "");
  const names =
    platform === "win32"
      ? ["agentc.exe", ...(env.PATHEXT ?? ".EXE").split(";").map((ext) => `agentc${ext.toLowerCase()}`)]
      : ["agentc"];
  for (const folder of folders) {
    for (const name of names) {
      const file = path.join(folder, name);
      if (isExecutable(file, platform)) return file;
    }
  }
  return undefined;
}

export function findBinary(lookup: Lookup): Found {
  const setting = lookup.setting?.trim();
  if (setting) {
    const base = lookup.folders[0];
    const file = path.isAbsolute(setting) || base === undefined ? setting : path.join(base, setting);
    if (!isFile(file)) {
      throw new NotFound(`agentc.path is "${setting}", and ${file} is not a file.`);
    }
    return { path: file, source: "setting" };
  }
  const problems: string[] = [];
  for (const folder of lookup.folders) {
    const { found, problem } = fromNpm(folder);
    if (found !== undefined) return { path: found, source: "npm" };
    if (problem !== undefined) problems.push(problem);
  }
  const onPath = fromPath(lookup.env, lookup.platform);
  if (onPath !== undefined) return { path: onPath, source: "path" };
  throw new NotFound(
    [
      "agentc was not found. Set agentc.path to the binary, add agentc to the workspace",
      "(npm i -D @agentc/cli), or put agentc on PATH (pip install agentc-lint).",
      ...problems,
    ].join("\n"),
  );
}
