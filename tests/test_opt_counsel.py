"""§38 optional rules of the counsel group: Additional Monarch's Counselor Powers
(``counselor_powers``) and Abdication (``abdication``)."""

from __future__ import annotations

from helpers import MC, C, T, counsel_turn, crown_farc, kind, logged, make_mc, take, under

from fandonia_env.engine.chapters.problems import roll_spec
from fandonia_env.engine.core import registry
from fandonia_env.engine.core.actions import ID, NO, PASS, SIGN_MINUS, YES
from fandonia_env.engine.core.machine import OPS
from fandonia_env.engine.data.components import NOBLES
from fandonia_env.engine.face.invariants import check


def base(optional=("counselor_powers",), edition="1981"):
    return counsel_turn(mc=False, edition=edition, optional=optional, empty_hands=True)


def counsel_pos(optional=("counselor_powers",)):
    """Player 0 counsels through his FAC Minister of Trade 42; player 1 has a Monarch's Counselor."""
    pos = base(optional)
    pos.char("42", owner=0)
    pos.office("minister_of_trade", "42")
    make_mc(pos, 1, MC)
    return pos


# ---------------------------------------------------------------------------
# counselor_powers: preventing a counsel
# ---------------------------------------------------------------------------


def test_opt_counselor_powers_opponent_with_counselor_prevents_counsel_turn_over():
    pos = counsel_pos()
    g = pos.run("counsel_step", p=0)
    take(g, "counsel_table", T("court_ball"))
    d = g.decision()
    assert d["kind"] == "counsel_prevent" and d["player"] == 1 and set(d["options"]) == {YES, NO}
    g.apply(YES)
    assert kind(g) == "halt"
    assert pos.state.players[0].counsels == {}
    assert pos.state.tstate["counsel_prevented_by"] == [1]
    assert logged(pos.state, "prevents player 0 from counseling the Monarch")
    check(pos.state, decision=False)


def test_opt_counselor_powers_declined_prevention_lets_the_counsel_go_on():
    pos = counsel_pos()
    pos.dice(3, 3)
    g = pos.run("counsel_step", p=0)
    take(g, "counsel_table", T("court_ball"))
    take(g, "counsel_prevent", NO)
    take(g, "counsel_choice", C(3))
    assert kind(g) == "halt"
    assert pos.state.players[0].counsels == {"court_ball": [3]}


def test_opt_counselor_powers_opponents_asked_in_player_order_second_may_prevent():
    pos = base()
    pos.char("42", owner=0)
    pos.office("minister_of_trade", "42")
    make_mc(pos, 1, MC)
    make_mc(pos, 2, "36")
    g = pos.run("counsel_step", p=0)
    take(g, "counsel_table", T("court_ball"))
    assert g.decision()["player"] == 1
    take(g, "counsel_prevent", NO)
    d = g.decision()
    assert d["kind"] == "counsel_prevent" and d["player"] == 2
    g.apply(YES)
    assert kind(g) == "halt"
    assert pos.state.tstate["counsel_prevented_by"] == [2]  # player 1 keeps his prevention
    assert pos.state.players[0].counsels == {}


def test_opt_counselor_powers_dead_counselor_gives_no_power():
    pos = counsel_pos()
    pos.state.wchar(MC).dead = True
    g = pos.run("counsel_step", p=0)
    take(g, "counsel_table", T("court_ball"))
    assert kind(g) == "counsel_choice"


def test_opt_counselor_powers_only_one_prevention_a_turn():
    pos = counsel_pos()
    pos.state.tstate["counsel_prevented_by"] = [1]
    g = pos.run("counsel_step", p=0)
    take(g, "counsel_table", T("court_ball"))
    assert kind(g) == "counsel_choice"


def test_opt_counselor_powers_cannot_prevent_a_player_who_has_a_counselor():
    pos = counsel_pos()
    make_mc(pos, 0, "36")
    g = pos.run("counsel_step", p=0)
    take(g, "counsel_table", T("court_ball"))
    assert kind(g) == "counsel_choice"


def test_opt_counselor_powers_off_no_prevention():
    pos = counsel_pos(optional=())
    g = pos.run("counsel_step", p=0)
    take(g, "counsel_table", T("court_ball"))
    assert kind(g) == "counsel_choice"


# ---------------------------------------------------------------------------
# counselor_powers: ±1 on political problem rolls
# ---------------------------------------------------------------------------


def test_opt_counselor_powers_counselor_modifies_problem_roll():
    pos = counsel_pos()
    st = pos.state
    st.problems = {"pirates": {"turns": 1}}
    navy = next(cid for cid, c in st.chars.items() if c.office == "minister_of_navy")
    signs = roll_spec(st, "pirates", navy)["signs"]
    assert {"player": 1, "amount": 1, "why": "Monarch's Counselor, §38"} in signs
    ability = NOBLES[navy].ability
    pos.dice(ability)  # not below the Ability Rating: unresolved without the -1
    g = pos.run("problem_roll", key="pirates", cid=navy)
    take(g, "declare_modifier", SIGN_MINUS)
    assert kind(g) == "halt"
    assert "pirates" not in st.problems
    assert logged(pos.state, "by -1 (Monarch's Counselor, §38)")


def test_opt_counselor_powers_off_no_problem_sign():
    pos = counsel_pos(optional=())
    navy = next(cid for cid, c in pos.state.chars.items() if c.office == "minister_of_navy")
    assert not any("Monarch's Counselor" in s["why"] for s in roll_spec(pos.state, "pirates", navy)["signs"])


# ---------------------------------------------------------------------------
# abdication
# ---------------------------------------------------------------------------


def farc_monarch(pos, p, cid):
    crown_farc(pos, p, cid)
    return under(pos, p, cid, f"ra_{cid}", "alignment_card")


def test_opt_abdication_legal_only_for_the_farc_monarch_player_with_the_switch():
    pos = base(optional=("abdication",))
    farc_monarch(pos, 0, "john")
    legal = registry.FREE_ACTIONS["abdicate"].legal
    assert legal(pos.state, 0)
    assert not legal(pos.state, 1)
    off = base(optional=())
    farc_monarch(off, 0, "john")
    assert not legal(off.state, 0)


def test_opt_abdication_farc_becomes_nrc_and_next_in_line_succeeds(monkeypatch):
    pos = base(optional=("abdication",))
    card = farc_monarch(pos, 0, "john")
    rec = []
    monkeypatch.setitem(OPS, "succession", lambda state: rec.append(state.monarch))
    pp, ip = pos.state.players[0].pp, pos.state.players[0].ip
    g = pos.run("abdicate_start", p=0)
    assert kind(g) == "halt"
    st = pos.state
    assert rec == ["john"]  # the §9 succession runs for the abdicated Monarch
    assert st.chars["john"].owner is None and st.chars["john"].alignment_card is None
    assert card in st.discard
    assert st.reign == {}
    assert (st.players[0].pp, st.players[0].ip) == (pp, ip)  # the player loses nothing


def test_opt_abdication_with_the_real_succession_alan_takes_the_throne():
    pos = base(optional=("abdication",))
    farc_monarch(pos, 0, "john")
    pos.run("abdicate_start", p=0)
    st = pos.state
    assert st.monarch == "alan" and st.chars["alan"].office == "monarch"
    assert st.chars["john"].owner is None and st.chars["john"].office is None and not st.chars["john"].dead


def test_opt_abdication_same_rc_next_in_line_stays_as_nrc_monarch(monkeypatch):
    pos = base(optional=("abdication",))
    card = farc_monarch(pos, 0, "alan")  # George dead: Alan is first in the order of succession
    rec = []
    monkeypatch.setitem(OPS, "succession", lambda state: rec.append(state.monarch))
    g = pos.run("abdicate_start", p=0)
    assert kind(g) == "halt"
    st = pos.state
    assert rec == []
    assert st.monarch == "alan" and st.chars["alan"].office == "monarch" and st.chars["alan"].owner is None
    assert card in st.removed
    assert logged(pos.state, "stays on the throne as a NRC Monarch")
    check(st, decision=False)


def test_opt_abdication_offered_in_turn_main():
    pos = base(optional=("abdication",))
    farc_monarch(pos, 0, "john")
    g = pos.run("turn_main", p=0)
    assert ID["free_abdicate"] in g.decision()["options"] and PASS in g.decision()["options"]
