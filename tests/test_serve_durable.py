"""Durable games: the real server is killed with SIGKILL during play and restarted on the same
database; every acknowledged action is there and the games go on exactly as an uninterrupted
server plays them.  Finished games stay listed and can be replayed."""

from __future__ import annotations

import sqlite3
import threading
import time

import httpx
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from fandonia_env.serve.client import Client, ServerProcess, play_humans, random_policy  # noqa: E402

GAMES = [  # seats, rules, seed
    (["human", "noble-rule-v1", "random-v1"], {"max_turns": 8}, 1),
    (["human", "human", "noble-rule-v1", "noble-rule-v1"], {"max_turns": 3, "preset": "errata"}, 2),
    (["noble-rule-v1", "random-v1", "noble-rule-v1", "random-v1"], {"max_turns": 3}, 3),
    (["random-v1", "human"], {"max_turns": 3, "preset": "1981-all-optional"}, 4),
    (["human"] + ["noble-rule-v1"] * 5, {"max_turns": 2, "preset": "short-game"}, 5),
]


def create_all(c: Client) -> list[tuple[str, dict[int, str]]]:
    out = []
    for seats, rules, seed in GAMES:
        g = c.create(seats, rules=rules, seed=seed, public_seed=True)
        out.append((g["game_id"], {s["seat"]: s["token"] for s in g["seats"] if s["token"]}))
    return out


def outcome(c: Client, gid: str) -> tuple:
    rp = c.replay(gid)
    return [(a["seat"], a["action"]) for a in rp["actions"]], rp["final"], rp["result"], rp["winner"]


def test_sigkill_during_play_then_restart_resumes_every_game_identically(tmp_path):
    # the reference: the same games on a server that is never interrupted
    with ServerProcess(str(tmp_path / "control.sqlite3")) as ref:
        rc = Client(ref.url)
        ref_games = create_all(rc)
        play_humans(rc, ref_games, timeout=120)
        expected = [outcome(rc, gid) for gid, _ in ref_games]

    db = str(tmp_path / "games.sqlite3")
    srv = ServerProcess(db, "--snapshot-every", "7").start()
    c = Client(srv.url)
    games = create_all(c)
    play_humans(c, games[1:], max_actions=4)  # some acknowledged actions in the other games
    gid, toks = games[0]
    acked: list[tuple[int, int, int]] = []  # (seat, its step before, action) of every 200 reply
    stop = threading.Event()

    def player() -> None:
        try:
            while not stop.is_set():
                for seat, tok in toks.items():
                    st = c.seat(gid, seat, tok)
                    if st["decision"] is not None:
                        a = random_policy(st)
                        c.act(gid, seat, tok, a, st["step"])
                        acked.append((seat, st["step"], a))
        except (httpx.HTTPError, OSError):
            pass  # the server died under us

    t = threading.Thread(target=player)
    t.start()
    deadline = time.monotonic() + 30
    while len(acked) < 6 and time.monotonic() < deadline:
        time.sleep(0.005)
    assert c.summary(gid)["status"] == "playing"
    steps_before = {(g, s): c.seat(g, s, tk)["step"] for g, ts in games for s, tk in ts.items()}
    srv.kill()  # SIGKILL while the player thread is sending actions and nobles are moving
    stop.set()
    t.join(10)
    assert len(acked) >= 6
    assert srv.proc is not None and srv.proc.returncode == -9

    srv2 = ServerProcess(db, "--snapshot-every", "7").start()
    try:
        c2 = Client(srv2.url)
        assert c2.http.get("/health").json()["journal_mode"] == "wal"
        for (g, s), before in steps_before.items():  # every acknowledged action survived
            tk = dict(games[[x for x, _ in games].index(g)][1])[s]
            assert c2.seat(g, s, tk)["step"] >= before
        play_humans(c2, games, timeout=120)
        got = [outcome(c2, g) for g, _ in games]
        for (g, _), exp, res in zip(games, expected, got):
            assert res[0] == exp[0], f"game {g}: actions differ from the uninterrupted run"
            assert res[1:] == exp[1:]
        mine = [(s, a) for s, a in got[0][0] if s in toks]
        per_seat: dict[int, list[int]] = {}
        for s, a in mine:
            per_seat.setdefault(s, []).append(a)
        for seat, step, a in acked:
            assert per_seat[seat][step] == a
        # the snapshots were used (one every 7 actions) and finished games stay listed after a restart
        con = sqlite3.connect(db)
        assert con.execute("SELECT COUNT(*) FROM snapshots").fetchone()[0] == len(games)
        con.close()
    finally:
        srv2.stop()
    srv3 = ServerProcess(db).start()
    try:
        c3 = Client(srv3.url)
        listed = {x["game_id"]: x["status"] for x in c3.http.get("/games").json()["games"]}
        assert all(listed[g] == "over" for g, _ in games)
        assert [outcome(c3, g) for g, _ in games] == got
    finally:
        srv3.stop()
