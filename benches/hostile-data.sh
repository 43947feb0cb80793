#!/usr/bin/env bash
# Writes the hostile inputs of docs/performance.md ("Data, configuration and
# event streams") to a scratch folder, each at two sizes, and times the
# release binary on each, as a Markdown table: seconds (wall and user), max
# RSS, max RSS per byte of input, exit code. Needs python3 and GNU time.
#   CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
#     cargo build --release && benches/hostile-data.sh [SCRATCH]
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
A="${AGENTC:-$root/target/release/agentc}"
mkdir -p "${1:-/tmp/agentc-hostile-data}" && cd "${1:-/tmp/agentc-hostile-data}" || exit 2
python3 - <<'PY'
import os, string
MiB = 1024 * 1024
def w(name, text):
    os.makedirs(os.path.dirname(name) or '.', exist_ok=True)
    open(name, 'w').write(text)
# agentc.toml: complex globs, past the limit and at it.
for n in (50000, 200000):
    w('globs-%d/agentc.toml' % n, 'exclude = [' + ','.join('"a%d*b?c[0-9]/**/d{e,f}*"' % i for i in range(n)) + ']\n')
    w('globs-%d/protocol.yaml' % n, 'types:\n  A:\n    x: {type: string}\n')
for n, name in ((500, 'globs-at-limit-half'), (1000, 'globs-at-limit')):
    both = ','.join('"%d%s"' % (i, '*?' * 126) for i in range(n))
    w(name + '/agentc.toml', 'include = [' + both + ']\nexclude = [' + both + ']\n')
    w(name + '/protocol.yaml', 'types:\n  A:\n    x: {type: string}\n')
# Enums: one enum of millions of values (past the limit), and files of
# enums at the limit, repeating one value or all distinct.
head = 'types:\n  T:\n    v: { type: string, enum: ['
for size in (4, 16):
    n = size * MiB - 200
    w('enum-one-%dm.yaml' % size, head + ','.join(['a'] * ((n - len(head)) // 2)) + '] }\n')
    line = '    f%d: { type: string, enum: [' + ','.join(['a'] * 100000) + '] }\n'
    out = ['types:\n  T:\n']; total = len(out[0]); i = 0
    while total + len(line % i) < n:
        out.append(line % i); total += len(line % i); i += 1
    w('enums-repeated-%dm.yaml' % size, ''.join(out))
    digits = string.ascii_lowercase + string.digits
    def name(k):
        s = digits[k % 26]; k //= 26
        while k:
            s += digits[k % 36]; k //= 36
        return s
    line = '    f%d: { type: string, enum: [' + ','.join(name(k) for k in range(100000)) + '] }\n'
    out = ['types:\n  T:\n']; total = len(out[0]); i = 0
    while total + len(line % i) < n:
        out.append(line % i); total += len(line % i); i += 1
    w('enums-distinct-%dm.yaml' % size, ''.join(out))
w('enum-data.json', '{"v": "nope", "f0": "nope"}')
# Event streams, each shape at two sizes.
for size in (4, 16):
    n = size * MiB - 100
    def fill(name, event):
        w('%s-%dm.sse' % (name, size), event * max(1, n // len(event)))
    fill('sse-nested-arrays', 'data: [[[[[[[[[[]]]]]]]]]]\n\n')
    fill('sse-empty-arrays', 'data: [' + ','.join(['[]'] * (MiB // 3)) + ']\n\n')
    fill('sse-deep', 'data: {"event":"text","text":' + '[' * 120 + ']' * 120 + '}\n\n')
    fill('sse-wide', 'data: {' + ','.join('"k%d":0' % i for i in range(20000)) + '}\n\n')
    fill('sse-long-strings', 'data: {"event":"text","text":"' + 'x' * MiB + '"}\n\n')
    fill('sse-small-events', 'data: {"event":"text_delta","delta":"hi"}\n\n')
    fill('sse-multiline', 'data: [\n' + 'data: [],\n' * 100000 + 'data: []]\n\n')
    # The largest event there may be (4 MiB of data), then small ones.
    big = 'data: [' + ','.join(['[]'] * ((4 * MiB - 100) // 3)) + ']\n\n'
    small = 'data: {"event":"text_delta","delta":"hi"}\n\n'
    w('sse-one-large-event-%dm.sse' % size, big + small * max(0, (n - len(big)) // len(small)))
    fill('sse-duplicate-keys', 'data: {' + ','.join(['"a":0'] * 100000) + '}\n\n')
PY
row() { # row NAME INPUT COMMAND...
  local name=$1 input=$2; shift 2
  /usr/bin/time -f "%e %U %M" -o t timeout 120 "$@" --format json >/dev/null 2>err; rc=$?
  read s u kb < <(tail -1 t)
  local bytes; bytes=$(stat -c %s "$input")
  echo "| $name | $((bytes / 1024)) KiB | $s s | $u s | $((kb / 1024)) MB | $((kb * 1024 / bytes)) | $rc |"
}
echo "| input | size | wall | user | max RSS | RSS / input byte | exit |"
echo "|---|---|---|---|---|---|---|"
for d in globs-50000 globs-200000 globs-at-limit-half globs-at-limit; do
  row "$d/agentc.toml" $d/agentc.toml $A check $d
done
for f in enum-one-4m enum-one-16m enums-repeated-4m enums-repeated-16m enums-distinct-4m enums-distinct-16m; do
  row "$f.yaml (validate)" $f.yaml $A validate $f.yaml --type T enum-data.json
done
for f in sse-one-large-event sse-nested-arrays sse-empty-arrays sse-deep sse-wide sse-long-strings sse-small-events sse-multiline sse-duplicate-keys; do
  for size in 4 16; do
    row "$f-${size}m.sse" $f-${size}m.sse $A validate aap events $f-${size}m.sse
  done
done
