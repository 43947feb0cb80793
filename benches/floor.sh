#!/usr/bin/env bash
# The check against the YAML parser's floor, in instructions (callgrind's
# totals over the whole process, which load does not change): `agentc
# check` of a synthetic protocol of 1k and 10k types and of the example
# agent folder's protocol, beside `examples/floor.rs` (saphyr-parser's
# event loop over the same text, and nothing else) and `agentc --version`.
# The floor is built twice: against saphyr-parser 0.3.3 as published on
# crates.io (`benches/floor-published`, the bare event loop of issue 37's
# target; needs the crates.io registry the first time) and against
# agentc's patched copy (`vendor/saphyr-parser`), whose gains are then in
# both columns, so what is left past it is agentc's own work. Every binary
# is built with the `bench` profile, `dist`'s code generation. Needs
# valgrind. docs/performance.md, "The parser at its floor", has the
# results.
#   benches/floor.sh [SCRATCH]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="${1:-/tmp/agentc-floor}"
mkdir -p "$scratch"
cd "$root"
cargo build -q --profile bench --bin agentc --example floor --example synthetic
cargo build -q --release --locked --manifest-path benches/floor-published/Cargo.toml \
    --target-dir "$root/target/floor-published"
bin="$root/target/release"
published="$root/target/floor-published/release/floor-published"
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
echo "| input | \`agentc check\` | floor, saphyr-parser 0.3.3 | check / it | floor, agentc's copy | check / it | past start-up |"
echo "|---|---|---|---|---|---|---|"
for input in "$scratch/types-1k.yaml" "$scratch/types-10k.yaml" "$agent"; do
    # Both parsers read the same events, or the columns compare nothing.
    if [ "$("$published" "$input")" != "$("$bin/examples/floor" "$input")" ]; then
        echo "the two floors read $input differently" >&2
        exit 1
    fi
    check=$(count "$bin/agentc" check "$input")
    bare=$(count "$published" "$input")
    floor=$(count "$bin/examples/floor" "$input")
    awk -v name="$(basename "$(dirname "$input")")/$(basename "$input")" \
        -v c="$check" -v b="$bare" -v f="$floor" -v v="$version" -v s="$started" 'BEGIN {
        printf "| %s | %d | %d | %.2fx | %d | %.2fx | %.2fx |\n", name, c, b, c / b, f, c / f, (c - v) / (f - s)
    }'
done
echo
echo "agentc --version: $version instructions; the floor with no file: $started"
echo "past start-up: (check − --version) / (floor − its start), against agentc's copy"
