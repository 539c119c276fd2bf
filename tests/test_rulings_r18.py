"""Ruling R18 (§15.2, §14.2.4, §38 Clemency, D27): in the 1981 edition a Monarch's Counselor who is
imprisoned or in hiding in Fandonia keeps his card, still lets his player counsel the Monarch and
still lets him ask for Clemency; only a counselor abroad (a banished one included) is barred.  The
errata edition discards the card when he is imprisoned, banished or goes into hiding (D27)."""

from __future__ import annotations

import pytest
from helpers import MC, T, counsel_turn, halted, kind, take

from fandonia_env.engine.core.actions import YES, char_action
from fandonia_env.engine.face.invariants import check

ROLAND = "42"  # the character sent to trial in the Clemency tests

#: how the counselor is taken away from court, and whether he then still counsels (1981)
AWAY = [
    ("justice_imprison", {"execute": False}, True),
    ("justice_go_hiding", {}, True),  # in hiding in Fandonia
    ("justice_banish_apply", {"country": "epalin"}, False),  # banished: abroad
]


def away(pos, op_name: str, args: dict) -> None:
    """Send the Monarch's Counselor ``MC`` away through the justice chapters' own operation."""
    g = pos.run(op_name, cid=MC, **args)
    assert kind(g) == "halt"
    pos.state.stack.clear()


@pytest.mark.parametrize("op_name,args,counsels", AWAY)
def test_r18_1981_counselor_in_prison_or_hiding_in_fandonia_still_counsels(op_name, args, counsels):
    pos = counsel_turn()  # player 0's FAC Lord Mortimer holds a Monarch's Counselor card
    card = pos.state.chars[MC].counselor_card
    away(pos, op_name, args)
    assert pos.state.chars[MC].counselor_card == card  # §14.2.4: he keeps the card (1981)
    g = pos.run("counsel_step", p=0)
    assert (kind(g) == "counsel_table") is counsels


def test_r18_1981_imprisoned_counselor_counsels_through_himself():
    pos = counsel_turn()
    away(pos, "justice_imprison", {"execute": False})
    pos.dice(4, 4)  # 8: pleased
    g = pos.run("counsel_step", p=0)
    take(g, "counsel_table", T("court_ball"))
    d = g.decision()
    assert d["kind"] == "counsel_choice"
    g.apply(d["options"][0])
    while kind(g) != "halt":
        d = g.decision()
        g.apply(char_action(MC) if char_action(MC) in d["options"] else d["options"][0])
    assert pos.state.players[0].counsels
    check(pos.state, decision=False)


def test_r18_1981_counselor_hiding_abroad_may_not_counsel():
    pos = counsel_turn()
    pos.state.wchar(MC).location = "sandarkan"
    away(pos, "justice_go_hiding", {})
    g = pos.run("counsel_step", p=0)
    assert kind(g) == "halt"


@pytest.mark.parametrize("op_name,args,counsels", AWAY)
def test_r18_errata_counselor_away_from_court_loses_the_card_d27(op_name, args, counsels):
    pos = counsel_turn(edition="errata")
    away(pos, op_name, args)
    assert pos.state.chars[MC].counselor_card is None
    g = pos.run("counsel_step", p=0)
    assert kind(g) == "halt"


def _clemency_case(edition: str, op_name: str, args: dict):
    """Player 0's Monarch's Counselor sent away, then Duke Roland sentenced to prison (§28.6.3)."""
    pos = counsel_turn(edition=edition, optional=["clemency"])
    away(pos, op_name, args)
    pos.dice(6, 6)
    roll = {"natural": 7, "total": 7, "mod": 0, "dice": [], "negated": False, "played": {}}
    return pos, pos.run("justice_trial_result", roll=roll, cid=ROLAND)  # Imprisoned


@pytest.mark.parametrize("op_name,args,asks", AWAY)
def test_r18_1981_counselor_in_prison_or_hiding_in_fandonia_still_asks_clemency(op_name, args, asks):
    pos, g = _clemency_case("1981", op_name, args)
    d = g.decision()
    assert (d["kind"] == "clemency_ask" and d["player"] == 0) is asks
    if asks:
        g.apply(YES)  # 12: the King pardons him
        halted(g)
        assert not pos.state.chars[ROLAND].imprisoned


@pytest.mark.parametrize("op_name,args,asks", AWAY)
def test_r18_errata_counselor_away_from_court_asks_no_clemency_d27(op_name, args, asks):
    pos, g = _clemency_case("errata", op_name, args)
    assert kind(g) == "halt"


def test_r18_1981_counselor_abroad_not_banished_asks_no_clemency():
    pos = counsel_turn(optional=["clemency"])
    pos.state.wchar(MC).location = "epalin"  # travelling: abroad (§15.2)
    pos.dice(6, 6)
    roll = {"natural": 7, "total": 7, "mod": 0, "dice": [], "negated": False, "played": {}}
    g = pos.run("justice_trial_result", roll=roll, cid=ROLAND)
    assert kind(g) == "halt"
