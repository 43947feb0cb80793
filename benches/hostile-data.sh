#!/usr/bin/env bash
# Writes the hostile inputs of docs/performance.md ("Data, configuration and
# event streams") to a scratch folder, each at two sizes, and times the
# release binary on each, as a Markdown table: seconds (wall and user), max
# RSS, max RSS per byte of input, exit code. The cases: agentc.toml globs
# (a check, and a language-server session of 200 edits), enums (validate,
# gen in all three languages, emit), gen over many properties and many
# types (each language), event streams, and data against a protocol.
# RUNS=N keeps the quickest of N runs of each (on a busy machine). Needs
# python3 and GNU time.
#   cargo build --release && RUNS=3 benches/hostile-data.sh [SCRATCH]
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
# gen: one type of many properties, and a chain of many types, ten times
# apart (200,000 properties is 15 MiB, under the file limit).
for n in (20000, 200000):
    w('props-%d.yaml' % n, 'types:\n  Big:\n' + ''.join(
        '    p%d: { type: integer, optional: true, description: "property %d" }\n' % (i, i)
        for i in range(n)))
    w('types-%d.yaml' % n, 'types:\n' + ''.join(
        '  T%d:\n    next: { type: T%d, optional: true }\n' % (i, i + 1) for i in range(n))
      + '  T%d:\n    last: { type: string }\n' % n)
# Event streams of distinct tool calls: the state a stream keeps per call.
for size in (4, 16):
    n = size * MiB - 100
    call = 'data: {"event":"tool_call","toolCallId":"call-%08d","name":"t","input":{}}\n\n'
    w('sse-tool-calls-%dm.sse' % size, ''.join(call % i for i in range(n // len(call % 0))))
# A language-server session: open the protocol beside the agentc.toml,
# then edit it, each edit followed by a hover (answered in order, so the
# edit was checked); prints wall and user seconds and max RSS (KB) of the
# server, as GNU time's "%e %U %M", and exits with the server's code.
w('lsp-session.py', r"""
import json, os, subprocess, sys, time
agentc, folder, edits = sys.argv[1], sys.argv[2], int(sys.argv[3])
path = os.path.abspath(os.path.join(folder, 'protocol.yaml'))
uri = 'file://' + path
text = open(path).read()
start = time.time()
server = subprocess.Popen([agentc, 'lsp'], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def send(message):
    body = json.dumps(message).encode()
    server.stdin.write(b'Content-Length: %d\r\n\r\n' % len(body) + body)
    server.stdin.flush()
def receive():
    length = 0
    while True:
        line = server.stdout.readline()
        if not line:
            sys.exit('the server closed its output')
        if line in (b'\r\n', b'\n'):
            break
        if line.lower().startswith(b'content-length:'):
            length = int(line.split(b':')[1])
    return json.loads(server.stdout.read(length))
def request(id, method, params):
    send({'jsonrpc': '2.0', 'id': id, 'method': method, 'params': params})
    while True:
        message = receive()
        if message.get('id') == id and 'method' not in message:
            return message
def notify(method, params):
    send({'jsonrpc': '2.0', 'method': method, 'params': params})
request(0, 'initialize', {'processId': None, 'rootUri': None, 'capabilities': {}})
notify('initialized', {})
notify('textDocument/didOpen', {'textDocument': {'uri': uri, 'languageId': 'yaml', 'version': 1, 'text': text}})
for i in range(edits):
    edited = text.replace('A:', 'A%d:' % i)
    notify('textDocument/didChange', {'textDocument': {'uri': uri, 'version': i + 2},
                                      'contentChanges': [{'text': edited}]})
    request(i + 1, 'textDocument/hover', {'textDocument': {'uri': uri}, 'position': {'line': 0, 'character': 0}})
request(edits + 1, 'shutdown', None)
notify('exit', None)
server.stdin.close()
_, status, usage = os.wait4(server.pid, 0)
print('%.2f %.2f %d' % (time.time() - start, usage.ru_utime, usage.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status))
""")
PY
best() { # best COMMAND...: runs it $RUNS times (default 1), keeping in ./t
  # the "%e %U %M" it wrote to ./t1 for the run of least wall time
  local i wall least=
  for ((i = 0; i < ${RUNS:-1}; i++)); do
    "$@"; rc=$?
    wall=$(tail -1 t1 | awk '{ printf "%d", $1 * 100 }')
    if [[ -z $least ]] || ((wall < least)); then least=$wall; cp t1 t; fi
  done
}
timed() { # timed COMMAND...: GNU time's "%e %U %M" of the command, in ./t1
  /usr/bin/time -f "%e %U %M" -o t1 timeout 120 "$@" >/dev/null 2>err
}
lsp() { # lsp FOLDER: a language-server session of 200 edits, timed in ./t1
  timeout 120 python3 lsp-session.py "$A" "$1" 200 >t1 2>err
}
row() { # row NAME INPUT COMMAND...
  local name=$1 input=$2; shift 2
  best timed "$@"
  report "$name" "$input"
}
report() { # report NAME INPUT: the row of the times in ./t
  local s u kb bytes
  read -r s u kb < <(tail -1 t)
  bytes=$(stat -c %s "$2")
  echo "| $1 | $((bytes / 1024)) KiB | $s s | $u s | $((kb / 1024)) MB | $((kb * 1024 / bytes)) | $rc |"
}
echo "| input | size | wall | user | max RSS | RSS / input byte | exit |"
echo "|---|---|---|---|---|---|---|"
for d in globs-50000 globs-200000 globs-at-limit-half globs-at-limit; do
  row "$d/agentc.toml" $d/agentc.toml $A check $d --format json
done
# The language server builds a configuration once per content: 200 edits
# cost about one build (rebuilt per edit, they would take minutes).
for d in globs-at-limit-half globs-at-limit; do
  best lsp $d
  report "$d/agentc.toml (language server, 200 edits)" $d/agentc.toml
done
for f in enum-one-4m enum-one-16m enums-repeated-4m enums-repeated-16m enums-distinct-4m enums-distinct-16m; do
  row "$f.yaml (validate)" $f.yaml $A validate $f.yaml --type T enum-data.json --format json
  row "$f.yaml (gen ts,zod,python)" $f.yaml $A gen $f.yaml --stdout --lang ts,zod,python --format json
  row "$f.yaml (emit)" $f.yaml $A emit $f.yaml --type T
done
for lang in ts zod python; do
  for f in props-20000 props-200000 types-20000 types-200000; do
    row "$f.yaml (gen $lang)" $f.yaml $A gen $f.yaml --stdout --lang $lang --format json
  done
done
for f in sse-one-large-event sse-nested-arrays sse-empty-arrays sse-deep sse-wide sse-long-strings sse-small-events sse-multiline sse-duplicate-keys sse-tool-result sse-tool-call sse-tool-calls; do
  for size in 4 16; do
    row "$f-${size}m.sse" $f-${size}m.sse $A validate aap events $f-${size}m.sse --format json
  done
done
row "union-chain.json (validate)" union-chain.json $A validate union-chain.yaml --type U0 union-chain.json --format json
row "union-items-4m.json (validate)" union-items-4m.json $A validate union.yaml --type T union-items-4m.json --format json
row "union-items-16m.jsonl (validate)" union-items-16m.jsonl $A validate union.yaml --type T union-items-16m.jsonl --lines --format json
for size in 4 16; do
  row "nested-${size}m.jsonl (validate)" nested-${size}m.jsonl $A validate union.yaml --type N nested-${size}m.jsonl --lines --format json
done
row "run-input-4m.json (validate run-input)" run-input-4m.json $A validate run-input run-input-4m.json --format json
row "run-input-16m.jsonl (validate run-input)" run-input-16m.jsonl $A validate run-input run-input-16m.jsonl --lines --format json
row "turn-reply-4m.json (validate aap)" turn-reply-4m.json $A validate aap post-session-turn-response turn-reply-4m.json --format json
row "turn-reply-16m.jsonl (validate aap)" turn-reply-16m.jsonl $A validate aap post-session-turn-response turn-reply-16m.jsonl --lines --format json
