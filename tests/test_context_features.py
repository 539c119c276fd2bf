"""The decision-context block (``fandonia_env.spaces.context_features``), the ``v1c`` encoder built on
it (with the seat's previous decision kind as memory) and the entity heads' ``entity_context``."""

from __future__ import annotations

import random

import numpy as np
import pytest
import torch

from fandonia_env.agents import make_agent
from fandonia_env.agents.noble_rule import NobleRuleV1
from fandonia_env.agents.ppo_agent import NumpyPolicy, PPOAgent
from fandonia_env.engine.core.actions import NAME, NUM_ACTIONS
from fandonia_env.engine.data.components import ALL_CHARACTER_IDS
from fandonia_env.engine.face.game import Game, player_view
from fandonia_env.engine.face.hidden import InfoSet
from fandonia_env.spaces.context_features import (
    CHAR_CONTEXT,
    CHAR_CONTEXT_SIZE,
    CONTEXT_FEATURES,
    CONTEXT_FEATURES_SIZE,
    PRESTIGE_TABLES,
    encode_char_context,
    encode_context_features,
    roll_class,
)
from fandonia_env.spaces.encoders import get_encoder
from fandonia_env.training.model import PolicyNet, export_npz, load_checkpoint, numpy_weights, widen_input

IDX = {f: i for i, f in enumerate(CONTEXT_FEATURES)}


def _teacher_game(n: int, seed: int, max_turns: int = 20):
    """(game, seat, legal, the teacher's previous decision kind) at every decision of a noble-rule-v1 game."""
    g = Game(players=n, seed=seed, max_turns=max_turns)
    bots = [NobleRuleV1(seed=seed * 10 + i) for i in range(n)]
    while not g.over:
        p = g.current_player()
        legal = g.legal_actions()
        yield g, p, legal, bots[p]._last_kind
        g.apply(bots[p].act(g.view(p, log=False), legal))


def test_v1r_is_unchanged_and_v1c_extends_it() -> None:
    """v1r keeps the layout the shipped policy was trained on; v1c is v1r followed by the block."""
    v1r, v1c = get_encoder("v1r"), get_encoder("v1c")
    assert v1r.fingerprint == "f4c31ab401b28d31" and not v1r.memory
    assert v1c.extends == "v1r" and v1c.memory
    assert v1c.size == v1r.size + CONTEXT_FEATURES_SIZE + CHAR_CONTEXT_SIZE
    assert v1c.layout[-2] == ("context_features", v1r.size, (CONTEXT_FEATURES_SIZE,))
    assert v1c.layout[-1] == ("char_context", v1r.size + CONTEXT_FEATURES_SIZE, (47, len(CHAR_CONTEXT)))
    assert [b.name for b in v1c.entity_blocks] == [b.name for b in v1r.entity_blocks] + ["char_context", "prestige_tables"]
    rows = v1c.block("char_context")
    assert np.array_equal(rows.action_index, v1c.block("characters").action_index)
    # prestige_<table> names its table's row of the context block: the features named prestige_<table>_*
    tables = v1c.block("prestige_tables")
    for a in np.flatnonzero(tables.action_index >= 0):
        t = NAME[int(a)][len("prestige_"):]
        names = [n for n in CONTEXT_FEATURES if n.startswith(f"prestige_{t}_")]
        start = v1r.size + CONTEXT_FEATURES.index(names[0]) - tables.offset
        assert start == int(tables.action_index[a]) * tables.feats and len(names) == tables.feats
    assert sorted(NAME[int(a)] for a in np.flatnonzero(tables.action_index >= 0)) == sorted(
        f"prestige_{t}" for t in PRESTIGE_TABLES)
    assert make_agent("noble-ppo-v1").policy.encoder.name == "v1r"


@pytest.mark.parametrize("n,seed", [(3, 5), (5, 6)])
def test_v1c_from_the_state_equals_what_the_seat_observes(n: int, seed: int) -> None:
    """encode(state, p, prev) == observe(view, infoset, prev), the v1r prefix is v1r's vector, the
    previous kind is the teacher's own ``_last_kind``, and a determinisation of the seat's information
    set (hidden parts redrawn) gives the same context block: it carries no hidden information."""
    v1r, v1c = get_encoder("v1r"), get_encoder("v1c")
    rng = random.Random(seed)
    steps = rolls = 0
    for g, p, legal, last in _teacher_game(n, seed):
        if len(legal) < 2:
            continue
        info = InfoSet(g.state, p)
        x = v1c.encode(g.state, p, last)
        assert x.dtype == np.float32 and x.shape == (v1c.size,)
        assert x.tobytes() == v1c.observe(g.view(p, log=False), info, last).tobytes()
        assert x[:v1r.size].tobytes() == v1r.encode(g.state, p).tobytes()
        ctx = x[v1r.size:v1r.size + CONTEXT_FEATURES_SIZE]
        sample = info.sample(rng)
        assert ctx.tobytes() == encode_context_features(sample, p, last).tobytes()
        assert x[v1r.size + CONTEXT_FEATURES_SIZE:].tobytes() == encode_char_context(sample, p).tobytes()
        assert ctx[IDX["prev_kind_none" if last is None else f"prev_kind_{last}"]] == 1.0
        rolls += int(ctx[IDX["roll_none"]] == 0.0)
        steps += 1
        if steps > 300:
            break
    assert steps > 50 and rolls > 0


def test_roll_facts_follow_the_label() -> None:
    g = Game(players=4, seed=3)
    view = player_view(g.state, 0, log=False)
    mine = next(c for c, ch in view["chars"].items() if ch["owner"] == 0)
    theirs = next(c for c, ch in view["chars"].items() if ch["owner"] == 1)
    from fandonia_env.engine.data.components import character_name

    for label, cls in (("Trial of X", "hearing_trial"), ("Assassination Table (A against B)", "assassination"),
                       ("Royal Favor Table", "royal_favor"), ("Seduction", "seduction"), ("", "none"),
                       ("Famine resolution (Ability 4)", "resolution"), ("Whatever", "other")):
        assert roll_class(label) == cls
    label = f"Assassination Table ({character_name(mine)} against {character_name(theirs)})"
    view["decision"] = {"kind": "declare_modifier", "options": [], "ctx": {"roll": label, "why": "x"}}
    x = encode_context_features(view, 0, "assassination_target")
    assert x[IDX["roll_assassination"]] == 1.0 and x[IDX["roll_assassin_mine"]] == 1.0
    assert x[IDX["roll_target_mine"]] == 0.0 and x[IDX["prev_kind_assassination_target"]] == 1.0
    view["decision"]["ctx"] = {"roll": f"Trial of {character_name(theirs)}"}
    x = encode_context_features(view, 0, "no_such_kind")
    assert x[IDX["roll_owner_opp"]] == 1.0 and x[IDX["roll_owner_me"]] == 0.0 and x[IDX["prev_kind_other"]] == 1.0


def test_entity_context_torch_equals_numpy_and_old_headers_stay() -> None:
    """With ``entity_context`` the numpy forward equals torch's; without it the header has no new key."""
    enc = get_encoder("v1c")
    torch.manual_seed(0)
    plain = PolicyNet.for_encoder(enc, NUM_ACTIONS, [16], 8, 4)
    assert "entity_context" not in plain.header(enc)
    net = PolicyNet.for_encoder(enc, NUM_ACTIONS, [16], 8, 4, skip=[5, 9], skip_actions=[3], entity_context=6)
    assert net.header(enc)["entity_context"] == 6
    x = torch.randn(3, enc.size)
    with torch.no_grad():
        lt, vt = net(x)
    pol = NumpyPolicy(net.header(enc), numpy_weights(net))
    ln, vn = pol.forward(x.numpy())
    np.testing.assert_allclose(ln, lt.numpy(), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(vn, vt.numpy(), rtol=1e-4, atol=1e-4)


def test_a_v1c_policy_plays_with_its_own_memory(tmp_path) -> None:
    """A ppo agent on a v1c policy keeps its seat's previous decision kind (forgotten on reset) and
    plays a whole game; a v1r policy with a skip head widens to v1c without changing a logit."""
    v1r, v1c = get_encoder("v1r"), get_encoder("v1c")
    torch.manual_seed(1)
    net = PolicyNet.for_encoder(v1c, NUM_ACTIONS, [16], 8, 4, entity_context=4)
    path = export_npz(net, tmp_path / "p.npz", v1c)
    assert load_checkpoint(path)[0].entity_context == 4
    g = Game(players=3, seed=2, max_turns=6)
    bots = [PPOAgent(path, seed=i) for i in range(3)]
    teacher = [NobleRuleV1(seed=i) for i in range(3)]
    for b in bots:
        b.reset(0)
    while not g.over:
        p = g.current_player()
        legal, view = g.legal_actions(), g.view(p, log=False)
        a = bots[p].act(view, legal, InfoSet(g.state, p))
        teacher[p].act(view, legal)
        assert bots[p].prev_kind == teacher[p]._last_kind
        g.apply(a)
    bots[0].reset(1)
    assert bots[0].prev_kind is None
    narrow = PolicyNet.for_encoder(v1r, NUM_ACTIONS, [16], 8, 4, skip=[v1r.size - 1], skip_actions=[7])
    wide = widen_input(narrow, v1r, v1c)
    x = torch.randn(2, v1c.size)
    with torch.no_grad():
        torch.testing.assert_close(wide(x)[0], narrow(x[:, :v1r.size])[0])


def test_collect_and_imitate_on_v1c_with_kind_weights(tmp_path) -> None:
    """collect with v1c keeps each seat's previous decision kind (the teacher's ``_last_kind``);
    imitate trains on it with ``entity_context``, a skip head over two blocks and ``kind_weights``
    (an unknown kind is refused), and the exported policy plays."""
    from fandonia_env.arena.tournament import run_tournament
    from fandonia_env.training import collect as C
    from fandonia_env.training import imitate as I
    from fandonia_env.training.common import ConfigError, validate

    cfg = validate({"out": str(tmp_path / "c"), "games": 2, "shard_games": 2, "players": [3, 3], "max_turns": 6,
                    "seed": 4, "jobs": 1, "progress": False, "encoder": "v1c"}, C.SCHEMA)
    C.collect(cfg)
    z = np.load(tmp_path / "c" / "shard_00000.npz")
    off = get_encoder("v1r").size
    assert (z["obs"][:, off + IDX["prev_kind_none"]] == 1).sum() == 6  # each seat's first decision of 2 games
    base = {"data": str(tmp_path / "c"), "epochs": 1, "batch_size": 64, "hidden": [16], "entity_hidden": 8,
            "entity_dim": 4, "test_fraction": 0.5, "progress": False, "entity_context": 4,
            "skip": ["rule_features", "context_features"], "skip_actions": ["free_usurp", "prestige_craft"]}
    with pytest.raises(ConfigError, match="kind_weights"):
        I.imitate(validate({**base, "out": str(tmp_path / "bad"), "kind_weights": {"no_such_kind": 2}}, I.SCHEMA))
    m = I.imitate(validate({**base, "out": str(tmp_path / "i"), "kind_weights": {"turn_main": 3}}, I.SCHEMA))
    hd = json_header(m["policy"])  # the header records the architecture
    assert hd["entity_context"] == 4 and hd["encoder"] == "v1c" and len(hd["skip"]) == CONTEXT_FEATURES_SIZE + 110
    spec = f"ppo:{m['policy']}"
    r = run_tournament(lineup=[spec, "random-v1"], games=2, max_turns=3, jobs=1, progress=False, plot=False)
    assert r.summary["agents"][spec]["games"] == 2


def json_header(path) -> dict:
    import json

    with np.load(path, allow_pickle=False) as w:
        return json.loads(str(w["__header__"]))


def test_char_context_rows_state_the_pp_limit_choice_the_teacher_makes() -> None:
    """At the §35.5 PP-limit choice the teacher loses a non-royal first, one whose Status covers the
    shortfall first, then the lowest such Status (or the highest when none covers it), the first
    listed on ties: the char_context rows alone give that order, and they are the same from the
    state and from the seat's view.  Elsewhere the shortfall columns are 0."""
    enc = get_encoder("v1c")
    rows_of = enc.block("char_context")
    seen = other = 0
    for seed in range(40):
        for g, p, legal, _last in _teacher_game(4, 300 + seed, max_turns=60):
            if len(legal) < 2:
                continue
            kind = (g.decision() or {}).get("kind")
            r = encode_char_context(g.state, p).reshape(47, len(CHAR_CONTEXT))
            assert np.array_equal(r, encode_char_context(player_view(g.state, p, log=False), p).reshape(47, -1))
            x = enc.encode(g.state, p)
            assert np.array_equal(x[rows_of.offset: rows_of.offset + CHAR_CONTEXT_SIZE], r.reshape(-1))
            if kind != "pp_limit_lose":
                other += 1
                assert not r[:, [1, 2, 3, 5]].any()
                continue
            seen += 1
            assert r[:, 1].all()
            teacher = NobleRuleV1(seed=0).act(g.view(p, log=False), legal)
            cands = [a for a in legal if NAME[a].startswith("char_")]

            def key(a: int, r: np.ndarray = r) -> tuple[float, ...]:
                i = ALL_CHARACTER_IDS.index(NAME[a][5:])
                royal, _, covers, d, pos, points = r[i]
                assert points == pytest.approx(10 * d, abs=1e-4)
                return (royal, 1 - covers, d if covers else -d, pos)

            assert min(cands, key=key) == teacher
        if seen >= 5:
            break
    assert seen >= 5 and other > 0
