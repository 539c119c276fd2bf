"""Tournaments between registered agents, with seat rotation and duplicate seeds.

    python -m fandonia_env.tournament --agents noble-rule-v1,random-v1 --players 4 --games 40 \\
        --seed 0 --max-turns 60 --jobs 2 --out runs/t1
    python -m fandonia_env.tournament --lineup noble-rule-v1,random-v1,random-v1,random-v1 --games 40

Seats.  ``--agents a,b`` fills the ``--players`` seats by cycling the list (a,b,a,b);
``--lineup a,b,c,d`` gives every seat explicitly (its length is the number of players).

Duplicate seeds and seat rotation.  Every deal seed (``seed``, ``seed+1``, ...; the seed fixes
the deal and every die roll of the game) is played under every *distinct* rotation of the
lineup: rotation r puts ``lineup[(i + r) % n]`` at seat i.  So each agent meets the same deals
and dice from every seat it can occupy.  Rotations that give the same seating are played once
(a,b,a,b has 2 distinct rotations, a,a,a,a has 1).  ``--games`` is the total number of games,
rounded up to a whole number of deals: deals = ceil(games / rotations).  The agents' own seeds
are derived from the deal seed, the seat and the rotation, so a run is reproducible: the same
arguments give the same games whatever ``--jobs`` is.

Finishing order (for mean rank and the rating).  The winner (result ``win``) is first.  The
others (everybody in a draw or a truncated game) are ordered by, in turn:
  1. a FARC of theirs now reigning toward victory (``state.reign``, §37) ranks first;
  2. more Prestige + Influence Points (``pp + ip``);
  3. higher total Status (``rule_queries.status``) of the living characters of their faction.
Players equal on all of these share the mean of the places they cover (1, 2.5, 2.5, 4).

Statistics (per agent).  ``games`` is the number of games it played (once per game, whatever its
seats; ``seat_games`` in results.json counts an agent at k seats of a game k times); ``wins``,
``draws``, ``truncated`` count those games by result; ``win share`` is games won / games played
(a fair baseline is its seats/players times the share of decided games; results.json also has
``win_rate``, seats won / seat-games); ``mean rank`` the mean finishing place of its seats
(1 = best).  95% confidence intervals are percentile bootstraps that resample whole games
(numpy, 2000 resamples by default), which respects the pairing of the duplicate deals; they are
given only where they mean something: more than one game and per-game values that vary (an
agent filling the same places in every game, or winning none, gets the value without a CI and
``null`` in results.json).  The rating is an
OpenSkill Plackett-Luce rating (``openskill`` package) fitted game by game in deal/rotation
order from the finishing order (every seat a team of one; ties share a rank; an agent at several
seats of one game gets the mean of its seats' updates).  ``openskill`` and ``matplotlib`` are
optional: without them the rating / the plot are skipped and the run says so.

Output (``--out DIR``): ``results.json`` (config, per game: seed, deal, rotation, lineup, seats,
result, winner, finishing order, ranks, turns, decisions, seconds; and the summary),
``summary.md`` (the Markdown table, also printed) and ``ratings.png``; the command prints a
``wrote PATH`` line for each.  Bad arguments (a player count outside 2..6, ``--games 0``, an
unknown agent id, a negative ``--max-turns``; 0 means no turn limit) stop it before any game.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import os
import textwrap
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..envs.common import DEFAULT_MAX_TURNS
from ..tools.cli import Progress

__all__ = [
    "TABLE_NOTE", "TournamentResult", "agent_seed", "distinct_rotations", "finishing_order", "fit_ratings", "main",
    "make_lineup", "markdown_table", "play_game", "plot_ratings", "run_tournament", "schedule", "seat_agents",
    "summarize",
]

# ---------------------------------------------------------------------------
# Scheduling
# ---------------------------------------------------------------------------


def make_lineup(agents: Sequence[str] | None = None, players: int | None = None,
                lineup: Sequence[str] | None = None) -> list[str]:
    """The seat -> agent id list: ``lineup`` as given, or ``agents`` cycled over ``players`` seats."""
    if lineup:
        out = list(lineup)
        if players is not None and players != len(out):
            raise ValueError(f"--lineup has {len(out)} seats but --players is {players}")
    else:
        if not agents:
            raise ValueError("give agents or a lineup")
        if players is None:
            raise ValueError("players is needed with agents")
        out = [agents[i % len(agents)] for i in range(players)]
    if not 2 <= len(out) <= 6:
        raise ValueError(f"a game has 2 to 6 players, the lineup has {len(out)}")
    return out


def distinct_rotations(lineup: Sequence[str]) -> list[int]:
    """The rotations r (0..n-1) giving distinct seatings, seat i -> lineup[(i + r) % n]."""
    n = len(lineup)
    seen: set[tuple[str, ...]] = set()
    out = []
    for r in range(n):
        seating = tuple(lineup[(i + r) % n] for i in range(n))
        if seating not in seen:
            seen.add(seating)
            out.append(r)
    return out


def agent_seed(deal_seed: int, rotation: int, seat: int) -> int:
    """A reproducible seed for the agent at ``seat`` (independent of scheduling and jobs)."""
    ss = np.random.SeedSequence([deal_seed, rotation, seat, 0xFA17D])
    return int(ss.generate_state(1)[0] & 0x7FFFFFFF)


def schedule(lineup: Sequence[str], games: int, seed: int) -> list[dict[str, Any]]:
    """The games to play: every deal seed under every distinct rotation, deal-major."""
    rots = distinct_rotations(lineup)
    n = len(lineup)
    deals = max(1, math.ceil(games / len(rots)))
    tasks = []
    for d in range(deals):
        s = seed + d
        for r in rots:
            tasks.append({"index": len(tasks), "deal": d, "seed": s, "rotation": r,
                          "seats": [lineup[(i + r) % n] for i in range(n)]})
    return tasks


# ---------------------------------------------------------------------------
# Playing one game
# ---------------------------------------------------------------------------


def finishing_order(state: Any) -> tuple[list[int], list[float]]:
    """(order, ranks): players best first (ties by seat), and each player's place (1 = best).

    Tied players share the mean of the places they cover (1, 2.5, 2.5, 4), so the places of a
    game always sum to n(n+1)/2 and an agent playing itself has mean rank (n+1)/2."""
    from ..engine.rules.rule_queries import faction, status

    n = state.n
    reigning = None
    r = getattr(state, "reign", None)
    if r and state.result != "win":
        reigning = r.get("player")

    def key(p: int) -> tuple:
        if state.result == "win" and state.winner == p:
            return (0, 0, 0, 0)
        pl = state.players[p]
        stat = 0
        for cid in faction(state, p):
            if not state.chars[cid].dead:
                stat += status(state, cid)
        return (1, 0 if reigning == p else 1, -(pl.pp + pl.ip), -stat)

    keys = {p: key(p) for p in range(n)}
    order = sorted(range(n), key=lambda p: (keys[p], p))
    ranks: list[float] = [0.0] * n
    i = 0
    while i < n:
        j = i
        while j + 1 < n and keys[order[j + 1]] == keys[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1  # places i+1..j+1 shared: their mean
        i = j + 1
    return order, ranks


def seat_agents(task: dict[str, Any]) -> list[Any]:
    """The agents of a scheduled game, each seeded for its seat (``agent_seed``) and reset: replaying
    a task's game with them gives the same game the tournament played."""
    import fandonia_env.agents as agent_registry

    bots = []
    for i, aid in enumerate(task["seats"]):
        s = agent_seed(task["seed"], task["rotation"], i)
        bot = agent_registry.make_agent(aid, seed=s)
        bot.reset(s)
        bots.append(bot)
    return bots


def play_game(task: dict[str, Any], max_turns: int | None = None,
              rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play one scheduled game and return its record."""
    from ..engine import Game
    from ..engine.face.hidden import InfoSet

    seats = task["seats"]
    n = len(seats)
    bots = seat_agents(task)
    t0 = time.perf_counter()
    g = Game(players=n, seed=task["seed"], max_turns=max_turns, **(rules or {}))
    think = [0.0] * n
    per_seat = [0] * n
    while not g.over:
        p = g.current_player()
        legal = g.legal_actions()
        t = time.perf_counter()
        a = bots[p].act(g.seat_view(p), legal, InfoSet(g.state, p))
        think[p] += time.perf_counter() - t
        per_seat[p] += 1
        g.apply(a)
    order, ranks = finishing_order(g.state)
    st = g.state
    return {
        **task,
        "result": g.result,
        "winner": g.winner,
        "winner_agent": None if g.winner is None else seats[g.winner],
        "order": order,
        "ranks": ranks,
        "points": [{"pp": pl.pp, "ip": pl.ip} for pl in st.players],
        "turns": st.turn,
        "decisions": st.steps,
        "decisions_by_seat": per_seat,
        "think_s": [round(x, 6) for x in think],
        "seconds": round(time.perf_counter() - t0, 6),
    }


def _play_star(args: tuple[dict[str, Any], int | None, dict[str, Any] | None]) -> dict[str, Any]:
    return play_game(*args)


# ---------------------------------------------------------------------------
# Statistics
# ---------------------------------------------------------------------------


def _bootstrap_ratio(num: np.ndarray, den: np.ndarray, B: int, rng: np.random.Generator,
                     chunk: int = 250) -> tuple[float, float]:
    """Percentile 95% CI of sum(num)/sum(den) over games resampled with replacement.

    ``num``/``den``: (games, agents).  Returns arrays (lo, hi) per agent."""
    G = num.shape[0]
    stats = []
    p = np.full(G, 1.0 / G)
    for start in range(0, B, chunk):
        b = min(chunk, B - start)
        w = rng.multinomial(G, p, size=b).astype(np.float64)  # (b, G) resample counts
        nn = w @ num
        dd = w @ den
        with np.errstate(invalid="ignore", divide="ignore"):
            stats.append(nn / dd)
    s = np.concatenate(stats, axis=0)
    return np.nanpercentile(s, 2.5, axis=0), np.nanpercentile(s, 97.5, axis=0)


def _ci_means_something(num: np.ndarray, den: np.ndarray) -> bool:
    """A bootstrap CI of sum(num)/sum(den) is worth printing: more than one game and the per-game
    values num/den (over the games with den > 0) not all equal (else every resample gives the
    same value and the 'interval' is a single point)."""
    played = den > 0
    if played.sum() < 2:
        return False
    vals = num[played] / den[played]
    return bool(np.ptp(vals) > 1e-12)


def summarize(games: list[dict[str, Any]], agent_ids: Sequence[str], bootstrap: int = 2000,
              seed: int = 0) -> dict[str, Any]:
    """Per-agent statistics with bootstrap 95% CIs; results count; seats.

    Per agent: ``games`` (games it played, once per game whatever its seats), ``seat_games``,
    ``wins``/``draws``/``truncated`` (games), ``win_share`` (games won / games played),
    ``win_rate`` (seats won / seat-games), ``mean_rank``; the ``*_ci`` keys are [lo, hi], or None
    where a CI means nothing (one game, or the same value in every game)."""
    ids = list(agent_ids)
    col = {a: j for j, a in enumerate(ids)}
    G, A = len(games), len(ids)
    seats_n = np.zeros((G, A))
    wins = np.zeros((G, A))
    rank_sum = np.zeros((G, A))
    for g_i, g in enumerate(games):
        for seat, aid in enumerate(g["seats"]):
            j = col[aid]
            seats_n[g_i, j] += 1
            rank_sum[g_i, j] += g["ranks"][seat]
            if g["winner"] == seat:
                wins[g_i, j] += 1
    played = (seats_n > 0).astype(np.float64)
    rng = np.random.default_rng(seed)
    out: dict[str, Any] = {"agents": {}, "results": {}, "seats": []}
    if G:
        wl, wh = _bootstrap_ratio(wins, seats_n, bootstrap, rng)
        rl, rh = _bootstrap_ratio(rank_sum, seats_n, bootstrap, rng)
        sl, sh = _bootstrap_ratio(wins, played, bootstrap, rng)

    def ci(lo: np.ndarray, hi: np.ndarray, num: np.ndarray, den: np.ndarray, j: int) -> list[float] | None:
        return [float(lo[j]), float(hi[j])] if G and _ci_means_something(num[:, j], den[:, j]) else None

    for j, a in enumerate(ids):
        n_a = seats_n[:, j].sum()
        g_a = played[:, j].sum()
        res = [g["result"] for g_i, g in enumerate(games) if played[g_i, j]]
        out["agents"][a] = {
            "games": int(g_a),
            "seat_games": int(n_a),
            "wins": int(wins[:, j].sum()),
            "draws": res.count("draw"),
            "truncated": res.count("truncated"),
            "win_share": float(wins[:, j].sum() / g_a) if g_a else float("nan"),
            "win_share_ci": ci(sl, sh, wins, played, j),
            "win_rate": float(wins[:, j].sum() / n_a) if n_a else float("nan"),
            "win_rate_ci": ci(wl, wh, wins, seats_n, j),
            "mean_rank": float(rank_sum[:, j].sum() / n_a) if n_a else float("nan"),
            "mean_rank_ci": ci(rl, rh, rank_sum, seats_n, j),
        }
    for g in games:
        out["results"][g["result"]] = out["results"].get(g["result"], 0) + 1
    n_players = len(games[0]["seats"]) if games else 0
    for s in range(n_players):
        out["seats"].append({"seat": s, "wins": sum(1 for g in games if g["winner"] == s),
                             "mean_rank": float(np.mean([g["ranks"][s] for g in games]))})
    if games:
        out["mean_turns"] = float(np.mean([g["turns"] for g in games]))
        out["mean_decisions"] = float(np.mean([g["decisions"] for g in games]))
    return out


def fit_ratings(games: list[dict[str, Any]], agent_ids: Sequence[str]) -> dict[str, Any] | None:
    """OpenSkill Plackett-Luce ratings from the finishing orders, or None without openskill."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        return None
    model = PlackettLuce()
    ratings = {a: model.rating(name=a) for a in agent_ids}
    for g in sorted(games, key=lambda g: g["index"]):
        teams = [[model.rating(mu=ratings[a].mu, sigma=ratings[a].sigma, name=a)] for a in g["seats"]]
        new = model.rate(teams, ranks=list(g["ranks"]))
        acc: dict[str, list[tuple[float, float]]] = {}
        for aid, team in zip(g["seats"], new):
            acc.setdefault(aid, []).append((team[0].mu, team[0].sigma))
        for aid, vals in acc.items():
            mu = sum(v[0] for v in vals) / len(vals)
            sigma = sum(v[1] for v in vals) / len(vals)
            ratings[aid] = model.rating(mu=mu, sigma=sigma, name=aid)
    return {a: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.mu - 3 * r.sigma} for a, r in ratings.items()}


def plot_ratings(ratings: dict[str, Any], path: str, title: str = "") -> bool:
    """Ratings as mu ± 2 sigma error bars (PNG); False without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    names = sorted(ratings, key=lambda a: -ratings[a]["mu"])
    mu = [ratings[a]["mu"] for a in names]
    err = [2 * ratings[a]["sigma"] for a in names]
    fig, ax = plt.subplots(figsize=(max(6.0, 1.4 * len(names) + 2), 4.0))
    ax.errorbar(range(len(names)), mu, yerr=err, fmt="o", capsize=6)
    ax.set_xticks(range(len(names)), names, rotation=20, ha="right")
    ax.set_ylabel("rating mu ± 2 sigma (OpenSkill PL)")
    ax.set_xlim(-0.5, len(names) - 0.5)
    ax.grid(axis="y", alpha=0.3)
    if title:
        ax.set_title("\n".join(textwrap.wrap(title, 70)), fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


TABLE_NOTE = ("games: games the agent played (once per game, whatever its seats); seats/game: its seats at "
              "each table; win share: games won / games played; mean rank: its mean finishing place (1 = best). "
              "[95% CI]: percentile bootstrap over whole games, shown only where it means something (more than "
              "one game and values that vary from game to game). rating: OpenSkill Plackett-Luce mu ± sigma.")


def _with_ci(value: float, ci: list[float] | None, fmt: str) -> str:
    if value != value:  # nan: no games
        return "n/a"
    v = format(value, fmt)
    return f"{v} [{format(ci[0], fmt)}, {format(ci[1], fmt)}]" if ci else v


def markdown_table(summary: dict[str, Any], ratings: dict[str, Any] | None) -> str:
    """The results table: per agent games, wins/draws/truncated, seats per game, win share and mean
    rank (with a 95% CI where it means something), rating mu ± sigma; then a note on the columns."""
    rows = ["| agent | games | wins | draws | truncated | seats/game | win share [95% CI] | mean rank [95% CI] "
            "| rating (mu ± sigma) |",
            "|---|---:|---:|---:|---:|---:|---|---|---:|"]
    order = list(summary["agents"])
    if ratings:
        order.sort(key=lambda a: -ratings[a]["mu"])
    for a in order:
        s = summary["agents"][a]
        per = s["seat_games"] / s["games"] if s["games"] else None
        seats = "n/a" if per is None else f"{per:.0f}" if per == int(per) else f"{per:.2f}"
        rating = f"{ratings[a]['mu']:.2f} ± {ratings[a]['sigma']:.2f}" if ratings else "–"
        rows.append(f"| {a} | {s['games']} | {s['wins']} | {s['draws']} | {s['truncated']} | {seats} | "
                    f"{_with_ci(s['win_share'], s['win_share_ci'], '.3f')} | "
                    f"{_with_ci(s['mean_rank'], s['mean_rank_ci'], '.2f')} | {rating} |")
    return "\n".join(rows) + "\n\n" + TABLE_NOTE


# ---------------------------------------------------------------------------
# The tournament
# ---------------------------------------------------------------------------


@dataclass
class TournamentResult:
    config: dict[str, Any]
    games: list[dict[str, Any]]
    summary: dict[str, Any]
    ratings: dict[str, Any] | None
    markdown: str
    notes: list[str] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"config": self.config, "summary": self.summary, "ratings": self.ratings,
                "notes": self.notes, "games": self.games}


def _play_all(tasks: list[Any], max_turns: int | None, rules: dict[str, Any], jobs: int,
              progress: bool) -> list[dict[str, Any]]:
    """Every game of ``tasks``, in this process (``jobs`` 1) or in a pool of ``jobs`` processes, in the order
    they end."""
    bar = Progress(len(tasks), unit="game", enabled=progress)
    records: list[dict[str, Any]] = []
    if jobs == 1:
        for t in tasks:
            records.append(play_game(t, max_turns, rules))
            bar.update()
    else:
        ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        with ctx.Pool(jobs) as pool:
            for rec in pool.imap_unordered(_play_star, [(t, max_turns, rules) for t in tasks]):
                records.append(rec)
                bar.update()
    bar.close()
    return records


def _write(result: TournamentResult, out: str, plot: bool, head: str) -> None:
    """``summary.md``, ``ratings.png`` (``plot``, with openskill and matplotlib) and ``results.json`` under
    ``out``; their paths in ``result.files``, what was skipped in ``result.notes``."""
    md, ratings, notes = result.markdown, result.ratings, result.notes
    os.makedirs(out, exist_ok=True)
    mp_ = os.path.join(out, "summary.md")
    with open(mp_, "w") as f:
        f.write(md)
    result.files["markdown"] = mp_
    if plot and ratings is not None:
        pp = os.path.join(out, "ratings.png")
        if plot_ratings(ratings, pp, head):
            result.files["plot"] = pp
        else:
            notes.append("plot skipped: matplotlib is not installed (pip install matplotlib)")
    elif plot:
        notes.append("plot skipped: no rating to plot")
    jp = os.path.join(out, "results.json")
    with open(jp, "w") as f:
        json.dump(result.to_json(), f, indent=1)
    result.files["json"] = jp


def run_tournament(agents: Sequence[str] | None = None, players: int | None = 4, games: int = 40,
                   seed: int = 0, max_turns: int | None = DEFAULT_MAX_TURNS, jobs: int | None = None,
                   out: str | None = None, lineup: Sequence[str] | None = None, bootstrap: int = 2000,
                   progress: bool = True, plot: bool = True,
                   rules: dict[str, Any] | None = None) -> TournamentResult:
    """Play a tournament and return its results (and write them under ``out`` if given).

    ``rules``: ``preset``/``edition``/``optional`` keyword arguments for every ``Game``.

    See the module docstring for seating, rotations, finishing order and statistics."""
    import fandonia_env.agents as agent_registry

    seats = make_lineup(agents, None if lineup else players, lineup)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be an int >= 1, got {games!r}")
    for a in dict.fromkeys(seats):
        agent_registry.check_agent(a)  # a registered id or ppo:PATH
    ids = list(dict.fromkeys(seats))
    rules = dict(rules or {})
    from ..engine.face.game import make_config

    rcfg = make_config(**rules)  # validate before starting workers
    tasks = schedule(seats, games, seed)
    jobs = (os.cpu_count() or 1) if jobs is None else max(1, jobs)
    jobs = min(jobs, len(tasks))
    t0 = time.perf_counter()
    records = _play_all(tasks, max_turns, rules, jobs, progress)
    wall = time.perf_counter() - t0
    records.sort(key=lambda g: g["index"])
    rots = distinct_rotations(seats)
    config = {"lineup": seats, "agents": ids, "players": len(seats), "games": len(records),
              "deals": len(records) // len(rots), "rotations": rots, "seed": seed, "max_turns": max_turns,
              "jobs": jobs, "bootstrap": bootstrap, "wall_s": round(wall, 3),
              "edition": rcfg["edition"], "optional": rcfg["optional"],
              "tiebreak": "winner; FARC reigning toward victory; pp+ip; faction Status (living)"}
    summary = summarize(records, ids, bootstrap, seed)
    notes: list[str] = []
    ratings = fit_ratings(records, ids)
    if ratings is None:
        notes.append("rating skipped: the openskill package is not installed (pip install openskill)")
    table = markdown_table(summary, ratings)
    res = ", ".join(f"{k} {v}" for k, v in sorted(summary["results"].items()))
    seat_wins = ", ".join(f"seat {s['seat']}: {s['wins']} wins, mean rank {s['mean_rank']:.2f}"
                          for s in summary["seats"])
    limit = "no turn limit" if max_turns is None else f"max turns {max_turns}"
    head = (f"Tournament: lineup {','.join(seats)}; {len(records)} games = {config['deals']} deals × "
            f"{len(rots)} rotation(s); seed {seed}; {limit}; edition {rcfg['edition']}, "
            f"optional rules: {', '.join(rcfg['optional']) or 'none'}.")
    md = (f"{head}\n\n{table}\n\nResults: {res}. By seat: {seat_wins}. "
          f"Mean {summary.get('mean_turns', 0):.1f} turns, {summary.get('mean_decisions', 0):.0f} decisions "
          f"per game; {wall:.1f} s wall with {jobs} job(s).\n")
    result = TournamentResult(config, records, summary, ratings, md, notes)
    if out:
        _write(result, out, plot, head)
    return result


def add_deal_args(ap: argparse.ArgumentParser) -> None:
    """``--seed``, ``--max-turns`` and ``--jobs``, as the tournament and the demo take them."""
    from ..tools.cli import max_turns_arg, positive_int, seed_arg

    ap.add_argument("--seed", type=seed_arg, default=0, help="first deal seed, >= 0 (default 0)")
    ap.add_argument("--max-turns", type=max_turns_arg, default=DEFAULT_MAX_TURNS,
                    help=f"turn limit, 0 for none (default {DEFAULT_MAX_TURNS})")
    ap.add_argument("--jobs", type=positive_int, default=None, help="worker processes, >= 1 (default: all cores)")


def show_result(r: TournamentResult) -> None:
    """Print a tournament's Markdown summary and notes, and name the files written."""
    from ..tools.cli import report_written

    print(r.markdown)
    for n in r.notes:
        print(f"note: {n}")
    report_written(r.files.values())


def main(argv: Iterable[str] | None = None) -> int:
    from ..tools.cli import add_rules_args, agent_list_arg, players_arg, positive_int, rules_from_args

    ap = argparse.ArgumentParser(prog="python -m fandonia_env.tournament",
                                 description="Tournament between registered agents (seat rotation, duplicate seeds).")
    ap.add_argument("--agents", type=agent_list_arg,
                    help="registered agent ids, cycled over the seats (e.g. noble-rule-v1,random-v1)")
    ap.add_argument("--lineup", type=agent_list_arg,
                    help="agent id of every seat (its length, 2 to 6, sets the number of players)")
    ap.add_argument("--players", type=players_arg, default=None, help="seats with --agents, 2 to 6 (default 4)")
    ap.add_argument("--games", type=positive_int, default=40,
                    help="total games, >= 1, rounded up to whole deals (default 40)")
    add_deal_args(ap)
    ap.add_argument("--bootstrap", type=positive_int, default=2000, help="bootstrap resamples, >= 1 (default 2000)")
    ap.add_argument("--out", default=None, help="directory for results.json, summary.md, ratings.png")
    ap.add_argument("--no-progress", action="store_true")
    add_rules_args(ap)
    a = ap.parse_args(list(argv) if argv is not None else None)
    rules = rules_from_args(a, ap)
    if not a.agents and not a.lineup:
        ap.error("give --agents or --lineup")
    if a.agents and a.lineup:
        ap.error("give --agents or --lineup, not both")
    players = a.players if a.players is not None else (None if a.lineup else 4)
    try:
        make_lineup(a.agents, players, a.lineup)  # a --lineup of 7 seats, or one disagreeing with --players
    except ValueError as e:
        ap.error(str(e))
    r = run_tournament(a.agents, players, a.games, a.seed, a.max_turns, a.jobs, a.out, a.lineup,
                       a.bootstrap, progress=not a.no_progress, rules=rules)
    show_result(r)
    return 0
