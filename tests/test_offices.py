"""§6 Office Phase, §16 Office Holders, §13.4.2 Fill A Vacant Office (fandonia_env.engine.chapters.offices)."""

from __future__ import annotations

from helpers import government, halted, logged

from fandonia_env.engine.chapters.offices import candidates, fill_office_legal, fillable_offices
from fandonia_env.engine.chapters.turn import place_ambassador
from fandonia_env.engine.core import registry
from fandonia_env.engine.core.actions import ID, PASS, char_action
from fandonia_env.engine.data.components import (
    CARD_TYPE_OF,
    OFFICE_ELIGIBLE,
    OFFICES,
)
from fandonia_env.engine.face.builder import Position

# Characters the tests place themselves (never PCs: PCs come from 11-24 and 56-66).
MINE = ("25", "26", "31", "34", "36", "41", "42", "43", "44")


def make(players: int = 3, seed: int = 1, vacant: tuple[str, ...] = (), ip: int | None = None) -> Position:
    """A position whose twelve offices are held by NCs outside MINE, all in Fandonia,
    except the offices listed in ``vacant``."""
    return government(players, seed, keep_free=MINE, vacant=vacant, ip=ip)


def holder(st, office):
    return next((cid for cid, c in st.chars.items() if c.office == office), None)


def give_card(pos: Position, ctype: str) -> str:
    st = pos.state
    card = next(c for c in st.deck if CARD_TYPE_OF[c] == ctype)
    st.deck.remove(card)
    return card


# ---------------------------------------------------------------------------
# §6.4
# ---------------------------------------------------------------------------


def test_6_4_office_phase_skipped_when_no_office_is_vacant():
    pos = make()
    pos.dice(1, 1)
    g = pos.run("offices_phase")
    halted(g)
    assert logged(g.state, "no vacant office to fill (§6.4)")
    assert g.state.rng.scripted == [1, 1]  # no roll made


# ---------------------------------------------------------------------------
# §6.1.1 offers in player order for Two IP
# ---------------------------------------------------------------------------


def test_6_1_1_first_player_selects_office_and_player_pays_two_ip():
    pos = make(vacant=("minister_of_trade", "minister_of_navy"), ip=2)
    pos.char("42", owner=1)
    pos.char("36", owner=2)
    st = pos.state
    g = pos.run("offices_phase")
    d = g.decision()
    assert d["kind"] == "office_select" and d["player"] == 0
    assert set(d["options"]) == {ID["office_minister_of_trade"], ID["office_minister_of_navy"]}
    g.apply(ID["office_minister_of_navy"])
    # player 0 has no eligible character (PCs 56 and 63 are ladies): the offer goes to player 1
    d = g.decision()
    assert d["kind"] == "office_fill" and d["player"] == 1
    assert set(d["options"]) == {char_action("42"), PASS}
    g.apply(char_action("42"))
    assert st.chars["42"].office == "minister_of_navy"
    assert st.players[1].ip == 0
    # the next office: player 1 can no longer pay, player 2 may fill it
    d = g.decision()
    assert d["kind"] == "office_fill" and d["player"] == 2 and d["ctx"]["office"] == "minister_of_trade"
    assert set(d["options"]) == {char_action("36"), char_action("13"), PASS}
    g.apply(char_action("36"))
    assert st.chars["36"].office == "minister_of_trade" and st.players[2].ip == 0
    halted(g)


def test_6_1_1_player_without_two_ip_is_not_offered_the_office():
    pos = make(vacant=("minister_of_trade",))
    st = pos.state
    pos.char("42", owner=1)
    pos.char("36", owner=2)
    pos.player(0, ip=5)
    pos.player(1, ip=1)
    pos.player(2, ip=2)
    pos.dice(4, 4)
    g = pos.run("offices_phase")
    d = g.decision()
    assert d["player"] == 2 and d["kind"] == "office_fill"  # player 1 cannot pay Two IP
    g.apply(PASS)
    # nobody filled it: §6.1.2 random fill, dice count 44 -> Duke Marley, no IP cost
    assert st.chars["44"].office == "minister_of_trade"
    assert [pl.ip for pl in st.players] == [5, 1, 2]
    halted(g)


# ---------------------------------------------------------------------------
# §6.1.2 random fill (A49, A3)
# ---------------------------------------------------------------------------


def test_6_1_2_random_fill_rerolls_ineligible_and_office_holders():
    pos = make(vacant=("high_minister",), ip=0)
    st = pos.state
    h = holder(st, "minister_of_trade")
    pos.char("43", imprisoned=True)
    pos.dice(4, 5, int(h[0]), int(h[1]), 4, 3, 6, 6, 4, 4)  # 45 Magistrate, a holder, 43 jailed, 66 lady, 44
    g = pos.run("offices_phase")
    halted(g)
    assert st.chars["44"].office == "high_minister"
    assert st.chars[h].office == "minister_of_trade"
    assert st.rng.scripted == []
    assert logged(st, "dice count 45 names Magistrate, who may never hold an office")
    assert logged(st, "dice count 43 names Duke Henry, who cannot fill an office now (§6.3)")


def test_A49_random_fill_may_name_a_fac_and_his_counselor_card_is_discarded():
    pos = make(vacant=("minister_of_state",), ip=0)
    st = pos.state
    card = give_card(pos, "monarchs_counselor")
    pos.char("43", owner=1, counselor_card=card)
    pos.dice(4, 3)
    ip_before = st.players[1].ip
    g = pos.run("offices_phase")
    halted(g)
    assert st.chars["43"].office == "minister_of_state" and st.chars["43"].owner == 1
    assert st.chars["43"].counselor_card is None and card in st.discard
    assert st.players[1].ip == ip_before


def test_A3_office_stays_vacant_when_no_character_can_fill_it():
    pos = make(vacant=("minister_of_trade",), ip=0)
    st = pos.state
    for cid in OFFICE_ELIGIBLE:
        if st.chars[cid].office is None:
            st.wchar(cid).imprisoned = True
    pos.dice(4, 4)
    g = pos.run("offices_phase")
    halted(g)
    assert holder(st, "minister_of_trade") is None
    assert st.rng.scripted == [4, 4]
    assert logged(st, "stays vacant (ruling A3)")



def _holder_42(office: str, p: int, ip: int) -> Position:
    """The High Minister's office vacant; 42, player p's FAC (``ip`` IP), holds ``office`` in place of its NC."""
    pos = make(vacant=("high_minister",), ip=0)
    st = pos.state
    st.wchar(holder(st, office)).office = None
    pos.office(office, "42")
    pos.char("42", owner=p)
    pos.player(p, ip=ip)
    return pos


# ---------------------------------------------------------------------------
# §6.2 moving an office holder / a Monarch's Counselor
# ---------------------------------------------------------------------------


def test_6_2_moving_office_holder_vacates_his_office_which_is_filled_this_phase():
    pos = _holder_42("minister_of_trade", 0, ip=4)
    st = pos.state
    g = pos.run("offices_phase")
    d = g.decision()
    assert d["kind"] == "office_fill" and d["player"] == 0
    g.apply(char_action("42"))
    assert st.chars["42"].office == "high_minister" and st.players[0].ip == 2
    # the Minister Of Trade is vacant now and offered in this phase
    d = g.decision()
    assert d["kind"] == "office_fill" and d["ctx"]["office"] == "minister_of_trade"
    pos.dice(4, 4)
    g.apply(PASS)
    assert st.chars["44"].office == "minister_of_trade"
    halted(g)


def test_6_2_monarchs_counselor_who_fills_an_office_loses_his_card():
    pos = make(vacant=("minister_of_army",), ip=0)
    st = pos.state
    card = give_card(pos, "monarchs_counselor")
    pos.char("42", owner=0, counselor_card=card)
    pos.player(0, ip=2)
    g = pos.run("offices_phase")
    g.apply(char_action("42"))
    assert st.chars["42"].office == "minister_of_army"
    assert st.chars["42"].counselor_card is None and card in st.discard
    halted(g)


# ---------------------------------------------------------------------------
# §6.3 eligibility
# ---------------------------------------------------------------------------


def test_6_3_banished_imprisoned_hiding_or_stuck_characters_may_not_fill_offices():
    pos = make(vacant=("minister_of_army",), ip=0)
    st = pos.state
    pos.player(0, ip=2, pp=40)  # within his PP limit (R17)
    pos.char("41", owner=0, banished=True, location="cronos")
    pos.char("42", owner=0, imprisoned=True)
    pos.char("43", owner=0, hiding=True)
    pos.char("44", owner=0, location="epalin")
    pos.char("36", owner=0)
    pos.char("45", owner=0)  # §16.1 the Magistrate may never hold an office
    st.wars = ["epalin"]
    g = pos.run("offices_phase")
    d = g.decision()
    assert d["kind"] == "office_fill"
    assert set(d["options"]) == {char_action("36"), PASS}


# ---------------------------------------------------------------------------
# §7.10.4, §20.4 ambassadors
# ---------------------------------------------------------------------------


def test_7_10_4_no_new_ambassador_to_a_country_at_war():
    pos = make(vacant=("amb_cronos",), ip=5)
    st = pos.state
    st.wars = ["cronos"]
    pos.char("42", owner=0)
    g = pos.run("offices_phase")
    halted(g)
    assert holder(st, "amb_cronos") is None


def test_20_4_new_ambassador_and_his_wife_go_abroad():
    pos = make(vacant=("amb_epalin",), ip=0)
    st = pos.state
    pos.player(0, ip=2)
    pos.char("42", owner=0, spouse="64")
    pos.char("64", spouse="42")
    g = pos.run("offices_phase")
    g.apply(char_action("42"))
    assert st.chars["42"].office == "amb_epalin"
    assert st.chars["42"].location == "epalin" and st.chars["64"].location == "epalin"
    halted(g)


def test_16_5_recalled_ambassador_returns_to_fandonia_with_his_wife():
    pos = make()
    st = pos.state
    amb = holder(st, "amb_epalin")
    assert st.chars[amb].location == "epalin"
    st.wchar(amb).spouse = "64"
    st.wchar("64").spouse = amb
    st.wchar("64").location = "epalin"
    g = pos.run("discharge", cid=amb)
    halted(g)
    assert st.chars[amb].office is None
    assert st.chars[amb].location == "fandonia" and st.chars["64"].location == "fandonia"


def test_7_10_4_recalled_ambassador_to_a_country_at_war_is_no_longer_stuck():
    """§7.10.4: the Ambassador is stuck "unless he dies or is recalled": recalled, he and his
    wife come home (Foreign War counsel 2), and no new Ambassador may be appointed."""
    pos = make()
    st = pos.state
    amb = holder(st, "amb_sandarkan")
    st.wchar(amb).spouse = "64"
    st.wchar("64").spouse = amb
    st.wchar("64").location = "sandarkan"
    st.wars = ["sandarkan"]
    g = pos.run("discharge", cid=amb)
    halted(g)
    assert st.chars[amb].office is None and st.chars[amb].location == "fandonia"
    assert st.chars["64"].location == "fandonia"
    assert "amb_sandarkan" not in fillable_offices(st)


def test_7_10_4_recalled_ambassador_hiding_there_stays_abroad():
    pos = make()
    st = pos.state
    amb = holder(st, "amb_sandarkan")
    st.wchar(amb).hiding = True
    st.wars = ["sandarkan"]
    g = pos.run("discharge", cid=amb)
    halted(g)
    assert st.chars[amb].office is None and st.chars[amb].location == "sandarkan"


def test_16_4_discharged_fac_minister_leaves_office_and_stays_in_faction():
    pos = make()
    st = pos.state
    h = holder(st, "minister_of_justice")
    pos.char(h, owner=2)
    g = pos.run("discharge", cid=h)
    halted(g)
    assert st.chars[h].office is None and st.chars[h].owner == 2
    assert holder(st, "minister_of_justice") is None


# ---------------------------------------------------------------------------
# §13.4.2 Fill A Vacant Office (activity)
# ---------------------------------------------------------------------------


def test_13_4_2_fill_office_activity_costs_three_ip():
    pos = make(vacant=("minister_of_trade", "amb_besyzan"), ip=0)
    st = pos.state
    pos.char("42", owner=0)
    pos.turn_state(0)
    pos.player(0, ip=2)
    assert not fill_office_legal(st, 0)
    pos.player(0, ip=3)
    assert registry.ACTIVITIES["fill_office"].legal(st, 0)
    g = pos.run("fill_office_start", p=0)
    d = g.decision()
    assert d["kind"] == "fill_office_office"
    assert set(d["options"]) == {ID["office_minister_of_trade"], ID["office_amb_besyzan"]}
    g.apply(ID["office_amb_besyzan"])  # player 0's only candidate, 42, is placed (R10)
    assert st.chars["42"].office == "amb_besyzan" and st.chars["42"].location == "besyzan"
    assert st.players[0].ip == 0
    halted(g)


def test_13_4_2_fill_office_not_legal_without_vacancy_or_candidate():
    pos = make(ip=5)
    st = pos.state
    pos.char("42", owner=0)
    pos.turn_state(0)
    assert not fill_office_legal(st, 0)  # no vacant office
    pos2 = make(vacant=("amb_cronos",), ip=5)
    pos2.turn_state(1)
    pos2.state.wars = ["cronos"]
    pos2.char("42", owner=1)
    assert not fill_office_legal(pos2.state, 1)  # §7.10.4
    pos2.state.wars = []
    assert fill_office_legal(pos2.state, 1)
    pos2.char("42", owner=None)
    assert not fill_office_legal(pos2.state, 1)  # player 1's PC 63 is a lady: no candidate


def test_13_4_2_fill_office_may_move_an_office_holder():
    pos = make(vacant=("high_minister",), ip=0)
    st = pos.state
    old = holder(st, "amb_cronos")
    st.wchar(old).office = None
    st.wchar(old).location = "fandonia"
    pos.office("amb_cronos", "42")
    place_ambassador(st, "42")
    pos.char("42", owner=2)
    pos.turn_state(2)
    pos.player(2, ip=3)
    g = pos.run("fill_office_start", p=2)
    d = g.decision()
    assert d["kind"] == "fill_office_char" and set(d["options"]) == {char_action("42"), char_action("13")}
    g.apply(char_action("42"))
    assert st.chars["42"].office == "high_minister" and st.chars["42"].location == "fandonia"
    assert holder(st, "amb_cronos") is None
    assert st.players[2].ip == 0
    halted(g)


# ---------------------------------------------------------------------------
# §16 Office Holders
# ---------------------------------------------------------------------------


def test_16_1_only_pcs_facs_and_ncs_11_to_44_may_hold_offices():
    pos = make(vacant=("minister_of_army",), ip=0)
    st = pos.state
    pos.char("45", owner=0)  # the Magistrate (45-66 never)
    pos.char("62", owner=0)  # a lady FAC
    pos.char("alan", owner=0)  # a FARC (RCs never, except the Monarch)
    pos.char("42", owner=0)
    assert candidates(st, 0) == ["42"]


def test_16_1_the_monarchs_consort_is_a_nrc_and_is_rerolled_by_the_random_fill():
    pos = make(vacant=("high_minister",), ip=0)
    st = pos.state
    pos.char("42", consort=True)
    pos.dice(4, 2, 4, 4)  # 42 is the consort: roll again; 44
    g = pos.run("offices_phase")
    halted(g)
    assert st.chars["42"].office is None and st.chars["44"].office == "high_minister"
    assert logged(st, "the Monarch's consort, a NRC (§16.1)")


def test_16_2_one_office_at_a_time_the_old_one_is_vacated():
    pos = _holder_42("minister_of_navy", 1, ip=2)
    st = pos.state
    pos.dice(4, 4)
    g = pos.run("offices_phase")
    assert g.decision()["kind"] == "office_fill"
    g.apply(char_action("42"))
    while g.decision()["kind"] != "halt":
        g.apply(PASS)
    assert st.chars["42"].office == "high_minister"
    assert sum(1 for c in st.chars.values() if c.office == "high_minister") == 1
    assert holder(st, "minister_of_navy") == "44"  # refilled at random this phase (§6.2)


def test_16_3_office_status_is_added_to_the_status_rating():
    from fandonia_env.engine.rules.queries import status

    pos = make(vacant=("high_minister",), ip=0)
    st = pos.state
    before = status(st, "42")
    pos.office("high_minister", "42")
    assert OFFICES["high_minister"].bonus > 0
    assert status(st, "42") == before + OFFICES["high_minister"].bonus


def test_16_6_office_holder_who_changes_allegiance_remains_in_office():
    pos = make(vacant=("minister_of_trade",), ip=0)
    st = pos.state
    pos.char("42", owner=0)
    pos.office("minister_of_trade", "42")
    g = pos.run("release", cid="42")  # FAC -> NC (§35.5.1)
    halted(g)
    assert st.chars["42"].owner is None and st.chars["42"].office == "minister_of_trade"
