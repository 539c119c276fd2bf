"""§38 Clemency (optional rule ``clemency``) and the errata addition D93 (a FARC Monarch may
pardon a character accused of wrongdoing, A51)."""

from __future__ import annotations

from helpers import halted, justice_position, kind, logs

from fandonia_env.engine.core import registry
from fandonia_env.engine.core.actions import NO, YES
from fandonia_env.engine.data.components import CARD_TYPE_OF
from fandonia_env.engine.face.builder import Position

ROLAND, MORTIMER, DALE = "42", "35", "25"


def fresh(edition: str = "1981", optional: tuple[str, ...] = ("clemency",)) -> Position:
    return justice_position(plain=(ROLAND, MORTIMER, DALE), edition=edition, optional=list(optional))


def counselor(pos: Position, p: int, cid: str) -> None:
    """Make ``cid`` player p's FAC holding a Monarch's Counselor card."""
    pos.char(cid, owner=p)
    card = next(x for x in pos.state.deck if CARD_TYPE_OF[x] == "monarchs_counselor")
    pos.state.deck.remove(card)
    pos.state.wchar(cid).counselor_card = card


def verdict(total: int) -> dict:
    return {"natural": total, "total": total, "mod": 0, "dice": [], "negated": False, "played": {}}


def test_opt_clemency_pardon_after_imprisonment():
    pos = fresh()
    counselor(pos, 1, DALE)
    pos.dice(6, 6)
    g = pos.run("justice_trial_result", roll=verdict(7), cid=ROLAND)  # Imprisoned
    d = g.decision()
    assert d["kind"] == "clemency_ask" and d["player"] == 1
    g.apply(YES)
    halted(g)
    c = g.state.chars[ROLAND]
    assert not c.imprisoned and not c.wrongdoer and "King pardons character" in logs(g)


def test_opt_clemency_king_upset_executes_the_character():
    pos = fresh()
    counselor(pos, 1, DALE)
    pos.dice(1, 1)
    g = pos.run("justice_trial_result", roll=verdict(7), cid=ROLAND)
    g.apply(YES)
    halted(g)
    assert "King is upset" in logs(g) and ROLAND not in [c for c, x in g.state.chars.items()
                                                          if x.imprisoned]


def test_opt_clemency_overruled_banishment_becomes_imprisonment():
    pos = fresh()
    counselor(pos, 1, DALE)
    pos.dice(2, 2)
    g = pos.run("justice_trial_result", roll=verdict(4), cid=ROLAND)  # Banished
    assert kind(g) == "banish_country"
    g.apply(g.decision()["options"][0])
    g.apply(YES)
    halted(g)
    c = g.state.chars[ROLAND]
    assert c.imprisoned and not c.banished and c.location == "fandonia"


def test_opt_clemency_several_players_ask_in_player_order_results_apply_in_turn():
    pos = fresh()
    counselor(pos, 1, DALE)
    counselor(pos, 2, MORTIMER)
    pos.dice(3, 3, 4, 4, 1, 1, 1)  # p1: 6 no effect; p2: 8 new trial -> Judge 1, trial 2 -> not guilty
    g = pos.run("justice_trial_result", roll=verdict(11), cid=ROLAND)  # Awaiting Execution
    assert g.decision()["player"] == 1
    g.apply(YES)
    assert g.decision()["player"] == 2
    g.apply(YES)
    halted(g)
    c = g.state.chars[ROLAND]
    assert "King goes hunting" in logs(g) and "King grants a new trial" in logs(g)
    assert not c.imprisoned and not c.awaiting_execution and not c.wrongdoer


def test_opt_clemency_a_player_who_declines_is_not_asked_again_the_same_turn():
    pos = fresh()
    counselor(pos, 1, DALE)
    g = pos.run("justice_trial_result", roll=verdict(7), cid=ROLAND)
    g.apply(NO)
    halted(g)
    assert g.state.chars[ROLAND].imprisoned


def test_opt_clemency_off_no_request_is_offered():
    pos = fresh(optional=())
    counselor(pos, 1, DALE)
    g = pos.run("justice_trial_result", roll=verdict(7), cid=ROLAND)
    halted(g)
    assert g.state.chars[ROLAND].imprisoned


def _farc_monarch(edition: str, optional: tuple[str, ...]) -> Position:
    pos = fresh(edition, optional)
    pos.char(pos.state.monarch, owner=0)
    pos.turn_state(0)
    pos.char(ROLAND, imprisoned=True, wrongdoer=True)  # a NC prisoner
    return pos


def test_errata_d93_farc_monarch_may_pardon_any_wrongdoer_with_clemency():
    pos = _farc_monarch("errata", ("clemency",))
    act = registry.FREE_ACTIONS["farc_pardon"]
    assert act.legal(pos.state, 0)
    g = pos.run("farc_pardon_start", p=0)  # the only target: taken at once (R10)
    halted(g)
    assert "FARC Monarch pardons" in logs(g)
    assert not g.state.chars[ROLAND].imprisoned
    for edition, optional in (("errata", ()), ("1981", ("clemency",))):
        pos = _farc_monarch(edition, optional)
        assert not registry.FREE_ACTIONS["farc_pardon"].legal(pos.state, 0)


def test_opt_clemency_a_player_who_declined_may_ask_after_a_new_trial_gives_a_new_sentence():
    pos = fresh()
    counselor(pos, 1, DALE)
    counselor(pos, 2, MORTIMER)
    pos.dice(4, 4, 1, 5, 5)  # p2: 8 new trial -> Judge 1, trial 10 - 3 = 7: Imprisoned again
    g = pos.run("justice_trial_result", roll=verdict(7), cid=ROLAND)  # Imprisoned
    assert g.decision()["player"] == 1
    g.apply(NO)
    assert g.decision()["player"] == 2
    g.apply(YES)
    d = g.decision()  # the new sentence opens a new round: player 1 declined, he may ask now
    assert d["kind"] == "clemency_ask" and d["player"] == 1
    g.apply(NO)
    halted(g)  # player 2 has asked once already this turn
    assert "King grants a new trial" in logs(g) and g.state.chars[ROLAND].imprisoned


def test_opt_clemency_king_overrules_judge_awaiting_execution_becomes_plain_prisoner():
    pos = fresh()
    counselor(pos, 1, DALE)
    pos.dice(2, 3)  # 5: King overrules judge
    g = pos.run("justice_trial_result", roll=verdict(10), cid=ROLAND)  # Awaiting Execution
    assert g.state.chars[ROLAND].awaiting_execution
    g.apply(YES)
    halted(g)
    c = g.state.chars[ROLAND]
    assert c.imprisoned and not c.awaiting_execution and "King overrules judge" in logs(g)


def test_opt_clemency_only_after_banished_imprisoned_or_awaiting_execution():
    pos = fresh()
    counselor(pos, 1, DALE)
    pos.dice(1, 1)
    g = pos.run("justice_trial_result", roll=verdict(2), cid=ROLAND)  # Not Guilty: nothing to ask
    halted(g)
    assert not g.state.chars[ROLAND].wrongdoer and g.state.rng.scripted == [1, 1]
