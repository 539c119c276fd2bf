"""§18 Romance & Marriage and §19 Dueling (fandonia_env/engine/chapters/romance.py)."""

from __future__ import annotations

import pytest
from helpers import home_position, logs

from fandonia_env.engine import Game
from fandonia_env.engine.chapters.romance import _legal_propose, _legal_wedding, wedding_pairs
from fandonia_env.engine.core.actions import ID, NO, PASS, SIGN_MINUS, YES, char_action
from fandonia_env.engine.data.components import CARD_TYPE_OF
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.face.invariants import check
from fandonia_env.engine.rules.queries import henchmen, status

# ---------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------


@pytest.fixture
def rec(stub_ops):
    """Record the cross-chapter operations this chapter schedules."""

    def kill(state, kw):
        state.chars[kw["cid"]].dead = True

    return stub_ops("kill", "accuse", "socializing_roll", effects={"kill": kill})


# ---------------------------------------------------------------------------
# §18.4 Proposals
# ---------------------------------------------------------------------------


def test_18_4_propose_is_a_free_action_offered_in_turn_main():
    pos = home_position()
    pos.char("56", owner=0)
    pos.turn_state(0)
    g = pos.run("turn_main", p=0)
    assert ID["free_propose"] in g.decision()["options"]


def propose(roll: int, romance: int = 0) -> Game:
    """Player 0's PC (11) proposes to his FAC 56, the die scripted (a Prestige modifier ``romance``)."""
    pos = home_position()
    pos.char("56", owner=0)
    if romance:
        pos.player(0, prestige_mods={"romance": romance})
    pos.turn_state(0)
    pos.dice(roll)
    return pos.run("propose_start", p=0)


def test_18_4_proposal_accepted_on_3_to_6():
    g = propose(3)
    st = g.state
    assert st.chars["11"].engaged_to == "56" and st.chars["56"].engaged_to == "11"
    assert st.chars["11"].proposal_turn == st.turn == st.chars["56"].proposal_turn
    assert "accepts" in logs(g)


def test_18_4_proposal_refused_on_2():
    g = propose(2)
    assert g.state.chars["11"].engaged_to is None and g.state.chars["56"].owner == 0


def test_18_4_proposal_roll_1_proposee_becomes_nc():
    g = propose(1)
    c = g.state.chars["56"]
    assert c.owner is None and c.engaged_to is None and not c.loyalty_counter
    check(g.state, decision=False)


def test_18_4_a5_romance_modifier_applies_and_is_clamped():
    g = propose(3, romance=-2)  # 3 - 2 = 1: refused, defects
    assert g.state.chars["56"].owner is None
    g = propose(1, romance=2)  # 1 + 2 = 3: accepted
    assert g.state.chars["56"].engaged_to == "11"


def test_18_4_1_pc_proposes_but_is_never_proposed_to():
    pos = home_position()
    pos.char("56", owner=0).char("42", owner=0)
    pos.turn_state(0)
    pos.dice(3)
    g = pos.run("propose_start", p=0)
    d = g.decision()
    assert d["kind"] == "propose_proposer"
    assert set(d["options"]) == {char_action("11"), char_action("42"), char_action("56")}
    g.apply(char_action("56"))
    # Lady Margaret may propose to Duke Roland only, never to the PC: taken at once
    assert g.state.pt["proposals"] == [["56", "42"]]
    assert g.state.chars["42"].engaged_to == "56"


def test_18_4_1_pc_may_not_propose_to_an_rc():
    pos = home_position()
    pos.char("anne", owner=0)
    pos.player(0, ip=10)
    pos.turn_state(0)
    assert not _legal_propose(pos.state, 0)


def test_18_1_archbishop_thomas_jane_and_george_never_marry():
    pos = home_position()
    pos.char("55", owner=0).char("56", owner=0).char("jane", owner=0)
    pos.state.wchar("11").dead = True  # the PC out of the way
    pos.turn_state(0)
    assert not _legal_propose(pos.state, 0)  # Archbishop and Lady Margaret
    pos.char("catherine", spouse=None).char("george", spouse=None, owner=1)
    pos.char("thomas", owner=1).char("61", owner=1, titles=1)  # Status 4
    pos.player(1, ip=10)
    pos.state.wchar("12").dead = True
    pos.turn_state(1)
    assert not _legal_propose(pos.state, 1)  # George may not remarry; Thomas never marries
    pos.char("alan", owner=1)
    assert _legal_propose(pos.state, 1)


def test_18_2_two_males_may_not_marry():
    pos = home_position()
    pos.char("42", owner=0).char("43", owner=0)
    pos.turn_state(0)
    assert not _legal_propose(pos.state, 0)


def test_18_4_2_both_in_the_same_country():
    pos = home_position()
    pos.char("56", owner=0, location="epalin")
    pos.turn_state(0)
    assert not _legal_propose(pos.state, 0)
    pos.char("11", location="epalin")
    assert _legal_propose(pos.state, 0)


def test_18_4_3_once_per_turn_and_not_both_roles():
    pos = home_position()
    pos.char("56", owner=0).char("61", owner=0).char("42", owner=0)
    pos.turn_state(0)
    pos.dice(2)  # refused
    g = pos.run("propose_start", p=0)
    g.apply(char_action("11"))
    g.apply(char_action("56"))
    st = g.state
    from fandonia_env.engine.chapters.romance import _pairs

    pairs = _pairs(st, 0)
    assert all("11" not in x and "56" not in x for x in pairs)  # both used this turn
    assert ("42", "61") in pairs
    st.turn += 1
    assert ("11", "56") in _pairs(st, 0)


def test_18_4_4_farc_needs_status_4_and_five_ip_lost_even_if_refused():
    pos = home_position()
    pos.char("32", owner=0).char("anne", owner=0)  # Earl Maxwell, Status 3
    pos.player(0, ip=5)
    pos.turn_state(0)
    assert not _legal_propose(pos.state, 0)
    pos.char("42", owner=0)  # Duke Roland, Status 5
    pos.player(0, ip=4)
    assert not _legal_propose(pos.state, 0)
    pos.player(0, ip=5)
    assert _legal_propose(pos.state, 0)
    pos.dice(1)  # 1 +1 (Princess Anne) = 2: refused
    g = pos.run("propose_start", p=0)
    st = g.state
    assert st.players[0].ip == 0 and st.chars["anne"].owner == 0 and st.chars["anne"].engaged_to is None
    assert "+1 proposing to Princess Anne" in logs(g)


def test_18_4_4_anne_plus_one_makes_a_2_accepted():
    pos = home_position()
    pos.char("42", owner=0).char("anne", owner=0)
    pos.player(0, ip=5)
    pos.turn_state(0)
    pos.dice(2)
    g = pos.run("propose_start", p=0)
    assert g.state.chars["anne"].engaged_to == "42"


def test_18_4_5_auto_proposal_accepted_and_ignores_18_4_3():
    pos = home_position()
    pos.char("56", owner=0)
    pos.turn_state(0)
    pos.state.wchar("11").proposal_turn = pos.state.turn  # already proposed this turn
    assert not _legal_propose(pos.state, 0)
    g = pos.run("auto_proposal", p=0)
    assert g.state.pt["auto_proposal"] == 1
    g = pos.run("propose_start", p=0)  # no die is rolled
    assert g.state.chars["11"].engaged_to == "56" and g.state.pt["auto_proposal"] == 0


def test_18_4_5_auto_proposal_is_a_choice_when_a_normal_one_is_possible():
    pos = home_position()
    pos.char("56", owner=0)
    pos.turn_state(0, auto_proposal=1)
    pos.dice(2)
    g = pos.run("propose_start", p=0)
    assert g.decision()["kind"] == "propose_use_auto"
    g.apply(NO)
    assert g.state.chars["11"].engaged_to is None and g.state.pt["auto_proposal"] == 1


def test_18_4_5_guest_grant_outside_own_turn_kept_for_the_game_turn():
    pos = home_position()
    pos.turn_state(0)
    g = pos.run("auto_proposal", p=1)
    assert g.state.tstate["auto_proposal"] == {"1": 1}


def test_18_4_6_break_engagement_and_sweep_after_death():
    pos = home_position()
    pos.char("56", owner=0, engaged_to="11").char("11", engaged_to="56")
    g = pos.run("break_engagement", cid="56")
    assert g.state.chars["11"].engaged_to is None and g.state.chars["56"].engaged_to is None
    pos = home_position()
    pos.char("56", owner=0, engaged_to="42").char("42", owner=0, engaged_to="56", dead=True)
    g = pos.run("romance_sweep")
    assert g.state.chars["56"].engaged_to is None


# ---------------------------------------------------------------------------
# §13.4.16 / §18.3 Weddings
# ---------------------------------------------------------------------------


def engaged(pos: Position, a: str, b: str, p: int = 0) -> None:
    pos.char(a, engaged_to=b).char(b, engaged_to=a)
    for x in (a, b):
        if pos.state.chars[x].owner is None:
            pos.char(x, owner=p)


def wed(pos: Position, a: str, b: str, pp: int | None = None) -> Game:
    """``a`` and ``b``, engaged to each other, wed in player 0's turn (with ``pp`` PP); no guest attends."""
    engaged(pos, a, b)
    if pp is not None:
        pos.player(0, pp=pp)
    pos.turn_state(0)
    g = pos.run("wedding_start", p=0)
    while g.decision()["kind"] == "wedding_attend":
        g.apply(NO)
    return g


def test_18_3_wedding_needs_an_accepted_proposal_in_fandonia_free():
    pos = home_position()
    pos.char("56", owner=0)
    pos.turn_state(0)
    assert not _legal_wedding(pos.state, 0)
    engaged(pos, "11", "56")
    assert _legal_wedding(pos.state, 0)
    pos.char("56", location="epalin")
    assert not _legal_wedding(pos.state, 0)
    pos.char("56", location="fandonia", imprisoned=True)
    assert not _legal_wedding(pos.state, 0)
    pos.char("56", imprisoned=False, hiding=True)
    assert not _legal_wedding(pos.state, 0)


def test_18_3_wedding_needs_pp_when_a_status_rises():
    pos = home_position()
    engaged(pos, "42", "56")  # Duke Roland 5, Lady Margaret 3 -> both 5
    pos.turn_state(0)
    pos.player(0, pp=9)
    assert not _legal_wedding(pos.state, 0)
    pos.player(0, pp=10)
    assert _legal_wedding(pos.state, 0)


def test_18_9_wedding_marries_both_and_status_is_the_higher(rec):
    pos = home_position()
    g = wed(pos, "42", "56", pp=10)
    st = g.state
    assert st.chars["42"].spouse == "56" and st.chars["56"].spouse == "42"
    assert st.chars["42"].engaged_to is None and st.chars["56"].engaged_to is None
    assert status(st, "56") == 5
    check(st, decision=False)


def test_18_8_pcs_spouse_is_a_henchman(rec):
    pos = home_position()
    g = wed(pos, "11", "56")
    assert "56" in henchmen(g.state, 0)


def test_18_10_fac_marrying_a_farc_gets_status_8(rec):
    pos = home_position()
    g = wed(pos, "42", "anne", pp=30)
    c = g.state.chars["42"]
    assert c.spouse == "anne" and c.fixed_status is None
    assert status(g.state, "42") == 8  # §18.10, A19: 8 while married to a FARC
    g.state.wchar("anne").owner = None  # Anne becomes an NRC: §18.9, the higher Status (A19)
    assert status(g.state, "42") == 10


def test_13_4_16_wedding_guests_roll_socializing(rec):
    pos = home_position()
    engaged(pos, "11", "56")
    pos.turn_state(0)
    pos.char("13", imprisoned=True)  # player 2's PC cannot attend
    g = pos.run("wedding_start", p=0)
    d = g.decision()
    assert (d["player"], d["kind"]) == (1, "wedding_attend")
    g.apply(YES)
    assert g.decision()["kind"] == "halt"
    assert rec == [("socializing_roll", {"p": 1, "guest": True})]


def test_13_4_16_several_engaged_pairs_choose_one():
    pos = home_position()
    engaged(pos, "11", "56")
    engaged(pos, "42", "61")
    pos.player(0, pp=20)
    assert sorted(wedding_pairs(pos.state, 0)) == [("11", "56"), ("42", "61")]


# ---------------------------------------------------------------------------
# §19 Dueling
# ---------------------------------------------------------------------------


def test_19_3_player_with_no_henchman_uses_his_pc(rec):
    pos = home_position()
    pos.dice(4, 2, 1, 4)  # opponent 42; Sir Drew rolls 1 (not < 1); Roland 4 < 5
    g = pos.run("duel", player=0, cid=None, source="counter")
    assert rec == [("kill", {"cid": "11", "cause": "duel"})]
    assert "Duke Roland is Sir Drew's opponent" in logs(g)


def test_19_3_player_may_designate_a_henchman(rec):
    pos = home_position()
    pos.henchman("24", 0)
    pos.dice(4, 2, 1, 6, 2)  # 42; Sir Charles 1 < 6 kills; Roland 6; §19.10 roll 2
    g = pos.run("duel", player=0, cid=None, source="counter")
    d = g.decision()
    assert d["kind"] == "duel_fighter" and set(d["options"]) == {char_action("11"), char_action("24")}
    g.apply(char_action("24"))
    assert rec == [("kill", {"cid": "42", "cause": "duel"})]


def test_19_3_female_pc_without_henchman_no_duel():
    pos = home_position(pcs=("56", "12", "13"))
    pos.dice(4, 2)
    g = pos.run("duel", player=0, cid=None, source="counter")
    assert "No duel is fought" in logs(g)
    assert g.state.rng.scripted == [4, 2]  # nothing rolled


def test_19_4_pc_may_pay_three_ip_to_avoid(rec):
    pos = home_position()
    pos.player(0, ip=3)
    g = pos.run("duel", player=None, cid="11", source="prestige")
    d = g.decision()
    assert set(d["options"]) == {char_action("11"), PASS}
    g.apply(PASS)
    assert g.state.players[0].ip == 0 and rec == []


def test_19_4_fac_owner_may_substitute_a_henchman(rec):
    pos = home_position()
    pos.char("42", owner=0)
    pos.henchman("24", 0)
    pos.dice(3, 6, 1, 6, 6)  # Lord Arthur; Sir Charles 1 kills; Arthur 6; §19.10 roll 6
    g = pos.run("duel", player=None, cid="42", source="prestige")
    d = g.decision()
    assert set(d["options"]) == {char_action("42"), char_action("24")}  # a FAC: no Three IP
    g.apply(char_action("24"))
    assert rec == [("kill", {"cid": "36", "cause": "duel"})]


def test_19_5_nc_must_fight(rec):
    pos = home_position()
    pos.dice(3, 6, 6, 1)  # 42 vs Lord Arthur (2): Roland 6 no; Arthur 1 < 2 kills Roland
    g = pos.run("duel", player=None, cid="42", source="court_ball")
    assert g.decision()["kind"] == "halt"
    assert rec == [("kill", {"cid": "42", "cause": "duel"})]  # an NC killer: no §19.10 roll


def test_19_6_rcs_never_fight():
    pos = home_position()
    g = pos.run("duel", player=None, cid="alan", source="prestige")
    assert "RCs never fight duels" in logs(g)


def test_19_7_1_reroll_45_51_55_and_neutral_ladies():
    pos = home_position()
    pos.dice(4, 5, 5, 1, 5, 5, 5, 6, 4, 2, 6, 6)
    g = pos.run("duel", player=0, cid=None, source="counter")
    text = logs(g)
    assert text.count("45-51 and 55 are rolled again") == 3
    assert "a neutral lady: roll again" in text
    assert "Duke Roland is Sir Drew's opponent" in text


def test_19_7_1_a38_female_fac_opponent_owner_designates_henchman():
    pos = home_position()
    pos.char("61", owner=1)
    pos.henchman("25", 1)
    pos.dice(6, 1, 6, 6)
    g = pos.run("duel", player=0, cid=None, source="counter")
    assert "Knight Dale fights the duel in place of Lady Victoria" in logs(g)
    pos = home_position()
    pos.char("61", owner=1)
    pos.dice(6, 1)
    g = pos.run("duel", player=0, cid=None, source="counter")
    assert "No duel is fought" in logs(g)


def test_19_7_2_reroll_banished_hiding_imprisoned_abroad():
    pos = home_position()
    pos.char("42", banished=True, location="epalin").char("43", hiding=True)
    pos.char("44", imprisoned=True).char("41", location="cronos")
    pos.dice(4, 2, 4, 3, 4, 4, 4, 1, 3, 6, 6, 6)
    g = pos.run("duel", player=0, cid=None, source="counter")
    text = logs(g)
    assert text.count("banished, in hiding or imprisoned: roll again") == 3
    assert "abroad: roll again" in text and "Lord Arthur is Sir Drew's opponent" in text


def test_19_7_3_court_ball_opponent_must_attend():
    pos = home_position()
    pos.dice(4, 2, 3, 6, 6, 6)
    g = pos.run("duel", player=0, cid=None, source="court_ball", attendees=["11", "12", "36"])
    text = logs(g)
    assert "not attending the Court Ball" in text and "Lord Arthur is Sir Drew's opponent" in text


def test_19_7_4_abroad_opponent_same_country_no_ambassador():
    pos = home_position()
    pos.char("11", location="epalin").char("42", location="epalin")
    pos.char("43", location="epalin", office="amb_epalin")
    pos.dice(3, 6, 4, 3, 4, 2, 6, 6)
    g = pos.run("duel", player=0, cid=None, source="counter")
    text = logs(g)
    assert "not abroad in the duellist's country" in text
    assert "an ambassador cannot be an opponent" in text
    assert "Duke Roland is Sir Drew's opponent" in text


def test_19_7_4_abroad_no_opponent_no_duel_and_no_henchman():
    pos = home_position()
    pos.henchman("24", 0)
    pos.char("11", location="cronos")
    pos.player(0, ip=0)
    g = pos.run("duel", player=None, cid="11", source="prestige")  # no henchman choice abroad
    assert "no character can be his opponent" in logs(g)


def test_20_5_player_whose_pc_is_abroad_fights_abroad_with_his_pc(rec):
    pos = home_position()
    pos.henchman("24", 0)
    pos.char("11", location="cronos").char("42", location="cronos")
    pos.dice(4, 2, 6, 6)
    g = pos.run("duel", player=0, cid=None, source="counter")  # no choice of henchman
    assert "Duke Roland is Sir Drew's opponent" in logs(g) and rec == []


def test_19_7_5_pc_opponent_owner_may_use_henchman(rec):
    pos = home_position()
    pos.henchman("24", 1)
    pos.player(1, ip=5)
    pos.dice(1, 2, 6, 1, 3)  # Sir Guy (player 1's PC); Drew 6; Charles 1 < 6 kills Drew; §19.10: 3
    g = pos.run("duel", player=0, cid=None, source="counter")
    d = g.decision()
    assert d["player"] == 1 and set(d["options"]) == {char_action("12"), char_action("24"), PASS}
    g.apply(char_action("24"))
    assert rec == [("kill", {"cid": "11", "cause": "duel"})]


def test_19_8_simultaneous_both_may_die(rec):
    pos = home_position()
    pos.henchman("24", 0)
    pos.dice(4, 2, 1, 1)
    g = pos.run("duel", player=None, cid="24", source="counter")
    assert g.decision()["kind"] == "halt"
    assert sorted(k["cid"] for _, k in rec) == ["24", "42"]  # no §19.10 roll: the killer died


def test_19_8_roll_equal_to_rating_has_no_effect(rec):
    pos = home_position()
    pos.dice(4, 2, 1, 5)  # Roland rolls 5 = rating 5
    pos.run("duel", player=0, cid=None, source="counter")
    assert rec == []


def test_19_9_carousing_adds_one(rec):
    pos = home_position()
    pos.char("24", owner=0)
    pos.dice(1, 1, 5, 6)  # Sir Drew; Charles 5 +1 = 6, not < 6
    pos.run("duel", player=None, cid="24", source="carousing")
    assert rec == []
    pos = home_position()
    pos.char("24", owner=0)
    pos.dice(1, 1, 5, 6, 2)
    pos.run("duel", player=None, cid="24", source="prestige")
    assert rec == [("kill", {"cid": "11", "cause": "duel"})]


def test_19_9_treachery_one_card_per_player_on_either_roll(rec):
    pos = home_position()
    pos.give(1, "treachery", "treachery")
    pos.give(2, "intrigue")
    pos.dice(4, 2, 1, 6, 2)
    g = pos.run("duel", player=0, cid=None, source="counter")
    d = g.decision()
    assert (d["player"], d["kind"]) == (1, "card_window")
    g.apply(ID["play_treachery"])
    d = g.decision()
    assert d["kind"] == "duel_card_target"
    g.apply(char_action("11"))
    g.apply(SIGN_MINUS)  # Sir Drew's die 1 - 1 = 0 < 1
    d = g.decision()
    assert (d["player"], d["kind"]) == (2, "card_window")  # player 1 is not offered again
    assert ID["play_intrigue_as_treachery"] in d["options"]
    g.apply(PASS)
    assert g.decision()["kind"] == "halt"
    assert sum(CARD_TYPE_OF[c] == "treachery" for c in g.state.players[1].hand) == 1
    assert rec == [("kill", {"cid": "42", "cause": "duel"})]  # Drew is a PC: §19.10 roll 2
    check(g.state, decision=False)


def test_19_10_killing_pc_or_fac_rolls_1_accused(rec):
    pos = home_position()
    pos.char("24", owner=0)
    pos.dice(4, 2, 1, 6, 1)
    pos.run("duel", player=None, cid="24", source="counter")
    assert rec[0] == ("kill", {"cid": "42", "cause": "duel"})
    assert rec[1][0] == "accuse" and rec[1][1]["cid"] == "24"


def test_a3_no_possible_opponent_no_duel():
    pos = home_position()
    pos.dice(4, 2)
    g = pos.run("duel", player=0, cid=None, source="court_ball", attendees=["11"])
    assert "no character can be his opponent" in logs(g)
    assert g.state.rng.scripted == [4, 2]


def test_18_10_widow_of_a_farc_keeps_8_and_a_consort_follows_the_farc_to_the_throne():
    """§18.10/§31.7 with the real death and succession operations: the FAC married to a FARC
    has Status 8 (computed, not stored); when the FARC succeeds the FAC becomes the NRC consort
    (Loyalty counter stays on the card, §18.10); when that Monarch dies the consort becomes a
    NC Duke/Duchess with a stored Status 8 and the counter goes back to the container."""
    pos = home_position()
    st = pos.state
    pos.char("42", owner=0, spouse="anne").char("anne", owner=0, spouse="42")
    assert status(st, "42") == 8 and st.chars["42"].fixed_status is None
    st.wchar("george").dead = True
    st.wchar("alan").dead = True
    pos.run("succession")
    c = st.chars["42"]
    assert st.monarch == "anne" and st.chars["anne"].owner is None
    assert c.consort and c.owner is None and c.loyalty_counter
    assert status(st, "42") == 10  # §18.9: the higher Status of the two, no longer a FARC's spouse
    check(st, decision=False)
    pos.run("kill", cid="anne", cause="test")
    assert not c.consort and c.owner is None and not c.loyalty_counter and "42" in st.loyalty_pool
    assert c.spouse is None and c.fixed_status == 8 and status(st, "42") == 8
    check(st, decision=False)
