"""§38 optional rules of the crown group: Effects of Unresolved Political Problems
(``unresolved_problems``, items a-g, errata item h = D87) and Deliberate Incompetence
(``deliberate_incompetence``)."""

from __future__ import annotations

import pytest
from helpers import government, halted, logged, recorder

from fandonia_env.engine.core.actions import ID, PASS, YES
from fandonia_env.engine.core.machine import OPS
from fandonia_env.engine.data.components import COUNTRIES, NON_MONARCH_OFFICES
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.rules.queries import ip_spendable

UP = ["unresolved_problems"]
DI = ["deliberate_incompetence"]


def make(optional=(), edition: str = "1981", support: int = 60, **offices: str | None) -> Position:
    """Every office held by an NC in Fandonia (Ambassadors abroad); PCs at home."""
    return government(edition=edition, optional=list(optional), keep_free=offices.values(), offices=offices,
                      support=support)


def rec(turns=3, countries=(), minister=None, fails=0):
    return {"fails": fails, "turns": turns, "countries": list(countries), "minister": minister}


# ---------------------------------------------------------------------------
# Effects of Unresolved Political Problems (a-g; h errata)
# ---------------------------------------------------------------------------


def test_opt_unresolved_problems_a_banking_crisis_no_ip_spending_this_turn():
    pos = make(UP)
    st = pos.state
    st.players[0].ip = 5
    st.problems = {"banking_crisis": rec(turns=3)}
    halted(pos.run("offices_phase"))
    assert ip_spendable(st, 0) == 0
    st.turn += 1  # the effect lasts one turn (renewed at each turn start while unresolved)
    assert ip_spendable(st, 0) == 5


@pytest.mark.parametrize("optional,turns", [(UP, 2), ((), 5)], ids=["under_three_turns", "off_by_default"])
def test_opt_unresolved_problems_need_the_rule_and_three_consecutive_turns(optional, turns):
    pos = make(optional)
    st = pos.state
    st.players[0].ip = 5
    st.problems = {"banking_crisis": rec(turns=turns), "agriculture_crisis": rec(turns=turns)}
    halted(pos.run("offices_phase"))
    assert ip_spendable(st, 0) == 5 and st.forced_crown == []


def test_opt_unresolved_problems_counted_from_real_attempts_and_end_when_resolved():
    pos = make(UP, minister_of_trade="41")
    st = pos.state
    st.problems = {"natural_disaster": rec(turns=0)}
    for turn in range(3):  # three Problems Phases, each attempt a natural 6 (§7.5)
        pos.dice(6)
        halted(pos.run("problems_phase"))
        halted(pos.run("unresolved_effects"))
        assert st.forced_crown == ([] if turn < 2 else ["plague"]), turn
    assert st.problems["natural_disaster"]["turns"] == 3
    st.forced_crown = []
    pos.office("minister_of_trade", "41")  # discharged by §7.8; back in office
    pos.dice(1)
    halted(pos.run("problems_phase"))  # resolved: the effect ends
    assert "natural_disaster" not in st.problems
    halted(pos.run("unresolved_effects"))
    assert st.forced_crown == [] and st.rng.scripted == []


def test_opt_unresolved_problems_b_economic_crisis_each_player_loses_one_ip():
    pos = make(UP)
    st = pos.state
    for pl, ip in zip(st.players, (3, 0, 1)):
        pl.ip = ip
    st.problems = {"economic_crisis": rec(turns=4)}  # effects continue while unresolved
    halted(pos.run("offices_phase"))
    assert [pl.ip for pl in st.players] == [2, 0, 0]


@pytest.mark.parametrize("key,event", [("agriculture_crisis", "famine"), ("natural_disaster", "plague")])
def test_opt_unresolved_problems_c_d_force_the_crown_event(key, event):
    pos = make(UP)
    st = pos.state
    st.problems = {key: rec(turns=3)}
    halted(pos.run("offices_phase"))
    assert st.forced_crown == [event]


def test_opt_unresolved_problems_c_d_cumulative_famine_and_plague_a10(monkeypatch):
    monkeypatch.setitem(OPS, "kill", recorder("kill"))
    pos = make(UP)
    st = pos.state
    st.problems = {"agriculture_crisis": rec(turns=3), "natural_disaster": rec(turns=3)}
    halted(pos.run("offices_phase"))
    assert st.forced_crown == ["famine", "plague"]
    pos.dice(1, 1, 2, 2)  # plague: counts 11 and 22
    g = pos.run("crown_phase")
    d = g.decision()
    assert d["kind"] == "crown_order"  # A10 i: the first player orders them
    g.apply(YES)
    halted(g)
    assert st.tstate["crown_events"] == ["famine", "plague"] and st.crown == "famine"


@pytest.mark.parametrize("key,problem", [("international_incident", "foreign_war"),
                                         ("townsmen_unrest", "peasant_unrest")])
def test_opt_unresolved_problems_e_g_one_political_problem_which_is_forced(key, problem):
    pos = make(UP)
    st = pos.state
    st.problems = {key: rec(turns=3)}
    halted(pos.run("offices_phase"))
    assert st.forced_crown == ["one_problem:" + problem]
    # Foreign War: no Political Problems Table roll; the Foreign War Table (3+3 = Cronos) and
    # the attempt (6 fails) follow.  Peasant Unrest: only the attempt.
    pos.dice(*((3, 3, 6) if problem == "foreign_war" else (6,)))
    g = pos.run("crown_phase")
    halted(g)
    assert problem in st.problems and st.crown == "one_problem"
    assert st.rng.scripted == []
    assert logged(st, "automatically the")


def test_opt_unresolved_problems_e_forced_problem_already_unresolved_rolls_the_table():
    pos = make(UP)
    st = pos.state
    st.problems = {"foreign_war": rec(turns=1, countries=["cronos"])}
    st.wars = ["cronos"]
    st.forced_crown = ["one_problem:foreign_war"]
    pos.dice(1, 1, 6)  # Political Problems Table 2 = Banking Crisis; the attempt fails
    halted(pos.run("crown_phase"))
    assert set(st.problems) == {"foreign_war", "banking_crisis"} and st.rng.scripted == []
    assert logged(st, "which is already unresolved: roll on the Political Problems Table instead")


def test_opt_unresolved_problems_f_foreign_war_spreads_to_every_country():
    pos = make(UP)
    st = pos.state
    st.wars = ["cronos"]
    st.problems = {"foreign_war": rec(turns=3, countries=["cronos"])}
    st.wchar("42").location = "epalin"
    halted(pos.run("offices_phase"))
    assert sorted(st.wars) == sorted(COUNTRIES)
    assert sorted(st.problems["foreign_war"]["countries"]) == sorted(COUNTRIES)
    assert logged(st, "The war spreads") and logged(st, "is stuck in Epalin")
    # every Ambassador post is now closed to appointments (§7.10.4)
    from fandonia_env.engine.chapters.offices import may_be_filled
    assert not any(may_be_filled(st, o) for o in NON_MONARCH_OFFICES if o.startswith("amb_"))


def test_opt_unresolved_problems_f_errata_expels_ambassadors_d15():
    pos = make(UP, edition="errata")
    st = pos.state
    st.wars = ["cronos"]
    st.problems = {"foreign_war": rec(turns=3, countries=["cronos"])}
    amb = next(cid for cid, c in st.chars.items() if c.office == "amb_epalin")
    halted(pos.run("offices_phase"))
    assert st.chars[amb].office is None and st.chars[amb].location == "fandonia"


def test_opt_unresolved_problems_h_errata_two_characters_accused_reroll_pc_and_repeat_d87(monkeypatch):
    monkeypatch.setitem(OPS, "accuse", recorder("accuse"))
    pos = make(UP, edition="errata")
    st = pos.state
    pcs = [pl.pc for pl in st.players]  # 44, 21, 14 with seed 1
    st.problems = {"treason_trials": rec(turns=3)}
    pc = pcs[0]
    pos.dice(int(pc[0]), int(pc[1]), 3, 1, 3, 1, 5, 2)  # a PC, 31, 31 again, 52
    halted(pos.run("offices_phase"))
    accused = [kw["cid"] for n, kw in st.tstate["calls"] if n == "accuse"]
    assert accused == ["31", "52"]
    assert st.rng.scripted == []


def test_opt_unresolved_problems_h_absent_in_1981(monkeypatch):
    monkeypatch.setitem(OPS, "accuse", recorder("accuse"))
    pos = make(UP)
    st = pos.state
    st.problems = {"treason_trials": rec(turns=3)}
    halted(pos.run("offices_phase"))
    assert "calls" not in st.tstate


# ---------------------------------------------------------------------------
# Deliberate Incompetence
# ---------------------------------------------------------------------------


def _leave(pos, *dice, informers=0):
    st = pos.state
    for q in range(st.n):  # no Informer (or 1981 Intrigue) card anywhere unless given
        pos.empty_hand(q)
    pos.give(1, *["informer"] * informers)
    pos.char("41", owner=0)
    st.problems = {"pirates": rec(turns=0)}
    pos.dice(*dice)
    g = pos.run("problems_phase")
    assert g.decision()["kind"] == "problem_leave_unresolved"
    g.apply(YES)
    return g


def test_opt_deliberate_incompetence_six_discharges_the_minister():
    pos = make(DI, minister_of_navy="41")
    g = _leave(pos, 6)
    halted(g)
    st = g.state
    assert st.chars["41"].office is None and logged(st, "is discharged (§38)")
    assert st.problems["pirates"]["minister"] is None


def test_opt_deliberate_incompetence_below_six_keeps_the_office():
    pos = make(DI, minister_of_navy="41")
    g = _leave(pos, 5)
    halted(g)
    assert g.state.chars["41"].office == "minister_of_navy" and g.state.rng.scripted == []


def test_opt_deliberate_incompetence_one_informer_adds_one():
    pos = make(DI, minister_of_navy="41")
    g = _leave(pos, 5, informers=2)
    d = g.decision()
    assert d["kind"] == "card_window" and d["player"] == 1
    g.apply(ID["play_informer"])
    while g.decision()["kind"] == "card_window":  # no second Informer may be played
        assert ID["play_informer"] not in g.decision()["options"]
        g.apply(PASS)
    halted(g)
    assert g.state.chars["41"].office is None


def test_opt_deliberate_incompetence_off_no_roll():
    pos = make(minister_of_navy="41")
    g = _leave(pos, 6)
    halted(g)
    assert g.state.chars["41"].office == "minister_of_navy" and g.state.rng.scripted == [6]
