"""Batched self-play (issue 27): the actor's records are the games it played."""

from __future__ import annotations

import numpy as np
import pytest

from fandonia_env.agents.ppo_agent import NOBLE_PPO_V1, load_policy
from fandonia_env.engine.core.actions import NUM_ACTIONS
from fandonia_env.training.bench_selfplay import main as bench_main
from fandonia_env.training.selfplay import Actor, Batch, SelfPlayConfig, run_actors, sample


@pytest.fixture(scope="module")
def policy():
    return load_policy(NOBLE_PPO_V1)


def test_actor_records_legal_decisions_of_finished_games(policy) -> None:
    cfg = SelfPlayConfig(games=6, players=(2, 3), presets=("1981", "errata"), opponents=("self", "noble-rule-v1"),
                         learner_seats=1, max_turns=6, seed=3)
    b = Actor(policy, cfg).collect(decisions=200)
    assert len(b) >= 200
    assert b.obs.shape == (len(b), policy.obs_size) and b.obs.dtype == np.float16
    assert b.mask.shape == (len(b), NUM_ACTIONS)
    assert b.mask[np.arange(len(b)), b.action.astype(int)].all(), "an action outside its legal mask"
    assert (b.mask.sum(axis=1) >= 2).all(), "a recorded decision with fewer than two options"
    assert np.isfinite(b.logp).all() and (b.logp <= 1e-6).all()
    assert set(np.unique(b.players)) <= {2, 3}
    # one reward per game for the learner's seat, in the zero-sum set of docs/rewards.md
    for gi in np.unique(b.game):
        r = b.reward[b.game == gi]
        assert (r == r[0]).all() or len(set(b.players[b.game == gi])) == 1
        assert set(np.round(r, 4)) <= {1.0, 0.0, -1.0, -0.5}
    st = b.stats
    assert st["games"] >= 1 and st["learner_decisions"] >= len(b)
    # the game turns left from each decision to its game's end: never negative, never above the
    # turn limit, and never growing along one seat's decisions of one game
    assert b.turns_left is not None and b.turns_left.shape == (len(b),)
    assert (b.turns_left >= 0).all() and (b.turns_left <= cfg.max_turns).all()
    for gi in np.unique(b.game):
        for seat in np.unique(b.seat[b.game == gi]):
            left = b.turns_left[(b.game == gi) & (b.seat == seat)]
            assert (np.diff(left) <= 0).all()


def test_pure_self_play_records_every_seat_and_rewards_sum_to_zero(policy) -> None:
    cfg = SelfPlayConfig(games=4, players=(3,), presets=("1981",), opponents=("self",), learner_seats=None,
                         max_turns=8, seed=5)
    b = Actor(policy, cfg).collect(decisions=300)
    assert b.stats["decisions"] == b.stats["learner_decisions"]  # every seat is the network's
    for gi in np.unique(b.game):
        sel = b.game == gi
        # every seat's reward of a game: zero-sum (a win: +1 and -1/2 twice; else 0)
        seats_rewards = sorted(set(np.round(b.reward[sel], 4)))
        assert seats_rewards in ([0.0], [-0.5, 1.0], [-0.5]) or seats_rewards == [1.0]


def test_the_same_seed_plays_the_same_games(policy) -> None:
    cfg = SelfPlayConfig(games=3, players=(2,), presets=("errata",), max_turns=5, seed=11)
    a = Actor(policy, cfg).collect(decisions=120)
    b = Actor(policy, cfg).collect(decisions=120)
    assert np.array_equal(a.action, b.action) and np.array_equal(a.obs, b.obs)


def test_an_opponent_id_ending_in_a_star_takes_whole_tables(policy) -> None:
    cfg = SelfPlayConfig(games=60, players=(4,), presets=("1981",), opponents=("noble-rule-v1", "random-v1*"),
                         max_turns=4, seed=2)
    actor = Actor(policy, cfg)
    tables = []
    for slot in actor.slots:
        others = [type(c).__name__ for c in slot.ctrl if c != "self"]
        assert len(others) == 3 and len(set(others)) == 1, f"a table mixes per-seat and whole-table ids: {others}"
        tables.append(others[0])
    assert 10 < sum(t == tables[0] for t in tables) < 50, "both kinds of table are drawn"
    with pytest.raises(ValueError, match="without"):
        SelfPlayConfig(opponents=("random-v1*",))


def test_sample_never_picks_an_illegal_id() -> None:
    rng = np.random.default_rng(0)
    logits = np.full((500, 10), -np.inf)
    logits[:, [2, 7]] = rng.normal(size=(500, 2))
    for t in (0.0, 0.5, 1.0, 3.0):
        acts, logp = sample(logits.copy(), t, rng)
        assert set(acts.tolist()) <= {2, 7}
        assert np.isfinite(logp).all()


def test_batches_join() -> None:
    cfg = SelfPlayConfig(games=2, players=(2,), max_turns=4, seed=1)
    pol = load_policy(NOBLE_PPO_V1)
    x = Actor(pol, cfg).collect(decisions=30)
    y = Actor(pol, SelfPlayConfig(games=2, players=(2,), max_turns=4, seed=2)).collect(decisions=30)
    j = Batch.concat([x, y])
    assert len(j) == len(x) + len(y)
    assert set(np.unique(j.game[len(x):])).isdisjoint(np.unique(j.game[:len(x)]))
    assert np.array_equal(j.turns_left, np.concatenate([x.turns_left, y.turns_left]))
    assert np.array_equal(j.seat, np.concatenate([x.seat, y.seat]))


def test_config_rejects_bad_values() -> None:
    with pytest.raises(ValueError, match="players"):
        SelfPlayConfig(players=(7,))
    with pytest.raises(ValueError, match="games"):
        SelfPlayConfig(games=0)
    with pytest.raises(ValueError, match="temperature"):
        SelfPlayConfig(temperature=-1)


def test_two_worker_processes_and_the_bench_command(capsys) -> None:
    cfg = SelfPlayConfig(games=2, players=(2,), presets=("1981",), max_turns=3, seed=7)
    b = run_actors(str(NOBLE_PPO_V1), cfg, workers=2, seconds=3)
    assert b.stats["learner_decisions"] > 0
    assert bench_main(["--games", "2", "--workers", "1", "--seconds", "2", "--players", "2"]) == 0
    out = capsys.readouterr().out
    assert "learner dec/s" in out and "| 1 | 2 |" in out


def test_drain_keeps_every_game_begun_in_the_batch_long_ones_included(policy) -> None:
    """With ``drain`` (the default) a batch holds every game its actor began: once the decision
    target is reached no game starts and the running ones are played out.  Without it the games
    still running are dropped, and those are the longest (the bias of attempts 22-33)."""
    from dataclasses import replace

    cfg = SelfPlayConfig(games=8, players=(2, 4), presets=("1981",), opponents=("random-v1",), max_turns=8, seed=4)
    actor = Actor(policy, cfg)
    b = actor.collect(decisions=150)
    # every game begun by this call is in it (the next call's fresh set of games aside)
    assert b.stats["games"] == actor.games_started - cfg.games
    assert len(b) >= 150 and not any(s.records for s in actor.slots)
    again = actor.collect(decisions=150)  # the actor goes on after draining, with new games
    assert again.stats["games"] == actor.games_started - cfg.games - b.stats["games"]
    kept = Actor(policy, replace(cfg, drain=False))
    nb = kept.collect(decisions=150)
    running = [s for s in kept.slots if s.records]
    assert running and nb.stats["games"] + len(kept.slots) == kept.games_started  # running games dropped


def test_an_actor_without_drain_carries_its_running_games_into_the_next_collect(policy) -> None:
    """What ``ActorPool`` relies on: a collect without drain returns the games that ended, the running
    ones go on into the next collect (with a new network), where they end and are returned whole: the
    decisions taken before the swap with the old network's log-probabilities."""
    cfg = SelfPlayConfig(games=6, players=(2, 4), presets=("1981", "errata"), opponents=("noble-rule-v1",),
                         max_turns=8, seed=21, drain=False)
    actor = Actor(policy, cfg)
    first = actor.collect(decisions=150)
    running = {id(s.game): len(s.records) for s in actor.slots if s.records}
    assert running, "no game was running at the end of the first collect"
    carried = sum(running.values())
    other = load_policy(NOBLE_PPO_V1)  # a new network object (the same weights: what changes is the object)
    actor.set_policy(other, SelfPlayConfig(**{**cfg.__dict__, "opponents": ("random-v1",), "seed": 999}))
    assert actor.policy is other and actor.cfg.seed == 21 and actor.per_seat == ("random-v1",)
    games = {id(s.game): s.game for s in actor.slots}
    second = actor.collect(decisions=2000)
    assert all(games[g].over for g in running)  # every game running at the swap ended in the second collect
    assert len(second) >= carried and len(first) >= 150
    assert second.mask[np.arange(len(second)), second.action.astype(int)].all()
    bad = SelfPlayConfig(**{**cfg.__dict__})
    wrong = type("P", (), {"encoder": type("E", (), {"name": "v0"})()})()
    with pytest.raises(ValueError, match="encoder must be"):
        actor.set_policy(wrong, bad)


def test_actor_pool_keeps_its_processes_and_games_between_collects(tmp_path) -> None:
    from fandonia_env.training.selfplay import ActorPool

    cfg = SelfPlayConfig(games=4, players=(2, 3), presets=("1981",), opponents=("noble-rule-v1", "self"),
                         max_turns=6, seed=4)
    with ActorPool(str(NOBLE_PPO_V1), cfg, workers=2) as pool:
        procs = list(pool._procs)
        pids = [p.pid for p in procs]
        a = pool.collect(str(NOBLE_PPO_V1), cfg, 200)
        b = pool.collect(str(NOBLE_PPO_V1), cfg, 200)
        assert [p.pid for p in pool._procs] == pids and all(p.is_alive() for p in pool._procs)
    assert len(a) >= 200 and len(b) >= 200 and a.stats["drain_seconds"] == 0.0
    for batch in (a, b):
        assert batch.mask[np.arange(len(batch)), batch.action.astype(int)].all()
    assert len(procs) == 2 and not any(p.is_alive() for p in procs)  # closed with the block
