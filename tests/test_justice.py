"""Justice: §21 assassination, §22 scandal, §23 wrongdoing, §24 hiding, §25 extradition,
§26 hearings, §27 interrogation, §28 trials, §29 banishment, §30 imprisonment, §31 death;
the activities §13.4.5, §13.4.6, §13.4.8-§13.4.11 and their cards (§14.5.4-§14.5.18)."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import halted, justice_position, kind, logs, pc

from fandonia_env.engine import Game
from fandonia_env.engine.core import registry
from fandonia_env.engine.core.actions import ID, NO, SIGN_MINUS, SIGN_PLUS, YES, char_action
from fandonia_env.engine.data.components import CARD_TYPE_OF
from fandonia_env.engine.face.builder import Position

ROLAND, MORTIMER, DALE, J1, J2, ARCHBISHOP, SHERIFF = "42", "35", "25", "46", "51", "55", "52"


def fresh(players: int = 3, seed: int = 1) -> Position:
    """A position with empty hands (only the DOWN WITH THE KING cards), no Minister Of
    Justice (the Judge is rolled), and a few plain NCs out of office."""
    return justice_position(players, seed, plain=(ROLAND, MORTIMER, DALE, "33"))


def _trial(pos: Position, cid: str, *dice: int) -> Game:
    """``cid`` sent to trial (§27 interrogation first), the dice scripted."""
    pos.dice(*dice)
    return pos.run("to_trial", cid=cid)


def _stuck_at_war(op: str, **char: Any) -> tuple[Position, Game]:
    """``op`` (accuse, hearing) run on Roland, stuck in Epalin at war (§7.10.1) with ``char`` set."""
    pos = fresh()
    pos.state.wars.append("epalin")
    pos.char(ROLAND, location="epalin", **char)
    g = pos.run(op, cid=ROLAND)
    halted(g)
    return pos, g


def _scandal(*dice: int) -> Game:
    """A scandal (§22) about Roland in a fresh position, the dice scripted."""
    pos = fresh()
    pos.dice(*dice)
    return pos.run("scandal", cid=ROLAND)


def lady(pos: Position) -> str:
    """A neutral lady (56-66) who is nobody's PC."""
    return next(c for c in ("56", "61", "62", "63") if pos.state.chars[c].owner is None)


# ---------------------------------------------------------------------------
# §23 Wrongdoing
# ---------------------------------------------------------------------------


def test_23_2_wrongdoing_roll_below_status_is_innocent():
    pos = fresh()
    pos.dice(4)  # 4 < Status 5
    g = pos.run("accuse", cid=ROLAND)
    halted(g)
    assert not g.state.chars[ROLAND].wrongdoer
    assert "found innocent" in logs(g)


def test_23_2_wrongdoing_roll_at_status_goes_to_hearing_and_hiding_is_offered():
    pos = fresh()
    pos.dice(5)
    g = pos.run("accuse", cid=ROLAND)
    d = g.decision()
    assert d["kind"] == "hide_from_hearing" and d["player"] == 0  # NC: the first player (A60, R9)
    assert g.state.chars[ROLAND].wrongdoer  # §23.5 sent to a hearing
    g.apply(YES)
    halted(g)
    c = g.state.chars[ROLAND]
    assert c.hiding and c.wrongdoer and c.hid_turn == g.state.turn


def test_23_2_natural_six_goes_to_hearing_whatever_the_status():
    pos = fresh()
    pos.char(J1, titles=0)
    pos.state.wchar(J1).fixed_status = 9
    pos.dice(6)
    g = pos.run("accuse", cid=J1)
    assert kind(g) == "hide_from_hearing"


def test_23_3_dwtk_adds_two_to_the_wrongdoing_die():
    pos = fresh()
    pos.dice(3)  # 3 + 2 = 5 >= Status 5
    g = pos.run("accuse", cid=ROLAND, dwtk=True)
    assert kind(g) == "hide_from_hearing"


def test_23_4_rcs_are_never_accused():
    pos = fresh()
    g = pos.run("accuse", cid="alan")
    halted(g)
    assert not g.state.chars["alan"].wrongdoer and not g.state.rng.scripted


def test_23_5_wrongdoer_ignores_other_accusations():
    pos = fresh()
    pos.char(ROLAND, banished=True, wrongdoer=True, location="epalin")
    pos.dice(6)
    g = pos.run("accuse", cid=ROLAND)
    halted(g)
    assert g.state.rng.scripted == [6]  # no die was rolled
    assert "already a wrongdoer" in logs(g)


def test_7_10_1_accusation_of_character_stuck_at_war_waits_until_the_war_ends():
    pos, g = _stuck_at_war("accuse")
    assert g.state.chars[ROLAND].pending_justice == "accuse"
    g.state.wars.remove("epalin")
    pos.dice(1)
    g = pos.run("justice_end_of_turn")
    halted(g)
    assert "resume" in logs(g) and "found innocent" in logs(g)
    assert g.state.chars[ROLAND].situation_turns == 0


# ---------------------------------------------------------------------------
# §26 Hearings, §24 hiding offer
# ---------------------------------------------------------------------------


def test_26_1_hearing_below_status_innocent_and_no_evidence_subtracts_one():
    pos = fresh()
    pos.dice(3, 2)  # 5 - 1 (no Evidence) = 4 < 5
    g = pos.run("hearing", cid=ROLAND)
    g.apply(NO)
    halted(g)
    assert not g.state.chars[ROLAND].wrongdoer


def test_26_2_evidence_alibi_informer_modify_hearing():
    pos = fresh()
    pos.give(1, "evidence", "evidence").give(2, "alibi")
    pos.dice(3, 2)  # 5 +1 +1 -3 = 4 < 5: innocent
    g = pos.run("hearing", cid=ROLAND)
    g.apply(NO)
    assert kind(g) == "card_window" and g.decision()["player"] == 1
    g.apply(ID["play_evidence"])
    g.apply(ID["play_evidence"])
    g.apply(ID["play_alibi"])
    halted(g)
    assert not g.state.chars[ROLAND].wrongdoer
    assert "Hearing of Duke Roland: rolled 5 (3+2) -1 = 4" in logs(g)


def test_26_1_pc_hearing_failed_goes_to_trial_without_interrogation():
    pos = fresh()
    me = pc(pos, 1)
    pos.dice(6, 6, 1, 1, 1)  # hearing 12-1; judge die 1; trial 2-3 = clamp 2: not guilty
    g = pos.run("hearing", cid=me)
    g.apply(NO)
    halted(g)
    assert "Interrogation" not in logs(g)
    assert "Found Not Guilty" in logs(g)
    assert not g.state.chars[me].wrongdoer


def test_26_3_rcs_never_go_to_a_hearing():
    pos = fresh()
    g = pos.run("hearing", cid="john")
    halted(g)
    assert not g.state.chars["john"].wrongdoer


def test_24_4_office_holder_hiding_from_a_hearing_is_discharged():
    pos = fresh()
    pos.office("high_minister", ROLAND)
    g = pos.run("hearing", cid=ROLAND)
    g.apply(YES)
    halted(g)
    c = g.state.chars[ROLAND]
    assert c.hiding and c.office is None


def test_24_10_character_in_hiding_sent_to_hearing_may_stay_hidden_as_wrongdoer():
    pos = fresh()
    pos.char(ROLAND, hiding=True, hid_turn=0)
    g = pos.run("hearing", cid=ROLAND)
    assert kind(g) == "hearing_hiding"
    g.apply(YES)
    halted(g)
    c = g.state.chars[ROLAND]
    assert c.hiding and c.wrongdoer


# ---------------------------------------------------------------------------
# §27 Interrogation
# ---------------------------------------------------------------------------


def test_27_interrogation_5_6_character_dies_and_no_trial():
    pos = fresh()
    g = _trial(pos, ROLAND, 3, 3)
    halted(g)
    assert "Character Dies" in logs(g) and "Trial Table" not in logs(g)
    assert not g.state.chars[ROLAND].wrongdoer  # the heir is in a normal situation


@pytest.mark.parametrize("dice,mod", [((3, 4), 1), ((4, 4), 2), ((5, 5), 0)])
def test_27_interrogation_7_and_8_add_to_the_trial_roll(dice, mod):
    pos = fresh()
    g = _trial(pos, ROLAND, *dice, 1, 3, 3)  # interrogation; judge die; trial 6 - 3 + mod
    while kind(g) == "banish_country":
        g.apply(g.decision()["options"][0])
    halted(g)
    assert f"Trial of Duke Roland: rolled 6 (3+3) {mod - 3:+d} = {3 + mod}" in logs(g)


def test_27_interrogation_2_4_fac_exposes_pc_who_is_accused():
    pos = fresh()
    pos.char(ROLAND, owner=1)
    me = pc(pos, 1)
    g = _trial(pos, ROLAND, 1, 1, 1, 1, 1, 6)  # interrogation 2; judge; trial 2-3 -> not guilty; PC accusation 6
    assert kind(g) == "hide_from_hearing" and g.decision()["ctx"]["target"] == me
    assert "FAC Exposes PC" in logs(g)


def test_27_interrogation_2_4_nc_has_no_effect():
    pos = fresh()
    g = _trial(pos, ROLAND, 1, 1, 1, 1, 1)
    halted(g)
    assert "is a NC: no effect" in logs(g)


def test_27_3_treachery_minus_one_prison_guards_plus_or_minus_two():
    pos = fresh()
    pos.give(1, "treachery", "prison_guards")
    g = _trial(pos, ROLAND, 4, 5, 1, 3, 3)  # 9 - 1 - 2 = 6: dies
    g.apply(ID["play_treachery"])
    g.apply(ID["play_prison_guards"])
    g.apply(SIGN_MINUS)
    halted(g)
    assert "Character Dies" in logs(g)


# ---------------------------------------------------------------------------
# §28 Trials, §29 Banishment, §30 Imprisonment
# ---------------------------------------------------------------------------


def _pc_trial(pos: Position, p: int, *dice: int) -> Game:
    return _trial(pos, pc(pos, p), *dice)


def test_28_6_1_not_guilty_returns_to_normal():
    pos = fresh()
    g = _pc_trial(pos, 1, 1, 3, 2)
    halted(g)
    assert not g.state.chars[pc(pos, 1)].wrongdoer


def test_28_6_2_banished_country_chosen_not_at_war_and_office_lost():
    pos = fresh()
    me = pc(pos, 1)
    pos.office("minister_of_trade", me)
    pos.state.wars.append("cronos")
    g = _pc_trial(pos, 1, 1, 4, 4)  # 8 - 3 = 5
    d = g.decision()
    assert d["kind"] == "banish_country" and d["player"] == 0  # first player (§29.1)
    assert ID["country_cronos"] not in d["options"]
    g.apply(ID["country_epalin"])
    halted(g)
    c = g.state.chars[me]
    assert c.banished and c.location == "epalin" and c.office is None and c.wrongdoer


def test_29_1_minister_of_justice_fac_chooses_banishment_country_and_judge():
    pos = fresh()
    pos.char(MORTIMER, owner=2)
    pos.office("minister_of_justice", MORTIMER)
    g = _pc_trial(pos, 1, 4, 4)
    d = g.decision()
    assert d["kind"] == "choose_judge" and d["player"] == 2
    g.apply(char_action(J2))
    d = g.decision()
    assert d["kind"] == "banish_country" and d["player"] == 2


def test_28_6_3_imprisoned_and_28_6_4_awaiting_execution_with_fac_judge():
    pos = fresh()
    pos.char(J1, owner=2)
    g = _pc_trial(pos, 1, 2, 5, 5)  # judge die 2 -> 1st Judge, FAC of player 2
    d = g.decision()
    assert d["kind"] == "declare_modifier" and d["player"] == 2
    g.apply(SIGN_PLUS)  # 10 - 3 + 5 = 12 -> clamp: executed
    halted(g)
    assert g.state.chars[pc(pos, 1)].dead
    pos = fresh()
    g = _pc_trial(pos, 1, 1, 5, 5)  # 7: imprisoned
    halted(g)
    c = g.state.chars[pc(pos, 1)]
    assert c.imprisoned and not c.awaiting_execution and c.situation_turns == 0
    pos = fresh()
    pos.give(0, "evidence", "evidence", "evidence")
    g = _pc_trial(pos, 1, 1, 5, 5)
    for _ in range(3):
        g.apply(ID["play_evidence"])
    halted(g)  # 10 + 3 = 13 -> 12: immediately executed
    assert g.state.chars[pc(pos, 1)].dead
    pos = fresh()
    pos.give(0, "evidence")
    g = _pc_trial(pos, 1, 1, 5, 5)
    g.apply(ID["play_evidence"])
    halted(g)  # 11: awaiting execution
    c = g.state.chars[pc(pos, 1)]
    assert c.imprisoned and c.awaiting_execution


def test_28_3_judge_found_guilty_is_executed_and_never_hears_own_trial():
    pos = fresh()
    g = _trial(pos, J1, 6, 6, 4, 4)  # interrogation 12 won't talk; no judge die: 2nd Judge; trial 8-3 = 5
    halted(g)
    assert "2nd Judge hears the case" in logs(g)
    assert "immediately executed" in logs(g)
    assert not g.state.chars[J1].banished


def test_28_4_alibi_and_informer_modify_trial():
    pos = fresh()
    pos.give(1, "alibi", "informer")
    g = _pc_trial(pos, 1, 1, 5, 5)
    g.apply(ID["play_alibi"])
    g.apply(ID["play_informer"])
    g.apply(SIGN_MINUS)
    assert kind(g) == "banish_country"  # 10 - 3 - 1 - 1 = 5: Banished
    assert "Trial Table 5" in logs(g)


def test_29_never_abroad_character_banished_is_imprisoned_instead():
    pos = fresh()
    g = _trial(pos, SHERIFF, 6, 6, 1, 4, 4)
    halted(g)
    c = g.state.chars[SHERIFF]
    assert c.imprisoned and not c.banished


def test_29_9_suicide_after_three_turns_dies_at_end_of_player_turns():
    pos = fresh()
    f = "33"
    pos.char(f, owner=1, banished=True, wrongdoer=True, location="epalin", situation_turns=2)
    pos.turn_state(1)
    assert not registry.FREE_ACTIONS["suicide"].legal(pos.state, 1)
    pos.state.wchar(f).situation_turns = 3
    assert registry.FREE_ACTIONS["suicide"].legal(pos.state, 1)
    g = pos.run("justice_suicide", p=1)
    halted(g)
    assert g.state.chars[f].suicide
    g = pos.run("justice_end_of_turn")
    halted(g)
    c = g.state.chars[f]
    assert c.owner is None and not c.banished and "commits suicide" in logs(g)


def test_30_10_pc_prison_death_rolled_at_start_of_player_turn_from_second_turn():
    pos = fresh()
    me = pc(pos, 1)
    pos.char(me, imprisoned=True, wrongdoer=True, situation_turns=0)
    pos.dice(6, 6)
    g = pos.run("justice_prison_deaths", p=1)
    halted(g)
    assert g.state.rng.scripted == [6, 6]  # first turn: no roll
    g.state.wchar(me).situation_turns = 1
    g = pos.run("justice_prison_deaths", p=1)
    halted(g)
    assert g.state.chars[me].dead


def test_30_10_nc_prison_death_at_end_of_turn_and_counter_increments():
    pos = fresh()
    pos.char(ROLAND, imprisoned=True, wrongdoer=True, situation_turns=1)
    pos.char(MORTIMER, imprisoned=True, wrongdoer=True, situation_turns=0)
    pos.dice(5, 6)
    g = pos.run("justice_end_of_turn")
    halted(g)
    assert not g.state.chars[ROLAND].imprisoned  # died: heir
    assert g.state.chars[MORTIMER].situation_turns == 1


def test_31_6_awaiting_execution_executed_at_end_of_next_turn_not_this_one():
    pos = fresh()
    pos.char(ROLAND, imprisoned=True, awaiting_execution=True, wrongdoer=True, situation_turns=0)
    g = pos.run("justice_end_of_turn")
    halted(g)
    assert g.state.chars[ROLAND].awaiting_execution
    g = pos.run("justice_end_of_turn")
    halted(g)
    assert not g.state.chars[ROLAND].awaiting_execution and "is executed" in logs(g)


# ---------------------------------------------------------------------------
# §22 Scandal
# ---------------------------------------------------------------------------


def test_22_scandal_row_2_goes_to_trial_row_3_to_hearing():
    g = _scandal(1, 1, 6, 6)
    halted(g)
    assert "Lawlessness" in logs(g) and "Interrogation" in logs(g)
    g = _scandal(1, 2)
    assert kind(g) == "hide_from_hearing"


def test_22_scandal_row_4_fac_owner_loses_half_pp_rounded_up_and_accused():
    pos = fresh()
    pos.char(ROLAND, owner=1)
    pos.player(1, pp=11)
    pos.dice(2, 2, 1)
    g = pos.run("scandal", cid=ROLAND)
    halted(g)
    assert g.state.players[1].pp == 5 and "Libel" in logs(g) and "found innocent" in logs(g)


def test_22_scandal_row_5_half_ip_and_nc_pays_nothing():
    pos = fresh()
    pos.player(1, ip=5)
    pos.dice(2, 3, 1)
    g = pos.run("scandal", cid=pc(pos, 1))
    halted(g)
    assert g.state.players[1].ip == 2
    g = _scandal(2, 3, 1)
    halted(g)
    assert "no points are lost" in logs(g)


def test_22_scandal_row_6_wrongdoing_rows_7_10_no_effect():
    g = _scandal(3, 3, 1)
    halted(g)
    assert "Lewdness" in logs(g) and "accused of wrongdoing" in logs(g)
    g = _scandal(4, 4)
    halted(g)
    assert "Rumors Unsubstantiated" in logs(g)


def test_22_scandal_rows_11_12_only_from_expose_a_scandal():
    g = _scandal(6, 5)
    halted(g)
    assert "treated as no effect" in logs(g)
    pos = fresh()
    pos.dice(6, 6, 6)
    g = pos.run("scandal", cid=ROLAND, exposer=2)
    d = g.decision()
    assert d["kind"] == "hide_from_hearing" and d["ctx"]["target"] == pc(pos, 2)  # natural 6
    assert "accusing PC" in logs(g)


def test_22_a40_informer_exposer_minus_one_owner_plus_one():
    pos = fresh()
    pos.char(ROLAND, owner=1)
    pos.give(2, "informer", "informer").give(1, "informer").give(0, "informer")
    pos.dice(5, 5)  # 10 - 2 + 1 = 9
    g = pos.run("scandal", cid=ROLAND, exposer=2)
    d = g.decision()
    assert d["player"] == 1  # player 0 holds an Informer but may not play it (A40)
    g.apply(ID["play_informer"])  # player 1 has no more Informers: player 2 is next
    assert g.decision()["player"] == 2
    g.apply(ID["play_informer"])
    g.apply(ID["play_informer"])
    halted(g)
    assert "Scandal Table 9" in logs(g)


def test_22_rcs_are_never_objects_of_a_scandal():
    pos = fresh()
    g = pos.run("scandal", cid="anne")
    halted(g)
    assert "cannot be the object" in logs(g)


# ---------------------------------------------------------------------------
# §13.4.9 Expose A Scandal
# ---------------------------------------------------------------------------


def test_13_4_9_expose_a_scandal_needs_the_counter_and_consumes_it():
    pos = fresh()
    pos.turn_state(1)
    act = registry.ACTIVITIES["expose_scandal"]
    assert not act.legal(pos.state, 1)
    pos.state.pt["scandal"] = 1
    assert act.legal(pos.state, 1)
    pos.dice(4, 4)
    g = pos.run("justice_expose", p=1)
    assert char_action("anne") not in g.decision()["options"]
    g.apply(char_action(ROLAND))
    halted(g)
    assert g.state.pt["scandal"] == 0 and "Rumors" in logs(g)


# ---------------------------------------------------------------------------
# §13.4.8, §21 Assassination
# ---------------------------------------------------------------------------


def _assassination(pos: Position, p: int = 1, **pt):
    pos.turn_state(p, intrigue=1, **pt)
    pos.give(p, "assassination")
    return pos


def test_13_4_8_assassination_requires_intrigue_grant_and_card():
    pos = fresh()
    pos.turn_state(1)
    act = registry.ACTIVITIES["assassinate"]
    assert not act.legal(pos.state, 1)
    pos.give(1, "assassination")
    assert not act.legal(pos.state, 1)
    pos.state.pt["intrigue"] = 1
    assert act.legal(pos.state, 1)
    pos.empty_hand(1)
    assert not act.legal(pos.state, 1)
    pos.state.pt["waiver"] = True  # A42
    assert act.legal(pos.state, 1)


def test_13_4_8_assassination_success_kills_target():
    pos = _assassination(fresh())
    pos.office("high_minister", ROLAND)
    pos.dice(5, 5)
    g = pos.run("justice_assassinate", p=1)
    assert kind(g) == "assassination_target"  # the PC is the only assassin
    g.apply(char_action(ROLAND))
    halted(g)
    c = g.state.chars[ROLAND]
    assert c.office is None and not c.dead  # heir in the pile (§31.3)
    assert g.state.pt["intrigue"] == 0
    assert "Assassination Successful." in logs(g)
    assert any(CARD_TYPE_OF[x] == "assassination" for x in g.state.discard)


@pytest.mark.parametrize("dice,what", [((1, 1), "Interrogation"), ((1, 2), "hide_from_hearing"),
                                       ((2, 2), "accused of wrongdoing"), ((3, 5), None)])
def test_21_assassination_failures_rows_2_to_8(dice, what):
    pos = _assassination(fresh())
    pos.dice(*dice, 1, 1, 1, 1, 1)
    me = pc(pos, 1)
    g = pos.run("justice_assassinate", p=1)
    g.apply(char_action(ROLAND))
    assert not g.state.chars[ROLAND].wrongdoer
    if what == "hide_from_hearing":
        assert kind(g) == what and g.decision()["ctx"]["target"] == me
        return
    halted(g)
    if what == "Interrogation":
        assert "Interrogation" not in logs(g) and "Trial of" in logs(g)  # PCs are never interrogated
    elif what:
        assert what in logs(g)
    else:
        assert "Assassination Unsuccessful." in logs(g) and not g.state.chars[me].wrongdoer


def test_21_assassination_row_9_success_and_assassin_accused():
    pos = _assassination(fresh())
    pos.dice(4, 5, 1)
    g = pos.run("justice_assassinate", p=1)
    g.apply(char_action(MORTIMER))
    halted(g)
    assert "Assassin Caught, Accused" in logs(g) and "Lord Mortimer dies" in logs(g)


def test_13_4_8_modifiers_monarch_palace_guards_treachery_informer_extra_cards():
    pos = _assassination(fresh())
    pos.give(1, "assassination").give(2, "palace_guards", "treachery", "treachery", "personal_guards")
    pos.give(0, "informer")
    pos.dice(5, 5)
    g = pos.run("justice_assassinate", p=1)
    g.apply(char_action("george"))
    assert kind(g) == "card_window" and g.decision()["player"] == 0
    g.apply(ID["play_informer"])
    g.apply(SIGN_MINUS)
    d = g.decision()
    assert d["player"] == 1 and ID["play_informer"] not in d["options"]
    g.apply(ID["play_assassination"])
    d = g.decision()
    assert d["player"] == 2 and ID["play_personal_guards"] not in d["options"]
    g.apply(ID["play_treachery"])
    assert ID["play_treachery"] not in g.decision()["options"]  # one Treachery at most
    g.apply(ID["play_palace_guards"])
    g.apply(SIGN_MINUS)
    halted(g)
    # 10 - 1 (Monarch) - 2 (Informer) + 2 (extra Assassination) - 2 (Treachery) - 2 (Palace Guards) = 5
    assert "Assassination Table 5" in logs(g) and not g.state.chars["george"].dead


def test_13_4_8_monarch_assassinated_is_succeeded_and_turn_ends():
    pos = _assassination(fresh())
    pos.dice(6, 6, 3, 3)
    st = pos.state
    st.stack.clear()
    from fandonia_env.engine.core.machine import run, seq

    seq(st, ("justice_assassinate", {"p": 1}), ("turn_main", {"p": 1}), ("end_of_turn", {}))
    run(st)
    from fandonia_env.engine.face.game import Game

    g = Game.from_state(st, advance=False)
    g.apply(char_action("george"))
    assert st.chars["george"].dead and st.monarch == "alan"
    assert not any(fr.op == "turn_main" for fr in st.stack)  # A10 iii: the turn ended


def test_13_4_8_targets_not_hiding_imprisoned_abroad_unless_same_country():
    pos = _assassination(fresh())
    me = pc(pos, 1)
    pos.char(ROLAND, hiding=True)
    pos.char(MORTIMER, imprisoned=True, wrongdoer=True)
    pos.char(DALE, location="epalin")
    g = pos.run("justice_assassinate", p=1)
    opts = g.decision()["options"]
    assert char_action(ROLAND) not in opts and char_action(MORTIMER) not in opts
    assert char_action(DALE) not in opts and char_action("thomas") not in opts and char_action(me) not in opts
    pos = _assassination(fresh())
    pos.char(pc(pos, 1), location="epalin")
    pos.char(DALE, location="epalin")
    g = pos.run("justice_assassinate", p=1)
    assert char_action(DALE) in g.decision()["options"]


def test_17_6_henchman_abroad_only_assassinates_in_his_country():
    pos = _assassination(fresh())
    pos.give(1, "henchman")
    card = pos.state.players[1].hand.pop()
    pos.char("33", owner=1, henchman_card=card, location="epalin")
    pos.char(DALE, location="epalin")
    g = pos.run("justice_assassinate", p=1)
    assert kind(g) == "assassin"
    g.apply(char_action("33"))
    opts = g.decision()["options"]
    assert char_action(DALE) in opts and char_action(ROLAND) not in opts
    assert all(g.state.chars[a[len("char_"):]].location == "epalin"
               for a in (g.action_name(o) for o in opts))


def test_14_5_7_intrigue_cards_stand_for_counter_and_assassination_card():
    pos = fresh()
    pos.turn_state(1)
    pos.give(1, "intrigue", "intrigue")
    assert registry.ACTIVITIES["assassinate"].legal(pos.state, 1)
    pos.dice(3, 4)
    g = pos.run("justice_assassinate", p=1)
    g.apply(char_action(ROLAND))
    halted(g)
    assert sum(CARD_TYPE_OF[c] == "intrigue" for c in g.state.discard) == 2
    pos = fresh()
    pos.turn_state(1, intrigue=1)
    pos.give(1, "intrigue", "assassination")
    pos.dice(3, 4)
    g = pos.run("justice_assassinate", p=1)
    g.apply(char_action(ROLAND))
    assert kind(g) == "intrigue_grant"
    g.apply(YES)
    assert kind(g) == "assassination_card"
    g.apply(ID["play_intrigue_as_assassination"])
    assert kind(g) == "card_window"  # the Assassination card may still be played for +2


# ---------------------------------------------------------------------------
# §13.4.5 Pardon, §13.4.6 Amnesty
# ---------------------------------------------------------------------------


def test_13_4_5_pardon_returns_one_character_to_normal():
    pos = fresh()
    pos.turn_state(1)
    act = registry.ACTIVITIES["pardon"]
    pos.char(ROLAND, banished=True, wrongdoer=True, location="epalin", situation_turns=2)
    assert not act.legal(pos.state, 1)
    pos.give(1, "pardon")
    assert act.legal(pos.state, 1)
    g = pos.run("justice_pardon", p=1)
    halted(g)
    c = g.state.chars[ROLAND]
    assert not (c.banished or c.wrongdoer) and c.location == "fandonia" and c.situation_turns == 0


def test_13_4_6_amnesty_frees_all_wrongdoers_and_24_9_hiding_wrongdoers():
    pos = fresh()
    pos.turn_state(1)
    pos.give(1, "amnesty")
    pos.char(ROLAND, imprisoned=True, awaiting_execution=True, wrongdoer=True)
    pos.char(MORTIMER, hiding=True, wrongdoer=True)
    pos.char(DALE, hiding=True)
    assert registry.ACTIVITIES["amnesty"].legal(pos.state, 1)
    g = pos.run("justice_amnesty", p=1)
    halted(g)
    ch = g.state.chars
    assert not ch[ROLAND].imprisoned and not ch[ROLAND].awaiting_execution
    assert not ch[MORTIMER].hiding and not ch[MORTIMER].wrongdoer
    assert ch[DALE].hiding  # not a wrongdoer: stays in hiding
    assert not any(CARD_TYPE_OF[c] == "amnesty" for c in g.state.players[1].hand)


# ---------------------------------------------------------------------------
# §13.4.10 Escape, §13.4.11 / §25 Extradition
# ---------------------------------------------------------------------------


def test_13_4_10_escape_from_prison_abroad_in_hiding_and_wrongdoer():
    pos = fresh()
    pos.turn_state(1)
    pos.char(ROLAND, imprisoned=True, wrongdoer=True)
    assert not registry.ACTIVITIES["escape"].legal(pos.state, 1)
    pos.give(1, "prison_guards")
    assert registry.ACTIVITIES["escape"].legal(pos.state, 1)
    g = pos.run("justice_escape", p=1)
    assert kind(g) == "escape_country"
    g.apply(ID["country_cronos"])
    halted(g)
    c = g.state.chars[ROLAND]
    assert c.hiding and c.location == "cronos" and not c.imprisoned and c.escaped


def test_13_4_10_prison_guards_negate_an_escape_from_prison():
    pos = fresh()
    pos.turn_state(1)
    pos.char(ROLAND, imprisoned=True, wrongdoer=True)
    pos.give(1, "escape").give(2, "prison_guards", "port_guards")
    g = pos.run("justice_escape", p=1)
    g.apply(ID["country_cronos"])
    d = g.decision()
    assert d["player"] == 2 and ID["play_port_guards"] not in d["options"]
    g.apply(ID["play_prison_guards"])
    halted(g)
    assert g.state.chars[ROLAND].imprisoned


def test_13_4_10_port_guards_escape_from_hiding_in_fandonia():
    pos = fresh()
    pos.turn_state(1)
    pos.char(ROLAND, hiding=True)
    pos.give(1, "port_guards")
    g = pos.run("justice_escape", p=1)
    g.apply(ID["country_epalin"])
    halted(g)
    c = g.state.chars[ROLAND]
    assert c.hiding and c.location == "epalin" and not c.wrongdoer


def test_13_4_11_extradition_returns_hiding_wrongdoer_to_trial():
    pos = fresh()
    pos.turn_state(1)
    pos.give(1, "extradition")
    me = pc(pos, 2)
    pos.char(me, hiding=True, wrongdoer=True, location="besyzan")
    assert registry.ACTIVITIES["extradite"].legal(pos.state, 1)
    pos.state.wars.append("besyzan")
    assert not registry.ACTIVITIES["extradite"].legal(pos.state, 1)  # §25 at war
    pos.state.wars.clear()
    pos.dice(1, 5, 5)
    g = pos.run("justice_extradite", p=1)
    halted(g)  # no hiding decision (§24.2, §25)
    c = g.state.chars[me]
    assert c.imprisoned and c.location == "fandonia" and not c.hiding


def test_30_6_extradited_escaped_prisoner_is_imprisoned_again_31_6_awaiting_executed():
    pos = fresh()
    pos.char(ROLAND, hiding=True, wrongdoer=True, location="cronos", escaped=True)
    g = pos.run("to_trial", cid=ROLAND, extradited=True)
    halted(g)
    assert g.state.chars[ROLAND].imprisoned and "Trial" not in logs(g)
    pos = fresh()
    pos.char(ROLAND, hiding=True, wrongdoer=True, awaiting_execution=True, location="cronos")
    g = pos.run("to_trial", cid=ROLAND, extradited=True)
    halted(g)
    assert not g.state.chars[ROLAND].awaiting_execution and "executed at once" in logs(g)


# ---------------------------------------------------------------------------
# §24 Hiding free actions
# ---------------------------------------------------------------------------


def test_24_2_hide_and_not_come_out_the_same_turn_24_3_pc_restricted():
    pos = fresh()
    pos.turn_state(1)
    me = pc(pos, 1)
    hide, unhide = registry.FREE_ACTIONS["hide"], registry.FREE_ACTIONS["unhide"]
    assert hide.legal(pos.state, 1) and not unhide.legal(pos.state, 1)
    g = pos.run("justice_hide", p=1)
    halted(g)
    assert g.state.chars[me].hiding and g.state.pt["restricted"]
    assert not unhide.legal(g.state, 1)
    g.state.turn += 1
    assert unhide.legal(g.state, 1)


def test_24_4_office_holder_may_not_hide_freely():
    pos = fresh()
    pos.turn_state(1)
    me = pc(pos, 1)
    pos.office("minister_of_trade", me)
    assert not registry.FREE_ACTIONS["hide"].legal(pos.state, 1)


def test_24_8_wrongdoer_coming_out_of_hiding_abroad_returns_to_a_hearing():
    pos = fresh()
    pos.turn_state(1)
    pos.char(ROLAND, owner=1, hiding=True, wrongdoer=True, location="epalin", hid_turn=0)
    pos.dice(1, 1)
    g = pos.run("justice_unhide", p=1)  # Roland is the only choice; no hiding offer (§24.2)
    halted(g)
    c = g.state.chars[ROLAND]
    assert not c.hiding and c.location == "fandonia" and not c.wrongdoer and "Hearing of" in logs(g)


def test_24_8_banished_character_coming_out_of_hiding_stays_banished():
    pos = fresh()
    pos.turn_state(1)
    pos.char(ROLAND, owner=1, hiding=True, banished=True, wrongdoer=True, location="epalin", hid_turn=0)
    g = pos.run("justice_unhide", p=1)
    halted(g)
    c = g.state.chars[ROLAND]
    assert c.banished and c.location == "epalin" and not c.hiding


def test_24_10_hiding_char_sent_to_trial_by_table_stays_hidden():
    pos = fresh()
    pos.char(ROLAND, hiding=True)
    g = pos.run("to_trial", cid=ROLAND)
    halted(g)
    assert g.state.chars[ROLAND].wrongdoer and g.state.chars[ROLAND].hiding


def test_7_10_1_hearing_of_character_stuck_at_war_is_suspended():
    _, g = _stuck_at_war("hearing")
    assert g.state.chars[ROLAND].pending_justice == "hearing" and g.state.chars[ROLAND].wrongdoer


# ---------------------------------------------------------------------------
# §31 Death
# ---------------------------------------------------------------------------


def test_31_2_rc_death_removes_card_and_royal_alignment_card():
    pos = fresh()
    pos.give(2, "ra_john")
    g = pos.run("kill", cid="john", cause="test")
    halted(g)
    assert g.state.chars["john"].dead
    assert any(CARD_TYPE_OF[c] == "ra_john" for c in g.state.removed)
    assert not any(CARD_TYPE_OF[c] == "ra_john" for c in g.state.players[2].hand)


def test_31_2_thomas_only_dies_in_usurpation_and_returns_as_nrc():
    pos = fresh()
    g = pos.run("kill", cid="thomas", cause="assassinated")
    halted(g)
    assert not g.state.chars["thomas"].dead
    g = pos.run("kill", cid="thomas", cause="usurpation")
    halted(g)
    assert not g.state.chars["thomas"].dead and g.state.chars["thomas"].owner is None


def test_31_4_fac_death_heir_neutral_cards_discarded_counter_returned_spouse_widowed():
    pos = fresh()
    pos.give(1, "henchman")
    card = pos.state.players[1].hand.pop()
    pos.char(ROLAND, owner=1, henchman_card=card, titles=0, office=None)
    wife = lady(pos)
    pos.char(wife, owner=1, spouse=ROLAND)
    pos.state.wchar(ROLAND).spouse = wife
    pos.office("minister_of_state", ROLAND)
    pos.player(1, pp=40)  # within his PP limit (R17 would have him give up characters at once)
    g = pos.run("kill", cid=ROLAND, cause="duel")
    halted(g)
    c = g.state.chars[ROLAND]
    assert c.owner is None and not c.loyalty_counter and ROLAND in g.state.loyalty_pool
    assert c.henchman_card is None and card in g.state.discard and c.office is None and c.spouse is None
    assert g.state.chars[wife].spouse is None


def test_31_7_widow_of_rc_gets_status_eight():
    pos = fresh()
    pos.char(ROLAND, owner=1)
    wife = lady(pos)
    pos.char(wife, owner=1, spouse="alfred")
    pos.state.wchar("alfred").spouse = wife
    pos.player(1, pp=40)  # within his PP limit with the widow's Status 8 (§31.7, R17)
    g = pos.run("kill", cid="alfred", cause="test")
    halted(g)
    assert g.state.chars[wife].fixed_status == 8 and g.state.chars[wife].spouse is None


def test_31_5_pc_death_halves_points_discards_five_face_down_and_returns_on_second_turn():
    pos = fresh()
    me = pc(pos, 1)
    pos.player(1, pp=9, ip=5, prestige_mods={"literary": 2}, ball_mod=1)
    pos.give(1, "alibi", "alibi", "evidence", "evidence", "informer", "escape")
    pos.char(me, titles=1, banned=True)
    g = pos.run("kill", cid=me, cause="duel")
    d = g.decision()
    assert d["kind"] == "death_discard" and ID["discard_dwtk"] not in d["options"]
    for _ in range(5):
        g.apply(g.decision()["options"][0])
    halted(g)
    pl = g.state.players[1]
    assert (pl.pp, pl.ip) == (5, 3) and pl.prestige_mods == {} and pl.ball_mod == 0
    assert len(pl.hand) == 2  # one card and the DOWN WITH THE KING card (§14.2.8)
    c = g.state.chars[me]
    assert c.dead and c.titles == 0 and not c.banned and pl.pc_dead_turn == 1
    g = pos.run("justice_end_of_turn")  # end of turn 1: still face-down
    halted(g)
    assert g.state.chars[me].dead
    g.state.turn = 2
    g = pos.run("justice_end_of_turn")  # end of turn 2: up for turn 3
    halted(g)
    assert not g.state.chars[me].dead


def test_31_5_dead_pc_gets_no_player_turn():
    pos = fresh()
    me = pc(pos, 1)
    g = pos.run("kill", cid=me, cause="test")
    halted(g)
    g = pos.run("player_turn", p=1)
    halted(g)
    assert "face-down: no Player Turn" in logs(g)


def test_31_3_nc_office_holder_death_vacates_office():
    pos = fresh()
    pos.office("minister_of_navy", MORTIMER)
    g = pos.run("kill", cid=MORTIMER, cause="plague")
    halted(g)
    assert g.state.chars[MORTIMER].office is None
    assert not any(c.office == "minister_of_navy" for c in g.state.chars.values())


# ---------------------------------------------------------------------------
# Audit additions
# ---------------------------------------------------------------------------


def test_7_10_1_resumed_hearing_lets_a_hidden_character_stay_hidden_24_10():
    pos, g = _stuck_at_war("hearing", hiding=True, hid_turn=0)
    assert g.state.chars[ROLAND].pending_justice == "hearing"
    g.state.wars.remove("epalin")
    g = pos.run("justice_end_of_turn")
    assert kind(g) == "hearing_hiding"  # he does not have to go (§24.10)
    g.apply(YES)
    halted(g)
    c = g.state.chars[ROLAND]
    assert c.hiding and c.wrongdoer and c.situation_turns == 0 and "Hearing of" not in logs(g)


def test_7_10_1_resumed_hearing_offers_hiding_as_when_sent_24_2():
    pos, g = _stuck_at_war("hearing")
    g.state.wars.remove("epalin")
    pos.dice(1, 1)
    g = pos.run("justice_end_of_turn")
    assert kind(g) == "hide_from_hearing"
    g.apply(NO)
    halted(g)
    assert not g.state.chars[ROLAND].wrongdoer and "Hearing of Duke Roland" in logs(g)


def test_7_10_1_resumed_trial_is_not_attended_by_a_character_in_hiding():
    pos = fresh()
    pos.char(ROLAND, location="epalin", hiding=True, wrongdoer=True, pending_justice="trial")
    pos.dice(6, 6, 6, 6, 6)
    g = pos.run("justice_end_of_turn")
    halted(g)
    c = g.state.chars[ROLAND]
    assert c.hiding and c.wrongdoer and not c.imprisoned and "Trial" not in logs(g)
    assert c.situation_turns == 0


def test_24_1_hiding_from_a_hearing_abroad_hides_in_that_country():
    pos = fresh()
    pos.char(ROLAND, location="cronos")
    g = pos.run("hearing", cid=ROLAND)
    g.apply(YES)
    halted(g)
    c = g.state.chars[ROLAND]
    assert c.hiding and c.location == "cronos" and "goes into hiding in Cronos" in logs(g)


def test_24_5_rcs_never_hide_30_6_prisoners_never_hide():
    pos = fresh()
    pos.turn_state(1)
    pos.char("john", owner=1)
    pos.char(ROLAND, owner=1, imprisoned=True, wrongdoer=True)
    pos.player(1, pp=40)  # within his PP limit (R17)
    g = pos.run("justice_hide", p=1)
    halted(g)  # the PC was the only choice
    ch = g.state.chars
    assert ch[pc(pos, 1)].hiding and not ch["john"].hiding and not ch[ROLAND].hiding


def test_29_5_banished_character_may_hide_29_6_and_is_assassinated_only_there():
    pos = fresh()
    pos.turn_state(1)
    pos.char(ROLAND, owner=1, banished=True, wrongdoer=True, location="epalin")
    g = pos.run("justice_hide", p=1)
    assert char_action(ROLAND) in g.decision()["options"]
    pos = _assassination(fresh(), p=2)
    pos.char(ROLAND, banished=True, wrongdoer=True, location="epalin")
    g = pos.run("justice_assassinate", p=2)
    assert char_action(ROLAND) not in g.decision()["options"]
    pos = _assassination(fresh(), p=2)
    pos.char(ROLAND, banished=True, wrongdoer=True, location="epalin")
    pos.char(pc(pos, 2), location="epalin")
    g = pos.run("justice_assassinate", p=2)
    assert char_action(ROLAND) in g.decision()["options"]


@pytest.mark.parametrize("die,judge", [(3, "1st Judge"), (4, "2nd Judge")])
def test_28_2_the_first_players_die_picks_the_judge_by_trial_number(die, judge):
    pos = fresh()
    g = _pc_trial(pos, 1, die, 1, 1)
    halted(g)
    assert f"{judge} hears the case" in logs(g) and f"rolls {die} for the Judge" in logs(g)


def test_30_6_escaped_prisoner_coming_out_of_hiding_is_imprisoned_again():
    pos = fresh()
    pos.turn_state(1)
    pos.char(ROLAND, owner=1, hiding=True, wrongdoer=True, location="cronos", escaped=True,
             hid_turn=0)
    g = pos.run("justice_unhide", p=1)
    halted(g)
    c = g.state.chars[ROLAND]
    assert c.imprisoned and c.location == "fandonia" and not c.hiding and "Hearing" not in logs(g)


def test_31_6_escaped_awaiting_execution_coming_back_is_executed():
    pos = fresh()
    pos.turn_state(1)
    pos.char(ROLAND, owner=1, imprisoned=True, awaiting_execution=True, wrongdoer=True)
    pos.give(1, "escape")
    g = pos.run("justice_escape", p=1)
    g.apply(ID["country_cronos"])
    halted(g)
    c = g.state.chars[ROLAND]
    assert c.hiding and c.awaiting_execution and not c.imprisoned
    g = pos.run("justice_end_of_turn")  # escaped: not executed
    halted(g)
    assert g.state.chars[ROLAND].awaiting_execution and g.state.chars[ROLAND].owner == 1
    g.state.turn += 1
    g = pos.run("justice_unhide", p=1)
    halted(g)
    c = g.state.chars[ROLAND]
    assert "executed at once" in logs(g) and c.owner is None and not c.awaiting_execution


def test_24_8_first_player_may_bring_a_nc_out_of_hiding_r9():
    from fandonia_env.engine.core import registry

    pos = fresh()
    st = pos.state
    pos.char(ROLAND, owner=None, hiding=True, wrongdoer=True, location="fandonia", hid_turn=0)
    pos.turn_state(1 if st.first_player != 1 else 2)
    other = st.pt["player"]
    assert not registry.FREE_ACTIONS["unhide"].legal(st, other)  # not his NC to move
    pos.turn_state(st.first_player)
    assert registry.FREE_ACTIONS["unhide"].legal(st, st.first_player)
    pos.dice(1, 1)
    g = pos.run("justice_unhide", p=st.first_player)
    halted(g)
    assert not g.state.chars[ROLAND].hiding and "Hearing of" in logs(g)
