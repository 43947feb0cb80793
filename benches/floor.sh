#!/usr/bin/env bash
# The check against the YAML parser's floor, in instructions (callgrind's
# totals over the whole process, which load does not change): `agentc
# check` of a synthetic protocol of 1k and 10k types and of the example
# agent folder's protocol, beside `examples/floor.rs` (saphyr-parser's
# event loop over the same text, and nothing else) and `agentc --version`.
# Both binaries are built with the `bench` profile, `dist`'s code
# generation. Needs valgrind. docs/performance.md, "The parser at its
# floor", has the results.
#   benches/floor.sh [SCRATCH]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="${1:-/tmp/agentc-floor}"
mkdir -p "$scratch"
cd "$root"
cargo build -q --profile bench --bin agentc --example floor --example synthetic
bin="$root/target/release"
"$bin/examples/synthetic" types 1000 > "$scratch/types-1k.yaml"
"$bin/examples/synthetic" types 10000 > "$scratch/types-10k.yaml"
agent="$root/protocols/shop-assistant/protocol.yaml"

# Instructions of one run of a command.
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

# What starting each process costs, with nothing read.
version=$(count "$bin/agentc" --version)
started=$(count "$bin/examples/floor")
echo "| input | check | floor | check / floor | past start-up: (check − --version) / (floor − its start) |"
echo "|---|---|---|---|---|"
for input in "$scratch/types-1k.yaml" "$scratch/types-10k.yaml" "$agent"; do
    check=$(count "$bin/agentc" check "$input")
    floor=$(count "$bin/examples/floor" "$input")
    awk -v name="$(basename "$(dirname "$input")")/$(basename "$input")" \
        -v c="$check" -v f="$floor" -v v="$version" -v s="$started" 'BEGIN {
        printf "| %s | %d | %d | %.2fx | %.2fx |\n", name, c, f, c / f, (c - v) / (f - s)
    }'
done
echo
echo "agentc --version: $version instructions; the floor with no file: $started"
