// The same verdicts everywhere: @agentc/wasm, in Node.js, against the
// `agentc` binary, over every protocol fixture in protocols/. Usage:
//   node wasm/tests/verdicts.mjs PACKAGE_DIR AGENTC_BINARY
// run from the repository's root (tests/wasm.rs does).
//
// For each YAML file under protocols/, the binary runs in the file's base
// folder (the folder of the nearest agentc.toml under protocols/, else
// the file's own folder), and the package gets every file of that folder
// in memory, with agentc.toml's text as its configuration, so that both
// name every file alike and no path needs rewriting:
// - `agentc check --format json FILE` against `check({files, config,
//   paths: [FILE]})`, both as the object printed the way serde_json
//   prints it and as the package's own text (`checkJson`), byte for byte;
// - for a file without errors, `agentc emit --target T FILE` against
//   `emit(...)` for every target the package knows (`about()`): the text
//   byte for byte, the value printed alike, or a failure on both sides;
// - and each folder holding protocols (without a nested agentc.toml),
//   `agentc check --format json .` against `check({files, config})`.
// A file that is not UTF-8 cannot be given to the package as text, and is
// listed as such. Exits 1 on the first mismatches (up to 10 shown).

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [packageDir, binary] = process.argv.slice(2);
if (!packageDir || !binary) {
  console.error('usage: node wasm/tests/verdicts.mjs PACKAGE_DIR AGENTC_BINARY');
  process.exit(2);
}
const agentc = await import(pathToFileURL(path.resolve(packageDir, 'index.js')).href);
await agentc.load();

const root = path.resolve('protocols');
// Kept whole: a byte-order mark is part of the text (agentc warns of it).
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

// Every regular file below `dir` (links are not followed), by path
// relative to `dir`, with `/` between folders.
function filesBelow(dir, prefix = '') {
  const found = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const name = prefix + entry.name;
    if (entry.isDirectory()) found.push(...filesBelow(full, name + '/'));
    else if (entry.isFile()) found.push(name);
  }
  return found.sort();
}

function text(file) {
  try {
    return decoder.decode(fs.readFileSync(file));
  } catch {
    return null;
  }
}

// The folder whose files and configuration the package gets for `file`.
function baseOf(file) {
  for (let dir = path.dirname(file); dir.startsWith(root); dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'agentc.toml'))) return dir;
    if (dir === root) break;
  }
  return path.dirname(file);
}

const held = new Map();
function heldIn(base) {
  if (!held.has(base)) {
    const files = {};
    const notText = [];
    for (const name of filesBelow(base)) {
      if (name === 'agentc.toml') continue;
      const t = text(path.join(base, name));
      if (t === null) notText.push(name);
      else files[name] = t;
    }
    const configPath = path.join(base, 'agentc.toml');
    const config = fs.existsSync(configPath) ? text(configPath) : undefined;
    held.set(base, { files, notText, ...(config === undefined ? {} : { config }) });
  }
  return held.get(base);
}

function cli(cwd, args) {
  const ran = spawnSync(path.resolve(binary), args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (ran.error) throw ran.error;
  return ran;
}

// serde_json's pretty printing, which `agentc` uses.
const printed = (value) => JSON.stringify(value, null, 2) + '\n';

const mismatches = [];
function differ(what, cliText, packageText) {
  if (cliText === packageText) return false;
  let at = 0;
  while (at < cliText.length && cliText[at] === packageText[at]) at += 1;
  mismatches.push(
    `${what}: first difference at byte ${at}\n  cli:     ${JSON.stringify(cliText.slice(Math.max(0, at - 40), at + 80))}\n  package: ${JSON.stringify(packageText.slice(Math.max(0, at - 40), at + 80))}`,
  );
  return true;
}

const { targets } = agentc.about();
const yaml = filesBelow(root).filter((name) => /\.ya?ml$/.test(name));
const counts = { checked: 0, emitted: 0, refused: 0, folders: 0 };
const skipped = [];

for (const name of yaml) {
  const file = path.join(root, name);
  const base = baseOf(file);
  const rel = path.relative(base, file).split(path.sep).join('/');
  const { files, config } = heldIn(base);
  if (!(rel in files)) {
    skipped.push(`protocols/${name} (not UTF-8)`);
    continue;
  }
  const input = { files, ...(config === undefined ? {} : { config }) };
  const expected = cli(base, ['check', '--format', 'json', rel]).stdout;
  const report = agentc.check({ ...input, paths: [rel] });
  differ(`check protocols/${name}`, expected, printed(report));
  differ(`checkJson protocols/${name}`, expected, agentc.checkJson({ ...input, paths: [rel] }));
  counts.checked += 1;
  if (report.summary.errors > 0) continue;
  for (const { name: target } of targets) {
    const ran = cli(base, ['emit', '--target', target, rel]);
    let emitted = null;
    let failure = null;
    try {
      emitted = agentc.emit({ ...input, path: rel, target });
    } catch (error) {
      if (error.name !== 'AgentcError') throw error;
      failure = error;
    }
    const what = `emit --target ${target} protocols/${name}`;
    if (ran.status === 0 && emitted !== null) {
      differ(what, ran.stdout, emitted.text);
      if (typeof emitted.output !== 'string') differ(`${what} (value)`, ran.stdout, printed(emitted.output));
      counts.emitted += 1;
    } else if (ran.status !== 0 && failure !== null) {
      counts.refused += 1;
    } else {
      mismatches.push(
        `${what}: the cli exited ${ran.status} (${ran.stderr.split('\n')[0]}), the package ${failure ? `threw: ${failure.message}` : 'emitted'}`,
      );
    }
  }
}

// Each folder of protocols whose configuration is one file: the top
// folders and the folders of each agentc.toml, but none holding another,
// and none without a protocol.yaml (which the binary refuses as a path
// with nothing to check; the package has no such path).
const configs = filesBelow(root).filter((n) => path.basename(n) === 'agentc.toml');
const folders = new Set([
  ...fs.readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name),
  ...configs.map((n) => path.dirname(n)),
]);
const compared = [];
for (const folder of [...folders].sort()) {
  const base = path.join(root, folder);
  const nested = configs.some((n) => n.startsWith(folder + '/') && path.dirname(n) !== folder);
  if (nested) continue;
  const { files, config, notText } = heldIn(base);
  if (!Object.keys(files).some((n) => path.basename(n) === 'protocol.yaml')) continue;
  if (notText.length > 0) {
    skipped.push(`protocols/${folder}/ as a folder (holds files that are not UTF-8: ${notText.join(', ')})`);
    continue;
  }
  const expected = cli(base, ['check', '--format', 'json', '.']).stdout;
  const input = { files, ...(config === undefined ? {} : { config }) };
  differ(`check protocols/${folder}/`, expected, printed(agentc.check(input)));
  counts.folders += 1;
  compared.push(`protocols/${folder}/`);
}

console.log(
  `${counts.checked} files checked alike, ${counts.folders} folders checked alike, ` +
    `${counts.emitted} schemas emitted alike, ${counts.refused} refused by both`,
);
console.log(`folders: ${compared.join(', ')}`);
for (const line of skipped) console.log(`not given to the package: ${line}`);
if (mismatches.length > 0) {
  console.error(`${mismatches.length} mismatch(es) between the package and the cli:`);
  for (const line of mismatches.slice(0, 10)) console.error(line);
  process.exit(1);
}
if (counts.checked < 100 || counts.emitted < 100 || counts.folders < 4) {
  console.error('too few comparisons: the fixtures were not found');
  process.exit(1);
}
