"""The difficulty levels (fandonia_env.agents.levels): registered ids, legal whole games, seeded play,
decisions from the seat's information only, the blunders they are built from, and /meta's list."""

from __future__ import annotations

import random

import pytest

from fandonia_env.agents import AGENTS, LEVELS, make_agent
from fandonia_env.agents.levels import LEVEL_BY_ID, NobleLevel
from fandonia_env.agents.noble_rule import PASS, NobleRuleV1, best_usurp
from fandonia_env.engine import Game
from fandonia_env.engine.core.actions import ID
from fandonia_env.engine.face.hidden import InfoSet, resample

LEVEL_IDS = [f"noble-level-{k}" for k in range(1, 7)]


def _play(ids: list[str], seed: int, max_turns: int | None = None, preset: str = "1981") -> Game:
    g = Game(players=len(ids), seed=seed, preset=preset, max_turns=max_turns)
    bots = [make_agent(a, seed=seed * 10 + i) for i, a in enumerate(ids)]
    while not g.over:
        p = g.current_player()
        legal = g.legal_actions()
        a = bots[p].act(g.seat_view(p), legal, InfoSet(g.state, p))
        assert a in legal
        g.apply(a)
    return g


def test_six_levels_are_registered_weakest_first_with_a_sentence_each() -> None:
    assert [lv.id for lv in LEVELS] == LEVEL_IDS and all(i in AGENTS for i in LEVEL_IDS)
    assert [lv.level for lv in LEVELS] == [1, 2, 3, 4, 5, 6]
    assert all(lv.sentence.endswith(".") and len(lv.sentence) > 20 for lv in LEVELS)
    # the blundering levels blunder more the lower they are
    knobs = [(lv.overlook, lv.usurp_error) for lv in LEVELS[:4]]
    assert knobs == sorted(knobs, reverse=True) and knobs[-1] > (0.0, 0.0)
    assert LEVEL_BY_ID["noble-level-5"].base == "noble-rule-v1" and LEVEL_BY_ID["noble-level-6"].base == "noble-ppo-v2"
    assert all(set(lv.to_json()) >= {"level", "id", "sentence", "vs_below_2p"} for lv in LEVELS)


@pytest.mark.parametrize("n,preset", [(2, "1981"), (3, "errata"), (4, "1981"), (5, "errata-all-optional"), (6, "errata")])
def test_levels_play_whole_legal_games_at_every_table_size(n: int, preset: str) -> None:
    ids = (LEVEL_IDS[:5] + ["noble-rule-v1"])[:n]
    g = _play(ids, seed=70 + n, preset=preset)
    assert g.over and g.result in ("win", "draw")


def test_the_strongest_level_plays_the_trained_noble() -> None:
    g = _play(["noble-level-6", "noble-level-1"], seed=3, max_turns=6)
    assert g.over


@pytest.mark.parametrize("level", LEVEL_IDS[:4])
def test_same_seed_same_game(level: str) -> None:
    a = _play([level, "noble-rule-v1", level], seed=11, max_turns=10)
    b = _play([level, "noble-rule-v1", level], seed=11, max_turns=10)
    assert a.log_lines() == b.log_lines()


def test_a_level_without_blunders_plays_exactly_as_noble_rule_v1() -> None:
    """The blunders are the only difference: with both knobs at zero, every move is noble-rule-v1's."""
    for seed in range(3):
        g = Game(players=3, seed=seed, preset="errata" if seed % 2 else "1981")
        lv, rule = NobleLevel(seed=5), NobleRuleV1(seed=5)
        others = [make_agent("noble-rule-v2", seed=seed), make_agent("random-v1", seed=seed)]
        moves = 0
        while not g.over:
            p = g.current_player()
            legal = g.legal_actions()
            if p == 0:
                a = lv.act(g.seat_view(p), legal)
                assert a == rule.act(g.seat_view(p), legal)
                moves += 1
            else:
                a = others[p - 1].act(g.seat_view(p), legal, InfoSet(g.state, p))
            g.apply(a)
        assert moves > 20


def test_a_level_misses_chances_and_doubts_its_odds_of_the_throne() -> None:
    """Where noble-rule-v1 takes an activity, a level that overlooks everything passes; and it judges its
    odds of a usurpation lower than they are, so it sometimes waits where v1 would strike."""
    g = Game(players=3, seed=4)
    rule, blind = NobleRuleV1(seed=1), NobleLevel(seed=1, overlook=0.999)
    differed = 0
    while not g.over and differed < 5:
        p = g.current_player()
        legal = g.legal_actions()
        v = g.seat_view(p)
        if v.decision is not None and v.decision.kind == "turn_main":
            a = rule.act(v, legal)
            if a != PASS:
                assert blind.act(v, legal) == PASS
                differed += 1
        g.apply(rule.act(v, legal))
    assert differed == 5
    # usurpation: where the usurpation is offered, v1 usurps iff its exact odds are >= 0.6; a doubting
    # level never usurps below that, and above it waits on some seeds and strikes on others
    early = late = struck = 0
    for seed in range(12):
        g = Game(players=3, seed=seed)
        bots = [NobleRuleV1(seed=seed + p) for p in range(3)]
        while not g.over:
            p = g.current_player()
            legal = g.legal_actions()
            v = g.seat_view(p)
            if ID["free_usurp"] in legal:
                _, odds = best_usurp(v)
                picks = [NobleLevel(seed=k, usurp_error=0.3).act(v, legal) for k in range(30)]
                usurped = ID["free_usurp"] in picks
                early += odds < 0.6 and usurped
                if odds >= 0.6 and odds < 0.9:
                    late += any(a != ID["free_usurp"] for a in picks)
                    struck += usurped
            g.apply(bots[p].act(v, legal))
        if late and struck:
            break
    assert early == 0 and late and struck, (early, late, struck)
    with pytest.raises(ValueError, match="overlook"):
        NobleLevel(overlook=1.0)
    with pytest.raises(ValueError, match="usurp_error"):
        NobleLevel(usurp_error=-0.1)


@pytest.mark.parametrize("n,edition", [(2, "1981"), (4, "errata"), (6, "errata")])
@pytest.mark.parametrize("level", LEVEL_IDS[:5])
def test_levels_decide_from_their_seats_information_only(level: str, n: int, edition: str) -> None:
    """A level takes the same decision when everything hidden from its seat is redrawn consistently
    with its view (other hands, drawn counters, pile order, future dice): it is given the live view of
    the redrawn game."""
    rng = random.Random(n)
    g = Game(players=n, seed=50 + n, max_turns=12, edition=edition)
    mover = random.Random(n + 1)
    checked = 0
    while not g.over and checked < 10:
        legal = g.legal_actions()
        p = g.current_player()
        if len(legal) >= 2:
            act = make_agent(level, seed=9).act(g.seat_view(p), legal, InfoSet(g.state, p))
            other = Game.from_state(resample(g.state, p, rng), advance=False)
            assert other.view(p, log=False) == g.view(p, log=False)
            assert make_agent(level, seed=9).act(other.seat_view(p), legal, InfoSet(other.state, p)) == act
            checked += 1
        g.apply(mover.choice(legal))
    assert checked >= 5


def test_meta_lists_the_levels_a_server_offers() -> None:
    from fandonia_env.serve.webui import meta

    class M:
        allowed_agents = set(AGENTS)

    levels = meta(M())["levels"]  # type: ignore[arg-type]
    assert [x["id"] for x in levels] == LEVEL_IDS and levels[0]["sentence"].startswith("A beginner")

    class Few:
        allowed_agents = {"noble-level-2", "noble-rule-v1"}

    assert [x["id"] for x in meta(Few())["levels"]] == ["noble-level-2"]  # type: ignore[arg-type]
