#!/usr/bin/env bash
# Writes each hostile input of docs/performance.md ("Hostile input") to a
# scratch folder and times the release binary on it in every format, as a
# Markdown table: seconds, max RSS and exit code. Needs python3 and GNU time.
#   cargo build --release && benches/hostile.sh [SCRATCH]
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
A="${AGENTC:-$root/target/release/agentc}"
mkdir -p "${1:-/tmp/agentc-hostile}" && cd "${1:-/tmp/agentc-hostile}" || exit 2
python3 - <<'PY'
import os
MiB=1024*1024
n=16*MiB-100
def w(name, text): open(name,'w').write(text)
w('long-line.yaml', 'types:\n  T:\n    a: { description: "' + 'x'*70000 + '", type: strng }\n')
w('wide-line.yaml', 'types:\n  T:\n    a: { description: "' + '漢'*300000 + '", type: strng }\n')
w('long-name.yaml', 'types:\n  T:\n    a: { type: ' + 'S'*(MiB-100) + ' }\n')
w('dup-400k.yaml', 'types:\n  T:\n' + '    a: { type: string }\n'*400000)
w('types-1m.yaml', 'types: {}\n'*1000000)
w('ignores-200k.yaml', 'types:\n  T:\n' + '    # agentc-ignore: unknown-type x\n'*200000 + '    a: { type: strng }\n')
w('flow-list-16m.yaml', '[' + '1,'*((n-2)//2) + '1]\n')
w('flow-map-16m.yaml', '{' + 'a,'*((n-2)//2) + 'a}\n')
w('keys-16m.yaml', 'a:\n'*(n//3))
parts=[]; size=2; i=0
while size < n:
    k='k%d,'%i; parts.append(k); size+=len(k); i+=1
w('distinct-keys-16m.yaml', '{'+''.join(parts)+'z}\n')
parts=[]; size=0; i=0
while size < n:
    k='  T%d: {a: {type: strng}}\n'%i; parts.append(k); size+=len(k); i+=1
w('unknown-types-16m.yaml', 'types:\n'+''.join(parts))
w('lines-16m.jsonl', '{}\n'*(n//3))
w('array-4m.json', '['+'1,'*(2*MiB-10)+'1]')
# Indentation mistakes (docs/codes/yaml-syntax.md), each repeated to the
# limit, and a valid file of the same shape with one mistake at its end
# (the text is parsed twice) or none.
def fill(name, head, unit, tail=''):
    parts=[head]; size=len(head)+len(tail); i=0
    while True:
        part=unit(i)
        if size+len(part) > n: break
        parts.append(part); size+=len(part); i+=1
    parts.append(tail); w(name, ''.join(parts))
types=lambda i: '  T%d:\n    id:\n      type: string\n'%i
fill('indent-deep-16m.yaml', 'types:\n', lambda i: types(i)+'     total:\n      type: number\n')
fill('indent-under-value-16m.yaml', 'types:\n', lambda i: types(i)+'        description: x\n')
fill('indent-tab-lines-16m.yaml', 'types:\n', lambda i: types(i)+'\ttotal:\n      type: number\n')
fill('indent-tabs-16m.yaml', 'types:\n', lambda i: '\tT%d:\n\t\tid:\n\t\t\ttype: string\n'%i)
fill('indent-items-16m.yaml', 'agent:\n  tools:\n', lambda i: '    - t%d\n   - u%d\n'%(i,i))
fill('indent-last-16m.yaml', 'types:\n', types, '  Z:\n    a:\n      type: string\n     b: 1\n')
fill('indent-none-16m.yaml', 'types:\n', types)
os.makedirs('toml',exist_ok=True)
w('toml/agentc.toml', 'exclude = ["' + 'a'*100000 + '", 5]\n')
w('toml/p.yaml', 'types:\n  A:\n    x: {type: string}\n')
PY
P="$root/protocols/shop-assistant/protocol.yaml"
row() { # row NAME COMMAND...
  local name=$1; shift
  local line="| $name |"
  for fmt in human json sarif short github; do
    /usr/bin/time -f "%e %M" -o t timeout 60 "$@" --format $fmt >/dev/null 2>err; rc=$?
    read s kb < <(tail -1 t)
    line="$line $s s, $((kb/1024)) MB, exit $rc |"
  done
  echo "$line"
}
echo "| input | human | json | sarif | short | github |"
echo "|---|---|---|---|---|---|"
for f in long-line wide-line long-name dup-400k types-1m ignores-200k flow-list-16m flow-map-16m keys-16m distinct-keys-16m unknown-types-16m \
  indent-deep-16m indent-under-value-16m indent-tab-lines-16m indent-tabs-16m indent-items-16m indent-last-16m indent-none-16m; do
  row "$f.yaml" $A check $f.yaml
done
row "agentc.toml with a 100,000-character line" $A check toml
row "lines-16m.jsonl (5.6M invalid values)" $A validate $P --type Product lines-16m.jsonl --lines
row "array-4m.json (2M invalid items)" $A validate $P --type Product array-4m.json
