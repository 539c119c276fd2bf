"""The observation encoder's memo (``GameState.memo``, ``GameState.writes``).

``spaces.observation.encode`` keeps each observer's character rows and the discard counts in the
state's memo and rewrites only the rows of characters written since (``wchar`` logs every write).
Checked here: along random games in every preset, at 2-6 players and in explicit chance mode, with
clones taken on the way (so writes meet shared characters too), the encoding kept up to date is
byte-identical to a fresh encoding of the same position, for every seat; the memo and the write log
are not saved, compared, pickled or cloned."""

from __future__ import annotations

import pickle
import random

import pytest

from fandonia_env.engine import Game
from fandonia_env.engine.core.options import preset_names
from fandonia_env.engine.core.state import GameState, char_values
from fandonia_env.engine.data.components import CARD_TYPE_OF, ROYALS
from fandonia_env.engine.face.search import sample_chance
from fandonia_env.spaces.observation import LABELS, encode

CASES = [(p, n) for p in preset_names() for n in (2, 4, 6)] + [("1981", 3), ("errata-all-optional", 5)]


def _fresh(state: GameState) -> GameState:
    """The same position with no memo and characters of its own."""
    return GameState.from_json(state.to_json())


@pytest.mark.parametrize(("preset", "players"), CASES, ids=[f"{p}-{n}p" for p, n in CASES])
def test_observation_kept_in_the_memo_equals_a_fresh_encoding(preset: str, players: int) -> None:
    rng = random.Random(f"{preset}{players}")
    explicit = players in (3, 5)
    g = Game(players=players, seed=rng.randrange(10**6), max_turns=40, preset=preset,
             **({"chance": "explicit"} if explicit else {}))
    checked = 0
    keep = []
    while not g.over and g.state.steps < 400:
        seats = range(players) if rng.random() < 0.5 else [rng.randrange(players)]
        for p in seats:
            got = encode(g.state, p)
            assert -1.0 <= got.min() and got.max() <= 1.0, (g.state.steps, p)
            if rng.random() < 0.2:
                assert got.tobytes() == encode(_fresh(g.state), p).tobytes(), (g.state.steps, p)
                checked += 1
        if rng.random() < 0.1:
            keep.append(g.state.clone())  # shares the characters: the next writes copy them
        if g.is_chance_node():
            g.apply_chance(sample_chance(g, rng))
        else:
            g.apply(rng.choice(g.legal_actions()))
    for p in range(players):
        assert encode(g.state, p).tobytes() == encode(_fresh(g.state), p).tobytes()
    for c in keep[-3:]:  # the clones were not changed by the game going on
        assert encode(c, 0).tobytes() == encode(_fresh(c), 0).tobytes()
    assert checked > 10


def test_the_write_log_and_memo_are_not_part_of_the_state() -> None:
    g = Game(players=4, seed=3, max_turns=30)
    for _ in range(60):
        g.apply(random.Random(g.state.steps).choice(g.legal_actions()))
    encode(g.state, 0)
    st = g.state
    assert st.writes and st.memo  # the game wrote characters; the encoder kept its rows
    assert "writes" not in st.to_json() and "memo" not in st.to_json()
    c = st.clone()
    assert c.writes == [] and c.memo == {} and c == st
    u = pickle.loads(pickle.dumps(st))
    assert u.writes == [] and u.memo == {} and u == st
    f = _fresh(st)
    f.writes.append("george")
    f.memo["x"] = 1
    assert f == st  # not compared


def test_a_write_through_wchar_reaches_the_next_observation() -> None:
    g = Game(players=4, seed=5, max_turns=30)
    before = encode(g.state, 0)
    cid = next(c for c, ch in g.state.chars.items() if ch.owner is None and not ch.is_pc)
    g.state.wchar(cid).titles += 1
    after = encode(g.state, 0)
    assert after.tobytes() != before.tobytes()
    assert after.tobytes() == encode(_fresh(g.state), 0).tobytes()


def test_a_spouse_that_changes_changes_the_other_spouses_status_row() -> None:
    """A Status reads the spouse (§18.9): a write to one spouse rewrites the other's row too."""
    g = Game(players=4, seed=6, max_turns=30)
    st = g.state
    a, b = [c for c, ch in st.chars.items() if ch.owner is None and not ch.is_pc and ch.spouse is None][:2]
    st.wchar(a).spouse = b
    st.wchar(b).spouse = a
    st.wchar(b).titles += 3  # a's Status is now b's
    encode(st, 1)
    for write in (lambda c: setattr(c, "imprisoned", True), lambda c: setattr(c, "imprisoned", False),
                  lambda c: setattr(c, "titles", c.titles + 2), lambda c: setattr(c, "spouse", None)):
        write(st.wchar(b))
        assert encode(st, 1).tobytes() == encode(_fresh(st), 1).tobytes()


def test_a_new_monarch_moves_the_monarch_flag_without_a_character_write() -> None:
    g = Game(players=4, seed=7, max_turns=30)
    st = g.state
    encode(st, 2)
    st.monarch = next(c for c in ROYALS if c != st.monarch)
    assert encode(st, 2).tobytes() == encode(_fresh(st), 2).tobytes()


def test_a_government_in_crisis_halves_statuses_without_a_character_write() -> None:
    """§33.2.3: Support 0 changes Statuses of characters nobody wrote."""
    g = Game(players=4, seed=8, max_turns=30)
    st = g.state
    encode(st, 3)
    st.support = 0
    assert encode(st, 3).tobytes() == encode(_fresh(st), 3).tobytes()
    st.support = 40
    assert encode(st, 3).tobytes() == encode(_fresh(st), 3).tobytes()


@pytest.mark.parametrize(("preset", "players"), CASES, ids=[f"{p}-{n}p" for p, n in CASES])
def test_every_character_change_is_in_the_write_log(preset: str, players: int) -> None:
    """The log's promise (``wchar`` is the only writer): after every step, each character whose
    values changed was logged in ``state.writes`` during that step."""
    rng = random.Random(f"log{preset}{players}")
    explicit = players in (3, 5)
    g = Game(players=players, seed=rng.randrange(10**6), max_turns=60, preset=preset,
             **({"chance": "explicit"} if explicit else {}))
    changed = 0
    while not g.over:
        st = g.state
        before = {cid: char_values(c) for cid, c in st.chars.items()}
        log, pos = st.writes, len(st.writes)
        if g.is_chance_node():
            g.apply_chance(sample_chance(g, rng))
        else:
            g.apply(rng.choice(g.legal_actions()))
        st = g.state
        if st.writes is not log:
            # a step restored in explicit chance mode put back a clone's fields: a new (empty) log and
            # memo, so every cache starts afresh; what this step changed cannot be told from the log
            assert explicit
            continue
        logged = set(st.writes[pos:])
        for cid, c in st.chars.items():
            if char_values(c) != before[cid]:
                changed += 1
                assert cid in logged, (st.steps, cid)
    assert changed > 20


def test_values_beyond_their_scale_are_clipped_where_they_are_written() -> None:
    """The encoder clips each value that can leave [-1, 1] as it writes it (no pass over the whole
    vector): counts beyond their scale read 1 (-1 below it), and the vector stays in the space."""
    g = Game(players=4, seed=9, max_turns=30)
    st = g.state
    pl = st.players[0]
    kinds = [CARD_TYPE_OF[c] for c in st.deck]
    kind = max(kinds, key=kinds.count)
    same = [c for c in st.deck if CARD_TYPE_OF[c] == kind]
    assert len(same) >= 8
    pl.hand = same[:6]  # six cards of one type: 6 x 0.25
    st.discard = same[:8] * 2  # sixteen: 1/14 a card
    st.support = 250
    pl.ball_mod = -5
    st.wchar(pl.pc).titles = 9
    v = encode(st, 0)
    assert -1.0 <= v.min() and v.max() <= 1.0
    at = {name: float(x) for name, x in zip(LABELS, v)}
    assert at[f"hand_{kind}"] == 1.0 and at[f"discard_{kind}"] == 1.0 and at["support"] == 1.0
    assert at["seat0_ball_mod"] == -1.0 and at[f"char_{pl.pc}_titles"] == 1.0
