// A page's code against @agentc/wasm's types, compiled by tests/wasm.rs
// with `tsc --strict`: every call, its input and its output typed.
import {
  AgentcError, about, check, checkJson, diff, emit, explain, fix, generate, load, names, validate,
  type Diagnostic, type Emitted, type Report, type Target,
} from '@agentc/wasm';

export async function run(text: string): Promise<string[]> {
  await load();
  const files = { 'protocol.yaml': text };
  const report: Report = check({ files, config: '[severity]\n' });
  const raw: string = checkJson({ files, paths: ['protocol.yaml'] });
  const codes: string[] = report.diagnostics.map((d: Diagnostic) => `${d.code}@${d.line}:${d.column}`);
  for (const d of report.diagnostics) {
    for (const edit of d.fix?.edits ?? []) codes.push(`${edit.endLine}:${edit.endColumn}=${edit.text}`);
  }
  const fixed = fix({ files, path: 'protocol.yaml', unsafe: false });
  codes.push(...fixed.files.map((f) => f.diff), String(fixed.applied));
  const targets: Target[] = about().targets.map((t) => t.name);
  for (const target of targets) {
    try {
      const out: Emitted = emit({ files, path: 'protocol.yaml', target });
      codes.push(out.text, ...out.report.diagnostics.map((d) => d.message));
    } catch (error) {
      if (error instanceof AgentcError) codes.push(error.message, String(error.report?.summary.errors));
    }
  }
  const verdict: Report = validate({ files, path: 'protocol.yaml', tool: 'find', data: '{}' });
  const input: Report = validate({ data: '{}', payload: 'run-input' });
  const changes: Report = diff({ files, old: files, path: 'protocol.yaml' });
  const bindings = generate({ files, path: 'protocol.yaml', lang: 'zod' });
  const page = explain('unknown-type');
  const declared: string[] = names({ files, path: 'protocol.yaml' }).tools;
  codes.push(...declared);
  codes.push(raw, String(verdict.summary.errors + input.summary.warnings), String(changes.summary.files));
  codes.push(...bindings.files.map((f) => f.name), page === null ? '' : page.page);
  return codes;
}
