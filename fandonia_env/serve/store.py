"""Durable games: SQLite through the standard library's ``sqlite3``.

Why ``sqlite3`` and not SQLAlchemy: the server needs three tables, a handful of fixed
statements and one process; the standard library module has no extra dependency, no ORM
session to reason about under threads, and exposes WAL mode and ``synchronous`` directly.

Each game is stored as its config (seed included), its seats, an optional start position
(a saved game) and the accepted actions in order; the engine is deterministic, so these
alone rebuild the game.  Every ``snapshot_every`` actions a snapshot (``Game.to_json`` and
the server nobles' state) is written in the same transaction as the action, so a restart
replays at most that many actions.  An action is acknowledged to the client only after its
transaction commits: a process killed at any instant (SIGKILL) loses no acknowledged action.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    config TEXT NOT NULL,
    seats TEXT NOT NULL,
    start TEXT,
    tokens TEXT NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    winner INTEGER,
    n_actions INTEGER NOT NULL DEFAULT 0,
    seeding TEXT,
    options TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, idx)
);
CREATE TABLE IF NOT EXISTS snapshots (
    game_id TEXT PRIMARY KEY,
    idx INTEGER NOT NULL,
    game TEXT NOT NULL,
    agents BLOB
);
"""


class Store:
    """One SQLite connection shared by the server's threads (writes are serialised by a lock)."""

    def __init__(self, path: str, synchronous: str = "NORMAL") -> None:
        if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"synchronous must be OFF, NORMAL, FULL or EXTRA, got {synchronous!r}")
        self.path = path
        self.lock = threading.Lock()
        self.conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute(f"PRAGMA synchronous={synchronous.upper()}")
        self.conn.execute("PRAGMA busy_timeout=5000")
        self.conn.executescript(SCHEMA)
        cols = {r[1] for r in self.conn.execute("PRAGMA table_info(games)").fetchall()}
        if "seeding" not in cols:  # a database written before chosen seeds were kept secret (issue 41)
            self.conn.execute("ALTER TABLE games ADD COLUMN seeding TEXT")
        if "options" not in cols:  # a database written before rated games and the advisor (issue 43)
            self.conn.execute("ALTER TABLE games ADD COLUMN options TEXT")

    def journal_mode(self) -> str:
        with self.lock:
            return str(self.conn.execute("PRAGMA journal_mode").fetchone()[0])

    def close(self) -> None:
        with self.lock:
            self.conn.close()

    # -- writes ---------------------------------------------------------------------
    def create_game(self, gid: str, config: dict[str, Any], seats: list[dict[str, Any]],
                    start: dict[str, Any] | None, token_hashes: list[str | None],
                    seeding: dict[str, Any] | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game's row; ``seeding`` (``seeds.game_seed``): whether its seed is public, the chosen
        seed and the secret it was mixed with (never sent while the game is played); ``options``: the game's
        set-up choices besides the rules (``{"rated", "advisor"}``, issue 43)."""
        now = time.time()
        with self.lock:
            self.conn.execute(
                "INSERT INTO games (id, created, updated, config, seats, start, tokens, status, seeding, options) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, 'playing', ?, ?)",
                (gid, now, now, json.dumps(config), json.dumps(seats),
                 None if start is None else json.dumps(start), json.dumps(token_hashes),
                 None if seeding is None else json.dumps(seeding), None if options is None else json.dumps(options)))

    def add_action(self, gid: str, idx: int, seat: int, action: int, *, status: str,
                   result: str | None, winner: int | None,
                   snapshot: tuple[str, bytes | None] | None = None) -> None:
        """Record accepted action ``idx`` (0-based) in one transaction, with an optional snapshot."""
        now = time.time()
        with self.lock:
            c = self.conn
            c.execute("BEGIN IMMEDIATE")
            try:
                c.execute("INSERT INTO actions (game_id, idx, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                          (gid, idx, seat, action, now))
                c.execute("UPDATE games SET updated=?, status=?, result=?, winner=?, n_actions=? WHERE id=?",
                          (now, status, result, winner, idx + 1, gid))
                if snapshot is not None:
                    c.execute("INSERT OR REPLACE INTO snapshots (game_id, idx, game, agents) VALUES (?, ?, ?, ?)",
                              (gid, idx + 1, snapshot[0], snapshot[1]))
                c.execute("COMMIT")
            except BaseException:
                c.execute("ROLLBACK")
                raise

    def set_status(self, gid: str, status: str) -> None:
        with self.lock:
            self.conn.execute("UPDATE games SET status=?, updated=? WHERE id=?", (status, time.time(), gid))

    # -- reads ----------------------------------------------------------------------
    def game_ids(self, status: str | None = None) -> list[str]:
        with self.lock:
            if status is None:
                rows = self.conn.execute("SELECT id FROM games ORDER BY created, id").fetchall()
            else:
                rows = self.conn.execute("SELECT id FROM games WHERE status=? ORDER BY created, id",
                                         (status,)).fetchall()
        return [r[0] for r in rows]

    def load_game(self, gid: str) -> dict[str, Any] | None:
        with self.lock:
            row = self.conn.execute(
                "SELECT id, created, updated, config, seats, start, tokens, status, result, winner, n_actions, "
                "seeding, options FROM games WHERE id=?", (gid,)).fetchone()
        if row is None:
            return None
        return {
            "id": row[0], "created": row[1], "updated": row[2], "config": json.loads(row[3]),
            "seats": json.loads(row[4]), "start": None if row[5] is None else json.loads(row[5]),
            "tokens": json.loads(row[6]), "status": row[7], "result": row[8], "winner": row[9],
            "n_actions": row[10], "seeding": None if row[11] is None else json.loads(row[11]),
            "options": None if row[12] is None else json.loads(row[12]),
        }

    def summaries(self, limit: int, offset: int) -> tuple[int, list[dict[str, Any]]]:
        with self.lock:
            total = self.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
            rows = self.conn.execute(
                "SELECT id, created, updated, config, seats, status, result, winner, seeding, options FROM games "
                "ORDER BY created, id LIMIT ? OFFSET ?", (limit, offset)).fetchall()
        return total, [{"id": r[0], "created": r[1], "updated": r[2], "config": json.loads(r[3]),
                        "seats": json.loads(r[4]), "status": r[5], "result": r[6], "winner": r[7],
                        "seeding": None if r[8] is None else json.loads(r[8]),
                        "options": None if r[9] is None else json.loads(r[9])} for r in rows]

    def actions(self, gid: str, after: int = 0) -> list[tuple[int, int, int]]:
        """(idx, seat, action) of the actions with idx >= after, in order."""
        with self.lock:
            rows = self.conn.execute("SELECT idx, seat, action FROM actions WHERE game_id=? AND idx>=? ORDER BY idx",
                                     (gid, after)).fetchall()
        return [(r[0], r[1], r[2]) for r in rows]

    def snapshot(self, gid: str) -> tuple[int, str, bytes | None] | None:
        with self.lock:
            row = self.conn.execute("SELECT idx, game, agents FROM snapshots WHERE game_id=?", (gid,)).fetchone()
        return None if row is None else (row[0], row[1], row[2])
