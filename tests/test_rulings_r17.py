"""Ruling R17 (§35.4-§35.5, §16.3, §33.3): the PP limit holds at all times.  Whatever raises the
Status total a player's PP must cover - an office given in the Office Phase (paid or by the random
fill), a title, the end of a government crisis, a spouse's Status, a spouse back from prison - is
followed at once by the give-up of §35.5, before play goes on, exactly as a PP loss is (ruling R15).
A rise the player chooses himself stays legal: titles and paid offices alike.  One mechanism:
``queries.pp_limit_watch``, which the machine runs after every step."""

from __future__ import annotations

import ast
import pathlib

import pytest
from helpers import government, halted, home_position

from fandonia_env.engine.core.actions import ID, PASS, char_action
from fandonia_env.engine.core.machine import WATCHES
from fandonia_env.engine.rules.queries import pp_limit_watch, pp_required, status

ENGINE = pathlib.Path(__file__).resolve().parent.parent / "fandonia_env" / "engine"
EDITIONS = ("1981", "errata")
#: two nobles the tests give player 0 (never PCs, no office at the start): a Duke (Status 5) and a
#: Knight (Status 2)
DUKE, KNIGHT = "42", "25"


def exact(pos, p: int = 0) -> int:
    """Give player p exactly the PP his faction needs now; returns that total."""
    need = pp_required(pos.state, p)
    pos.state.players[p].pp = need
    return need


def give_up_asked(g, p: int = 0, *cids: str) -> None:
    """The pending decision is p's give-up (§35.5), among ``cids``."""
    d = g.decision()
    assert (d["player"], d["kind"]) == (p, "pp_limit_lose"), d
    assert set(d["options"]) == {char_action(c) for c in cids}


# ---------------------------------------------------------------------------
# one mechanism
# ---------------------------------------------------------------------------


def test_r17_the_machine_watches_the_pp_limit_after_every_step():
    assert WATCHES == [pp_limit_watch]


def _check_schedulers() -> set[tuple[str, str]]:
    """(module, function) of every place in the engine naming the PP limit check's operation."""
    found = set()
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value == "pp_check_all":
                found.add(path.stem)
    return found


def test_r17_no_source_schedules_the_check_itself():
    """Only the check's owner and ``queries`` (``lose_pp`` for a loss, R15; ``pp_limit_watch`` for
    anything else, R17) name it: no activity, phase or chapter schedules it on its own."""
    assert _check_schedulers() == {"queries", "usurpation"}


def test_r17_a_rise_made_outside_any_rule_is_caught_by_the_next_step():
    pos = home_position(pp=0)
    pos.char(DUKE, owner=0).char(KNIGHT, owner=0)
    exact(pos)
    pos.state.wchar(DUKE).titles += 1  # any write that raises the total
    g = pos.run("support_bonus")
    give_up_asked(g, 0, DUKE, KNIGHT)


# ---------------------------------------------------------------------------
# the Office Phase: a paid office, the random fill
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_r17_paid_office_in_the_office_phase_is_legal_and_the_give_up_follows_at_once(edition):
    pos = government(vacant=("minister_of_army", "minister_of_navy"), ip=2, keep_free=(DUKE, KNIGHT),
                     edition=edition)
    st = pos.state
    pos.char(DUKE, owner=0).char(KNIGHT, owner=0)
    exact(pos)
    g = pos.run("offices_phase")
    g.apply(ID["office_minister_of_army"])
    d = g.decision()
    assert d["kind"] == "office_fill" and char_action(DUKE) in d["options"]  # offered, PP or not
    g.apply(char_action(DUKE))
    assert st.chars[DUKE].office == "minister_of_army"
    give_up_asked(g, 0, DUKE, KNIGHT)  # before the next office is offered
    assert st.phase == "offices" and "minister_of_navy" not in {c.office for c in st.chars.values()}
    g.apply(char_action(KNIGHT))
    assert st.chars[KNIGHT].owner is None and st.players[0].pp >= pp_required(st, 0)
    assert g.decision()["kind"] in ("office_select", "office_fill", "halt")


@pytest.mark.parametrize("edition", EDITIONS)
def test_r17_random_fill_office_is_followed_by_the_give_up_in_the_office_phase(edition):
    pos = government(vacant=("high_minister",), ip=0, keep_free=("43", KNIGHT), edition=edition)
    st = pos.state
    pos.char("43", owner=1).char(KNIGHT, owner=1)
    exact(pos, 1)
    pos.dice(4, 3)  # dice count 43: Duke Henry, High Minister at no cost (§6.1.2)
    g = pos.run("offices_phase")
    assert st.chars["43"].office == "high_minister"
    give_up_asked(g, 1, "43", KNIGHT)  # the Office Phase is not over: no problem, no Crown Event yet
    assert st.phase == "offices"
    g.apply(char_action("43"))  # he may give up the new High Minister himself (§35.5, §16.6)
    halted(g)
    assert st.chars["43"].owner is None and st.chars["43"].office == "high_minister"


# ---------------------------------------------------------------------------
# titles: a voluntary rise like a paid office
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_r17_title_the_pp_cannot_cover_is_offered_and_the_give_up_follows_at_once(edition):
    pos = home_position(pp=0, ip=20, edition=edition)
    st = pos.state
    pos.char("36", owner=0).char(KNIGHT, owner=0)  # a Lord (Status 4) and a Knight
    exact(pos)
    pos.turn_state(0)
    g = pos.run("act_title", p=0)
    d = g.decision()
    assert d["kind"] == "title_character" and char_action("36") in d["options"]
    g.apply(char_action("36"))  # Lord -> Duke: Status 5, one more than the PP cover
    give_up_asked(g, 0, "36", KNIGHT)  # before the next title is chosen
    g.apply(char_action(KNIGHT))
    d = g.decision()
    assert d["kind"] == "title_character" and PASS in d["options"]
    assert st.chars[KNIGHT].owner is None and st.players[0].pp >= pp_required(st, 0)


# ---------------------------------------------------------------------------
# the end of a government crisis (§33.2.3, §33.3)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_r17_end_of_a_crisis_halved_office_holders_double_back_and_the_give_up_follows(edition):
    pos = home_position(pp=0, edition=edition)
    st = pos.state
    pos.char(DUKE, owner=0).char(KNIGHT, owner=0)
    pos.office("minister_of_army", DUKE)
    st.support = 0  # in crisis: the Minister's Status (5 + 2) is halved to 3 (§33.2.3)
    assert status(st, DUKE) == 3
    exact(pos)
    st.crown = "court_ball"
    st.problems_at_start = False
    g = pos.run("support_bonus")  # the Support rises above 0: the crisis ends (§33.3)
    assert st.support > 0 and status(st, DUKE) == 7
    give_up_asked(g, 0, DUKE, KNIGHT)


# ---------------------------------------------------------------------------
# a spouse's Status: back from prison
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_r17_spouse_back_from_prison_raises_the_status_and_the_give_up_follows(edition):
    pos = home_position(pp=0, edition=edition)
    st = pos.state
    pos.char(KNIGHT, owner=0).char("36", owner=0)
    pos.char(DUKE, imprisoned=True, wrongdoer=True)  # a neutral Duke in prison
    a, b = st.wchar(KNIGHT), st.wchar(DUKE)
    a.spouse, b.spouse = DUKE, KNIGHT
    assert status(st, KNIGHT) == 2  # no benefit from a spouse in prison (§18.9)
    exact(pos)
    g = pos.run("amnesty_all")
    assert status(st, KNIGHT) == 5
    give_up_asked(g, 0, KNIGHT, "36")


def test_r17_within_the_limit_nothing_is_asked():
    pos = home_position(pp=0)
    st = pos.state
    pos.char(DUKE, owner=0)
    pos.office("minister_of_army", DUKE)
    st.support = 0
    st.players[0].pp = 7  # covers the Minister in full too
    st.crown = "court_ball"
    st.problems_at_start = False
    g = pos.run("support_bonus")
    halted(g)
    assert st.chars[DUKE].owner == 0
