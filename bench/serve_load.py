#!/usr/bin/env python3
"""Load check of `cardrules serve`: many tables on one server process, each with bots and one
scripted person, over real WebSockets on loopback.

    python bench/serve_load.py [--tables 50] [--seconds 20] [--moves 200] [--ruleset klats] [--bot random]

It starts `cardrules serve` (the lobby, a fresh --data folder, a free port on 127.0.0.1 only),
opens TABLES tables through the lobby's call, each `human` + `--bots` bots (default one random
bot), and connects one client a table that plays its seat: on its turn it sends a legal move
(at most one every 0.1 s, within the server's rate limit, as a quick person would). It stops
after SECONDS, or when every client has made MOVES moves or seen its match end, whichever comes
first, then stops the server. Printed: moves per second over all tables (the people's and the
bots'), and the latency of a person's move, from sending it to receiving the state that shows
it (median, 95th percentile, max), with the refusals and errors seen (both should be 0).
The numbers depend on the machine's other work; the load average is printed with them.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

PACE = 0.1  # seconds between a scripted person's moves at least: the server allows 10 messages a second


def start_server(data: str) -> tuple[subprocess.Popen, str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "300"}
    process = subprocess.Popen([sys.executable, "-m", "cardrules.cli.main", "serve", "--host", "127.0.0.1",
                                "--port", "0", "--data", data], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            raise SystemExit(f"serve ended: {process.stderr.read()}")
        found = re.match(r"lobby: (http://\S+)/$", line.strip())
        if found:
            return process, found.group(1)
    process.kill()
    raise SystemExit("serve did not start within 60 s")


def open_table(base: str, ruleset: str, seats: list[str]) -> str:
    request = urllib.request.Request(f"{base}/api/tables", json.dumps({"ruleset": ruleset, "seats": seats}).encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        made = json.load(answer)
    return base + next(s["url"] for s in made["seats"] if s["url"])


async def play(url: str, deadline: float, moves: int, latencies: list[float], counts: dict, rng: random.Random):
    """One scripted person at one table, until the deadline, its moves made, or the match's end."""
    from websockets.asyncio.client import connect

    address, token = url.split("#")
    made, sent_at, last_sent, last_number = 0, None, 0.0, 0
    async with connect(address.replace("http://", "ws://").replace("/t/", "/ws/"), open_timeout=30) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        while time.monotonic() < deadline and made < moves:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), max(0.01, deadline - time.monotonic())))
            except TimeoutError:
                break
            if message["type"] == "reply":
                if not message["ok"]:
                    counts["refused"] += 1
                continue
            if message["type"] != "state":
                counts["errors"] += 1
                break
            number = message["log"][-1]["number"] if message["log"] else 0
            counts["moves"] += number - last_number
            last_number = number
            if sent_at is not None and number > 0:
                latencies.append(time.monotonic() - sent_at)
                sent_at = None
            if message["winners"] is not None or message["broken"]:
                counts["errors"] += bool(message["broken"])
                break
            if message["moves"] and sent_at is None:
                await asyncio.sleep(max(0.0, last_sent + PACE - time.monotonic()))
                sent_at = last_sent = time.monotonic()
                await ws.send(json.dumps({"type": "move", "move": rng.choice(message["moves"])}))
                made += 1


async def load(urls: list[str], seconds: float, moves: int) -> tuple[list[float], dict, float]:
    latencies: list[float] = []
    counts = {"moves": 0, "refused": 0, "errors": 0}
    began = time.monotonic()
    results = await asyncio.gather(*(play(url, began + seconds, moves, latencies, counts, random.Random(k))
                                     for k, url in enumerate(urls)), return_exceptions=True)
    counts["errors"] += sum(isinstance(r, BaseException) for r in results)
    return latencies, counts, time.monotonic() - began


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--moves", type=int, default=200, help="moves a scripted person makes at most")
    parser.add_argument("--ruleset", default="klats")
    parser.add_argument("--bots", default="random", help="the bots at each table, comma-separated")
    args = parser.parse_args()
    if not 1 <= args.tables <= 200 or not 0 < args.seconds <= 600:
        parser.error("--tables 1..200, --seconds up to 600: the check is bounded")
    seats = ["human", *args.bots.split(",")]
    with tempfile.TemporaryDirectory() as data:
        process, base = start_server(data)
        try:
            urls = [open_table(base, args.ruleset, seats) for _ in range(args.tables)]
            load_before = os.getloadavg()[0]
            latencies, counts, elapsed = asyncio.run(load(urls, args.seconds, args.moves))
        finally:
            process.terminate()
            process.wait(30)
    latencies.sort()
    p95 = latencies[max(0, int(len(latencies) * 0.95) - 1)] if latencies else float("nan")
    print(f"serve load: {args.tables} tables of {args.ruleset} ({', '.join(seats)}), one server process, "
          f"loopback; {elapsed:.1f} s; load average {load_before:.2f} -> {os.getloadavg()[0]:.2f}")
    print(f"  moves: {counts['moves']:,} in all ({counts['moves'] / elapsed:,.0f} moves/s); "
          f"a person's moves: {len(latencies):,}")
    if latencies:
        print(f"  latency of a person's move: median {statistics.median(latencies) * 1000:.1f} ms, "
              f"p95 {p95 * 1000:.1f} ms, max {latencies[-1] * 1000:.1f} ms")
    print(f"  refused: {counts['refused']}, errors: {counts['errors']}")
    return 1 if counts["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
