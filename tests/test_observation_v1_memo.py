"""The v1 observation encoder's memo (``GameState.memo``, ``GameState.writes``).

``spaces.observation_v1.encode_v1`` keeps the 47 character rows without the observer's columns in
the view's cache (``_RowsV1``: the same for every observer), rewrites only the rows of characters
written since (``wchar`` logs every write), of characters whose Status changed (a Status reads the
spouse and the crisis flag) and of characters married to one of these (a row shows its spouse's
Status and owner), and keeps each observer's block with his columns (owner and spouse's owner as
relative seats).  Checked here: along random games in every preset, at 2-6 players and in explicit
chance mode, with clones taken on the way (so writes meet shared characters too) and play leaning
towards weddings, proposals, seductions, duels and assassinations (marriages, engagements and
deaths), the encoding kept up to date is byte-identical to a fresh encoding of the same position,
for every seat; and targeted writes that reach a row only through another character or the
crisis flag."""

from __future__ import annotations

import json
import random

import pytest

from fandonia_env.engine import Game, SeatView, player_view
from fandonia_env.engine.core.options import preset_names
from fandonia_env.engine.core.state import GameState
from fandonia_env.engine.data.components import ROYALS
from fandonia_env.engine.face.search import sample_chance
from fandonia_env.spaces.observation_v1 import _C, CF, CHAR_ROW, encode_v1

CASES = [(p, n) for p in preset_names() for n in (2, 4, 6)] + [("1981", 3), ("errata-all-optional", 5)]
#: words of the actions the random play leans towards (romance, duels, assassinations)
FAVOURED = ("wed", "propos", "seduc", "duel", "assass", "accept")


def _fresh(state: GameState) -> GameState:
    """The same position with no memo, no write log and characters of its own."""
    return GameState.from_json(state.to_json())


def _same(state: GameState, p: int) -> bool:
    return encode_v1(state, p).tobytes() == encode_v1(_fresh(state), p).tobytes()


def _pick(g: Game, rng: random.Random) -> int:
    legal = g.legal_actions()
    if rng.random() < 0.6:
        liked = [a for a in legal if any(w in g.action_name(a) for w in FAVOURED)]
        if liked:
            return rng.choice(liked)
    return rng.choice(legal)


def _play(g: Game, rng: random.Random, players: int) -> tuple[int, int, int]:
    """Play ``g`` out (1,500 steps at most), checking the encoding kept in the memo against a fresh
    one on the way, at the end and on clones taken on the way; the number of checks made and of
    steps with a married or engaged character, and with a dead one."""
    checked = romance = dead = 0
    keep = []
    while not g.over and g.state.steps < 1500:
        seats = range(players) if rng.random() < 0.5 else [rng.randrange(players)]
        for p in seats:
            got = encode_v1(g.state, p)
            if rng.random() < 0.15:
                assert got.tobytes() == encode_v1(_fresh(g.state), p).tobytes(), (g.state.steps, p)
                checked += 1
        chars = g.state.chars.values()
        romance += any(c.spouse is not None or c.engaged_to is not None for c in chars)
        dead += any(c.dead for c in chars)
        if rng.random() < 0.1:
            keep.append(g.state.clone())  # shares the characters: the next writes copy them
        if g.is_chance_node():
            g.apply_chance(sample_chance(g, rng))
        else:
            g.apply(_pick(g, rng))
    for p in range(players):
        assert _same(g.state, p), p
    for c in keep[-3:]:  # the clones were not changed by the game going on
        for p in range(players):
            assert _same(c, p), p
    return checked, romance, dead


@pytest.mark.parametrize(("preset", "players"), CASES, ids=[f"{p}-{n}p" for p, n in CASES])
def test_observation_v1_kept_in_the_memo_equals_a_fresh_encoding(preset: str, players: int) -> None:
    rng = random.Random(f"v1{preset}{players}")
    explicit = players in (3, 5)
    checked = romance = dead = 0
    for _ in range(4):  # another game while none married or engaged anyone (the rows' cross-reads)
        g = Game(players=players, seed=rng.randrange(10**6), max_turns=40, preset=preset,
                 **({"chance": "explicit"} if explicit else {}))
        c, r, d = _play(g, rng, players)
        checked, romance, dead = checked + c, romance + r, dead + d
        if romance and dead:
            break
    assert checked > 10
    assert romance and dead, (romance, dead)


def test_the_memo_serves_every_observer_and_a_clone_starts_without_it() -> None:
    g = Game(players=4, seed=11, max_turns=30)
    rng = random.Random(11)
    for _ in range(80):
        g.apply(_pick(g, rng))
    st = g.state
    for p in range(4):
        encode_v1(st, p)
    rows = st.memo["observation.v1"]
    assert set(rows.seats) == {0, 1, 2, 3}
    c = st.clone()
    assert "observation.v1" not in c.memo
    for p in range(4):
        assert encode_v1(c, p).tobytes() == encode_v1(st, p).tobytes() == encode_v1(_fresh(st), p).tobytes()


def test_a_view_from_json_computes_everything() -> None:
    """A view read from a document has a fresh cache and no write log: the same bytes as the live view."""
    g = Game(players=5, seed=12, max_turns=30)
    rng = random.Random(12)
    for step in range(120):
        if step % 20 == 0:
            for p in range(5):
                doc = json.loads(json.dumps(player_view(g.state, p)))
                sv = SeatView.from_json(doc)
                assert sv.char_writes == [] and sv.cache == {}
                want = encode_v1(g.state, p).tobytes()
                assert encode_v1(sv, p).tobytes() == want
                assert encode_v1(sv, p).tobytes() == want  # its own memo, read again
        g.apply(_pick(g, rng))


def _neutrals(st: GameState, k: int) -> list[str]:
    return [c for c, ch in st.chars.items()
            if ch.owner is None and not ch.is_pc and ch.spouse is None and c not in ROYALS][:k]


def test_a_spouse_that_changes_rewrites_the_other_spouses_row() -> None:
    """A row shows its spouse's Status and owner (§18.9): a write to one spouse rewrites the other's."""
    g = Game(players=4, seed=6, max_turns=30)
    st = g.state
    a, b = _neutrals(st, 2)
    st.wchar(a).spouse = b
    st.wchar(b).spouse = a
    st.wchar(b).titles += 3  # a's Status is now b's
    for p in range(4):
        encode_v1(st, p)
    for write in (lambda c: setattr(c, "imprisoned", True), lambda c: setattr(c, "imprisoned", False),
                  lambda c: setattr(c, "owner", 2), lambda c: setattr(c, "owner", None),
                  lambda c: setattr(c, "titles", c.titles + 2), lambda c: setattr(c, "spouse", None)):
        write(st.wchar(b))
        for p in range(4):
            assert _same(st, p), p


def test_a_one_sided_spouse_is_followed_two_steps() -> None:
    """a names b as spouse, b names c: a's row shows b's Status, which reads c (never written with a
    or b), and b's owner; writes to c, then to b, reach a's row."""
    g = Game(players=3, seed=13, max_turns=30)
    st = g.state
    a, b, c = _neutrals(st, 3)
    st.wchar(a).spouse = b
    st.wchar(b).spouse = c
    st.wchar(c).spouse = b
    for p in range(3):
        encode_v1(st, p)
    col = CHAR_ROW[a] * CF + _C["spouse_status"]
    before = encode_v1(st, 0)[col]
    st.wchar(c).titles += 4  # b's Status rises to c's: a's spouse_status with it
    assert encode_v1(st, 0)[col] != before
    for p in range(3):
        assert _same(st, p), p
    st.wchar(b).owner = 1  # a's spouse_owner column
    for p in range(3):
        assert _same(st, p), p


def test_an_engagement_and_a_death_reach_the_rows() -> None:
    g = Game(players=4, seed=14, max_turns=30)
    st = g.state
    a, b = _neutrals(st, 2)
    encode_v1(st, 1)
    st.wchar(a).engaged_to = b
    st.wchar(b).engaged_to = a
    assert _same(st, 1)
    st.wchar(a).spouse = b
    st.wchar(b).spouse = a
    st.wchar(a).engaged_to = None
    st.wchar(b).engaged_to = None
    assert _same(st, 1)
    st.wchar(b).dead = True  # a widow: a's Status may change
    assert _same(st, 1) and _same(st, 0)


def test_a_new_monarch_and_a_crisis_without_a_character_write() -> None:
    """The Monarch flag is marked per call; Support 0 halves Statuses nobody wrote (§33.2.3)."""
    g = Game(players=4, seed=8, max_turns=30)
    st = g.state
    encode_v1(st, 3)
    st.monarch = next(c for c in ROYALS if c != st.monarch)
    assert _same(st, 3)
    st.support = 0
    assert _same(st, 3) and _same(st, 1)
    st.support = 40
    assert _same(st, 3) and _same(st, 1)

