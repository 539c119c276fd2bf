"""§8 Crown Events and §9 Royal Succession; the card draw shared by the Intrigue
result (§8.4.3), the 'Intrigue An Opponent's Card' activity (§13.4.12) and the
Intrigue counsel (§14.2.7, §14.5.1).

Operations registered here:

* ``crown_phase`` (§8.1-8.4): the Crown Events Phase.  The first player rolls two
  dice on the Crown Events Table (T1.1; no modifiers ever, §8.3), once a turn
  (§8.2).  If next turn's results were forced (automatic Court Ball after a
  succession §9.4 or a usurpation §36.6/§36.9, accepted counsels forcing a
  result), those are resolved instead and no roll is made (A10 i).
  ``state.crown`` is set to one of ``royal_death``, ``famine``, ``intrigue``,
  ``court_ball``, ``two_problems``, ``one_problem``, ``scandal``, ``plague``.
* ``intrigue_draw`` {p, victim}: p draws one card at random from victim's hand
  (A41), shown to all (§14.2.2); a legal card is discarded, an illegal one
  (DOWN WITH THE KING, Assassination, Treachery, Intrigue) is kept by its owner,
  whose PC is accused of wrongdoing (+2 for DWTK, §14.5.1) (§8.4.3, §13.4.12,
  §14.2.7).
* ``succession`` (§9.2-9.4, §32.4, §14.5.19, §18.10, A56).

Errata edition (ruling R1, ES text):

* D19, D45, D46 (ES §8.4.3, §13.4.12, §14.2.7, §14.5.2): the illegal cards are DOWN WITH
  THE KING, Assassination and the Foreign Support cards (``queries.illegal_cards``); an
  intrigued Treachery or Intrigue card is discarded with no accusation.  All three ways of
  intriguing a card (Crown Intrigue, the activity, the Intrigue counsel) go through
  ``intrigue_draw``.
* D18 (ES §8.4.2, A23, R3): the Famine log names Trade Guild, Merchant and Peasant Support
  (the values are in ``rule_queries.support_multiplier``).
* D20 (ES §8.4.4): a free counsel needs a Court Ball total of 9 or more.
* D21 (ES §8.4.4): a player whose PC is banned loses 2 PP at every Court Ball.
* §38 unresolved problems e/g: a forced result ``"one_problem:<problem>"`` in
  ``state.forced_crown`` is a 'One Political Problem' whose problem is given.

* Reading (D20): "9 or more" is the Court Ball total (dice plus the player's Court Ball
  modifier), as the 1981 table rows 8-12 are.
* Reading (D21): the 2 PP are lost whether or not the player has an attending henchman,
  and not by a player whose PC is face-down (he takes part in nothing, §31.5).  They are lost
  at his place in player order, as a step of its own (``court_ball_banned_loss``), so that the
  PP limit check the loss schedules runs right then, before the next player rolls (ruling R15).
* Reading (§38 e/g with A10 i): two forced problem results (e and g, or one of them and a
  counsel's 'One Political Problem') are separate results, each resolved in the order the
  first player picks.

Activity registered here: ``intrigue_card`` (§13.4.12).

Readings (where rules and rulings are silent):

* Reading: several forced results (A10 i) are de-duplicated (two automatic Court
  Balls make one Court Ball) and resolved in the order the first player chooses,
  offered as a chain of YES/NO questions ("resolve this result next?"; the last
  one left is resolved without asking).  ``state.crown`` then names the result
  whose effect lasts the whole turn: Famine if among them (no IP spending,
  §34.6), else Plague (no counseling, §15.5), else the last one resolved; every
  result of the turn is listed in ``state.tstate["crown_events"]``.
* Reading (§8.4.3): the first player decides opponent by opponent, in player
  order, whether to draw; eligibility (more than three cards, DWTK included, A39;
  not the FARC Monarch's player, §36.10.1) is checked when each draw is offered.
* Reading (§8.4.3, §13.4.12): "the owning player ... is accused" means his PC; a
  face-down PC (§31.5, A47) takes part in nothing, so then nobody is accused.
* Reading (§13.4.12): the Intrigue grant is used before an 'Intrigue' card, as in
  the other Intrigue activities (the grant lapses at the end of the turn, the card
  does not, so this is never worse for the player).
* Reading (§8.4.4, A43): a character attends a Court Ball unless dead, banned,
  banished, imprisoned, in hiding or abroad (stuck at war is abroad); a player
  rolls only if his PC attends.  The character designated for Abusive Conduct
  (accused) or Disgraceful Conduct (scandal) is the PC or an *attending*
  henchman (the incident happens at the ball).  Insulting (duel) is the duel of a
  *player* (§19.3: he uses his PC or a henchman; a female PC must use a
  henchman), scheduled as ``duel`` {player, source "court_ball", attendees} so
  that the duel chapter applies §19.3 and §19.7.3 (opponent among the attendees).
* Reading (§8.4.4, §17.2.3): the ban falls on the PC unless the player has a
  henchman who attended the ball, in which case a henchman takes it (the player
  chooses which if several attended).  The ban is applied before the
  accusation/duel/scandal it comes with.
* Reading (§8.4.6, A3): the Crown Scandal may name any noble in any situation,
  PCs included; only a face-down (dead) PC is rerolled.  Dice counts name nobles
  only, so an RC is never the object (§22).
* Reading (§8.4.7, A3): Plague rerolls PCs (face-down or not), characters abroad
  and dead characters; if no character can die the result has no effect, and if
  only one can, only he dies.
* Reading (§9.2): the next-in-line is the first living RC of the order of
  succession other than the late Monarch (so after a usurper's death the crown
  goes back to the first surviving RC of the order).
* Reading (§9.4, A10 ii-iii): the turn is ended (``machine.abort_turn``) as soon
  as the succession starts; the discharges and the mourning discards are then
  done before the end of the turn.
* Ruling R14 (§9.4): a player who holds two or fewer cards that may be discarded (DOWN
  WITH THE KING never is, A39), or only cards of one type, discards them without a
  decision (``turn.forced_discards``); only a real choice is asked, card by card.  If the Monarch dies when the turn is already
  ending (end-of-turn executions), there is nothing left to cut short.
* Reading (§18.10, A56): any noble spouse of the new Monarch becomes the NRC
  consort (``consort=True``, neutral); a FAC consort keeps the Loyalty counter on
  his card and loses a Henchman card (§17.4) and a Monarch's Counselor card (§14.2.4:
  he is no longer a FAC), both discarded.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ..core import chance, registry
from ..core.actions import NAME, NO, YES, action_char, action_player, char_action, player_action
from ..core.machine import abort_turn, ask, log, op, seq
from ..core.records import DecisionContext, EffectParams
from ..core.state import GameState
from ..data.components import CARD_TYPE_OF, CARD_TYPES, NOBLES, ROYAL_ALIGNMENT_CARD, SUCCESSION
from ..data.tables import COURT_BALL, COURT_BALL_MAX_MODIFIER, CROWN_EVENTS, ROYAL_DEATH, lookup
from ..rules.court import attends, problem_name
from ..rules.effects import Ctx, apply_effect, apply_row, send
from ..rules.queries import (
    abroad,
    discard,
    has_card,
    illegal_cards,
    lose_pp,
    monarch_owner,
    name,
    pc,
    player_order,
    take_card,
)
from ..rules.ruleset import ruleset
from ..rules.turn_steps import discard_forced, discard_options, forced_discards, uses_intrigue, waived

#: The result keys of the Crown Events Table (other chapters read ``state.crown``).
CROWN_KEYS: Final[tuple[str, ...]] = (
    "royal_death", "famine", "intrigue", "court_ball", "two_problems", "one_problem", "scandal", "plague",
)
LABELS: Final[dict[str, str]] = {
    "royal_death": "Royal Death", "famine": "Famine", "intrigue": "Intrigue", "court_ball": "Court Ball",
    "two_problems": "Two Political Problems", "one_problem": "One Political Problem",
    "scandal": "Scandal", "plague": "Plague",
}
#: Intrigue is impossible against a hand of this many cards or fewer (§8.4.3, A39).
PROTECTED_HAND: Final = 3
#: Mourning discards (§9.4).
MOURNING_DISCARDS: Final = 2
#: Prefix of a forced 'One Political Problem' result naming its problem (§38 unresolved e/g).
FORCED_PROBLEM: Final = "one_problem:"


def _label(k: str) -> str:
    if k.startswith(FORCED_PROBLEM):

        return f"One Political Problem ({problem_name(k[len(FORCED_PROBLEM):])})"
    return LABELS[k]


def crown_key(row: dict[str, Any]) -> str:
    """The result key of a Crown Events Table row."""
    ev = row["event"]
    if ev == "political_problems":
        return "two_problems" if row.get("problems") == 2 else "one_problem"
    return ev


def _fp(state: GameState) -> int:
    return state.first_player


def _dice_count_logged(state: GameState, why: str) -> tuple[int, str]:
    r, w = chance.roll(state, 2, why)
    return r * 10 + w, f"{r}{w}"


# ---------------------------------------------------------------------------
# §8.1-8.3 the Crown Events Phase
# ---------------------------------------------------------------------------


@op("crown_phase")
def crown_phase(state: GameState) -> None:
    """§8.1-8.3: roll once on the Crown Events Table, or resolve the forced results (A10 i)."""
    state.phase = "crown_events"
    state.tstate["crown_events"] = []
    if state.forced_crown:
        forced: list[str] = []
        for k in state.forced_crown:
            k = "one_problem" if k == "political_problems" else k
            if (k in CROWN_KEYS or k.startswith(FORCED_PROBLEM)) and k not in forced:
                forced.append(k)
        state.forced_crown = []
        log(state, "Crown Events: no roll this turn; the result is automatically "
                   + " and ".join(f"'{_label(k)}'" for k in forced) + " (§9.4, §36.6, A10).")
        seq(state, ("crown_forced_next", {"remaining": forced, "k": 0}), ("crown_finish", {}))
        return
    a, b = chance.roll(state, 2, "Crown Events Table (§8.2)")
    row = lookup(CROWN_EVENTS, a + b)
    key = crown_key(row)
    log(state, f"Crown Events Table: player {_fp(state)} rolls {a + b} ({a}+{b}): {row['text']} ({row['rule']}).")
    seq(state, ("crown_resolve", {"event": key}), ("crown_finish", {}))


@op("crown_forced_next")
def crown_forced_next(state: GameState, remaining: list[str], k: int) -> None:
    """A10 i: the first player orders several forced results (YES = resolve this one next)."""
    if not remaining:
        return
    if k >= len(remaining) - 1:
        seq(state, ("crown_resolve", {"event": remaining[k]}),
            ("crown_forced_next", {"remaining": remaining[:k] + remaining[k + 1:], "k": 0}))
        return
    ctx: DecisionContext = {"event": remaining[k], "remaining": list(remaining)}
    if remaining[k].startswith(FORCED_PROBLEM):  # §38 e/g: 'One Political Problem' naming its problem
        ctx["event"], ctx["problem"] = "one_problem", remaining[k][len(FORCED_PROBLEM):]
    seq(state, ask(_fp(state), "crown_order", [YES, NO], "crown_order_choice", ctx, remaining=remaining, k=k))


@op("crown_order_choice")
def crown_order_choice(state: GameState, choice: int, remaining: list[str], k: int) -> None:
    if choice == YES:
        seq(state, ("crown_resolve", {"event": remaining[k]}),
            ("crown_forced_next", {"remaining": remaining[:k] + remaining[k + 1:], "k": 0}))
    else:
        seq(state, ("crown_forced_next", {"remaining": remaining, "k": k + 1}))


@op("crown_resolve")
def crown_resolve(state: GameState, event: str) -> None:
    """§8.4: carry out one Crown Events result."""
    forced_problem = None
    if event.startswith(FORCED_PROBLEM):  # §38 unresolved problems e/g: 'One Political Problem', forced
        forced_problem = event[len(FORCED_PROBLEM):]
        event = "one_problem"
    state.crown = event
    state.tstate.setdefault("crown_events", []).append(event)
    if event == "royal_death":
        _royal_death(state)
    elif event == "famine":
        boosted = ruleset(state).famine_boosted_support  # D18
        log(state, f"Famine (§8.4.2): {boosted} Support are worth more this turn; "
                   "no player may spend IP this turn (§34.6) and no counseling is allowed (§15.5).")
    elif event == "intrigue":
        log(state, f"Intrigue (§8.4.3): player {_fp(state)} may draw one Event card from each opponent's hand.")
        seq(state, ("crown_intrigue_next", {"i": 0}))
    elif event == "court_ball":
        _court_ball(state)
    elif event == "two_problems":
        seq(state, ("new_problem", {}), ("new_problem", {}))
    elif event == "one_problem":
        seq(state, ("new_problem", {"forced": forced_problem} if forced_problem else {}))
    elif event == "scandal":
        _crown_scandal(state)
    elif event == "plague":
        _plague(state)
    else:  # pragma: no cover - guarded by CROWN_KEYS
        raise ValueError(f"unknown Crown Events result {event!r}")


@op("crown_finish")
def crown_finish(state: GameState) -> None:
    """The result that governs the rest of the turn (see the module's Readings)."""
    events = state.tstate.get("crown_events", [])
    if not events:
        return
    if "famine" in events:
        state.crown = "famine"
    elif "plague" in events:
        state.crown = "plague"
    else:
        state.crown = events[-1]


# ---------------------------------------------------------------------------
# §8.4.1 Royal Death
# ---------------------------------------------------------------------------


def _royal_death(state: GameState) -> None:
    """§8.4.1, A4: a dice count names an RC by his Death Numbers; reroll if he is dead."""
    alive = {rc for rc in ROYAL_DEATH.values() if not state.chars[rc].dead}
    if not alive:
        log(state, "Royal Death (§8.4.1): every RC with Death Numbers is dead; no effect (A4).")
        return
    while True:
        count, shown = _dice_count_logged(state, "Royal Death (§8.4.1)")
        rc = ROYAL_DEATH[count]
        if rc in alive:
            break
        log(state, f"Royal Death: player {_fp(state)} rolls the dice count {shown}: {name(rc)} is already "
                   "dead; roll again (§8.4.1).")
    log(state, f"Royal Death: player {_fp(state)} rolls the dice count {shown}: {name(rc)} dies (§8.4.1).")
    seq(state, ("kill", {"cid": rc, "cause": "royal_death"}))


# ---------------------------------------------------------------------------
# §8.4.3 Intrigue (Crown Events) and the intrigue draw (§13.4.12, §14.2.7, §14.5.1)
# ---------------------------------------------------------------------------


def intrigue_victim_ok(state: GameState, victim: int) -> bool:
    """§8.4.3, §13.4.12, §14.2.7, §36.10.1, A39: may a card be intrigued from victim's hand?"""
    return len(state.players[victim].hand) > PROTECTED_HAND and monarch_owner(state) != victim


def _opponents(state: GameState, p: int) -> list[int]:
    order = player_order(state)
    i = order.index(p) if p in order else 0
    return [q for q in order[i:] + order[:i] if q != p]


@op("crown_intrigue_next")
def crown_intrigue_next(state: GameState, i: int) -> None:
    fp = _fp(state)
    opps = _opponents(state, fp)
    while i < len(opps) and not intrigue_victim_ok(state, opps[i]):
        i += 1
    if i >= len(opps):
        return
    v = opps[i]
    seq(state, ask(fp, "crown_intrigue", [YES, NO], "crown_intrigue_choice",
                   {"victim": v, "victim_rel": (v - fp) % state.n, "hand_size": len(state.players[v].hand)},
                   i=i, victim=v))


@op("crown_intrigue_choice")
def crown_intrigue_choice(state: GameState, choice: int, i: int, victim: int) -> None:
    fp = _fp(state)
    if choice == YES:
        seq(state, ("intrigue_draw", {"p": fp, "victim": victim}), ("crown_intrigue_next", {"i": i + 1}))
    else:
        log(state, f"Player {fp} does not intrigue a card from player {victim}'s hand.")
        seq(state, ("crown_intrigue_next", {"i": i + 1}))


@op("intrigue_draw")
def intrigue_draw(state: GameState, p: int, victim: int, blackmail_asked: bool = False) -> None:
    """§8.4.3, §13.4.12, §14.2.2, §14.2.7, §14.5.1, A41: one card drawn at random, shown to all
    (:func:`intrigue_card_drawn`).  The ruleset's ``intrigue_hook`` says what p does: draw, or
    with the optional Blackmail rule (§38) blackmail instead (``opt_activities.blackmail_offered``);
    ``blackmail_asked``: he has declined to blackmail, and draws."""
    if not intrigue_victim_ok(state, victim):
        log(state, f"Player {victim}'s hand may not be intrigued (§14.2.7): no effect.")
        return
    if blackmail_asked:
        intrigue_card_drawn(state, p, victim)
        return
    registry.HOOKS[ruleset(state).intrigue_hook](state, p, victim)


@registry.hook("intrigue_card_drawn")
def intrigue_card_drawn(state: GameState, p: int, victim: int) -> None:
    """§14.2.2, §14.2.7, §14.5.1: p draws one card at random from the victim's hand (shown to all):
    a legal card is discarded, an illegal one stays and the victim's PC is accused."""
    hand = state.players[victim].hand
    card = chance.pick(state, hand, f"a card intrigued from player {victim}'s hand (§14.2.2)")
    ctype = CARD_TYPE_OF[card]
    cname = CARD_TYPES[ctype].name
    if ctype not in illegal_cards(state):  # errata D19, D45, D46
        hand.remove(card)
        discard(state, card)
        log(state, f"Player {p} intrigues a card from player {victim}'s hand: '{cname}', a legal card, "
                   "which is discarded (§14.2.7).")
        return
    log(state, f"Player {p} intrigues a card from player {victim}'s hand: '{cname}', an illegal card; "
               f"player {victim} keeps it and is accused of wrongdoing (§14.2.7).")
    c = pc(state, victim)
    if c.dead:
        log(state, f"Player {victim}'s PC is face-down and takes part in nothing: no accusation (§31.5).")
        return
    dwtk = ctype == "dwtk"
    seq(state, ("accuse", {"cid": c.cid, "dwtk": dwtk,
                           "why": f"an illegal '{cname}' card intrigued from his hand"
                                  + (" (+2, §14.5.1)" if dwtk else "")}))


# -- §13.4.12 Intrigue An Opponent's Card (activity) --------------------------


def _intrigue_victims(state: GameState, p: int) -> list[int]:
    paid = state.tstate.get("blackmail_paid", ())  # §38 Blackmail: no draw from a payer this turn
    return [q for q in _opponents(state, p) if intrigue_victim_ok(state, q) and [p, q] not in paid]


def intrigue_card_legal(state: GameState, p: int) -> bool:
    """§13.4.12: an Intrigue grant (counter, free intrigue or Any Activity waiver) or an
    'Intrigue' card, and an opponent who may be intrigued."""
    if not (uses_intrigue(state, p) or has_card(state, p, "intrigue")):
        return False
    paid = state.tstate.get("blackmail_paid", ())  # as _intrigue_victims: one victim will do
    return any(intrigue_victim_ok(state, q) and [p, q] not in paid for q in _opponents(state, p))


@op("intrigue_card_start")
def intrigue_card_start(state: GameState, p: int) -> None:
    opts = [player_action(p, q, state.n) for q in _intrigue_victims(state, p)]
    seq(state, ask(p, "intrigue_victim", opts, "intrigue_card_victim", {"activity": "intrigue_card"}, p=p))


@op("intrigue_card_victim")
def intrigue_card_victim(state: GameState, choice: int, p: int) -> None:
    victim = action_player(p, choice, state.n)
    pt = state.pt
    if waived(state):
        pass  # A42: an 'Any Activity' counter waives the counter/card requirement
    elif pt.get("intrigue", 0) > 0:
        pt["intrigue"] -= 1
    else:
        card = take_card(state, p, "intrigue")
        discard(state, card)  # §14.2.3
        log(state, f"Player {p} plays an 'Intrigue' card (§14.5.7).")
    log(state, f"Player {p} intrigues an opponent's card: he draws from player {victim}'s hand (§13.4.12).")
    seq(state, ("intrigue_draw", {"p": p, "victim": victim}))


registry.activity("intrigue_card", intrigue_card_legal, "intrigue_card_start")


# ---------------------------------------------------------------------------
# §8.4.4 Court Ball
# ---------------------------------------------------------------------------


def _court_ball(state: GameState) -> None:
    attendees = [cid for cid in state.chars if attends(state, cid)]
    log(state, f"Court Ball (§8.4.4): {len(attendees)} characters attend.")
    seq(state, ("court_ball_next", {"i": 0, "attendees": attendees}))


@op("court_ball_next")
def court_ball_next(state: GameState, i: int, attendees: list[str]) -> None:
    """§8.4.4: each attending player, in player order, rolls on the Court Ball Table."""
    order = player_order(state)
    while i < len(order):
        p = order[i]
        c = pc(state, p)
        if c.cid in attendees and attends(state, c.cid):
            break
        if c.banned and not c.dead:
            log(state, f"Player {p}'s PC is banned from Court Balls: he may not roll (§8.4.4).")
            if ruleset(state).banned_pc_court_ball_pp:  # D21, ES §8.4.4
                seq(state, ("court_ball_banned_loss", {"p": p}),
                    ("court_ball_next", {"i": i + 1, "attendees": attendees}))
                return
        i += 1
    else:
        return
    marriage = ruleset(state).court_ball_marriage_hook  # ES optional Marriage (D97): romantic_intrigue
    seq(state, (marriage and registry.HOOKS[marriage](state, p, attendees))
        or ("court_ball_roll", {"p": p, "attendees": attendees}),
        ("court_ball_next", {"i": i + 1, "attendees": attendees}))


@op("court_ball_banned_loss")
def court_ball_banned_loss(state: GameState, p: int) -> None:
    """D21 (ES §8.4.4): the player whose PC is banned loses 2 PP at the Court Ball (the PP limit
    check follows at once, ruling R15)."""
    lose_pp(state, p, ruleset(state).banned_pc_court_ball_pp, "banned PC, Court Ball, ES §8.4.4")


#: the order in which a Court Ball row's effect codes apply after its PP and modifier.
COURT_BALL_ORDER: Final = ("free_counsel", "designate_pc_or_henchman", "banned_from_court_ball", "duel", "wrongdoing",
                    "scandal")


@op("court_ball_roll")
def court_ball_roll(state: GameState, p: int, attendees: list[str]) -> None:
    pl = state.players[p]
    a, b = chance.roll(state, 2, "Court Ball Table")
    mod = pl.ball_mod
    total = max(COURT_BALL["lo"], min(COURT_BALL["hi"], a + b + mod))  # A6
    row = lookup(COURT_BALL, total)
    ms = f" {mod:+d}" if mod else ""
    log(state, f"Court Ball Table: player {p} rolls {a + b} ({a}+{b}){ms} = {total}: {row['text']}")
    params: EffectParams = {"total": total, "attendees": attendees, "attends": attends, "duel_source": "court_ball"}
    ctx = Ctx(p=p, label="Court Ball", params=params)
    # reads ``params`` (filled with "hm" by the designation effect), not ``ctx``: a closure holding
    # the Ctx that holds it is a reference cycle, which kept the whole state alive after its game
    # until the cyclic collector ran
    ctx.designate = lambda what: _court_ball_designate(state, p, what, row, params["hm"])
    if row["pp"]:
        apply_effect(state, "pp", ctx, row)
    if row["mod"]:
        new = min(COURT_BALL_MAX_MODIFIER, max(0, mod + row["mod"]))
        if new != mod:
            pl.ball_mod = new
            log(state, f"Player {p}'s Court Ball modifier becomes {new:+d}.")
    steps = apply_row(state, row, COURT_BALL_ORDER, ctx, done=("pp",))
    if steps:
        seq(state, *steps)


def _court_ball_designate(state: GameState, p: int, what: str, row: dict[str, Any], hm: list[str]) -> Any:
    cands = [pc(state, p).cid] + hm
    return ask(p, "court_ball_designate", [char_action(x) for x in cands], "court_ball_designated",
               {"table": "court_ball", "result": what}, p=p, what=what, text=row["text"].split(".")[0])


@op("court_ball_ban_choice")
def court_ball_ban_choice(state: GameState, choice: int, p: int) -> None:
    seq(state, ("court_ball_ban", {"cid": action_char(choice)}))


@op("court_ball_ban")
def court_ball_ban(state: GameState, cid: str) -> None:
    """§8.4.4, §17.2.3: banned from Court Balls for the rest of his life."""
    state.wchar(cid).banned = True
    log(state, f"{name(cid)} is banned from future Court Balls (§8.4.4).")


@op("court_ball_designated")
def court_ball_designated(state: GameState, choice: int, p: int, what: str, text: str) -> None:
    cid = action_char(choice)
    if what == "wrongdoing":
        log(state, f"Player {p} designates {name(cid)} to be accused of wrongdoing (Court Ball).")
    else:
        log(state, f"Player {p} designates {name(cid)} to consult the Scandal Table (Court Ball).")
    seq(state, send(what, cid, f"Court Ball: {text}"))


# ---------------------------------------------------------------------------
# §8.4.6 Scandal, §8.4.7 Plague
# ---------------------------------------------------------------------------


def _count_naming(state: GameState, why: str, among: set[str], refused: Callable[[str, str], str]) -> tuple[str, str]:
    """Dice counts (``why``) rolled until one names a character of ``among``: it and the count shown; each
    count before is logged as ``refused(cid, shown)`` says (A3)."""
    while True:
        count, shown = _dice_count_logged(state, why)
        cid = str(count)
        if cid in among:
            return cid, shown
        log(state, refused(cid, shown))


def _crown_scandal(state: GameState) -> None:
    """§8.4.6, A3: a dice count names the object of the scandal (reroll a face-down PC)."""
    usable = {cid for cid in NOBLES if not state.chars[cid].dead}
    if not usable:
        log(state, "Scandal (§8.4.6): no character can be the object of a scandal; no effect (A3).")
        return
    cid, shown = _count_naming(state, "object of a scandal (§8.4.6)", usable, lambda cid, shown: (
        f"Scandal: player {_fp(state)} rolls the dice count {shown}: {name(cid)} is out of play; roll again (A3)."))
    log(state, f"Scandal: player {_fp(state)} rolls the dice count {shown}: {name(cid)} is the object of "
               "the scandal (§8.4.6).")
    seq(state, ("scandal", {"cid": cid, "exposer": None, "why": "Crown Events scandal"}))


def plague_can_die(state: GameState, cid: str) -> bool:
    """§8.4.7, §20.6.1: not a PC, not abroad, not already dead."""
    c = state.chars[cid]
    return not (c.is_pc or c.dead or abroad(c))


def _plague(state: GameState) -> None:
    """§8.4.7: two different dice counts; both characters die (reroll PCs and characters abroad)."""
    log(state, "Plague (§8.4.7): no counseling is allowed this turn (§15.5).")
    eligible = {cid for cid in NOBLES if plague_can_die(state, cid)}
    victims: list[str] = []

    def _why_not(cid: str) -> str:
        return ("the same count again" if cid in victims else "a PC" if state.chars[cid].is_pc
                else "abroad" if abroad(state.chars[cid]) else "out of play")

    for _ in range(2):
        left = eligible - set(victims)
        if not left:
            log(state, "Plague: no other character can die of the plague (A3).")
            break
        cid, shown = _count_naming(state, "plague victim", left, lambda cid, shown: (
            f"Plague: player {_fp(state)} rolls the dice count {shown}: {name(cid)} ({_why_not(cid)}); "
            "roll again (§8.4.7)."))
        log(state, f"Plague: player {_fp(state)} rolls the dice count {shown}: {name(cid)} dies of the plague.")
        victims.append(cid)
    seq(state, *[("kill", {"cid": v, "cause": "plague"}) for v in victims])


# ---------------------------------------------------------------------------
# §9 Royal Succession
# ---------------------------------------------------------------------------


def next_in_line(state: GameState) -> str | None:
    """§9.2-9.3: the first living RC of the order of succession (not Thomas, not Jane, not
    a non-RC consort), other than the late Monarch."""
    for rc in SUCCESSION:
        if rc != state.monarch and not state.chars[rc].dead:
            return rc
    return None


def _remove_card_everywhere(state: GameState, card: str) -> bool:
    """Move ``card`` to ``state.removed`` from wherever it is; True if it moved."""
    if card in state.removed:
        return False
    for src in (state.deck, state.discard):
        if card in src:
            src.remove(card)
            state.removed.append(card)
            return True
    for pl in state.players:
        for src in (pl.hand, pl.in_front):
            if card in src:
                src.remove(card)
                state.removed.append(card)
                return True
    for c in state.chars.values():
        for f in ("alignment_card", "henchman_card", "counselor_card"):
            if getattr(c, f) == card:
                setattr(state.wchar(c.cid), f, None)
                state.removed.append(card)
                return True
    return False


def _ra_card(rc: str) -> str | None:
    t = ROYAL_ALIGNMENT_CARD.get(rc)
    if t is None:
        return None
    return next(c for c, ty in CARD_TYPE_OF.items() if ty == t)


@op("succession")
def succession(state: GameState) -> None:
    """§9.2-9.4: the next-in-line becomes Monarch; mourning ends the turn."""
    late = state.monarch
    heir = next_in_line(state)
    if heir is None:
        log(state, "No Royal Character is left who can succeed to the throne (§37).")
        seq(state, ("check_draw", {}))
        return
    # §9.4 / A10 ii-iii: the turn ends at once (all players are in mourning)
    if any(fr.op == "end_of_turn" for fr in state.stack):
        abort_turn(state)
    lc = state.chars[late]
    if lc.office == "monarch":
        state.wchar(late).office = None
    h = state.wchar(heir)
    log(state, f"Royal Succession: {name(heir)} succeeds {name(late)} to the throne (§9.2).")
    if h.owner is not None:
        log(state, f"{name(heir)} was player {h.owner}'s FARC and becomes a NRC (§9.2, A56).")
        h.owner = None
    # §9.4, §14.5.19: the new Monarch's Royal Alignment card leaves the game wherever it is
    ra = _ra_card(heir)
    if ra is not None and _remove_card_everywhere(state, ra):
        log(state, f"{name(heir)}'s Royal Alignment card is permanently removed from the game (§9.4).")
    h.alignment_card = None
    # §9.2, §18.10: the spouse becomes King/Queen, a NRC
    if h.spouse is not None and h.spouse in NOBLES:
        sp = state.wchar(h.spouse)
        if sp.owner is not None:
            log(state, f"{name(h.spouse)}, player {sp.owner}'s FAC, becomes the NRC consort (§18.10); "
                       "the Loyalty counter stays on the card.")
            sp.owner = None
            if sp.hiding:  # ES §24.7 (D64): a NC may not hide
                seq(state, *[(o, {"cid": h.spouse}) for o in ruleset(state).nc_in_hiding_ops])
            if sp.henchman_card is not None:
                discard(state, sp.henchman_card)  # §17.4
                sp.henchman_card = None
            if sp.counselor_card is not None:
                discard(state, sp.counselor_card)  # §14.2.4: no longer a FAC
                sp.counselor_card = None
                log(state, f"{name(h.spouse)}'s 'Monarch's Counselor' card is discarded (§14.2.4).")
        else:
            log(state, f"{name(h.spouse)} becomes the consort (§9.2).")
        sp.consort = True
    h.office = "monarch"
    state.monarch = heir
    # §32.4 the Monarch's Support is re-established
    a, b = chance.roll(state, 2, "Monarch's Support re-established (§32.4)")
    was_crisis = state.support == 0
    state.support = (a + b) * 10
    log(state, f"The Monarch's Support is re-established: {a + b} ({a}+{b}) x10 = {state.support} (§32.4).")
    if was_crisis:
        log(state, "A new Monarch is crowned: the government crisis ends (§33.3).")
    # §9.4 next turn's Crown Events result is automatically 'Court Ball'
    state.forced_crown.append("court_ball")
    log(state, "All players are in mourning: the turn ends; next turn's Crown Events result is "
               "automatically 'Court Ball' (§9.4).")
    holders = [cid for cid, c in state.chars.items() if c.office is not None and c.office != "monarch"]
    order = player_order(state)
    seq(state, *[("discharge", {"cid": cid, "why": "the Monarch died (§9.4)"}) for cid in holders],
        *[("mourning_discard", {"p": p, "left": MOURNING_DISCARDS}) for p in order])


@op("mourning_discard")
def mourning_discard(state: GameState, p: int, left: int) -> None:
    """§9.4, A39: discard two Event cards, never DOWN WITH THE KING (fewer if he has fewer).
    Ruling R14: when the cards he gives up are forced (no more than ``left`` of them, or all
    of one type) they go without a decision; otherwise he chooses card by card."""
    if left <= 0:
        return
    forced = forced_discards(state, p, left)
    if forced is not None:
        discard_forced(state, p, forced, "mourning, §9.4")
        return
    seq(state, ask(p, "mourning_discard", discard_options(state, p), "mourning_discard_choice",
                   {"left": left}, p=p, left=left))


@op("mourning_discard_choice")
def mourning_discard_choice(state: GameState, choice: int, p: int, left: int) -> None:

    ctype = NAME[choice][len("discard_"):]
    card = take_card(state, p, ctype)
    discard(state, card)
    log(state, f"Player {p} discards '{CARD_TYPES[ctype].name}' (mourning, §9.4).")
    seq(state, ("mourning_discard", {"p": p, "left": left - 1}))
