// @agentc/wasm in plain Node.js: every sample (the example agents the
// playground offers) compiles, each call does what its type says, hostile
// requests are refused with an AgentcError and never stop the module, and
// the module fits its size budget. Usage, from the repository's root:
//   node wasm/tests/package.mjs PACKAGE_DIR
// Prints what it saw; exits 1 on the first failure.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';

const [packageDir] = process.argv.slice(2);
if (!packageDir) {
  console.error('usage: node wasm/tests/package.mjs PACKAGE_DIR');
  process.exit(2);
}
const agentc = await import(pathToFileURL(path.resolve(packageDir, 'index.js')).href);

// Before load(): a clear error, not a crash.
assert.throws(() => agentc.check({ files: {} }), { name: 'AgentcError', message: /load/ });
await agentc.load();
await agentc.load(); // twice is fine

// The size budget: the gzipped module at most 1.5 MB.
const BUDGET = 1_500_000;
const wasm = fs.readFileSync(path.join(packageDir, 'agentc_wasm_bg.wasm'));
const gzipped = zlib.gzipSync(wasm, { level: 9 }).length;
console.log(`module: ${wasm.length} bytes, ${gzipped} gzipped (budget ${BUDGET})`);
assert.ok(gzipped <= BUDGET, `the gzipped module is ${gzipped} bytes, over the budget of ${BUDGET}`);

const about = agentc.about();
const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
assert.equal(about.version, manifest.version, 'the module and the package are one version');
assert.ok(about.codes.length > 100 && about.targets.length >= 6 && about.langs.length === 3);

// Every sample: an agent folder in memory, as the playground holds it.
function folder(dir, prefix = '') {
  const files = {};
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) Object.assign(files, folder(full, `${prefix}${entry.name}/`));
    else if (entry.isFile()) files[prefix + entry.name] = fs.readFileSync(full, 'utf8');
  }
  return files;
}
const samples = ['shop-assistant', 'support-desk', 'worker'];
for (const sample of samples) {
  const files = folder(path.join('protocols', sample));
  const report = agentc.check({ files });
  assert.equal(report.version, 1);
  assert.equal(report.summary.errors, 0, `${sample}: ${JSON.stringify(report.diagnostics)}`);
  const emitted = [];
  for (const { name: target } of about.targets) {
    try {
      const out = agentc.emit({ files, path: 'protocol.yaml', target });
      assert.equal(out.target, target);
      assert.equal(typeof out.text, 'string');
      emitted.push(target);
    } catch (error) {
      // A target may have nothing to say of a protocol (a worker has no
      // tools for a provider): a refusal with a reason, never a crash.
      assert.equal(error.name, 'AgentcError', `${sample} ${target}: ${error}`);
      assert.ok(error.message.length > 0);
    }
  }
  assert.ok(emitted.includes('json-schema'), `${sample}: no JSON Schema`);
  for (const lang of about.langs) {
    const generated = agentc.generate({ files, path: 'protocol.yaml', lang });
    assert.ok(generated.files.length >= 1 && generated.files[0].text.length > 0, `${sample} ${lang}`);
  }
  console.log(`sample ${sample}: checks clean, emits ${emitted.join(', ')}, generates ${about.langs.join(', ')}`);
}

// A mistake, its diagnostic, its fix (in a file of shared types: a
// `protocol.yaml` must also be an agent).
const broken = { 'types.yaml': 'types:\n  Order:\n    id:\n      type: strng\n' };
const found = agentc.check({ files: broken, paths: ['types.yaml'] }).diagnostics.find((d) => d.code === 'unknown-type');
assert.ok(found, 'unknown-type reported');
assert.deepEqual([found.line, found.column, found.endLine, found.endColumn], [4, 13, 4, 18]);
assert.equal(found.fix.edits[0].text, 'string');
const fixed = agentc.fix({ files: broken, path: 'types.yaml' });
assert.equal(fixed.applied, 1);
assert.equal(fixed.files[0].text, 'types:\n  Order:\n    id:\n      type: string\n');
assert.match(fixed.files[0].diff, /^-      type: strng$/m);
assert.equal(fixed.report.summary.errors, 0);
assert.throws(() => agentc.emit({ files: broken, path: 'types.yaml', target: 'openai' }), (error) => {
  assert.equal(error.name, 'AgentcError');
  assert.equal(error.report.diagnostics[0].code, 'unknown-type');
  return true;
});

// Validation: a tool call with the wrong type, located by pointer.
const tools = {
  'tools.yaml':
    'tools:\n  find-order:\n    description: Find an order\n    parameters:\n      id:\n        type: string\n        description: The order\n',
};
const invalid = agentc.validate({ files: tools, path: 'tools.yaml', tool: 'find-order', data: '{"id": 7}' });
assert.equal(invalid.summary.errors, 1);
assert.equal(invalid.diagnostics[0].pointer, '/id');
assert.equal(agentc.validate({ files: tools, path: 'tools.yaml', tool: 'find-order', data: '{"id": "7"}' }).summary.errors, 0);
const runInput = agentc.validate({ data: '{}', payload: 'run-input' });
assert.ok(runInput.summary.errors > 0, 'an empty RunAgentInput is refused');

// A contract diff: a tool's parameter changed from string to number in
// a sample is a change of a tool's contract.
const shop = folder(path.join('protocols', 'shop-assistant'));
const retyped = { ...shop, 'protocol.yaml': shop['protocol.yaml'].replace('query: { type: string', 'query: { type: number') };
assert.notEqual(retyped['protocol.yaml'], shop['protocol.yaml']);
const changes = agentc.diff({ files: retyped, old: shop, path: 'protocol.yaml' });
assert.ok(changes.diagnostics.some((d) => d.surface === 'tool'), JSON.stringify(changes.diagnostics));

// What a protocol declares, by name: also while it has errors, and
// nothing for a text that is not YAML.
const declared = agentc.names({ files: shop, path: 'protocol.yaml' });
assert.ok(declared.tools.includes('search-products') && declared.types.includes('Product'), JSON.stringify(declared));
assert.deepEqual(agentc.names({ files: broken, path: 'types.yaml' }), { tools: [], types: ['Order'], responses: [] });
assert.deepEqual(agentc.names({ files: { 'protocol.yaml': '[' }, path: 'protocol.yaml' }).types, []);

// explain, and a code that is none.
assert.match(agentc.explain('unknown-type').page, /unknown-type|type/);
assert.equal(agentc.explain('no-such-code'), null);

// Hostile requests: each refused with an AgentcError, the module still
// answering after all of them.
const refused = [
  () => agentc.check(null),
  () => agentc.check([]),
  () => agentc.check('protocol.yaml'),
  () => agentc.check({ files: { 'protocol.yaml': 7 } }),
  () => agentc.check({ files: {}, nonsense: true }),
  () => agentc.check({ files: { '../etc/passwd': 'x' } }),
  () => agentc.check({ files: { '/etc/passwd': 'x' } }),
  () => agentc.check({ files: { '': 'x' } }),
  () => agentc.check({ files: { 'a\u0000b': 'x' } }),
  () => agentc.check({ files: {}, paths: ['../x'] }),
  () => agentc.emit({ files: tools, path: 'tools.yaml', target: 'nope' }),
  () => agentc.emit({ files: tools, path: 'tools.yaml', target: 'openai', tool: 'a', type: 'b' }),
  () => agentc.emit({ files: tools, path: 'missing.yaml', target: 'openai' }),
  () => agentc.emit({ files: tools, path: 'tools.yaml', target: 'openai', tool: 'no-such-tool' }),
  () => agentc.validate({ files: tools, data: '{}', tool: 'find-order' }),
  () => agentc.validate({ files: tools, path: 'tools.yaml', data: '{}', payload: 'nope' }),
  () => agentc.generate({ files: tools, path: 'tools.yaml', lang: 'cobol' }),
  () => agentc.diff({ files: tools, old: {}, path: 'tools.yaml' }),
  () => agentc.fix({ files: tools, path: 'nope.yaml' }),
  () => agentc.names({ files: tools, path: 'nope.yaml' }),
  () => agentc.names({ files: tools }),
  () => agentc.explain(7),
];
for (const call of refused) {
  assert.throws(call, (error) => {
    assert.equal(error.name, 'AgentcError', String(error));
    assert.doesNotMatch(error.message, /internal error/);
    return true;
  });
}
assert.equal(
  agentc.check({ files: {}, config: 'nonsense = [' }).diagnostics[0].code,
  'invalid-config',
  'a broken agentc.toml is reported, as the cli reports it',
);

// Inputs that are large or deep: reports, never a trap.
const big = 'types:\n' + '  T: { x: { type: string } }\n'.repeat(1) + '#'.repeat(17 * 1024 * 1024) + '\n';
assert.ok(agentc.check({ files: { 'protocol.yaml': big } }).summary.errors > 0, 'a 17 MB file is too large');
const deep = '['.repeat(100_000);
assert.ok(agentc.check({ files: { 'protocol.yaml': deep } }).summary.errors > 0);
assert.ok(agentc.validate({ files: tools, path: 'tools.yaml', tool: 'find-order', data: deep }).summary.errors > 0);
const wide = 'types:\n' + Array.from({ length: 5000 }, (_, i) => `  T${i}:\n    x:\n      type: strng\n`).join('');
assert.equal(agentc.check({ files: { 'types.yaml': wide }, paths: ['types.yaml'] }).summary.errors, 5000);

// Arbitrary edits of a sample (a seeded generator, so a failure repeats):
// every one gives a report.
let seed = 0x2545f491;
const next = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 2 ** 32;
};
const sample = shop;
const pieces = ['\n', ' ', ':', '- ', '{', '}', '[', ']', '"', "'", '&a', '*a', '<<: ', '\t', '#', 'type: ', '\u{1F600}', '\r\n', '\uFEFF', '|', '>'];
for (let i = 0; i < 300; i += 1) {
  let text = sample['protocol.yaml'];
  for (let edits = 1 + Math.floor(next() * 4); edits > 0; edits -= 1) {
    const at = Math.floor(next() * text.length);
    const cut = Math.floor(next() * 8);
    const piece = pieces[Math.floor(next() * pieces.length)];
    text = text.slice(0, at) + piece + text.slice(at + cut);
  }
  const files = { ...sample, 'protocol.yaml': text };
  const report = agentc.check({ files });
  assert.equal(report.version, 1);
  if (report.summary.errors === 0) agentc.emit({ files, path: 'protocol.yaml', target: 'openai' });
}
// Still answering.
assert.equal(agentc.check({ files: sample }).summary.errors, 0);
console.log(`calls, refusals, large inputs and 300 arbitrary edits: all answered`);
