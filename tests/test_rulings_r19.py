"""Ruling R19 (§13.1): a player performs one activity in every game turn in which his PC is
banished, imprisoned or in hiding when his Player Turn begins or becomes so during it, and in the
turn in which the PC returns to a normal situation; the next turn he has his full activities again,
wherever in the earlier turn the return happened.  Both editions alike."""

from __future__ import annotations

import pytest
from helpers import home_position

from fandonia_env.engine.chapters.turn import activities_left, end_of_turn, new_turn
from fandonia_env.engine.core.actions import ID
from fandonia_env.engine.rules.situation import imprison, restore

EDITIONS = ("1981", "errata")


def start_turn(pos) -> bool:
    """Begin player 0's Player Turn (his draws scripted away) and say whether he is held to one
    activity; the turn's bookkeeping stays for the caller, the pending steps are dropped."""
    st = pos.state
    st.players[0].opportunity_drawn = []
    pos.next_draws("opportunity", "gain_ip")  # no counter that grants activities
    pos.run("player_turn", p=0)
    return bool(st.pt["restricted"])


def end_turn(pos) -> None:
    """Close the Player Turn and the game turn (``end_of_turn``, then ``new_turn``; the steps they
    schedule are dropped)."""
    st = pos.state
    st.stack.clear()
    st.pt = {}
    st.active = None
    end_of_turn(st)
    st.stack.clear()
    new_turn(st)
    st.stack.clear()


def pc0(pos):
    return pos.state.wchar(pos.state.players[0].pc)


@pytest.mark.parametrize("edition", EDITIONS)
def test_r19_pc_out_of_hiding_in_his_own_turn_has_full_activities_the_next_turn(edition):
    """The issue's case: hiding through turn 1, out of hiding during his Player Turn of turn 2."""
    pos = home_position(edition=edition)
    c = pc0(pos)
    c.hiding, c.hid_turn = True, 0
    end_turn(pos)  # turn 1 ends with the PC in hiding
    assert start_turn(pos)  # turn 2: in hiding when his Player Turn begins
    g = pos.run("turn_main", p=0)
    g.apply(ID["free_unhide"])  # an innocent in hiding comes out (§24.8)
    assert not pos.state.chars[pos.state.players[0].pc].hiding
    assert pos.state.pt["restricted"] and activities_left(pos.state) == 1
    end_turn(pos)
    assert not start_turn(pos)  # turn 3: two activities again
    assert activities_left(pos.state) == 2


@pytest.mark.parametrize("edition", EDITIONS)
def test_r19_pc_pardoned_before_his_turn_has_one_activity_in_that_turn_only(edition):
    pos = home_position(edition=edition)
    st = pos.state
    pcid = st.players[0].pc
    imprison(st, pcid, False, "imprisoned (test)")
    end_turn(pos)  # turn 1 ends with the PC in prison
    restore(st, pcid)  # turn 2: pardoned before his Player Turn
    assert start_turn(pos)
    end_turn(pos)
    assert not start_turn(pos)


@pytest.mark.parametrize("edition", EDITIONS)
def test_r19_pc_away_and_back_before_his_turn_in_the_same_turn_has_one_activity(edition):
    """Imprisoned and pardoned in turn 2 before his Player Turn: turn 2 is the turn he returns."""
    pos = home_position(edition=edition)
    st = pos.state
    end_turn(pos)
    pcid = st.players[0].pc
    imprison(st, pcid, False, "imprisoned (test)")
    restore(st, pcid)
    assert start_turn(pos)
    end_turn(pos)
    assert not start_turn(pos)


@pytest.mark.parametrize("edition", EDITIONS)
def test_r19_pc_away_and_back_after_his_turn_keeps_full_activities_the_next_turn(edition):
    pos = home_position(edition=edition)
    st = pos.state
    assert not start_turn(pos)
    st.stack.clear()
    pcid = st.players[0].pc
    imprison(st, pcid, False, "imprisoned (test)")  # later in turn 1, after his Player Turn
    restore(st, pcid)
    end_turn(pos)
    assert not start_turn(pos)


@pytest.mark.parametrize("edition", EDITIONS)
def test_r19_pc_imprisoned_after_his_turn_has_one_activity_until_the_turn_he_returns(edition):
    pos = home_position(edition=edition)
    st = pos.state
    assert not start_turn(pos)
    st.stack.clear()
    pcid = st.players[0].pc
    imprison(st, pcid, False, "imprisoned (test)")  # after his Player Turn of turn 1
    end_turn(pos)
    assert start_turn(pos)  # turn 2: in prison
    restore(st, pcid)  # pardoned during his Player Turn
    end_turn(pos)
    assert not start_turn(pos)  # turn 3: back to normal since turn 2
