"""§15 Counseling: who may counsel, open tables, the repetition rule, modifiers, the
Counseling Results Table (T1.13) and every counsel effect of the 13 tables (R7)."""

from __future__ import annotations

import pytest
from helpers import MC, C, T, counsel_turn, kind, make_hm, make_mc, pc, put, take

from fandonia_env.engine import Game
from fandonia_env.engine.core.actions import PASS, SIGN_MINUS, SIGN_PLUS, char_action, player_action
from fandonia_env.engine.core.machine import OPS
from fandonia_env.engine.data.components import CARD_TYPE_OF
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.face.invariants import check

CROSS = ("discharge", "to_trial", "scandal", "accuse", "intrigue_draw", "amnesty_all", "release",
         "pp_check_all")


@pytest.fixture
def calls(stub_ops):
    """Other chapters' operations replaced by recorders (the contract is: scheduled by name)."""

    def discharge(state, kw):
        assert isinstance(kw.pop("why", ""), str)  # optional reason (offices chapter)
        c = state.wchar(kw["cid"])  # minimal stand-in so that later steps see the office vacant
        c.office = None
        c.location = "fandonia"

    return stub_ops(*CROSS, effects={"discharge": discharge})


def counsel(pos: Position, table: str, choice: int, *dice: int) -> Game:
    """Player 0 counsels on ``table`` with counsel ``choice``, the dice scripted."""
    pos.dice(*dice)
    g = pos.run("counsel_step", p=0)
    take(g, "counsel_table", T(table))
    take(g, "counsel_choice", C(choice))
    return g


# ---------------------------------------------------------------------------
# §15.1 the counsel step, declining
# ---------------------------------------------------------------------------


def test_15_1_player_may_decline_counsel_with_pass():
    pos = counsel_turn()
    g = pos.run("counsel_step", p=0)
    assert g.decision()["options"] == sorted([T("court_ball"), PASS])
    g.apply(PASS)
    assert kind(g) == "halt"
    assert pos.state.players[0].counsels == {}
    assert any("does not counsel" in e["t"] for e in pos.state.log)


def test_15_1_may_counsel_even_when_activities_are_lost():
    pos = counsel_turn(no_more=True)
    g = counsel(pos, "court_ball", 3, 3, 3)
    assert kind(g) == "halt"
    assert pos.state.players[0].counsels == {"court_ball": [3]}
    assert pos.state.pt["counselled"]


# ---------------------------------------------------------------------------
# §15.2 who may counsel
# ---------------------------------------------------------------------------


def test_15_2_player_without_office_or_counselor_cannot_counsel():
    pos = counsel_turn(mc=False)
    g = pos.run("counsel_step", p=0)
    assert kind(g) == "halt"


def test_15_2_pc_office_holder_may_counsel():
    pos = counsel_turn(mc=False)
    pos.office("minister_of_trade", pc(pos))
    g = counsel(pos, "court_ball", 4, 4, 4)
    assert kind(g) == "halt" and pos.state.players[0].pp == 11  # 8: pleased, One PP


def test_15_2_ambassador_abroad_may_counsel_but_not_if_country_at_war_7_10_4():
    for wars, expected in (([], "counsel_table"), (["cronos"], "halt")):
        pos = counsel_turn(mc=False)
        pos.char("36", owner=0)
        pos.office("amb_cronos", "36")
        pos.state.wchar("36").location = "cronos"
        pos.state.wars = wars
        g = pos.run("counsel_step", p=0)
        assert kind(g) == expected


def test_15_2_other_office_holders_and_counselors_abroad_may_not_counsel():
    pos = counsel_turn(mc=True)
    pos.state.wchar(MC).location = "epalin"
    pos.char("36", owner=0).player(0, pp=40)
    pos.office("high_minister", "36")
    pos.state.wchar("36").location = "sandarkan"
    g = pos.run("counsel_step", p=0)
    assert kind(g) == "halt"


def test_15_2_free_counsel_from_court_ball_allows_counsel_without_office():
    pos = counsel_turn(mc=False)
    pos.player(0, free_counsel=True)
    g = counsel(pos, "court_ball", 3, 6, 6)
    assert kind(g) == "halt"  # no counselor choice: the free counsel is the player's
    assert pos.state.players[0].pp == 12


# ---------------------------------------------------------------------------
# §15.3 / §17.2.2 henchmen
# ---------------------------------------------------------------------------


def test_15_3_henchman_may_stand_in_and_real_counselor_keeps_card_15_8(calls):
    pos = counsel_turn()
    make_hm(pos, 0, "41")
    g = counsel(pos, "court_ball", 3, 1, 2)  # 3: displeased, lose office
    assert set(g.decision()["options"]) == {char_action(MC), char_action("41")}
    take(g, "counsel_counselor", char_action("41"))
    assert kind(g) == "halt"
    assert pos.state.chars[MC].counselor_card is not None
    assert calls == []
    check(pos.state, decision=False)


def test_15_3_henchman_abroad_may_not_counsel():
    pos = counsel_turn()
    make_hm(pos, 0, "41")
    pos.state.wchar("41").location = "epalin"
    g = counsel(pos, "court_ball", 3, 3, 3)
    assert kind(g) == "halt"  # only the Monarch's Counselor: chosen automatically


def test_15_3_henchman_alone_cannot_counsel():
    pos = counsel_turn(mc=False)
    make_hm(pos, 0, "41")
    g = pos.run("counsel_step", p=0)
    assert kind(g) == "halt"


def test_15_8_henchman_who_is_the_office_holder_loses_office(calls):
    pos = counsel_turn(mc=False)
    make_hm(pos, 0, "41")
    pos.office("minister_of_trade", "41")
    g = counsel(pos, "court_ball", 3, 2, 2)
    assert kind(g) == "halt"
    assert calls == [("discharge", {"cid": "41"})]


# ---------------------------------------------------------------------------
# §15.4 open tables, §15.5 bans, §15.6 once a turn
# ---------------------------------------------------------------------------


def test_15_4_only_tables_of_unresolved_problems_and_crown_result_are_open():
    pos = counsel_turn(crown="intrigue", problems=("pirates", "natural_disaster"))
    g = pos.run("counsel_step", p=0)
    assert set(g.decision()["options"]) == {T("intrigue"), T("pirates"), T("natural_disaster"), PASS}


def test_15_4_no_open_table_means_no_counsel():
    pos = counsel_turn(crown="political_problems")
    g = pos.run("counsel_step", p=0)
    assert kind(g) == "halt"


@pytest.mark.parametrize("crown,support", [("famine", 50), ("plague", 50), ("court_ball", 0)])
def test_15_5_no_counsel_in_famine_plague_or_crisis_33_2_4(crown, support):
    pos = counsel_turn(crown=crown, problems=("pirates",))
    pos.state.support = support
    g = pos.run("counsel_step", p=0)
    assert kind(g) == "halt"
    assert any("No counseling is allowed" in e["t"] for e in pos.state.log)


def test_15_6_only_one_counsel_per_turn_even_with_free_counsel():
    pos = counsel_turn(counselled=True)
    pos.player(0, free_counsel=True)
    g = pos.run("counsel_step", p=0)
    assert kind(g) == "halt"


# ---------------------------------------------------------------------------
# §15.7 modifiers, §15.11 / §36.10.2 FARC Monarch, A6 clamp
# ---------------------------------------------------------------------------


def test_15_7_each_listed_pc_or_fac_gives_its_owner_a_sign_and_ncs_are_ignored(calls):
    # Banking Crisis 4: Treasury, High Minister, Justice, Sheriff.
    pos = counsel_turn(crown="court_ball", problems=("banking_crisis",))
    pos.office("minister_of_treasury", pc(pos))
    pos.char("42", owner=1)
    pos.office("high_minister", "42")
    pos.char("52", owner=None)  # the Sheriff is neutral: ignored
    pos.office("minister_of_justice", "43")  # NC holder: ignored
    g = counsel(pos, "banking_crisis", 4, 3, 3)  # 6
    take(g, "counsel_counselor", char_action(pc(pos)))
    assert g.decision()["player"] == 0
    take(g, "declare_modifier", SIGN_PLUS)
    assert g.decision()["player"] == 1
    take(g, "declare_modifier", SIGN_PLUS)
    assert kind(g) == "halt"  # 6 + 2 = 8: pleased, not accepted
    assert any("rolled 6 (3+3) +2 = 8" in e["t"] for e in pos.state.log)
    assert pos.state.players[0].pp == 11


def test_15_7_opponent_may_subtract_and_a6_clamps_to_row_2(calls):
    pos = counsel_turn(problems=("pirates",))
    pos.char("54", owner=1)  # the Admiral modifies Pirates 1
    g = counsel(pos, "pirates", 1, 1, 1)
    take(g, "declare_modifier", SIGN_MINUS)
    assert kind(g) == "halt"
    assert any("= 2." in e["t"] for e in pos.state.log)
    assert pos.state.players[0].pp == 5
    assert pos.state.chars[MC].counselor_card is None


def test_15_11_farc_monarch_player_modifies_all_counsels_and_may_not_counsel_36_10_2(calls):
    pos = counsel_turn()
    pos.state.wchar("george").owner = 1
    make_mc(pos, 1, "44")
    g = counsel(pos, "court_ball", 1, 4, 4)
    assert g.decision()["player"] == 1
    take(g, "declare_modifier", SIGN_PLUS)
    assert kind(g) == "halt"
    assert pos.state.players[0].pp == 10 + 2 + 2  # 9: accepted, Two PP + Gambling Advice Two PP
    # player 1 himself may not counsel
    pos2 = counsel_turn()
    pos2.state.wchar("george").owner = 0
    g2 = pos2.run("counsel_step", p=0)
    assert kind(g2) == "halt"


# ---------------------------------------------------------------------------
# §15.8 Counseling Results Table rows
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("dice,pp,keeps", [((1, 1), 5, False), ((1, 3), 10, False), ((2, 3), 11, True),
                                           ((4, 4), 11, True), ((4, 5), 12, True), ((6, 6), 12, True)])
def test_15_8_results_rows_pp_and_loss_of_counselor_card(calls, dice, pp, keeps):
    pos = counsel_turn()
    g = counsel(pos, "court_ball", 3, *dice)
    assert kind(g) == "halt"
    assert pos.state.players[0].pp == pp
    assert (pos.state.chars[MC].counselor_card is not None) == keeps
    check(pos.state, decision=False)


def test_15_8_henchman_stand_in_on_a_2_keeps_the_office_but_the_five_pp_are_lost(calls):
    """T1.13 footnote: with a henchman counseling, the loss of office/card is ignored; the
    Five PP of row 2 are a loss of the player's (§35.2), not of the character, and stand."""
    pos = counsel_turn()
    make_hm(pos, 0, "41")
    pp0 = pos.state.players[0].pp
    g = counsel(pos, "court_ball", 3, 1, 1)
    take(g, "counsel_counselor", char_action("41"))
    assert kind(g) == "halt"
    assert pos.state.chars[MC].counselor_card is not None
    assert pos.state.players[0].pp == pp0 - 5
    assert ("discharge", {"cid": "41"}) not in calls

def test_15_8_displeased_office_holder_is_discharged(calls):
    pos = counsel_turn(mc=False)
    pos.office("minister_of_navy", pc(pos))
    counsel(pos, "court_ball", 4, 2, 1)
    assert calls == [("discharge", {"cid": pc(pos)})]


def test_15_8_not_accepted_counsel_has_no_effect(calls):
    pos = counsel_turn(crown="intrigue")
    g = counsel(pos, "intrigue", 4, 4, 4)
    assert kind(g) == "halt"
    assert calls == [] and pos.state.players[0].pp == 11


# ---------------------------------------------------------------------------
# §15.9 repetition, §15.10 free counsel
# ---------------------------------------------------------------------------


def test_15_9_same_counsel_not_repeated_until_all_four_made():
    pos = counsel_turn()
    pos.player(0, counsels={"court_ball": [1, 3]})
    g = pos.run("counsel_step", p=0)
    take(g, "counsel_table", T("court_ball"))
    assert g.decision()["options"] == [C(2), C(4)]


def test_15_9_after_all_four_any_counsel_and_record_sheet_appends():
    pos = counsel_turn()
    pos.player(0, counsels={"court_ball": [1, 2, 3, 4]})
    pos.dice(4, 4)
    g = pos.run("counsel_step", p=0)
    take(g, "counsel_table", T("court_ball"))
    assert g.decision()["options"] == [C(1), C(2), C(3), C(4)]
    take(g, "counsel_choice", C(3))
    assert pos.state.players[0].counsels["court_ball"] == [1, 2, 3, 4, 3]


def test_15_9_free_counsel_ignores_previous_counsels():
    pos = counsel_turn()
    pos.player(0, counsels={"court_ball": [1, 3]}, free_counsel=True)
    g = pos.run("counsel_step", p=0)
    take(g, "counsel_table", T("court_ball"))
    assert g.decision()["options"] == [C(1), C(2), C(3), C(4)]


def test_15_9_table_closed_when_only_unmade_counsel_has_no_target():
    # Scandal 3 (Condemn EARC) is the only counsel left and nobody has a FARC.
    pos = counsel_turn(crown="scandal")
    pos.player(0, counsels={"scandal": [1, 2, 4]})
    g = pos.run("counsel_step", p=0)
    assert kind(g) == "halt"


def test_15_10_free_counsel_suffers_no_ill_effects(calls):
    pos = counsel_turn()
    pos.player(0, free_counsel=True)
    g = counsel(pos, "court_ball", 3, 1, 1)
    assert kind(g) == "halt"
    assert pos.state.players[0].pp == 10
    assert pos.state.chars[MC].counselor_card is not None
    assert calls == []


# ---------------------------------------------------------------------------
# Counsel effects (T1.15, COUNSEL_EFFECT_CODES)
# ---------------------------------------------------------------------------


def run_counsel(pos, table, i, target=None, dice=(6, 6)):
    pos.dice(*dice)
    g = pos.run("counsel_step", p=0)
    take(g, "counsel_table", T(table))
    if kind(g) == "counsel_choice":
        take(g, "counsel_choice", C(i))
    if target is not None and kind(g) == "counsel_target":
        take(g, "counsel_target", target)
    while kind(g) == "declare_modifier":
        g.apply(PASS)
    assert kind(g) == "halt", g.decision()
    check(pos.state, decision=False)
    return g


def test_court_ball_1_gambling_advice_gains_two_more_pp():
    pos = counsel_turn()
    run_counsel(pos, "court_ball", 1)
    assert pos.state.players[0].pp == 14


def test_court_ball_2_forces_next_crown_result_court_ball():
    pos = counsel_turn()
    run_counsel(pos, "court_ball", 2)
    assert pos.state.forced_crown == ["court_ball"]


def test_court_ball_3_no_effect_beyond_pp():
    pos = counsel_turn()
    run_counsel(pos, "court_ball", 3)
    assert pos.state.players[0].pp == 12 and pos.state.forced_crown == []


def test_intrigue_1_extradition_by_counsel_returns_wrongdoer_to_trial_25(calls):
    pos = counsel_turn(crown="intrigue")
    pos.char("43", wrongdoer=True, hiding=True, location="epalin")
    pos.char("44", wrongdoer=True, hiding=True, location="cronos")
    pos.state.wars = ["cronos"]  # §7.10.1: not extraditable
    g = counsel(pos, "intrigue", 1, 6, 6)
    assert kind(g) == "halt"  # 44 is stuck at war: 43 is stated automatically
    c = pos.state.chars["43"]
    assert (c.hiding, c.location) == (False, "fandonia")
    assert calls == [("to_trial", {"cid": "43", "extradited": True})]
    assert pos.state.pt["done"] == []  # not an activity


def test_intrigue_2_new_ambassador_to_besyzan_a57(calls):
    pos = counsel_turn(crown="intrigue")
    pos.char("42", owner=1)
    pos.office("minister_of_state", "42")
    pos.office("amb_besyzan", "31")
    pos.state.wchar("31").location = "besyzan"
    old = "31"
    g = counsel(pos, "intrigue", 2, 6, 6)
    opts = g.decision()["options"]
    assert char_action("42") in opts and char_action(MC) not in opts  # own FAC is no EAC
    for p in range(3):  # any player's PC who may hold office (11-44, §16.1)
        pcid = pos.state.players[p].pc
        assert (char_action(pcid) in opts) == (int(pcid) <= 44)
    take(g, "counsel_target", char_action("42"))
    assert kind(g) == "halt"
    c = pos.state.chars["42"]
    assert (c.office, c.location) == ("amb_besyzan", "besyzan")
    assert calls == [("discharge", {"cid": old}), ("discharge", {"cid": "42"})]
    assert not any(ch.office == "minister_of_state" for ch in pos.state.chars.values())


def test_intrigue_3_accusation_lets_player_intrigue_a_card_from_stated_opponent(calls):
    pos = counsel_turn(crown="intrigue")
    while len(pos.state.players[2].hand) > 3:  # §14.2.7: three cards or less are protected
        pos.state.deck.append(pos.state.players[2].hand.pop())
    g = counsel(pos, "intrigue", 3, 5, 6)
    # only player 1 can be stated: auto-chosen
    assert kind(g) == "halt"
    assert calls == [("intrigue_draw", {"p": 0, "victim": 1})]


def test_intrigue_3_opponent_choice_uses_relative_player_ids(calls):
    pos = counsel_turn(crown="intrigue")
    g = counsel(pos, "intrigue", 3, 5, 6)
    assert g.decision()["options"] == [player_action(0, 1, 3), player_action(0, 2, 3)]
    take(g, "counsel_target", player_action(0, 2, 3))
    assert calls == [("intrigue_draw", {"p": 0, "victim": 2})]


def test_intrigue_4_and_treason_2_amnesty(calls):
    pos = counsel_turn(crown="intrigue")
    run_counsel(pos, "intrigue", 4)
    assert calls == [("amnesty_all", {})]
    pos = counsel_turn(crown="court_ball", problems=("treason_trials",))
    calls.clear()
    run_counsel(pos, "treason_trials", 2)
    assert calls == [("amnesty_all", {})]


def _hand_type(pos, p, t):
    return sum(CARD_TYPE_OF[c] == t for c in pos.state.players[p].hand)


def test_scandal_1_defy_the_pope_discards_clergy_support_from_hands_14_2_6():
    pos = counsel_turn(crown="scandal")
    put(pos, 2, "clergy_support")
    run_counsel(pos, "scandal", 1)
    assert _hand_type(pos, 2, "clergy_support") == 0
    assert any(CARD_TYPE_OF[c] == "clergy_support" for c in pos.state.discard)


def test_international_incident_3_discards_all_foreign_support_only_from_hands():
    pos = counsel_turn(problems=("international_incident",))
    put(pos, 1, "foreign_support_epalin", "foreign_support_cronos")
    kept = next(c for c in pos.state.players[2].hand + pos.state.deck
                if CARD_TYPE_OF[c] == "foreign_support_sandarkan")
    if kept in pos.state.deck:
        pos.state.deck.remove(kept)
    pos.state.players[2].in_front.append(kept)  # kept in front: not in hand (§14.2.6)
    run_counsel(pos, "international_incident", 3)
    assert _hand_type(pos, 1, "foreign_support_epalin") == 0
    assert _hand_type(pos, 1, "foreign_support_cronos") == 0
    assert kept in pos.state.players[2].in_front


def test_foreign_war_4_discards_army_and_foreign_support_of_countries_at_war():
    pos = counsel_turn(problems=("foreign_war",))
    pos.state.wars = ["epalin"]
    put(pos, 1, "foreign_support_epalin", "foreign_support_cronos", "army_support")
    run_counsel(pos, "foreign_war", 4)
    assert _hand_type(pos, 1, "foreign_support_epalin") == 0
    assert _hand_type(pos, 1, "army_support") == 0
    assert _hand_type(pos, 1, "foreign_support_cronos") == 1


@pytest.mark.parametrize("table,i,card", [
    ("economic_crisis", 4, "merchant_support"), ("treason_trials", 4, "townsmen_support"),
    ("pirates", 4, "navy_support"), ("townsmen_unrest", 4, "townsmen_support"),
    ("peasant_unrest", 4, "peasant_support"), ("agriculture_crisis", 2, "trade_guild_support"),
])
def test_take_military_action_and_like_counsels_discard_support_cards(table, i, card):
    pos = counsel_turn(problems=(table,))
    put(pos, 1, card)
    run_counsel(pos, table, i)
    assert _hand_type(pos, 0, card) == 0 and _hand_type(pos, 1, card) == 0


def test_scandal_3_condemn_earc_releases_it_to_nrc(calls):
    pos = counsel_turn(crown="scandal")
    pos.state.wchar("john").owner = 1
    run_counsel(pos, "scandal", 3, char_action("john"))
    assert calls == [("release", {"cid": "john"})]


def test_scandal_4_expose_a_scandal_on_stated_character(calls):
    pos = counsel_turn(crown="scandal")
    g = counsel(pos, "scandal", 4, 6, 6)
    opts = g.decision()["options"]
    assert char_action("george") not in opts and char_action(MC) not in opts  # RC, own FAC
    take(g, "counsel_target", char_action("43"))
    assert calls == [("scandal", {"cid": "43", "exposer": None,
                                  "why": "counsel 'Expose A Scandal'"})]


def test_agriculture_3_witchcraft_accuses_stated_character(calls):
    pos = counsel_turn(problems=("agriculture_crisis",))
    pos.char("42", wrongdoer=True)
    g = counsel(pos, "agriculture_crisis", 3, 6, 6)
    assert char_action("42") not in g.decision()["options"]  # §24.10
    take(g, "counsel_target", char_action(pos.state.players[1].pc))
    while kind(g) == "declare_modifier":
        g.apply(PASS)
    assert calls == [("accuse", {"cid": pos.state.players[1].pc,
                                 "why": "counsel 'Accuse A Character Of Witchcraft'"})]


@pytest.mark.parametrize("table,office", [
    ("banking_crisis", "minister_of_treasury"), ("economic_crisis", "minister_of_treasury"),
    ("international_incident", "minister_of_state"), ("foreign_war", "minister_of_state"),
    ("treason_trials", "minister_of_justice"), ("pirates", "minister_of_navy"),
    ("townsmen_unrest", "high_minister"), ("peasant_unrest", "high_minister"),
    ("agriculture_crisis", "minister_of_trade"),
])
def test_discharge_counsels_discharge_the_minister_16_4(calls, table, office):
    pos = counsel_turn(problems=(table,))
    pos.office(office, "42")
    run_counsel(pos, table, 1)
    assert ("discharge", {"cid": "42"}) in calls


def test_discharge_counsel_on_vacant_office_has_no_effect(calls):
    pos = counsel_turn(problems=("pirates",))
    pos.office("minister_of_navy", None)
    run_counsel(pos, "pirates", 1)
    assert calls == []


def test_international_incident_2_recall_stated_ambassador_who_may_modify(calls):
    pos = counsel_turn(problems=("international_incident",))
    pos.char("36", owner=1)
    pos.office("amb_epalin", "36")
    pos.state.wchar("36").location = "epalin"
    g = counsel(pos, "international_incident", 2, 4, 4)
    take(g, "counsel_target", char_action("36"))
    assert g.decision()["player"] == 1 and kind(g) == "declare_modifier"
    take(g, "declare_modifier", SIGN_PLUS)  # 8 + 1 = 9: accepted
    assert kind(g) == "halt"
    assert calls == [("discharge", {"cid": "36"})]


def test_foreign_war_2_only_ambassador_of_country_at_war(calls):
    pos = counsel_turn(problems=("foreign_war",))
    pos.state.wars = ["cronos"]
    pos.office("amb_cronos", "31")
    amb = "31"
    g = counsel(pos, "foreign_war", 2, 6, 6)
    assert kind(g) == "halt"  # the only legal Ambassador is stated automatically
    assert calls == [("discharge", {"cid": amb})]


def test_banking_4_speculators_lose_half_ip_rounded_up_a1(calls):
    pos = counsel_turn(problems=("banking_crisis",))
    for p, ip in enumerate((7, 4, 5)):
        pos.player(p, ip=ip)
    run_counsel(pos, "banking_crisis", 4)
    assert [pl.ip for pl in pos.state.players] == [3, 4, 2]


@pytest.mark.parametrize("table,i", [("economic_crisis", 2), ("natural_disaster", 1)])
def test_welfare_program_players_with_two_or_less_ip_gain_two(table, i):
    pos = counsel_turn(problems=(table,))
    for p, ip in enumerate((2, 3, 0)):
        pos.player(p, ip=ip)
    run_counsel(pos, table, i)
    assert [pl.ip for pl in pos.state.players] == [4, 3, 2]


def test_natural_disaster_2_tribute_players_with_five_or_more_lose_two():
    pos = counsel_turn(problems=("natural_disaster",))
    for p, ip in enumerate((5, 4, 9)):
        pos.player(p, ip=ip)
    run_counsel(pos, "natural_disaster", 2)
    assert [pl.ip for pl in pos.state.players] == [3, 4, 7]


def test_intrigue_2_with_real_offices_mc_target_loses_card_and_old_ambassador_returns():
    pos = counsel_turn(crown="intrigue")
    make_mc(pos, 1, "44")
    pos.office("amb_besyzan", "31")
    pos.state.wchar("31").location = "besyzan"
    card = pos.state.chars["44"].counselor_card
    run_counsel(pos, "intrigue", 2, char_action("44"))
    c44, c31 = pos.state.chars["44"], pos.state.chars["31"]
    assert (c44.office, c44.location, c44.counselor_card) == ("amb_besyzan", "besyzan", None)
    assert card in pos.state.discard
    assert (c31.office, c31.location) == (None, "fandonia")


# ---------------------------------------------------------------------------
# Random positions: every path through the counsel step keeps the invariants
# ---------------------------------------------------------------------------


def test_15_random_counsels_keep_invariants(monkeypatch):
    import random

    from fandonia_env.engine.data.tables import COUNSELING_TABLE_KEYS

    for nm in CROSS:
        if nm not in OPS:
            monkeypatch.setitem(OPS, nm, lambda state, **kw: None)
    for seed in range(200):
        r = random.Random(seed)
        n = r.randint(2, 6)
        pos = Position(players=n, seed=seed, first=0)
        st = pos.state
        st.crown = r.choice(["court_ball", "intrigue", "scandal", None])
        st.problems = {k: {"fails": 0, "turns": 0, "countries": [], "minister": None}
                       for k in r.sample(COUNSELING_TABLE_KEYS[3:], r.randint(0, 4))}
        if r.random() < 0.3:
            st.wars = r.sample(["sandarkan", "epalin", "cronos", "city_states", "besyzan"], 1)
        for cid in ("25", "26", "31", "32", "33", "34"):
            st.wchar(cid).office = None
        p = r.randrange(n)
        make_mc(pos, p, "25")
        pos.char("26", owner=(p + 1) % n)
        pos.char("32", wrongdoer=True, hiding=True, location=r.choice(["fandonia", "epalin"]))
        st.wchar("john").owner = (p + 1) % n
        for q in range(n):
            st.players[q].ip = r.randint(0, 8)
            st.players[q].counsels = {t: r.sample([1, 2, 3, 4], r.randint(0, 4)) for t in COUNSELING_TABLE_KEYS}
        st.players[p].free_counsel = r.random() < 0.3
        pos.turn_state(p)
        if r.random() < 0.5:
            pos.dice(6, 6)  # accepted, unless modified down
        g = pos.run("counsel_step", p=p)
        for _ in range(50):
            if kind(g) == "halt":
                break
            g.apply(r.choice(g.legal_actions()))
        assert kind(g) == "halt"
        check(st, decision=False)


def test_court_ball_2_twice_forces_one_court_ball():
    pos = counsel_turn()
    pos.state.forced_crown = ["court_ball"]
    run_counsel(pos, "court_ball", 2)
    assert pos.state.forced_crown == ["court_ball"]


def test_intrigue_3_opponent_with_farc_monarch_cannot_be_stated_14_2_7(calls):
    pos = counsel_turn(crown="intrigue")
    pos.state.wchar("george").owner = 2
    g = counsel(pos, "intrigue", 3, 6, 6)
    while kind(g) == "declare_modifier":
        g.apply(PASS)
    assert kind(g) == "halt"  # only player 1 could be stated
    assert calls == [("intrigue_draw", {"p": 0, "victim": 1})]
