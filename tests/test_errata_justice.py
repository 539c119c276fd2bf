"""Errata edition, justice group: wrongdoers abroad (ES §20.8, D62, A31), NCs and hiding
(ES §24.7, D64), the rewritten extradition chapter (ES §25, D66-D74, ruling R2, A30),
banishment with every country at war (ES §29.1, D75) and death in prison (ES §30.10, D76)."""

from __future__ import annotations

from helpers import halted, justice_position, kind, logs, pc

from fandonia_env.engine.chapters import turn
from fandonia_env.engine.chapters.counsel import _extraditable, _extradite
from fandonia_env.engine.chapters.hiding import _hideable
from fandonia_env.engine.core import registry
from fandonia_env.engine.core.actions import ID, NO, PASS, YES, char_action
from fandonia_env.engine.data.components import CARD_TYPE_OF, COUNTRIES
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.face.invariants import check

ROLAND, MORTIMER, DALE = "42", "35", "25"


def fresh(edition: str = "errata", players: int = 3) -> Position:
    """Empty hands, no Minister Of Justice, no Ambassadors, three plain nobles in Fandonia."""
    return justice_position(players, plain=(ROLAND, MORTIMER, DALE), edition=edition,
                            vacant=("minister_of_justice", "amb_sandarkan", "amb_epalin", "amb_cronos",
                                    "amb_city_states", "amb_besyzan"))


def holding(card: str, intrigue: int = 0, edition: str = "errata") -> Position:
    """Player 1's turn (``intrigue`` Intrigue counters), player 1 holding a ``card`` card."""
    pos = fresh(edition)
    pos.turn_state(1, intrigue=intrigue)
    pos.give(1, card)
    return pos


def fugitive(pos: Position, cid: str, owner: int | None, *, hiding: bool, where: str = "cronos",
             fate: str = "hearing") -> None:
    """A wrongdoer abroad (hiding or living openly) who fled a hearing (or a trial)."""
    pos.char(cid, owner=owner, wrongdoer=True, hiding=hiding, location=where)
    pos.state.misc.setdefault("justice_fate", {})[cid] = fate


# ---------------------------------------------------------------------------
# D62 / A31: ES §20.8 wrongdoers living abroad
# ---------------------------------------------------------------------------


def test_errata_d62_escaped_prisoner_may_live_openly_abroad():
    pos = fresh()
    pos.turn_state(1)
    pos.char(ROLAND, owner=1, imprisoned=True, wrongdoer=True)
    pos.give(1, "escape")
    g = pos.run("justice_escape", p=1)
    g.apply(ID["country_cronos"])
    d = g.decision()
    assert d["kind"] == "escape_hide_choice" and d["player"] == 1
    g.apply(NO)
    halted(g)
    c = g.state.chars[ROLAND]
    assert not c.hiding and c.location == "cronos" and c.escaped and not c.imprisoned
    assert "lives openly in Cronos" in logs(g)


def test_errata_d62_unhiding_abroad_may_stay_living_openly_or_return_to_a_hearing():
    pos = fresh()
    pos.turn_state(1)
    fugitive(pos, ROLAND, 1, hiding=True)
    g = pos.run("justice_unhide", p=1)
    assert kind(g) == "unhide_abroad"
    g.apply(YES)
    halted(g)
    c = g.state.wchar(ROLAND)
    assert not c.hiding and c.location == "cronos" and c.wrongdoer
    # a wrongdoer living openly abroad may hide there again (§20.8) - not in the same turn (§24.2)
    c.hid_turn = 0
    g.state.turn += 1
    assert _hideable(g.state, 1, ROLAND, c)
    g.state.config["edition"] = "1981"
    assert not _hideable(g.state, 1, ROLAND, c)

    pos = fresh()
    pos.turn_state(1)
    fugitive(pos, ROLAND, 1, hiding=True)
    pos.dice(1, 1)  # the hearing: 2 - 1 (no Evidence) < Status
    g = pos.run("justice_unhide", p=1)
    g.apply(NO)
    halted(g)
    c = g.state.chars[ROLAND]
    assert c.location == "fandonia" and not c.wrongdoer and "Hearing of" in logs(g)


def test_errata_d62_a31_pc_living_abroad_has_one_activity_unless_extra_activity():
    pos = fresh()
    me = pc(pos, 1)
    fugitive(pos, me, 1, hiding=False)
    pos.turn_state(1)
    pos.run("justice_es_turn_start", p=1)
    assert turn.activities_left(pos.state) == 1
    pos.state.pt["extra"] += 1  # an Extra Activity counter or card
    assert turn.activities_left(pos.state) == 2
    # the 1981 edition has no such limit
    pos = fresh("1981")
    me = pc(pos, 1)
    pos.char(me, wrongdoer=True, location="cronos")
    pos.turn_state(1)
    pos.run("justice_es_turn_start", p=1)
    assert turn.activities_left(pos.state) == 2


def test_errata_d62_wrongdoer_living_abroad_who_visits_fandonia_faces_justice():
    pos = fresh()
    fugitive(pos, ROLAND, 1, hiding=False)
    pos.turn_state(1)
    pos.dice(1, 1)  # the hearing he fled
    g = pos.run("act_travel", p=1)
    while kind(g) != "halt":
        d = g.decision()
        if d["kind"] == "travel_character":
            g.apply(char_action(ROLAND) if char_action(ROLAND) in d["options"] and
                    g.state.chars[ROLAND].location != "fandonia" else PASS)
        elif d["kind"] == "travel_destination":
            g.apply(ID["country_fandonia"])
        else:
            raise AssertionError(d)
    check(g.state)
    assert "faces Fandonian justice" in logs(g) and "Hearing of" in logs(g)
    assert g.state.chars[ROLAND].location == "fandonia"


# ---------------------------------------------------------------------------
# D64: ES §24.7 a NC cannot hide
# ---------------------------------------------------------------------------


def test_errata_d64_nc_sent_to_a_hearing_cannot_hide():
    pos = fresh()
    pos.dice(5, 1, 1)  # accused (5 >= Status 5), then the hearing 2 - 1 < 5
    g = pos.run("accuse", cid=ROLAND)
    halted(g)  # no hide_from_hearing decision
    assert not g.state.chars[ROLAND].hiding and "Hearing of" in logs(g)
    pos = fresh("1981")
    pos.dice(5)
    g = pos.run("accuse", cid=ROLAND)
    assert kind(g) == "hide_from_hearing"


def test_errata_d64_fac_in_hiding_who_becomes_nc_comes_out_and_faces_the_hearing():
    pos = fresh()
    pos.char(ROLAND, owner=1, hiding=True, wrongdoer=True, hid_turn=0)
    pos.state.misc["justice_fate"] = {ROLAND: "hearing"}
    pos.dice(1, 1)
    g = pos.run("release", cid=ROLAND)
    halted(g)
    c = g.state.chars[ROLAND]
    assert c.owner is None and not c.hiding and "cannot hide" in logs(g) and "Hearing of" in logs(g)
    # an innocent FAC in hiding just comes out
    pos = fresh()
    pos.char(DALE, owner=1, hiding=True, hid_turn=0)
    g = pos.run("release", cid=DALE)
    halted(g)
    assert not g.state.chars[DALE].hiding and "Hearing" not in logs(g)


# ---------------------------------------------------------------------------
# D66-D74: ES §25 extradition
# ---------------------------------------------------------------------------


def test_errata_d66_no_extradition_from_hiding_in_fandonia_nor_of_the_banished():
    for edition, legal in (("errata", False), ("1981", True)):
        pos = fresh(edition)
        pos.turn_state(1)
        pos.give(1, "extradition")
        pos.char(ROLAND, hiding=True, wrongdoer=True)
        assert registry.ACTIVITIES["extradite"].legal(pos.state, 1) is legal
    pos = holding("extradition")
    pos.char(ROLAND, banished=True, wrongdoer=True, location="cronos")
    assert not registry.ACTIVITIES["extradite"].legal(pos.state, 1)
    fugitive(pos, MORTIMER, 2, hiding=False)  # living openly abroad: yes (ES §25.1)
    assert registry.ACTIVITIES["extradite"].legal(pos.state, 1)


def _veto_position() -> Position:
    pos = holding("extradition")
    fugitive(pos, MORTIMER, 2, hiding=False)
    pos.char(DALE, owner=0)
    pos.office("amb_cronos", DALE)  # player 0's FAC is the Ambassador to Cronos
    return pos


def test_errata_d67_living_abroad_eac_is_extradited_unless_a_fac_ambassador_vetoes():
    g = _veto_position().run("justice_extradite", p=1)
    d = g.decision()
    assert d["kind"] == "extradition_veto" and d["player"] == 0
    g.apply(YES)
    halted(g)
    c = g.state.chars[MORTIMER]
    assert c.location == "cronos" and c.wrongdoer and "vetoes" in logs(g)
    assert "extradition" not in [CARD_TYPE_OF[x] for x in g.state.players[1].hand]  # the card is spent

    pos = _veto_position()
    pos.dice(1, 1)
    g = pos.run("justice_extradite", p=1)
    g.apply(NO)
    halted(g)  # no chance to hide (ES §25.2)
    c = g.state.chars[MORTIMER]
    assert c.location == "fandonia" and not c.hiding and "Hearing of" in logs(g)


def test_errata_d68_extradition_with_intrigue_cannot_be_vetoed():
    pos = _veto_position()
    pos.give(1, "intrigue")
    pos.dice(1, 1)
    g = pos.run("justice_extradite", p=1)
    d = g.decision()
    assert d["kind"] == "extradite_intrigue" and ID["play_intrigue"] in d["options"]
    g.apply(ID["play_intrigue"])
    halted(g)  # no veto asked
    assert g.state.chars[MORTIMER].location == "fandonia" and "Hearing of" in logs(g)


def test_errata_d69_extradition_by_counsel_no_veto_even_from_hiding_abroad():
    pos = _veto_position()
    fugitive(pos, ROLAND, 2, hiding=True, where="cronos")
    assert set(_extraditable(pos.state)) == {MORTIMER, ROLAND}
    assert _extradite(pos.state, ROLAND) == [("justice_es_extradite_counsel", {"cid": ROLAND})]
    pos.dice(1, 1)
    g = pos.run("justice_es_extradite_counsel", cid=ROLAND)
    halted(g)
    c = g.state.chars[ROLAND]
    assert c.location == "fandonia" and not c.hiding and "Hearing of" in logs(g)


def test_errata_d70_a30_extradition_alone_against_a_fugitive_hiding_abroad_has_no_effect():
    pos = holding("extradition")
    fugitive(pos, ROLAND, 2, hiding=True)
    g = pos.run("justice_extradite", p=1)
    halted(g)
    c = g.state.chars[ROLAND]
    assert c.hiding and c.location == "cronos" and "no effect (A30)" in logs(g)
    assert "Persecution" in logs(g)  # said plainly: absent (R2)
    # with an Intrigue counter it succeeds as in the 1981 rules (A30's fallback)
    pos = holding("extradition", intrigue=1)
    fugitive(pos, ROLAND, 2, hiding=True)
    pos.dice(1, 1)
    g = pos.run("justice_extradite", p=1)
    assert kind(g) == "extradite_intrigue"
    g.apply(YES)
    halted(g)
    assert g.state.chars[ROLAND].location == "fandonia" and g.state.pt["intrigue"] == 0


def test_errata_d71_fugitive_hiding_abroad_may_escape_to_another_country():
    pos = holding("escape")
    fugitive(pos, ROLAND, 1, hiding=True)
    assert registry.ACTIVITIES["escape"].legal(pos.state, 1)
    g = pos.run("justice_escape", p=1)
    d = g.decision()
    assert d["kind"] == "escape_country" and ID["country_cronos"] not in d["options"]
    g.apply(ID["country_epalin"])
    halted(g)
    c = g.state.chars[ROLAND]
    assert c.hiding and c.location == "epalin"
    pos = holding("escape", edition="1981")
    pos.char(ROLAND, owner=1, wrongdoer=True, hiding=True, location="cronos")
    assert not registry.ACTIVITIES["escape"].legal(pos.state, 1)


def test_errata_d72_captured_fugitive_goes_to_the_trial_he_fled():
    pos = fresh()
    me = pc(pos, 2)
    pos.char(me, hiding=True, location="cronos", hid_turn=0)
    g = pos.run("to_trial", cid=me)  # in hiding: does not go, a wrongdoer
    halted(g)
    assert g.state.misc["justice_fate"][me] == "trial"
    pos.turn_state(1, intrigue=1)
    pos.give(1, "extradition")
    pos.dice(1, 1, 1)  # the Judge, then the trial 2 - 3 -> Not Guilty
    g = pos.run("justice_extradite", p=1)
    g.apply(YES)
    halted(g)
    assert "goes to the trial he fled" in logs(g) and "Trial of" in logs(g) and "Hearing of" not in logs(g)
    assert g.state.chars[me].location == "fandonia" and not g.state.chars[me].wrongdoer


def test_errata_d73_no_foreign_crimes_nor_persecution_a_fugitive_hiding_abroad_stays():
    pos = fresh()
    pos.char(ROLAND, owner=1, location="cronos")
    pos.dice(6)
    g = pos.run("accuse", cid=ROLAND)
    g.apply(YES)  # hides abroad to avoid the hearing
    halted(g)
    c = g.state.chars[ROLAND]
    assert c.hiding and c.location == "cronos" and c.wrongdoer
    assert g.state.misc["justice_fate"][ROLAND] == "hearing"


def test_errata_d74_no_extradition_in_a_country_at_war():
    pos = holding("extradition")
    fugitive(pos, ROLAND, 2, hiding=False)
    assert registry.ACTIVITIES["extradite"].legal(pos.state, 1)
    pos.state.wars.append("cronos")
    assert not registry.ACTIVITIES["extradite"].legal(pos.state, 1)
    assert _extraditable(pos.state) == []
    g = pos.run("justice_es_extradite_counsel", cid=ROLAND)
    halted(g)
    assert g.state.chars[ROLAND].location == "cronos" and "no effect" in logs(g)


# ---------------------------------------------------------------------------
# D75, D76
# ---------------------------------------------------------------------------


def test_errata_d75_banishment_with_every_country_at_war_is_imprisonment():
    pos = fresh()
    pos.state.wars.extend(COUNTRIES)
    roll = {"natural": 4, "total": 4, "mod": 0, "dice": [2, 2], "negated": False, "played": {}}
    g = pos.run("justice_trial_result", roll=roll, cid=ROLAND)
    halted(g)
    c = g.state.chars[ROLAND]
    assert c.imprisoned and not c.banished and c.location == "fandonia" and "D75" in logs(g)


def _prisoner(edition: str = "errata") -> Position:
    pos = fresh(edition)
    pos.char(ROLAND, owner=1, imprisoned=True, wrongdoer=True, situation_turns=1)
    for pl in pos.state.players:
        pl.ip = 3
    return pos


def test_errata_d76_one_ip_subtracts_two_from_the_prison_death_roll():
    pos = _prisoner()
    pos.dice(6, 6)
    g = pos.run("justice_prison_deaths", p=1)
    d = g.decision()
    assert d["kind"] == "prison_death_pay" and d["player"] == 0  # player order (A11)
    g.apply(NO)
    assert g.decision()["player"] == 1
    g.apply(YES)
    halted(g)  # one payment closes the window
    assert not g.state.chars[ROLAND].dead and g.state.players[1].ip == 2
    assert "12 -2 = 10" in logs(g)


def test_errata_d76_nobody_pays_and_12_kills():
    pos = _prisoner()
    pos.dice(6, 6)
    g = pos.run("justice_prison_deaths", p=1)
    for _ in range(3):
        g.apply(NO)
    assert "dies in prison" in logs(g)
    # the 1981 edition offers no payment
    pos = _prisoner("1981")
    pos.dice(6, 6)
    g = pos.run("justice_prison_deaths", p=1)
    assert "dies in prison" in logs(g)


def test_errata_d72_captured_fugitive_awaiting_execution_is_executed_escaped_prisoner_reimprisoned():
    # a prisoner awaiting execution who escaped and lives openly abroad, extradited: executed (ES §25.10)
    pos = holding("extradition")
    pos.char(ROLAND, owner=2, wrongdoer=True, awaiting_execution=True, location="cronos")
    g = pos.run("justice_extradite", p=1)
    halted(g)
    assert g.state.chars[ROLAND].dead and "executed at once" in logs(g)  # and removed (D77)
    # an escaped prisoner living openly abroad: imprisoned again, no hearing
    pos = holding("extradition")
    pos.char(ROLAND, owner=2, wrongdoer=True, escaped=True, location="cronos")
    g = pos.run("justice_extradite", p=1)
    halted(g)
    c = g.state.chars[ROLAND]
    assert c.imprisoned and not c.escaped and c.location == "fandonia" and "Hearing of" not in logs(g)


def test_errata_d72_captured_escaped_prisoner_holding_an_office_loses_it():
    # an escaped prisoner living openly abroad who was given an office meanwhile (ES §20.8: treated
    # as any character abroad) is imprisoned again when captured and leaves the office (§30.4)
    pos = holding("extradition")
    pos.char(ROLAND, wrongdoer=True, escaped=True, location="cronos")
    pos.office("high_minister", ROLAND)
    pos.state.wchar(ROLAND).location = "cronos"
    g = pos.run("justice_extradite", p=1)
    halted(g)
    c = g.state.chars[ROLAND]
    assert c.imprisoned and c.office is None and "High Minister" in logs(g)
    assert not any(x.office == "high_minister" for x in g.state.chars.values())


def test_errata_d62_wrongdoer_living_abroad_may_not_be_given_an_office():
    from fandonia_env.engine.chapters import offices
    from fandonia_env.engine.data.components import OFFICE_ELIGIBLE
    from fandonia_env.engine.face.builder import Position

    pos = Position(players=3, seed=4, edition="errata")
    st = pos.state
    cid = next(c for c in OFFICE_ELIGIBLE if st.chars[c].owner is None and st.chars[c].office is None
               and not st.chars[c].dead)
    c = st.wchar(cid)
    c.location = "cronos"
    assert offices.eligible(st, cid)
    c.escaped = True  # an escaped prisoner living openly abroad (ES §20.8, §24.7)
    assert not offices.eligible(st, cid)
    c.escaped, c.wrongdoer = False, True
    assert not offices.eligible(st, cid)
    c.location = "fandonia"
    assert offices.eligible(st, cid)  # the 1981 rules for a wrongdoer at home are unchanged
