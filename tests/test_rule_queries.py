"""Rule queries written once (``engine.rule_queries``) answer the same on the state and on a
player's view, and the agents' usurpation estimates are the engine's, in both editions
(issue 12 item 3)."""

from __future__ import annotations

import math
import random

import pytest
from helpers import random_moves

from fandonia_env.agents import ismcts_v2
from fandonia_env.agents.noble_rule import best_usurp, prestige_ev, usurp_chance
from fandonia_env.engine import Game
from fandonia_env.engine.core.actions import ID, NAME, PASS, char_action
from fandonia_env.engine.core.rng import RNG
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.face.game import player_view
from fandonia_env.engine.rules import rule_queries as rq

SUPPORT = sorted(rq.SUPPORT_VALUES)


def _positions(edition: str, games: int, every: int, seed0: int) -> list[Game]:
    """Positions from random games (random legal choices), one every ``every`` decisions."""
    out = []
    for s in range(games):
        g = Game(players=2 + s % 5, seed=seed0 + s, edition=edition, max_turns=30)
        for k in random_moves(g, random.Random(seed0 + s)):
            if k % every == 0:
                out.append(g.clone())
    return out


def _noble_positions(edition: str, games: int, seed0: int) -> list[Game]:
    """Positions where a scripted noble may usurp (``free_usurp`` legal), from noble-rule games."""
    from fandonia_env import agents
    out = []
    for s in range(games):
        g = Game(players=3 + s % 3, seed=seed0 + s, edition=edition, max_turns=40)
        bots = [agents.make_agent("noble-rule-v1", seed=s * 10 + i) for i in range(g.n_players)]
        while not g.over:
            p = g.current_player()
            legal = g.legal_actions()
            if ID["free_usurp"] in legal:
                out.append(g.clone())
            g.apply(legal[0] if len(legal) == 1 else bots[p].act(g.view(p, log=False), legal))
    return out


@pytest.mark.parametrize("edition", ["1981", "errata"])
def test_rule_queries_answer_the_same_on_the_view_and_on_the_state(edition):
    """Every query, every seat: the view (what the agents see) gives the state's answer."""
    seen_odds = 0
    for g in _positions(edition, games=6, every=25, seed0=700) + _noble_positions(edition, 2, 20)[::3]:
        st = g.state
        for p in range(st.n):
            v = player_view(st, p, log=False)
            assert v["rules"] == {"edition": edition, "optional": []}
            assert rq.usurpers(v, p) == rq.usurpers(st, p)
            assert rq.gains_halved(v, p) == rq.gains_halved(st, p)
            assert rq.pp_price(v) == rq.pp_price(st)
            for q in range(st.n):
                assert rq.faction_value(v, q, None) == rq.faction_value(st, q, None)
                for t in SUPPORT:
                    assert rq.support_multiplier(v, q, t) == rq.support_multiplier(st, q, t)
            for cid in st.chars:
                assert rq.counts(v, cid) == rq.counts(st, cid)
            if st.monarch is None:
                continue
            assert rq.jane_halves(v, p) == rq.jane_halves(st, p)
            for cid in rq.usurpers(st, p):
                assert rq.neutral_value(v, cid) == rq.neutral_value(st, cid)
                for hand in (True, False):
                    assert rq.usurpation_parts(v, p, cid, hand) == rq.usurpation_parts(st, p, cid, hand)
                seen_odds += 0.0 < rq.usurpation_chance(st, p, cid) < 1.0
    assert seen_odds >= 5  # the comparison met real odds, not only 0 and 1


@pytest.mark.parametrize("edition", ["1981", "errata"])
def test_agents_usurpation_estimates_equal_the_engines_in_both_editions(edition):
    """``noble_rule.usurp_chance`` (from the view) is the engine's P(success) from the state, for
    every player and every RC he may usurp with, with and without his hand."""
    compared = 0
    for g in _positions(edition, games=6, every=20, seed0=900) + _noble_positions(edition, 3, 40):
        st = g.state
        if st.monarch is None:
            continue
        for p in range(st.n):
            v = player_view(st, p, log=False)
            for cid in rq.usurpers(st, p):
                for hand in (True, False):
                    assert usurp_chance(v, cid, hand) == rq.usurpation_chance(st, p, cid, hand)
                compared += 1
            want = max((rq.usurpation_chance(st, p, c) for c in rq.usurpers(st, p)), default=0.0)
            assert best_usurp(v)[1] == want
    assert compared >= 100


def test_view_without_rules_entry_is_refused_with_a_clear_error():
    v = Game(players=3, seed=1).view(0, log=False)
    del v["rules"]
    with pytest.raises(ValueError, match="'rules' entry"):
        rq.support_multiplier(v, 0, "army_support")
    with pytest.raises(TypeError, match="GameState or a player's view"):
        rq.usurpers([1, 2], 0)
    with pytest.raises(ValueError, match="not a Support card; allowed"):
        rq.support_multiplier(Game(players=3, seed=1).state, 0, "alibi")
    with pytest.raises(ValueError, match="only the viewer's own hand"):
        rq.usurpation_parts(Game(players=3, seed=1).view(0, log=False), 1, "thomas")


def _view_and_state(edition: str, **state_fields) -> tuple[dict, object]:
    pos = Position(players=3, seed=1, edition=edition)
    for k, val in state_fields.items():
        setattr(pos.state, k, val)
    return player_view(pos.state, 0, log=False), pos.state


@pytest.mark.parametrize("card,want81,want_es", [("foreign_support_cronos", 2, 3),
                                                 ("foreign_support_city_states", 2, 3)])
def test_d3_d4_foreign_support_values_seen_by_the_agents(card, want81, want_es):
    """D3, D4 (ES §2.1.4): every Foreign Support card is 1dx3 in the errata edition; the view
    answers as the state (the scripted noble's old copy kept 1dx2)."""
    for edition, want in (("1981", want81), ("errata", want_es)):
        v, st = _view_and_state(edition)
        assert rq.support_multiplier(v, 0, card)[0] == want == rq.support_multiplier(st, 0, card)[0]


def test_d18_famine_and_d80_crisis_support_values_seen_by_the_agents():
    """D18: under Famine the errata boosts Trade Guild, Merchant and Peasant Support, not Army;
    D80: in a government crisis every Support card is worth its boosted value."""
    v, _ = _view_and_state("errata", crown="famine")
    assert [rq.support_multiplier(v, 0, t)[0] for t in ("peasant_support", "army_support")] == [8, 7]
    v, _ = _view_and_state("1981", crown="famine")
    assert [rq.support_multiplier(v, 0, t)[0] for t in ("peasant_support", "army_support")] == [4, 10]
    v, _ = _view_and_state("errata", support=0)
    assert {t: rq.support_multiplier(v, 0, t)[0] for t in SUPPORT} == {t: rq.SUPPORT_VALUES[t][1] if not
                                                                       t.startswith("foreign") else 4
                                                                       for t in SUPPORT}
    v, _ = _view_and_state("1981", support=0)
    assert rq.support_multiplier(v, 0, "army_support")[0] == 7


def test_the_scripted_nobles_odds_follow_the_errata_support_values():
    """The same usurpation (Thomas against King George, six Support cards in hand) under a
    government crisis: in the errata edition every card counts boosted (D80) and the Foreign
    Support card as 1dx4 (D3, D4), so the noble's estimate is far higher than in 1981, and it is
    the engine's in both."""
    cards = ("army_support", "peasant_support", "navy_support", "townsmen_support", "clergy_support",
             "foreign_support_cronos")
    chances, mults = {}, {}
    for edition in ("1981", "errata"):
        pos = Position(players=3, seed=1, edition=edition).empty_hand(0).give(0, *cards)
        pos.state.support = 0
        v = player_view(pos.state, 0, log=False)
        chances[edition] = usurp_chance(v, "thomas")
        mults[edition] = rq.usurpation_parts(v, 0, "thomas").usurper_cards
        assert chances[edition] == rq.usurpation_chance(pos.state, 0, "thomas")
    assert mults == {"1981": (2, 2, 3, 4, 4, 7), "errata": (3, 4, 5, 5, 8, 10)}
    assert chances["errata"] > 0.4 > 0.01 > chances["1981"] > 0.0


def _simulate(g: Game, p: int, cid: str, trials: int) -> float:
    """The engine's own usurpation, played ``trials`` times with fresh dice: the usurper plays
    every Support card he holds, a FARC Monarch's player none (his hand is not counted)."""
    wins = 0
    for k in range(trials):
        st = g.state.clone()
        st.rng = RNG(seed=10_000 + k)
        h = Game.from_state(st, advance=False)
        mark = len(st.log)
        h.apply(ID["free_usurp"])
        while True:
            text = " ".join(e["t"] for e in st.log[mark:])
            if "The usurpation succeeds" in text or "The usurpation fails" in text:
                wins += "The usurpation succeeds" in text
                break
            d = h.decision()
            if d["kind"] == "usurp_farc":
                h.apply(char_action(cid))
            elif d["kind"] == "usurp_support" and d["player"] == p:
                h.apply(next((a for a in d["options"] if a != PASS), PASS))
            elif d["kind"] == "usurp_support":
                h.apply(PASS)
            else:  # pragma: no cover - a usurpation asks nothing else before its result
                raise AssertionError(f"unexpected decision {d['kind']} {[NAME[a] for a in d['options']]}")
    return wins / trials


@pytest.mark.parametrize("edition", ["1981", "errata"])
def test_engine_usurpations_succeed_as_often_as_the_estimate_says(edition):
    """The estimate is the engine's procedure: Monte Carlo of real usurpations (fresh dice each
    time) agrees with the exact P(success) within 4.5 standard errors."""
    cases = []
    for g in _noble_positions(edition, 4, 60):
        p = g.current_player()
        for cid in rq.usurpers(g.state, p):
            pr = rq.usurpation_chance(g.state, p, cid)
            if 0.1 < pr < 0.9 and len(cases) < 3:
                cases.append((g, p, cid, pr))
    assert len(cases) == 3
    n = 600
    for g, p, cid, pr in cases:
        got = _simulate(g, p, cid, n)
        assert abs(got - pr) <= 4.5 * math.sqrt(pr * (1 - pr) / n), (cid, got, pr)


def test_usurp_gap_is_the_mean_of_the_engines_rating_parts():
    """``ismcts_v2.usurp_gap`` (a search agent's feature) reads the engine's rating parts: the
    gap of the best usurper is E[usurper's rating] - E[Monarch's rating]."""
    checked = 0
    for g in _noble_positions("errata", 2, 80)[:20]:
        st = g.state
        p = g.current_player()
        v = player_view(st, p, log=False)
        want = ismcts_v2.GAP_LO
        for cid in rq.usurpers(st, p):
            r = rq.usurpation_parts(st, p, cid)
            u = rq.mean(rq.royal_uv_distribution(cid)) + r.usurper_fixed + 3.5 * sum(r.usurper_cards)
            m = (rq.mean(rq.royal_uv_distribution(r.monarch, r.monarch_halved)) + r.monarch_fixed + r.monarch_bonus
                 + 3.5 * sum(r.monarch_cards))
            if r.monarch_extra:
                m += rq.mean(rq.royal_uv_distribution(r.monarch_extra))
            want = max(want, u - m)
        want = max(ismcts_v2.GAP_LO, min(ismcts_v2.GAP_HI, want))
        assert ismcts_v2.usurp_gap(v) == pytest.approx(want, abs=1e-9)
        checked += 1
    assert checked >= 5


def test_prestige_estimate_uses_the_errata_pp_price():
    """§35.8 / D81: one PP costs 5 IP (1981) or 2 IP (errata); the noble values IP accordingly
    (a Socializing consultation costs 1 IP, so it is worth less in the errata edition)."""
    evs = {}
    for edition in ("1981", "errata"):
        g = Game(players=3, seed=5, edition=edition)
        v = g.view(0, log=False)
        assert rq.pp_price(v) == {"1981": 5, "errata": 2}[edition]
        evs[edition] = prestige_ev(v, "socializing")
    assert evs["1981"] != evs["errata"]
