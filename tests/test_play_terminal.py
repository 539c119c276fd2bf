"""The terminal game (python -m fandonia_env.play) driven through a pseudo-terminal with pexpect: a complete
short game (short-game preset) against two nobles, with bad input, help/view/log, and save/load mid-game; the
plain prompts and labels (fandonia_env.wording), the ``status`` panel and the confirmation of a fatal choice."""

from __future__ import annotations

import json
import random
import re
import sys

import pytest

pexpect = pytest.importorskip("pexpect")

from fandonia_env.apps.play import HUMAN, Session, main  # noqa: E402

PROMPT = re.compile(r"choose 1-(\d+) \(or help\)> ")
CONFIRM = re.compile(r"confirm \(y/n\)> ")
RAW = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b|rel:|ctx|None|\{|§")
SEED = 0  # 3 players, short-game: seat 0 choosing at random (Random(0)) ends the game, a win, in turn 7


def spawn(*args: str) -> pexpect.spawn:
    cmd = [sys.executable, "-m", "fandonia_env.play", *args]
    return pexpect.spawn(cmd[0], cmd[1:], encoding="utf-8", timeout=60, dimensions=(50, 200),
                         env={"PYTHONUNBUFFERED": "1", "PATH": "/usr/bin:/bin"})


def prompt(child: pexpect.spawn) -> int:
    child.expect(PROMPT)
    return int(child.match.group(1))


def choose(child: pexpect.spawn, k: int, out: list[str] | None = None) -> int | None:
    """Choose option k, confirming a risky choice; the next prompt's option count, None at the game's end."""
    child.sendline(str(k))
    while True:
        i = child.expect([PROMPT, CONFIRM, r"Game over: (\w+)"])
        if out is not None:
            out.append(child.before)
        if i == 1:
            assert "Chance of success:" in child.before and "At stake:" in child.before
            child.sendline("y")
            continue
        return None if i == 2 else int(child.match.group(1))


def test_terminal_game_complete_short_game_with_bad_input_and_save_load(tmp_path):
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{not json")
    save = tmp_path / "game.json"
    child = spawn("--players", "3", "--seat", "0", "--opponents", "noble-rule-v1,random-v1",
                  "--preset", "short-game", "--seed", str(SEED))
    out: list[str] = []

    def send(line: str) -> int:
        child.sendline(line)
        n = prompt(child)
        out.append(child.before)
        return n

    child.expect("You are Player 0")
    n = prompt(child)
    out.append(child.before)
    assert "Turn 1" in child.before and "1)" in child.before
    # bad input: each answered with what was wrong and what is allowed, and the same decision stays open
    for line, expect in [("abc", "unknown command 'abc': type a number 1-"), ("0", "there is no option 0"),
                         ("99", "there is no option 99: choose 1-"), ("", "type a number 1-"),
                         ("1 2", "just the number"), ("log x", "log takes a positive number"),
                         ("save", "save needs a file name"), ("load", "load needs a file name"),
                         (f"save {tmp_path}/no/such/dir.json", "cannot save to"),
                         (f"load {tmp_path}/missing.json", "cannot read"),
                         (f"load {bad_json}", "is not a JSON file")]:
        assert send(line) == n, line
        assert "error: " in child.before and expect in child.before, (line, child.before)
    # help, view, hand, log
    send("help")
    assert "save FILE" in child.before and "load FILE" in child.before and "status" in child.before
    send("view")
    for key in ("Monarch's Support", "Order of succession", "Character", "Status", "Office", "Faction",
                "Player 1 (noble-rule-v1)", "Player 2 (random-v1)", "Your hand", "Loyalty counters drawn"):
        assert key in child.before, key
    assert child.before.count("\n") > 50  # the court: 47 characters
    send("hand")
    assert "Your hand:" in child.before
    send("log 3")
    assert len([x for x in child.before.splitlines() if x.strip().startswith("[")]) == 3

    rng = random.Random(SEED)
    decisions = 0
    saved_at = None
    while True:
        if decisions == 5 and saved_at is None:
            assert send(f"save {save}") == n
            assert f"saved to {save}" in child.before
            saved_at = (rng.getstate(), n)
            n = choose(child, rng.randrange(n) + 1)
            assert n is not None
            n = choose(child, rng.randrange(n) + 1)
            assert n is not None
            decisions += 2
            child.sendline(f"load {save}")
            n = prompt(child)
            assert f"loaded {save}" in child.before
            state, n_saved = saved_at
            assert n == n_saved
            rng.setstate(state)  # the same choices again: the game goes on as if never left
            decisions -= 2
        k = rng.randrange(n)
        decisions += 1
        nxt = choose(child, k + 1, out)
        if nxt is None:
            break
        n = nxt
        assert decisions < 400
    result = child.match.group(1)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert result in ("win", "draw")
    text = "".join(out)
    assert "Traceback" not in text
    # the record saved mid-game is a game record the replay page opens and 'load' resumes
    doc = json.loads(save.read_text())
    assert doc["seats"][0]["kind"] == "human" and doc["seats"][1]["agent"] == "noble-rule-v1"
    assert doc["config"]["optional"] and doc["game"]["steps"] >= len(doc["actions"])


def test_terminal_game_bad_arguments_exit_2_with_message(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--players", "3", "--seat", "3"])
    assert e.value.code == 2
    assert "--seat must be 0..2" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--opponents", "no-such-noble"])
    assert "unknown agent 'no-such-noble'" in capsys.readouterr().err
    assert main(["--load", "/no/such/file.json"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_terminal_game_load_refuses_a_changed_record(tmp_path):
    import io

    from fandonia_env.engine.face.game import make_config

    s = Session(make_config(players=3, seed=3, preset="short-game"), [HUMAN, "random-v1", "random-v1"],
                out=io.StringIO())
    s.run_nobles()
    s.apply(s.game.legal_actions()[-1])
    s.run_nobles()
    path = tmp_path / "g.json"
    s.save(str(path))
    again = Session.load(str(path), io.StringIO())
    assert again.game.dumps() == s.game.dumps()
    doc = json.loads(path.read_text())
    doc["actions"][0]["seat"] = (doc["actions"][0]["seat"] + 1) % 3
    path.write_text(json.dumps(doc))
    with pytest.raises(Exception, match="does not fit the game"):
        Session.load(str(path), io.StringIO())


def test_terminal_game_plain_prompt_status_panel_and_confirmation_of_a_fatal_choice():
    child = spawn("--players", "3", "--seat", "0", "--opponents", "noble-rule-v1,random-v1",
                  "--preset", "short-game", "--seed", str(SEED))
    child.expect("You are Player 0")
    n = prompt(child)
    shown = child.before
    block = shown[shown.index(">> "):]  # the decision: its prompt and numbered choices
    assert ">> Your turn: choose an activity" in block
    assert not RAW.search(block), block
    m = re.search(r"(\d+)\) Usurp the throne \(best chance (\d+)%.*\[risky\]", block)
    assert m, block
    usurp = int(m.group(1))
    # the race for the throne and the seat's faction
    child.sendline("status")
    assert prompt(child) == n
    for key in ("Goal: Put one of your royal allies on the throne", "Now: ", "Countdown", "Odds",
                "Claim to the throne", "You, Player 0", "Player 1 (", "Player 2 (", "Your faction:",
                "your player character (PC)"):
        assert key in child.before, (key, child.before)
    # explain an option
    child.sendline(f"explain {usurp}")
    assert prompt(child) == n
    assert "rule: §36.1" in child.before and "risky: chance of success" in child.before
    # a fatal choice asks first, with its odds and what is lost; 'n' goes back to the same decision
    child.sendline(str(usurp))
    child.expect(CONFIRM)
    assert "!! Attempt to usurp the throne of King George?" in child.before
    assert f"Chance of success: {m.group(2)}%" in child.before
    assert "your PC dies" in child.before and "Support card" in child.before
    child.sendline("maybe")
    child.expect(CONFIRM)
    assert "answer y or n" in child.before
    child.sendline("n")
    assert prompt(child) == n
    assert "cancelled: choose again" in child.before
    # 'y' carries it out: the usurpation fails (0%) and the PC dies
    child.sendline(str(usurp))
    child.expect(CONFIRM)
    child.sendline("y")
    child.expect(PROMPT)
    assert "attempts to usurp the throne" in child.before
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
