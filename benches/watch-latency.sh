#!/usr/bin/env bash
# How long `agentc check --watch` takes from a save to its report, and the
# CPU it uses while nothing changes: an agent folder `agentc init` writes,
# saved 10 times as many editors save (a new file renamed over the
# protocol). Needs python3 and Linux (/proc).
#   cargo build --release && benches/watch-latency.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
A="$(realpath "${AGENTC:-$root/target/release/agentc}")"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
"$A" init bot --template worker >/dev/null
cd bot
python3 - "$A" <<'PY'
import os, signal, subprocess, sys, threading, time
p = subprocess.Popen(["sh", "-c", 'exec "$0" check --watch 2>&1', sys.argv[1]],
                     stdout=subprocess.PIPE, text=True)
lines = []
def read():
    for line in p.stdout:
        lines.append((time.monotonic(), line.rstrip()))
threading.Thread(target=read, daemon=True).start()
def runs(n):
    deadline = time.monotonic() + 20
    while sum(1 for _, l in lines if l.startswith("watching")) < n:
        assert time.monotonic() < deadline, "no report within 20 s"
        time.sleep(0.002)
runs(1)
took = []
text = open("protocol.yaml").read()
for i in range(10):
    saved = time.monotonic()
    with open(".save", "w") as f:
        f.write(text + f"\n# save {i}\n")
    os.rename(".save", "protocol.yaml")
    runs(i + 2)
    took.append([t for t, l in lines if l.startswith("checked")][-1] - saved)
def cpu():
    fields = open(f"/proc/{p.pid}/stat").read().split()
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")
before = cpu(); time.sleep(5); after = cpu()
p.send_signal(signal.SIGINT)
p.wait(20)
took.sort()
print("save to report, ms: min %.0f, median %.0f, max %.0f" % (took[0] * 1e3, took[5] * 1e3, took[-1] * 1e3))
print("CPU while idle for 5 s: %.2f s; exit code on Ctrl-C: %d" % (after - before, p.returncode))
PY
