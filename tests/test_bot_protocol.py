"""The stdio bot protocol (docs/protocol.md): JSON Schemas of every message kind, the worked transcript
of the doc, refusals that never crash the bot, and a golden game: a full game played through bot
processes is identical to the same game played in Python."""

from __future__ import annotations

import functools
import inspect
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

jsonschema = pytest.importorskip("jsonschema")

from helpers import random_moves  # noqa: E402

from fandonia_env import agents  # noqa: E402
from fandonia_env.apps.bot import Bot, _version, bot_seeds, seat_information  # noqa: E402
from fandonia_env.engine import Game  # noqa: E402
from fandonia_env.engine.face.hidden import InfoSet, resample  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = {p.name.removesuffix(".schema.json"): json.loads(p.read_text())
           for p in (ROOT / "docs" / "protocol").glob("*.schema.json")}


def validate(msg: dict, direction: str) -> None:
    key = f"{direction}-{msg['cmd' if direction == 'cmd' else 'reply']}"
    assert key in SCHEMAS, f"no schema for {key}"
    jsonschema.validate(msg, SCHEMAS[key], cls=jsonschema.Draft202012Validator)


class BotProcess:
    def __init__(self, agent: str) -> None:
        self.p = subprocess.Popen([sys.executable, "-m", "fandonia_env.bot", "--agent", agent],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(self, req: dict | str) -> dict:
        line = req if isinstance(req, str) else json.dumps(req)
        if isinstance(req, dict):
            validate(req, "cmd")
        assert self.p.stdin and self.p.stdout
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        reply = json.loads(self.p.stdout.readline())
        validate(reply, "reply")
        return reply

    def close(self) -> int:
        r = self.ask({"cmd": "quit"})
        assert r == {"reply": "bye"}
        return self.p.wait(10)


def test_every_message_kind_has_a_schema_and_schemas_are_valid():
    kinds = {"hello", "name", "version", "new_game", "position", "go", "quit"}
    assert {k for k in SCHEMAS if k.startswith("cmd-")} == {f"cmd-{k}" for k in kinds}
    assert {k for k in SCHEMAS if k.startswith("reply-")} == {
        f"reply-{k}" for k in ("hello", "name", "version", "ok", "action", "error", "bye")}
    for s in SCHEMAS.values():
        jsonschema.Draft202012Validator.check_schema(s)
    with pytest.raises(jsonschema.ValidationError):  # the schemas can fail
        validate({"cmd": "position", "view": {"me": 0}, "game": {}}, "cmd")
    with pytest.raises(jsonschema.ValidationError):
        validate({"reply": "action", "action": -1, "name": "x", "label": "y"}, "reply")


def test_worked_transcript_of_the_doc_replays_byte_for_byte():
    text = (ROOT / "docs" / "protocol.md").read_text()
    block = re.search(r"## Worked transcript.*?```text\n(.*?)```", text, re.S).group(1)
    sent = [ln[2:] for ln in block.splitlines() if ln.startswith("> ")]
    want = [ln[2:] for ln in block.splitlines() if ln.startswith("< ")]
    out = subprocess.run([sys.executable, "-m", "fandonia_env.bot", "--agent", "random-v1"],
                         input="\n".join(sent) + "\n", capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    got = out.stdout.replace(f'"version":"{_version()}"', '"version":"0.2.0"').splitlines()
    assert got == want
    for ln in got:
        validate(json.loads(ln), "reply")


def test_refusals_are_json_errors_and_the_bot_goes_on():
    g = Game(players=3, seed=4, max_turns=2)
    p = g.current_player()
    bot = BotProcess("noble-rule-v1")
    try:
        cases = [
            ("{", "malformed_json"), ("[1,2]", "bad_request"), ('"go"', "bad_request"),
            ({"cmd": "go"}, "no_position"), ('{"cmd":"fly"}', "unknown_cmd"), ('{"cmd":7}', "unknown_cmd"),
            ('{"cmd":"hello","x":1}', "bad_request"),
            ('{"cmd":"new_game","players":7,"seat":0}', "bad_request"),
            ('{"cmd":"new_game","players":3,"seat":3}', "bad_request"),
            ('{"cmd":"new_game","players":3,"seat":0,"rules":{"preset":"nope"}}', "bad_rules"),
            ('{"cmd":"new_game","players":3,"seat":0,"rules":{"colour":1}}', "bad_rules"),
            ('{"cmd":"new_game","players":3,"seat":0,"seed":-2}', "bad_request"),
            ('{"cmd":"position","view":{"me":0},"legal":[]}', "bad_request"),
            ('{"cmd":"position","view":{"me":0},"legal":[0,0]}', "bad_request"),
            ('{"cmd":"position","view":{"me":0},"legal":[99999]}', "bad_request"),
            ('{"cmd":"position","view":"x","legal":[0]}', "bad_request"),
            ('{"cmd":"position","game":{"nope":1},"seat":0}', "bad_game"),
            ('{"cmd":"position","game":[],"seat":0}', "bad_game"),
            (json.dumps({"cmd": "position", "game": g.to_json(), "seat": 9}), "bad_request"),
            (json.dumps({"cmd": "position", "game": g.to_json(), "seat": (p + 1) % 3}), "not_to_move"),
            (json.dumps({"cmd": "position", "game": g.to_json(), "seat": p, "view": {}}), "bad_request"),
        ]
        for req, code in cases:
            r = bot.ask(req)
            assert r["reply"] == "error" and r["error"] == code, (req, r)
        assert bot.ask({"cmd": "hello", "id": "x"})["id"] == "x"
        assert bot.ask({"cmd": "new_game", "players": 3, "seat": p})["reply"] == "ok"
        r = bot.ask({"cmd": "position", "game": g.to_json(), "seat": p})
        assert r["legal"] == g.legal_actions()
        assert bot.ask({"cmd": "go"})["action"] in g.legal_actions()
        assert bot.close() == 0
    finally:
        bot.p.kill()


def test_golden_game_through_bot_processes_equals_the_python_game():
    """Three bot processes play a whole game; the same game in Python (same agents, seeds and
    procedure: seat_information then InfoSet for a saved-game position, view + legal otherwise) is identical."""
    seats = ["noble-rule-v1", "random-v1", "noble-rule-v2"]
    rules = {"preset": "errata", "max_turns": 6}
    seed = 2024
    n = len(seats)
    bots = [BotProcess(a) for a in seats]
    try:
        for i, b in enumerate(bots):
            assert b.ask({"cmd": "hello"})["agent"] == seats[i]
            assert b.ask({"cmd": "new_game", "players": n, "seat": i, "seed": seed + i, "rules": rules})["reply"] == "ok"
        g = Game(players=n, seed=seed, **rules)
        played = []
        while not g.over:
            p = g.current_player()
            if p == 0:  # the saved-game form
                req = {"cmd": "position", "game": g.to_json(), "seat": p}
            else:  # the view form, as a front end of the game server sends it
                req = {"cmd": "position", "view": g.view(p), "legal": g.legal_actions()}
            r = bots[p].ask(req)
            assert r["reply"] == "ok" and r["legal"] == g.legal_actions(), r
            a = bots[p].ask({"cmd": "go"})
            assert a["reply"] == "action" and a["action"] in g.legal_actions()
            played.append((p, a["action"]))
            g.apply(a["action"])
        assert all(b.close() == 0 for b in bots)
    finally:
        for b in bots:
            b.p.kill()
    # the same game in Python
    ref = Game(players=n, seed=seed, **rules)
    agents_, rngs = [], []
    for i, a in enumerate(seats):
        s, rng = bot_seeds(seed + i)
        bot = agents.make_agent(a, seed=s)
        bot.reset(s)
        agents_.append(bot)
        rngs.append(rng)
    ref_played = []
    while not ref.over:
        p = ref.current_player()
        if p == 0:
            hidden = seat_information(ref.state, p, rngs[p])
            mine = Game.from_state(hidden, advance=False)
            a = agents_[p].act(mine.view(p, log=False), mine.legal_actions(), InfoSet(hidden, p))
        else:
            a = agents_[p].act(ref.view(p), ref.legal_actions(), None)
        ref_played.append((p, a))
        ref.apply(a)
    assert len(played) > 40
    assert played == ref_played
    assert g.dumps() == ref.dumps() and g.log_lines() == ref.log_lines()


def test_search_agent_answers_from_a_saved_game_within_its_view():
    g = Game(players=2, seed=9, max_turns=2)
    for _ in random_moves(g, random.Random(9)):
        if len(g.legal_actions()) >= 3:
            break
    bot = BotProcess("noble-ismcts-v1")
    try:
        p = g.current_player()
        bot.ask({"cmd": "new_game", "players": 2, "seat": p, "seed": 1})
        bot.ask({"cmd": "position", "game": g.to_json(), "seat": p})
        r = bot.ask({"cmd": "go"})
        assert r["reply"] == "action" and r["action"] in g.legal_actions()
        # the same position with the other seat's hidden cards resampled: the same answer
        other = Game.from_state(resample(g.state, p, random.Random(5)), advance=False)
        bot.ask({"cmd": "new_game", "players": 2, "seat": p, "seed": 1})
        bot.ask({"cmd": "position", "game": other.to_json(), "seat": p})
        assert bot.ask({"cmd": "go"})["action"] == r["action"]
        assert bot.close() == 0
    finally:
        bot.p.kill()


@pytest.mark.parametrize("n", [2, 4, 6])
def test_seat_information_depends_only_on_the_seats_view(n):
    """What the bot keeps of a saved game is the same for the true state and for any state that
    differs only in what the seat cannot see: the bot cannot leak hidden cards."""
    g = Game(players=n, seed=50 + n, max_turns=3)
    rng = random.Random(n)
    for i in random_moves(g, rng):
        if i % 7 == 0:
            for seat in range(n):
                other = resample(g.state, seat, rng)
                a = seat_information(g.state, seat, random.Random(i)).to_json()
                b = seat_information(other, seat, random.Random(i)).to_json()
                assert a == b
                assert Game.from_state(seat_information(g.state, seat, random.Random(i)),
                                       advance=False).view(seat) == g.view(seat)


@pytest.mark.parametrize("rid", [{"a": 1}, [1, 2], None, True, 1.5])
def test_request_id_of_the_wrong_type_is_refused_naming_the_field(rid):
    bot = Bot("random-v1")
    req = {"cmd": "hello", "id": rid}
    r = bot.handle(json.dumps(req))
    validate(r, "reply")
    assert r["reply"] == "error" and r["error"] == "bad_request", r
    assert "'id'" in r["detail"] and "a string or an integer" in r["detail"], r["detail"]
    assert json.dumps(rid) in r["detail"]
    assert "id" not in r  # nothing to echo: a reply's id is a string or an integer
    assert bot.handle(json.dumps({"cmd": "hello", "id": 0}))["id"] == 0  # the bot goes on
    assert bot.handle(json.dumps({"cmd": "hello", "id": "x"}))["id"] == "x"


#: the least of each search budget a registered noble's factory may take, so that every noble
#: answers in a few milliseconds in the test below
SMALLEST_BUDGET = {"iterations": 1, "simulations": 1, "determinizations": 1, "stakes_determinizations": 1,
                   "max_determinizations": 1, "turns_ahead": 1}


def _smallest_budget(factory):
    params = inspect.signature(factory).parameters
    kw = {k: v for k, v in SMALLEST_BUDGET.items() if k in params}
    return functools.partial(factory, **kw) if kw else factory


#: every documented form of a position (docs/protocol.md): a saved game and a seat; the seat's view
#: with the legal ids, with and without its log; the view alone (legal from view.decision.options)
POSITION_FORMS = {
    "game+seat": lambda g, seat: {"game": g.to_json(), "seat": seat},
    "view+legal": lambda g, seat: {"view": g.view(seat), "legal": g.legal_actions()},
    "view+legal, no log": lambda g, seat: {"view": g.view(seat, log=False), "legal": g.legal_actions()},
    "view alone": lambda g, seat: {"view": g.view(seat)},
}


@pytest.mark.parametrize("agent_id", sorted(agents.AGENTS))
def test_every_registered_noble_answers_through_every_position_form(agent_id, monkeypatch):
    """Each registered noble (search nobles at their smallest budget) plays a legal action at every
    ``go`` after every documented form of ``position``."""
    monkeypatch.setitem(agents.AGENTS, agent_id, _smallest_budget(agents.AGENTS[agent_id]))
    bot = Bot(agent_id)

    def ask(req: dict) -> dict:
        validate(req, "cmd")
        r = bot.handle(json.dumps(req))
        validate(r, "reply")
        return r

    n, seat, rules = 3, 1, {"preset": "short-game", "max_turns": 2}
    assert ask({"cmd": "new_game", "players": n, "seat": seat, "seed": 5, "rules": rules})["reply"] == "ok"
    g = Game(players=n, seed=21, **rules)
    rng = random.Random(21)
    want = 3
    answered = dict.fromkeys(POSITION_FORMS, 0)
    while not g.over and min(answered.values()) < want:
        legal = g.legal_actions()
        if g.current_player() == seat and len(legal) >= 2:
            for form, make in POSITION_FORMS.items():
                r = ask({"cmd": "position", **make(g, seat)})
                assert r["reply"] == "ok" and r["legal"] == legal, (form, r)
                a = ask({"cmd": "go", "id": form})
                assert a["reply"] == "action" and a["action"] in legal and a["id"] == form, (form, a)
                answered[form] += 1
        g.apply(rng.choice(legal))
    assert answered == dict.fromkeys(POSITION_FORMS, want)


@pytest.mark.parametrize("preset,n", [("errata-all-optional", 3), ("1981", 5)])
def test_a_trained_noble_given_a_view_alone_sees_the_seats_observation(preset, n):
    """A view + legal position has no InfoSet: a trained noble encodes the ``SeatView`` read from the
    view, whose observation (and so its action) is byte for byte the one it gets from the true game."""
    from fandonia_env.engine import SeatView

    ppo = agents.make_agent("noble-ppo-v1", seed=0)
    enc = ppo.policy.encoder
    g = Game(players=n, seed=60 + n, preset=preset, max_turns=3)
    rng = random.Random(n)
    checked = 0
    while not g.over:
        p, legal = g.current_player(), g.legal_actions()
        if len(legal) >= 2:
            view = json.loads(json.dumps(g.view(p)))  # as a front end sends it
            x = enc.observe(SeatView.from_json(view))
            assert x.tobytes() == enc.observe(g.seat_view(p)).tobytes() == enc.encode(g.state, p).tobytes()
            assert ppo.act(view, legal) == ppo.act(g.seat_view(p), legal, InfoSet(g.state, p))
            checked += 1
        g.apply(rng.choice(legal))
    assert checked > 20
