"""Errata edition, romance group: seduction (ES §13.4.15), treachery abroad (§17.6, §20.6.4),
weddings (ES §13.4.16), proposals (ES §18.4), duels (ES §19.7.1), FARC Monarch (ES §36.10.5)."""

from __future__ import annotations

import pytest
from helpers import home_position, logs, seduce

from fandonia_env.engine.chapters.activities import _farcs_alive, _seduce_targets, _seducers, _treachery_targets
from fandonia_env.engine.chapters.romance import _legal_propose, pair_ok
from fandonia_env.engine.core.actions import PASS, YES, char_action
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.face.invariants import check
from fandonia_env.engine.rules.queries import status


def errata_pos(**kw) -> Position:
    """Everyone in Fandonia, no office but the Monarch's, empty hands, PCs 11, 12, 13; 40 PP, 20 IP."""
    return home_position(pp=40, ip=20, edition="errata", **kw)


@pytest.fixture
def rec(stub_ops):
    return stub_ops("accuse", "socializing_roll")


# ---------------------------------------------------------------------------
# D35-D37 seduction (ES §13.4.15)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("situation", ["imprisoned", "hiding"])
def test_errata_d35_imprisoned_or_hiding_female_cannot_seduce(situation):
    pos = errata_pos()
    pos.char("61", owner=0)
    pos.turn_state(0, intrigue=1)
    assert "61" in _seducers(pos.state, 0)
    setattr(pos.state.chars["61"], situation, True)
    assert "61" not in _seducers(pos.state, 0)


def test_errata_d35_female_stuck_at_war_cannot_seduce():
    pos = errata_pos()
    pos.char("61", owner=0, location="epalin")
    pos.char("21", location="epalin")
    assert "61" in _seducers(pos.state, 0)
    pos.state.wars.append("epalin")
    assert "61" not in _seducers(pos.state, 0)


def test_errata_d36_six_seducer_becomes_eac_of_target_owner():
    pos = errata_pos()
    pos.char("66", owner=0)  # Seduction Rating 6
    pos.char("21", owner=1)
    pos.dice(6)
    g = seduce(pos, 0, "66", "21")
    st = g.state
    assert st.chars["21"].owner == 1
    assert st.chars["66"].owner == 1 and st.chars["66"].loyalty_counter
    assert "D36" in logs(g)
    check(st, decision=False)


def test_errata_d36_six_without_pp_seducer_stays_fac():
    pos = errata_pos()
    pos.char("66", owner=0)
    pos.char("21", owner=1)
    pos.player(1, pp=status(pos.state, "21"))  # covers his FAC 21 and no more
    pos.dice(6)
    g = seduce(pos, 0, "66", "21")
    assert g.state.chars["66"].owner == 0
    assert "not enough PP" in logs(g)


def test_errata_d36_a33_six_against_an_nc_is_a_plain_failure():
    pos = errata_pos()
    pos.char("66", owner=0)
    pos.dice(6)
    g = seduce(pos, 0, "66", "21")
    assert g.state.chars["66"].owner == 0 and g.state.chars["21"].owner is None
    assert "A33" in logs(g)


def test_errata_d36_1981_six_has_no_effect():
    pos = home_position(pp=40, ip=20)
    pos.char("66", owner=0)
    pos.char("21", owner=1)
    pos.dice(6)
    g = seduce(pos, 0, "66", "21")
    assert g.state.chars["66"].owner == 0 and g.state.chars["21"].owner == 1


def test_errata_d37_seduced_nc_gets_its_loyalty_counter():
    pos = errata_pos()
    pos.char("64", owner=0)  # rating 5
    assert "21" in pos.state.loyalty_pool
    pos.dice(2)
    g = seduce(pos, 0, "64", "21")
    st = g.state
    assert st.chars["21"].owner == 0 and st.chars["21"].loyalty_counter and "21" not in st.loyalty_pool
    assert "D37" in logs(g)
    check(st, decision=False)


def test_errata_d37_failed_seduction_changes_nothing():
    pos = errata_pos()
    pos.char("56", owner=0)  # rating 2
    pos.dice(4)
    g = seduce(pos, 0, "56", "21")
    assert g.state.chars["21"].owner is None and "21" in g.state.loyalty_pool


# ---------------------------------------------------------------------------
# D53 / D61 abroad
# ---------------------------------------------------------------------------


def test_errata_d53_henchman_abroad_lets_player_recruit_by_treachery_there():
    pos = errata_pos()
    pos.char("22", owner=1, location="cronos")
    pos.turn_state(0)
    assert "22" not in _treachery_targets(pos.state, 0)
    pos.henchman("23", 0)
    pos.char("23", location="cronos")
    assert "22" in _treachery_targets(pos.state, 0)


def test_errata_d61_abroad_male_seduced_only_by_a_female_in_the_same_country():
    pos = errata_pos()
    pos.char("61", owner=0)
    pos.char("21", location="cronos")
    pos.turn_state(0, intrigue=1)
    assert "21" not in _seduce_targets(pos.state, 0, "61")
    pos.char("61", location="cronos")
    assert "21" in _seduce_targets(pos.state, 0, "61")


def test_errata_d61_abroad_eac_recruited_by_treachery_only_with_pc_there():
    pos = errata_pos()
    pos.char("22", owner=1, location="epalin")
    pos.turn_state(0)
    assert "22" not in _treachery_targets(pos.state, 0)
    pos.char("11", location="epalin")
    assert "22" in _treachery_targets(pos.state, 0)


# ---------------------------------------------------------------------------
# D38-D40 weddings (ES §13.4.16)
# ---------------------------------------------------------------------------


def _engaged(pos: Position, a: str, b: str) -> None:
    pos.state.wchar(a).engaged_to = b
    pos.state.wchar(b).engaged_to = a


def test_errata_d38_host_rolls_on_socializing_table(rec):
    pos = errata_pos()
    pos.char("21", owner=0)
    pos.char("61", owner=0)
    _engaged(pos, "21", "61")
    pos.turn_state(0)
    for q in (1, 2):
        pos.char(pos.state.players[q].pc, imprisoned=True)  # no guests
    pos.run("wedding_pair", choice=char_action("21"), p=0)
    assert [a for n, a in rec if n == "socializing_roll"] == [{"p": 0, "guest": False}]


def test_errata_d38_1981_host_does_not_roll(rec):
    pos = home_position(pp=40, ip=20)
    pos.char("21", owner=0)
    pos.char("61", owner=0)
    _engaged(pos, "21", "61")
    pos.turn_state(0)
    for q in (1, 2):
        pos.char(pos.state.players[q].pc, imprisoned=True)
    pos.run("wedding_pair", choice=char_action("21"), p=0)
    assert not [a for n, a in rec if n == "socializing_roll"]


def test_errata_d39_marrying_pc_host_rolls_twice_then_guests(rec):
    pos = errata_pos()
    pos.char("61", owner=0)
    _engaged(pos, "11", "61")
    pos.turn_state(0)
    g = pos.run("wedding_pair", choice=char_action("11"), p=0)
    while g.decision()["kind"] == "wedding_attend":
        g.apply(YES)
    rolls = [a["p"] for n, a in rec if n == "socializing_roll"]
    assert rolls == [0, 0, 1, 2]
    assert "D39" in logs(g)


def test_errata_d40_guest_designates_auto_proposal_at_once():
    pos = errata_pos()
    pos.char("61", owner=1)
    pos.turn_state(0)  # player 0's turn: player 1 is a wedding guest
    g = pos.run("auto_proposal", p=1)
    d = g.decision()
    assert d["kind"] == "propose_proposer" and d["player"] == 1 and PASS in d["options"]
    g.apply(char_action("12"))
    st = g.state
    assert st.chars["12"].engaged_to == "61" and st.chars["61"].engaged_to == "12"
    assert st.tstate["auto_proposal"]["1"] == 0


def test_errata_d40_guest_who_passes_loses_the_free_proposal():
    pos = errata_pos()
    pos.char("61", owner=1)
    pos.turn_state(0)
    g = pos.run("auto_proposal", p=1)
    g.apply(PASS)
    assert g.state.chars["12"].engaged_to is None
    assert g.state.tstate["auto_proposal"]["1"] == 0 and "lost" in logs(g)


def test_errata_d40_1981_guest_keeps_it_for_his_turn():
    pos = home_position(pp=40, ip=20)
    pos.char("61", owner=1)
    pos.turn_state(0)
    g = pos.run("auto_proposal", p=1)
    assert g.decision()["kind"] == "halt"
    assert g.state.tstate["auto_proposal"]["1"] == 1


# ---------------------------------------------------------------------------
# D54-D56 proposals (ES §18.4)
# ---------------------------------------------------------------------------


def test_errata_d54_several_proposals_in_one_player_turn():
    pos = errata_pos()
    for c in ("21", "61", "22", "62"):
        pos.char(c, owner=0)
    pos.turn_state(0)
    pos.dice(4)
    pos.run("propose_proposee", choice=char_action("61"), p=0, a="21")
    assert pos.state.chars["21"].engaged_to == "61"
    assert _legal_propose(pos.state, 0)
    pos.dice(4)
    pos.run("propose_proposee", choice=char_action("62"), p=0, a="22")
    assert pos.state.chars["22"].engaged_to == "62"


def _anne_setup(pos: Position) -> None:
    pos.char("35", owner=0)  # Status 4
    pos.char("anne", owner=0)
    pos.state.monarch = "george"
    pos.turn_state(0)


def test_errata_d55_proposal_to_anne_subtracts_one():
    pos = errata_pos()
    _anne_setup(pos)
    pos.dice(3)
    g = pos.run("propose_proposee", choice=char_action("anne"), p=0, a="35")
    assert g.state.chars["35"].engaged_to is None  # 3 - 1 = 2: refused
    assert "-1 proposing to Princess Anne" in logs(g)


def test_errata_d55_1981_proposal_to_anne_adds_one():
    pos = home_position(pp=40, ip=20)
    _anne_setup(pos)
    pos.dice(2)
    g = pos.run("propose_proposee", choice=char_action("anne"), p=0, a="35")
    assert g.state.chars["35"].engaged_to == "anne"  # 2 + 1 = 3: accepted


def test_errata_d56_engaged_character_cannot_propose_or_be_proposed_again():
    pos = errata_pos()
    for c in ("21", "61", "22"):
        pos.char(c, owner=0)
    _engaged(pos, "21", "61")
    pos.turn_state(0)
    st = pos.state
    st.turn = 5  # another game turn: §18.4.3 is not what stops it
    assert not pair_ok(st, 0, "22", "61") and not pair_ok(st, 0, "21", "62")
    pos.char("62", owner=0)
    assert pair_ok(st, 0, "22", "62")


# ---------------------------------------------------------------------------
# D58-D59 duel opponents (ES §19.7.1)
# ---------------------------------------------------------------------------


def test_errata_d58_duellist_rolled_as_his_own_opponent_rerolls():
    pos = errata_pos()
    pos.dice(2, 1, 2, 2, 6, 6)  # 21 (himself) -> reroll; 22; both dueling dice 6
    g = pos.run("duel", cid="21", source="counter")
    out = logs(g)
    assert "dice count 21" in out and "already in this duel: roll again" in out
    assert "Duel opponent dice count 22:" in out
    assert not g.state.chars["21"].dead and not g.state.chars["22"].dead


def test_errata_d59_female_eac_rolled_as_opponent_goes_to_19_4():
    pos = errata_pos()
    pos.char("61", owner=1)
    pos.henchman("23", 1)
    pos.dice(6, 2, 6, 1, 6, 6)  # 62: neutral lady -> reroll; 61: player 1's EAC -> §19.4
    g = pos.run("duel", cid="21", source="counter")
    out = logs(g)
    assert "neutral lady: roll again" in out
    assert "fights the duel in place of" in out and "(§19.7.5, §19.4)" in out
    assert "Dueling Rating" in out and not g.state.chars["23"].dead


# ---------------------------------------------------------------------------
# D83 FARC Monarch (ES §36.10.5)
# ---------------------------------------------------------------------------


def test_errata_d83_farc_monarch_not_proposed_to_nor_courted():
    pos = errata_pos()
    _anne_setup(pos)
    pos.state.monarch = "anne"
    assert not pair_ok(pos.state, 0, "35", "anne")
    assert "anne" not in _farcs_alive(pos.state, 0)


def test_errata_d83_1981_farc_monarch_still_proposed_to_and_courted():
    pos = home_position(pp=40, ip=20)
    _anne_setup(pos)
    pos.state.monarch = "anne"
    assert pair_ok(pos.state, 0, "35", "anne")
    assert "anne" in _farcs_alive(pos.state, 0)


def test_errata_d36_seducing_pc_rolls_six_stays_with_her_player():
    # Reading: a PC never changes sides (the backfire takes only a FAC).
    pos = errata_pos(pcs=("66", "12", "13"))
    pos.char("21", owner=1)
    pos.turn_state(0, intrigue=1)
    assert "66" in _seducers(pos.state, 0)
    pos.dice(6)
    g = seduce(pos, 0, "66", "21")
    st = g.state
    assert st.chars["66"].owner == 0 and st.chars["66"].is_pc and st.chars["21"].owner == 1
    assert "is a PC and cannot change sides" in logs(g)
    check(st, decision=False)


def test_errata_d83_farc_monarch_never_proposes_even_with_auto_proposal():
    pos = errata_pos()
    _anne_setup(pos)
    pos.state.monarch = "anne"
    pos.state.pt["auto_proposal"] = 1
    assert not pair_ok(pos.state, 0, "35", "anne", auto=True)
    assert not _legal_propose(pos.state, 0)
