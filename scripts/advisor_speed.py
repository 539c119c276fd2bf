"""How fast the advisor answers (issue 43: within 1 s), and how its win chance is calibrated.

    .venv/bin/python scripts/advisor_speed.py                 # 8 whole games, every decision timed
    .venv/bin/python scripts/advisor_speed.py --games 2 --http 40

Plays whole games (both editions, 2/3/4/6 players; noble-ppo-v2 at the even seats, noble-rule-v1 at the odd
ones) and times ``words.advice.advice_words`` (the advice with its plain words, what the page and the terminal
show) at every decision of every seat: median, p95 and max in milliseconds, the first call (which loads the
network) apart.  ``--http N``: also N requests of ``GET /games/{id}/seats/{seat}/advice`` through the server
app in process (FastAPI's TestClient: routing, authorisation, JSON), the human seat playing the suggestion.
Calibration: each decision's ``win_chance`` against whether that seat went on to win, by bins, and the Brier
score (against the same for the constant 1/n).  Not a test: numbers for docs/server.md.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

from fandonia_env.agents import make_agent
from fandonia_env.agents.advisor import advisor_noble
from fandonia_env.engine import Game
from fandonia_env.engine.face.game import make_config
from fandonia_env.words.advice import advice_words

TABLES = [(2, "1981"), (3, "errata"), (4, "errata"), (6, "1981")]


def play_game(n: int, edition: str, seed: int, times: list[float]) -> list[tuple[float, bool, int]]:
    """One whole game; appends each decision's advice time (s) to ``times``; (win_chance, won, n) per decision."""
    g = Game(**make_config(players=n, seed=seed, edition=edition))
    bots = [make_agent("noble-ppo-v2" if i % 2 == 0 else "noble-rule-v1", seed=seed + i) for i in range(n)]
    adv = advisor_noble()
    seen: list[tuple[int, float]] = []
    while not g.over:
        p = g.current_player()
        assert p is not None
        v, legal = g.view(p, log=False), g.legal_actions()
        t0 = time.perf_counter()
        a = advice_words(v, bot=adv)
        times.append(time.perf_counter() - t0)
        seen.append((p, a["win_chance"]))
        g.apply(bots[p].act(v, legal))
    return [(w, g.winner == p, n) for p, w in seen]


def summary(name: str, times: list[float]) -> None:
    ms = sorted(1000 * t for t in times)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    print(f"{name}: {len(ms)} answers, median {statistics.median(ms):.2f} ms, p95 {p95:.2f} ms, max {ms[-1]:.2f} ms")


def calibration(rows: list[tuple[float, bool, int]]) -> None:
    bins = [(0.0, 0.2), (0.2, 0.4), (0.4, 0.6), (0.6, 0.8), (0.8, 1.01)]
    print("win_chance bin | decisions | mean win_chance | won from there")
    for lo, hi in bins:
        sel = [(w, won) for w, won, _ in rows if lo <= w < hi]
        if sel:
            print(f"[{lo:.1f}, {min(hi, 1.0):.1f}) | {len(sel)} | {statistics.mean(w for w, _ in sel):.3f} | "
                  f"{statistics.mean(won for _, won in sel):.3f}")
    brier = statistics.mean((w - won) ** 2 for w, won, _ in rows)
    base = statistics.mean((1 / n - won) ** 2 for _, won, n in rows)
    print(f"Brier score {brier:.4f} (the constant 1/n: {base:.4f}); mean win_chance "
          f"{statistics.mean(w for w, _, _ in rows):.3f}, wins {statistics.mean(won for _, won, _ in rows):.3f}")


def http_times(requests: int, seed: int) -> list[float]:
    """``requests`` advice requests through the app in process (the human seat plays the suggestion)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

        from fandonia_env.serve import Limits, create_app
    out: list[float] = []
    with tempfile.TemporaryDirectory() as d, TestClient(create_app(str(Path(d) / "g.sqlite3"), Limits(workers=1))) as c:
        while len(out) < requests:
            r = c.post("/games", json={"seats": ["human", "noble-ppo-v2", "noble-rule-v1", "noble-ppo-v2"],
                                       "seed": seed + len(out), "public_seed": True}).json()
            gid, h = r["game_id"], {"Authorization": "Bearer " + r["seats"][0]["token"]}
            while len(out) < requests:
                st = _my_turn(c, gid, h)
                if st is None:
                    break
                t0 = time.perf_counter()
                a = c.get(f"/games/{gid}/seats/0/advice", headers=h).json()
                out.append(time.perf_counter() - t0)
                c.post(f"/games/{gid}/seats/0/act", headers=h, json={"action": a["suggestion"]["id"], "step": st["step"]})
    return out


def _my_turn(c: Any, gid: str, h: dict[str, str]) -> dict[str, Any] | None:
    while True:
        st = c.get(f"/games/{gid}/seats/0?log=false", headers=h).json()
        if st["status"] != "playing":
            return None
        if st["decision"] is not None:
            return st
        time.sleep(0.005)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2, help="whole games per table size and edition (default 2)")
    ap.add_argument("--seed", type=int, default=4300)
    ap.add_argument("--http", type=int, default=0, help="also time N requests of the route in process")
    a = ap.parse_args()
    t0 = time.perf_counter()
    advisor_noble()  # the first call loads the network from disk
    print(f"first call (loads noble-ppo-v2's network): {1000 * (time.perf_counter() - t0):.1f} ms")
    times: list[float] = []
    rows: list[tuple[float, bool, int]] = []
    for k in range(a.games):
        for i, (n, ed) in enumerate(TABLES):
            rows += play_game(n, ed, a.seed + 100 * k + i, times)
    summary(f"advice_words over {a.games * len(TABLES)} whole games", times)
    calibration(rows)
    if a.http:
        summary("GET /games/{id}/seats/{seat}/advice (in process)", http_times(a.http, a.seed))


if __name__ == "__main__":
    main()
