// The share link: the playground's state as JSON, compressed with the
// browser's CompressionStream('deflate-raw'), in base64url after `#s=`. No
// server sees it. Decoding is guarded: a fragment that is too long, not
// base64url, not deflate, too large once inflated, not JSON or not the
// shape below is refused with a message.

export const MAX_FRAGMENT = 512 * 1024; // characters of base64url
export const MAX_INFLATED = 4 * 1024 * 1024; // bytes of JSON
export const MAX_FILES = 200;
const PREFIX = 's=';

function toBase64url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error('the link is not base64url');
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  let binary;
  try {
    binary = atob(padded);
  } catch {
    throw new Error('the link is not base64url');
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function readAll(stream, limit) {
  const reader = stream.getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new Error(`the shared state is larger than ${limit / (1024 * 1024)} MiB`);
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}

/** The fragment (without `#`) for a state. */
export async function encodeState(state) {
  const json = new TextEncoder().encode(JSON.stringify(state));
  const stream = new Blob([json]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return PREFIX + toBase64url(await readAll(stream, Infinity));
}

/** Whether a fragment (without `#`) is a share link's. */
export function isShared(fragment) {
  return fragment.startsWith(PREFIX);
}

function check(condition, what) {
  if (!condition) throw new Error(`the shared state is not a playground's: ${what}`);
}

/** A file's name as the playground takes it: relative, `/` between folders, no `.` or `..` part. */
export function fileNameProblem(name) {
  if (typeof name !== 'string' || name.length === 0) return 'a file needs a name';
  if (name.length > 200) return 'a file name is at most 200 characters';
  if (name.startsWith('/') || name.includes('\\')) return 'a file name is relative, with `/` between folders';
  if (name.split('/').some((part) => part === '' || part === '.' || part === '..')) {
    return 'a file name has no empty, `.` or `..` part';
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'a file name has no control characters';
  return null;
}

/** The state a fragment holds; throws an Error saying why when it holds none. */
export async function decodeState(fragment) {
  check(isShared(fragment), 'no `s=`');
  const data = fragment.slice(PREFIX.length);
  if (data.length > MAX_FRAGMENT) throw new Error(`the link is longer than ${MAX_FRAGMENT} characters`);
  const bytes = fromBase64url(data);
  let inflated;
  try {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
    inflated = await readAll(stream, MAX_INFLATED);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('the shared state is larger')) throw error;
    throw new Error('the link is not a compressed playground state');
  }
  let state;
  try {
    state = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(inflated));
  } catch {
    throw new Error('the link does not hold JSON');
  }
  check(state !== null && typeof state === 'object' && !Array.isArray(state), 'not an object');
  check(state.v === 1, 'an unknown version');
  const files = state.files;
  check(files !== null && typeof files === 'object' && !Array.isArray(files), 'no files');
  const names = Object.keys(files);
  check(names.length > 0 && names.length <= MAX_FILES, `between 1 and ${MAX_FILES} files`);
  check(Object.hasOwn(files, 'protocol.yaml'), 'no protocol.yaml');
  // Entries, not an object: a file may be called `__proto__`.
  const entries = [];
  for (const name of names) {
    const problem = fileNameProblem(name);
    check(problem === null, problem);
    check(typeof files[name] === 'string', `${JSON.stringify(name)} is not text`);
    entries.push([name, files[name]]);
  }
  const text = (value) => (typeof value === 'string' && value.length <= MAX_INFLATED ? value : undefined);
  return {
    files: entries,
    active: text(state.active),
    output: text(state.output),
    sample: text(state.sample),
    validate: state.validate && typeof state.validate === 'object'
      ? { target: text(state.validate.target), data: text(state.validate.data) }
      : undefined,
    old: text(state.old),
  };
}
