"""Errata edition (ruling R1), crown group: D13/D14 Monarch's Support bonus, D15/D16 wars,
D18 Famine, D19/D45/D46 illegal cards, D20/D21 Court Ball, D85 dissolving the government.

Each test runs the errata rule from a ``Position(edition="errata")`` and, where the rule
differs, the same position in the 1981 edition for contrast."""

from __future__ import annotations

import pytest
from helpers import court_ball, government, halted, logged, recorded, recorder

from fandonia_env.engine import GameState
from fandonia_env.engine.chapters.offices import fillable_offices
from fandonia_env.engine.chapters.usurpation import support_multiplier
from fandonia_env.engine.core.actions import ID, NO, PASS, YES, char_action, player_action
from fandonia_env.engine.core.machine import OPS
from fandonia_env.engine.data.components import CARD_TYPE_OF, OFFICE_ELIGIBLE
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.face.invariants import check
from fandonia_env.engine.rules.queries import card_options


@pytest.fixture
def stub_accuse(monkeypatch):
    monkeypatch.setitem(OPS, "accuse", recorder("accuse"))


def make(edition: str = "errata", support: int = 60, **offices: str | None) -> Position:
    """Every office held by an NC in Fandonia (Ambassadors abroad); PCs at home."""
    return government(edition=edition, keep_free=offices.values(), offices=offices, support=support)


def npc(st, n: int = 0, exclude=()) -> str:
    """The n-th character 11-44 who is neither a PC nor in ``exclude``."""
    pcs = {pl.pc for pl in st.players}
    return [c for c in OFFICE_ELIGIBLE if c not in pcs and c not in exclude][n]


# ---------------------------------------------------------------------------
# D13 / D14 (A8): +10 with no problems and a Court Ball or Intrigue result
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("crown,bonus", [("court_ball", 10), ("intrigue", 10)] + [
    (crown, 0) for crown in ("famine", "scandal", "plague", "royal_death", "one_problem", "two_problems")])
def test_errata_d13_support_bonus_ten_only_on_court_ball_or_intrigue(crown, bonus):
    pos = make(support=60)
    st = pos.state
    st.problems_at_start = False
    st.crown = crown
    st.tstate["crown_events"] = [crown]
    halted(pos.run("support_bonus"))
    assert st.support == 60 + bonus
    if crown in ("famine", "scandal", "plague"):  # the 1981 rule gives +5 here
        pos = make(edition="1981", support=60)
        pos.state.problems_at_start = False
        pos.state.crown = crown
        halted(pos.run("support_bonus"))
        assert pos.state.support == 65


def test_errata_d14_no_support_bonus_when_problems_were_to_be_resolved():
    pos = make(support=60)
    st = pos.state
    st.problems_at_start = True
    st.crown = "court_ball"
    st.tstate["crown_events"] = ["court_ball"]
    halted(pos.run("support_bonus"))
    assert st.support == 60


# ---------------------------------------------------------------------------
# D15 / D16: war begins -> Ambassador expelled (office ceases), Minister expelled
# ---------------------------------------------------------------------------


def test_errata_d15_ambassador_to_country_at_war_expelled_office_ceases_until_war_ends():
    pos = make(minister_of_army="43")
    st = pos.state
    amb = next(cid for cid, c in st.chars.items() if c.office == "amb_cronos")
    assert st.chars[amb].location == "cronos"
    pos.dice(3, 3, 1, 5, 6)  # Foreign War; Foreign War Table 6 = Cronos; attempt fails
    halted(pos.run("new_problem"))
    assert st.wars == ["cronos"]
    assert st.chars[amb].office is None and st.chars[amb].location == "fandonia"
    assert logged(st, "is expelled: he loses his office")
    assert "amb_cronos" not in fillable_offices(st)  # the office ceases to exist
    pos.dice(1)  # the Minister of the Army resolves the war: the office exists again
    halted(pos.run("problems_phase"))
    assert st.wars == [] and "amb_cronos" in fillable_offices(st)


def test_errata_d15_ambassador_away_from_his_post_loses_the_office_too():
    pos = make(minister_of_army="43")
    st = pos.state
    amb = next(cid for cid, c in st.chars.items() if c.office == "amb_cronos")
    st.wchar(amb).location = "fandonia"  # e.g. extradited home and acquitted, still in office
    pos.dice(3, 3, 1, 5, 6)  # Foreign War; Foreign War Table 6 = Cronos; attempt fails
    halted(pos.run("new_problem"))
    assert st.wars == ["cronos"]
    assert st.chars[amb].office is None and st.chars[amb].location == "fandonia"
    assert logged(st, "loses his office, which ceases to exist until the war ends (ES §7.10.4)")
    assert "amb_cronos" not in fillable_offices(st)


def test_errata_d15_1981_contrast_ambassador_stays_stuck():
    pos = make(edition="1981", minister_of_army="43")
    st = pos.state
    amb = next(cid for cid, c in st.chars.items() if c.office == "amb_cronos")
    pos.dice(3, 3, 1, 5, 6)
    halted(pos.run("new_problem"))
    assert st.chars[amb].office == "amb_cronos" and st.chars[amb].location == "cronos"


def test_errata_d16_minister_in_country_when_war_begins_is_expelled_and_attempts():
    pos = make(minister_of_army="43", support=60)
    st = pos.state
    st.wchar("43").location = "cronos"
    pos.dice(3, 3, 3, 3, 1)  # Foreign War; Cronos; the attempt rolls 1
    halted(pos.run("new_problem"))
    assert st.chars["43"].location == "fandonia" and st.chars["43"].office == "minister_of_army"
    assert logged(st, "is expelled and returns to Fandonia (ES §7.10.6)")
    assert st.rng.scripted == []  # the Minister made his roll: no automatic failure
    assert "foreign_war" not in st.problems and st.wars == []  # 1 < Ability: resolved, war over


def test_errata_d16_stuck_minister_is_not_automatically_unresolved():
    pos = make(minister_of_army="43")
    st = pos.state
    st.wchar("43").location = "epalin"
    st.wars = ["epalin"]
    st.problems = {"foreign_war": {"fails": 0, "turns": 1, "countries": ["epalin"], "minister": None}}
    pos.dice(1)
    halted(pos.run("problems_phase"))
    assert st.chars["43"].location == "fandonia" and st.problems == {} and st.rng.scripted == []


# ---------------------------------------------------------------------------
# D18 (A23, R3): Famine boosts Trade Guild, Merchant and Peasant Support
# ---------------------------------------------------------------------------


def test_errata_d18_famine_boosts_trade_guild_merchant_and_peasant_not_army():
    pos = make()
    st = pos.state
    st.crown = "famine"
    got = {k: support_multiplier(st, 0, k)[0]
           for k in ("trade_guild_support", "merchant_support", "peasant_support", "army_support")}
    assert got == {"trade_guild_support": 3, "merchant_support": 3, "peasant_support": 8, "army_support": 7}
    st.crown = "court_ball"
    assert support_multiplier(st, 0, "peasant_support")[0] == 4
    # 1981: Army, not Peasant
    p81 = make(edition="1981").state
    p81.crown = "famine"
    assert support_multiplier(p81, 0, "army_support")[0] == 10
    assert support_multiplier(p81, 0, "peasant_support")[0] == 4


def test_errata_d18_famine_log_names_peasant_support():
    pos = make()
    pos.state.forced_crown = ["famine"]
    halted(pos.run("crown_phase"))
    assert logged(pos.state, "Trade Guild, Merchant and Peasant Support are worth more")


# ---------------------------------------------------------------------------
# D19, D45, D46: illegal cards (DWTK, Assassination, Foreign Support)
# ---------------------------------------------------------------------------


def _victim_hand(pos, p, top: str):
    """p holds DWTK, two Evidence cards and ``top``, which the random draw hits (index 0)."""
    pl = pos.state.players[p]
    pos.empty_hand(p)
    pos.give(p, "evidence", "evidence", top)
    pl.hand.insert(0, pl.hand.pop())


def _intrigue_draw(top: str, edition: str = "errata") -> GameState:
    """Player 0's intrigue draws ``top`` from player 1's hand (see ``_victim_hand``); the state after."""
    pos = make(edition)
    _victim_hand(pos, 1, top)
    halted(pos.run("intrigue_draw", p=0, victim=1))
    return pos.state


@pytest.fixture
def draw_first(monkeypatch):
    from fandonia_env.engine.core.rng import RNG

    monkeypatch.setattr(RNG, "below", lambda self, n: 0)


@pytest.mark.parametrize("ctype", ["foreign_support_epalin", "assassination"])
def test_errata_d19_foreign_support_and_assassination_are_illegal_kept_and_owner_accused(
        ctype, stub_accuse, draw_first):
    st = _intrigue_draw(ctype)
    assert len(st.players[1].hand) == 4 and CARD_TYPE_OF[st.players[1].hand[0]] == ctype
    acc = recorded(st, "accuse")
    assert len(acc) == 1 and acc[0]["cid"] == st.players[1].pc


def test_errata_d19_foreign_support_is_legal_in_1981(stub_accuse, draw_first):
    st = _intrigue_draw("foreign_support_epalin", edition="1981")
    assert len(st.players[1].hand) == 3 and not recorded(st, "accuse")


@pytest.mark.parametrize("ctype", ["treachery", "intrigue"])
def test_errata_d46_d45_treachery_and_intrigue_cards_are_legal_discarded_no_accusation(
        ctype, stub_accuse, draw_first):
    st = _intrigue_draw(ctype)
    assert len(st.players[1].hand) == 3 and CARD_TYPE_OF[st.discard[-1]] == ctype
    assert not recorded(st, "accuse")
    assert logged(st, "a legal card, which is discarded")


def test_errata_d19_crown_intrigue_8_4_3_keeps_foreign_support_and_accuses(stub_accuse, draw_first):
    pos = make()
    st = pos.state
    for q in range(3):
        st.deck.extend(c for c in st.players[q].hand if CARD_TYPE_OF[c] != "dwtk")
        st.players[q].hand = [c for c in st.players[q].hand if CARD_TYPE_OF[c] == "dwtk"]
    _victim_hand(pos, 1, "foreign_support_cronos")
    st.forced_crown = ["intrigue"]
    g = pos.run("crown_phase")
    d = g.decision()
    assert d["kind"] == "crown_intrigue" and d["ctx"]["victim"] == 1
    g.apply(YES)
    halted(g)
    assert len(st.players[1].hand) == 4
    assert [a["cid"] for a in recorded(st, "accuse")] == [st.players[1].pc]


def test_errata_d19_intrigue_activity_13_4_12_treachery_discarded(stub_accuse, draw_first):
    pos = make()
    st = pos.state
    _victim_hand(pos, 1, "treachery")
    pos.turn_state(0, intrigue=1)
    g = pos.run("intrigue_card_start", p=0)
    if g.decision()["kind"] == "intrigue_victim":
        g.apply(player_action(0, 1, st.n))
    halted(g)
    assert len(st.players[1].hand) == 3 and not recorded(st, "accuse")


def test_errata_d45_intrigue_card_is_no_substitute_but_still_an_intrigue_counter():
    pos = make()
    st = pos.state
    st.deck.extend(c for c in st.players[0].hand if CARD_TYPE_OF[c] != "dwtk")
    st.players[0].hand = [c for c in st.players[0].hand if CARD_TYPE_OF[c] == "dwtk"]
    pos.give(0, "intrigue")
    for k in ("assassination", "treachery", "informer", "escape", "alibi"):
        assert card_options(st, 0, k) == []
    p81 = make(edition="1981")
    p81.state.deck.extend(c for c in p81.state.players[0].hand if CARD_TYPE_OF[c] != "dwtk")
    p81.state.players[0].hand = [c for c in p81.state.players[0].hand if CARD_TYPE_OF[c] == "dwtk"]
    p81.give(0, "intrigue")
    assert card_options(p81.state, 0, "assassination") == [ID["play_intrigue_as_assassination"]]
    # nor may Recruit By Treachery take it for the Treachery card (1981: it may)
    from fandonia_env.engine.chapters.activities import _intrigue_ok

    pos.turn_state(0, intrigue=1)
    p81.turn_state(0, intrigue=1)
    assert not _intrigue_ok(st, 0, need_treachery=True)
    assert _intrigue_ok(p81.state, 0, need_treachery=True)
    # as an Intrigue counter it still allows Intrigue An Opponent's Card (§14.5.7)
    from fandonia_env.engine.chapters.crown import intrigue_card_legal

    _victim_hand(pos, 1, "evidence")
    pos.turn_state(0)
    assert intrigue_card_legal(st, 0)


# ---------------------------------------------------------------------------
# D20, D21: Court Ball
# ---------------------------------------------------------------------------


def test_errata_d20_free_counsel_needs_nine_or_more():
    pos = make()
    g = court_ball(pos, 4, 4, 4, 5, 3, 4)  # 8, 9, 7
    halted(g)
    assert [p.free_counsel for p in g.state.players] == [False, True, False]
    assert logged(g.state, "it takes 9 or more")
    p81 = make(edition="1981")
    g = court_ball(p81, 4, 4, 4, 5, 3, 4)
    assert [p.free_counsel for p in g.state.players] == [True, True, False]


def test_errata_d21_banned_pc_loses_two_pp_at_every_court_ball():
    pos = make()
    st = pos.state
    st.wchar(st.players[1].pc).banned = True
    pp = [pl.pp for pl in st.players]
    g = court_ball(pos, 3, 4, 3, 4)  # players 0 and 2 roll 7 (no effect)
    halted(g)
    assert [pl.pp - q for pl, q in zip(st.players, pp)] == [0, -2, 0]
    p81 = make(edition="1981")
    s81 = p81.state
    s81.wchar(s81.players[1].pc).banned = True
    pp = [pl.pp for pl in s81.players]
    court_ball(p81, 3, 4, 3, 4)
    assert [pl.pp - q for pl, q in zip(s81.players, pp)] == [0, 0, 0]


def test_errata_d21_face_down_banned_pc_loses_nothing():
    pos = make()
    st = pos.state
    c = st.wchar(st.players[1].pc)
    c.banned = True
    c.dead = True  # face-down (§31.5): he takes part in nothing
    pp = [pl.pp for pl in st.players]
    halted(court_ball(pos, 3, 4, 3, 4))
    assert [pl.pp for pl in st.players] == pp


# ---------------------------------------------------------------------------
# D85 (A35): dissolving the government
# ---------------------------------------------------------------------------


def farc_monarch(pos, since_ago: int = 1):
    st = pos.state
    st.wchar("george").owner = 0
    st.reign = {"player": 0, "cid": "george", "since": st.turn - since_ago}


def test_errata_d85_farc_monarch_player_dissolves_and_fills_three_offices_free():
    pos = make()
    st = pos.state
    farc_monarch(pos)
    ip = st.players[0].ip
    mypc = st.players[0].pc
    other = npc(st, 0)
    g = pos.run("offices_phase")
    d = g.decision()
    assert (d["kind"], d["player"]) == ("dissolve_government", 0)
    g.apply(YES)
    assert all(c.office in (None, "monarch") for c in st.chars.values())
    d = g.decision()
    assert d["kind"] == "dissolve_office" and PASS in d["options"]
    g.apply(ID["office_high_minister"])
    d = g.decision()
    assert d["kind"] == "dissolve_char" and char_action(mypc) in d["options"]  # A35: his PC too
    g.apply(char_action(mypc))
    g.apply(ID["office_minister_of_justice"])
    g.apply(char_action(other))
    g.apply(ID["office_minister_of_army"])
    enemy = st.players[1].pc
    g.apply(char_action(enemy))  # any Office-Holder character, an enemy PC included (A35)
    assert st.chars[mypc].office == "high_minister" and st.chars[other].office == "minister_of_justice"
    assert st.chars[enemy].office == "minister_of_army"
    assert st.players[0].ip == ip
    # then the Office Phase proper: the first player selects the next vacant office
    d = g.decision()
    assert d["kind"] in ("office_select", "office_fill", "halt")
    while g.decision()["kind"] != "halt":
        g.apply(PASS if PASS in g.legal_actions() else g.legal_actions()[0])
    assert not fillable_offices(st)


def test_errata_d85_declining_keeps_the_government():
    pos = make()
    st = pos.state
    farc_monarch(pos)
    before = {cid: c.office for cid, c in st.chars.items()}
    g = pos.run("offices_phase")
    g.apply(NO)
    halted(g)
    assert {cid: c.office for cid, c in st.chars.items()} == before


@pytest.mark.parametrize("edition,ago", [("1981", 1), ("errata", 2)])
def test_errata_d85_offered_only_in_errata_at_the_next_office_phase(edition, ago):
    pos = make(edition=edition)
    farc_monarch(pos, since_ago=ago)
    halted(pos.run("offices_phase"))


@pytest.mark.parametrize("edition", ["1981", "errata"])
def test_errata_d64_fac_spouse_in_hiding_of_a_new_monarch_comes_out(edition):
    """ES §24.7 (D64): the new Monarch's FAC spouse becomes a NC consort (§18.10); in the
    errata edition a NC may not hide, so one in hiding comes out at once."""
    pos = Position(players=3, seed=1, edition=edition)
    st = pos.state
    for pl in st.players:
        st.wchar(pl.pc).location = "fandonia"
    g0 = st.wchar("george")
    g0.dead, g0.office, g0.spouse = True, None, None
    st.wchar("catherine").spouse = None
    wife = "62" if st.chars["62"].owner is None else "64"
    pos.char("alan", owner=1, spouse=wife)
    pos.char(wife, owner=1, spouse="alan", hiding=True)
    for p in range(3):
        pos.empty_hand(p)
    pos.run("succession")  # mourning ends the turn (§9.4): the game runs on to the next Office Phase
    w = st.chars[wife]
    assert w.consort and w.owner is None
    assert w.hiding == (edition == "1981")
    check(st)
