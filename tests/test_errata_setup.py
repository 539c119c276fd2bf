"""Errata edition (ruling R1), set-up group: components and set-up (D1-D11), the female
title ladder (D25, D26) and buying PP (D81), each from a Position with scripted dice."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import halted

from fandonia_env.engine.chapters.activities import title_cost
from fandonia_env.engine.chapters.turn import do_draw
from fandonia_env.engine.chapters.usurpation import support_multiplier
from fandonia_env.engine.core.actions import ID, PASS, char_action
from fandonia_env.engine.data.components import (
    ERRATA_OPPORTUNITY_IDS,
    ERRATA_PC_DECK,
    FEMALES,
    NOBLES,
    OPPORTUNITY_IDS,
    OPPORTUNITY_TYPE_OF,
    PC_DECK,
    printed_title,
)
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.face.game import player_view
from fandonia_env.engine.face.invariants import check
from fandonia_env.engine.rules.queries import status

ERRATA_FEMALE_STATUS = {"56": 4, "61": 4, "62": 3, "63": 3, "64": 2, "65": 2, "66": 1}


def _errata(players: int = 4, seed: int = 0) -> Position:
    return Position(players=players, seed=seed, edition="errata")


def _free_female(st, cid_pred=lambda c: True) -> str:
    return next(c for c in sorted(FEMALES) if not st.chars[c].is_pc and cid_pred(c))


# ---------------------------------------------------------------------------
# D1, D2, D11: printed Status and titles
# ---------------------------------------------------------------------------


def test_errata_d1_jane_has_status_5():
    st = _errata().state
    assert status(st, "jane") == 5
    assert status(Position(players=4).state, "jane") == 2  # 1981 unchanged


def test_errata_d2_female_nobles_titles_and_status():
    st = _errata(players=4).state
    for cid, s in ERRATA_FEMALE_STATUS.items():
        if st.chars[cid].office is None and st.chars[cid].spouse is None:
            assert status(st, cid) == s, cid
    assert [printed_title(st.config, c) for c in ("56", "61", "62", "63", "64", "65", "66")] == [
        "marchioness", "marchioness", "countess", "countess", "baroness", "baroness", "lady"]
    assert [NOBLES[c].seduction for c in ("56", "61", "62", "63", "64", "65", "66")] == [2, 3, 4, 4, 5, 5, 6]
    st81 = Position(players=4).state
    assert all(status(st81, c) == 3 for c in ERRATA_FEMALE_STATUS)  # 1981: all Ladies S3


def test_errata_d11_two_players_all_ladies_are_countesses_with_status_3():
    for seed in range(12):
        st = _errata(players=2, seed=seed).state
        assert all(pl.pc in PC_DECK for pl in st.players)  # ES §3.1.1: 11-24 and 56-66 only
    assert all(status(st, c) == 3 and printed_title(st.config, c) == "countess" for c in FEMALES)
    assert status(st, "jane") == 5
    # the ladder of a Condesa: Marquesa (4 IP), Duquesa (5 IP), then no more (A20)
    lady = _free_female(st)
    st.wchar(lady).titles = 0
    assert title_cost(st, lady) == 4
    st.wchar(lady).titles = 1
    assert title_cost(st, lady) == 5 and status(st, lady) == 4
    st.wchar(lady).titles = 2
    assert title_cost(st, lady) is None and status(st, lady) == 5


# ---------------------------------------------------------------------------
# D3, D4: Foreign Support cards
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("country", ["sandarkan", "epalin", "cronos", "city_states"])
def test_errata_d3_d4_foreign_support_cards_are_1dx3_or_1dx4(country):
    pos = _errata()
    st = pos.state
    card = f"foreign_support_{country}"
    assert support_multiplier(st, 0, card)[0] == 3
    amb = next(cid for cid, c in st.chars.items() if c.office == f"amb_{country}")
    pos.char(amb, owner=0)
    assert support_multiplier(st, 0, card)[0] == 4  # the Ambassador is his FAC
    # 1981: Cronos and The City States stay 1dx2 / 1dx3
    pos81 = Position(players=4)
    base81 = 2 if country in ("cronos", "city_states") else 3
    assert support_multiplier(pos81.state, 0, card)[0] == base81


# ---------------------------------------------------------------------------
# D6, D7: the Opportunity counter mix and the Free Counsel counter
# ---------------------------------------------------------------------------


def test_errata_d6_opportunity_counter_mix():
    st = _errata().state
    assert sorted(st.opportunity_pool) == sorted(ERRATA_OPPORTUNITY_IDS)
    assert Counter(OPPORTUNITY_TYPE_OF[o] for o in st.opportunity_pool) == {
        "any_activity": 2, "extra_activity": 3, "intrigue": 5, "scandal": 4, "favor": 2,
        "duel": 1, "gout": 1, "gain_ip": 4, "free_counsel": 2}
    check(st, decision=False)
    st81 = Position(players=4).state
    assert sorted(st81.opportunity_pool) == sorted(OPPORTUNITY_IDS)
    assert "free_counsel" not in {OPPORTUNITY_TYPE_OF[o] for o in st81.opportunity_pool}


def test_errata_d6_free_counsel_counter_is_drawn_seen_and_returned():
    pos = _errata()
    st = pos.state
    fc = [o for o in st.opportunity_pool if OPPORTUNITY_TYPE_OF[o] == "free_counsel"]
    others = [o for o in st.opportunity_pool if o not in fc]
    st.opportunity_pool = fc  # only Free Counsel counters can be drawn
    st.players[1].opportunity_drawn = others  # parked elsewhere so that every counter has a place
    pos.turn_state(0)
    ip = st.players[0].ip
    do_draw(st, 0, "opportunity")
    assert [OPPORTUNITY_TYPE_OF[o] for o in st.players[0].opportunity_drawn] == ["free_counsel"]
    assert st.players[0].ip == ip and st.pt["extra"] == 0 and not st.pt["no_more"]  # no draw effect
    assert player_view(st, 0)["opportunity_drawn"] == ["free_counsel"]
    assert player_view(st, 2)["opportunity_drawn"] == []  # hidden from the others
    st.players[1].opportunity_drawn = []
    st.opportunity_pool += others
    check(st, decision=False)
    g = pos.run("end_player_turn", p=0)
    halted(g)  # the unused counter goes back like the others (§12.2)
    assert st.players[0].opportunity_drawn == [] and len(st.opportunity_pool) == 24


# ---------------------------------------------------------------------------
# D10: the PC deck
# ---------------------------------------------------------------------------


def test_errata_d10_pcs_dealt_from_11_44_and_56_66_for_three_to_six_players():
    dealt = set()
    for seed in range(15):
        n = 3 + seed % 4
        st = _errata(players=n, seed=seed).state
        pcs = [pl.pc for pl in st.players]
        assert all(c in ERRATA_PC_DECK for c in pcs)
        dealt.update(pcs)
        holders = {c.office: cid for cid, c in st.chars.items() if c.office}
        assert len(holders) == 13 and not set(holders.values()) & set(pcs)  # §3.3 still fills all 12
        check(st, decision=False)
    assert any(25 <= int(c) <= 44 for c in dealt)  # the errata deck has the 25-44 cards
    assert len(ERRATA_PC_DECK) == 29


# ---------------------------------------------------------------------------
# D25, D26: titles
# ---------------------------------------------------------------------------


def test_errata_d25_female_ladder_lady_baronesa_condesa_marquesa_duquesa():
    pos = _errata()
    st = pos.state
    if st.chars["66"].is_pc:
        pytest.skip("seed gives 66 as a PC")
    pos.char("66", owner=0).player(0, ip=14, pp=60)
    pos.turn_state(0)
    paid = []
    for step in range(4):
        st.tstate = {}  # one title per character per turn
        ip = st.players[0].ip
        g = pos.run("act_title", p=0)
        if g.decision()["kind"] == "title_character":  # else the only choice was taken (R10)
            g.apply(char_action("66"))
        paid.append(ip - st.players[0].ip)
        assert status(st, "66") == 2 + step
        d = g.decision()
        if d["kind"] != "halt":
            g.apply(PASS)
        halted(g)
    assert paid == [2, 3, 4, 5]  # ruling R3 / A20: by rank reached
    assert title_cost(st, "66") is None and st.players[0].ip == 0
    assert "rises from Marchioness to Duchess" in st.log[-1]["t"] or any(
        "rises from Marchioness to Duchess" in e["t"] for e in st.log[-4:])
    # a Marquesa S4 only has one step left: Duquesa for 5 IP
    assert title_cost(st, "56") == 5


def test_errata_d26_functionaries_and_rcs_may_not_take_titles():
    pos = _errata()
    st = pos.state
    for cid in ("45", "46", "51", "52", "53", "54", "55", "jane", "alan"):
        assert title_cost(st, cid) is None, cid
    for cid in ("45", "53", "55"):
        pos.char(cid, owner=0)
    pos.player(0, ip=30, pp=80).turn_state(0)
    pc = st.players[0].pc
    st.wchar(pc).hiding = True  # the PC cannot take one either: nobody is left
    from fandonia_env.engine.core import registry

    assert not registry.ACTIVITIES["acquire_title"].legal(st, 0)


# ---------------------------------------------------------------------------
# D81: buying PP
# ---------------------------------------------------------------------------


def test_errata_d81_one_pp_for_two_ip():
    from fandonia_env.engine.core import registry

    pos = _errata()
    st = pos.state
    pos.player(0, ip=3, pp=10).turn_state(0)
    assert registry.FREE_ACTIONS["buy_pp"].legal(st, 0)
    g = pos.run("free_buy_pp", p=0)
    halted(g)
    assert (st.players[0].ip, st.players[0].pp) == (1, 11)
    assert not registry.FREE_ACTIONS["buy_pp"].legal(st, 0)
    pos81 = Position(players=4)
    pos81.player(0, ip=4).turn_state(0)
    assert not registry.FREE_ACTIONS["buy_pp"].legal(pos81.state, 0)  # 1981: Five IP
    assert ID["free_buy_pp"] >= 0
