"""Load on the web table: many tables of people (websocket clients) on loopback, moves a second and latency.

``tressette serve`` runs in a subprocess on 127.0.0.1 (a free port). Each table is created by one
client with every agent a person (``"players": ["person", ...]``); the other clients take the
other seats by the links of ``joined``. Every client answers each of its turns at once with a
random legal action and sends ``next`` when a hand ends, so the server does all the work a
person's table costs it (each action read, checked, played; every seat's view written and sent),
with no bot thinking. A move's latency: from a client sending ``act`` to that client receiving the
view that shows it played. The run ends by itself after ``--seconds``; every client leaves and
the server is stopped.

Reported: moves a second (all tables), p50 and p99 latency, the server's resident memory (RSS,
from /proc) before the tables and at the end, and the number of errors (none expected).

    python benchmarks/bench_web.py --tables 100 --clients 400 --seconds 30 --json benchmarks/results/web_load.json

Needs the web extra (``pip install -e ".[web]"``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid: int) -> float:
    """Resident memory of a process, in MB (Linux /proc)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.moves = 0
        self.errors: list[str] = []
        self.measuring = False


async def client(url: str, first: dict | None, join: asyncio.Future | None, stop: asyncio.Event, stats: Stats,
                 rng: random.Random, links_out: asyncio.Future | None = None) -> None:  # fmt: skip
    """One person: creates a table (``first``) or joins one by a link (``join``); plays until ``stop``."""
    async with websockets.connect(url, max_size=1 << 22) as ws:
        if first is not None:
            await ws.send(json.dumps(first))
        else:
            link = await join
            query = dict(part.split("=", 1) for part in link.split("?", 1)[1].split("&"))
            await ws.send(json.dumps({"type": "join", "table": query["table"], "token": query["token"]}))
        sent_at: float | None = None
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except asyncio.TimeoutError:
                continue
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "joined" and links_out is not None and not links_out.done():
                links_out.set_result(message.get("links", {}))
            elif kind == "review":
                continue
            elif kind == "error":
                stats.errors.append(message.get("message", ""))
            elif kind == "view":
                if sent_at is not None:  # the first view after an act is the one that shows it played
                    if stats.measuring:
                        stats.latencies.append(time.perf_counter() - sent_at)
                        stats.moves += 1
                    sent_at = None
                if message.get("status") != "playing":
                    if message.get("you") == 0:
                        await ws.send(json.dumps({"type": "next"}))
                    continue
                if message.get("your_turn"):
                    legal = message["act"]["legal"]
                    if legal:
                        sent_at = time.perf_counter()
                        await ws.send(json.dumps({"type": "act", "action": rng.choice(legal)["id"]}))
        await ws.send(json.dumps({"type": "leave"}))


async def run(args: argparse.Namespace, url: str) -> Stats:
    stats = Stats()
    stop = asyncio.Event()
    rng = random.Random(args.seed)
    per_table = max(1, args.clients // args.tables)
    tasks = []
    for _ in range(args.tables):
        links: asyncio.Future = asyncio.get_running_loop().create_future()
        create = {
            "type": "create",
            "game": args.game,
            "rules": {},
            "players": ["person"] * per_table,
            "seat": 0,
            "pace_ms": 0,
            "review": not args.no_review,
        }  # fmt: skip (several people: a secret seed)
        tasks.append(asyncio.create_task(client(url, create, None, stop, stats, random.Random(rng.random()), links)))
        for agent in range(1, per_table):
            join: asyncio.Future = asyncio.get_running_loop().create_future()

            def pick(done: asyncio.Future, agent: int = agent, join: asyncio.Future = join) -> None:
                join.set_result(done.result()[str(agent)] if str(agent) in done.result() else done.result()[agent])

            links.add_done_callback(pick)
            tasks.append(asyncio.create_task(client(url, None, join, stop, stats, random.Random(rng.random()))))
    await asyncio.sleep(args.warmup)
    stats.measuring = True
    start = time.perf_counter()
    await asyncio.sleep(args.seconds)
    stats.measuring = False
    stats.elapsed = time.perf_counter() - start  # type: ignore[attr-defined]
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="tressette", help="a four-seat game by default: 4 people a table")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--clients", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-review", action="store_true", help="tables without the after-hand review")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "tressette_env.cli", "serve", "--port", str(port),
         "--max-tables", str(args.tables + 8), "--max-connections", str(args.clients + 16)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        deadline = time.time() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.time() > deadline or server.poll() is not None:
                    raise SystemExit(f"the server did not start: {server.stderr.read().decode()[-2000:]}") from None
                time.sleep(0.1)
        idle = rss_mb(server.pid)
        stats = asyncio.run(run(args, f"ws://127.0.0.1:{port}/ws"))
        loaded = rss_mb(server.pid)
    finally:
        server.terminate()
        server.wait(timeout=10)
    lat = sorted(stats.latencies)
    result = {
        "game": args.game,
        "tables": args.tables,
        "review": not args.no_review,
        "clients": args.clients,
        "seconds": round(stats.elapsed, 2),  # type: ignore[attr-defined]
        "moves": stats.moves,
        "moves_per_second": round(stats.moves / stats.elapsed, 1),  # type: ignore[attr-defined]
        "latency_p50_ms": round(1000 * statistics.median(lat), 2) if lat else None,
        "latency_p99_ms": round(1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))], 2) if lat else None,
        "server_rss_mb_idle": round(idle, 1),
        "server_rss_mb_loaded": round(loaded, 1),
        "errors": len(stats.errors),
        "first_errors": stats.errors[:3],
        "cpu_count": os.cpu_count(),
    }
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
