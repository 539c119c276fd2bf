"""Errata edition (ruling R1), counsel group: D7/A26 Free Counsel counter, D27-D29 the Monarch's
Counselor, D48/D51/A25 henchmen, D49 Political Problems, D79/A24 crisis counseling, D80 Support
cards in a crisis, D84/A34 the FARC Monarch bonus."""

from __future__ import annotations

import pytest
from helpers import MC, C, T, counsel_turn, kind, logged, make_hm, make_mc, take

from fandonia_env.engine.chapters import activities, usurpation
from fandonia_env.engine.core.actions import PASS, char_action
from fandonia_env.engine.core.machine import OPS
from fandonia_env.engine.data.components import NOBLES
from fandonia_env.engine.face.invariants import check
from fandonia_env.engine.rules import rule_queries
from fandonia_env.engine.rules.queries import pp_required, status

HM = "41"


def pos_with(edition="errata", **kw):
    return counsel_turn(edition=edition, **kw)


# ---------------------------------------------------------------------------
# D7 / A26 the Free Counsel Opportunity counter (ES §12.3.9, §15.2)
# ---------------------------------------------------------------------------


def test_errata_d7_free_counsel_counter_lets_a_player_without_counselor_counsel():
    pos = pos_with(mc=False)
    pos.opportunity(0, "free_counsel")
    pos.dice(1, 1)  # 2: Displeased, Lose Office & Five PP - a free counsel: no effect (A26, §15.10)
    g = pos.run("counsel_step", p=0)
    take(g, "counsel_table", T("court_ball"))
    take(g, "counsel_choice", C(3))
    assert kind(g) == "halt"  # no counselor to choose: the counsel is the player's
    assert pos.state.players[0].pp == 10
    assert pos.state.players[0].counsels == {"court_ball": [3]}
    assert logged(pos.state, "Free Counsel counter")
    assert logged(pos.state, "ill effects are treated as no effect")


def test_errata_d7_free_counsel_counter_any_counsel_but_only_open_tables():
    pos = pos_with(mc=False, problems=("pirates",))
    pos.state.players[0].counsels = {"court_ball": [3]}
    pos.opportunity(0, "free_counsel")
    g = pos.run("counsel_step", p=0)
    assert set(g.decision()["options"]) == {T("court_ball"), T("pirates"), PASS}  # §15.4 still binds
    take(g, "counsel_table", T("court_ball"))
    assert C(3) in g.decision()["options"]  # §15.9 repetition rule lifted (A26)


def test_errata_d7_without_the_counter_no_counsel():
    pos = pos_with(mc=False)
    pos.opportunity(0, "gain_ip")
    g = pos.run("counsel_step", p=0)
    assert kind(g) == "halt"


def test_errata_d7_declining_the_counter_counsel_is_not_told_to_others():
    pos = pos_with(mc=False)
    pos.opportunity(0, "free_counsel")
    g = pos.run("counsel_step", p=0)
    take(g, "counsel_table", PASS)
    entry = next(e for e in pos.state.log if "does not counsel" in e["t"])
    assert entry["to"] == 0  # the counter is hidden: a public line would reveal it
    pub = pos_with()  # a Monarch's Counselor is public: the refusal stays public
    g = pub.run("counsel_step", p=0)
    take(g, "counsel_table", PASS)
    assert next(e for e in pub.state.log if "does not counsel" in e["t"])["to"] is None


def test_errata_d7_counter_in_a_famine_ban_logged_privately():
    pos = pos_with(crown="famine", mc=False, problems=("pirates",))
    pos.opportunity(0, "free_counsel")
    g = pos.run("counsel_step", p=0)
    assert kind(g) == "halt"
    entry = next(e for e in pos.state.log if "No counseling is allowed" in e["t"])
    assert entry["to"] == 0 and not pos.state.tstate.get("counsel_ban_logged")


# ---------------------------------------------------------------------------
# D27 the Monarch's Counselor card is discarded away from court
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("op_name,args,why", [
    ("justice_imprison", {"execute": False}, "imprisoned"),
    ("justice_banish_apply", {"country": "epalin"}, "banished"),
    ("justice_go_hiding", {}, "in hiding"),
])
def test_errata_d27_counselor_card_discarded_when_imprisoned_banished_or_hiding(op_name, args, why):
    pos = pos_with()
    card = pos.state.chars[MC].counselor_card
    g = pos.run(op_name, cid=MC, **args)
    assert kind(g) == "halt"
    assert pos.state.chars[MC].counselor_card is None and card in pos.state.discard
    assert logged(pos.state, f"is {why}: his 'Monarch's Counselor' card is discarded")
    check(pos.state, decision=False)


def test_errata_d27_1981_keeps_the_card_in_prison():
    pos = pos_with(edition="1981")
    card = pos.state.chars[MC].counselor_card
    pos.run("justice_imprison", cid=MC, execute=False)
    assert pos.state.chars[MC].counselor_card == card


def test_errata_d27_character_away_from_court_cannot_become_counselor():
    pos = pos_with(mc=False)
    pos.char("36", owner=0, imprisoned=True, wrongdoer=True)
    pos.char("42", owner=0)
    cands = activities._counselor_candidates(pos.state, 0)
    assert "42" in cands and "36" not in cands


# ---------------------------------------------------------------------------
# D28 +2 Status (A18)
# ---------------------------------------------------------------------------


def test_errata_d28_counselor_card_gives_plus_two_status():
    printed = NOBLES[MC].status
    assert status(pos_with().state, MC) == printed + 2
    assert status(pos_with(edition="1981").state, MC) == printed


def test_errata_d28_status_bonus_counts_toward_pp_limit():
    pos = pos_with(mc=False)
    pos.char(MC, owner=0)
    before = pp_required(pos.state, 0)
    make_mc(pos, 0, MC)
    assert pp_required(pos.state, 0) == before + 2


# ---------------------------------------------------------------------------
# D29 a henchman may be a Monarch's Counselor and vice versa (A58)
# ---------------------------------------------------------------------------


def test_errata_d29_henchman_may_become_counselor_and_counselor_henchman():
    pos = pos_with()
    make_hm(pos, 0, HM)
    assert HM in activities._counselor_candidates(pos.state, 0)
    assert MC in activities._henchman_candidates(pos.state, 0)
    old = pos_with(edition="1981")
    make_hm(old, 0, HM)
    assert HM not in activities._counselor_candidates(old.state, 0)
    assert MC not in activities._henchman_candidates(old.state, 0)


# ---------------------------------------------------------------------------
# D48 / D51 / A25 henchmen do not counsel
# ---------------------------------------------------------------------------


def test_errata_d48_henchman_cannot_stand_in_for_the_counselor():
    pos = pos_with()
    make_hm(pos, 0, HM)
    pos.dice(3, 3)
    g = pos.run("counsel_step", p=0)
    take(g, "counsel_table", T("court_ball"))
    take(g, "counsel_choice", C(3))
    assert kind(g) == "halt"  # only the Monarch's Counselor may speak: chosen without asking
    assert logged(pos.state, f"Player 0's {NOBLES[MC].name} counsels the Monarch")
    assert not logged(pos.state, "henchman")


def test_errata_d51_henchman_alone_cannot_counsel():
    pos = pos_with(mc=False)
    make_hm(pos, 0, HM)
    g = pos.run("counsel_step", p=0)
    assert kind(g) == "halt"


def test_errata_d48_a25_henchman_who_is_counselor_counsels_in_his_own_right():
    pos = pos_with(mc=False)
    make_hm(pos, 0, HM)
    make_mc(pos, 0, HM)
    pos.dice(1, 2)  # 3: Displeased, he loses his own card
    g = pos.run("counsel_step", p=0)
    take(g, "counsel_table", T("court_ball"))
    take(g, "counsel_choice", C(3))
    assert kind(g) == "halt"
    assert pos.state.chars[HM].counselor_card is None


# ---------------------------------------------------------------------------
# D49 the 'Political Problems' Crown result opens no table once resolved
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("crown", ["one_problem", "two_problems"])
def test_errata_d49_political_problems_crown_resolved_gives_no_counsel(crown):
    pos = pos_with(crown=crown)
    g = pos.run("counsel_step", p=0)
    assert kind(g) == "halt"


def test_errata_d49_unresolved_problem_table_still_open():
    pos = pos_with(crown="one_problem", problems=("pirates",))
    g = pos.run("counsel_step", p=0)
    assert set(g.decision()["options"]) == {T("pirates"), PASS}


# ---------------------------------------------------------------------------
# D79 / A24 counseling in a crisis at -1
# ---------------------------------------------------------------------------


def test_errata_d79_counsel_allowed_in_crisis_with_minus_one():
    pos = pos_with()
    pos.state.support = 0
    pos.dice(4, 5)  # 9 - 1 = 8: pleased, One PP (not accepted)
    g = pos.run("counsel_step", p=0)
    take(g, "counsel_table", T("court_ball"))
    take(g, "counsel_choice", C(3))
    assert kind(g) == "halt"
    assert pos.state.players[0].pp == 11
    assert logged(pos.state, "-1 to the counseling roll (ES §33.2.4)")
    assert logged(pos.state, "Counseling Results Table row 8")


def test_errata_d79_1981_crisis_still_forbids_counsel():
    pos = pos_with(edition="1981")
    pos.state.support = 0
    g = pos.run("counsel_step", p=0)
    assert kind(g) == "halt" and logged(pos.state, "No counseling is allowed")


def test_errata_d79_famine_still_forbids_counsel():
    pos = pos_with(crown="famine", problems=("pirates",))
    g = pos.run("counsel_step", p=0)
    assert kind(g) == "halt"


# ---------------------------------------------------------------------------
# D80 / A53 Support cards at their maximum value in a crisis
# ---------------------------------------------------------------------------


def test_errata_d80_support_cards_boosted_in_crisis_caps_still_win():
    pos = pos_with()
    st = pos.state
    st.support = 0
    assert usurpation.support_multiplier(st, 0, "peasant_support")[0] == 8
    assert usurpation.support_multiplier(st, 0, "clergy_support")[0] == 3
    st.problems = {"pirates": {"turns": 1}}
    assert usurpation.support_multiplier(st, 0, "navy_support")[0] == rule_queries.NAVY_PIRATES_MULT
    st.support = 40
    assert usurpation.support_multiplier(st, 0, "clergy_support")[0] == 2
    old = pos_with(edition="1981").state
    old.support = 0
    assert usurpation.support_multiplier(old, 0, "peasant_support")[0] == 4


# ---------------------------------------------------------------------------
# D84 / A34 the FARC Monarch bonus
# ---------------------------------------------------------------------------


def _success(monkeypatch, edition):
    pos = pos_with(edition=edition, mc=False)
    st = pos.state
    st.wchar("john").dead = False
    pos.char("john", owner=0)
    rec = []

    def kill(state, cid, cause):
        rec.append(cid)
        state.wchar(cid).dead = True
        state.wchar(cid).office = None

    def go(state):
        usurpation._success(state, 0, "john", 40, 20, None)

    monkeypatch.setitem(OPS, "kill", kill)
    monkeypatch.setitem(OPS, "t_usurp_success", go)
    pl = st.players[0]
    before = (pl.pp, pl.ip)
    g = pos.run("t_usurp_success")
    assert kind(g) == "halt" and rec == ["george"]
    return pos, before


def test_errata_d84_farc_monarch_bonus_ten_pp_ten_ip_once(monkeypatch):
    pos, (pp, ip) = _success(monkeypatch, "errata")
    pl = pos.state.players[0]
    assert (pl.pp, pl.ip) == (pp + 10, ip + 10)
    assert logged(pos.state, "FARC Monarch bonus, ES §36.10.6")
    assert pp_required(pos.state, 0) == 0  # the FARC Monarch does not count (ES §36.10.6)
    assert pos.state.monarch == "john"


def test_errata_d84_1981_no_bonus(monkeypatch):
    pos, before = _success(monkeypatch, "1981")
    pl = pos.state.players[0]
    assert (pl.pp, pl.ip) == before


def test_errata_d48_henchman_stand_in_kept_in_1981():
    """Guard: the 1981 stand-in is still offered (D48 is errata-only)."""
    pos = pos_with(edition="1981")
    make_hm(pos, 0, HM)
    pos.dice(3, 3)
    g = pos.run("counsel_step", p=0)
    take(g, "counsel_table", T("court_ball"))
    take(g, "counsel_choice", C(3))
    assert set(g.decision()["options"]) == {char_action(MC), char_action(HM)}
