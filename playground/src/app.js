// agentc's playground: an agent folder in the browser, checked on every
// keystroke by @agentc/wasm, with its schemas, bindings, validation and
// contract diff beside it. Everything shown from the protocol goes through
// textContent (see el()), never innerHTML.
import { EditorView, basicSetup } from 'codemirror';
import { EditorState } from '@codemirror/state';
import { yaml } from '@codemirror/lang-yaml';
import { json } from '@codemirror/lang-json';
import { setDiagnostics, lintGutter, forEachDiagnostic } from '@codemirror/lint';
import { load, check, emit, generate, validate, diff, names as declared, about, AgentcError } from '@agentc/wasm';
import samples from 'agentc:samples';
import { toRange } from './positions.js';
import { encodeState, decodeState, isShared, fileNameProblem, MAX_FRAGMENT } from './share.js';
import './app.css';

const PROTOCOL = 'protocol.yaml';
const CONFIG = 'agentc.toml';
const DEFAULT_SAMPLE = 'shop-assistant';
const DEFAULT_OUTPUT = 'target:openai';
const LANG_LABELS = { ts: 'TypeScript', zod: 'zod', python: 'Python' };

// ---- small DOM helpers: text only ----

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key in node && key !== 'list') node[key] = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

const $ = (id) => document.getElementById(id);

function showMessage(text, kind = 'error') {
  const box = $('message');
  box.replaceChildren(el('span', { text }), el('button', { text: 'Dismiss', onclick: () => (box.hidden = true) }));
  box.className = kind;
  box.hidden = false;
}

// ---- the files ----

/** path -> EditorState (the active file's is the view's). */
const states = new Map();
/** path -> text, kept in step with `states`. */
const texts = new Map();
let active = PROTOCOL;
let sampleName = DEFAULT_SAMPLE;
let report = { diagnostics: [], summary: { files: 0, errors: 0, warnings: 0 } };
let view;

function languageFor(path) {
  if (/\.ya?ml$/i.test(path)) return [yaml()];
  if (/\.json$/i.test(path)) return [json()];
  return [];
}

function newState(path, text) {
  return EditorState.create({
    doc: text,
    extensions: [basicSetup, lintGutter(), EditorView.lineWrapping, languageFor(path)],
  });
}

function files() {
  return Object.fromEntries(texts);
}

/** The files as the package takes them: a tab named agentc.toml is the configuration. */
function workspace() {
  const all = files();
  if (!Object.hasOwn(all, CONFIG)) return { files: all };
  const config = all[CONFIG];
  delete all[CONFIG];
  return { files: all, config };
}

function sortedPaths() {
  // protocol.yaml first, then the others by name.
  return [...texts.keys()].sort((a, b) => (a === PROTOCOL ? -1 : b === PROTOCOL ? 1 : a < b ? -1 : a > b ? 1 : 0));
}

/** Replaces every file (a sample or a shared state). */
function setFiles(entries, activePath) {
  states.clear();
  texts.clear();
  for (const [path, text] of entries) {
    states.set(path, newState(path, text));
    texts.set(path, text);
  }
  active = states.has(activePath) ? activePath : PROTOCOL;
  view.setState(states.get(active));
  renderFileTabs();
  changed();
}

function switchTo(path) {
  if (!states.has(path)) return;
  states.set(active, view.state);
  active = path;
  view.setState(states.get(path));
  showDiagnosticsInEditor();
  renderFileTabs();
}

function addFile(name) {
  const problem = fileNameProblem(name);
  if (problem !== null) return problem;
  if (texts.has(name)) return `${name} is already a file`;
  if (texts.size >= 200) return 'at most 200 files';
  states.set(name, newState(name, ''));
  texts.set(name, '');
  switchTo(name);
  changed();
  view.focus();
  return null;
}

function removeFile(path) {
  if (path === PROTOCOL || !texts.has(path)) return;
  states.delete(path);
  texts.delete(path);
  if (active === path) {
    active = PROTOCOL;
    view.setState(states.get(PROTOCOL));
  }
  renderFileTabs();
  changed();
}

function renderFileTabs() {
  const bar = $('file-tabs');
  bar.replaceChildren();
  for (const path of sortedPaths()) {
    const tab = el('span', { class: path === active ? 'tab active' : 'tab' });
    tab.append(el('button', {
      class: 'tab-name', text: path, title: path, role: 'tab', 'aria-selected': String(path === active),
      'data-file': path, onclick: () => switchTo(path),
    }));
    if (path !== PROTOCOL) {
      tab.append(el('button', {
        class: 'tab-close', text: '×', title: `Remove ${path}`, 'aria-label': `Remove ${path}`,
        onclick: () => removeFile(path),
      }));
    }
    bar.append(tab);
  }
}

// ---- checking ----

function severity(s) {
  return s === 'error' ? 'error' : s === 'warning' ? 'warning' : 'info';
}

function diagnosticMessage(d) {
  return () => el('div', { class: 'lint-message' },
    el('strong', { text: d.code }), ' ', el('span', { text: d.message }),
    d.help ? el('div', { class: 'help', text: `help: ${d.help}` }) : null);
}

/** The report's diagnostics of the active file, as CodeMirror's. */
function editorDiagnostics(state) {
  const doc = state.doc;
  const out = [];
  for (const d of report.diagnostics) {
    if (d.file !== active) continue;
    const { from, to } = toRange(doc, d);
    out.push({
      from, to,
      severity: severity(d.severity),
      message: d.help ? `${d.code}: ${d.message}\nhelp: ${d.help}` : `${d.code}: ${d.message}`,
      renderMessage: diagnosticMessage(d),
      actions: d.fix ? [{ name: d.fix.title, apply: () => applyFix(d) }] : [],
    });
  }
  return out;
}

function showDiagnosticsInEditor() {
  view.dispatch(setDiagnostics(view.state, editorDiagnostics(view.state)));
}

let lastCheckMs = 0;

/** Checks the files as they are now into `report`. */
function checkNow() {
  try {
    const t0 = performance.now();
    report = check(workspace());
    lastCheckMs = performance.now() - t0;
  } catch (error) {
    report = { diagnostics: [], summary: { files: 0, errors: 0, warnings: 0 } };
    showMessage(String(error.message ?? error));
  }
}

function runCheck() {
  checkNow();
  showDiagnosticsInEditor();
  renderDiagnosticList();
}

/** Applies a fix's edits to the file of its diagnostic. */
function applyFix(d) {
  const path = d.file;
  if (!states.has(path)) return;
  const state = path === active ? view.state : states.get(path);
  const changes = d.fix.edits
    .map((edit) => ({ ...toRange(state.doc, edit), insert: edit.text }))
    .sort((a, b) => a.from - b.from);
  if (path === active) {
    view.dispatch({ changes, userEvent: 'input.fix' });
    view.focus();
  } else {
    const next = state.update({ changes }).state;
    states.set(path, next);
    texts.set(path, next.doc.toString());
    changed();
  }
}

function goTo(d) {
  if (!states.has(d.file)) return;
  if (d.file !== active) switchTo(d.file);
  const { from, to } = toRange(view.state.doc, d);
  view.dispatch({ selection: { anchor: from, head: to }, scrollIntoView: true });
  view.focus();
}

function renderDiagnosticList() {
  const list = $('diagnostic-list');
  const { errors, warnings } = report.summary;
  const infos = report.diagnostics.length - errors - warnings;
  $('summary').textContent = report.diagnostics.length === 0
    ? 'no problems'
    : `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}${infos > 0 ? `, ${infos} info` : ''}`;
  list.replaceChildren(...report.diagnostics.map((d) => diagnosticItem(d, states.has(d.file) ? () => goTo(d) : null, d.fix && states.has(d.file) ? () => applyFix(d) : null)));
}

/** One diagnostic as a list item: location, severity, code, message, help, a fix button. */
function diagnosticItem(d, onOpen, onFix) {
  const where = `${d.file}:${d.line}:${d.column}${d.pointer !== undefined ? ` ${d.pointer || '/'}` : ''}`;
  const item = el('li', { class: `diagnostic ${severity(d.severity)}`, 'data-code': d.code });
  const head = el('div', { class: 'head' },
    el('span', { class: 'severity', text: d.severity }), ' ',
    el('code', { class: 'code', text: d.code }), ' ',
    onOpen ? el('a', { href: '#', class: 'where', text: where, onclick: (e) => { e.preventDefault(); onOpen(); } })
      : el('span', { class: 'where', text: where }));
  item.append(head, el('div', { class: 'message', text: d.message }));
  if (d.help) item.append(el('div', { class: 'help', text: `help: ${d.help}` }));
  if (d.fix && onFix) {
    item.append(el('button', {
      class: 'fix', text: `Fix: ${d.fix.title}`, title: `${d.fix.applicability} fix`, onclick: onFix,
    }));
  }
  return item;
}

// ---- outputs ----

let info;
let output = DEFAULT_OUTPUT;
let outputTimer = null;
const panes = new Map();
let validateView;
let oldView;
let validateTarget = '';
let oldSeeded = false;

function outputTabs() {
  const tabs = [];
  for (const t of info.targets) tabs.push({ id: `target:${t.name}`, label: t.display });
  for (const lang of info.langs) tabs.push({ id: `lang:${lang}`, label: LANG_LABELS[lang] ?? lang });
  tabs.push({ id: 'validate', label: 'Validate' });
  tabs.push({ id: 'diff', label: 'Diff' });
  return tabs;
}

function renderOutputTabs() {
  const bar = $('output-tabs');
  bar.replaceChildren(...outputTabs().map((t) => el('button', {
    class: t.id === output ? 'tab-name active' : 'tab-name', text: t.label, role: 'tab',
    'aria-selected': String(t.id === output), 'data-output': t.id, onclick: () => selectOutput(t.id),
  })));
}

function selectOutput(id) {
  if (!outputTabs().some((t) => t.id === id)) id = DEFAULT_OUTPUT;
  output = id;
  for (const [key, pane] of panes) pane.hidden = key !== id;
  if (id === 'diff' && !oldSeeded) seedOld(texts.get(PROTOCOL) ?? '');
  renderOutputTabs();
  updateOutput();
}

function pane(id) {
  let node = panes.get(id);
  if (!node) {
    node = el('div', { class: 'pane', 'data-pane': id });
    node.hidden = id !== output;
    $('output').append(node);
    panes.set(id, node);
  }
  return node;
}

/** Diagnostics as a list; those in the agent folder's files link to their place. */
function reportList(diagnostics) {
  return el('ul', { class: 'diagnostics' }, ...diagnostics.map((d) => diagnosticItem(d, states.has(d.file) ? () => goTo(d) : null, null)));
}

function failure(error) {
  const box = el('div', { class: 'failure' }, el('p', { class: 'error-message', text: error.message ?? String(error) }));
  if (error instanceof AgentcError && error.report) box.append(reportList(error.report.diagnostics));
  return box;
}

function renderEmit(target) {
  const node = pane(`target:${target}`);
  try {
    const emitted = emit({ ...workspace(), path: PROTOCOL, target });
    const warnings = emitted.report.diagnostics;
    node.replaceChildren(...[
      warnings.length ? el('div', { class: 'warnings' }, el('h3', { text: `Warnings (${warnings.length})` }), reportList(warnings)) : null,
      Array.isArray(emitted.output) && emitted.output.length === 0
        ? el('p', { class: 'hint', text: 'This protocol declares no tools.' }) : null,
      el('pre', { class: 'output-text', text: emitted.text }),
    ].filter((child) => child !== null));
  } catch (error) {
    node.replaceChildren(failure(error));
  }
}

function renderGenerate(lang) {
  const node = pane(`lang:${lang}`);
  try {
    const generated = generate({ ...workspace(), path: PROTOCOL, lang });
    node.replaceChildren(...generated.files.flatMap((f) => [
      el('h3', { class: 'file-name', text: f.name }),
      el('pre', { class: 'output-text', text: f.text }),
    ]));
  } catch (error) {
    node.replaceChildren(failure(error));
  }
}

/** The protocol's tool and type names (what could be read of it while it has errors). */
function protocolNames() {
  try {
    return declared({ ...workspace(), path: PROTOCOL });
  } catch {
    return { tools: [], types: [], responses: [] };
  }
}

function buildValidatePane() {
  const node = pane('validate');
  const select = el('select', { id: 'validate-target', onchange: () => { validateTarget = select.value; renderValidate(); } });
  const holder = el('div', { class: 'small-editor', id: 'validate-data' });
  node.append(
    el('label', { class: 'row' }, el('span', { text: 'Validate against ' }), select),
    el('p', { class: 'hint', text: 'Paste a tool call\'s arguments (JSON), or choose a payload and paste it.' }),
    holder,
    el('div', { id: 'validate-result' }),
  );
  validateView = new EditorView({
    parent: holder,
    state: EditorState.create({ doc: '{}', extensions: validateExtensions(() => renderValidate()) }),
  });
}

function validateExtensions(onChange) {
  return [basicSetup, json(), EditorView.lineWrapping, EditorView.updateListener.of((u) => { if (u.docChanged) onChange(); })];
}

function renderValidateOptions() {
  const select = $('validate-target');
  const names = protocolNames();
  const options = [
    ...names.tools.map((n) => ({ value: `tool:${n}`, label: `tool ${n}` })),
    ...names.types.map((n) => ({ value: `type:${n}`, label: `type ${n}` })),
    ...info.payloads.map((p) => ({ value: `payload:${p.name}`, label: `payload ${p.name}`, title: p.summary })),
  ];
  if (validateTarget && !options.some((o) => o.value === validateTarget)) {
    options.unshift({ value: validateTarget, label: validateTarget.replace(':', ' ') });
  }
  if (!validateTarget && options.length) validateTarget = options[0].value;
  select.replaceChildren(...options.map((o) => el('option', { value: o.value, text: o.label, title: o.title ?? '' })));
  select.value = validateTarget;
}

function renderValidate() {
  const result = $('validate-result');
  if (!result) return;
  const [kind, ...rest] = validateTarget.split(':');
  const name = rest.join(':');
  if (!name) {
    result.replaceChildren(el('p', { text: 'Nothing to validate against: the protocol has no tools or types yet.' }));
    return;
  }
  try {
    const input = { ...workspace(), path: PROTOCOL, data: validateView.state.doc.toString(), name: 'data.json' };
    input[kind] = name;
    const verdict = validate(input);
    result.replaceChildren(verdict.diagnostics.length === 0
      ? el('p', { class: 'valid', text: `Valid: the data matches ${kind} ${name}.` })
      : reportList(verdict.diagnostics));
  } catch (error) {
    result.replaceChildren(failure(error));
  }
}

function buildDiffPane() {
  const node = pane('diff');
  const holder = el('div', { class: 'small-editor tall', id: 'diff-old' });
  node.append(
    el('div', { class: 'row' },
      el('span', { text: 'The old protocol.yaml (the editor\'s is the new one):' }),
      el('button', { text: 'Reset to the current text', onclick: () => seedOld(texts.get(PROTOCOL) ?? '') })),
    holder,
    el('h3', { text: 'Contract changes' }),
    el('div', { id: 'diff-result' }),
  );
  oldView = new EditorView({
    parent: holder,
    state: EditorState.create({ doc: '', extensions: [basicSetup, yaml(), EditorView.updateListener.of((u) => { if (u.docChanged) renderDiff(); })] }),
  });
}

function seedOld(text) {
  oldSeeded = true;
  oldView.dispatch({ changes: { from: 0, to: oldView.state.doc.length, insert: text } });
}

function renderDiff() {
  const result = $('diff-result');
  if (!result || !oldSeeded) return;
  try {
    const { files: old } = workspace();
    old[PROTOCOL] = oldView.state.doc.toString();
    const changes = diff({ ...workspace(), old, path: PROTOCOL });
    result.replaceChildren(changes.diagnostics.length === 0
      ? el('p', { class: 'valid', text: 'No contract changes.' })
      : reportList(changes.diagnostics));
  } catch (error) {
    result.replaceChildren(failure(error));
  }
}

function updateOutput() {
  clearTimeout(outputTimer);
  outputTimer = null;
  const [kind, name] = output.split(':');
  if (kind === 'target') renderEmit(name);
  else if (kind === 'lang') renderGenerate(name);
  else if (kind === 'validate') { renderValidateOptions(); renderValidate(); } else if (kind === 'diff') renderDiff();
}

/** After any change of the files: check now, the active output a moment later. */
function changed() {
  runCheck();
  scheduleOutput();
}

function scheduleOutput() {
  clearTimeout(outputTimer);
  outputTimer = setTimeout(updateOutput, 30);
}

// ---- share links and samples ----

function stateForLink() {
  return {
    v: 1,
    files: files(),
    active,
    output,
    sample: sampleName,
    validate: { target: validateTarget, data: validateView.state.doc.toString() },
    old: oldSeeded ? oldView.state.doc.toString() : undefined,
  };
}

async function share() {
  const fragment = await encodeState(stateForLink());
  if (fragment.length - "s=".length > MAX_FRAGMENT) {
    showMessage(`These files are too large for a link (${fragment.length} characters compressed; a link holds at most ${MAX_FRAGMENT}).`);
    return;
  }
  history.replaceState(null, '', `#${fragment}`);
  const link = $('share-link');
  link.value = location.href;
  link.hidden = false;
  link.select();
  try {
    await navigator.clipboard.writeText(location.href);
    $('share').textContent = 'Link copied';
  } catch {
    $('share').textContent = 'Link ready';
  }
  setTimeout(() => ($('share').textContent = 'Share link'), 2000);
}

function openSample(name) {
  const sample = samples.find((s) => s.name === name) ?? samples.find((s) => s.name === DEFAULT_SAMPLE) ?? samples[0];
  sampleName = sample.name;
  $('samples').value = sample.name;
  oldSeeded = false;
  validateTarget = '';
  setFiles(Object.entries(sample.files), PROTOCOL);
  if (output === 'diff') seedOld(texts.get(PROTOCOL) ?? '');
  if (validateView) validateView.dispatch({ changes: { from: 0, to: validateView.state.doc.length, insert: '{}' } });
}

/** Opens the share link in the URL's fragment, if there is one; `instead` says what is shown when it cannot be opened. */
async function openFragment(instead) {
  const fragment = location.hash.slice(1);
  if (!isShared(fragment)) return false;
  let state;
  try {
    state = await decodeState(fragment);
  } catch (error) {
    showMessage(`This share link could not be opened: ${error.message}. ${instead}`);
    return false;
  }
  $('message').hidden = true;
  sampleName = samples.some((s) => s.name === state.sample) ? state.sample : '';
  $('samples').value = sampleName;
  validateTarget = state.validate?.target ?? '';
  validateView.dispatch({ changes: { from: 0, to: validateView.state.doc.length, insert: state.validate?.data ?? '{}' } });
  oldSeeded = false;
  setFiles(state.files, state.active);
  if (state.old !== undefined) seedOld(state.old);
  selectOutput(state.output ?? DEFAULT_OUTPUT);
  return true;
}

function buildHeader() {
  $('version').textContent = `v${info.version}`;
  const select = $('samples');
  select.replaceChildren(
    el('option', { value: '', text: '(edited)', disabled: true }),
    ...samples.map((s) => el('option', { value: s.name, text: s.name })),
  );
  select.addEventListener('change', () => { if (select.value) openSample(select.value); });
  $('share').addEventListener('click', () => {
    share().catch((error) => showMessage(`Could not make a link: ${error.message ?? error}`));
  });
  const form = $('add-file');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const input = $('new-file');
    const problem = addFile(input.value.trim());
    if (problem) showMessage(problem);
    else input.value = '';
  });
}

// ---- start ----

async function start() {
  try {
    await load(new URL('./agentc_wasm_bg.wasm', import.meta.url));
  } catch (error) {
    showMessage(`agentc could not be loaded: ${error.message ?? error}`);
    return;
  }
  info = about();
  buildHeader();
  view = new EditorView({
    parent: $('editor'),
    state: newState(PROTOCOL, ''),
    // An edit is checked before the view updates, and its diagnostics go
    // in with it: one update of the view per keystroke.
    dispatchTransactions(transactions, v) {
      if (!transactions.some((tr) => tr.docChanged)) {
        v.update(transactions);
        return;
      }
      const next = transactions[transactions.length - 1].state;
      texts.set(active, next.doc.toString());
      checkNow();
      v.update([...transactions, next.update(setDiagnostics(next, editorDiagnostics(next)))]);
      states.set(active, v.state);
      renderDiagnosticList();
      scheduleOutput();
    },
  });
  buildValidatePane();
  buildDiffPane();
  renderOutputTabs();
  for (const t of outputTabs()) pane(t.id);
  if (!(await openFragment(`The ${DEFAULT_SAMPLE} example is shown instead.`))) {
    openSample(DEFAULT_SAMPLE);
    selectOutput(DEFAULT_OUTPUT);
  }
  window.addEventListener('hashchange', () => { openFragment('The files are as they were.'); });
  document.body.dataset.ready = 'true';
}

// For the browser tests (playground/tests/browser.mjs): read-only views of the state.
window.agentcPlayground = {
  get view() { return view; },
  files: () => files(),
  active: () => active,
  output: () => output,
  report: () => report,
  /** How long the last check() call took, in milliseconds. */
  lastCheckMs: () => lastCheckMs,
  diagnostics: () => {
    const out = [];
    forEachDiagnostic(view.state, (d, from, to) => out.push({ from, to, text: view.state.sliceDoc(from, to), message: d.message }));
    return out;
  },
};

start();
