"""OpenSpiel's information-set MCTS bot against the project's nobles, through the tournament runner (issue 44).

    python scripts/ismcts_vs_nobles.py [--games 100] [--simulations 8] [--horizon 20] [--seed 44000000]
        [--lineup noble-rule-v1,noble-ppo-v2,random-v1] [--preset 1981] [--jobs 2] [--out runs/ismcts_vs_nobles]

Seats ``openspiel:ismcts?simulations=S&horizon=H`` (OpenSpiel's ``ISMCTSBot`` resampling the seat's information
set every simulation, ``fandonia_env.agents.openspiel_bot``) at a 4-player table with the nobles of ``--lineup``
(three ids), and plays ``--games`` whole games (duplicate deals, every seat rotation, the environments' turn
limit) with ``fandonia_env.arena.tournament.run_tournament``.  Prints the command and the tournament's results
table (win share and mean rank with 95% bootstrap CIs, OpenSkill rating); ``--out`` keeps results.json and
summary.md.  Needs the ``openspiel`` extra.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time

from fandonia_env.extras import require_extra


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100, help="whole games (default 100: 25 deals x 4 rotations)")
    ap.add_argument("--simulations", type=int, default=8, help="IS-MCTS simulations per decision (default 8)")
    ap.add_argument("--horizon", type=int, default=20, help="player moves per rollout (default 20)")
    ap.add_argument("--rollout", default="random", choices=["random", "noble-rule-v1"],
                    help="who plays the rollouts (default random)")
    ap.add_argument("--lineup", default="noble-rule-v1,noble-ppo-v2,random-v1",
                    help="the three nobles at the other seats (default noble-rule-v1,noble-ppo-v2,random-v1)")
    ap.add_argument("--seed", type=int, default=44_000_000, help="first deal seed (default 44000000)")
    ap.add_argument("--max-turns", type=int, default=60, help="turn limit, 0 for none (default 60)")
    ap.add_argument("--preset", default=None, help="rules preset (default: the 1981 rules)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--out", default=None, help="folder for results.json and summary.md")
    a = ap.parse_args(argv)
    require_extra("openspiel", "scripts/ismcts_vs_nobles.py", cli=True)
    from fandonia_env.arena.tournament import run_tournament

    others = [x.strip() for x in a.lineup.split(",") if x.strip()]
    if len(others) != 3:
        ap.error(f"--lineup names the three nobles at the other seats, got {others}")
    if a.games < 1 or a.simulations < 1 or a.horizon < 0 or a.jobs < 1 or a.max_turns < 0:
        ap.error("--games, --simulations and --jobs must be >= 1, --horizon and --max-turns >= 0")
    bot = f"openspiel:ismcts?simulations={a.simulations}&horizon={a.horizon}&rollout={a.rollout}"
    rules = {"preset": a.preset} if a.preset else {}
    print("$ python " + " ".join(shlex.quote(x) for x in [sys.argv[0], *(argv if argv is not None else sys.argv[1:])]))
    t0 = time.perf_counter()
    r = run_tournament(lineup=[bot, *others], games=a.games, seed=a.seed, max_turns=a.max_turns or None,
                       jobs=a.jobs, out=a.out, rules=rules, plot=False)
    print(r.markdown)
    s = r.summary["agents"][bot]
    print(f"{bot}: {s['games']} whole games, win share {s['win_share']:.3f}, mean rank {s['mean_rank']:.2f}; "
          f"{time.perf_counter() - t0:.0f} s wall")
    for f in r.files.values():
        print(f"wrote {f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
