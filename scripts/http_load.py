"""Load on `mcp-reference serve --http` against the stack's floor.

The floor is examples/http_floor.rs: the same hyper 1.x + tokio stack,
reading each POST's body and answering Example 43.2's reply as a constant,
deciding nothing: the most any server on this stack can do. The two run in
alternating rounds on loopback, each under the same load from wrk (Debian's
package): Example 43.2's request with the headers a conforming client sends,
`-t THREADS -c CONNECTIONS` for SECONDS. Per run: requests, requests per
second, p50 and p99 latency, non-2xx replies, and the server's peak RSS
(VmHWM). At the end, the medians and the ratios server / floor. Any non-2xx
reply, or a server reply that is not the book's, fails the run (exit 1).

With --auth (docs/performance.md, "HTTP with authorization"), the server
runs with `http.authorization` on (examples/auth_fixture.rs: the textbook's
data, the test issuer's keys fixed) and every request of both, the floor's
too, carries the same `Authorization: Bearer` header with one valid token
for mira (--rs256 for an RS256 one), as a real client that reuses its token
sends it: the server verifies it once and then finds it in its cache.

Not part of `cargo test` (it measures; nothing here is a threshold).
usage: python3 scripts/http_load.py [--rounds 3] [--seconds 20] [--connections 32] [--threads 2] [--auth [--rs256]]
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADERS = {
    "Content-Type": "application/json",
    "MCP-Protocol-Version": "2026-07-28",
    "Mcp-Method": "tools/call",
    "Mcp-Name": "get_order",
}


def start(cmd):
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    line = proc.stderr.readline()
    m = re.search(r"http://([0-9.]+:[0-9]+)", line)
    if not m:
        proc.kill()
        sys.exit(f"could not read the listening address from: {line!r}")
    return proc, m.group(1)


def peak_rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def ms(text):
    value, unit = re.match(r"([0-9.]+)(us|ms|s)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def run_wrk(addr, args, lua):
    out = subprocess.run(
        ["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{args.seconds}s",
         "--latency", "-s", lua, f"http://{addr}/mcp"],
        capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([0-9.]+)", out).group(1))
    total = int(re.search(r"(\d+) requests in", out).group(1))
    p50 = ms(re.search(r"\s50%\s+(\S+)", out).group(1))
    p99 = ms(re.search(r"\s99%\s+(\S+)", out).group(1))
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: (.*)", out)
    return {"rps": rps, "requests": total, "p50": p50, "p99": p99,
            "non2xx": int(bad.group(1)) if bad else 0,
            "socket_errors": errors.group(1) if errors else ""}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=int, default=20)
    ap.add_argument("--connections", type=int, default=32)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--auth", action="store_true")
    ap.add_argument("--rs256", action="store_true")
    args = ap.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed: apt-get install wrk")
    build = subprocess.run(["cargo", "build", "--release", "-q", "--bin", "mcp-reference",
                            "--example", "http_floor", "--example", "auth_fixture"], cwd=ROOT)
    if build.returncode != 0:
        sys.exit(f"http_load.py: cargo build --release of the server and its floor failed "
                 f"(exit {build.returncode}; its own message is above)")
    with open(os.path.join(ROOT, "data/example-43.2.request.json"), "rb") as f:
        body = f.read().rstrip(b"\n")
    with open(os.path.join(ROOT, "data/example-43.2.response.json"), "rb") as f:
        reply = f.read().rstrip(b"\n")
    work = tempfile.mkdtemp()
    headers = dict(HEADERS)
    server_args = []
    if args.auth:
        config = os.path.join(work, "auth.json")
        fixture = [os.path.join(ROOT, "target/release/examples/auth_fixture"), config,
                   str(args.seconds * args.rounds * 4 + 600)]
        if args.rs256:
            fixture.append("--rs256")
        token = subprocess.run(fixture, capture_output=True, text=True, check=True).stdout.strip()
        headers["Authorization"] = f"Bearer {token}"
        server_args = ["--config", config]
    lua = os.path.join(work, "post.lua")
    with open(lua, "w") as f:
        f.write('wrk.method = "POST"\n')
        f.write("wrk.body = [==[" + body.decode() + "]==]\n")
        for k, v in headers.items():
            f.write(f'wrk.headers["{k}"] = "{v}"\n')
    servers = {
        "server": [os.path.join(ROOT, "target/release/mcp-reference"), *server_args,
                   "serve", "--http", "127.0.0.1:0"],
        "floor": [os.path.join(ROOT, "target/release/examples/http_floor"), "127.0.0.1:0"],
    }
    results = {name: [] for name in servers}
    auth = f", authenticated ({'RS256' if args.rs256 else 'ES256'} token)" if args.auth else ""
    print(f"load: wrk -t{args.threads} -c{args.connections} -d{args.seconds}s, "
          f"{args.rounds} rounds{auth}, loadavg before {os.getloadavg()[0]:.2f}")
    failed = False
    for r in range(args.rounds):
        for name, cmd in servers.items():
            proc, addr = start(cmd)
            try:
                req = urllib.request.Request(f"http://{addr}/mcp", data=body,
                                             headers=headers, method="POST")
                got = urllib.request.urlopen(req, timeout=5).read()
                if got != reply:
                    print(f"{name}: the reply is not Example 43.2's: {got[:200]!r}")
                    failed = True
                if args.auth and name == "server":
                    # Authorization must be on: without the token, 401.
                    bare = {k: v for k, v in headers.items() if k != "Authorization"}
                    try:
                        urllib.request.urlopen(urllib.request.Request(
                            f"http://{addr}/mcp", data=body, headers=bare, method="POST"),
                            timeout=5)
                        print("server: a request without the token was answered: authorization is off")
                        failed = True
                    except urllib.error.HTTPError as e:
                        if e.code != 401:
                            print(f"server: a request without the token got {e.code}, not 401")
                            failed = True
                res = run_wrk(addr, args, lua)
                res["rss_kib"] = peak_rss_kib(proc.pid)
            finally:
                proc.terminate()
                proc.wait(timeout=15)
            results[name].append(res)
            failed |= res["non2xx"] > 0
            print(f"round {r + 1} {name:6}: {res['requests']:>9} requests, {res['rps']:>10.0f}/s, "
                  f"p50 {res['p50']:.3f} ms, p99 {res['p99']:.3f} ms, non-2xx {res['non2xx']}, "
                  f"peak RSS {res['rss_kib'] / 1024:.1f} MiB {res['socket_errors']}")
            time.sleep(1)
    med = {n: {k: statistics.median(x[k] for x in rs) for k in ("rps", "p50", "p99", "rss_kib")}
           for n, rs in results.items()}
    s, f = med["server"], med["floor"]
    print(f"median server: {s['rps']:.0f}/s p50 {s['p50']:.3f} ms p99 {s['p99']:.3f} ms "
          f"peak RSS {s['rss_kib'] / 1024:.1f} MiB")
    print(f"median floor : {f['rps']:.0f}/s p50 {f['p50']:.3f} ms p99 {f['p99']:.3f} ms "
          f"peak RSS {f['rss_kib'] / 1024:.1f} MiB")
    print(f"ratios server/floor: rate {s['rps'] / f['rps']:.2f}, p99 {s['p99'] / f['p99']:.2f}, "
          f"p50 {s['p50'] / f['p50']:.2f}; loadavg after {os.getloadavg()[0]:.2f}")
    # Each round's server run and floor run are seconds apart: the median of
    # the rounds' own ratios is the figure least moved by the machine's drift.
    rounds = [a["rps"] / b["rps"] for a, b in zip(results["server"], results["floor"])]
    print("rate ratio per round: " + ", ".join(f"{r:.2f}" for r in rounds)
          + f"; median {statistics.median(rounds):.2f}")
    shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
