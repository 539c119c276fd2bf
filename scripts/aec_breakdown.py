"""Where an AEC step of ``fandonia_v0`` goes: the whole step, the step with a constant observation
instead of the encoder, and the engine alone on the same actions (CPU time per step, best of rounds).

    python scripts/aec_breakdown.py [--games 5] [--players 4] [--rounds 3]

The engine that runs is the one ``fandonia_env.engine.COMPILED`` names (``FANDONIA_ENGINE=pure`` for
the pure one).  Used for ``docs/benchmarks.md``, issue 12."""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from fandonia_env import engine
from fandonia_env.envs.fandonia_v0 import env as make_env
from fandonia_env.envs.fandonia_v0 import raw_env
from fandonia_env.spaces.observation import OBS_SIZE, encode


def aec(games: int, players: int, enc: object) -> tuple[float, list[list[int]]]:
    """CPU µs per step of the standard AEC loop, and each game's actions."""
    raw_env._encode = staticmethod(enc)  # type: ignore[assignment]
    try:
        e = make_env(players=players, max_turns=100)
        rng = random.Random(0)
        steps, played = 0, []
        t = time.process_time()
        for g in range(games):
            e.reset(seed=g)
            acts: list[int] = []
            for _agent in e.agent_iter():
                obs, _r, term, trunc, _info = e.last()
                if term or trunc:
                    e.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                a = int(legal[rng.randrange(len(legal))])
                acts.append(a)
                e.step(a)
            steps += len(acts)
            played.append(acts)
        return 1e6 * (time.process_time() - t) / steps, played
    finally:
        raw_env._encode = staticmethod(encode)


def engine_only(players: int, played: list[list[int]]) -> float:
    e = make_env(players=players, max_turns=100)
    t, steps = 0.0, 0
    for g, acts in enumerate(played):
        e.reset(seed=g)
        game = e.unwrapped.game
        t0 = time.process_time()
        for a in acts:
            game.legal_actions()
            game.apply(a)
        t += time.process_time() - t0
        steps += len(acts)
    return 1e6 * t / steps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    zero = np.zeros(OBS_SIZE, np.float32)
    full, null, eng = [], [], []
    played: list[list[int]] = []
    for _ in range(a.rounds):
        us, played = aec(a.games, a.players, encode)
        full.append(us)
        null.append(aec(a.games, a.players, lambda st, i: zero.copy())[0])
        eng.append(engine_only(a.players, played))
    f, n, g = min(full), min(null), min(eng)
    print(f"engine: {'compiled' if engine.COMPILED else 'pure'}; {a.players} players, {a.games} games, "
          f"{sum(map(len, played))} steps; CPU µs per step, best of {a.rounds}")
    print(f"AEC step {f:.1f} | encoder {f - n:.1f} | Game.apply + legal_actions {g:.1f} | env and loop {n - g:.1f}")


if __name__ == "__main__":
    main()
