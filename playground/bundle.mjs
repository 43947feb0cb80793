// Bundles the playground with esbuild (called by playground/build):
// node bundle.mjs ROOT PACKAGE OUT. src/app.js and what it imports become
// OUT/app.js and OUT/app.css; src/index.html is copied beside them. The
// example agents (each folder of ROOT/protocols/ with a protocol.yaml and a
// settings.json) are read now and embedded as the module `agentc:samples`.
import { build } from 'esbuild';
import { copyFile, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

const [root, pkg, out] = process.argv.slice(2);
if (!root || !pkg || !out) {
  console.error('usage: node bundle.mjs ROOT PACKAGE OUT');
  process.exit(2);
}
const here = path.dirname(new URL(import.meta.url).pathname);

async function exists(file) {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

// Every file below `dir`, by its path relative to `base` with `/`, sorted.
async function filesBelow(base, dir, into) {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await filesBelow(base, full, into);
    else if (entry.isFile()) into[path.relative(base, full).split(path.sep).join('/')] = await readFile(full, 'utf8');
  }
  return into;
}

async function samples() {
  const dir = path.join(root, 'protocols');
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const found = [];
  for (const name of names) {
    const folder = path.join(dir, name);
    if ((await exists(path.join(folder, 'protocol.yaml'))) && (await exists(path.join(folder, 'settings.json')))) {
      found.push({ name, files: await filesBelow(folder, folder, {}) });
    }
  }
  if (found.length === 0) throw new Error(`no example agent under ${dir}`);
  return found;
}

const embedded = await samples();
const samplesPlugin = {
  name: 'agentc-samples',
  setup(b) {
    b.onResolve({ filter: /^agentc:samples$/ }, () => ({ path: 'samples', namespace: 'agentc' }));
    b.onLoad({ filter: /.*/, namespace: 'agentc' }, () => ({
      contents: `export default ${JSON.stringify(embedded)};`,
      loader: 'js',
    }));
  },
};

await build({
  entryPoints: { app: path.join(here, 'src', 'app.js') },
  bundle: true,
  format: 'esm',
  target: ['es2022'],
  minify: true,
  outdir: out,
  alias: { '@agentc/wasm': path.join(pkg, 'index.js') },
  // Imported by the package only under Node.js, to read the module from disk.
  external: ['node:fs/promises'],
  plugins: [samplesPlugin],
  logLevel: 'warning',
});
await copyFile(path.join(here, 'src', 'index.html'), path.join(out, 'index.html'));
