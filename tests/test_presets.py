"""Every rules preset (configs/presets; ruling R1, §38, issue 5): loading by name, the
random-play soak with invariants, clone/JSON equality, determinism, hidden information at
engine and env level, the PettingZoo API tests, and complete games by the scripted agents."""

from __future__ import annotations

import functools
import json
import random
import warnings

import numpy as np
import pytest
from helpers import play_out, random_moves

from fandonia_env import fandonia_v0
from fandonia_env.engine import ConfigError, Game
from fandonia_env.engine.core.options import OPTIONAL_RULES, load_preset, preset_names, switches_for
from fandonia_env.engine.face.game import make_config, player_view
from fandonia_env.engine.face.hidden import resample
from fandonia_env.engine.face.invariants import check
from fandonia_env.spaces.observation import DECISION_KINDS, encode

warnings.filterwarnings("ignore", category=UserWarning)

PRESETS = ["1981", "1981-all-optional", "errata", "errata-all-optional", "short-game"]


def test_r1_presets_exist_and_expand_to_their_rules():
    assert set(PRESETS) <= set(preset_names())
    assert load_preset("1981") == {"edition": "1981", "optional": []}
    assert load_preset("errata") == {"edition": "errata", "optional": []}
    assert load_preset("1981-all-optional")["optional"] == switches_for("1981")
    assert load_preset("errata-all-optional")["optional"] == switches_for("errata")
    assert load_preset("short-game")["optional"] == ["shorter_a", "shorter_b", "shorter_c", "shorter_d",
                                                       "shorter_e"]
    # an explicit field overrides the preset's
    assert make_config(preset="errata", optional=["clemency"])["optional"] == ["clemency"]


def test_r1_unknown_preset_or_switch_is_rejected_with_the_valid_names():
    with pytest.raises(ConfigError, match="valid presets: .*errata-all-optional"):
        make_config(preset="errata-light")
    with pytest.raises(ConfigError, match="allowed in edition '1981': .*clemency"):
        make_config(optional=["clemancy"])
    with pytest.raises(ConfigError, match="marriage exists only in"):
        make_config(edition="1981", optional=["marriage"])
    with pytest.raises(ConfigError, match="shorter_b exists only in"):
        make_config(edition="errata", optional=["shorter_b"])
    with pytest.raises(ConfigError, match="edition"):
        make_config(edition="1999")
    assert set(switches_for("1981")) | set(switches_for("errata")) == set(OPTIONAL_RULES)


def _soak_game(preset: str, n: int, seed: int, max_turns: int = 30) -> Game:
    g = Game(players=n, seed=seed, max_turns=max_turns, preset=preset)
    rng = random.Random(seed)
    check(g.state)
    step = 0
    while not g.over:
        legal = g.legal_actions()
        assert legal, "no legal choice in a running game"
        kind = g.decision()["kind"]
        assert kind in DECISION_KINDS, f"decision kind {kind!r} unknown to the observation encoder"
        g.apply(rng.choice(legal))
        check(g.state)
        step += 1
        assert g.clone().state == g.state
        if step % 5 == 0 or g.over:
            j = Game.from_json(json.loads(json.dumps(g.to_json())))
            assert j.state == g.state and j.legal_actions() == g.legal_actions()
    assert g.result in ("win", "draw", "truncated")
    return g


@pytest.mark.parametrize("preset", PRESETS)
def test_preset_random_play_soak_invariants_clone_and_json(preset):
    for i in range(10):
        _soak_game(preset, 2 + i % 5, 7000 + i)


@pytest.mark.parametrize("preset", PRESETS)
def test_preset_same_seed_same_actions_same_game(preset):
    def play(disturb: bool) -> Game:
        g = Game(players=4, seed=31, max_turns=12, preset=preset)
        for _ in random_moves(g, random.Random(31)):
            if disturb:  # the engine must not read the global RNGs
                random.random()
                np.random.random()
        return g

    a, b = play(False), play(True)
    assert a.state == b.state and a.log_lines() == b.log_lines()


@pytest.mark.parametrize("preset", PRESETS)
def test_preset_views_and_observations_hide_other_players_cards_and_counters(preset):
    g = Game(players=4, seed=55, max_turns=8, preset=preset)
    rng = random.Random(55)
    for _ in random_moves(g, rng, 250):
        st = g.state
        for i in range(4):
            r = resample(st, i, rng)
            check(r)
            assert player_view(r, i) == player_view(st, i)
            assert encode(r, i).tobytes() == encode(st, i).tobytes()
            if g.current_player() == i:
                assert Game.from_state(r, advance=False).legal_actions() == g.legal_actions()


@pytest.mark.parametrize("preset", PRESETS)
def test_preset_pettingzoo_api(preset):
    from pettingzoo.test import api_test, seed_test

    api_test(fandonia_v0.env(players=3, max_turns=4, preset=preset), num_cycles=150)
    seed_test(functools.partial(fandonia_v0.env, players=3, max_turns=4, preset=preset), num_cycles=60)


@pytest.mark.parametrize("preset", PRESETS)
def test_preset_scripted_agents_play_complete_games(preset):
    from fandonia_env import agents
    for n, lineup in ((2, ["noble-rule-v1", "noble-rule-v2"]), (5, ["noble-rule-v1", "random-v1"] * 3)):
        g = Game(players=n, seed=90 + n, max_turns=25, preset=preset)
        bots = [agents.make_agent(lineup[i], seed=i) for i in range(n)]
        play_out(g, bots)
