"""The league stage (masked PPO against scripted nobles and snapshots) and the one-command recipe,
on tiny settings: GAE, prioritised fictitious self-play weights, resumption, config errors, and an
end-to-end smoke of every stage whose exported policy plays complete legal games at 2-6 players."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from helpers import play_out  # noqa: E402

from fandonia_env.engine import Game  # noqa: E402
from fandonia_env.training import league as lg  # noqa: E402
from fandonia_env.training import recipe  # noqa: E402
from fandonia_env.training.common import ConfigError, load_config  # noqa: E402

SMOKE = Path(__file__).resolve().parent.parent / "configs" / "smoke" / "recipe.yaml"


def test_gae_of_a_terminal_reward_matches_the_hand_computation() -> None:
    r = np.array([0.0, 0.0, 1.0], dtype=np.float32)
    v = np.array([0.1, 0.2, 0.5], dtype=np.float32)
    adv, ret = lg.gae(r, v, gamma=1.0, lam=0.5)
    d2 = 1.0 - 0.5
    d1 = 0.0 + 0.5 - 0.2
    d0 = 0.0 + 0.2 - 0.1
    assert np.allclose(adv, [d0 + 0.5 * (d1 + 0.5 * d2), d1 + 0.5 * d2, d2])
    assert np.allclose(ret, adv + v)
    adv1, ret1 = lg.gae(r, v, gamma=1.0, lam=1.0)  # lambda 1: the return is the final reward
    assert np.allclose(ret1, [1.0, 1.0, 1.0])


def test_pfsp_meets_the_members_the_learner_does_not_beat_more_often() -> None:
    L = lg.League(["random-v1", "noble-rule-v1"], window=10, power=2.0, floor=0.05)
    assert np.allclose(L.weights(), [0.5, 0.5])  # nothing known yet: equal
    for _ in range(10):
        L.record("random-v1", True, 4)    # beats random every game
        L.record("noble-rule-v1", False, 4)
    w = L.weights()
    assert w[1] > 0.9 and 0 < w[0] < 0.1  # the floor keeps the beaten member in the league
    assert L.score("random-v1") == 1.0 and L.score("noble-rule-v1") == 0.0
    M = lg.League(["a"], window=100, power=2.0, floor=0.0)
    for i in range(40):
        M.record("a", i % 4 == 0, 4)  # wins exactly the fair share 1/4 at 4 players
    assert abs(M.score("a") - 0.5) < 1e-9
    L.add("snap-1")
    assert len(L.weights()) == 3 and abs(L.weights().sum() - 1) < 1e-9
    L.remove("snap-1")
    assert L.members == ["random-v1", "noble-rule-v1"]


def test_fixed_share_gives_a_member_its_share_whatever_pfsp_says() -> None:
    L = lg.League(["random-v1", "noble-rule-v1"], window=10, power=2.0, floor=0.0, fixed={"random-v1": 0.3})
    for _ in range(10):
        L.record("random-v1", True, 4)    # beaten: PFSP alone would never draw it (floor 0)
        L.record("noble-rule-v1", False, 4)
    assert np.allclose(L.weights(), [0.3, 0.7])
    L.add("snap-1")  # snapshots share the PFSP part
    w = L.weights()
    assert abs(w.sum() - 1) < 1e-9 and w[0] >= 0.3


def test_terminal_reward_is_zero_sum_and_win_speed_discounts_only_the_learners_wins() -> None:
    assert lg.terminal_reward("win", True, 4, 30, 60) == 1.0
    assert lg.terminal_reward("win", False, 4, 30, 60) == -1.0 / 3
    assert lg.terminal_reward("draw", False, 4, 30, 60) == 0.0
    assert lg.terminal_reward("truncated", False, 4, 60, 60) == 0.0
    assert lg.terminal_reward("win", True, 4, 30, 60, win_speed=0.5) == 0.75
    assert lg.terminal_reward("win", True, 4, 60, 60, win_speed=0.5) == 0.5   # still above a draw
    assert lg.terminal_reward("win", False, 4, 30, 60, win_speed=0.5) == -1.0 / 3
    assert lg.terminal_reward("win", True, 2, 50, None, win_speed=0.2) == 0.9


def test_usurp_odds_potential_is_the_engines_best_odds_and_one_while_the_seats_royal_reigns() -> None:
    """``shaping_potential: usurp_odds`` reads the engine's odds (the v1r rule feature me_best_hand)
    and is 1 while a character of the seat is the Monarch; ``pp_ip`` is (PP + 2 IP) / 100."""
    from fandonia_env.agents import make_agent
    from fandonia_env.spaces.rule_features import encode_rule_features

    reigned = positive = 0
    for seed in (3, 4):
        g = Game(players=4, seed=seed, max_turns=40)
        bots = [make_agent("noble-rule-v1", seed=i) for i in range(4)]
        while not g.over:
            for p in range(4):
                phi = lg._phi(g.state, p, "usurp_odds")
                mon = g.state.monarch
                if mon is not None and g.state.chars[mon].owner == p:
                    assert phi == 1.0
                    reigned += 1
                else:
                    assert phi == pytest.approx(float(encode_rule_features(g.state, p)[0]), abs=1e-6)
                    positive += phi > 0
                pl = g.state.players[p]
                assert lg._phi(g.state, p, "pp_ip") == pytest.approx((pl.pp + 2 * pl.ip) / 100)
            p = g.current_player()
            g.apply(bots[p].act(g.view(p, log=False), g.legal_actions()))
    assert reigned and positive


def test_league_config_errors_name_the_key_and_the_allowed_ones(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown key.*'bogus'.*allowed keys"):
        load_config(None, lg.SCHEMA, ["out=x", "bogus=1"])
    cfg = load_config(None, lg.SCHEMA, [f"out={tmp_path}", "players=[1, 7]"])
    with pytest.raises(ConfigError, match="players must be"):
        lg.check_config(cfg)
    cfg = load_config(None, lg.SCHEMA, [f"out={tmp_path}", f"init={tmp_path / 'none'}"])
    with pytest.raises(ConfigError, match="init"):
        lg.check_config(cfg)
    cfg = load_config(None, lg.SCHEMA, [f"out={tmp_path}", "fixed_share={noble-rule-v9: 0.2}"])
    with pytest.raises(ConfigError, match="fixed_share names 'noble-rule-v9', which is not in scripted"):
        lg.check_config(cfg)
    cfg = load_config(None, lg.SCHEMA, [f"out={tmp_path}", "fixed_share={random-v1: 0.6, noble-rule-v1: 0.5}"])
    with pytest.raises(ConfigError, match="fixed_share must sum to less than 1"):
        lg.check_config(cfg)
    cfg = load_config(None, lg.SCHEMA, [f"out={tmp_path}", "win_speed=1.5"])
    with pytest.raises(ConfigError, match=r"win_speed must be in \[0, 1\]"):
        lg.check_config(cfg)
    cfg = load_config(None, lg.SCHEMA, [f"out={tmp_path}", "shaping_potential=gold"])
    with pytest.raises(ConfigError, match=r"shaping_potential must be one of \['pp_ip', 'usurp_odds'\], got 'gold'"):
        lg.check_config(cfg)
    cfg = load_config(None, lg.SCHEMA, [f"out={tmp_path}", "scripted=[no-such-noble]"])
    with pytest.raises(ValueError, match="no-such-noble"):
        lg.check_config(cfg)


def test_recipe_wall_times_add_up_over_interrupted_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A recipe stopped in the middle and run again reports, per step, the time of both sittings."""
    cfg = load_config(SMOKE, recipe.SCHEMA, [f"out={tmp_path / 'run'}", "export=null"])
    clock = iter(range(0, 10_000, 5))  # every perf_counter() call advances the clock by 5 s
    monkeypatch.setattr(recipe.time, "perf_counter", lambda: float(next(clock)))
    calls: list[str] = []

    def fake_step(stage: str, sc: dict) -> None:
        calls.append(Path(sc["out"]).name)
        if len(calls) == 2:
            raise KeyboardInterrupt  # stopped during the second step

    monkeypatch.setattr(recipe, "_run_step", fake_step)
    with pytest.raises(KeyboardInterrupt):
        recipe.run(cfg)
    first = json.loads((tmp_path / "run" / "recipe_wall.json").read_text())
    assert set(first) == {"collect", "imitate"} and first["collect"] > 0 and first["imitate"] > 0
    s = recipe.run(cfg)
    assert set(s["wall_s"]) == set(s["steps"])
    assert s["wall_s"]["collect"] > first["collect"] and s["wall_s"]["imitate"] > first["imitate"]
    assert s["total_wall_s"] == pytest.approx(sum(s["wall_s"].values()), abs=0.5)
    assert json.loads((tmp_path / "run" / "recipe_wall.json").read_text()) == pytest.approx(s["wall_s"], abs=0.1)


def test_recipe_stopped_by_sigterm_keeps_the_running_steps_wall_time(tmp_path: Path) -> None:
    """``kill`` (SIGTERM, what a batch scheduler sends) stops the recipe command as Ctrl-C does: the
    step it was running keeps its time in recipe_wall.json and the command says how to resume."""
    import os
    import signal
    import subprocess
    import sys

    out = tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "-m", "fandonia_env.training.recipe", "--config", str(SMOKE),
                             "--set", f"out={out}", "--set", "export=null"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=Path(__file__).resolve().parents[1], env=dict(os.environ, PYTHONUNBUFFERED="1"))
    err = []
    for line in proc.stderr:  # the signal handler is set before the first step starts
        err.append(line)
        if line.startswith("== step 1/"):
            proc.send_signal(signal.SIGTERM)
            break
    rest = proc.communicate(timeout=120)[1]
    assert proc.returncode == 130, "".join(err) + rest
    assert "run the same command again to resume" in rest
    wall = json.loads((out / "recipe_wall.json").read_text())
    first = next(iter(load_config(SMOKE, recipe.SCHEMA, [f"out={out}"])["steps"]))["name"]
    assert list(wall) == [first] and wall[first] >= 0.0


def _inherited_sigterm_handler(owner: int) -> None:
    import os
    import signal
    import time

    signal.signal(signal.SIGTERM, recipe.stop_on_sigterm(owner))  # as a forked pool worker inherits it
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(30)


def test_recipe_sigterm_handler_leaves_forked_workers_to_die_of_the_signal() -> None:
    """A forked worker (the tournament's pool, terminated with SIGTERM at its end) that inherits the
    recipe's handler dies of the signal as before, without a KeyboardInterrupt traceback."""
    import multiprocessing as mp
    import os
    import signal

    p = mp.get_context("fork").Process(target=_inherited_sigterm_handler, args=(os.getpid(),))
    p.start()
    p.join(20)
    assert p.exitcode == -signal.SIGTERM


def test_recipe_evaluation_is_played_again_only_when_its_policy_or_settings_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rerun skips a finished evaluation of the same policy and settings, and plays it again when the
    step's policy (an earlier step trained further or replaced) or its settings changed."""
    played: list[dict] = []

    def fake_evaluate(sc: dict) -> list[dict]:
        played.append(dict(sc))
        return [{"policy": sc["policy"], "win_share": 0.5, "games": sc["games"]}]

    monkeypatch.setattr(recipe.st_evaluate, "evaluate", fake_evaluate)
    sc = {"out": str(tmp_path), "policy": "a/policy.npz", "anchors": ["random-v1"], "players": 4, "games": 8,
          "seed": 10_000, "max_turns": 60, "rules": {}}
    first = recipe._run_step("evaluate", sc)
    assert recipe._run_step("evaluate", dict(sc)) == first and len(played) == 1
    recipe._run_step("evaluate", {**sc, "policy": "b/policy.npz"})
    recipe._run_step("evaluate", {**sc, "policy": "b/policy.npz", "games": 16})
    assert [p["policy"] for p in played] == ["a/policy.npz", "b/policy.npz", "b/policy.npz"]
    (tmp_path / "evaluate_rows.json").write_text(json.dumps(first))  # a file of an older recipe: no settings kept
    recipe._run_step("evaluate", sc)
    assert len(played) == 4


def test_recipe_smoke_every_stage_then_the_exported_noble_plays_legal_games(tmp_path: Path) -> None:
    from fandonia_env.agents import make_agent

    out = tmp_path / "run"
    export = tmp_path / "noble.npz"
    top = [f"out={out}", f"export={export}"]
    cfg = load_config(SMOKE, recipe.SCHEMA, top)
    s = recipe.run(cfg)
    # every step wrote its output
    assert s["steps"] == ["collect", "imitate", "league", "dagger", "usurp", "league2", "evaluate", "expert",
                          "eval_expert"]
    assert len(list((out / "collect").glob("shard_*.npz"))) == 2
    assert (out / "imitate" / "metrics.json").exists()
    rows = list(csv.DictReader(open(out / "league" / "train.csv")))
    assert len(rows) >= 3 and int(rows[-1]["steps"]) >= 3000
    assert json.loads((out / "league" / "league_summary.json").read_text())["steps"] >= 3000
    assert any(m.startswith("snap-") for m in json.loads((out / "league" / "league_summary.json").read_text())["league"])
    # the DAgger step recorded the league policy's decisions in encoder v1r, labelled by the teacher
    assert len(list((out / "dagger").glob("shard_*.npz"))) == 2
    um = json.loads((out / "usurp" / "metrics.json").read_text())
    assert um["encoder"] == "v1r"  # the v1 league policy was widened to the data's encoder
    assert json.loads((out / "league2" / "league_summary.json").read_text())["steps"] >= 2000
    assert {r["anchor"] for r in s["evaluation"] if r["step_name"] == "evaluate"} == {"random-v1", "noble-rule-v1"}
    assert all(r["games"] >= 4 for r in s["evaluation"])
    # the expert step continued from league2's network and its policy is what eval_expert played
    assert [r["iteration"] for r in csv.DictReader(open(out / "expert" / "train.csv"))] == ["1"]
    assert {r["policy"] for r in s["evaluation"] if r["step_name"] == "eval_expert"} == {str(out / "expert" / "policy.npz")}
    assert s["export_from"] == "expert" and set(s["wall_s"]) == set(s["steps"])
    # the exported (float16) noble plays complete legal games at every table size
    for n in range(2, 7):
        bots = [make_agent(f"ppo:{export}", seed=i) if i == 0 else make_agent("random-v1", seed=i) for i in range(n)]
        play_out(Game(players=n, seed=100 + n, max_turns=6), bots)
    # training can continue from an exported (float16) policy: it loads as a network
    import torch

    from fandonia_env.agents.ppo_agent import load_policy
    from fandonia_env.training.model import load_checkpoint

    assert lg.resolve_init(str(export)) == export
    net, _ = load_checkpoint(export)
    x = np.random.default_rng(0).random((3, net.obs_size), dtype=np.float32)
    with torch.no_grad():
        lt, _ = net(torch.from_numpy(x))
    ln, _ = load_policy(export).forward(x)
    assert np.allclose(lt.numpy(), ln, atol=1e-4)
    # the league resumes from its checkpoint: more steps, rows appended, not restarted
    lc = {n: c for n, _, c in recipe.step_configs(cfg)}["league"]
    lc["total_steps"] = 5000
    s2 = lg.train(lc)
    assert s2["steps"] >= 5000 and s2["updates"] > int(rows[-1]["update"])
    rows2 = list(csv.DictReader(open(out / "league" / "train.csv")))
    assert [r["update"] for r in rows2[: len(rows)]] == [r["update"] for r in rows]


@pytest.mark.parametrize("steps, message", [
    ([], "steps must be a non-empty list"),
    ([{"name": "a", "stage": "train"}], r"steps\[0\] \(a\).stage must be one of"),
    ([{"name": "a/b", "stage": "collect"}], "must be a folder name"),
    ([{"name": "a", "stage": "collect"}, {"name": "a", "stage": "collect"}], "'a' is used twice"),
    ([{"name": "i", "stage": "imitate", "data": "@c"}], r"steps.i.data: '@c' names no earlier step"),
    ([{"name": "c", "stage": "collect"}, {"name": "e", "stage": "evaluate", "policy": "@c"}],
     "wants a policy, but step 'c' is a collect step"),
    ([{"name": "c", "stage": "collect", "out": "x"}], "steps.c.out is filled in by the recipe"),
    ([{"name": "c", "stage": "collect", "gamez": 3}], "unknown key.*'gamez'"),
])
def test_recipe_steps_errors_name_the_step_and_what_is_allowed(tmp_path: Path, steps: list, message: str) -> None:
    cfg = load_config(None, recipe.SCHEMA, [f"out={tmp_path}"] + [f"steps={json.dumps(steps)}"])
    with pytest.raises(ConfigError, match=message):
        recipe.step_configs(cfg)


def test_recipe_set_overrides_one_steps_key_and_refuses_unknown_steps(tmp_path: Path, capsys) -> None:
    cfg = load_config(SMOKE, recipe.SCHEMA, [f"out={tmp_path}"])
    _, per = recipe._split_overrides(["league.total_steps=7", "seed=3"], [s["name"] for s in cfg["steps"]])
    assert {n: c for n, _, c in recipe.step_configs(cfg, per)}["league"]["total_steps"] == 7
    assert recipe.main(["--config", str(SMOKE), "--set", f"out={tmp_path}", "--set", "nosuch.games=3"]) == 2
    assert "no step is named 'nosuch'" in capsys.readouterr().err
