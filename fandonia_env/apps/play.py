"""Play Down With The King against the computer nobles in a terminal.

    python -m fandonia_env.play --players 4 --seat 0 --opponents noble-rule-v1
    python -m fandonia_env.play --players 3 --preset short-game --opponents noble-rule-v1,random-v1 --seed 7
    python -m fandonia_env.play --load game.json

You see what your seat may know (``Game.view``) - the court, the throne, Monarch's Support and problems,
every player's IP/PP/hand size/cards in front, your hand and drawn counters, the log with your private
lines - and choose by number. Every question and choice is in plain words (``fandonia_env.wording``, the
same words as the server's play page); a fatal or risky choice (a usurpation, an assassination, a duel, a
dangerous table roll) shows its odds and what is lost and asks ``y/n`` first. At any decision: ``help``,
``status`` (the race for the throne and your faction), ``explain N`` (more about option N), ``advise`` (what
the strongest noble would play here, its estimate of your chance to win and the options it weighs; ``--advisor``
shows it at every decision), ``view`` (the
whole table), ``hand``, ``court``, ``log [N]``, ``save FILE``, ``load FILE``, ``quit``. Bad input is
answered with what was wrong and what is allowed; it never ends the game. A saved file is a game record (rules, seats, every action
and the current position) that ``load`` resumes and the server's replay page opens.

Plain text only, no dependency beyond the engine and the agents.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any, TextIO

import fandonia_env.agents as agent_registry

from .. import words as wording
from ..engine import Game, StateError
from ..engine.core.actions import NAME, NUM_ACTIONS
from ..engine.core.options import ConfigError
from ..engine.data import components as C
from ..engine.data.tables import COUNSELING_TABLES
from ..engine.face.game import make_config
from ..engine.face.hidden import InfoSet
from ..engine.face.preview import preview
from ..tools.cli import add_rules_args, agent_list_arg, max_turns_arg, players_arg, rules_from_args, seed_arg

__all__ = [
    "FORMAT", "HELP", "HUMAN", "PlayError", "Session", "agent_seed", "char_name", "decision_title", "faction_of",
    "main", "odds_text", "option_label", "parse_args", "play", "situation_of", "table", "title_of",
]

FORMAT = "fandonia-game-record/1"
HUMAN = "human"

HELP = """Commands (at any decision):
  N            choose option N of the list (a choice marked [risky] asks y/n first, with its odds)
  help         this help
  status       the race for the throne (goal, each player's claim, PP/IP/Status, countdown, odds) and
               your faction
  explain N    more about option N: what it does, the rule, the risk
  advise       the advisor: what the strongest noble (noble-ppo-v2) would choose here, its estimate of
               your chance to win from here and the options it weighs (--advisor: at every decision)
  view         the whole table: kingdom, throne and succession, players, court, your hand
  hand         your hand and drawn counters
  court        the 47 characters (Status, office, title, faction, situation)
  log [N]      the last N log lines you may see (default 40; 'log all' for every line)
  save FILE    save the game (rules, seats, every action, the position) as JSON
  load FILE    load a game saved with 'save' (or a server replay of a game with one human seat)
  quit         leave the game (save it first to go on later)"""


class PlayError(Exception):
    """A command that cannot be done; the message says what was wrong and what is allowed."""


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of the noble at ``seat`` (stable across runs and machines)."""
    return random.Random(f"fandonia-play:{game_seed}:{seat}").getrandbits(32)


# ---------------------------------------------------------------------------
# Names and labels
# ---------------------------------------------------------------------------
def char_name(cid: str) -> str:
    return C.character_name(cid)


def title_of(cid: str, c: dict[str, Any], config: dict[str, Any]) -> str:
    if cid in C.ROYALS:
        return ""
    printed = C.printed_title(config, cid)
    if not printed:
        return ""
    ladder = (C.female_titles(config) if cid in C.FEMALES else C.MALE_TITLES)
    i = ladder.index(printed) if printed in ladder else -1
    t = printed if i < 0 else ladder[min(len(ladder) - 1, i + int(c.get("titles") or 0))]
    return C.TITLE_NAMES.get(t, t)


def faction_of(cid: str, c: dict[str, Any]) -> str:
    if c["owner"] is None:
        return "neutral RC" if cid in C.ROYALS else "neutral"
    role = "PC" if c["is_pc"] else ("FARC" if cid in C.ROYALS else "FAC")
    extra = [x for x, on in (("henchman", c["henchman"]), ("counselor", c["counselor"])) if on]
    return f"P{c['owner']} {role}" + (f" ({', '.join(extra)})" if extra else "")


def situation_of(c: dict[str, Any]) -> str:
    s = [w for w, on in (("dead", c["dead"]), ("imprisoned", c["imprisoned"]),
                         ("awaiting execution", c["awaiting_execution"]), ("banished", c["banished"]),
                         ("in hiding", c["hiding"]), ("wrongdoer", c["wrongdoer"]), ("banned", c["banned"])) if on]
    if c["location"] != C.FANDONIA:
        s.append("abroad in " + C.COUNTRY_NAMES.get(c["location"], c["location"]))
    if c["spouse"]:
        s.append("married to " + char_name(c["spouse"]))
    if c["engaged_to"]:
        s.append("engaged to " + char_name(c["engaged_to"]))
    return "; ".join(s)


def option_label(a: int, view: dict[str, Any], decision: dict[str, Any], seat: int) -> str:
    """The plain label of option ``a`` (``wording.option_words``; ``seat`` is the view's own)."""
    return str(wording.option_words(view, decision, a)["label"])


def decision_title(view: dict[str, Any], decision: dict[str, Any]) -> str:
    """What the decision asks, in plain words (``wording.prompt``)."""
    return wording.prompt(view, decision)


def odds_text(odds: float | None) -> str:
    return "unknown" if odds is None else f"{odds * 100:.0f}%"


def table(rows: list[list[str]], head: list[str]) -> str:
    cols = [head, *rows]
    w = [max(len(str(r[i])) for r in cols) for i in range(len(head))]
    line = lambda r: "  ".join(str(x).ljust(w[i]) for i, x in enumerate(r)).rstrip()  # noqa: E731
    return "\n".join([line(head), line(["-" * x for x in w]), *(line(r) for r in rows)])


# ---------------------------------------------------------------------------
# The session
# ---------------------------------------------------------------------------
class Session:
    """One game in the terminal: the engine's ``Game``, the human seat and the nobles."""

    def __init__(self, config: dict[str, Any], seats: list[str], out: TextIO = sys.stdout) -> None:
        humans = [i for i, s in enumerate(seats) if s == HUMAN]
        if len(humans) != 1:
            raise PlayError(f"exactly one seat must be human, got {len(humans)} ({seats})")
        self.config = config
        self.seats = seats
        self.seat = humans[0]
        self.out = out
        self.game = Game(**config)
        self.actions: list[tuple[int, int]] = []
        self.bots: list[Any] = []
        for i, aid in enumerate(seats):
            if aid == HUMAN:
                self.bots.append(None)
                continue
            s = agent_seed(int(config["seed"]), i)
            try:
                bot = agent_registry.make_agent(aid, seed=s)
            except ValueError as e:
                raise PlayError(str(e)) from None
            bot.reset(s)
            self.bots.append(bot)
        self.shown = 0  # log lines already printed
        self.words: list[dict[str, Any]] = []  # the plain words of the options shown (wording.decision_words)
        self.advisor = False  # show the advisor's advice at every decision (--advisor)

    # -- state changes -----------------------------------------------------------------------
    def apply(self, a: int) -> None:
        p = self.game.current_player()
        assert p is not None
        self.game.apply(a)
        self.actions.append((p, a))

    def run_nobles(self) -> None:
        g = self.game
        while not g.over and g.current_player() != self.seat:
            p = g.current_player()
            assert p is not None
            legal = g.legal_actions()
            a = self.bots[p].act(g.seat_view(p), legal, InfoSet(g.state, p))
            if a not in legal:  # an agent bug must not end the game: as the server does, take the first legal
                a = legal[0]
            self.apply(int(a))

    # -- save / load ---------------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        return {"format": FORMAT, "config": self.config,
                "seats": [{"seat": i, "kind": "human" if s == HUMAN else "agent", "agent": None if s == HUMAN else s}
                          for i, s in enumerate(self.seats)],
                "start": None,
                "actions": [{"idx": i, "seat": s, "action": a, "name": NAME[a]} for i, (s, a) in enumerate(self.actions)],
                "game": self.game.to_json()}

    def save(self, path: str) -> None:
        try:
            with open(path, "w") as f:
                json.dump(self.record(), f)
        except OSError as e:
            raise PlayError(f"cannot save to {path!r}: {e.strerror or e}") from None

    @classmethod
    def load(cls, path: str, out: TextIO = sys.stdout) -> Session:
        """A session rebuilt from a saved record: the actions are applied again from the start (the nobles
        are asked again for theirs, so their seeds and memory move on as in the original game)."""
        try:
            with open(path) as f:
                doc = json.load(f)
        except OSError as e:
            raise PlayError(f"cannot read {path!r}: {e.strerror or e}") from None
        except (ValueError, UnicodeDecodeError) as e:
            raise PlayError(f"{path!r} is not a JSON file: {e}") from None
        if not isinstance(doc, dict) or not isinstance(doc.get("config"), dict) \
                or not isinstance(doc.get("actions"), list) or not isinstance(doc.get("seats"), list):
            raise PlayError(f"{path!r} is not a saved game: expected a JSON object with 'config', 'seats' and "
                            "'actions' (written by 'save')")
        if doc.get("start") is not None:
            raise PlayError("games that began from a saved position cannot be loaded here")
        try:
            seats = [HUMAN if s.get("kind") == "human" else str(s["agent"]) for s in doc["seats"]]
            config = make_config(**doc["config"])
        except (AttributeError, KeyError, TypeError, ConfigError) as e:
            raise PlayError(f"{path!r}: bad seats or rules: {e}") from None
        s = cls(config, seats, out)
        for i, rec in enumerate(doc["actions"]):
            g = s.game
            if not isinstance(rec, dict) or not isinstance(rec.get("action"), int) or \
                    not 0 <= rec["action"] < NUM_ACTIONS:
                raise PlayError(f"{path!r}: actions[{i}] is not an action record")
            a, p = rec["action"], g.current_player()
            if g.over or p != rec.get("seat") or a not in g.legal_actions():
                raise PlayError(f"{path!r}: actions[{i}] ({NAME[a]} by seat {rec.get('seat')}) does not fit the "
                                "game: the file was changed or made with other agents")
            bot = s.bots[p]
            if bot is not None:  # move the noble's RNG and memory on exactly as in the game
                bot.act(g.seat_view(p), g.legal_actions(), InfoSet(g.state, p))
            s.apply(a)
        if s.game.over:
            raise PlayError(f"{path!r} is a finished game: open it on the replay page instead")
        s.run_nobles()
        return s

    # -- output ----------------------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def new_log(self) -> None:
        lines = self.game.log_lines(self.seat)
        for line in lines[self.shown:]:
            self.say("  " + line)
        self.shown = len(lines)

    def status_line(self, v: dict[str, Any]) -> str:
        probs = ", ".join(COUNSELING_TABLES[k]["name"] for k in v["problems"]) or "none"
        me = v["players"][self.seat]
        monarch = char_name(v["monarch"]) if v["monarch"] else "none"
        active = "you" if v["active"] == self.seat else ("none" if v["active"] is None else f"Player {v['active']}")
        return (f"Turn {v['turn']} ({v['phase'].replace('_', ' ')}), active: {active}"
                f" | Monarch {monarch}, Support {v['support']}, problems: {probs}"
                f" | you: IP {me['ip']} PP {me['pp']}, {me['hand_size']} cards")

    def show_hand(self, v: dict[str, Any]) -> None:
        self.say("Your hand: " + (", ".join(C.CARD_TYPES[k].name for k in v["hand"]) or "empty"))
        self.say("Loyalty counters drawn: " + (", ".join(char_name(c) for c in v["loyalty_drawn"]) or "none"))
        self.say("Opportunity counters drawn: "
                 + (", ".join(C.OPPORTUNITY_TYPES[k][0] for k in v["opportunity_drawn"]) or "none"))

    def show_court(self, v: dict[str, Any]) -> None:
        rows = []
        for cid in (*C.SUCCESSION, *(c for c in C.ALL_CHARACTER_IDS if c not in C.SUCCESSION)):
            c = v["chars"][cid]
            rows.append([char_name(cid), str(v["status"][cid]), C.OFFICES[c["office"]].name if c["office"] else "",
                         title_of(cid, c, self.config), faction_of(cid, c), situation_of(c)])
        self.say(table(rows, ["Character", "Status", "Office", "Title", "Faction", "Situation"]))

    def show_view(self) -> None:
        v = self.game.view(self.seat, log=False)
        probs = ", ".join(COUNSELING_TABLES[k]["name"] for k in v["problems"]) or "none"
        self.say(f"== Turn {v['turn']}, {v['phase'].replace('_', ' ')}; first player {v['first_player']}, "
                 f"order {v['order']}; active: {v['active']}")
        self.say(f"Monarch: {char_name(v['monarch']) if v['monarch'] else 'none (vacant)'}; Monarch's Support "
                 f"{v['support']}; political problems: {probs}; wars: "
                 f"{', '.join(C.COUNTRY_NAMES[w] for w in v['wars']) or 'none'}; Event deck {v['deck_size']} cards")
        succ = []
        for cid in C.SUCCESSION:
            c = v["chars"][cid]
            succ.append(char_name(cid) + (" (dead)" if c["dead"] else "")
                        + (f" [P{c['owner']}]" if c["owner"] is not None else ""))
        self.say("Order of succession: " + " > ".join(succ))
        self.say("")
        rows = [[f"Player {p['idx']}" + (" (you)" if p["idx"] == self.seat else f" ({self.seats[p['idx']]})"),
                 char_name(p["pc"]), str(p["ip"]), str(p["pp"]), str(p["hand_size"]),
                 ", ".join(C.CARD_TYPES[k].name for k in p["in_front"]), str(p["lost_turns"])] for p in v["players"]]
        self.say(table(rows, ["Player", "PC", "IP", "PP", "Hand", "Cards in front", "Lost turns"]))
        self.say("")
        self.show_court(v)
        self.say("")
        self.show_hand(v)

    def show_log(self, arg: str) -> None:
        lines = self.game.log_lines(self.seat)
        if arg in ("", None):
            n = 40
        elif arg == "all":
            n = len(lines)
        elif arg.isdigit() and int(arg) > 0:
            n = int(arg)
        else:
            raise PlayError(f"log takes a positive number of lines or 'all', got {arg!r}")
        for line in lines[-n:]:
            self.say("  " + line)

    def show_decision(self) -> list[int]:
        g = self.game
        v = g.view(self.seat, log=False)
        d = v["decision"]
        self.say("")
        self.say(self.status_line(v))
        if v["active"] != self.seat:
            self.say("(out of turn: " + ("a game phase" if v["active"] is None else f"Player {v['active']}'s turn")
                     + " - the game waits for you)")
        words = wording.decision_words(v, preview=preview(g.state, self.seat, seed=g.state.steps))
        assert words is not None
        self.words = words["options"]
        self.say(">> " + words["prompt"])
        for i, o in enumerate(self.words, 1):
            self.say(f"  {i:2d}) {o['label']}" + ("  [risky]" if o["confirm"] else ""))
            for line in wording.preview_lines(o.get("preview")):
                self.say("        " + line)
        return list(d["options"])

    def show_status(self) -> None:
        """The race for the throne and the seat's own faction (``wording.race``, ``wording.faction``)."""
        v = self.game.view(self.seat, log=False)
        r = wording.race(v)
        self.say("Goal: " + r["goal"])
        self.say("Now: " + r["lead_text"])
        rows = [[p["name"], str(p["pp"]), str(p["ip"]), str(p["status"]),
                 "-" if p["countdown"] is None else str(p["countdown"]),
                 "-" if p["odds"] is None else odds_text(p["odds"]), p["claim"]] for p in r["players"]]
        self.say(table(rows, ["Player", "PP", "IP", "Status", "Countdown", "Odds", "Claim to the throne"]))
        self.say("(Countdown: turns after this one before a reigning player wins. Odds: the best chance to usurp "
                 "now; other players' hands are not counted.)")
        self.say("")
        self.say("Your faction:")
        rows = [[m["name"], str(m["status"]), m["office"] or "", m["titles"] or "", m["spouse"] or "",
                 m["situation"] or ""] for m in wording.faction(v)]
        self.say(table(rows, ["Character", "Status", "Office", "Title", "Spouse", "Situation"]))

    def explain(self, arg: str, options: list[int]) -> None:
        if not arg.isdigit() or not 1 <= int(arg) <= len(options):
            raise PlayError(f"explain takes an option number 1-{len(options)}, got {arg!r}")
        o = self.option(int(arg), options)
        self.say(f"{arg}) {o['label']}")
        if o["detail"]:
            self.say("   " + o["detail"])
        if o["rule"]:
            self.say("   rule: " + o["rule"])
        for line in wording.preview_lines(o.get("preview")):
            self.say("   " + line)
        if o["confirm"]:
            c = o["confirm"]
            self.say(f"   risky: chance of success {odds_text(c['odds'])}; {c['lose']}")

    def show_advice(self, options: list[int]) -> None:
        """The advisor (``words.advice``): the noble's choice among the options shown, by their numbers."""
        from ..words.advice import AdvisorError, advice_words

        try:
            a = advice_words(self.game.view(self.seat, log=False))
        except AdvisorError as e:
            raise PlayError(f"no advice: {e}") from None
        num = {a_id: i for i, a_id in enumerate(options, 1)}
        s = a["suggestion"]
        self.say(f"advisor ({a['noble']}): choose {num[s['id']]}) {s['label']} ({round(100 * s['prob'])}% of its "
                 f"weight); its estimate of your chance to win from here: {round(100 * a['win_chance'])}%")
        self.say("   it weighs: " + "; ".join(f"{num[w['id']]}) {w['label']} {round(100 * w['prob'])}%"
                                          for w in a["weighs"]))

    def option(self, k: int, options: list[int]) -> dict[str, Any]:
        """The words of option number ``k`` (1-based) of the decision shown."""
        words = self.words
        if [o["id"] for o in words] != options:
            v = self.game.view(self.seat, log=False)
            words = (wording.decision_words(v) or {"options": []})["options"]
            self.words = words
        return dict(words[k - 1])

    def confirm(self, o: dict[str, Any], inp: TextIO) -> bool | None:
        """Ask before a fatal or risky choice: True to go on, False to choose again, None at end of input."""
        c = o["confirm"]
        self.say(f"!! {c['title']}")
        self.say(f"   Chance of success: {odds_text(c['odds'])}")
        self.say(f"   At stake: {c['lose']}")
        while True:
            self.out.write("confirm (y/n)> ")
            self.out.flush()
            line = inp.readline()
            if not line:
                return None
            ans = line.strip().lower()
            if ans in ("y", "yes"):
                return True
            if ans in ("n", "no", ""):
                self.say("cancelled: choose again")
                return False
            self.say("error: answer y or n")

    # -- the loop ----------------------------------------------------------------------------
    def command(self, line: str, options: list[int]) -> Session | int | None:
        """Handle one input line: an action id to apply, a new Session (load), or None."""
        line = line.strip()
        if not line:
            raise PlayError(f"type a number 1-{len(options)} to choose, or 'help'")
        word, _, arg = line.partition(" ")
        arg = arg.strip()
        if word.isdigit():
            k = int(word)
            if not 1 <= k <= len(options):
                raise PlayError(f"there is no option {k}: choose 1-{len(options)}")
            if arg:
                raise PlayError(f"just the number, please (got {line!r})")
            return options[k - 1]
        w = word.lower()
        if w in ("help", "?", "h"):
            self.say(HELP)
        elif w == "status":
            self.show_status()
        elif w == "explain":
            self.explain(arg, options)
        elif w in ("advise", "advice", "advisor"):
            self.show_advice(options)
        elif w == "view":
            self.show_view()
        elif w == "hand":
            self.show_hand(self.game.view(self.seat, log=False))
        elif w == "court":
            self.show_court(self.game.view(self.seat, log=False))
        elif w == "log":
            self.show_log(arg)
        elif w == "save":
            if not arg:
                raise PlayError("save needs a file name: save FILE")
            self.save(arg)
            self.say(f"saved to {arg} ({len(self.actions)} actions)")
        elif w == "load":
            if not arg:
                raise PlayError("load needs a file name: load FILE")
            s = Session.load(arg, self.out)
            self.say(f"loaded {arg}: {len(s.actions)} actions, you are Player {s.seat}")
            return s
        elif w in ("quit", "exit", "q"):
            return -1
        else:
            raise PlayError(f"unknown command {word!r}: type a number 1-{len(options)}, or help, status, explain N, "
                            "advise, view, hand, court, log, save FILE, load FILE, quit")
        return None


def play(session: Session, inp: TextIO = sys.stdin) -> int:
    """Run the game until it ends, the player quits or the input ends. Returns the exit status."""
    s = session
    s.say(f"You are Player {s.seat} ({char_name(s.game.state.players[s.seat].pc)}). Opponents: "
          + ", ".join(f"Player {i} {a}" for i, a in enumerate(s.seats) if a != HUMAN)
          + ". Type 'help' for the commands.")
    while True:
        s.run_nobles()
        s.new_log()
        if s.game.over:
            g = s.game
            who = "" if g.winner is None else (" - you win!" if g.winner == s.seat else f" - Player {g.winner} wins")
            s.say(f"Game over: {g.result}{who} (turn {g.state.turn}, {len(s.actions)} actions).")
            return 0
        options = s.show_decision()
        if s.advisor:
            try:
                s.show_advice(options)
            except PlayError as e:
                s.say(f"error: {e}")
        while True:
            s.out.write(f"choose 1-{len(options)} (or help)> ")
            s.out.flush()
            line = inp.readline()
            if not line:
                s.say("\nend of input: leaving the game (use 'save FILE' first to keep it)")
                return 0
            try:
                r = s.command(line, options)
            except PlayError as e:
                s.say(f"error: {e}")
                continue
            if r is None:
                continue
            if isinstance(r, Session):
                r.advisor = s.advisor
                s = r
                s.shown = max(0, len(s.game.log_lines(s.seat)) - 15)  # the last lines, for context
                break
            if r == -1:
                s.say("bye")
                return 0
            o = s.option(options.index(r) + 1, options)
            if o["confirm"] is not None:
                ok = s.confirm(o, inp)
                if ok is None:
                    s.say("\nend of input: leaving the game (use 'save FILE' first to keep it)")
                    return 0
                if not ok:
                    continue
            s.apply(r)
            break


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m fandonia_env.play",
                                 description="Play Down With The King in the terminal against computer nobles.")
    ap.add_argument("--players", type=players_arg, default=4, help="number of players, 2-6 (default 4)")
    ap.add_argument("--seat", type=int, default=0, help="your seat, 0..players-1 (default 0)")
    ap.add_argument("--opponents", type=agent_list_arg, default=["noble-rule-v1"],
                    help="agent id for every noble, or a comma-separated id per opponent seat (default noble-rule-v1)")
    ap.add_argument("--seed", type=seed_arg, default=None, help="the game's seed (random if omitted)")
    ap.add_argument("--max-turns", type=max_turns_arg, default=None, help="end the game after this many turns")
    ap.add_argument("--load", default=None, metavar="FILE", help="resume a game saved with 'save FILE'")
    ap.add_argument("--advisor", action="store_true",
                    help="show the advisor (what noble-ppo-v2 would choose, its estimate of your chance to win) at "
                         "every decision; the 'advise' command shows it once")
    add_rules_args(ap)
    a = ap.parse_args(argv)
    a.rules = rules_from_args(a, ap)
    if not 0 <= a.seat < a.players:
        ap.error(f"--seat must be 0..{a.players - 1} for {a.players} players, got {a.seat}")
    if len(a.opponents) not in (1, a.players - 1):
        ap.error(f"--opponents: give one agent id or {a.players - 1} (one per opponent), got {len(a.opponents)}")
    return a


def main(argv: list[str] | None = None) -> int:
    a = parse_args(argv)
    try:
        if a.load:
            s = Session.load(a.load)
        else:
            opp = a.opponents * (a.players - 1) if len(a.opponents) == 1 else list(a.opponents)
            seats = opp[:a.seat] + [HUMAN] + opp[a.seat:]
            seed = a.seed if a.seed is not None else random.SystemRandom().randrange(2**31)
            config = make_config(players=a.players, seed=seed, max_turns=a.max_turns, **a.rules)
            s = Session(config, seats)
    except (PlayError, ConfigError, StateError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    s.advisor = a.advisor
    try:
        return play(s)
    except KeyboardInterrupt:
        print("\ninterrupted: leaving the game", file=sys.stderr)
        return 130
