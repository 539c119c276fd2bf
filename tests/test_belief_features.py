"""The hidden pool and the mixture belief of ``engine.rules.rule_queries`` (issue 27), the belief block
(``fandonia_env.spaces.belief_features``) and the ``v1b`` encoder built on it."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from helpers import random_moves

from fandonia_env.engine import Game
from fandonia_env.engine.data.components import CARD_TYPE_OF
from fandonia_env.engine.data.tables import SUPPORT_VALUES
from fandonia_env.engine.face.game import player_view
from fandonia_env.engine.face.hidden import InfoSet, resample
from fandonia_env.engine.rules.rule_queries import (
    _conv,
    belief_usurpation_chance,
    best_usurpation,
    dice_distribution,
    hidden_hand_size,
    hidden_pool,
    p_greater,
    royal_uv_distribution,
    support_multiplier,
    usurpation_parts,
    usurpers,
)
from fandonia_env.spaces.belief_features import BELIEF_FEATURES, BELIEF_FEATURES_SIZE, encode_belief_features
from fandonia_env.spaces.encoders import ENCODERS, get_encoder

IDX = {f: i for i, f in enumerate(BELIEF_FEATURES)}
CONFIGS = [
    {"players": 2, "edition": "1981"},
    {"players": 4, "edition": "errata"},
    {"players": 6, "edition": "1981"},
    {"players": 6, "edition": "errata"},
    {"players": 4, "preset": "errata-all-optional"},
    {"players": 3, "preset": "1981-all-optional"},
]


def _games(cfg: dict, seeds: range, every: int, max_turns: int = 40):
    """Random games; yields the game every ``every`` moves."""
    for seed in seeds:
        g = Game(seed=seed, max_turns=max_turns, **cfg)
        for i in random_moves(g, random.Random(seed)):
            if i % every == 0:
                yield g


def _pool_dealt_by_resample(st, seat: int) -> tuple[tuple[str, int], ...]:
    """What ``resample`` redeals: the pile and the other hands but their DWTK cards, after the deal."""
    s = resample(st, seat, random.Random(0))
    cards = list(s.deck) + [c for pl in s.players if pl.idx != seat for c in pl.hand if CARD_TYPE_OF[c] != "dwtk"]
    return tuple(sorted(Counter(CARD_TYPE_OF[c] for c in cards).items()))


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: f"{c['players']}p-{c.get('preset', c.get('edition'))}")
def test_hidden_pool_from_the_view_equals_the_pool_from_the_state_and_the_pool_resample_deals(cfg: dict) -> None:
    """The view-side derivation (every card less what the view shows) finds exactly the pile and the
    other hands' non-DWTK cards, at every seat of many positions, and so does ``resample``'s deal."""
    checked = 0
    for g in _games(cfg, range(3), every=3):
        st = g.state
        for seat in range(st.n):
            pool = hidden_pool(st, seat)
            view = player_view(st, seat, log=False)
            assert hidden_pool(view, seat) == pool, (g.state.turn, seat)
            assert pool == _pool_dealt_by_resample(st, seat)
            assert sum(k for _, k in pool) == view["deck_size"] + sum(
                pl["hand_size"] - 1 for pl in view["players"] if pl["idx"] != seat)
            for q in range(st.n):
                assert hidden_hand_size(view, q) == hidden_hand_size(st, q)
            checked += 1
    assert checked > 200


def test_hidden_pool_from_a_view_is_the_viewers_only() -> None:
    g = Game(players=3, seed=1)
    with pytest.raises(ValueError, match="view"):
        hidden_pool(player_view(g.state, 0, log=False), 1)


def _reference_belief(st, seat: int, o: int) -> float:
    """The probe's first closed form (n convolutions of one hidden card per candidate royal)."""
    pool = hidden_pool(st, seat)
    total = sum(k for _, k in pool)
    card: dict[int, float] = {0: 0.0}
    for t, k in pool:
        d = dice_distribution(1, support_multiplier(st, o, t)[0]) if t in SUPPORT_VALUES else {0: 1.0}
        for v, pv in d.items():
            card[v] = card.get(v, 0.0) + pv * k / total
    best = 0.0
    for cid in usurpers(st, o):
        parts = usurpation_parts(st, o, cid, with_hand=False)
        u = royal_uv_distribution(cid)
        for m in parts.usurper_cards:
            u = _conv(u, dice_distribution(1, m))
        for _ in range(hidden_hand_size(st, o)):
            u = _conv(u, card)
        m_d = {parts.monarch_fixed + parts.monarch_bonus - parts.usurper_fixed: 1.0}
        m_d = _conv(m_d, royal_uv_distribution(parts.monarch, parts.monarch_halved))
        if parts.monarch_extra is not None:
            m_d = _conv(m_d, royal_uv_distribution(parts.monarch_extra))
        for m in parts.monarch_cards:
            m_d = _conv(m_d, dice_distribution(1, m))
        best = max(best, p_greater(u, m_d))
    return best


def _fuller_hands(seed: int, players: int, edition: str):
    """Games of scripted nobles, who keep their Support cards in hand (the belief's real use)."""
    from fandonia_env.agents import make_agent

    g = Game(players=players, seed=seed, max_turns=25, edition=edition)
    bots = [make_agent("noble-rule-v1", seed=seed * 10 + i) for i in range(players)]
    k = 0
    while not g.over:
        k += 1
        if k % 5 == 0:
            yield g
        p = g.current_player()
        g.apply(bots[p].act(g.view(p, log=False), g.legal_actions(), InfoSet(g.state, p)))


def test_belief_odds_are_the_mixture_in_0_1_and_at_least_the_face_up_odds() -> None:
    """The belief is the plain mixture convolution (up to rounding), in [0, 1]; 0 while no Monarch
    reigns or for a player who may not usurp; never below the face-up odds (hidden cards can only add
    Support dice), and exactly them without hidden cards; above them in some positions."""
    checked = above = 0
    for edition, players in (("errata", 4), ("1981", 3)):
        for g in _fuller_hands(5, players, edition):
            st = g.state
            for seat in range(st.n):
                view = player_view(st, seat, log=False)
                for o in range(st.n):
                    if o == seat:
                        continue
                    q = belief_usurpation_chance(st, seat, o)
                    assert belief_usurpation_chance(view, seat, o) == q
                    assert 0.0 <= q <= 1.0
                    face = best_usurpation(st, o, with_hand=False)[1]
                    if st.monarch is None or not usurpers(st, o):
                        assert q == 0.0
                        continue
                    assert abs(q - _reference_belief(st, seat, o)) < 1e-9
                    assert q >= face - 1e-12
                    if hidden_hand_size(st, o) == 0:
                        assert q == face
                    above += q > face + 1e-9
                    checked += 1
    assert checked > 100 and above > 20
    with pytest.raises(ValueError, match="own hand"):
        belief_usurpation_chance(st, 0, 0)


def test_belief_is_zero_when_no_monarch_reigns() -> None:
    g = Game(players=4, seed=3)
    view = player_view(g.state, 0, log=False)
    view["monarch"] = None  # a view, as GameState.monarch is a str (typed so in the compiled engine)
    assert all(belief_usurpation_chance(view, 0, o) == 0.0 for o in range(1, 4))
    x = encode_belief_features(view, 0)
    assert all(x[IDX[f"opp{k}_belief_best"]] == 0.0 for k in range(1, 6))


def test_belief_features_read_the_seats_view_only() -> None:
    """The block from the state equals the block from the seat's view, byte for byte; absent seats are zeros;
    the hidden-card and Support counts are the view's."""
    checked = 0
    for cfg in CONFIGS:
        for g in _games(cfg, range(2), every=7):
            st = g.state
            for p in range(st.n):
                a = encode_belief_features(st, p)
                b = encode_belief_features(player_view(st, p, log=False), p)
                assert a.dtype == np.float32 and a.shape == (BELIEF_FEATURES_SIZE,)
                assert a.tobytes() == b.tobytes()
                for k in range(1, 6):
                    if k >= st.n:
                        assert not a[3 * (k - 1):3 * k].any()
                    else:
                        h = hidden_hand_size(st, (p + k) % st.n)
                        assert a[IDX[f"opp{k}_hidden_cards"]] == np.float32(h / 10)
                        assert 0.0 <= a[IDX[f"opp{k}_support_share"]] <= 1.0
                checked += 1
    assert checked > 100


def test_v1b_extends_v1r_with_the_belief_block() -> None:
    v1r, v1b = get_encoder("v1r"), get_encoder("v1b")
    assert "v1b" in ENCODERS
    assert v1b.extends == "v1r" and v1b.size == v1r.size + BELIEF_FEATURES_SIZE
    assert v1b.layout[:len(v1r.layout)] == v1r.layout and v1b.layout[-1] == ("belief_features", v1r.size,
                                                                               (BELIEF_FEATURES_SIZE,))
    assert v1b.entity_blocks == v1r.entity_blocks
    assert v1b.version == v1r.version + "+belief_features" and v1b.fingerprint != v1r.fingerprint
    assert np.array_equal(v1b.input_mask[:v1r.size], v1r.input_mask) and v1b.input_mask[v1r.size:].all()
    for g in _games({"players": 4, "edition": "errata"}, range(1), every=9):
        p = g.current_player()
        x = v1b.encode(g.state, p)
        assert x.dtype == np.float32 and x.shape == (v1b.size,)
        assert x[:v1r.size].tobytes() == v1r.encode(g.state, p).tobytes()
        assert x[v1r.size:].tobytes() == encode_belief_features(g.state, p).tobytes()


@pytest.mark.parametrize("n,edition", [(2, "1981"), (4, "errata"), (6, "errata")])
def test_v1b_reads_only_the_seats_information(n: int, edition: str) -> None:
    """What an agent encodes (``observe``: its view and its InfoSet) is the vector of the true state, and it
    does not change when everything hidden from the seat is redrawn (``resample``)."""
    enc = get_encoder("v1b")
    rng = random.Random(n)
    checked = 0
    for g in _games({"players": n, "edition": edition}, range(40 + n, 41 + n), every=4, max_turns=15):
        p = g.current_player()
        view = g.view(p, log=False)
        x = enc.encode(g.state, p)
        assert enc.observe(view, InfoSet(g.state, p)).tobytes() == x.tobytes()
        for _ in range(2):
            other = resample(g.state, p, rng)
            assert player_view(other, p, log=False) == view
            assert enc.encode(other, p).tobytes() == x.tobytes()
        checked += 1
        if checked == 25:
            break
    assert checked >= 10


def test_a_v1r_policy_widened_to_v1b_takes_the_same_decisions() -> None:
    """``widen_input`` gives the belief block zero weights: every logit and value is unchanged."""
    torch = pytest.importorskip("torch")
    from fandonia_env.engine.core.actions import NUM_ACTIONS
    from fandonia_env.training.model import PolicyNet, widen_input

    v1r, v1b = get_encoder("v1r"), get_encoder("v1b")
    torch.manual_seed(0)
    net = PolicyNet.for_encoder(v1r, NUM_ACTIONS, [32])
    wide = widen_input(net, v1r, v1b)
    assert wide.obs_size == v1b.size
    checked = 0
    for g in _games({"players": 4, "edition": "1981"}, range(11, 12), every=5, max_turns=10):
        p = g.current_player()
        xr, xb = v1r.encode(g.state, p), v1b.encode(g.state, p)
        la, va = net(torch.as_tensor(xr)[None])
        lb, vb = wide(torch.as_tensor(xb)[None])
        assert torch.allclose(la, lb, atol=1e-5) and torch.allclose(va, vb, atol=1e-5)
        checked += 1
        if checked == 20:
            break
    assert checked >= 10
    with pytest.raises(ValueError, match="does not extend"):
        widen_input(wide, v1b, v1r)
