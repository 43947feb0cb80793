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
    # A tool result whose content is 1 MiB of wrong blocks, and a valid
    # tool call whose input is a list of numbers (4 MiB each, the most).
    fill('sse-tool-result', 'data: {"event":"tool_result","toolCallId":"c","content":['
         + ','.join(['[]'] * (MiB // 3)) + ']}\n\n')
    fill('sse-tool-call', 'data: {"event":"tool_call","toolCallId":"c","name":"t","input":{"v":['
         + ','.join(['1'] * ((4 * MiB - 200) // 2)) + ']}}\n\n')
# Data against a protocol: one value may be 4 MiB, so the 16 MiB files are
# JSON Lines of four. A list of wrong union items, objects nested 120 deep,
# a RunAgentInput of a million messages, an AAP turn reply of wrong blocks.
w('union.yaml', 'types:\n  A:\n    kind: { type: string, const: a }\n    x: { type: string }\n'
  '  B:\n    kind: { type: string, const: b }\n    y: { type: number }\n'
  '  U:\n    anyOf: [A, B]\n    discriminator: kind\n  T:\n    items: { type: "U[]" }\n'
  '  N:\n    a: { type: string }\n')
one = 4 * MiB - 100
union_items = '{"items":[' + ','.join(['{}'] * ((one - 20) // 3)) + ']}'
nested = '{"a":' * 120 + '1' + '}' * 120
message = '{"id":"m","role":"user","content":"hi"}'
run_input = ('{"threadId":"t","runId":"r","state":{},"messages":['
             + ','.join([message] * ((one - 200) // (len(message) + 1))) + '],"tools":[],"context":[]}')
block = '{"role":"assistant","content":[{"type":"txet","text":1}]}'
reply = '{"messages":[' + ','.join([block] * ((one - 100) // (len(block) + 1))) + '],"stopReason":"end_turn"}'
for name, value in (('union-items', union_items), ('run-input', run_input), ('turn-reply', reply)):
    w('%s-4m.json' % name, value)
    w('%s-16m.jsonl' % name, (value + '\n') * 4)
for size in (4, 16):
    w('nested-%dm.jsonl' % size, (nested + '\n') * ((size * MiB - 100) // (len(nested) + 1)))
# Unions nested 20 deep, and one value that takes the first branch of each.
out = ['types:']
for i in range(20):
    nxt = 'U%d' % (i + 1) if i < 19 else 'string'
    for variant, tag in (('A', 'a'), ('B', 'b')):
        out.append('  %s%d:\n    kind: { type: string, const: %s }\n    v: { type: %s }' % (variant, i, tag, nxt))
    out.append('  U%d:\n    anyOf: [A%d, B%d]\n    discriminator: kind' % (i, i, i))
w('union-chain.yaml', '\n'.join(out) + '\n')
w('union-chain.json', '{"kind":"a","v":' * 20 + '1' + '}' * 20)
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
for f in sse-one-large-event sse-nested-arrays sse-empty-arrays sse-deep sse-wide sse-long-strings sse-small-events sse-multiline sse-duplicate-keys sse-tool-result sse-tool-call; do
  for size in 4 16; do
    row "$f-${size}m.sse" $f-${size}m.sse $A validate aap events $f-${size}m.sse
  done
done
row "union-chain.json (validate)" union-chain.json $A validate union-chain.yaml --type U0 union-chain.json
row "union-items-4m.json (validate)" union-items-4m.json $A validate union.yaml --type T union-items-4m.json
row "union-items-16m.jsonl (validate)" union-items-16m.jsonl $A validate union.yaml --type T union-items-16m.jsonl --lines
for size in 4 16; do
  row "nested-${size}m.jsonl (validate)" nested-${size}m.jsonl $A validate union.yaml --type N nested-${size}m.jsonl --lines
done
row "run-input-4m.json (validate run-input)" run-input-4m.json $A validate run-input run-input-4m.json
row "run-input-16m.jsonl (validate run-input)" run-input-16m.jsonl $A validate run-input run-input-16m.jsonl --lines
row "turn-reply-4m.json (validate aap)" turn-reply-4m.json $A validate aap post-session-turn-response turn-reply-4m.json
row "turn-reply-16m.jsonl (validate aap)" turn-reply-16m.jsonl $A validate aap post-session-turn-response turn-reply-16m.jsonl --lines
