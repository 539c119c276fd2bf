"""Optional rules of the romance group: §38 Romantic Intrigue (with errata D88-D91), the ES
seduction_failure_accused note (D92) and the ES Marriage rule (D97)."""

from __future__ import annotations

import pytest
from helpers import home_position, logs, seduce

from fandonia_env.engine import Game
from fandonia_env.engine.chapters.activities import _seduce_targets, _seducers, _treachery_targets
from fandonia_env.engine.core.actions import ID, NO, YES, char_action
from fandonia_env.engine.data.components import CARD_TYPE_OF
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.face.invariants import check

RI = "romantic_intrigue"


def fresh(**config) -> Position:
    """Everyone in Fandonia, no office but the Monarch's, empty hands, PCs 11, 12, 13; 60 PP, 20 IP."""
    return home_position(pp=60, ip=20, **config)


def ri(edition: str = "1981", extra: tuple[str, ...] = ()) -> Position:
    return fresh(edition=edition, optional=[RI, *extra])


def marry(pos: Position, a: str, b: str) -> None:
    pos.state.wchar(a).spouse = b
    pos.state.wchar(b).spouse = a


@pytest.fixture
def rec(stub_ops):
    return stub_ops("accuse")


def accused(rec) -> list[str]:
    return [a["cid"] for n, a in rec if n == "accuse"]


def ra_card(rc: str) -> str:
    return next(c for c, t in CARD_TYPE_OF.items() if t == f"ra_{rc}")


# ---------------------------------------------------------------------------
# RI 1a-1c
# ---------------------------------------------------------------------------


def test_opt_romantic_intrigue_off_female_rcs_and_males_do_not_seduce():
    pos = fresh()
    pos.char("jane", owner=0)
    pos.henchman("21", 0)
    pos.char("61", owner=0)
    pos.turn_state(0, intrigue=1)
    assert _seducers(pos.state, 0) == ["61"]
    assert "alfred" not in _seduce_targets(pos.state, 0, "61")


def test_opt_romantic_intrigue_1a_jane_seduces_nrc_on_more_than_status():
    pos = ri()
    pos.char("jane", owner=0)
    pos.turn_state(0, intrigue=1)
    assert "jane" in _seducers(pos.state, 0) and "alfred" in _seduce_targets(pos.state, 0, "jane")
    pos.dice(3, 3)  # 6 > Alfred's Status 5
    g = seduce(pos, 0, "jane", "alfred")
    assert g.state.chars["alfred"].owner == 0
    assert g.state.chars["alfred"].alignment_card is None  # 1981: no card (D88 is errata)
    check(g.state, decision=False)


def test_opt_romantic_intrigue_1a_equal_status_no_effect(rec):
    pos = ri()
    pos.char("jane", owner=0)
    pos.dice(2, 3)  # 5 = Status 5
    g = seduce(pos, 0, "jane", "alfred")
    assert g.state.chars["alfred"].owner is None and not accused(rec)


def test_opt_romantic_intrigue_1b_female_adds_rating_and_d88_takes_alignment_card():
    pos = ri("errata")
    pos.char("66", owner=0)  # Seduction Rating 6
    card = ra_card("alfred")
    pos.state.deck.remove(card)
    pos.state.players[2].hand.append(card)
    pos.dice(1)  # 1 + 6 = 7 > 5
    g = seduce(pos, 0, "66", "alfred")
    st = g.state
    assert st.chars["alfred"].owner == 0 and st.chars["alfred"].alignment_card == card
    assert card not in st.players[2].hand and "D88" in logs(g)
    check(st, decision=False)


def test_opt_romantic_intrigue_1b_less_than_status_seducer_accused(rec):
    pos = ri()
    pos.char("56", owner=0)  # rating 2
    pos.dice(1)  # 3 < Edward's 8
    g = seduce(pos, 0, "56", "edward")
    assert g.state.chars["edward"].owner is None and accused(rec) == ["56"]


def test_opt_romantic_intrigue_1c_george_thomas_and_monarch_never_seduced():
    pos = ri("errata")
    pos.char("66", owner=0)
    pos.turn_state(0, intrigue=1)
    t = _seduce_targets(pos.state, 0, "66")
    assert "george" not in t and "thomas" not in t and "alfred" in t
    pos.state.monarch = "alfred"
    assert "alfred" not in _seduce_targets(pos.state, 0, "66")


# ---------------------------------------------------------------------------
# RI 2 married characters recruited by treachery (D89)
# ---------------------------------------------------------------------------


def _married_eacs(pos: Position) -> None:
    pos.char("21", owner=1)
    pos.char("61", owner=1)
    marry(pos, "21", "61")
    pos.give(0, "treachery")
    pos.turn_state(0, intrigue=1)


def test_opt_romantic_intrigue_2_married_eac_recruited_with_spouse():
    pos = ri()
    _married_eacs(pos)
    assert "21" in _treachery_targets(pos.state, 0)
    g = pos.run("act_treachery_target", choice=char_action("21"), p=0)
    st = g.state
    assert st.chars["21"].owner == 0 and st.chars["61"].owner == 0
    check(st, decision=False)


def test_opt_romantic_intrigue_2_off_married_not_recruited():
    pos = fresh()
    _married_eacs(pos)
    assert "21" not in _treachery_targets(pos.state, 0)


def test_opt_romantic_intrigue_2_other_player_negates_with_treachery():
    pos = ri()
    _married_eacs(pos)
    pos.give(1, "treachery")
    g = pos.run("act_treachery_target", choice=char_action("21"), p=0)
    d = g.decision()
    assert d["kind"] == "card_window" and d["player"] == 1
    g.apply(ID["play_treachery"])
    assert g.state.chars["21"].owner == 1 and g.state.chars["61"].owner == 1
    assert "negated" in logs(g)


def test_opt_romantic_intrigue_2_d89_1981_informer_negates():
    pos = ri()
    _married_eacs(pos)
    pos.give(2, "informer")
    g = pos.run("act_treachery_target", choice=char_action("21"), p=0)
    assert g.decision()["kind"] == "card_window" and g.decision()["player"] == 2


def test_opt_romantic_intrigue_2_d89_errata_informer_does_not_negate():
    pos = ri("errata")
    _married_eacs(pos)
    pos.give(2, "informer")
    g = pos.run("act_treachery_target", choice=char_action("21"), p=0)
    assert g.decision()["kind"] == "halt"
    assert g.state.chars["21"].owner == 0 and g.state.chars["61"].owner == 0


# ---------------------------------------------------------------------------
# RI 3 eloping
# ---------------------------------------------------------------------------


def _proposal(pos: Position, roll: int) -> Game:
    """Player 0's FAC 21 proposes to his FAC 61, the die scripted."""
    pos.char("61", owner=0)
    pos.char("21", owner=0)
    pos.turn_state(0)
    pos.dice(roll)
    return pos.run("propose_proposee", choice=char_action("61"), p=0, a="21")


def test_opt_romantic_intrigue_3_elope_on_a_natural_six():
    g = _proposal(ri(), 6)
    assert g.decision()["kind"] == "ri_elope"
    g.apply(YES)
    st = g.state
    assert st.chars["21"].spouse == "61" and st.chars["61"].spouse == "21"
    assert g.decision()["kind"] == "ri_elope_romance"
    st.rng.script_dice([3, 4])
    g.apply(YES)
    assert "Romance Table, row 7" in logs(g)
    assert "hold_wedding" not in g.state.pt["done"]


def test_opt_romantic_intrigue_3_no_elope_below_six_or_when_off():
    g = _proposal(ri(), 5)
    assert g.decision()["kind"] == "halt" and g.state.chars["21"].engaged_to == "61"
    g = _proposal(fresh(), 6)
    assert g.decision()["kind"] == "halt" and g.state.chars["21"].spouse is None


# ---------------------------------------------------------------------------
# RI 4 male henchman seducers (D90)
# ---------------------------------------------------------------------------


def test_opt_romantic_intrigue_4_male_henchman_seduces_female_nc():
    pos = ri()
    pos.henchman("22", 0)
    pos.turn_state(0, intrigue=1)
    assert "22" in _seducers(pos.state, 0) and "11" in _seducers(pos.state, 0)
    pos.dice(4)  # 4 > Status 3
    g = seduce(pos, 0, "22", "61")
    assert g.state.chars["61"].owner == 0 and g.state.chars["61"].loyalty_counter


def test_opt_romantic_intrigue_4_failure_accuses_the_male(rec):
    pos = ri()
    pos.henchman("22", 0)
    pos.dice(3)
    g = seduce(pos, 0, "22", "61")
    assert g.state.chars["61"].owner is None and accused(rec) == ["22"]


def test_opt_romantic_intrigue_4_d90_female_rcs_only_in_errata():
    pos = ri()
    pos.turn_state(0, intrigue=1)
    assert "jane" not in _seduce_targets(pos.state, 0, "11")
    pos = ri("errata")
    pos.turn_state(0, intrigue=1)
    t = _seduce_targets(pos.state, 0, "11")
    assert "jane" in t and "catherine" not in t  # the Monarch's spouse (D90)
    pos.dice(6)  # 6 > Jane's Status
    g = seduce(pos, 0, "11", "jane")
    assert g.state.chars["jane"].owner == 0 and g.state.chars["jane"].alignment_card == ra_card("jane")


def test_opt_romantic_intrigue_d91_errata_treachery_negates_ri_seductions():
    pos = ri("errata")
    pos.char("jane", owner=0)
    pos.give(1, "treachery")
    g = seduce(pos, 0, "jane", "alfred")
    assert g.decision()["kind"] == "card_window"
    g.apply(ID["play_treachery"])
    assert g.state.chars["alfred"].owner is None and "negated" in logs(g)


def test_opt_romantic_intrigue_d91_1981_no_window_on_ri_seductions():
    pos = ri()
    pos.char("jane", owner=0)
    pos.give(1, "treachery")
    pos.dice(6, 6)
    g = seduce(pos, 0, "jane", "alfred")
    assert g.decision()["kind"] == "halt" and g.state.chars["alfred"].owner == 0


# ---------------------------------------------------------------------------
# RI 5, 6 and the closing paragraph
# ---------------------------------------------------------------------------


def test_opt_romantic_intrigue_5_married_eac_seduced_owner_shows_hand():
    pos = ri()
    pos.char("64", owner=0)  # rating 5
    pos.char("21", owner=1)
    pos.char("62", owner=1)
    marry(pos, "21", "62")
    pos.give(1, "assassination")
    pos.turn_state(0, intrigue=1)
    assert "21" in _seduce_targets(pos.state, 0, "64")
    pos.dice(1)
    g = seduce(pos, 0, "64", "21")
    assert g.state.chars["21"].owner == 0
    private = [e for e in g.state.log if e.get("to") == 0 and "hand" in e["t"]]
    assert private and "Assassination" in private[-1]["t"]


def test_opt_romantic_intrigue_5_failure_accuses_and_married_nc_is_never_a_target(rec):
    pos = ri()
    pos.char("64", owner=0)
    pos.char("21", owner=1)
    pos.char("62", owner=1)
    marry(pos, "21", "62")
    marry(pos, "22", "63")  # NCs
    pos.turn_state(0, intrigue=1)
    assert "22" not in _seduce_targets(pos.state, 0, "64")
    pos.dice(5)
    seduce(pos, 0, "64", "21")
    assert accused(rec) == ["64"]


def test_opt_romantic_intrigue_6_married_female_seduces_and_is_accused_on_failure(rec):
    pos = ri()
    pos.char("64", owner=0)
    pos.char("23", owner=0)
    marry(pos, "64", "23")
    pos.turn_state(0, intrigue=1)
    assert "64" in _seducers(pos.state, 0)
    pos.dice(5)
    seduce(pos, 0, "64", "21")
    assert accused(rec) == ["64"]


def test_opt_romantic_intrigue_closing_banished_never_seduced():
    pos = ri()
    pos.char("61", owner=0, location="cronos")
    pos.char("21", location="cronos")
    pos.turn_state(0, intrigue=1)
    assert "21" in _seduce_targets(pos.state, 0, "61")
    pos.char("21", banished=True)
    assert "21" not in _seduce_targets(pos.state, 0, "61")


# ---------------------------------------------------------------------------
# D92 seduction_failure_accused, D97 marriage
# ---------------------------------------------------------------------------


def test_opt_seduction_failure_accused_failed_seduction_accuses(rec):
    pos = fresh(edition="errata", optional=["seduction_failure_accused"])
    pos.char("56", owner=0)
    pos.dice(4)
    seduce(pos, 0, "56", "21")
    assert accused(rec) == ["56"]


def test_opt_seduction_failure_accused_off_no_accusation(rec):
    pos = fresh(edition="errata")
    pos.char("56", owner=0)
    pos.dice(4)
    seduce(pos, 0, "56", "21")
    assert accused(rec) == []


def test_opt_marriage_married_pc_rolls_twice_on_fashion():
    pos = fresh(edition="errata", optional=["marriage"])
    pos.char("61", owner=0)
    marry(pos, "11", "61")
    pos.turn_state(0)
    g = pos.run("prestige_pick", choice=ID["prestige_fashion"], p=0)
    d = g.decision()
    assert d["kind"] == "marriage_spouse"
    g.state.rng.script_dice([3, 4, 4, 4])
    g.apply(YES)
    out = logs(g)
    assert "Fashion Table, row 7" in out and "Fashion Table, row 9" in out  # second roll with +1
    assert g.state.players[0].pp == 60 + 1 + 2


def test_opt_marriage_declined_or_unmarried_rolls_once():
    pos = fresh(edition="errata", optional=["marriage"])
    pos.turn_state(0)
    pos.dice(3, 4)
    g = pos.run("prestige_pick", choice=ID["prestige_fashion"], p=0)
    assert g.decision()["kind"] == "halt" and logs(g).count("Fashion Table, row") == 1
    pos = fresh(edition="errata", optional=["marriage"])
    pos.char("61", owner=0)
    marry(pos, "11", "61")
    pos.turn_state(0)
    g = pos.run("prestige_pick", choice=ID["prestige_fashion"], p=0)
    g.state.rng.script_dice([3, 4])
    g.apply(NO)
    assert logs(g).count("Fashion Table, row") == 1


def test_opt_marriage_court_ball_rolls_twice():
    pos = fresh(edition="errata", optional=["marriage"])
    pos.char("61", owner=0)
    marry(pos, "11", "61")
    for q in (1, 2):
        pos.char(pos.state.players[q].pc, imprisoned=True)
    attendees = [cid for cid, c in pos.state.chars.items() if not c.imprisoned and not c.dead]
    g = pos.run("court_ball_next", i=0, attendees=attendees)
    assert g.decision()["kind"] == "marriage_spouse"
    g.state.rng.script_dice([3, 4, 2, 4])
    g.apply(YES)
    assert logs(g).count("Court Ball Table: player 0 rolls") == 2


def test_opt_marriage_not_in_1981_court_ball_rolls_once():
    pos = fresh()
    pos.char("61", owner=0)
    marry(pos, "11", "61")
    for q in (1, 2):
        pos.char(pos.state.players[q].pc, imprisoned=True)
    attendees = [cid for cid, c in pos.state.chars.items() if not c.imprisoned and not c.dead]
    pos.dice(3, 4)
    g = pos.run("court_ball_next", i=0, attendees=attendees)
    assert logs(g).count("Court Ball Table: player 0 rolls") == 1


# ---------------------------------------------------------------------------
# Audit (issue 5): readings checked against the texts
# ---------------------------------------------------------------------------


def test_opt_romantic_intrigue_d90_usurper_monarchs_noble_spouse_never_seduced():
    # ES closing paragraph: "El Monarca y su esposa no podrán ser seducidos" - also the noble
    # wife of a FARC who usurped the throne (she stays a FAC, not a consort), though RI 5 would
    # otherwise allow a married female EAC.
    pos = ri("errata")
    pos.char("alfred", owner=1)
    pos.char("61", owner=1)
    pos.char("62", owner=1)
    pos.char("22", owner=1)
    marry(pos, "alfred", "61")
    marry(pos, "22", "62")
    pos.state.monarch = "alfred"
    pos.turn_state(0, intrigue=1)
    t = _seduce_targets(pos.state, 0, "11")
    assert "62" in t  # a married female EAC (RI 5)
    assert "61" not in t  # the Monarch's wife


def test_opt_romantic_intrigue_2_own_pcs_spouse_recruited_back_alone():
    # RI 2: the wife of player 0's PC, now player 1's EAC, may be recruited back by treachery;
    # "both become FACs": the PC is already player 0's.
    pos = ri()
    pos.char("61", owner=1)
    marry(pos, "11", "61")
    pos.give(0, "treachery")
    pos.turn_state(0, intrigue=1)
    assert "61" in _treachery_targets(pos.state, 0)
    g = pos.run("act_treachery_target", choice=char_action("61"), p=0)
    st = g.state
    assert st.chars["61"].owner == 0 and st.chars["11"].owner == 0 and st.chars["11"].is_pc
    check(st, decision=False)


def test_opt_seduction_failure_accused_negated_seduction_is_not_a_failure(rec):
    pos = fresh(edition="errata", optional=["seduction_failure_accused"])
    pos.char("56", owner=0)
    pos.give(1, "treachery")
    g = seduce(pos, 0, "56", "21")
    assert g.decision()["kind"] == "card_window"
    g.apply(ID["play_treachery"])
    assert "negated" in logs(g) and accused(rec) == []


def test_opt_marriage_other_tables_roll_once():
    pos = fresh(edition="errata", optional=["marriage"])
    pos.char("61", owner=0)
    marry(pos, "11", "61")
    pos.turn_state(0)
    pos.dice(3, 4)
    g = pos.run("prestige_pick", choice=ID["prestige_literary"], p=0)
    assert g.decision()["kind"] == "halt" and "D97" not in logs(g)


@pytest.mark.parametrize("gone", ["imprisoned", "dead"])
def test_opt_marriage_no_second_roll_when_spouse_no_longer_along(gone):
    pos = fresh(edition="errata", optional=["marriage"])
    pos.char("61", owner=0)
    marry(pos, "11", "61")
    pos.turn_state(0)
    setattr(pos.state.chars["61"], gone, True)
    g = pos.run("marriage_prestige_second", p=0, table="fashion", spouse="61")
    assert "no second roll" in logs(g) and "Fashion Table, row" not in logs(g)
    pos = fresh(edition="errata", optional=["marriage"])
    pos.char("61", owner=0)
    marry(pos, "11", "61")
    pos.turn_state(0)
    pos.dice(3, 4)
    g = pos.run("marriage_prestige_second", p=0, table="fashion", spouse="61")
    assert "Fashion Table, row 7" in logs(g)
