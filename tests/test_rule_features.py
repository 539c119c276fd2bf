"""The rule-features block (``fandonia_env.spaces.rule_features``) and the ``v1r`` encoder built on it."""

from __future__ import annotations

import numpy as np
import pytest

from fandonia_env.agents import make_agent
from fandonia_env.engine.face.game import Game, player_view
from fandonia_env.engine.rules.rule_queries import usurpation_chance, usurpers
from fandonia_env.spaces.rule_features import RULE_FEATURES, RULE_FEATURES_SIZE, encode_rule_features

IDX = {f: i for i, f in enumerate(RULE_FEATURES)}


def _positions(n: int, seed: int, edition: str, max_turns: int = 25):
    g = Game(players=n, seed=seed, edition=edition, max_turns=max_turns)
    bots = [make_agent("noble-rule-v2", seed=seed * 10 + i) for i in range(n)]
    while not g.over:
        yield g
        p = g.current_player()
        g.apply(bots[p].act(g.view(p, log=False), g.legal_actions()))


@pytest.mark.parametrize("n,seed,edition", [(2, 1, "1981"), (4, 2, "errata"), (6, 3, "1981")])
def test_rule_features_from_the_view_equal_those_from_the_state(n: int, seed: int, edition: str) -> None:
    """The block is a function of the seat's view: computed from the view or from the state it is
    the same bytes, for every seat at every step (so it carries no hidden information)."""
    steps = 0
    for g in _positions(n, seed, edition):
        for q in range(n):
            a = encode_rule_features(g.state, q)
            b = encode_rule_features(player_view(g.state, q, log=False), q)
            assert a.dtype == np.float32 and a.shape == (RULE_FEATURES_SIZE,)
            assert a.tobytes() == b.tobytes(), (steps, q)
        steps += 1
        if steps > 400:
            break
    assert steps > 50


def test_rule_features_are_the_engines_usurpation_odds() -> None:
    """The odds in the block are exactly ``rule_queries.usurpation_chance`` for the seat's usurpers
    (with the hand) and the opponents' best odds from the cards in front."""
    checked = 0
    for g in _positions(4, 7, "errata", max_turns=40):
        s = g.state
        if s.monarch is None:
            continue
        for p in range(4):
            x = encode_rule_features(s, p)
            cands = usurpers(s, p)
            assert x[IDX["me_can_usurp"]] == float(bool(cands))
            for c in cands:
                assert x[IDX[f"usurp_ok_{c}"]] == 1.0
                assert x[IDX[f"usurp_hand_{c}"]] == np.float32(usurpation_chance(s, p, c, True))
            best = max((usurpation_chance(s, p, c, True) for c in cands), default=0.0)
            assert x[IDX["me_best_hand"]] == np.float32(best)
            for k in range(1, 4):
                q = (p + k) % 4
                qb = max((usurpation_chance(s, q, c, False) for c in usurpers(s, q)), default=0.0)
                assert x[IDX[f"opp{k}_best_front"]] == np.float32(qb)
            checked += 1
    assert checked > 20


def test_v1r_extends_v1_and_a_v1_policy_widens_without_changing_a_decision() -> None:
    """``v1r`` is v1 followed by the rule features; ``widen_input`` turns a v1 policy into a v1r
    one whose new inputs have zero weight, so every logit and value is unchanged."""
    torch = pytest.importorskip("torch")
    from fandonia_env.engine.core.actions import NUM_ACTIONS
    from fandonia_env.spaces.encoders import get_encoder
    from fandonia_env.training.model import PolicyNet, widen_input

    v1, v1r = get_encoder("v1"), get_encoder("v1r")
    assert v1r.extends == "v1" and v1r.size == v1.size + RULE_FEATURES_SIZE
    assert v1r.fingerprint != v1.fingerprint
    torch.manual_seed(0)
    net = PolicyNet.for_encoder(v1, NUM_ACTIONS, [32])
    wide = widen_input(net, v1, v1r)
    assert wide.obs_size == v1r.size
    for k, g in enumerate(_positions(3, 11, "1981", max_turns=8)):
        p = g.current_player()
        x1 = v1.encode(g.state, p)
        xr = v1r.encode(g.state, p)
        assert np.array_equal(xr[: v1.size], x1)
        la, va = net(torch.as_tensor(x1)[None])
        lb, vb = wide(torch.as_tensor(xr)[None])
        assert torch.allclose(la, lb, atol=1e-5) and torch.allclose(va, vb, atol=1e-5)
        if k > 60:
            break
    with pytest.raises(ValueError, match="does not extend"):
        widen_input(wide, v1r, v1)
