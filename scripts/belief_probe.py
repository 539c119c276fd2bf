"""How well does what a seat can know predict that an opponent is about to win? (issue 27)

    python scripts/belief_probe.py [--games 100] [--edition errata] [--horizon 3] [--worlds 8]

Plays 4-player games of ``noble-rule-v1`` (one deal per game, seeds from ``--seed``).  At each seat's first main decision of a turn, while a Monarch reigns who is not the
opponent's, it scores every opponent by

* ``face-up``: the opponent's best usurpation odds from the Support cards in front of him only
  (the ``opp<k>_best_front`` rule feature every policy sees);
* ``belief``: the mean of his best odds, Support cards in hand included, over ``--worlds`` worlds
  that ``engine.face.hidden.resample`` draws from the seat's information set (what the seat could
  compute; nothing hidden is read);
* ``mixture``: the same belief in closed form, cheap enough for an observation: each hidden card of
  his hand is an independent draw from the pool the seat cannot see (the pile and the other hands),
  so a Support card of each type with its share of that pool; the odds are one exact convolution
  (``rule_queries.belief_usurpation_chance`` over ``rule_queries.hidden_pool``, the belief block of
  the ``v1b`` observation, ``spaces/belief_features.py``);
* ``oracle``: his true best odds with his real hand (not knowable: the ceiling);
* ``hand size``,

and reports the area under the ROC curve of each for "this opponent wins within ``--horizon``
turns".  Scripted nobles keep their Support cards in hand until they usurp, so the face-up odds
say little; the gap between ``face-up`` and ``belief`` is what a belief feature could add.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from fandonia_env.agents import make_agent
from fandonia_env.engine import Game
from fandonia_env.engine.face.hidden import InfoSet, resample
from fandonia_env.engine.rules.rule_queries import belief_usurpation_chance, best_usurpation
from fandonia_env.tools.cli import positive_int, seed_arg

SCORES = ("face-up", "belief", "mixture", "oracle", "hand size")


def auc(score: np.ndarray, label: np.ndarray) -> float:
    """Area under the ROC curve (ties count one half); nan without both classes."""
    pos, neg = int(label.sum()), int(len(label) - label.sum())
    if not pos or not neg:
        return float("nan")
    order = np.argsort(score, kind="mergesort")
    s = score[order]
    ranks = np.empty(len(s))
    i = 0
    while i < len(s):  # average ranks over ties
        j = i
        while j + 1 < len(s) and s[j + 1] == s[i]:
            j += 1
        ranks[i:j + 1] = (i + j) / 2 + 1
        i = j + 1
    r = np.empty(len(s))
    r[order] = ranks
    return float((r[label == 1].sum() - pos * (pos + 1) / 2) / (pos * neg))


def probe(games: int, edition: str, horizon: int, worlds: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``(scores, labels)``: one row per (turn, seat, opponent), columns as ``SCORES``."""
    rows: list[tuple[float, ...]] = []
    labels: list[int] = []
    for gi in range(games):
        g = Game(players=4, seed=seed + gi, max_turns=60, edition=edition)
        bots = [make_agent("noble-rule-v1", seed=(seed + gi) * 10 + i) for i in range(4)]
        rng = random.Random(seed + gi)
        seen: set[tuple[int, int]] = set()
        recs: list[tuple[int, int, tuple[float, ...]]] = []
        while not g.over:
            p, st = g.current_player(), g.state
            if g.decision()["kind"] == "turn_main" and (st.turn, p) not in seen and st.monarch is not None:
                seen.add((st.turn, p))
                view = g.view(p, log=False)
                for k in range(1, 4):
                    o = (p + k) % 4
                    if st.chars[st.monarch].owner == o:
                        continue  # he already reigns through his royal: nothing to usurp
                    belief = float(np.mean([best_usurpation(resample(st, p, rng), o)[1] for _ in range(worlds)]))
                    recs.append((st.turn, o, (best_usurpation(view, o, with_hand=False)[1], belief,
                                              belief_usurpation_chance(st, p, o), best_usurpation(st, o)[1],
                                              float(len(st.players[o].hand)))))
            g.apply(bots[p].act(g.view(p, log=False), g.legal_actions(), InfoSet(st, p)))
        end, w = g.state.turn, g.winner
        for turn, o, sc in recs:
            rows.append(sc)
            labels.append(int(w == o and end - turn <= horizon))
    return np.array(rows, dtype=float), np.array(labels)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=positive_int, default=100, help="games (default 100)")
    ap.add_argument("--edition", choices=("1981", "errata"), default="errata")
    ap.add_argument("--horizon", type=positive_int, default=3, help="turns ahead of the label (default 3)")
    ap.add_argument("--worlds", type=positive_int, default=8, help="resampled worlds per belief (default 8)")
    ap.add_argument("--seed", type=seed_arg, default=123000, help="first deal seed (default 123000)")
    a = ap.parse_args(argv)
    t = time.perf_counter()
    x, y = probe(a.games, a.edition, a.horizon, a.worlds, a.seed)
    print(f"{a.edition}: {a.games} games, {len(y)} (turn, seat, opponent) rows, {int(y.sum())} where the opponent "
          f"wins within {a.horizon} turns ({time.perf_counter() - t:.0f} s)")
    print("| score | AUC |\n|---|---:|")
    for i, name in enumerate(SCORES):
        print(f"| {name} | {auc(x[:, i], y):.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
