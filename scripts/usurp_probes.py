"""Probes of a policy network's usurpation timing (issue 27's random-v1 line; not shipped nobles).

Three agent prefixes, registered when this script runs, so the tournament runner can seat them:

* ``thr:PATH?t=0.85`` plays the network, but at a main decision where the usurpation is legal and
  the seat's best chance of success (``best_usurpation`` on its own view) is at least ``t`` it
  usurps at once.
* ``us:PATH?lo=0.2&simulations=24&horizon=60`` plays the network and searches (``SearchAgent``'s
  simulations, any of its knobs) only the main decisions where the usurpation is legal and the
  best chance is at least ``lo``; the candidates are the network's favourite and the usurpation.
* ``contest:PATH?t=0&from=3`` plays the network, but while another seat's FARC reigns (his usurpation's
  count toward victory, §37: the game ends after three full turns of it) it usurps in turn ``from`` of
  that reign or later whenever its best chance is above ``t`` (``from=3``: the last turn before the
  reign wins, when waiting can only lose).

And one report, ``anatomy``: replays the games of a tournament ``results.json`` that the policy
seat did not win and prints, per turn, the seat's best usurpation chance, the network's probability
of usurping, and ``U`` where it usurped.

    python scripts/usurp_probes.py tournament --lineup "thr:POLICY.npz?t=0.85,random-v1,random-v1,random-v1" \\
        --games 500 --seed 9600000 --preset 1981 --jobs 2
    python scripts/usurp_probes.py anatomy runs/x/results.json 1981 --limit 40
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import OrderedDict
from typing import Any
from urllib.parse import parse_qs

import numpy as np

from fandonia_env.agents.base import PREFIXES, register_prefix
from fandonia_env.agents.ppo_agent import PPOAgent
from fandonia_env.agents.search_noble import SearchAgent, _parse_knobs
from fandonia_env.engine import SeatView, as_seat_view
from fandonia_env.engine.core.actions import ID, NAME
from fandonia_env.engine.rules.rule_queries import best_usurpation

USURP = ID["free_usurp"]


def _usurp_chance(view: SeatView | dict[str, Any], legal: list[int]) -> float:
    """The seat's best usurpation chance at a main decision where it may usurp, else -1."""
    sv = as_seat_view(view)
    if USURP not in legal or sv.decision is None or sv.decision.kind != "turn_main":
        return -1.0
    return best_usurpation(sv, sv.me)[1]


class ThresholdUsurper(PPOAgent):
    """The network, but it usurps at once whenever its best chance is at least ``t``."""

    def __init__(self, path: str, t: float, seed: int | None = None) -> None:
        super().__init__(path, seed=seed)
        self.t = t
        self.id = f"thr:{path}?t={t}"

    def act(self, view: SeatView | dict[str, Any], legal: list[int], infoset: Any = None) -> int:
        if _usurp_chance(view, legal) >= self.t:
            return USURP
        return super().act(view, legal, infoset)


class ContestUsurper(PPOAgent):
    """The network, but it contests another seat's reign: from turn ``start`` of that reign on, it usurps
    whenever its best chance is above ``t``."""

    def __init__(self, path: str, t: float, start: int, seed: int | None = None) -> None:
        super().__init__(path, seed=seed)
        self.t, self.start = t, start
        self.id = f"contest:{path}?t={t}&from={start}"

    def act(self, view: SeatView | dict[str, Any], legal: list[int], infoset: Any = None) -> int:
        sv = as_seat_view(view)
        reign = sv.reign
        if (reign and reign.get("player") != sv.me and sv.turn - reign["since"] >= self.start
                and _usurp_chance(sv, legal) > self.t):
            return USURP
        return super().act(sv, legal, infoset)


class UsurpSearcher(SearchAgent):
    """The network; searches only its usurpation decisions (best chance >= ``lo``)."""

    def __init__(self, path: str, lo: float, seed: int | None = None, **knobs: Any) -> None:
        super().__init__(path, seed=seed, search_kinds=(), top_k=2, **knobs)
        self.lo = lo
        self.id = f"us:{path}?lo={lo}"

    def act(self, view: SeatView | dict[str, Any], legal: list[int], infoset: Any = None) -> int:
        search = infoset is not None and _usurp_chance(view, legal) >= self.lo
        return self._decide(view, legal, infoset, search)[0]

    def _search(self, view: SeatView | dict[str, Any], legal: list[int], infoset: Any, z: np.ndarray, kind: str,
                t0: float) -> Any:
        z = z.copy()
        i = legal.index(USURP)
        top2 = np.sort(z)[::-1][:2]
        if z[i] < top2[1]:  # make the usurpation the second candidate
            z[i] = top2[1] + 1e-6
        return super()._search(view, legal, infoset, z, kind, t0)


def _query(spec: str, prefix: str) -> tuple[str, dict[str, str]]:
    path, _, q = spec[len(prefix):].partition("?")
    return path, {k: v[0] for k, v in parse_qs(q).items()}


def _chance(name: str, v: str) -> float:
    try:
        x = float(v)
    except ValueError:
        x = float("nan")
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"{name} must be a chance in [0, 1], got {v!r}")
    return x


def _thr(spec: str, seed: int | None = None, **_: Any) -> ThresholdUsurper:
    path, q = _query(spec, "thr:")
    unknown = set(q) - {"t"}
    if unknown:
        raise ValueError(f"unknown thr: knob(s) {sorted(unknown)}; known: ['t']")
    return ThresholdUsurper(path, _chance("t", q.get("t", "0.85")), seed=seed)


def _contest(spec: str, seed: int | None = None, **_: Any) -> ContestUsurper:
    path, q = _query(spec, "contest:")
    unknown = set(q) - {"t", "from"}
    if unknown:
        raise ValueError(f"unknown contest: knob(s) {sorted(unknown)}; known: ['from', 't']")
    start = q.get("from", "3")
    if not start.isdigit():
        raise ValueError(f"from must be a turn of the reign >= 0, got {start!r}")
    return ContestUsurper(path, _chance("t", q.get("t", "0")), int(start), seed=seed)


def _us(spec: str, seed: int | None = None, **_: Any) -> UsurpSearcher:
    path, _, query = spec[len("us:"):].partition("?")
    lo = _chance("lo", parse_qs(query).get("lo", ["0.2"])[0])
    rest = "&".join(part for part in query.split("&") if not part.startswith("lo="))
    return UsurpSearcher(path, lo, seed=seed, **_parse_knobs(rest))


for _prefix, _factory in (("thr:", _thr), ("us:", _us), ("contest:", _contest)):
    if _prefix not in PREFIXES:  # the script may be run twice in one process (tests)
        register_prefix(_prefix, _factory)


def anatomy(results: str, preset: str, limit: int, max_turns: int = 60) -> None:
    """Replay the policy seat's non-wins of ``results`` and print its usurpation chances per turn."""
    from fandonia_env.arena.tournament import seat_agents
    from fandonia_env.engine import Game
    from fandonia_env.engine.face.hidden import InfoSet

    with open(results, encoding="utf-8") as f:
        games = json.load(f)["games"]
    for task in [g for g in games if g["result"] != "win"][:limit]:
        seats = task["seats"]
        me = next(i for i, s in enumerate(seats) if s.startswith(("ppo:", "noble-ppo")))
        bots = seat_agents(task)
        g = Game(players=len(seats), seed=task["seed"], max_turns=max_turns, preset=preset)
        per: OrderedDict[int, tuple[float, float, bool]] = OrderedDict()
        while not g.over:
            p, legal = g.current_player(), g.legal_actions()
            view, info = g.view(p, log=False), InfoSet(g.state, p)
            a = bots[p].act(view, legal, info)
            ch = _usurp_chance(view, legal) if p == me else -1.0
            if ch >= 0:
                logits, _ = bots[p].policy.forward(bots[p].policy.encoder.observe(view, info))
                z = logits[0, legal]
                pr = np.exp(z - z.max())
                pu = float(pr[legal.index(USURP)] / pr.sum())
                old = per.get(g.state.turn, (-1.0, 0.0, False))
                per[g.state.turn] = (max(old[0], ch), max(old[1], pu), old[2] or NAME[a] == "free_usurp")
            g.apply(a)
        best = max((v[0] for v in per.values()), default=0.0)
        print(f"== seed {task['seed']} rotation {task['rotation']}: {g.result} at turn {g.state.turn}, "
              f"seat {me}, best chance {best:.2f}")
        print("   " + " ".join(f"{t}:{c:.2f}/{pu:.2f}{'U' if u else ''}" for t, (c, pu, u) in per.items() if c > 0))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["tournament"]:
        from fandonia_env.arena.tournament import main as tournament

        return tournament(argv[1:]) or 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("tournament", help="the tournament runner, with thr:, us: and contest: registered")
    an = sub.add_parser("anatomy", help="usurpation chances in the policy seat's non-wins")
    an.add_argument("results")
    an.add_argument("preset")
    an.add_argument("--limit", type=int, default=40)
    an.add_argument("--max-turns", type=int, default=60)
    args = ap.parse_args(argv)
    if not os.path.isfile(args.results):
        ap.error(f"no results file {args.results!r} (a tournament's results.json)")
    if args.limit < 1:
        ap.error(f"--limit must be >= 1, got {args.limit}")
    anatomy(args.results, args.preset, args.limit, args.max_turns)
    return 0


if __name__ == "__main__":
    sys.exit(main())
