// @agentc/wasm: agentc's library, compiled to WebAssembly, for the browser
// and Node.js. A set of files in memory goes in; reports, schemas, fixes,
// diffs and bindings come out as plain objects, the same JSON the
// `agentc` command prints with `--format json` (see index.d.ts).
//
// The calls are synchronous once `load()` has resolved. Each request is
// handed to the module as a JSON text and its answer parsed back: the
// module reads no disk, starts no thread and calls no network.

import init, * as agentc from './agentc_wasm.js';

/** A call that could not give what it was asked for. */
export class AgentcError extends Error {
  constructor(message, report) {
    super(message);
    this.name = 'AgentcError';
    if (report !== undefined) this.report = report;
  }
}

let ready = false;
let stopped = null;

function isNode() {
  return typeof process === 'object' && process !== null && typeof process.versions?.node === 'string';
}

/**
 * Loads the WebAssembly module, once: from `source` (a URL, a Response,
 * the module's bytes or a compiled WebAssembly.Module) or, by default,
 * from `agentc_wasm_bg.wasm` beside this file (read from disk under
 * Node.js, fetched in a browser).
 */
export async function load(source) {
  if (ready) return;
  if (source === undefined && isNode()) {
    const { readFile } = await import('node:fs/promises');
    source = await readFile(new URL('./agentc_wasm_bg.wasm', import.meta.url));
  }
  await init(source === undefined ? undefined : { module_or_path: source });
  ready = true;
}

function request(what, input) {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new AgentcError(`${what} takes an object`);
  }
  return JSON.stringify(input);
}

// Runs one call of the module: its answer as text, or its failure thrown
// as an AgentcError. A trap (a bug in agentc: the module's Rust panicked)
// leaves the module's memory as it was at that moment, so the package
// stops rather than answer from it.
function run(call, argument) {
  if (!ready) throw new AgentcError('call `await load()` first');
  if (stopped !== null) {
    throw new AgentcError(`agentc stopped on an internal error (${stopped}); load the page or process again`);
  }
  try {
    return call(argument);
  } catch (error) {
    if (typeof error === 'string') {
      const failed = JSON.parse(error);
      throw new AgentcError(failed.message, failed.report);
    }
    stopped = String(error);
    throw new AgentcError(`agentc stopped on an internal error (${stopped}); please report it`);
  }
}

export function check(input) {
  return JSON.parse(checkJson(input));
}

export function checkJson(input) {
  return run(agentc.check, request('check', input));
}

export function fix(input) {
  return JSON.parse(run(agentc.fix, request('fix', input)));
}

export function emit(input) {
  return JSON.parse(run(agentc.emit, request('emit', input)));
}

export function validate(input) {
  return JSON.parse(run(agentc.validate, request('validate', input)));
}

export function diff(input) {
  return JSON.parse(run(agentc.diff, request('diff', input)));
}

export function generate(input) {
  return JSON.parse(run(agentc.generate, request('generate', input)));
}

export function names(input) {
  return JSON.parse(run(agentc.names, request('names', input)));
}

export function explain(code) {
  if (typeof code !== 'string') throw new AgentcError('explain takes a code, as a string');
  return JSON.parse(run(agentc.explain, code));
}

export function about() {
  return JSON.parse(run(agentc.about));
}
