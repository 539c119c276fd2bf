"""Observation v1 (issue 10 item 0): the player's whole information state, unclipped, in a
structured layout, with static action-to-entity maps; the env ``fandonia_v1``."""

from __future__ import annotations

import ast
import functools
import json
import pathlib
import random
import warnings

import numpy as np
import pytest
from helpers import random_moves
from hypothesis import given, settings
from hypothesis import strategies as st

from fandonia_env import fandonia_v1
from fandonia_env.engine import Game
from fandonia_env.engine.core.actions import NAME, NUM_ACTIONS, action_player, player_action
from fandonia_env.engine.core.machine import pending
from fandonia_env.engine.data.components import (
    ALL_CHARACTER_IDS,
    CARD_TYPE_KEYS,
    CARD_TYPE_OF,
    ROYALS,
    SUPPORT_CARDS,
)
from fandonia_env.engine.face.game import player_view
from fandonia_env.engine.face.hidden import resample
from fandonia_env.spaces import observation_v1 as ov1
from fandonia_env.spaces.observation_v1 import (
    ACTION_CARD_TYPE,
    ACTION_CHARACTER,
    ACTION_SEAT,
    CHAR_FEATURES,
    CHAR_ROW,
    CTX_KEYS,
    GLOBAL_BLOCKS,
    LAYOUT_V1,
    OBS_V1_SIZE,
    PT_KEYS,
    SEAT_FEATURES,
    encode_v1,
    label_v1,
    split_v1,
)

warnings.filterwarnings("ignore", category=UserWarning)
ROOT = pathlib.Path(__file__).resolve().parent.parent
PRESETS = ("1981", "errata", "1981-all-optional", "errata-all-optional")


@functools.cache
def _games() -> tuple[tuple[str, int, tuple], ...]:
    """States of seeded random games: every player count 2-6 in every preset (both editions)."""
    out = []
    for k, preset in enumerate(PRESETS):
        for n in range(2, 7):
            seed = 10 * k + n
            g = Game(players=n, seed=seed, preset=preset, max_turns=8)
            states = []
            for _ in random_moves(g, random.Random(seed), 400):
                states.append(g.state.clone())
            states.append(g.state.clone())
            out.append((preset, n, tuple(states)))
    return tuple(out)


def _view_key(state, p: int) -> str:
    v = player_view(state, p, log=False)
    v["discard"] = sorted(v["discard"])  # a multiset: no rule reads the pile's order (documented)
    return json.dumps(v, sort_keys=True)


def _enc(state, p: int) -> bytes:
    return encode_v1(state, p).tobytes()


def _obs(state, p: int) -> tuple[bytes, tuple[int, ...] | None]:
    """The env's observation for p: the v1 vector and the action mask (the decision's options,
    which are part of the view; nothing else in the view shows e.g. a bribe already demanded)."""
    d = pending(state)
    return _enc(state, p), (tuple(d.args["options"]) if d is not None and d.args["player"] == p else None)


def _col(name: str) -> int:
    return CHAR_FEATURES.index(name)


def _scol(name: str) -> int:
    return SEAT_FEATURES.index(name)


# -- (1a) completeness over many real states -------------------------------------------------
def test_completeness_no_two_distinct_views_share_an_encoding_in_random_games():
    """Two states whose views for p differ (log aside) never encode alike for p: over every
    state of 20 seeded random games (2-6 players, both editions, with and without the options)."""
    seen: dict[tuple, str] = {}
    pairs = 0
    for _preset, n, states in _games():
        for s in states:
            for p in range(n):
                key = (n, p, _obs(s, p))
                view = _view_key(s, p)
                old = seen.setdefault(key, view)
                assert old == view, f"two different views of player {p} ({n} players) share an encoding"
                pairs += 1
    assert pairs > 5000 and len(seen) > 3000  # the sample is not trivial


# -- (1b) targeted perturbations of one view-visible field -----------------------------------
def _deciding_states(min_ctx: int = 1):
    for _preset, _n, states in _games():
        for s in states:
            d = pending(s)
            if d is not None and len(d.args["ctx"]) >= min_ctx:
                yield s, d.args["player"]


def _check_perturbation(state, p: int, mutate) -> None:
    s2 = state.clone()
    mutate(s2)
    v1, v2 = _view_key(state, p), _view_key(s2, p)
    assert v1 != v2, "the perturbation must change the view"
    assert _enc(state, p) != _enc(s2, p), "a view-visible change left the encoding unchanged"


def _sample_states(k: int = 12):
    rng = random.Random(0)
    all_states = [(s, n) for _pr, n, states in _games() for s in states[40::25]]
    return rng.sample(all_states, k)


def test_perturbing_owner_spouse_engagement_status_and_flags_changes_the_encoding():
    cid = "13"
    for s, n in _sample_states():
        for p in range(n):
            c = s.chars[cid]

            def owner(x, v=(0 if c.owner is None else None)):
                x.wchar(cid).owner = v
            _check_perturbation(s, p, owner)
            for sp in ("jane", "62", "alan"):
                if c.spouse != sp:
                    _check_perturbation(s, p, lambda x, sp=sp: setattr(x.wchar(cid), "spouse", sp))
            if c.spouse is None:  # two different spouses differ from each other too
                a, b = s.clone(), s.clone()
                a.wchar(cid).spouse, b.wchar(cid).spouse = "63", "64"
                assert _enc(a, p) != _enc(b, p)
            _check_perturbation(s, p, lambda x: setattr(x.wchar(cid), "engaged_to", "65"))
            _check_perturbation(s, p, lambda x: setattr(x.wchar(cid), "fixed_status", 14))
            _check_perturbation(s, p, lambda x: setattr(x.wchar(cid), "titles", x.chars[cid].titles + 1))
            _check_perturbation(s, p, lambda x: setattr(x.wchar(cid), "pending_justice", "hearing"))
            _check_perturbation(s, p, lambda x: setattr(x.wchar(cid), "situation_turns", 34))
            _check_perturbation(s, p, lambda x: setattr(x.wchar(cid), "banned", not x.chars[cid].banned))


def test_support_cards_in_front_are_encoded_by_type_per_seat():
    s, n = _sample_states(1)[0]
    by_type = {}
    for card, t in CARD_TYPE_OF.items():
        by_type.setdefault(t, card)
    for seat in range(n):
        encs = set()
        for t in SUPPORT_CARDS:
            x = s.clone()
            x.players[seat].in_front = [by_type[t]]
            assert player_view(x, 0, log=False) != player_view(s, 0, log=False)
            encs.add(_enc(x, 0))
            rel = seat  # observer 0: seat row = absolute seat
            row = split_v1(encode_v1(x, 0))["seats"][rel]
            assert row[_scol(f"in_front_{t}")] == 1.0 and row[_scol("in_front_count")] == pytest.approx(1 / 3)
        assert len(encs) == len(SUPPORT_CARDS)  # every type distinct from every other


def test_spouse_is_encoded_as_the_spouse_row_owner_and_royalty():
    s, n = _sample_states(1)[0]
    x = s.clone()
    x.wchar("13").spouse, x.wchar("alan").spouse = "alan", "13"
    x.wchar("alan").owner = 1 % n
    rows = split_v1(encode_v1(x, 0))["characters"]
    r = rows[CHAR_ROW["13"]]
    assert r[_col("married")] == 1.0 and r[_col("spouse_royal")] == 1.0
    assert round(r[_col("spouse_row")] * len(ALL_CHARACTER_IDS)) - 1 == CHAR_ROW["alan"]
    assert r[_col(f"spouse_owner_seat{1 % n}")] == 1.0
    assert rows[CHAR_ROW["alan"]][_col("spouse_row")] == pytest.approx((CHAR_ROW["13"] + 1) / len(ALL_CHARACTER_IDS))


def _mutations(v):
    """Values different from v, of the kinds the context holds."""
    if isinstance(v, bool):
        return [not v]
    if isinstance(v, int):
        return [v + 1, v + 7]
    if v is None:
        return [0]
    if isinstance(v, str):
        alts = ["11", "jane", "assassinate", "court_ball", "Trial of Sir Guy", "a brand-new text 42"]
        return [a for a in alts if a != v][:4]
    if isinstance(v, list):
        out = [v + [v[-1] if v else "11"]]
        if len(v) > 1 and v != v[::-1]:
            out.append(v[::-1])
        return out
    return []


def test_perturbing_each_ctx_value_of_the_pending_decision_changes_the_encoding():
    seen_kinds = set()
    checked = 0
    for s, p in _deciding_states():
        kind = pending(s).args["kind"]
        if kind in seen_kinds:
            continue
        seen_kinds.add(kind)
        ctx = pending(s).args["ctx"]
        for key, val in ctx.items():
            for new in _mutations(val):
                def mutate(x, key=key, new=new):
                    pending(x).args["ctx"][key] = new
                _check_perturbation(s, p, mutate)
                checked += 1
        # a key no rule uses today (a future rule) is still encoded, whatever its value
        for new in (3, True, None, "11", "something new", [1, 2]):
            _check_perturbation(s, p, lambda x, new=new: pending(x).args["ctx"].__setitem__("zz_future_key", new))
    assert len(seen_kinds) >= 30 and checked >= 100


def test_swapping_two_ctx_values_between_keys_changes_the_encoding():
    for s, p in _deciding_states(min_ctx=2):
        ctx = pending(s).args["ctx"]
        keys = [k for k, v in ctx.items() if isinstance(v, str)]
        if len(keys) >= 2 and ctx[keys[0]] != ctx[keys[1]]:
            def swap(x, a=keys[0], b=keys[1]):
                c = pending(x).args["ctx"]
                c[a], c[b] = c[b], c[a]
            _check_perturbation(s, p, swap)
            return
    pytest.fail("no decision with two string context values found")


def test_perturbing_the_players_own_turn_bookkeeping_changes_the_encoding():
    checked = 0
    for _preset, _n, states in _games():
        for s in states:
            if not s.pt or s.pt.get("player") is None or checked > 60:
                continue
            p = s.pt["player"]
            for key, val in s.pt.items():
                if key == "player":
                    continue
                for new in _mutations(val):
                    _check_perturbation(s, p, lambda x, key=key, new=new: x.pt.__setitem__(key, new))
                    checked += 1
            _check_perturbation(s, p, lambda x: x.pt.__setitem__("proposals", [["13", "62"]]))
            _check_perturbation(s, p, lambda x: x.pt.__setitem__("zz_future_fact", 1))
    assert checked > 60


@settings(max_examples=40, deadline=None)
@given(a=st.integers(0, 400), b=st.integers(0, 400), field=st.sampled_from(["ip", "pp", "lost_turns", "ball_mod"]),
       seat=st.integers(0, 3), observer=st.integers(0, 3))
def test_any_two_point_values_encode_differently(a, b, field, seat, observer):
    s = _games()[2][2][60]  # a 4-player state
    x, y = s.clone(), s.clone()
    setattr(x.players[seat], field, a)
    setattr(y.players[seat], field, b)
    assert (_enc(x, observer) == _enc(y, observer)) == (a == b)


@settings(max_examples=30, deadline=None)
@given(turn=st.integers(1, 500), support=st.integers(0, 24), deck=st.integers(0, 60))
def test_public_counters_are_encoded_exactly(turn, support, deck):
    s = _games()[2][2][60]
    x = s.clone()
    x.turn, x.support = turn, support * 5
    x.deck = x.deck[:deck]
    g = split_v1(encode_v1(x, 1))["globals"]
    o = GLOBAL_BLOCKS["game"][0] - LAYOUT_V1["globals"][0] + 5
    assert g[o] == np.float32(turn / 25) and g[o + 1] == np.float32(support * 5 / 100)
    assert g[o + 3] == np.float32(min(deck, len(s.deck)) / 50)


# -- (2) hidden information -----------------------------------------------------------------
@pytest.mark.parametrize("preset", ["1981", "errata-all-optional"])
def test_resampling_other_players_hidden_cards_and_counters_leaves_v1_bytes_identical(preset):
    rng = random.Random(11)
    for _pr, n, states in _games():
        if _pr != preset:
            continue
        for s in states[::3]:
            for i in range(n):
                r = resample(s, i, rng)
                assert encode_v1(r, i).tobytes() == encode_v1(s, i).tobytes()


# -- (3) action-to-entity maps ----------------------------------------------------------------
def test_action_character_and_seat_maps_agree_with_the_catalogue_names():
    assert ACTION_CHARACTER.dtype == np.int16 and ACTION_CHARACTER.shape == (NUM_ACTIONS,)
    assert ACTION_SEAT.dtype == np.int16 and ACTION_SEAT.shape == (NUM_ACTIONS,)
    assert ACTION_CARD_TYPE.dtype == np.int16 and ACTION_CARD_TYPE.shape == (NUM_ACTIONS,)
    for a, name in enumerate(NAME):
        if name.startswith("char_"):
            assert ALL_CHARACTER_IDS[ACTION_CHARACTER[a]] == name[5:]
        else:
            assert ACTION_CHARACTER[a] == -1, name
        if name.startswith("player_rel_"):
            assert ACTION_SEAT[a] == int(name.rsplit("_", 1)[1])
            for n in range(2, 7):  # the seat row is the named player's relative seat, for any decider
                for decider in range(n):
                    target = action_player(decider, a, n)
                    assert (target - decider) % n == ACTION_SEAT[a] % n
                    if ACTION_SEAT[a] < n:
                        assert player_action(decider, target, n) == a
        else:
            assert ACTION_SEAT[a] == -1, name
        t = ACTION_CARD_TYPE[a]
        if name.startswith("play_intrigue_as_"):
            assert CARD_TYPE_KEYS[t] == "intrigue"
        elif name.startswith(("play_", "discard_")):
            assert CARD_TYPE_KEYS[t] == name.split("_", 1)[1]
        elif not name.startswith("fandonian_support_"):
            assert t == -1, name
    assert (ACTION_CHARACTER >= 0).sum() == len(ALL_CHARACTER_IDS)
    assert sorted(ACTION_SEAT[ACTION_SEAT >= 0]) == [1, 2, 3, 4, 5]


def test_character_named_in_the_context_marks_its_row_for_a_character_choice():
    found = 0
    for s, p in _deciding_states():
        d = pending(s)
        ctx = d.args["ctx"]
        for key in ("seducer", "assassin", "proposer", "usurper"):
            if ctx.get(key) in CHAR_ROW:
                rows = split_v1(encode_v1(s, p))["characters"]
                assert rows[CHAR_ROW[ctx[key]], _col(f"ctx_{key}")] == 1.0
                found += 1
        if isinstance(ctx.get("roll"), str) and " against " in ctx["roll"]:
            rows = split_v1(encode_v1(s, p))["characters"]
            assert rows[:, _col("ctx_text_first")].sum() == 1 and rows[:, _col("ctx_text_other")].sum() == 1
            found += 1
    assert found > 0


# -- (4) the env -------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 4, 6])
def test_pettingzoo_api_test_on_fandonia_v1(n):
    from pettingzoo.test import api_test

    api_test(fandonia_v1.env(players=n, max_turns=4), num_cycles=150)


def test_fandonia_v1_is_registered_and_observes_v1():
    import pettingzoo

    e = pettingzoo.make("aec", "fandonia/Fandonia-v1", players=3)
    e.reset(seed=0)
    assert e.unwrapped.metadata["name"] == "fandonia_v1"
    obs, *_ = e.last()
    assert obs["observation"].shape == (OBS_V1_SIZE,) and obs["observation"].dtype == np.float32
    assert e.observation_space(e.agent_selection).contains(obs)
    i = e.unwrapped.agent_name_mapping[e.agent_selection]
    assert obs["observation"].tobytes() == encode_v1(e.unwrapped.game.state, i).tobytes()
    assert obs["action_mask"].sum() == len(e.unwrapped.game.legal_actions())


def test_fandonia_v0_is_unchanged_alongside_v1():
    from fandonia_env import fandonia_v0
    from fandonia_env.spaces.observation import OBS_SIZE

    e = fandonia_v0.env(players=4)
    e.reset(seed=0)
    assert e.last()[0]["observation"].shape == (OBS_SIZE,)


# -- (5) no clipping -------------------------------------------------------------------------
def test_values_beyond_v0_clip_limits_are_encoded_distinctly():
    s = _games()[2][2][60]
    pc = s.players[0].pc

    def enc_with(fn):
        x = s.clone()
        fn(x)
        return encode_v1(x, 0)

    from fandonia_env.engine.rules.queries import status

    statuses, encs = [], []
    for k in (12, 13, 14):
        x = s.clone()
        x.wchar("13").fixed_status = k
        statuses.append(status(x, "13"))
        encs.append(encode_v1(x, 0))
    row = CHAR_ROW["13"] * len(CHAR_FEATURES)
    assert min(statuses) >= 12 and len(set(statuses)) == 3
    assert [round(float(e[row + _col("status")]) * 10) for e in encs] == statuses
    assert [round(float(e[row + _col("fixed_status")]) * 10) for e in encs] == [12, 13, 14]
    ip = [enc_with(lambda x, k=k: setattr(x.players[0], "ip", k)) for k in (50, 60, 61)]
    pp = [enc_with(lambda x, k=k: setattr(x.players[0], "pp", k)) for k in (100, 120)]
    base = LAYOUT_V1["seats"][0]
    assert [float(e[base + _scol("ip")]) for e in ip] == pytest.approx([5.0, 6.0, 6.1])
    assert [float(e[base + _scol("pp")]) for e in pp] == pytest.approx([4.0, 4.8])
    titles = [enc_with(lambda x, k=k: setattr(x.wchar(pc), "titles", k)) for k in (4, 6)]
    assert titles[0][CHAR_ROW[pc] * len(CHAR_FEATURES) + _col("titles")] == 2.0
    assert titles[1][CHAR_ROW[pc] * len(CHAR_FEATURES) + _col("titles")] == 3.0
    big_hand = enc_with(lambda x: x.players[1].hand.extend(x.deck[:20]))
    assert big_hand[base + len(SEAT_FEATURES) + _scol("hand_size")] == pytest.approx((len(s.players[1].hand) + 20) / 5)
    long_exile = enc_with(lambda x: setattr(x.wchar("13"), "situation_turns", 34))
    assert long_exile[row + _col("situation_turns")] == pytest.approx(34 / 5)


# -- layout, vocabularies, docs ----------------------------------------------------------------
def test_layout_tiles_the_vector_and_split_returns_views():
    off = 0
    for name in ("characters", "seats", "globals"):
        o, shape = LAYOUT_V1[name]
        assert o == off
        off += int(np.prod(shape))
    assert off == OBS_V1_SIZE and len({label_v1(i) for i in range(OBS_V1_SIZE)}) == OBS_V1_SIZE
    v = encode_v1(_games()[0][2][30], 0)
    parts = split_v1(v)
    assert parts["characters"].shape == (len(ALL_CHARACTER_IDS), len(CHAR_FEATURES))
    assert parts["seats"].shape == (6, len(SEAT_FEATURES))
    for x in parts.values():
        assert np.shares_memory(x, v)
    batch = np.stack([v, v])
    bp = split_v1(batch)
    assert bp["characters"].shape == (2, len(ALL_CHARACTER_IDS), len(CHAR_FEATURES))
    assert np.shares_memory(bp["characters"], batch)
    with pytest.raises(ValueError, match="OBS_V1_SIZE"):
        split_v1(np.zeros(10))
    with pytest.raises(ValueError, match="observer"):
        encode_v1(_games()[0][2][30], 2)


def test_every_ctx_key_the_engine_uses_is_in_the_vocabulary():
    """Keys in the engine's ``ask(..., ctx)`` literals and every key seen in real games have
    their own slot (none falls into the hashed buckets); likewise the turn bookkeeping."""
    src_keys = set()
    for f in (ROOT / "fandonia_env" / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "ask":
                ctx = node.args[4] if len(node.args) >= 5 else None
                if isinstance(ctx, ast.Dict):
                    src_keys |= {k.value for k in ctx.keys if isinstance(k, ast.Constant)}
    assert src_keys and src_keys <= set(CTX_KEYS), sorted(src_keys - set(CTX_KEYS))
    game_keys, pt_keys, unknown_text = set(), set(), set()
    for _pr, _n, states in _games():
        for s in states:
            d = pending(s)
            if d is not None:
                game_keys |= set(d.args["ctx"])
                for v in d.args["ctx"].values():
                    for x in (v if isinstance(v, list) else [v]):
                        if isinstance(x, str) and x not in CHAR_ROW and x not in ov1.CTX_STRINGS \
                                and ":" not in x and ov1.text_template(x) not in ov1.CTX_STRINGS:
                            unknown_text.add(x)
            pt_keys |= set(s.pt)
    assert game_keys <= set(CTX_KEYS), sorted(game_keys - set(CTX_KEYS))
    assert pt_keys <= set(PT_KEYS), sorted(pt_keys - set(PT_KEYS))
    assert not unknown_text, f"context texts with no template in TEXT_TEMPLATES: {sorted(unknown_text)}"


def test_roll_label_names_the_table_and_both_characters():
    s = _games()[2][2][60]
    x = s.clone()
    d = pending(x)
    p = d.args["player"]
    d.args["ctx"].clear()
    d.args["ctx"]["roll"] = "Assassination Table (Duke Henry against Sir Robert)"
    v = encode_v1(x, p)
    rows = split_v1(v)["characters"]
    from fandonia_env.engine.data.components import NOBLES
    henry = next(c for c, nb in NOBLES.items() if nb.name == "Duke Henry")
    assert rows[CHAR_ROW[henry], _col("ctx_text_first")] == 1.0
    assert rows[CHAR_ROW["16"], _col("ctx_text_other")] == 1.0  # Sir Robert
    o = GLOBAL_BLOCKS["ctx_strings"][0]
    assert v[o + ov1.CTX_STRINGS.index("Assassination Table (#C against #C)")] == 1.0
    y = s.clone()
    pending(y).args["ctx"].clear()
    pending(y).args["ctx"]["roll"] = f"player {(p + 1) % x.n}'s Fashion Table"
    seats = split_v1(encode_v1(y, p))["seats"]
    assert seats[1, _scol("ctx_text")] == 1.0 and seats[:, _scol("ctx_text")].sum() == 1


def test_royals_are_flagged_from_printed_data():
    rows = split_v1(encode_v1(_games()[0][2][0], 0))["characters"]
    assert [bool(rows[CHAR_ROW[c], _col("royal")]) for c in ALL_CHARACTER_IDS] == \
        [c in ROYALS for c in ALL_CHARACTER_IDS]


def test_observation_v1_doc_is_generated_and_current():
    text = (ROOT / "docs" / "observation_v1.md").read_text()
    assert text == ov1.observation_v1_md(), "docs/observation_v1.md is stale: run python scripts/make_docs.py"
