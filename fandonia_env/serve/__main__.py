"""``python -m fandonia_env.serve [--host 127.0.0.1] [--port 8000] [--db PATH] [limits...]``."""

from __future__ import annotations

import argparse
import socket
import sys

from .workers import Limits


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    d = Limits()
    ap = argparse.ArgumentParser(prog="python -m fandonia_env.serve",
                                 description="Game server for Down With The King: people and computer nobles.")
    ap.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1, loopback only)")
    ap.add_argument("--port", type=int, default=8000, help="port (0: a free port, printed at start)")
    ap.add_argument("--db", default="fandonia-games.sqlite3", help="SQLite database file (created if missing)")
    ap.add_argument("--sync", default="NORMAL", choices=["NORMAL", "FULL"],
                    help="SQLite synchronous mode: NORMAL survives a killed process, FULL also a power cut")
    ap.add_argument("--max-body", type=int, default=d.max_body, help="largest request body / message, bytes")
    ap.add_argument("--max-games", type=int, default=d.max_games, help="unfinished games held at once")
    ap.add_argument("--actions-per-s", type=float, default=d.actions_per_s, help="actions per second per token")
    ap.add_argument("--burst", type=int, default=d.burst, help="burst of actions per token")
    ap.add_argument("--idle-expiry", type=float, default=d.idle_expiry_s,
                    help="seconds without an accepted action before an unfinished game expires")
    ap.add_argument("--snapshot-every", type=int, default=d.snapshot_every, help="actions between snapshots")
    ap.add_argument("--workers", type=int, default=d.workers, help="threads moving the nobles")
    ap.add_argument("--max-ws-per-game", type=int, default=d.max_ws_per_game, help="WebSocket clients per game")
    ap.add_argument("--header-timeout", type=float, default=d.header_timeout_s,
                    help="seconds for a request's line and headers to arrive (from the connection or the last "
                         "response); the connection is closed after it")
    ap.add_argument("--body-timeout", type=float, default=d.body_timeout_s,
                    help="seconds for a request's whole body to arrive after its headers (408 and closed after it)")
    ap.add_argument("--keep-alive", type=float, default=d.keep_alive_s,
                    help="seconds an idle keep-alive connection stays open")
    ap.add_argument("--ws-hello-timeout", type=float, default=d.ws_hello_timeout_s,
                    help="seconds for a WebSocket's first message to arrive (closed with no_hello after it)")
    ap.add_argument("--agent", action="append", default=[], metavar="ID",
                    help="allow an extra agent id that agents.make_agent accepts (e.g. a trained noble); "
                         "repeatable; registered ids are always allowed")
    ap.add_argument("--log-level", default="warning", choices=["debug", "info", "warning", "error"])
    ap.add_argument("--access-log", action="store_true", help="log every request")
    a = ap.parse_args(argv)
    for name in ("max_body", "max_games", "burst", "snapshot_every", "workers", "max_ws_per_game"):
        if getattr(a, name) < 1:
            ap.error(f"--{name.replace('_', '-')} must be at least 1, got {getattr(a, name)}")
    if a.actions_per_s <= 0 or a.idle_expiry <= 0:
        ap.error("--actions-per-s and --idle-expiry must be positive")
    for name in ("header_timeout", "body_timeout", "keep_alive", "ws_hello_timeout"):
        if not 0 < getattr(a, name) <= 3600:
            ap.error(f"--{name.replace('_', '-')} must be in (0, 3600] seconds, got {getattr(a, name)}")
    if not 0 <= a.port <= 65535:
        ap.error(f"--port must be 0..65535, got {a.port}")
    return a


def main(argv: list[str] | None = None) -> int:
    a = parse_args(argv)
    import uvicorn

    from .app import create_app
    from .timeouts import MAX_HEADER_BYTES, timed_h11

    limits = Limits(max_body=a.max_body, max_games=a.max_games, actions_per_s=a.actions_per_s, burst=a.burst,
                    idle_expiry_s=a.idle_expiry, snapshot_every=a.snapshot_every, workers=a.workers,
                    max_ws_per_game=a.max_ws_per_game, header_timeout_s=a.header_timeout,
                    body_timeout_s=a.body_timeout, keep_alive_s=a.keep_alive, ws_hello_timeout_s=a.ws_hello_timeout)
    try:
        app = create_app(a.db, limits, tuple(a.agent), synchronous=a.sync)
    except (ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    # proto IPPROTO_TCP explicitly: asyncio enables TCP_NODELAY only then (else ~40 ms per keep-alive request)
    family = socket.AF_INET6 if ":" in a.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((a.host, a.port))
    except OSError as e:
        print(f"error: cannot bind {a.host}:{a.port}: {e}", file=sys.stderr)
        return 2
    host, port = sock.getsockname()[:2]
    print(f"fandonia_env.serve listening on http://{host}:{port} (db {a.db}; play at http://{host}:{port}/ui/, "
          "API docs at /docs)", flush=True)
    # h11 with a deadline on request headers and JSON 400s (timeouts.py): headers over 16 KiB are refused
    config = uvicorn.Config(app, log_level=a.log_level, access_log=a.access_log, ws_max_size=a.max_body,
                            timeout_graceful_shutdown=3, http=timed_h11(a.header_timeout, MAX_HEADER_BYTES),
                            timeout_keep_alive=a.keep_alive, h11_max_incomplete_event_size=MAX_HEADER_BYTES)  # type: ignore[arg-type]
    uvicorn.Server(config).run(sockets=[sock])
    return 0


if __name__ == "__main__":
    sys.exit(main())
