// Types of @agentc/wasm. The reports are the `--format json` contract,
// version 1 (schema/report.schema.json in agentc's repository): lines and
// columns 1-based, columns in Unicode scalar values, ends exclusive.

/** Files in memory, by relative path (`/` between folders), and `agentc.toml`'s text. */
export interface Files {
  files: Record<string, string>;
  /** `agentc.toml`: a configuration with problems is reported, and nothing else is done. */
  config?: string;
}

export type Severity = 'error' | 'warning' | 'info';
export type Applicability = 'safe' | 'unsafe' | 'suggestion';
export type Surface = 'tool' | 'response' | 'worker-output' | 'input';
export type Target = 'json-schema' | 'openai' | 'anthropic' | 'gemini' | 'ag-ui' | 'aap' | 'tools-prompt';
export type Lang = 'ts' | 'zod' | 'python';
export type Payload =
  | 'run-input'
  | 'aap-post-sessions-request'
  | 'aap-post-session-turn-request'
  | 'aap-post-session-turn-response'
  | 'aap-events';

export interface Range {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface Label extends Range {
  message: string;
}

export interface Edit extends Range {
  text: string;
}

export interface Fix {
  title: string;
  applicability: Applicability;
  edits: Edit[];
}

export interface Diagnostic extends Range {
  file: string;
  severity: Severity;
  code: string;
  message: string;
  /** A JSON pointer into the data (validate). */
  pointer?: string;
  help?: string;
  labels?: Label[];
  fix?: Fix;
  /** A contract change (diff). */
  surface?: Surface;
  contract?: string;
  path?: string;
  narrowed?: boolean;
  widened?: boolean;
  fingerprint?: string;
  base?: Range & { file: string };
}

export interface Report {
  version: 1;
  diagnostics: Diagnostic[];
  summary: { files: number; errors: number; warnings: number };
}

export interface Fixed {
  /** How many fixes were applied. */
  applied: number;
  /** Each file the fixes changed: its new text and a unified diff. */
  files: { path: string; text: string; diff: string }[];
  /** What remains after the fixes. */
  report: Report;
}

export interface EmitInput extends Files {
  /** The protocol's path in `files`. */
  path: string;
  target: Target;
  /** At most one of `tool`, `type` and `response`; none is every tool (every type for `json-schema`). */
  tool?: string;
  type?: string;
  response?: string;
}

export interface Emitted {
  target: Target;
  /** The output as a value (a string for `tools-prompt`). */
  output: unknown;
  /** The output as `agentc emit` prints it. */
  text: string;
  /** What the target warned of, with the protocol's warnings. */
  report: Report;
}

export interface ValidateInput extends Partial<Files> {
  /** The protocol's path in `files` (needed for `tool` and `type`). */
  path?: string;
  /** The data, as text: JSON, or a text/event-stream for `aap-events`. */
  data: string;
  /** The data's name in diagnostics (default `data.json`). */
  name?: string;
  /** One of `tool`, `type` and `payload`. */
  tool?: string;
  type?: string;
  payload?: Payload;
}

export interface DiffInput extends Files {
  /** The old version's files. */
  old: Record<string, string>;
  /** The protocol's path in both. */
  path: string;
}

export interface GenerateInput extends Files {
  path: string;
  lang: Lang;
}

export interface Generated {
  files: { name: string; text: string }[];
}

export interface Names {
  /** Each tool, in declaration order. */
  tools: string[];
  /** Each type, in declaration order. */
  types: string[];
  /** The object types the protocol replies with (a `responseType`). */
  responses: string[];
}

export interface Explained {
  code: string;
  severity: Severity;
  summary: string;
  fix: Applicability | null;
  /** The page `agentc explain CODE` prints, in Markdown. */
  page: string;
}

export interface About {
  version: string;
  codes: { code: string; severity: Severity; summary: string }[];
  targets: { name: Target; display: string }[];
  langs: Lang[];
  payloads: { name: Payload; summary: string }[];
  severities: Severity[];
}

/** A call that could not give what it was asked for; `report` says where when the protocol's problems are the reason. */
export class AgentcError extends Error {
  readonly report?: Report;
}

/** Loads the module once: from `source`, or from `agentc_wasm_bg.wasm` beside the package. */
export function load(
  source?: string | URL | Request | Response | BufferSource | WebAssembly.Module,
): Promise<void>;

export interface CheckInput extends Files {
  /** Check these files, as files named on the command line are (whatever their names). */
  paths?: string[];
}

/** `agentc check --format json` over the files: every protocol the configuration takes, with its agent folder, or the `paths` given. */
export function check(input: CheckInput): Report;
/** The same report, as the text `agentc check --format json` prints. */
export function checkJson(input: CheckInput): string;
/** `agentc check --fix` of the protocol at `path`; nothing is kept, the texts are returned. */
export function fix(input: Files & { path: string; unsafe?: boolean }): Fixed;
/** `agentc emit`: schemas for a target. Throws an AgentcError for a protocol with errors, or one the target cannot express. */
export function emit(input: EmitInput): Emitted;
/** `agentc validate --format json`. */
export function validate(input: ValidateInput): Report;
/** `agentc diff --format json`: the contract changes from `old` to `files`. */
export function diff(input: DiffInput): Report;
/** `agentc gen --stdout`: typed bindings in one language. */
export function generate(input: GenerateInput): Generated;
/** What the protocol at `path` declares, by name (what could be read of it, when it has errors). */
export function names(input: Files & { path: string }): Names;
/** `agentc explain CODE`; `null` for a name that is no code. */
export function explain(code: string): Explained | null;
/** The codes, targets, languages and payloads, from agentc's own lists, and its version. */
export function about(): About;
