"""Errata-only rules stay out of the 1981 edition (ruling R1, the note under R19 in docs/rulings.md):
the pending-proposal lock (D56, ES §18.4.6) and the seducer's situation (D35, ES §13.4.15) are
restrictions of the Spanish text only; the English text allows both."""

from __future__ import annotations

import pytest
from helpers import home_position, logs, seduce

from fandonia_env.engine.chapters.activities import _seduce_targets, _seducers
from fandonia_env.engine.chapters.romance import pair_ok
from fandonia_env.engine.chapters.romantic_intrigue import seducers as ri_seducers
from fandonia_env.engine.core.actions import char_action
from fandonia_env.engine.face.invariants import check


def _engaged(pos, a: str, b: str) -> None:
    pos.state.wchar(a).engaged_to = b
    pos.state.wchar(b).engaged_to = a


def engaged_pos(edition: str):
    """Player 0 owns 21 and 61, engaged to each other, and 22; another game turn than the
    engagement's, so §18.4.3 stops nothing."""
    pos = home_position(pp=40, ip=20, edition=edition)
    for c in ("21", "61", "22"):
        pos.char(c, owner=0)
    _engaged(pos, "21", "61")
    pos.turn_state(0)
    pos.state.turn = 5
    return pos


# ---------------------------------------------------------------------------
# D56: an engaged character and other proposals
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("edition,allowed", [("1981", True), ("errata", False)])
def test_r1_d56_engaged_character_in_another_proposal_1981_only(edition, allowed):
    st = engaged_pos(edition).state
    assert pair_ok(st, 0, "22", "61") is allowed  # the engaged lady proposed to by another
    pos_b = engaged_pos(edition)
    pos_b.char("62", owner=0)
    assert pair_ok(pos_b.state, 0, "21", "62") is allowed  # the engaged man proposing to another


def test_r1_d56_1981_accepted_proposal_replaces_the_engagement():
    pos = engaged_pos("1981")
    st = pos.state
    pos.dice(5)
    g = pos.run("propose_start", p=0)
    g.apply(char_action("22"))  # Sir 22 proposes to the engaged lady 61 (the only lady)
    if g.decision()["kind"] == "propose_proposee":
        g.apply(char_action("61"))
    assert st.chars["22"].engaged_to == "61" and st.chars["61"].engaged_to == "22"
    assert st.chars["21"].engaged_to is None  # the earlier engagement is negated (§18.4.6)
    assert "is negated (§18.4.6)" in logs(g)
    check(st, decision=False)


def test_r1_d56_errata_engaged_lady_is_no_proposee():
    pos = engaged_pos("errata")
    st = pos.state
    assert not pair_ok(st, 0, "22", "61") and not pair_ok(st, 0, "21", "62")


# ---------------------------------------------------------------------------
# D35: a female who is imprisoned, hiding or stuck abroad as a seducer
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("situation", ["imprisoned", "hiding"])
@pytest.mark.parametrize("edition,allowed", [("1981", True), ("errata", False)])
def test_r1_d35_imprisoned_or_hiding_female_seduces_in_1981_only(edition, allowed, situation):
    pos = home_position(pp=40, ip=20, edition=edition)
    pos.char("61", owner=0, **{situation: True})
    pos.turn_state(0, intrigue=1)
    assert ("61" in _seducers(pos.state, 0)) is allowed


@pytest.mark.parametrize("edition,allowed", [("1981", True), ("errata", False)])
def test_r1_d35_female_stuck_at_war_is_a_seducer_in_1981_only(edition, allowed):
    pos = home_position(pp=40, ip=20, edition=edition)
    pos.char("61", owner=0, location="epalin")
    pos.char("21", location="epalin")
    pos.state.wars.append("epalin")
    assert ("61" in _seducers(pos.state, 0)) is allowed
    # but nobody there can be seduced: a character stuck at war is no target (§13.4.15)
    assert _seduce_targets(pos.state, 0, "61") == []


def test_r1_d35_1981_imprisoned_female_seduces_a_man_in_fandonia():
    pos = home_position(pp=40, ip=20)
    pos.char("61", owner=0, imprisoned=True, wrongdoer=True)  # Seduction Rating 3
    pos.turn_state(0, intrigue=1)
    assert "61" in _seducers(pos.state, 0) and "21" in _seduce_targets(pos.state, 0, "61")
    pos.dice(1)
    g = seduce(pos, 0, "61", "21")
    assert g.state.chars["21"].owner == 0
    check(g.state, decision=False)


@pytest.mark.parametrize("edition,allowed", [("1981", True), ("errata", False)])
def test_r1_d35_romantic_intrigue_seducers_follow_the_edition(edition, allowed):
    pos = home_position(pp=40, ip=20, edition=edition, optional=["romantic_intrigue"])
    pos.char("61", owner=0, hiding=True)
    assert ("61" in ri_seducers(pos.state, 0)) is allowed
