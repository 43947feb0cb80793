// The playground in a real browser: node playground/tests/browser.mjs
// (after playground/build). Serves target/playground/ (under
// CARGO_TARGET_DIR when set, or AGENTC_PLAYGROUND_DIR) on 127.0.0.1 with
// Node's http, drives Chromium (AGENTC_CHROMIUM, default /usr/bin/chromium)
// with playwright-core, prints each check that passed and a measurement of
// keystroke -> diagnostics, saves screenshots under
// target/playground-screenshots/, and exits 1 with the reason on the first
// failure. Requests anywhere but the local server are refused and fail the
// run: the page must work offline.
import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
import { mkdtemp, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const root = path.resolve(here, '..', '..');
const target = path.resolve(root, process.env.CARGO_TARGET_DIR ?? 'target');
const site = path.resolve(process.env.AGENTC_PLAYGROUND_DIR ?? path.join(target, 'playground'));
const shots = path.join(target, 'playground-screenshots');
const executablePath = process.env.AGENTC_CHROMIUM || '/usr/bin/chromium';
const TIMEOUT = 15_000;

class Failure extends Error {}
function fail(message) {
  throw new Failure(message);
}
function pass(message) {
  console.log(`ok - ${message}`);
}

// ---- a static server for the built folder ----

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.json': 'application/json',
};

function serve(dir) {
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      let file = path.resolve(dir, `.${decodeURIComponent(url.pathname)}`);
      if (file !== dir && !file.startsWith(dir + path.sep)) {
        res.writeHead(403).end();
        return;
      }
      if (url.pathname.endsWith('/')) file = path.join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// ---- what the samples hold, read from protocols/ (not from the page) ----

/** The example agents the page embeds: protocols/NAME/ with a protocol.yaml and a settings.json. */
async function sampleNames() {
  const dir = path.join(root, 'protocols');
  const names = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory()
      && existsSync(path.join(dir, entry.name, 'protocol.yaml'))
      && existsSync(path.join(dir, entry.name, 'settings.json'))) names.push(entry.name);
  }
  return names.sort();
}

/** The keys under the top-level `tools:` of a protocol (a line scan: the samples are block YAML). */
async function toolNames(sample) {
  const lines = (await readFile(path.join(root, 'protocols', sample, 'protocol.yaml'), 'utf8')).split('\n');
  const start = lines.findIndex((line) => /^tools:\s*$/.test(line));
  if (start < 0) return [];
  const names = [];
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line)) break;
    const m = /^ {2}([A-Za-z0-9_.-]+):/.exec(line);
    if (m) names.push(m[1]);
  }
  return names;
}

// ---- page helpers ----

async function ready(page) {
  await page.waitForSelector('body[data-ready="true"]', { timeout: TIMEOUT }).catch(() => fail('the page did not start (body[data-ready] never set)'));
}

async function paneText(page, id) {
  return page.locator(`[data-pane="${id}"]`).innerText();
}

async function waitFor(what, predicate, timeout = TIMEOUT) {
  const end = Date.now() + timeout;
  let last;
  while (Date.now() < end) {
    last = await predicate();
    if (last) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  fail(`timed out waiting for ${what}`);
}

/** Pastes text into a CodeMirror editor the way a clipboard paste does (a paste event), replacing all. */
async function paste(page, selector, text) {
  await page.locator(`${selector} .cm-content`).click();
  await page.keyboard.press('Control+A');
  await page.locator(`${selector} .cm-content`).evaluate((node, data) => {
    const transfer = new DataTransfer();
    transfer.setData('text/plain', data);
    node.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
  }, text);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// ---- the checks ----

async function run(browser, base) {
  const page = await browser.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  const noProblems = (when) => {
    if (problems.length) fail(`${when}: ${problems.join('; ')}`);
  };

  // The start page: shop-assistant, its OpenAI tools shown.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(base);
  await ready(page);
  const samples = await sampleNames();
  const shopTools = await toolNames('shop-assistant');
  if (shopTools.length === 0) fail('protocols/shop-assistant/protocol.yaml has no tools to look for');
  await waitFor('the OpenAI tools of shop-assistant on the start page',
    async () => (await paneText(page, 'target:openai')).includes(`"${shopTools[0]}"`));
  if (await page.locator('#samples').inputValue() !== 'shop-assistant') fail('the start page is not on shop-assistant');
  const version = await page.locator('#version').innerText();
  if (!/^v\d+\.\d+\.\d+/.test(version)) fail(`the header shows no version (${JSON.stringify(version)})`);
  await mkdir(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, 'start.png') });
  noProblems('on the start page');
  pass(`the start page opens on shop-assistant with its OpenAI tools (${shopTools[0]}), header ${version}`);

  // Each sample: its OpenAI schema names its tools.
  for (const sample of samples) {
    const tools = await toolNames(sample);
    const first = (await readFile(path.join(root, 'protocols', sample, 'protocol.yaml'), 'utf8')).split('\n')[0];
    await page.selectOption('#samples', sample);
    await waitFor(`${sample}'s protocol.yaml in the editor`, async () => (await page.locator('#editor .cm-content').innerText()).startsWith(first));
    await waitFor(tools.length ? `${sample}'s tools in the OpenAI pane` : `${sample}'s empty list of tools`, async () => {
      const text = await paneText(page, 'target:openai');
      return tools.length ? tools.every((tool) => text.includes(`"${tool}"`)) : text.includes('declares no tools') && text.includes('[]');
    });
    const problems = await page.evaluate(() => window.agentcPlayground.report().summary.errors);
    if (problems !== 0) fail(`${sample} has ${problems} errors in the page`);
    pass(`sample ${sample}: no errors, ${tools.length ? `its OpenAI schema names ${tools.join(', ')}` : 'it declares no tools and the OpenAI pane says so ([])'}`);
  }
  await page.selectOption('#samples', 'shop-assistant');
  await waitFor('shop-assistant again', async () => (await page.evaluate(() => window.agentcPlayground.files()['protocol.yaml'])).includes('Shop Assistant'));

  // Type a mistake after an emoji on the same line: the underline must be the mistake's
  // (report columns are Unicode scalar values, CodeMirror's offsets UTF-16).
  const mistake = async () => {
    const at = await page.evaluate(() => {
      const { view } = window.agentcPlayground;
      const text = view.state.doc.toString();
      // The first time, the whole value is retyped (an emoji before the type); then only the type.
      const again = text.indexOf('{ description: "🛍️ name", type: string }');
      if (again >= 0) {
        const from = again + '{ description: "🛍️ name", type: '.length;
        view.dispatch({ selection: { anchor: from, head: from + 'string'.length } });
        view.focus();
        return 'strng';
      }
      const line = text.indexOf('    name: { type: string }');
      if (line < 0) return null;
      const from = line + '    name: '.length;
      view.dispatch({ selection: { anchor: from, head: from + '{ type: string }'.length } });
      view.focus();
      return '{ description: "🛍️ name", type: strng }';
    });
    if (at === null) fail('shop-assistant has no `    name: { type: string }` line to break');
    await page.keyboard.type(at);
    await waitFor('the unknown-type diagnostic in the list', () => page.locator('#diagnostic-list li[data-code="unknown-type"]').count());
  };
  await mistake();
  const underlined = await page.evaluate(() => window.agentcPlayground.diagnostics());
  const strng = underlined.find((d) => d.message.startsWith('unknown-type'));
  if (!strng) fail(`no unknown-type underline in the editor: ${JSON.stringify(underlined)}`);
  if (strng.text !== 'strng') fail(`the unknown-type underline covers ${JSON.stringify(strng.text)}, not "strng"`);
  await waitFor('the lint underline drawn', () => page.locator('.cm-lintRange-error').count());
  pass('typing `strng` shows unknown-type, underlined exactly at `strng` after an emoji on its line');

  // A fix from the list of diagnostics.
  const fixButton = page.locator('#diagnostic-list li[data-code="unknown-type"] button.fix');
  if (await fixButton.count() === 0) fail('the unknown-type diagnostic has no fix button');
  const fixTitle = await fixButton.first().innerText();
  await fixButton.first().click();
  await waitFor('the fixed text', async () => (await page.evaluate(() => window.agentcPlayground.files()['protocol.yaml'])).includes('{ description: "🛍️ name", type: string }'));
  await waitFor('the diagnostic to go', async () => (await page.locator('#diagnostic-list li[data-code="unknown-type"]').count()) === 0);
  pass(`the list's fix button (${fixTitle}) turns strng back into string`);

  // The same fix from the editor's lint tooltip (the lint action).
  await mistake();
  await page.locator('.cm-lintRange-error').first().hover();
  const action = page.locator('.cm-tooltip-lint .cm-diagnosticAction');
  await action.first().waitFor({ timeout: TIMEOUT }).catch(() => fail('hovering the underline shows no lint action'));
  const tooltip = await page.locator('.cm-tooltip-lint').innerText();
  if (!tooltip.includes('unknown-type') || !tooltip.includes('help:')) fail(`the lint tooltip lacks the code or help: ${JSON.stringify(tooltip)}`);
  await page.screenshot({ path: path.join(shots, 'diagnostic.png') });
  await action.first().click();
  await waitFor('the text fixed by the lint action', async () => (await page.evaluate(() => window.agentcPlayground.files()['protocol.yaml'])).includes('{ description: "🛍️ name", type: string }'));
  pass('the lint tooltip shows code, message and help, and its action applies the fix');
  noProblems('after the fixes');

  // Validate: an invalid tool call is reported.
  const validateTool = shopTools.includes('add-to-cart') ? 'add-to-cart' : shopTools[0];
  await page.locator('[data-output="validate"]').click();
  await page.selectOption('#validate-target', `tool:${validateTool}`);
  await paste(page, '#validate-data', '{"cartItems": [{"productId": 42, "quantity": 2}]}');
  await waitFor('a validation error', () => page.locator('#validate-result li.diagnostic.error').count());
  const verdict = await page.locator('#validate-result').innerText();
  await page.screenshot({ path: path.join(shots, 'validate.png') });
  pass(`validate: a bad ${validateTool} call is reported (${verdict.split('\n').slice(0, 2).join(' ')})`);
  await paste(page, '#validate-data', '{"cartItems": [{"productId": "sku-1", "quantity": 2}]}');
  await waitFor('the call to be valid', async () => (await page.locator('#validate-result .valid').count()) > 0
    || fail(`a valid ${validateTool} call was reported: ${await page.locator('#validate-result').innerText()}`));
  pass(`validate: a good ${validateTool} call is valid`);

  // Diff: a field made required in the new version is a contract change.
  await page.locator('[data-output="diff"]').click();
  await waitFor('the diff pane seeded', async () => (await page.locator('[data-pane="diff"]').innerText()).includes('No contract changes'));
  await page.evaluate(() => {
    const { view } = window.agentcPlayground;
    const text = view.state.doc.toString();
    const at = text.indexOf('    giftWrap: { type: boolean, optional: true }');
    view.dispatch({ changes: { from: at, to: at + '    giftWrap: { type: boolean, optional: true }'.length, insert: '    giftWrap: { type: boolean }' } });
  });
  await waitFor('a contract change', () => page.locator('#diff-result li.diagnostic').count());
  pass(`diff: ${(await page.locator('#diff-result li.diagnostic').first().innerText()).split('\n').slice(0, 2).join(' ')}`);

  // A tab named agentc.toml is the configuration; removing the tab removes it.
  await page.fill('#new-file', 'agentc.toml');
  await page.click('#add-file button');
  await page.keyboard.type('bogus = 1');
  await waitFor('invalid-config for agentc.toml', () => page.locator('#diagnostic-list li[data-code="invalid-config"]').count());
  const where = await page.locator('#diagnostic-list li[data-code="invalid-config"] .where').innerText();
  if (!where.startsWith('agentc.toml:1:1')) fail(`invalid-config is at ${where}, not agentc.toml:1:1`);
  await page.click('[aria-label="Remove agentc.toml"]');
  await waitFor('agentc.toml gone', async () => (await page.locator('#diagnostic-list li').count()) === 0
    && (await page.locator('[data-file="agentc.toml"]').count()) === 0
    && (await page.evaluate(() => window.agentcPlayground.active())) === 'protocol.yaml');
  pass('a tab added as agentc.toml configures the check (invalid-config at agentc.toml:1:1), and removing it removes that');

  // Share: add a file, pick an output, and open the link in a new page.
  await page.fill('#new-file', 'notes/todo.md');
  await page.click('#add-file button');
  await page.keyboard.type('Ask about returns ✓ 🚚');
  await page.locator('[data-output="lang:ts"]').click();
  await page.click('#share');
  const link = await waitFor('the share link', async () => {
    const value = await page.locator('#share-link').inputValue();
    return value.includes('#s=') ? value : null;
  });
  const before = await page.evaluate(() => ({ files: window.agentcPlayground.files(), output: window.agentcPlayground.output(), active: window.agentcPlayground.active() }));
  const other = await browser.newPage();
  other.on('pageerror', (error) => problems.push(`page error (shared): ${error.message}`));
  await other.goto(link);
  await ready(other);
  const after = await other.evaluate(() => ({ files: window.agentcPlayground.files(), output: window.agentcPlayground.output(), active: window.agentcPlayground.active() }));
  if (JSON.stringify(after) !== JSON.stringify(before)) fail(`the share link gave another state:\n${JSON.stringify(after).slice(0, 400)}\nnot\n${JSON.stringify(before).slice(0, 400)}`);
  const shown = await other.locator('#editor .cm-content').innerText();
  if (!shown.includes('Ask about returns ✓ 🚚')) fail(`the shared page's editor shows ${JSON.stringify(shown)}`);
  if (!(await other.locator('[data-file="notes/todo.md"]').count())) fail('the shared page has no tab for notes/todo.md');
  await waitFor('the TypeScript pane', async () => (await paneText(other, 'lang:ts')).includes('export'));
  pass(`a share link (${link.length} characters) restores ${Object.keys(before.files).length} files, the active file and the ${before.output} output`);
  // A broken link pasted over an open page's address: a message, the files as they were.
  await other.evaluate(() => { location.hash = '#s=!!!'; });
  await waitFor('the message for a broken link on hashchange', async () => (await other.locator('#message').isVisible())
    && (await other.locator('#message').innerText()).includes('as they were'));
  const kept = await other.evaluate(() => window.agentcPlayground.files());
  if (JSON.stringify(kept) !== JSON.stringify(before.files)) fail('a broken link on hashchange changed the files');
  pass('a broken link opened over the page (hashchange) gives a message and keeps the files');
  await other.close();

  // Broken and hostile links: a message, and the default sample.
  const broken = {
    'not base64url': '#s=!!!$$$',
    'not deflate': '#s=AAAAAAAAAAAAAAAA',
    'deflate of no JSON': `#s=${await page.evaluate(async () => {
      const stream = new Blob(['not json']).stream().pipeThrough(new CompressionStream('deflate-raw'));
      const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
      return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    })}`,
    'a path out of the folder': `#s=${await page.evaluate(async () => {
      const json = JSON.stringify({ v: 1, files: { 'protocol.yaml': 'tools: {}', '../etc/passwd': 'x' } });
      const stream = new Blob([json]).stream().pipeThrough(new CompressionStream('deflate-raw'));
      const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
      return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    })}`,
    'a bomb (64 MiB of zeros)': `#s=${await page.evaluate(async () => {
      const stream = new Blob([new Uint8Array(64 * 1024 * 1024)]).stream().pipeThrough(new CompressionStream('deflate-raw'));
      const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
      let binary = '';
      for (const b of bytes) binary += String.fromCharCode(b);
      return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    })}`,
    'too long': `#s=${'A'.repeat(600 * 1024)}`,
    'markup in a file name': `#s=${await page.evaluate(async () => {
      const json = JSON.stringify({ v: 1, files: { 'protocol.yaml': 'tools:\n  x:\n    description: <img src=x onerror=alert(1)>\n', '<img src=x onerror=alert(1)>.md': '<script>alert(1)</script>' } });
      const stream = new Blob([json]).stream().pipeThrough(new CompressionStream('deflate-raw'));
      const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
      return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    })}`,
  };
  for (const [what, fragment] of Object.entries(broken)) {
    const bad = await browser.newPage();
    const errors = [];
    bad.on('pageerror', (error) => errors.push(error.message));
    bad.on('dialog', (dialog) => { errors.push(`a dialog opened: ${dialog.message()}`); dialog.dismiss(); });
    await bad.goto(`${base}${fragment}`);
    await ready(bad);
    if (what === 'markup in a file name') {
      await waitFor('the shared files', () => bad.locator('[data-file="<img src=x onerror=alert(1)>.md"]').count());
      if (await bad.locator('#file-tabs img, #output img, #diagnostics img').count()) fail('markup from a shared file became an element');
    } else {
      const message = await bad.locator('#message').innerText();
      if (!(await bad.locator('#message').isVisible()) || !message.includes('could not be opened')) fail(`a link that is ${what} gave no message`);
      await waitFor(`the default sample after a link that is ${what}`, async () => (await paneText(bad, 'target:openai')).includes(`"${shopTools[0]}"`));
    }
    if (errors.length) fail(`a link that is ${what}: ${errors.join('; ')}`);
    await bad.close();
    pass(`a link that is ${what}: ${what === 'markup in a file name' ? 'shown as text' : 'a message, and the page works'}`);
  }

  // Keystroke -> diagnostics: a change dispatched in the page until the lint
  // state holds the new diagnostics, and until the next frame after it.
  await page.selectOption('#samples', 'shop-assistant');
  await waitFor('shop-assistant', async () => (await page.evaluate(() => window.agentcPlayground.files()['protocol.yaml'])).includes('Shop Assistant'));
  const timing = await page.evaluate(async () => {
    const { view } = window.agentcPlayground;
    const lintCount = () => window.agentcPlayground.diagnostics().filter((d) => d.message.startsWith('unknown-type')).length;
    const at = view.state.doc.toString().indexOf('    name: { type: string }') + '    name: { type: str'.length;
    const toState = [];
    const toFrame = [];
    const checks = [];
    for (let i = 0; i < 31; i++) {
      const breaking = i % 2 === 0; // delete the `i` of string, then type it again
      const t0 = performance.now();
      view.dispatch(breaking
        ? { changes: { from: at, to: at + 1 }, userEvent: 'delete.backward' }
        : { changes: { from: at, insert: 'i' }, userEvent: 'input.type' });
      while (lintCount() !== (breaking ? 1 : 0)) await new Promise((r) => setTimeout(r, 0));
      toState.push(performance.now() - t0);
      checks.push(window.agentcPlayground.lastCheckMs());
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      toFrame.push(performance.now() - t0);
    }
    return { toState, toFrame, checks, size: view.state.doc.length };
  });
  const stateMs = median(timing.toState);
  const frameMs = median(timing.toFrame);
  console.log(`figure - keystroke -> diagnostics in the lint state: median ${stateMs.toFixed(2)} ms over ${timing.toState.length} keystrokes (protocol.yaml of ${timing.size} characters; check of the whole folder, synchronous)`);
  console.log(`figure - of which agentc's check() of the folder: median ${median(timing.checks).toFixed(2)} ms`);
  console.log(`figure - keystroke -> next frame with them drawn: median ${frameMs.toFixed(2)} ms`);
  noProblems('at the end');
  await page.close();
}

async function main() {
  if (!existsSync(path.join(site, 'index.html'))) fail(`${site}/index.html is missing: run playground/build`);
  if (!existsSync(executablePath)) fail(`no Chromium at ${executablePath} (set AGENTC_CHROMIUM)`);
  const server = await serve(site);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const profile = await mkdtemp(path.join(tmpdir(), 'agentc-playground-'));
  let context;
  const outside = [];
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 1280, height: 800 },
    });
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(base)) return route.continue();
      outside.push(url);
      return route.abort();
    });
    await run(context, base);
    if (outside.length) fail(`the page asked for something off the local server: ${outside.slice(0, 5).join(', ')}`);
    pass('no request left the local server (the page works offline)');
    console.log(`screenshots: ${shots}`);
  } finally {
    await context?.close().catch(() => {});
    server.close();
    await rm(profile, { recursive: true, force: true });
  }
}

main().then(
  () => console.log('all browser checks passed'),
  (error) => {
    console.error(`FAILED: ${error instanceof Failure ? error.message : error?.stack ?? error}`);
    process.exit(1);
  },
);
