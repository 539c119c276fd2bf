"""§7 Political Problems, foreign wars (§7.10), FARC Monarch (§7.12), §32 Monarch's Support,
§33 crisis (fandonia_env.engine.chapters.problems)."""

from __future__ import annotations

import pytest
from helpers import government, halted, logged

from fandonia_env.engine import Game
from fandonia_env.engine.chapters.problems import change_support, set_support
from fandonia_env.engine.core.actions import ID, NO, PASS, SIGN_MINUS, SIGN_PLUS, YES
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.rules.queries import ip_spendable, status

MINE = ("25", "26", "31", "34", "36", "41", "42", "43", "44")


def make(seed: int = 1, support: int = 60, **offices: str | None) -> Position:
    """Offices held by NCs outside MINE (in Fandonia, ambassadors abroad), then the given
    office=cid placements; support set; player 0 first.  PCs (seed 1): 56, 63, 13."""
    return government(seed=seed, keep_free=MINE, offices=offices, support=support)


def attempt(pos: Position, problems: dict, *dice: int) -> Game:
    """The problems phase with these unresolved problems, the dice scripted."""
    pos.state.problems = problems
    pos.dice(*dice)
    return pos.run("problems_phase")


def rec(fails=0, turns=0, countries=(), minister=None):
    return {"fails": fails, "turns": turns, "countries": list(countries), "minister": minister}


# ---------------------------------------------------------------------------
# §7.1 the phase
# ---------------------------------------------------------------------------


def test_7_1_phase_skipped_without_problems():
    pos = make(support=60)
    pos.dice(1)
    g = pos.run("problems_phase")
    halted(g)
    assert g.state.support == 60 and g.state.rng.scripted == [1]
    assert logged(g.state, "no unresolved political problems")


def test_7_1_first_player_orders_the_attempts_one_each():
    pos = make(minister_of_trade="44", minister_of_navy="41")  # abilities 6 and 6, NCs
    st = pos.state
    g = attempt(pos, {"pirates": rec(), "natural_disaster": rec()}, 1, 1)
    d = g.decision()
    assert d["kind"] == "problem_order" and d["player"] == 0
    assert set(d["options"]) == {ID["problem_pirates"], ID["problem_natural_disaster"]}
    g.apply(ID["problem_natural_disaster"])
    halted(g)
    texts = [e["t"] for e in st.log]
    i_nd = next(i for i, t in enumerate(texts) if "Natural Disaster resolution" in t)
    i_pi = next(i for i, t in enumerate(texts) if "Pirates resolution" in t)
    assert i_nd < i_pi
    assert st.problems == {} and st.support == 80  # +10 each (§7.9)


# ---------------------------------------------------------------------------
# §7.5 the roll (A5)
# ---------------------------------------------------------------------------


def test_7_5_nc_minister_resolves_when_roll_is_below_ability():
    pos = make(minister_of_treasury="43")  # Duke Henry, ability 5, NC
    st = pos.state
    g = attempt(pos, {"economic_crisis": rec()}, 4)
    halted(g)
    assert "economic_crisis" not in st.problems and st.support == 70


def test_7_5_roll_equal_to_ability_leaves_problem_unresolved():
    pos = make(minister_of_treasury="43")
    st = pos.state
    g = attempt(pos, {"economic_crisis": rec()}, 5)
    halted(g)
    assert st.problems["economic_crisis"] == rec(fails=1, turns=1, minister="43")
    assert st.support == 50
    assert st.chars["43"].failed_problem  # §20.3 may not travel


def test_A5_natural_six_fails_whatever_the_modifiers():
    pos = make(minister_of_treasury="44", minister_of_trade="42")  # Duke Marley, ability 6
    st = pos.state
    pos.char("42", owner=1)  # FAC Minister of Trade modifies Economic Crisis
    g = attempt(pos, {"economic_crisis": rec()}, 6)
    d = g.decision()
    assert d["kind"] == "declare_modifier" and d["player"] == 1
    g.apply(SIGN_MINUS)
    halted(g)
    assert "economic_crisis" in st.problems and st.support == 50  # 6-1 = 5 < 6, yet it fails


# ---------------------------------------------------------------------------
# §7.6 modifiers, §7.12 FARC Monarch, §33.2.2 crisis
# ---------------------------------------------------------------------------


def test_7_6_pc_or_fac_listed_minister_modifies_by_one():
    pos = make(minister_of_army="36", minister_of_state="42")  # Lord Arthur ability 4
    st = pos.state
    pos.char("42", owner=2)
    st.problems = {"foreign_war": rec(countries=["cronos"])}
    st.wars = ["cronos"]
    pos.dice(4)
    g = pos.run("problems_phase")
    d = g.decision()
    assert d["kind"] == "declare_modifier" and d["player"] == 2 and d["ctx"]["amount"] == 1
    g.apply(SIGN_MINUS)
    halted(g)
    assert st.problems == {} and st.wars == []  # 4-1 = 3 < 4: resolved, the war ends (§7.10)


def test_7_6_fac_modifying_character_and_minister_are_cumulative():
    pos = make(minister_of_justice="31")  # Knight Simon ability 4
    st = pos.state
    pos.char("31", owner=1)
    pos.char("55", owner=1)  # Archbishop
    pos.char("52", owner=2)  # Sheriff
    pos.player(1, pp=40).player(2, pp=40)  # within their PP limits (R17)
    g = attempt(pos, {"treason_trials": rec()}, 2)
    d = g.decision()
    assert d["kind"] == "problem_leave_unresolved" and d["player"] == 1
    g.apply(NO)
    g.apply(SIGN_PLUS)  # player 1: Minister Of Justice
    g.apply(SIGN_PLUS)  # player 1: Archbishop
    d = g.decision()
    assert d["player"] == 2 and d["kind"] == "declare_modifier"
    g.apply(PASS)
    halted(g)
    assert "treason_trials" in st.problems  # 2+2 = 4, not less than 4
    assert st.problems["treason_trials"]["fails"] == 1


def test_7_6_nc_modifiers_are_ignored():
    pos = make(minister_of_treasury="43")
    st = pos.state
    g = attempt(pos, {"banking_crisis": rec()}, 3)
    halted(g)  # no declaration asked of anybody
    assert st.problems == {}


def test_7_12_player_with_farc_monarch_modifies_problem_rolls():
    pos = make(minister_of_trade="43")  # ability 5; Natural Disaster has no modifiers (R6)
    st = pos.state
    st.wchar("george").owner = 1
    g = attempt(pos, {"natural_disaster": rec()}, 5)
    d = g.decision()
    assert d["kind"] == "declare_modifier" and d["player"] == 1
    g.apply(SIGN_MINUS)
    halted(g)
    assert st.problems == {}


def test_33_2_2_crisis_adds_one_to_problem_rolls():
    pos = make(minister_of_trade="43", support=0)
    st = pos.state
    g = attempt(pos, {"natural_disaster": rec()}, 4)
    halted(g)
    assert "natural_disaster" in st.problems  # 4+1 = 5, not less than 5
    assert st.support == 0  # clamped (§32.1)


# ---------------------------------------------------------------------------
# §7.4 vacant office, deliberate failure; §7.10.6 stuck at war; §20.3 abroad
# ---------------------------------------------------------------------------


def test_7_4_vacant_office_leaves_problem_automatically_unresolved():
    pos = make(minister_of_navy=None)
    st = pos.state
    g = attempt(pos, {"pirates": rec()}, 1)
    halted(g)
    assert st.problems["pirates"] == rec(fails=0, turns=1)
    assert st.support == 50 and st.rng.scripted == [1]


def test_7_4_pc_or_fac_minister_may_deliberately_leave_problem_unresolved():
    pos = make(minister_of_navy="41")
    st = pos.state
    pos.char("41", owner=0)
    g = attempt(pos, {"pirates": rec()}, 1)
    d = g.decision()
    assert d["kind"] == "problem_leave_unresolved" and d["player"] == 0
    g.apply(YES)
    halted(g)
    assert st.problems["pirates"] == rec(fails=1, turns=1, minister="41")
    assert st.rng.scripted == [1] and st.support == 50


def test_7_10_6_minister_stuck_in_country_at_war_leaves_problem_unresolved():
    pos = make(minister_of_army="44")
    st = pos.state
    st.wchar("44").location = "epalin"
    st.wars = ["epalin"]
    g = attempt(pos, {"foreign_war": rec(countries=["epalin"])}, 1)
    halted(g)
    assert st.problems["foreign_war"]["fails"] == 1 and st.chars["44"].location == "epalin"
    assert st.wars == ["epalin"] and st.rng.scripted == [1]


def test_20_3_minister_abroad_returns_to_fandonia_to_attempt():
    pos = make(minister_of_navy="41")
    st = pos.state
    st.wchar("41").location = "cronos"
    g = attempt(pos, {"pirates": rec()}, 1)
    halted(g)
    assert st.chars["41"].location == "fandonia" and st.problems == {}


# ---------------------------------------------------------------------------
# §7.8 three failures in a row
# ---------------------------------------------------------------------------


def test_7_8_third_failure_in_a_row_discharges_the_minister():
    pos = make(minister_of_navy="34")  # Earl Duncan ability 3
    st = pos.state
    g = attempt(pos, {"pirates": rec(fails=2, turns=2, minister="34")}, 5)
    halted(g)
    assert st.chars["34"].office is None and not st.chars["34"].failed_problem
    assert st.problems["pirates"] == rec(fails=0, turns=3)


def test_7_8_failures_count_only_for_the_current_minister():
    pos = make(minister_of_navy="34")
    st = pos.state
    g = attempt(pos, {"pirates": rec(fails=2, turns=2, minister="26")}, 5)
    halted(g)
    assert st.chars["34"].office == "minister_of_navy"
    assert st.problems["pirates"] == rec(fails=1, turns=3, minister="34")


# ---------------------------------------------------------------------------
# §8.4.5 / §7.2 new problems, Political Problems Table rows, §7.10 Foreign War Table
# ---------------------------------------------------------------------------

PP_ROWS = [
    ((1, 1), "banking_crisis"), ((1, 2), "economic_crisis"), ((1, 3), "international_incident"),
    ((1, 4), "foreign_war"), ((3, 3), "foreign_war"), ((3, 4), "treason_trials"), ((4, 4), "pirates"),
    ((4, 5), "townsmen_unrest"), ((5, 5), "peasant_unrest"), ((5, 6), "agriculture_crisis"),
    ((6, 6), "natural_disaster"),
]


@pytest.mark.parametrize("dice,key", PP_ROWS)
def test_8_4_5_political_problems_table_rows_and_immediate_attempt(dice, key):
    pos = make()
    st = pos.state
    extra = (1, 1) if key == "foreign_war" else ()
    pos.dice(*dice, *extra, 6)  # the immediate attempt rolls a natural 6: unresolved
    g = pos.run("new_problem")
    halted(g)
    assert set(st.problems) == {key}
    assert st.problems[key]["turns"] == 1 and st.support == 50
    assert st.tstate["problems_attempted"] == [key]  # A12: the turn's attempt
    assert st.rng.scripted == []


def test_7_2_a_problem_already_unresolved_is_rerolled():
    pos = make()
    st = pos.state
    st.problems = {"pirates": rec(turns=2)}
    pos.dice(4, 4, 4, 5, 6)  # Pirates again -> reroll -> Townsmen Unrest; attempt natural 6
    g = pos.run("new_problem")
    halted(g)
    assert set(st.problems) == {"pirates", "townsmen_unrest"}
    assert st.problems["pirates"]["turns"] == 2
    assert logged(st, "already unresolved; roll again (§7.2)")


def test_A12_resolved_problem_may_arise_again():
    pos = make(minister_of_navy="41")
    st = pos.state
    pos.dice(4, 4, 1, 4, 4, 6)
    g = pos.run("new_problem")
    halted(g)
    assert st.problems == {}
    g = pos.run("new_problem")
    halted(g)
    assert set(st.problems) == {"pirates"}


FW_ROWS = [
    ((1, 1), ["sandarkan", "epalin", "cronos", "city_states", "besyzan"]),
    ((1, 2), ["sandarkan", "besyzan"]), ((1, 3), ["cronos", "besyzan"]), ((1, 4), ["sandarkan"]),
    ((1, 5), ["cronos"]), ((1, 6), ["sandarkan", "epalin", "cronos", "city_states", "besyzan"]),
    ((2, 6), ["city_states"]), ((3, 6), ["epalin"]), ((4, 6), ["city_states", "besyzan"]),
    ((5, 6), ["epalin", "besyzan"]), ((6, 6), ["sandarkan", "epalin", "cronos", "city_states", "besyzan"]),
]


@pytest.mark.parametrize("dice,countries", FW_ROWS)
def test_7_10_foreign_war_table_rows(dice, countries):
    pos = make()
    st = pos.state
    pos.dice(3, 3, *dice, 6)
    g = pos.run("new_problem")
    halted(g)
    assert sorted(st.wars) == sorted(countries)
    assert st.problems["foreign_war"]["countries"] == countries


def test_7_10_1_ambassador_and_travellers_stuck_when_war_breaks_out():
    pos = make(minister_of_army="44")
    st = pos.state
    amb = next(cid for cid, c in st.chars.items() if c.office == "amb_cronos")
    st.wchar("42").location = "cronos"
    pos.dice(3, 3, 1, 5, 6)  # Foreign War, war with Cronos, attempt fails
    g = pos.run("new_problem")
    halted(g)
    assert st.wars == ["cronos"]
    assert logged(st, "is stuck in Cronos (§7.10.1)")
    # the Minister of the Army resolves it next turn: the war ends
    pos.dice(1)
    g = pos.run("problems_phase")
    halted(g)
    assert st.wars == [] and st.chars[amb].location == "cronos"


# ---------------------------------------------------------------------------
# §32 Monarch's Support, §33 crisis
# ---------------------------------------------------------------------------


def test_32_2_support_bonus_five_without_problems():
    pos = make(support=60)
    st = pos.state
    st.problems_at_start = False
    st.crown = "court_ball"
    g = pos.run("support_bonus")
    halted(g)
    assert st.support == 65


@pytest.mark.parametrize("at_start,crown", [(True, "court_ball"), (False, "two_problems"), (False, "one_problem")])
def test_32_2_no_support_bonus_with_problems_or_problem_crown_result(at_start, crown):
    pos = make(support=60)
    st = pos.state
    st.problems_at_start = at_start
    st.crown = crown
    g = pos.run("support_bonus")
    halted(g)
    assert st.support == 60


def test_32_1_support_is_clamped_to_0_120():
    pos = make(support=115)
    st = pos.state
    assert change_support(st, 10) == 5 and st.support == 120
    st.support = 5
    assert change_support(st, -10) == -5 and st.support == 0


def test_33_1_33_3_crisis_entered_and_left_are_logged():
    pos = make(support=10)
    st = pos.state
    change_support(st, -10)
    assert logged(st, "the government is in crisis (§33.1)")
    change_support(st, 10)
    assert logged(st, "the crisis ends (§33.3)")
    st.support = 0
    set_support(st, 70, "new Monarch, §32.4")
    assert st.support == 70 and st.log[-1]["t"].endswith("(§33.3).")


def test_A8_support_changes_at_each_attempt():
    pos = make(minister_of_navy="41", minister_of_trade="43", support=10)
    st = pos.state
    st.problems = {"pirates": rec(), "natural_disaster": rec()}
    pos.dice(6, 4)  # pirates fails -> crisis; natural disaster rolls 4+1 = 5: not < 5
    g = pos.run("problems_phase")
    g.apply(ID["problem_pirates"])
    halted(g)
    assert st.support == 0 and set(st.problems) == {"pirates", "natural_disaster"}


def test_33_2_crisis_halves_office_holders_and_limits_ip():
    pos = make(minister_of_navy="41", support=0)  # Lord Perceval Status 4 + office 2
    st = pos.state
    assert status(st, "41") == 3
    assert status(st, "george") == 7  # Monarch: 10 + 4, halved
    st.players[0].ip = 5
    assert ip_spendable(st, 0) == 2
    st.players[0].ip = 1
    assert ip_spendable(st, 0) == 1


def test_7_11_pirates_and_7_10_5_war_flags_follow_the_problems():
    from fandonia_env.engine.chapters.problems import at_war, pirates_active

    pos = make(minister_of_navy="41", minister_of_army="44")
    st = pos.state
    assert not pirates_active(st) and not at_war(st)
    pos.dice(4, 4, 6, 3, 3, 2, 6, 6)  # Pirates (fails), Foreign War with The City States (fails)
    g = pos.run("new_problem")
    halted(g)
    g = pos.run("new_problem")
    halted(g)
    assert pirates_active(st) and at_war(st)
    pos.dice(1, 1)
    g = pos.run("problems_phase")
    g.apply(ID["problem_pirates"])
    halted(g)
    assert not pirates_active(st) and not at_war(st)


def test_32_2_no_support_bonus_when_any_result_of_the_turn_was_a_problem_a10():
    pos = make(support=60)
    st = pos.state
    st.problems_at_start = False
    st.tstate["crown_events"] = ["one_problem", "court_ball"]  # several forced results (A10 i)
    st.crown = "court_ball"
    g = pos.run("support_bonus")
    halted(g)
    assert st.support == 60


def test_7_7_times_unresolved_are_recorded_across_ministers():
    pos = make(minister_of_treasury="43")
    st = pos.state
    g = attempt(pos, {"economic_crisis": rec(fails=2, turns=4, minister="44")}, 5)
    halted(g)
    assert st.problems["economic_crisis"] == rec(fails=1, turns=5, minister="43")


def test_7_10_3_pc_stuck_in_a_country_at_war_loses_his_player_turn():
    pos = make()
    st = pos.state
    pc = st.players[1].pc
    st.wchar(pc).location = "cronos"
    st.wars = ["cronos"]
    g = pos.run("player_turn", p=1)
    halted(g)
    assert logged(st, "stuck in a country at war: he loses his Player Turn (§7.10.3)")
    assert st.active is None


def test_7_10_6_stuck_minister_failures_count_toward_discharge_7_8():
    pos = make(minister_of_army="44")
    st = pos.state
    st.wchar("44").location = "cronos"
    st.problems = {"foreign_war": rec(fails=2, turns=2, countries=("cronos",), minister="44")}
    st.wars = ["cronos"]
    g = pos.run("problems_phase")
    halted(g)
    assert st.chars["44"].office is None and st.support == 50
    assert st.chars["44"].location == "cronos"  # a Minister (not an Ambassador) stays stuck


def test_7_10_6_minister_in_the_country_a_new_war_is_with_is_stuck_not_returned_20_3():
    pos = make(minister_of_army="44", support=60)
    st = pos.state
    st.wchar("44").location = "cronos"
    pos.dice(3, 3, 3, 3, 1)  # Foreign War; Foreign War Table 6 = Cronos; the 1 stays unrolled
    g = pos.run("new_problem")
    halted(g)
    assert st.wars == ["cronos"] and st.chars["44"].location == "cronos"
    assert st.problems["foreign_war"]["fails"] == 1 and st.support == 50
    assert st.rng.scripted == [1]
