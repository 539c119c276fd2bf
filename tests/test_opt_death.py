"""Optional rules of §38 about deaths: Funerals and Shorter Game b (1981 only, D98)."""

from __future__ import annotations

from helpers import empty_handed, halted, kind, logs_for, numbered_nc

from fandonia_env.engine.chapters.death import removed_characters
from fandonia_env.engine.core.actions import NO, YES
from fandonia_env.engine.face.builder import Position


def fresh(players: int = 3, seed: int = 1, **config) -> Position:
    pos = empty_handed(players, seed, **config)
    for p in range(players):
        pos.player(p, pp=10, ip=10)
    return pos


def attend(g, *answers: int) -> None:
    for a in answers:
        d = g.decision()
        assert d["kind"] == "funeral_attend", d
        g.apply(a)


# ---------------------------------------------------------------------------
# §38 Funerals
# ---------------------------------------------------------------------------


def test_opt_funerals_players_decide_in_player_order_then_attendees_roll():
    pos = fresh(optional=["funerals"])
    cid = numbered_nc(pos, 11, 44)
    pos.dice(6, 6, 4, 5)  # player 0: 12 Promised Vengeance (+4 PP); player 2: 9 Console Bereaved
    g = pos.run("kill", cid=cid, cause="duel")
    seen = []
    for a in (YES, NO, YES):
        seen.append(g.decision()["player"])
        attend(g, a)
    assert seen == [0, 1, 2]
    halted(g)
    pls = g.state.players
    assert (pls[0].pp, pls[0].ip) == (14, 10)
    assert (pls[1].pp, pls[1].ip) == (10, 10)
    assert (pls[2].pp, pls[2].ip) == (11, 11)
    assert "Funeral Table" in logs_for(g) and "Promised Vengeance" in logs_for(g)


def test_opt_funerals_follow_this_turns_player_order():
    pos = fresh(optional=["funerals"], first=2)
    g = pos.run("kill", cid="john", cause="test")  # a RC's death has a funeral too
    seen = []
    for _ in range(3):
        seen.append(g.decision()["player"])
        attend(g, NO)
    assert seen == [2, 0, 1]
    halted(g)
    assert "Nobody attends the funeral" in logs_for(g)


def test_opt_funerals_losses_rows_3_4():
    pos = fresh(optional=["funerals"])
    pos.dice(1, 2, 2, 2)  # player 0: 3 Laughed At Corpse -2 PP; player 1: 4 Improper Attire -1 PP
    g = pos.run("kill", cid=numbered_nc(pos, 45, 55), cause="test")
    attend(g, YES, YES, NO)
    halted(g)
    assert g.state.players[0].pp == 8 and g.state.players[1].pp == 9


def test_opt_funerals_row_2_attending_pc_rolls_on_scandal_table():
    pos = fresh(optional=["funerals"])
    me = pos.state.players[1].pc
    pos.dice(1, 1, 3, 4)  # funeral 2 -> scandal of player 1's PC; scandal 7: no effect
    g = pos.run("kill", cid=numbered_nc(pos, 11, 44), cause="test")
    attend(g, NO, YES, NO)
    halted(g)
    text = logs_for(g)
    assert "object of a scandal (Funeral Table)" in text and "Scandal Table 7" in text
    assert text.index("Funeral Table at the funeral") < text.index("object of a scandal")
    assert pos.state.chars[me].owner == 1


def test_opt_funerals_face_down_pc_cannot_attend_his_own_funeral():
    pos = fresh(optional=["funerals"])
    me = pos.state.players[1].pc
    g = pos.run("kill", cid=me, cause="duel")
    seen = []
    while kind(g) == "funeral_attend":
        seen.append(g.decision()["player"])
        g.apply(NO)
    assert seen == [0, 2]
    while kind(g) == "death_discard":
        g.apply(g.decision()["options"][0])
    halted(g)


def test_opt_funerals_imprisoned_pc_cannot_attend():
    pos = fresh(optional=["funerals"])
    pos.char(pos.state.players[0].pc, imprisoned=True)
    g = pos.run("kill", cid=numbered_nc(pos, 11, 44), cause="test")
    seen = []
    while kind(g) == "funeral_attend":
        seen.append(g.decision()["player"])
        g.apply(NO)
    assert seen == [1, 2]
    halted(g)


def test_opt_funerals_off_no_funeral_and_no_dice():
    pos = fresh()
    pos.dice(6, 6)
    g = pos.run("kill", cid=numbered_nc(pos, 11, 44), cause="test")
    halted(g)
    assert "funeral" not in logs_for(g)
    assert g.state.rng.scripted == [6, 6]  # no die drawn


def test_opt_funerals_thomas_outside_usurpation_has_no_funeral():
    pos = fresh(optional=["funerals"])
    g = pos.run("kill", cid="thomas", cause="assassinated")
    halted(g)
    assert "funeral" not in logs_for(g)


# ---------------------------------------------------------------------------
# §38 Shorter Game b (1981 only, D98)
# ---------------------------------------------------------------------------


def test_opt_shorter_b_killed_nc_is_removed_for_good():
    pos = fresh(optional=["shorter_b"])
    cid = numbered_nc(pos, 11, 44, office=True)
    g = pos.run("kill", cid=cid, cause="assassination")
    halted(g)
    c = g.state.chars[cid]
    assert c.dead and c.office is None and removed_characters(g.state) == [cid]
    assert cid not in g.state.loyalty_pool
    assert "§38 Shorter Game b" in logs_for(g)


def test_opt_shorter_b_functionary_is_removed_too():
    pos = fresh(optional=["shorter_b"])
    pos.char("52", owner=2)
    g = pos.run("kill", cid="52", cause="duel")
    halted(g)
    c = g.state.chars["52"]
    assert c.dead and c.owner is None and not c.loyalty_counter and removed_characters(g.state) == ["52"]


def test_opt_shorter_b_pc_is_not_removed():
    pos = fresh(optional=["shorter_b"])
    me = pos.state.players[2].pc
    g = pos.run("kill", cid=me, cause="duel")
    while kind(g) == "death_discard":
        g.apply(g.decision()["options"][0])
    halted(g)
    assert g.state.chars[me].dead and removed_characters(g.state) == []
    g.state.turn = 2
    g = pos.run("justice_end_of_turn")
    halted(g)
    assert not g.state.chars[me].dead


def test_opt_shorter_b_thomas_keeps_31_2():
    pos = fresh(optional=["shorter_b"])
    g = pos.run("kill", cid="thomas", cause="usurpation")
    halted(g)
    assert not g.state.chars["thomas"].dead and removed_characters(g.state) == []


def test_opt_shorter_b_off_functionary_has_an_heir():
    pos = fresh()
    g = pos.run("kill", cid="52", cause="duel")
    halted(g)
    assert not g.state.chars["52"].dead and "52" in g.state.loyalty_pool
