"""The PP totals and the character index kept from the write log (``queries.PPTotals``,
``CharIndex``; issue 12).

``pp_required`` / ``pp_required_all`` / ``pp_required_with`` read totals that ``PPTotals`` keeps in
``state.memo`` and updates from ``state.writes`` instead of summing every character at each
question.  Checked here against an oracle written from the rule itself (§35.4-35.6, A17, §31.5: the
Status of every FAC and FARC, the PCs and a living PC's spouse exempt, and a FARC Monarch in the
errata edition only, D84, ruling R16) after every
decision of random games in every preset, with clones and explicit chance mode, and on the
legality checks' trial changes (a wedding weighed inside ``activity_options``)."""

from __future__ import annotations

import random

import pytest
from helpers import random_moves

from fandonia_env.engine import Game
from fandonia_env.engine.core.options import preset_names
from fandonia_env.engine.core.state import GameState
from fandonia_env.engine.rules.queries import PPTotals, pp_required, pp_required_all, pp_required_with, status


def _oracle(state: GameState) -> list[int]:
    """§35.4-35.6 as written: every owned character's Status, but the PCs' and a living PC's
    spouse's, and the Monarch's in the errata edition (D84; he counts in the 1981 edition, R16)."""
    exempt = {state.monarch} if state.config["edition"] == "errata" else set()
    for pl in state.players:
        pcc = state.chars[pl.pc]
        exempt.add(pl.pc)
        if pcc.spouse is not None and not pcc.dead:
            exempt.add(pcc.spouse)
    out = [0] * state.n
    for cid, c in state.chars.items():
        if c.owner is not None and cid not in exempt:
            out[c.owner] += status(state, cid)
    return out


def _check(state: GameState) -> None:
    want = _oracle(state)
    assert pp_required_all(state) == want
    assert [pp_required(state, p) for p in range(state.n)] == want
    assert PPTotals(state).totals == want  # a fresh sum agrees with the kept one


@pytest.mark.parametrize("preset", preset_names())
def test_kept_pp_totals_match_the_rule_after_every_decision(preset):
    for seed in range(3):
        players = 3 + seed
        g = Game(players=players, seed=seed, max_turns=60, preset=preset)
        rng = random.Random(seed)
        other: Game | None = None
        for i in random_moves(g, rng):
            _check(g.state)
            if i % 97 == 50:  # a clone goes its own way: its totals start afresh and stay its own
                other = g.clone()
            if other is not None and not other.over:
                other.apply(rng.choice(other.legal_actions()))
                _check(other.state)


def test_kept_pp_totals_in_explicit_chance_mode():
    from fandonia_env.engine.face.search import sample_chance

    g = Game(players=4, seed=5, max_turns=30, chance="explicit")
    rng = random.Random(5)
    while not g.over:
        _check(g.state)
        if g.is_chance_node():
            g.apply_chance(sample_chance(g, rng))
        else:
            g.apply(rng.choice(g.legal_actions()))


def test_pp_required_with_weighs_changes_from_the_kept_totals():
    """``pp_required_with`` (a recruit or a title weighed without writing) equals the total after
    writing the change, on the kept totals of a game in progress."""
    g = Game(players=4, seed=11, max_turns=40)
    rng = random.Random(11)
    checked = 0
    for i in random_moves(g, rng):
        if i % 25:
            continue
        st = g.state
        for p in range(st.n):
            neutral = [cid for cid, c in st.chars.items() if c.owner is None and not c.dead][:3]
            owned = [cid for cid, c in st.chars.items() if c.owner == p and not c.dead][:2]
            for owners, titles in (([], []), (neutral[:1], []), ([], owned[:1]), (neutral[1:3], owned)):
                got = pp_required_with(st, p, owners, titles)
                trial = g.clone().state
                for cid in titles:
                    trial.wchar(cid).titles += 1
                for cid in owners:
                    trial.wchar(cid).owner = p
                assert got == _oracle(trial)[p], (i, p, owners, titles)
                checked += 1
    assert checked > 50


def _neutral_nobles(st: GameState, k: int) -> list[str]:
    from fandonia_env.engine.data.components import NOBLES

    out = [cid for cid in NOBLES if st.chars[cid].owner is None and not st.chars[cid].is_pc
           and st.chars[cid].spouse is None and st.chars[cid].office is None]
    return out[:k]


def test_a_written_character_resums_whoever_names_it_as_spouse():
    """A Status reads the spouse: when only the spouse is written, the character naming it is
    summed again (``named_by``), also when the two sides of the link were written apart."""
    from fandonia_env.engine.face.builder import Position

    pos = Position(players=3, seed=2)
    st = pos.state
    y, x = _neutral_nobles(st, 2)
    pos.char(y, owner=1, spouse=x)  # only y names x
    _check(st)
    st.wchar(x).titles += 4  # x's Status rises; only x is written: y's Status follows it
    _check(st)
    st.wchar(x).imprisoned = True  # an imprisoned spouse lends no Status (§18.9)
    _check(st)
    st.wchar(y).spouse = None
    _check(st)


def test_a_pc_written_alone_changes_the_exemptions():
    """The exemptions read the PCs: a PC's spouse is exempt while the PC lives (§31.5, A17); when
    only the PC is written (his death), the spouse's Status counts again."""
    from fandonia_env.engine.face.builder import Position

    pos = Position(players=3, seed=3)
    st = pos.state
    (x,) = _neutral_nobles(st, 1)
    pc0 = st.players[0].pc
    pos.char(x, owner=0, spouse=pc0).char(pc0, spouse=x)
    _check(st)
    exempt_total = pp_required(st, 0)
    st.wchar(pc0).dead = True
    _check(st)
    assert pp_required(st, 0) > exempt_total  # the widow's Status now counts
    st.wchar(pc0).dead = False
    _check(st)
    assert pp_required(st, 0) == exempt_total
    # the exemption follows the PC's side of the link alone (the spouse not naming him back)
    pos.char(x, spouse=None)
    _check(st)
    before = pp_required(st, 0)
    st.wchar(pc0).dead = True
    _check(st)
    assert pp_required(st, 0) > before


@pytest.mark.parametrize("preset", preset_names())
def test_kept_character_index_matches_a_scan_after_every_decision(preset):
    """``CharIndex`` (owned, hiding, banished or imprisoned, imprisoned or hiding ids, kept from the
    write log) equals a scan of the characters after every decision; a list handed out earlier
    still reads as it did then."""
    from fandonia_env.engine.rules.queries import (
        banished_or_imprisoned_ids,
        hiding_ids,
        imprisoned_or_hiding_ids,
        owned_ids,
    )

    g = Game(players=5, seed=4, max_turns=60, preset=preset)
    rng = random.Random(4)
    kept: list[tuple[int, list[str], list[str]]] = []
    for i in random_moves(g, rng):
        st = g.state
        chars = st.chars.items()
        for p in range(st.n):
            got = owned_ids(st, p)
            assert got == [cid for cid, c in chars if c.owner == p]
            if i % 40 == 0:
                kept.append((p, got, list(got)))
        assert hiding_ids(st) == [cid for cid, c in chars if c.hiding]
        assert banished_or_imprisoned_ids(st) == [cid for cid, c in chars if c.banished or c.imprisoned]
        assert imprisoned_or_hiding_ids(st) == [cid for cid, c in chars if c.imprisoned or c.hiding]
    assert all(lst == snapshot for _, lst, snapshot in kept)
    assert any(lst != owned_ids(g.state, p) for p, lst, _ in kept)  # the factions did change
