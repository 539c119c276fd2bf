"""Errata edition deaths (ES §31.3-§31.4): D77 (A32), D78, and D95 (Funeral Table row 5)."""

from __future__ import annotations

from helpers import empty_handed, halted, kind, logs_for, numbered_nc, pcs

from fandonia_env.engine.chapters.death import REMOVED_KEY, removed_characters
from fandonia_env.engine.core.actions import NO, YES
from fandonia_env.engine.data.components import OFFICE_ELIGIBLE
from fandonia_env.engine.face.builder import Position


def fresh(players: int = 3, seed: int = 1, **config) -> Position:
    config.setdefault("edition", "errata")
    return empty_handed(players, seed, **config)


# ---------------------------------------------------------------------------
# D77 (ES §31.3, A32): 11-44 and 56-66 are permanently removed
# ---------------------------------------------------------------------------


def test_errata_d77_nc_office_holder_dies_removed_with_loyalty_counter_office_vacant():
    pos = fresh()
    cid = numbered_nc(pos, 11, 44, office=True)
    office = pos.state.chars[cid].office
    g = pos.run("kill", cid=cid, cause="plague")
    halted(g)
    c = g.state.chars[cid]
    assert c.dead and c.owner is None and c.office is None
    assert not any(x.office == office for x in g.state.chars.values())
    assert cid not in g.state.loyalty_pool and not c.loyalty_counter
    assert removed_characters(g.state) == [cid]
    assert "permanently removed from the game" in logs_for(g)
    assert len(g.state.loyalty_pool) == 36 - 3 - 1  # three PCs' counters on their cards, one removed


def test_errata_d77_fac_dies_cards_discarded_counter_removed_spouse_widowed():
    pos = fresh()
    fac = numbered_nc(pos, 11, 44, office=True)
    wife = numbered_nc(pos, 56, 66)
    pos.give(1, "henchman", "monarchs_counselor")
    hench, couns = pos.state.players[1].hand[-2:]
    pos.state.players[1].hand = pos.state.players[1].hand[:-2]
    pos.char(fac, owner=1, henchman_card=hench, counselor_card=couns, spouse=wife)
    pos.char(wife, owner=1, spouse=fac)
    g = pos.run("kill", cid=fac, cause="duel")
    halted(g)
    c = g.state.chars[fac]
    assert c.dead and c.owner is None and c.office is None and c.spouse is None
    assert c.henchman_card is None and c.counselor_card is None
    assert hench in g.state.discard and couns in g.state.discard
    assert not c.loyalty_counter and fac not in g.state.loyalty_pool and fac in g.state.misc[REMOVED_KEY]
    assert g.state.chars[wife].spouse is None and g.state.chars[wife].owner == 1


def test_errata_d77_lady_56_66_is_removed_and_cannot_die_again():
    pos = fresh()
    lady = numbered_nc(pos, 56, 66)
    g = pos.run("kill", cid=lady, cause="prison")
    halted(g)
    assert g.state.chars[lady].dead and removed_characters(g.state) == [lady]
    g = pos.run("kill", cid=lady, cause="again")
    halted(g)
    assert removed_characters(g.state) == [lady]
    assert "has been removed from the game: no effect" in logs_for(g)


def test_errata_d77_a_drawn_loyalty_counter_leaves_the_game_privately():
    pos = fresh()
    cid = numbered_nc(pos, 11, 44, office=False)
    pos.loyalty(2, cid)
    g = pos.run("kill", cid=cid, cause="duel")
    halted(g)
    assert cid not in g.state.players[2].loyalty_drawn and cid not in g.state.loyalty_pool
    assert f"The Loyalty counter {cid} you drew" in logs_for(g, to=2)
    assert f"counter {cid} you drew" not in logs_for(g)  # not public
    # the end of the Player Turn does not bring it back (it is no longer among the drawn ones)
    g = pos.run("end_player_turn", p=2)
    halted(g)
    assert cid not in g.state.loyalty_pool


def test_errata_d77_a32_dice_count_naming_a_removed_character_is_rerolled():
    pos = fresh()
    dead = numbered_nc(pos, 11, 44, office=False)
    alive = numbered_nc(pos, 11, 44, office=False, skip=(dead,))
    pos.run("kill", cid=dead, cause="test")
    office = pos.state.chars[numbered_nc(pos, 11, 44, office=True)].office
    pos.office(office, None)
    pos.dice(int(dead[0]), int(dead[1]), int(alive[0]), int(alive[1]))
    g = pos.run("offices_random")
    halted(g)
    assert g.state.chars[alive].office == office and g.state.chars[dead].office is None


def test_errata_d77_a32_office_holder_pile_runs_dry_office_stays_vacant():
    pos = fresh()
    for cid in OFFICE_ELIGIBLE:
        if cid not in pcs(pos):
            pos.run("kill", cid=cid, cause="plague")
    for p in pcs(pos):
        pos.state.wchar(p).office = None
        pos.state.wchar(p).hiding = True
    g = pos.run("offices_random")
    halted(g)
    assert not any(c.office for c in g.state.chars.values() if c.office != "monarch")
    assert "stays vacant" in logs_for(g)
    assert len(removed_characters(g.state)) == len(OFFICE_ELIGIBLE) - len([c for c in pcs(pos) if int(c) <= 44])


def test_errata_d77_pc_still_gets_an_heir():
    pos = fresh()
    me = pos.state.players[1].pc
    g = pos.run("kill", cid=me, cause="duel")
    while kind(g) == "death_discard":
        g.apply(g.decision()["options"][0])
    halted(g)
    assert g.state.chars[me].dead and me not in removed_characters(g.state)
    g.state.turn = 2
    g = pos.run("justice_end_of_turn")
    halted(g)
    assert not g.state.chars[me].dead and g.state.chars[me].owner == 1


def test_errata_d77_a32_pc_spouse_who_dies_is_removed():
    pos = fresh()
    me = pos.state.players[0].pc
    functionaries = tuple(c for c in pos.state.chars if c.isdigit() and 45 <= int(c) <= 55)
    sp = numbered_nc(pos, 11, 66, office=False, skip=functionaries)
    pos.char(sp, owner=0, spouse=me)
    pos.state.wchar(me).spouse = sp
    g = pos.run("kill", cid=sp, cause="plague")
    halted(g)
    assert g.state.chars[sp].dead and sp in removed_characters(g.state)
    assert g.state.chars[me].spouse is None


def test_errata_d77_not_in_1981_nc_death_leaves_an_heir():
    pos = fresh(edition="1981")
    cid = numbered_nc(pos, 11, 44, office=True)
    g = pos.run("kill", cid=cid, cause="plague")
    halted(g)
    assert not g.state.chars[cid].dead and cid in g.state.loyalty_pool
    assert REMOVED_KEY not in g.state.misc


# ---------------------------------------------------------------------------
# D78 (ES §31.4): the functionaries 45-55 still have heirs
# ---------------------------------------------------------------------------


def test_errata_d78_functionary_death_heir_in_play_counter_returned():
    pos = fresh()
    pos.give(2, "henchman")
    card = pos.state.players[2].hand.pop()
    pos.char("51", owner=2, henchman_card=card)
    g = pos.run("kill", cid="51", cause="duel")
    halted(g)
    c = g.state.chars["51"]
    assert not c.dead and c.owner is None and "51" in g.state.loyalty_pool and card in g.state.discard
    assert removed_characters(g.state) == []
    assert "heir is now in the game" in logs_for(g)


def test_errata_d78_functionaries_45_and_55_are_the_bounds():
    pos = fresh()
    for cid in ("45", "55"):
        g = pos.run("kill", cid=cid, cause="test")
        halted(g)
        assert not g.state.chars[cid].dead
    assert removed_characters(pos.state) == []


# ---------------------------------------------------------------------------
# D95: Funeral Table row 5 loses One PP in the errata edition
# ---------------------------------------------------------------------------


def _funeral_row_5(edition: str):
    pos = fresh(edition=edition, optional=["funerals"])
    for p in range(3):
        pos.player(p, pp=10, ip=10)
    cid = numbered_nc(pos, 45, 55)
    pos.dice(2, 3)  # 5: Fell Into Grave
    g = pos.run("kill", cid=cid, cause="test")
    for ans in (YES, NO, NO):
        assert kind(g) == "funeral_attend"
        g.apply(ans)
    halted(g)
    return g.state.players[0]


def test_errata_d95_funeral_row_5_loses_one_pp_not_ip():
    pl = _funeral_row_5("errata")
    assert (pl.pp, pl.ip) == (9, 10)


def test_errata_d95_funeral_row_5_in_1981_loses_one_ip():
    pl = _funeral_row_5("1981")
    assert (pl.pp, pl.ip) == (10, 9)


# ---------------------------------------------------------------------------
# D98: the errata Shorter Game has four rules (EN a, c, d, e); EN b does not exist
# ---------------------------------------------------------------------------


def test_errata_d98_shorter_b_does_not_exist_but_noble_deaths_are_permanent_anyway():
    import pytest

    from fandonia_env.engine.core.options import ConfigError, switches_for
    from fandonia_env.engine.face.game import make_config

    with pytest.raises(ConfigError, match="shorter_b exists only in"):
        make_config(edition="errata", optional=["shorter_b"])
    assert [s for s in switches_for("errata") if s.startswith("shorter_")] == [
        "shorter_a", "shorter_c", "shorter_d", "shorter_e"]
    pos = fresh()  # errata, no switch: a noble's death is permanent (ES §31.3), a functionary's is not
    cid = numbered_nc(pos, 56, 66)
    g = pos.run("kill", cid=cid, cause="duel")
    g = pos.run("kill", cid="52", cause="duel")
    halted(g)
    assert removed_characters(g.state) == [cid] and not g.state.chars["52"].dead
