"""Check the previews of issue 43 (``fandonia_env/engine/face/preview.py``) over whole games.

    python scripts/preview_check.py [--games 20] [--worlds 16] [--max-turns 40] [--seed 0]
        [--extra 400] [--json out.json]

Plays ``--games`` whole games (the presets 1981, errata, 1981-all-optional and errata-all-optional in turn,
2 to 6 players, every seat playing at random or as the rule noble ``noble-rule-v1`` by turns) and at every
decision, whichever seat it is (each is treated as a human seat):

* every option has a preview (a record with ``certain``, ``chances``, ``odds``, ``worst``, ``free``) and its
  plain words (``words.preview_words``) have no engine key in them;
* the option taken: every *certain* effect claimed is one the true game shows after the choice (the seat's
  facts before and after, ``preview.outcome``) - the claims checked and the mismatches are counted;
* the time each preview took.

Then, for the decision kinds the games did not reach, up to ``--extra`` quicker whole games (random play, no
turn limit, previews only at those kinds) look for them and check them the same way; the kinds still missing
after that are taken from the builder positions of ``tests/test_wording.py`` (the decisions random games
seldom reach), walked as that test walks them.  Prints the figures and the kinds reached
and missed; ``--json`` writes them too.  Exit status 1 when an option lacks a preview or a claim failed.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from fandonia_env import words as wording
from fandonia_env.agents import make_agent
from fandonia_env.engine import Game, InfoSet
from fandonia_env.engine.core.records import DECISION_CONTEXTS
from fandonia_env.engine.face.preview import facts, outcome, play_out, preview

PRESETS = ("1981", "errata", "1981-all-optional", "errata-all-optional")
RAW = re.compile(r"\b[a-z]+_[a-z0-9_]+\b|§")
#: a kind the engine asks only in positions built for tests (``builder.Position.run``), never in a game
BUILDER_ONLY = ("halt",)


class Tally:
    """What the checks found so far."""

    def __init__(self) -> None:
        self.decisions = 0
        self.options = 0
        self.missing: list[str] = []
        self.claims = 0
        self.mismatches: list[str] = []
        self.times: list[float] = []
        self.kinds: dict[str, int] = {}
        self.exact = 0
        self.sampled = 0
        self.free = 0
        self.confirm = 0
        self.raw: list[str] = []

    def check(self, g: Game, worlds: int, seed: int) -> dict[int, dict[str, Any]]:
        """Preview the pending decision and check that every option has one, in plain words."""
        d = g.decision()
        assert d is not None
        seat, kind = d["player"], d["kind"]
        t = time.perf_counter()
        pv = preview(g.state, seat, worlds=worlds, seed=seed)
        self.times.append(time.perf_counter() - t)
        self.decisions += 1
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        view = g.view(seat, log=False)
        words = wording.decision_words(view, preview=pv) or {"options": []}
        for o in words["options"]:
            self.options += 1
            rec = pv.get(o["id"])
            if rec is None or "preview" not in o:
                self.missing.append(f"{kind}/{o['name']}")
                continue
            self.exact += rec["odds"] == "exact"
            self.sampled += bool(rec["odds"]) and rec["odds"] != "exact"
            self.free += bool(rec["free"])
            self.confirm += o["confirm"] is not None and any(rec["worst"].values())
            text = " ".join([*o["preview"]["certain"], *o["preview"]["chances"], o["preview"]["then"] or "",
                             o["preview"]["cost"] or ""])
            if RAW.search(text):
                self.raw.append(f"{kind}/{o['name']}: {RAW.search(text).group(0)}")  # type: ignore[union-attr]
        return pv

    def compare(self, g: Game, seat: int, action: int, rec: dict[str, Any], rng: random.Random) -> None:
        """Apply ``action`` to a copy of the true game, through the choice's own consequences as the preview
        does (``play_out``: the true hands, other dice); check every certain claim against what happened."""
        s = g.state.clone()
        before = facts(s, seat)
        kind = g.decision()["kind"]  # type: ignore[index]
        after, _ = play_out(s, action, rng)
        actual = {tuple(_tuple(x) for x in e) for e in outcome(before, facts(after, seat))}
        for e in rec["certain"]:
            self.claims += 1
            if tuple(_tuple(x) for x in e) not in actual:
                self.mismatches.append(f"{kind}/{g.action_name(action)}: claimed {e}, got {sorted(actual, key=repr)}")


def _tuple(x: Any) -> Any:
    return tuple(x) if isinstance(x, list) else x


def play(tally: Tally, preset: str, n: int, seed: int, worlds: int, max_turns: int | None,
         only: set[str] | None = None) -> Game:
    """One whole game; previews at every decision (or only at the kinds ``only``)."""
    g = Game(players=n, seed=seed, preset=preset, max_turns=max_turns)
    rng = random.Random(seed)
    nobles = [make_agent("noble-rule-v1", seed=seed + i) if (seed + i) % 2 else None for i in range(n)] \
        if only is None else [None] * n
    for b in nobles:
        if b is not None:
            b.reset(seed)
    while not g.over:
        d = g.decision()
        assert d is not None
        p = d["player"]
        bot = nobles[p]
        a = (bot.act(g.view(p, log=False), d["options"], InfoSet(g.state, p)) if bot is not None
             else rng.choice(d["options"]))
        if only is not None and d["kind"] not in only:
            g.apply(a)
            continue
        pv = tally.check(g, worlds, seed + g.state.steps)
        tally.compare(g, p, a, pv[a], rng)
        g.apply(a)
    return g


def builder_positions(tally: Tally, missing: set[str], worlds: int) -> list[str]:
    """The builder positions of ``tests/test_wording.py`` (the decisions random games seldom reach) that lead
    to a kind still missing: walked as that test walks them, each decision previewed and checked."""
    if not missing:
        return []
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from test_wording import NO, POSITIONS, YES  # noqa: PLC0415 (the tests' own positions, only when needed)

    used = []
    for name, (build, kinds) in sorted(POSITIONS.items()):
        if not missing & set(kinds):
            continue
        used.append(name)
        g = build()
        for k in kinds:
            d = g.decision()
            if d is None or d["kind"] != k:
                break
            a = NO if k == "extradite_intrigue" else YES if YES in d["options"] else d["options"][-1]
            pv = tally.check(g, worlds, g.state.steps)
            tally.compare(g, d["player"], a, pv[a], random.Random(g.state.steps))
            g.apply(a)
    return used


def report(tally: Tally, games: int, extra: int, args: argparse.Namespace) -> dict[str, Any]:
    every = sorted(set(DECISION_CONTEXTS) - set(BUILDER_ONLY))
    missed = [k for k in every if k not in tally.kinds]
    ts = sorted(tally.times)
    return {
        "command": "python scripts/preview_check.py " + " ".join(sys.argv[1:]),
        "games": games, "extra_games": extra, "worlds": args.worlds, "max_turns": args.max_turns,
        "decisions": tally.decisions, "options": tally.options, "options_without_preview": len(tally.missing),
        "certain_claims_checked": tally.claims, "claims_not_matched": len(tally.mismatches),
        "options_with_exact_odds": tally.exact, "options_with_sampled_odds": tally.sampled,
        "free_actions_marked": tally.free, "options_confirmed_by_preview": tally.confirm,
        "raw_words": len(tally.raw),
        "ms_per_decision": {"mean": round(1000 * statistics.mean(ts), 1), "median": round(1000 * ts[len(ts) // 2], 1),
                            "p95": round(1000 * ts[int(len(ts) * 0.95)], 1), "max": round(1000 * ts[-1], 1)},
        "kinds_reached": len([k for k in every if k in tally.kinds]), "kinds_in_catalogue": len(every),
        "kinds_missed": missed, "builder_only_kinds": list(BUILDER_ONLY),
        "first_mismatches": tally.mismatches[:10], "first_missing": tally.missing[:10], "first_raw": tally.raw[:10],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--worlds", type=int, default=16)
    ap.add_argument("--max-turns", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--extra", type=int, default=400, help="quick games looking for the kinds not reached")
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    tally = Tally()
    t0 = time.time()
    for i in range(args.games):
        preset, n = PRESETS[i % len(PRESETS)], 2 + i % 5
        g = play(tally, preset, n, args.seed + i, args.worlds, args.max_turns)
        print(f"game {i + 1}: {preset}, {n} players, {g.state.steps} decisions, {g.result}; "
              f"{time.time() - t0:.0f}s so far", flush=True)
    every = set(DECISION_CONTEXTS) - set(BUILDER_ONLY)
    extra = 0
    while extra < args.extra and every - set(tally.kinds):
        i = args.games + extra
        play(tally, PRESETS[i % len(PRESETS)], 2 + i % 5, args.seed + i, args.worlds, None,
             only=every - set(tally.kinds))
        extra += 1
    built = builder_positions(tally, every - set(tally.kinds), args.worlds)
    out = report(tally, args.games, extra, args)
    out["builder_positions"] = built
    print(json.dumps(out, indent=1))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 1 if tally.missing or tally.mismatches or tally.raw else 0


if __name__ == "__main__":
    raise SystemExit(main())
