"""The effects interpreter: what a table result's effect code does (issue 12).

The tables of ``data/tables.py`` give every result row as data: amounts (``pp``, ``ip``) and
effect codes (``special``, ``EFFECT_CODES``; a counsel's ``effect["code"]``,
``COUNSEL_EFFECT_CODES``).  This module is the one place where such a code means something:
``EFFECTS`` maps each code to its rule and its function.  A chapter looks up the row, builds
a :class:`Ctx` (who, the object character, the texts and switches of its table) and calls
:func:`apply_row` with the order its table applies codes in (the order of log lines, state
writes and draws is part of the golden games), or :func:`apply_effect` for one code.  An
effect writes the state at once and returns what must follow as steps in ``ctx.steps``
(scheduled first) and ``ctx.after`` (scheduled last); the chapter ``seq``-s them.  A PP loss
schedules the PP limit check by itself (``queries.lose_pp``, ruling R15), for every table alike.

| code | § | what it does |
|---|---|---|
| ``pp`` / ``ip`` | §13.4.17, §8.4.4, §15.8 | ``row["pp"]``/``row["ip"]`` gained (+) or lost (-) by ``ctx.p``; halved with ``ctx.half`` |
| ``lose_all_pp`` / ``lose_all_ip`` | T1.14 | ``ctx.p`` loses all his PP / IP (halved with ``ctx.half``) |
| ``double_pp`` / ``double_ip`` | T1.14 | ``ctx.p`` gains his current PP / IP (halved with ``ctx.half``) |
| ``lose_half_pp`` / ``lose_half_ip`` | §22, A54 | the owner of ``ctx.cid`` loses half, rounded up (nothing for a NC) |
| ``trial`` / ``hearing`` / ``wrongdoing`` / ``scandal`` | §28, §26, §23, §22 | ``ctx.cid`` goes to trial / a hearing / is accused / consults the Scandal Table (:func:`send`); with ``ctx.designate`` the player first designates his PC or a henchman (§17.2.5, §8.4.4); with ``check_dead`` a dead object is no effect |
| ``designate_pc_or_henchman`` | T1.14.11 notes 5-9, §8.4.4 | marks the rows whose result is suffered by a designated PC/henchman (Court Ball: lists his henchmen attending) |
| ``accuser_wrongdoing`` | §22 | the exposing player's PC is accused; no effect unless the scandal was exposed |
| ``pc_accused`` | §27 | the interrogated character's owner's PC is accused (after the trial); no effect for a NC |
| ``character_dies`` | §27 | the interrogated character dies (``ctx.flags["dies"]``) |
| ``assassinated`` | §21 | (``row["success"]`` of the Assassination Table) the target is killed |
| ``duel`` | §19, §24.3, §29.2 | the player (PC or a henchman) fights a duel; ignored when his PC hides or is banished (Prestige) |
| ``lose_remaining_activities`` | T1.14.11 notes 2, 5, 6, A44 | no more activities this turn (on the player's own turn) |
| ``no_effect`` | T1.14.11 note 2 | nothing (its end of activities is ``lose_remaining_activities``); ``params["then"]`` follows (Clemency) |
| ``extra_activities`` / ``any_activity`` / ``intrigue_card`` | T1.14.11 notes 10-12, 3 | a grant for this turn (:func:`grant`) |
| ``auto_proposal`` | §18.4.5 | schedules ``auto_proposal`` |
| ``roll_again`` | T1.14.11 note 1 | asks the player whether to roll again with the same modifier |
| ``banned_from_court_ball`` | §8.4.4, §17.2.3 | the designated PC/henchman is banned (``court_ball_ban``) |
| ``free_counsel`` | §8.4.4, §15.10, D20 | the player may make a free counsel (errata: 9 or more) |
| ``lose_office`` | §15.8, §17.2.2 | the counselor loses his office or Monarch's Counselor card |
| ``not_guilty`` / ``pardoned`` | §28.6.1, §38 Clemency | (``row["verdict"]``) the character returns to a normal situation |
| ``banished`` | §28.6.2, §29.1, D75 | the Minister Of Justice's player (else the first player) picks the country; imprisoned if none is possible |
| ``imprisoned`` / ``awaiting_execution`` | §28.6.3-4, §30, §38 | office vacated, ``justice_imprison``; Clemency (``params["clemency"]``): a banished or condemned character is imprisoned instead |
| ``executed`` / ``new_trial`` | §28.6.5, §38 | ``kill`` (execution) / back to Fandonia and ``justice_trial`` |
| ``farc_becomes_nrc`` | §13.4.4 | read by ``activities`` (Royal Favor), not interpreted here |
| counsel codes (``COUNSEL_EFFECT_CODES``) | T1.15 | ``none``, ``gain_pp``, ``force_crown_event``, ``extradite``, ``appoint_ambassador``, ``intrigue_card_from``, ``amnesty``, ``discard_cards``, ``earc_to_nrc``, ``scandal``, ``wrongdoing``, ``discharge_minister``, ``recall_ambassador``, ``players_lose_half_ip``, ``players_gain_ip``, ``players_lose_ip`` (see ``COUNSEL_EFFECT_CODES``) |
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from ..core import registry
from ..core.actions import NO, YES, char_action
from ..core.errors import EngineError
from ..core.machine import ask, log
from ..core.records import EffectFlags, EffectParams
from ..core.state import Character, GameState
from ..data.components import AMBASSADOR_OF, CARD_TYPE_OF, CARD_TYPES, FANDONIA, NEVER_ABROAD, OFFICE_ELIGIBLE, OFFICES
from ..data.tables import CLEMENCY, COUNSEL_EFFECT_CODES, EFFECT_CODES, TRIAL
from .court import vacate_step
from .queries import discard, gain_ip, gain_pp, henchmen, lose_ip, lose_pp, monarch_owner, name, pc, stuck_at_war
from .ruleset import ruleset
from .situation import country_ids, restore, set_situation

__all__ = [
    "EFFECTS", "VERDICTS", "Ctx", "Effect", "apply_effect", "apply_grant", "apply_row", "grant", "half",
    "minister_of_justice", "office_ok", "own_turn", "row_codes", "send",
]

Step = Any


@dataclass(init=False)
class Ctx:
    """What a table's effects apply to, and how that table words and parametrises them."""

    p: int | None = None  # the player who rolled (gains, loses, designates, counsels)
    cid: str | None = None  # the object character (scandal object, interrogated, assassin, target)
    row: dict[str, Any] = field(default_factory=dict)
    why: str = ""  # reason given to accuse / scandal
    label: str = ""  # reason logged with a PP/IP gain (and loss unless ``loss_label``)
    loss_label: str | None = None
    half: bool = False  # §20.5, §24.3, §29.2: gains and losses halved
    designate: Callable[[str], Step] | None = None  # justice codes: the designation step instead
    params: EffectParams = field(default_factory=EffectParams)  # table-specific arguments (core/records.py)
    flags: EffectFlags = field(default_factory=EffectFlags)  # set by effects for the chapter (core/records.py)
    steps: list[Step] = field(default_factory=list)
    after: list[Step] = field(default_factory=list)

    def __init__(self, p: int | None = None, cid: str | None = None, row: dict[str, Any] | None = None,
                 why: str = "", label: str = "", loss_label: str | None = None, half: bool = False,
                 designate: Callable[[str], Step] | None = None,
                 params: EffectParams | None = None, flags: EffectFlags | None = None,
                 steps: list[Step] | None = None, after: list[Step] | None = None) -> None:
        # written, not generated, so that the compiled engine builds it natively (as ``Frame``)
        self.p, self.cid, self.why, self.label, self.loss_label = p, cid, why, label, loss_label
        self.half, self.designate = half, designate
        self.row = {} if row is None else row
        self.params = EffectParams() if params is None else params
        self.flags = EffectFlags() if flags is None else flags
        self.steps = [] if steps is None else steps
        self.after = [] if after is None else after


@dataclass(frozen=True, slots=True)
class Effect:
    code: str
    rule: str
    fn: Callable[[GameState, Ctx, str], None]


EFFECTS: Final[dict[str, Effect]] = {}


def _effect(*codes: str, rule: str) -> Callable:
    def deco(fn: Callable[[GameState, Ctx, str], None]) -> Callable[[GameState, Ctx, str], None]:
        for code in codes:
            EFFECTS[code] = Effect(code, rule, fn)
        return fn
    return deco


def apply_effect(state: GameState, code: str, ctx: Ctx, row: dict[str, Any] | None = None) -> None:
    """Apply one effect code (``EFFECTS``) to ``ctx`` (of ``row``, when given)."""
    if row is not None:
        ctx.row = row
    if code not in EFFECTS:
        raise ValueError(f"unknown effect code {code!r}")
    EFFECTS[code].fn(state, ctx, code)


def row_codes(row: dict[str, Any]) -> tuple[str, ...]:
    """The codes of a result row: its amounts (``pp``, ``ip``), ``assassinated`` for a
    successful assassination, its ``verdict`` (Trial, Clemency), then its ``special`` codes in
    printed order."""
    out = tuple(k for k in ("pp", "ip") if row.get(k))
    if row.get("success") and "caught" in row:
        out += ("assassinated",)
    if "verdict" in row and row["verdict"] not in row.get("special", ()):
        out += (row["verdict"],)
    return out + tuple(row.get("special", ()))


def apply_row(state: GameState, row: dict[str, Any], order: tuple[str, ...], ctx: Ctx,
              done: tuple[str, ...] = ()) -> list[Step]:
    """Apply the codes of ``row`` in the table's ``order``; return ``ctx.steps + ctx.after``.

    Every code of the row must appear in ``order`` or in ``done`` (codes the chapter already
    applied, with ``apply_effect``, when its table applies its row in stages)."""
    codes = row_codes(row)
    missing = [c for c in codes if c not in order and c not in done]
    if missing:
        raise ValueError(f"row {row.get('text')!r}: codes {missing} not in the table's order")
    ctx.row = row
    for code in order:
        if code in codes and code not in done:
            apply_effect(state, code, ctx)
    return ctx.steps + ctx.after


# ---------------------------------------------------------------------------
# Points
# ---------------------------------------------------------------------------


def half(n: int) -> int:
    """Halve an amount, its magnitude rounded up (T1.14 footnote, A1)."""
    m = (abs(n) + 1) // 2
    return m if n >= 0 else -m


def _amt(ctx: Ctx, n: int) -> int:
    return half(n) if ctx.half else n


@_effect("pp", "ip", rule="§13.4.17, §8.4.4, §15.8")
def _points(state: GameState, ctx: Ctx, code: str) -> None:
    assert ctx.p is not None
    n = ctx.row[code]
    gain, lose = (gain_pp, lose_pp) if code == "pp" else (gain_ip, lose_ip)
    if n > 0:
        gain(state, ctx.p, _amt(ctx, n), ctx.label)
    elif n < 0:
        lose(state, ctx.p, -_amt(ctx, n), ctx.loss_label or ctx.label)


@_effect("lose_all_pp", "lose_all_ip", "double_pp", "double_ip", rule="T1.14")
def _all_or_double(state: GameState, ctx: Ctx, code: str) -> None:
    assert ctx.p is not None
    pl = state.players[ctx.p]
    t = ctx.label
    if code == "lose_all_pp":
        lose_pp(state, ctx.p, _amt(ctx, pl.pp), f"{t}: all PP")
    elif code == "lose_all_ip":
        lose_ip(state, ctx.p, _amt(ctx, pl.ip), f"{t}: all IP")
    elif code == "double_pp":
        gain_pp(state, ctx.p, _amt(ctx, pl.pp), f"{t}: double current PP")
    else:
        gain_ip(state, ctx.p, _amt(ctx, pl.ip), f"{t}: double current IP")


@_effect("lose_half_pp", "lose_half_ip", rule="§22, A54")
def _lose_half(state: GameState, ctx: Ctx, code: str) -> None:
    assert ctx.cid is not None
    owner = state.chars[ctx.cid].owner
    if owner is None:
        log(state, f"{name(ctx.cid)} is a NC: no points are lost (A54).")
    elif code == "lose_half_pp":
        lose_pp(state, owner, (state.players[owner].pp + 1) // 2, "scandal, half rounded up")
    else:
        lose_ip(state, owner, (state.players[owner].ip + 1) // 2, "scandal, half rounded up")


# ---------------------------------------------------------------------------
# Justice: trial, hearing, wrongdoing, scandal (§22-§28)
# ---------------------------------------------------------------------------

_MISSING: Final = object()


def send(code: str, cid: str, why: str = "", exposer: Any = _MISSING) -> Step:
    """The step that sends ``cid`` to trial / a hearing / an accusation / the Scandal Table."""
    if code == "trial":
        return ("to_trial", {"cid": cid})
    if code == "hearing":
        return ("hearing", {"cid": cid})
    if code == "wrongdoing":
        return ("accuse", {"cid": cid, "why": why})
    if code == "scandal":
        args: dict[str, Any] = {"cid": cid}
        if exposer is not _MISSING:
            args["exposer"] = exposer
        args["why"] = why
        return ("scandal", args)
    raise ValueError(f"{code!r} sends no character anywhere")


@_effect("trial", "hearing", "wrongdoing", "scandal", rule="§22, §23, §26, §28")
def _justice(state: GameState, ctx: Ctx, code: str) -> None:
    if ctx.designate is not None:
        ctx.steps.append(ctx.designate(code))
        return
    assert ctx.cid is not None
    if ctx.params.get("check_dead") and state.chars[ctx.cid].dead:
        log(state, f"{name(ctx.cid)} is dead: no effect.")
        return
    if "exposer" in ctx.params:
        ctx.steps.append(send(code, ctx.cid, ctx.why, ctx.params["exposer"]))
    else:
        ctx.steps.append(send(code, ctx.cid, ctx.why))


@_effect("accuser_wrongdoing", rule="§22, §13.4.9")
def _accuser(state: GameState, ctx: Ctx, code: str) -> None:
    exposer = ctx.params.get("exposer")
    if exposer is None:
        log(state, "The scandal did not come from 'Expose A Scandal': treated as no effect (§22).")
    else:
        ctx.steps.append(("accuse", {"cid": state.players[exposer].pc, "why": "accusing PC of a scandal"}))


@_effect("pc_accused", rule="§27")
def _pc_accused(state: GameState, ctx: Ctx, code: str) -> None:
    assert ctx.cid is not None
    owner = state.chars[ctx.cid].owner
    if owner is None:
        log(state, f"{name(ctx.cid)} is a NC: no effect (§27).")
    else:
        pcid = state.players[owner].pc
        ctx.after.append(("accuse", {"cid": pcid, "why": f"exposed by {name(ctx.cid)} under interrogation"}))


@_effect("character_dies", rule="§27")
def _dies(state: GameState, ctx: Ctx, code: str) -> None:
    ctx.flags["dies"] = True
    ctx.steps.append(("kill", {"cid": ctx.cid, "cause": "died under interrogation"}))


@_effect("assassinated", rule="§21")
def _assassinated(state: GameState, ctx: Ctx, code: str) -> None:
    ctx.steps.append(("kill", {"cid": ctx.params["target"], "cause": "assassinated"}))


# ---------------------------------------------------------------------------
# Duel, designation, Court Ball
# ---------------------------------------------------------------------------


@_effect("duel", rule="§19, §24.3, §29.2")
def _duel(state: GameState, ctx: Ctx, code: str) -> None:
    p = ctx.p
    assert p is not None
    if ctx.params.get("duel_check_pc"):
        c = pc(state, p)
        if c.hiding or c.banished:
            ctx.flags["duel_ignored"] = True
            log(state, f"Player {p}'s PC is {'in hiding' if c.hiding else 'banished'}: the result "
                       f"'Fight A Duel' is ignored (§24.3, §29.2).")
            return
    args: dict[str, Any] = {"player": p, "cid": None, "source": ctx.params["duel_source"]}
    if "attendees" in ctx.params:
        args["attendees"] = ctx.params["attendees"]
    ctx.steps.append(("duel", args))


@_effect("designate_pc_or_henchman", rule="T1.14.11 notes 5-9, §8.4.4")
def _designation(state: GameState, ctx: Ctx, code: str) -> None:
    attendees = ctx.params.get("attendees")
    if attendees is not None:  # Court Ball: the henchmen attending (§8.4.4)
        from_court = ctx.params["attends"]
        assert ctx.p is not None
        ctx.params["hm"] = [h for h in henchmen(state, ctx.p) if h in attendees and from_court(state, h)]


@_effect("banned_from_court_ball", rule="§8.4.4, §17.2.3")
def _ban(state: GameState, ctx: Ctx, code: str) -> None:
    p = ctx.p
    assert p is not None
    hm = ctx.params["hm"]
    if len(hm) > 1:
        ctx.steps.append(ask(p, "court_ball_ban", [char_action(h) for h in hm], "court_ball_ban_choice",
                             {"table": "court_ball"}, p=p))
    else:
        ctx.steps.append(("court_ball_ban", {"cid": hm[0] if hm else pc(state, p).cid}))


@_effect("free_counsel", rule="§8.4.4, §15.10, D20")
def _free_counsel(state: GameState, ctx: Ctx, code: str) -> None:
    p = ctx.p
    assert p is not None
    least = ruleset(state).court_ball_free_counsel_min  # D20
    if least is not None and ctx.params["total"] < least:
        log(state, f"Player {p} does not win a free counsel: it takes 9 or more (ES §8.4.4).")  # D20
    else:
        state.players[p].free_counsel = True
        log(state, f"Player {p} may make a free counsel to the Monarch this turn (§8.4.4, §15.10).")


# ---------------------------------------------------------------------------
# Prestige grants and choices (T1.14.11)
# ---------------------------------------------------------------------------


def own_turn(state: GameState, p: int) -> bool:
    """It is ``p``'s own Player Turn."""
    return bool(state.pt) and state.pt.get("player") == p and state.active == p


@_effect("no_effect", rule="T1.14.11 note 2, §38 Clemency")
def _nothing(state: GameState, ctx: Ctx, code: str) -> None:
    if ctx.params.get("then") is not None:  # the table's procedure goes on (Clemency: next player)
        ctx.steps.append(ctx.params["then"])


@_effect("lose_remaining_activities", rule="T1.14.11 notes 2, 5, 6, A44")
def _end_activities(state: GameState, ctx: Ctx, code: str) -> None:
    p = ctx.p
    assert p is not None
    if ctx.flags.get("duel_ignored"):
        return
    if ctx.params.get("own") and own_turn(state, p):
        state.pt["no_more"] = True
        log(state, f"Player {p} may perform no more activities this turn (T1.14.11).")
    else:
        log(state, f"(Player {p} rolled outside his own Player Turn: he keeps his activities, A44.)")


def grant(state: GameState, p: int, what: str, n: int, own: bool) -> None:
    """A grant for this turn (T1.14.11 notes 3, 10-12): now on p's own turn, else kept for it."""
    if own and own_turn(state, p):
        apply_grant(state, p, what, n)
        return
    g = state.tstate.setdefault("prestige_grants", {}).setdefault(str(p), {})
    g[what] = g.get(what, 0) + n
    log(state, f"Player {p} keeps this for his own Player Turn of this game turn, if it is still to come.")


def apply_grant(state: GameState, p: int, what: str, n: int) -> None:
    """Give ``p`` (on his own Player Turn) ``n`` extra activities / Any Activity / free intrigues."""
    pt = state.pt
    if what == "extra":
        pt["extra"] += n
        log(state, f"Player {p} may perform {n} extra activities this turn (T1.14.11).")
        if pt.get("restricted"):
            log(state, f"(Player {p}'s PC is not in a normal situation: never more than one activity, "
                       "§13.1, §24.3, §29.2.)")
    elif what == "any_activity":
        pt["any_activity"] += n
        log(state, f"Player {p} may perform any one activity of §12.3.1 this turn (T1.14.11 note 12).")
    elif what == "intrigue":
        for _ in range(n):
            if "intrigue_card" in pt["done"]:
                log(state, f"Player {p} has already intrigued an opponent's card this turn: the free "
                           "intrigue is lost (§13.1).")
                continue
            pt.setdefault("free", []).append("intrigue_card")
            log(state, f"Player {p} may intrigue an opponent's card as a free, additional activity this "
                       "turn (T1.14.11 note 3).")


_GRANTS: Final = {"extra_activities": "extra", "any_activity": "any_activity", "intrigue_card": "intrigue"}


@_effect("extra_activities", "any_activity", "intrigue_card", rule="T1.14.11 notes 3, 10-12")
def _grant_effect(state: GameState, ctx: Ctx, code: str) -> None:
    assert ctx.p is not None
    n = int(ctx.row["extra_activities"]) if code == "extra_activities" else 1
    grant(state, ctx.p, _GRANTS[code], n, bool(ctx.params.get("own")))


@_effect("auto_proposal", rule="T1.14.11 note 4, §18.4.5")
def _auto_proposal(state: GameState, ctx: Ctx, code: str) -> None:
    ctx.steps.append(("auto_proposal", {"p": ctx.p}))


@_effect("roll_again", rule="T1.14.11 note 1")
def _roll_again(state: GameState, ctx: Ctx, code: str) -> None:
    p, table, mod, own = ctx.p, ctx.params["table"], ctx.params["mod"], ctx.params["own"]
    ctx.steps.append(ask(p, "prestige_roll_again", [YES, NO], "prestige_again",  # type: ignore[arg-type]
                         {"table": table, "mod": mod, "rule": "T1.14.11 note 1"},
                         p=p, table=table, mod=mod, own=own))


@_effect("farc_becomes_nrc", rule="§13.4.4, §17.2.4")
def _farc_nrc(state: GameState, ctx: Ctx, code: str) -> None:  # pragma: no cover - read by activities (Royal Favor)
    raise ValueError("'farc_becomes_nrc' is applied by the Royal Favor activity")


# ---------------------------------------------------------------------------
# Counseling (§15.8, T1.15)
# ---------------------------------------------------------------------------


_OFFICE_ELIGIBLE: Final = frozenset(OFFICE_ELIGIBLE)


def office_ok(state: GameState, c: Character) -> bool:
    """§16.1, §16.4: may be made an Office Holder."""
    return (c.cid in _OFFICE_ELIGIBLE and not (c.dead or c.banished or c.imprisoned or c.hiding)
            and not stuck_at_war(state, c))


@_effect("lose_office", rule="§15.8, §17.2.2")
def _lose_office(state: GameState, ctx: Ctx, code: str) -> None:
    counselor = ctx.params.get("counselor")
    if counselor is None:
        return
    if ctx.params.get("substitute"):
        log(state, f"{name(counselor)} counselled as a henchman: the Office Holder keeps his "
                   f"position (§15.8, §17.2.2).")
        return
    c = state.chars[counselor]
    if c.office is not None:
        ctx.steps.append(("discharge", {"cid": counselor, "why": "the Monarch is displeased, §15.8"}))
    elif c.counselor_card is not None:
        card = c.counselor_card
        state.wchar(counselor).counselor_card = None
        discard(state, card)
        log(state, f"{name(counselor)} loses his 'Monarch's Counselor' card (discarded).")


def _target_cid(ctx: Ctx) -> str:
    """The character a counsel's effect targets (``params["target"]``; a seat for the card effects)."""
    t = ctx.params["target"]
    if not isinstance(t, str):
        raise EngineError(f"effect target {t!r}: a character id was expected")
    return t


def _eff(ctx: Ctx) -> dict[str, Any]:
    return ctx.params["effect"]


@_effect("none", rule="T1.15")
def _none(state: GameState, ctx: Ctx, code: str) -> None:
    return None


@_effect("gain_pp", rule="T1.15")
def _gain_pp(state: GameState, ctx: Ctx, code: str) -> None:
    assert ctx.p is not None
    gain_pp(state, ctx.p, _eff(ctx)["amount"], ctx.why)


@_effect("force_crown_event", rule="T1.15, §8")
def _force_crown(state: GameState, ctx: Ctx, code: str) -> None:
    ev = _eff(ctx)["event"]
    shown = ev.replace("_", " ").title()
    if ev in state.forced_crown:
        log(state, f"Next turn's Crown Events result is already '{shown}'.")
    else:
        state.forced_crown.append(ev)
        log(state, f"Next turn's Crown Events result will automatically be '{shown}'.")


@_effect("extradite", rule="§25")
def _extradite(state: GameState, ctx: Ctx, code: str) -> None:
    """§25: extradition by counsel (not an activity): back to Fandonia and to trial."""
    cid = _target_cid(ctx)
    if ruleset(state).es_extradition:  # ES §25.4, §25.7 (D69): hiding.py
        ctx.steps.append(("justice_es_extradite_counsel", {"cid": cid}))
        return
    c = state.chars[cid]
    if c.dead or not c.wrongdoer or not c.hiding or stuck_at_war(state, c):
        log(state, f"{name(cid)} can no longer be extradited: no effect.")
        return
    log(state, f"{name(cid)} is extradited and returned to trial in Fandonia (§25).")
    c = state.wchar(cid)
    c.hiding = False
    c.hid_turn = state.turn
    c.location = FANDONIA
    ctx.steps.append(("to_trial", {"cid": cid, "extradited": True}))


@_effect("appoint_ambassador", rule="§16.5, A57")
def _appoint(state: GameState, ctx: Ctx, code: str) -> None:
    """The Ambassador To Besyzan is recalled and the target takes the office (``counsel_place_besyzan``)."""
    cid = _target_cid(ctx)
    office = _eff(ctx)["office"]
    country = OFFICES[office].country
    c = state.chars[cid]
    if country in state.wars or not office_ok(state, c):
        log(state, f"{name(cid)} cannot be made Ambassador To Besyzan now: no effect.")
        return
    if c.office == office:
        return
    current = next((x for x, ch in state.chars.items() if ch.office == office), None)
    if current is not None:
        ctx.steps.append(("discharge", {"cid": current, "why": "a new Ambassador is recommended by counsel, §16.5"}))
    if c.office is not None:  # A57, §16.2: one office at a time
        ctx.steps.append(("discharge", {"cid": cid, "why": "appointed Ambassador To Besyzan by counsel, §16.2"}))
    ctx.steps.append(("counsel_place_besyzan", {"cid": cid}))


assert AMBASSADOR_OF["besyzan"] == "amb_besyzan"


@_effect("intrigue_card_from", rule="T1.15, §14.2.7")
def _intrigue_from(state: GameState, ctx: Ctx, code: str) -> None:
    p = ctx.p
    q = int(ctx.params["target"])
    if len(state.players[q].hand) <= 3 or monarch_owner(state) == q:
        log(state, f"Player {q}'s hand may not be intrigued now (§14.2.7): no effect.")
        return
    log(state, f"Player {p} may intrigue a card from player {q}'s hand.")
    ctx.steps.append(("intrigue_draw", {"p": p, "victim": q}))


@_effect("amnesty", rule="§13.4.6")
def _amnesty(state: GameState, ctx: Ctx, code: str) -> None:
    log(state, "An amnesty is announced: all banished, imprisoned and wrongdoing characters "
               "return to a normal situation.")
    ctx.steps.append(("amnesty_all", {}))


@_effect("discard_cards", rule="§14.2.6")
def _discard_support(state: GameState, ctx: Ctx, code: str) -> None:
    """§14.2.6: only Support cards in players' hands are discarded."""
    eff = _eff(ctx)
    types = set(eff["cards"])
    fs = eff.get("foreign_support")
    if fs == "all":
        types |= {t for t in CARD_TYPES if t.startswith("foreign_support_")}
    elif fs == "at_war":
        types |= {f"foreign_support_{w}" for w in state.wars if f"foreign_support_{w}" in CARD_TYPES}
    found = False
    for q in state.order or range(state.n):
        hand = state.players[q].hand
        for card in [x for x in hand if CARD_TYPE_OF[x] in types]:
            hand.remove(card)
            discard(state, card)
            found = True
            log(state, f"Player {q} discards '{CARD_TYPES[CARD_TYPE_OF[card]].name}' from his hand.")
    if not found:
        names = ", ".join(sorted(CARD_TYPES[t].name for t in types))
        log(state, f"No player holds any of these cards ({names}): nothing is discarded.")


@_effect("earc_to_nrc", rule="T1.15")
def _earc_to_nrc(state: GameState, ctx: Ctx, code: str) -> None:
    target = _target_cid(ctx)
    c = state.chars[target]
    if c.dead or c.owner is None or target == state.monarch:
        log(state, f"{name(target)} is no longer an EARC: no effect.")
        return
    log(state, f"{name(target)} is condemned and becomes a NRC; the Royal Alignment card is discarded.")
    ctx.steps.append(("release", {"cid": target}))


@_effect("discharge_minister", rule="§16.4, T1.15")
def _discharge_minister(state: GameState, ctx: Ctx, code: str) -> None:
    office = _eff(ctx)["office"]
    holder = next((cid for cid, c in state.chars.items() if c.office == office), None)
    if holder is None:
        log(state, f"The office of {OFFICES[office].name} is vacant: no effect.")
        return
    ctx.steps.append(("discharge", {"cid": holder, "why": ctx.why}))


@_effect("recall_ambassador", rule="§16.4, T1.15")
def _recall(state: GameState, ctx: Ctx, code: str) -> None:
    target = _target_cid(ctx)
    c = state.chars[target]
    if c.office is None or OFFICES[c.office].country is None:
        log(state, f"{name(target)} is no longer an Ambassador: no effect.")
        return
    ctx.steps.append(("discharge", {"cid": target, "why": ctx.why}))


@_effect("players_lose_half_ip", "players_gain_ip", "players_lose_ip", rule="T1.15")
def _all_players(state: GameState, ctx: Ctx, code: str) -> None:
    eff = _eff(ctx)
    for q in state.order or range(state.n):
        ip = state.players[q].ip
        if code == "players_lose_half_ip" and ip >= eff["min_ip"]:
            lose_ip(state, q, (ip + 1) // 2, ctx.why)
        elif code == "players_gain_ip" and ip <= eff["max_ip"]:
            gain_ip(state, q, eff["amount"], ctx.why)
        elif code == "players_lose_ip" and ip >= eff["min_ip"]:
            lose_ip(state, q, eff["amount"], ctx.why)


# ---------------------------------------------------------------------------
# Verdicts: Trial Table (§28.6) and Clemency Table (§38)
# ---------------------------------------------------------------------------

#: every ``verdict`` of the Trial and Clemency Tables.
VERDICTS: Final = frozenset(lookup_row["verdict"] for t in (TRIAL, CLEMENCY) for _lo, _hi, lookup_row in t["rows"])


def minister_of_justice(state: GameState) -> str | None:
    """The holder of the office of Minister Of Justice, if any."""
    for cid, c in state.chars.items():
        if c.office == "minister_of_justice":
            return cid
    return None


@_effect("not_guilty", "pardoned", rule="§28.6.1, §38 Clemency")
def _innocent(state: GameState, ctx: Ctx, code: str) -> None:
    assert ctx.cid is not None
    restore(state, ctx.cid)
    if code == "not_guilty":
        log(state, f"{name(ctx.cid)} is innocent and returns to a normal situation (§28.6.1).")
    else:
        log(state, f"{name(ctx.cid)} is pardoned and returns to a normal situation (§38 Clemency).")


@_effect("executed", rule="§28.6.5, §38 Clemency")
def _executed(state: GameState, ctx: Ctx, code: str) -> None:
    ctx.steps.append(("kill", {"cid": ctx.cid, "cause": "execution"}))


@_effect("imprisoned", "awaiting_execution", rule="§28.6.3, §28.6.4, §30, §38 Clemency")
def _imprisoned(state: GameState, ctx: Ctx, code: str) -> None:
    """Trial: the sentence (office vacated, then ``justice_imprison``, then ``then``).  Clemency
    (``params["clemency"]``): the King overrules a banishment or an execution."""
    cid = ctx.cid
    assert cid is not None
    if ctx.params.get("clemency"):
        c = state.chars[cid]
        if c.banished or c.awaiting_execution:
            registry.HOOKS["imprison"](state, cid, False, "imprisoned, the King overruling the judge (§38 Clemency)")
        ctx.steps.append(ctx.params["then"])
        return
    ctx.steps += [vacate_step(state, cid), ("justice_imprison", {"cid": cid, "execute": code != "imprisoned"}),
                  ctx.params.get("then")]


@_effect("banished", rule="§28.6.2, §29.1, D75")
def _banished(state: GameState, ctx: Ctx, code: str) -> None:
    """§29.1: the Minister Of Justice's player (else the first player) picks the country; a
    character who cannot go abroad is imprisoned instead."""
    cid = ctx.cid
    assert cid is not None
    then = ctx.params.get("then")
    opts = country_ids(state)
    if cid in NEVER_ABROAD or not opts:
        if ruleset(state).banishment_impossible_imprisons and not opts:
            log(state, f"{name(cid)} cannot be banished: Fandonia is at war with every country, so he is "
                       "imprisoned instead (ES §29.1, D75).")
        else:
            log(state, f"{name(cid)} cannot be banished abroad: imprisoned instead.")
        ctx.steps += [vacate_step(state, cid), ("justice_imprison", {"cid": cid, "execute": False}), then]
        return
    mj = minister_of_justice(state)
    mj_owner = state.chars[mj].owner if mj is not None and mj != cid else None
    decider = mj_owner if mj_owner is not None else state.first_player  # §29.1, A9
    ctx.steps += [ask(decider, "banish_country", opts, "justice_banish", {"target": cid}, cid=cid), then]


@_effect("new_trial", rule="§38 Clemency")
def _new_trial(state: GameState, ctx: Ctx, code: str) -> None:
    assert ctx.cid is not None
    set_situation(state.wchar(ctx.cid), FANDONIA, wrongdoer=True)
    log(state, f"{name(ctx.cid)} is brought back to Fandonia for a new trial (§38 Clemency).")
    ctx.steps.append(("justice_trial", {"cid": ctx.cid, "mod": 0}))


_ALL: Final = set(EFFECT_CODES) | set(COUNSEL_EFFECT_CODES) | VERDICTS | {"pp", "ip", "assassinated"}
assert _ALL == set(EFFECTS), sorted(_ALL ^ set(EFFECTS))
