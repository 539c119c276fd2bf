"""``noble-rule-v1`` / ``noble-rule-v2``: scripted nobles that play like a sensible human.

They see only their own ``view`` and the legal action ids, and use their own ``random.Random``.
The view is read as a ``SeatView`` (``engine.face.seat``); a ``player_view`` document given to
``act`` is read into one once.  Strategy (v1):

* Turn: usurp when the estimated P(success) >= 0.6 (exact convolution of both Usurpation
  Ratings, §36.4-§36.5/§36.8, see ``usurp_chance``); play Royal Alignment cards; pardon own
  characters as FARC Monarch; recruit with drawn Loyalty counters; acquire titles, fill
  offices, become a counselor, court favor; consult the Prestige Table with the best expected
  value (bought +1 when affordable); draw counters/cards; buy PP with spare IP; then pass.
* Rolls: modifier signs and window cards go in the player's favour when the roll concerns one
  of its characters or its own activity (Alibi at its hearings/trials, Guards when its
  characters are assassination targets, Evidence against opponents' characters...); when it
  cannot tell, it passes.
* Usurpation: plays every Support card (each only adds); a FARC Monarch defends with all.
* Everything else: a sensible default (pass / "no" / lowest-cost choice / own RNG).

``noble-rule-v2`` adds: expose scandals and intrigue cards against the leader, assassinate
RCs ahead of its FARC in the succession when the Monarch is weak, tuned IP -> PP buying, and
usurps at >= 0.55.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from fandonia_env.engine.core.actions import ID, NAME, action_player
from fandonia_env.engine.data.components import (
    ALL_CHARACTER_IDS,
    NOBLES,
    OFFICES,
    ROYALS,
    SUCCESSION,
    character_name,
)
from fandonia_env.engine.data.tables import PRESTIGE_MODIFIER_CAP, PRESTIGE_TABLES, lookup
from fandonia_env.engine.face.seat import SeatView, as_seat_view
from fandonia_env.engine.rules.rule_queries import (
    SUPPORT_VALUES,
    best_usurpation,
    dice_distribution,
    gains_halved,
    mean,
    pp_price,
    royal_uv_distribution,
    usurpation_chance,
)

from .base import Agent, register

PASS, YES, NO = ID["pass"], ID["yes"], ID["no"]
SIGN_PLUS, SIGN_MINUS = ID["sign_plus"], ID["sign_minus"]

_NAME_TO_CID = {character_name(c): c for c in ALL_CHARACTER_IDS}
# longest names first so "Sir Richard" never matches inside a longer name by accident
_NAMES_BY_LEN = sorted(_NAME_TO_CID, key=len, reverse=True)


# ---------------------------------------------------------------------------
# Usurpation odds: the engine's rule queries (``fandonia_env.engine.rules.rule_queries``) on the view
# ---------------------------------------------------------------------------


def usurp_chance(view: SeatView | dict[str, Any], cid: str, with_hand: bool = True) -> float:
    """P(the viewer's usurpation with ``cid`` succeeds), all its Support cards played.

    Exact: the usurper's rating (UV dice + PC/FACs/FARCs + Support cards in front and, if
    ``with_hand``, in hand) against the Monarch's (§36.5 for a NRC Monarch; §36.8 for a FARC
    Monarch, whose unseen hand is ignored): ``rule_queries.usurpation_chance``."""
    view = as_seat_view(view)
    return usurpation_chance(view, view.me, cid, with_hand)


def best_usurp(view: SeatView | dict[str, Any]) -> tuple[str | None, float]:
    """The viewer's best RC for a usurpation now and its P(success) (None, 0.0 if none):
    ``rule_queries.best_usurpation``."""
    view = as_seat_view(view)
    return best_usurpation(view, view.me)


# ---------------------------------------------------------------------------
# Prestige tables: expected value in PP of a consultation
# ---------------------------------------------------------------------------

_SPECIAL_COST = {
    "scandal": 2.0, "duel": 2.5, "wrongdoing": 3.0, "hearing": 3.0, "trial": 5.0,
    "no_effect": 0.0, "lose_remaining_activities": 0.7, "designate_pc_or_henchman": 0.0,
    "extra_activities": -1.0, "any_activity": -0.5, "intrigue_card": -0.6, "auto_proposal": -0.3,
}


def prestige_ev(view: SeatView | dict[str, Any], table: str, bonus: int = 0) -> float:
    """Expected PP-equivalent gain of one roll on ``table`` (cost included)."""
    view = as_seat_view(view)
    me = view.players[view.me]
    cap = PRESTIGE_MODIFIER_CAP
    mod = max(-cap, min(cap, me.prestige_mods.get(table, 0))) + bonus
    half = gains_halved(view, view.me)
    return _prestige_ev(table, mod, bool(half), me.ip, me.pp, pp_price(view))


@lru_cache(maxsize=65536)
def _prestige_ev(table: str, mod: int, half: bool, ip: int, pp: int, price: int) -> float:
    t = PRESTIGE_TABLES[table]
    two = dice_distribution(2)
    f = 0.5 if half else 1.0
    ip_value = 1.0 / price  # one IP is worth what it buys of a PP (§35.8)

    def row_value(total: int, depth: int) -> float:
        r = lookup(t, total)  # the row hit, clamped to the table's ends (A6)
        v = f * (r["pp"] + ip_value * r["ip"])
        for s in r["special"]:
            if s == "lose_all_ip":
                v -= f * ip_value * ip
            elif s == "lose_all_pp":
                v -= f * pp
            elif s == "double_pp":
                v += f * pp
            elif s == "double_ip":
                v += f * ip_value * ip
            elif s == "roll_again":
                v += max(0.0, ev(depth + 1)) if depth < 2 else 0.0
            else:
                v -= _SPECIAL_COST.get(s, 0.0)
        v += 0.4 * r["mod"]  # the cumulative modifier is worth something for later rolls
        return v

    def ev(depth: int) -> float:
        return sum(p * row_value(k + mod, depth) for k, p in two.items())

    return ev(0) - ip_value * int(t.get("cost_ip", 0))


# ---------------------------------------------------------------------------
# Card values (what to discard first)
# ---------------------------------------------------------------------------

_CARD_KEEP = {
    "dwtk": 100, "army_support": 30, "peasant_support": 25, "navy_support": 22, "townsmen_support": 20,
    "foreign_support_sandarkan": 18, "foreign_support_epalin": 18, "clergy_support": 15,
    "foreign_support_cronos": 14, "foreign_support_city_states": 14, "trade_guild_support": 13,
    "merchant_support": 13, "alibi": 12, "personal_guards": 11, "palace_guards": 11, "pardon": 10,
    "extra_activity": 10, "informer": 9, "intrigue": 9, "amnesty": 8, "escape": 8, "monarchs_counselor": 8,
    "treachery": 7, "evidence": 6, "prison_guards": 5, "port_guards": 5, "henchman": 4,
    "assassination": 4, "extradition": 3,
}


def card_keep_value(ctype: str) -> float:
    if ctype.startswith("ra_"):
        r = ctype[3:]
        return 16 + ROYALS[r].status
    return _CARD_KEEP.get(ctype, 5)


# ---------------------------------------------------------------------------
# The agent
# ---------------------------------------------------------------------------


class NobleRuleV1(Agent):
    id = "noble-rule-v1"
    usurp_threshold = 0.6
    aggressive = False  # v2 features

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self._last_kind: str | None = None
        self._proposed_turn = -1

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng.seed(seed)
        self._last_kind = None
        self._proposed_turn = -1

    # -- entry point ---------------------------------------------------------
    def act(self, view: SeatView | dict[str, Any], legal: list[int], infoset: Any = None) -> int:
        if len(legal) == 1:
            return legal[0]
        sv = as_seat_view(view)  # a player_view document is read once; the handlers read a SeatView
        dec = sv.decision
        kind, ctx = ("other", {}) if dec is None else (dec.kind, dec.ctx or {})
        h = getattr(self, f"_k_{kind}", None)
        a = None
        if h is not None:
            a = h(sv, legal, ctx)
        if a is None or a not in legal:
            a = self._default(legal)
        self._last_kind = kind
        return a

    # -- helpers -------------------------------------------------------------
    def _default(self, legal: list[int]) -> int:
        if PASS in legal:
            return PASS
        if NO in legal:
            return NO
        return self.rng.choice(legal)

    @staticmethod
    def _chars(legal: list[int]) -> list[str]:
        return [NAME[a][5:] for a in legal if NAME[a].startswith("char_")]

    @staticmethod
    def _mine(view: SeatView, cid: str) -> bool:
        return view.chars[cid].owner == view.me

    def _pick_char(self, legal: list[int], key: Any) -> int | None:
        cs = self._chars(legal)
        if not cs:
            return None
        return ID[f"char_{max(cs, key=key)}"]

    def _pc(self, view: SeatView) -> str:
        return view.players[view.me].pc

    def _leader(self, view: SeatView) -> int:
        """The opponent who looks strongest (faction statuses + PP)."""
        me, chars, status, mon = view.me, view.chars, view.status, view.monarch
        best, bv = None, -1e9
        for pl in view.players:
            q = pl.idx
            if q == me:
                continue
            v = pl.pp + 0.2 * pl.ip + sum(status[c] for c, ch in chars.items() if ch.owner == q and not ch.dead)
            if mon is not None and chars[mon].owner == q:
                v += 1000
            if v > bv:
                best, bv = q, v
        return best if best is not None else (me + 1) % view.n

    # -- the Player Turn -----------------------------------------------------
    def _k_turn_main(self, view: SeatView, legal: list[int], ctx: dict[str, Any]) -> int | None:
        s = set(legal)
        me = view.players[view.me]
        left = ctx.get("activities_left", 0)
        done = ctx.get("done", [])
        if ID["free_usurp"] in s:
            _, p = best_usurp(view)
            if p >= self.usurp_threshold:
                return ID["free_usurp"]
        for f in ("free_royal_alignment", "free_farc_pardon"):
            if ID[f] in s:
                return ID[f]
        if ID["free_play_extra_activity"] in s and left == 1:
            return ID["free_play_extra_activity"]
        # own characters in trouble
        chars = view.chars
        trouble = [c for c, ch in chars.items() if ch.owner == view.me and not ch.dead
                   and (ch.imprisoned or ch.banished or ch.wrongdoer)]
        if trouble:
            for a in ("act_pardon", "act_amnesty", "act_escape"):
                if ID[a] in s:
                    return ID[a]
        pcc = chars[me.pc]
        if ID["act_travel"] in s and pcc.location != "fandonia" and not pcc.banished:
            return ID["act_travel"]
        if ID["free_propose"] in s and self._proposed_turn != view.turn:
            self._proposed_turn = view.turn
            return ID["free_propose"]
        for a in ("act_hold_wedding", "act_recruit", "act_acquire_title", "act_fill_office",
                  "act_become_counselor"):
            if ID[a] in s:
                return ID[a]
        if self.aggressive:
            a = self._aggressive_activity(view, s)
            if a is not None:
                return a
        # Prestige: buy the +1 first when it helps and is affordable
        if ID["act_prestige"] in s:
            best = max((prestige_ev(view, t, 0), t) for t in PRESTIGE_TABLES)[0]
            if (ID["free_buy_modifier"] in s and me.ip >= 6 and "prestige" not in done):
                return ID["free_buy_modifier"]
            if best > 0.3:
                return ID["act_prestige"]
        if ID["act_court_favor"] in s:
            return ID["act_court_favor"]
        if ID["act_draw"] in s:
            return ID["act_draw"]
        if ID["act_intrigue_card"] in s:
            return ID["act_intrigue_card"]
        reserve = 6 if self.aggressive else 8
        if ID["free_buy_pp"] in s and me.ip >= reserve + pp_price(view):
            return ID["free_buy_pp"]
        return PASS

    def _aggressive_activity(self, view: SeatView, s: set[int]) -> int | None:
        return None

    # -- activity sub-decisions ---------------------------------------------
    def _k_prestige_table(self, view, legal, ctx):
        bonus = 1 if ctx.get("bought") else 0
        best = None
        for a in legal:
            t = NAME[a][len("prestige_"):]
            v = prestige_ev(view, t, bonus)
            if best is None or v > best[0]:
                best = (v, a)
        return best[1] if best else None

    def _k_prestige_roll_again(self, view, legal, ctx):
        t = ctx.get("table")
        if t in PRESTIGE_TABLES:
            mod = ctx.get("mod", 0) - max(-2, min(2, view.players[view.me].prestige_mods.get(t, 0)))
            return YES if prestige_ev(view, t, max(0, mod)) > 0 else NO
        return YES

    def _k_recruit_character(self, view, legal, ctx):
        cs = self._chars(legal)
        if not cs:
            return None
        status, chars = view.status, view.chars
        def val(c):
            v = status[c]
            if chars[c].office:
                v += 2
            if c in ("53", "52", "54", "45", "55"):
                v += 2
            return v
        return ID[f"char_{max(cs, key=val)}"]

    def _k_title_character(self, view, legal, ctx):
        pc = self._pc(view)
        status = view.status
        return self._pick_char(legal, lambda c: (c == pc, status[c]))

    def _k_counselor_character(self, view, legal, ctx):
        pc = self._pc(view)
        status = view.status
        return self._pick_char(legal, lambda c: (c == pc, status[c]))

    def _k_fill_office_office(self, view, legal, ctx):
        best = max(legal, key=lambda a: OFFICES[NAME[a][len("office_"):]].bonus if NAME[a].startswith("office_") else -1)
        return best

    def _k_fill_office_char(self, view, legal, ctx):
        pc = self._pc(view)
        status = view.status
        return self._pick_char(legal, lambda c: (c == pc, -status[c]))

    def _k_office_fill(self, view, legal, ctx):
        pc = self._pc(view)
        cs = [c for c in self._chars(legal) if self._mine(view, c)]
        if not cs:
            return PASS
        status = view.status
        c = max(cs, key=lambda c: (c == pc, -status[c]))
        return ID[f"char_{c}"]

    def _k_royal_alignment(self, view, legal, ctx):
        def val(a):
            r = NAME[a][len("play_ra_"):]
            return mean(royal_uv_distribution(r)) + ROYALS[r].status
        return max(legal, key=val)

    def _k_draw_choice(self, view, legal, ctx):
        me = view.players[view.me]
        want_loyal = len(view.loyalty_drawn) < 2 and me.pp >= 4
        order = ["draw_loyalty", "draw_event", "draw_opportunity"] if want_loyal else \
            ["draw_event", "draw_loyalty", "draw_opportunity"]
        for n in order:
            if ID[n] in legal:
                return ID[n]
        return None

    _k_choose_draw = _k_draw_choice

    def _k_travel_character(self, view, legal, ctx):
        for c in self._chars(legal):
            ch = view.chars[c]
            if ch.location != "fandonia" and not ch.banished:
                return ID[f"char_{c}"]
        return PASS if PASS in legal else None

    def _k_travel_destination(self, view, legal, ctx):
        if ID["country_fandonia"] in legal:
            return ID["country_fandonia"]
        return None

    def _k_use_any_activity(self, view, legal, ctx):
        return NO

    def _k_favor_through_henchman(self, view, legal, ctx):
        return NO

    def _k_crown_intrigue(self, view, legal, ctx):
        return YES

    def _k_intrigue_victim(self, view, legal, ctx):
        me, n, players = view.me, view.n, view.players
        lead = self._leader(view)
        def val(a):
            q = action_player(me, a, n)
            return (players[q].hand_size + (3 if q == lead else 0))
        return max(legal, key=val)

    def _k_problem_leave_unresolved(self, view, legal, ctx):
        return NO

    def _k_wedding_attend(self, view, legal, ctx):
        return YES if prestige_ev(view, "socializing") > 0 else NO

    def _k_propose_use_auto(self, view, legal, ctx):
        return YES

    def _k_propose_proposee(self, view, legal, ctx):
        status = view.status
        return self._pick_char(legal, lambda c: (c in ROYALS, status[c]))

    def _k_hearing_hiding(self, view, legal, ctx):
        return NO

    _k_hide_from_hearing = _k_hearing_hiding

    def _k_pp_limit_lose(self, view, legal, ctx):
        short = ctx.get("required", 0) - ctx.get("pp", 0)
        cs = self._chars(legal)
        if not cs:
            return None
        status = view.status
        def key(c):
            st = status[c]
            royal = c in ROYALS
            covers = st >= short
            return (royal, not covers, st if covers else -st)
        return ID[f"char_{min(cs, key=key)}"]

    def _designate_least(self, view, legal, ctx):
        pc = self._pc(view)
        status = view.status
        return self._pick_char(legal, lambda c: (c != pc, -status[c]))

    _k_prestige_designate = _designate_least
    _k_court_ball_designate = _designate_least
    _k_henchman_character = _designate_least

    def _k_duel_fighter(self, view, legal, ctx):
        pc = self._pc(view)
        return self._pick_char(legal, lambda c: (c != pc, NOBLES[c].dueling if c in NOBLES else 0))

    def _k_usurp_farc(self, view, legal, ctx):
        return self._pick_char(legal, lambda c: usurp_chance(view, c))

    def _k_usurp_support(self, view, legal, ctx):
        cards = [a for a in legal if a != PASS]
        if not cards:
            return PASS
        return max(cards, key=lambda a: SUPPORT_VALUES.get(NAME[a][5:], (0, 0, ()))[0])

    def _discard_least(self, view, legal, ctx):
        return min(legal, key=lambda a: card_keep_value(NAME[a][len("discard_"):]) if NAME[a].startswith("discard_") else 1e9)

    _k_voluntary_discard = _discard_least
    _k_death_discard = _discard_least
    _k_mourning_discard = _discard_least
    _k_hand_limit_discard = _discard_least

    def _k_escape_target(self, view, legal, ctx):
        pc = self._pc(view)
        status = view.status
        return self._pick_char(legal, lambda c: (c == pc, status[c]))

    _k_pardon_target = _k_escape_target
    _k_farc_pardon = _k_escape_target

    def _k_escape_card(self, view, legal, ctx):
        for n in ("play_escape", "play_intrigue_as_escape"):
            if ID[n] in legal:
                return ID[n]
        return None

    def _k_escape_country(self, view, legal, ctx):
        safe = [a for a in legal if NAME[a][len("country_"):] not in view.wars]
        if ID["country_fandonia"] in safe:
            return ID["country_fandonia"]
        return self.rng.choice(safe or legal)

    def _k_counsel_table(self, view, legal, ctx):
        opts = [a for a in legal if a != PASS]
        return self.rng.choice(opts) if opts else None

    def _k_counsel_choice(self, view, legal, ctx):
        return self.rng.choice(legal)

    def _k_counsel_target(self, view, legal, ctx):
        me, n = view.me, view.n
        lead = self._leader(view)
        pl = [a for a in legal if NAME[a].startswith("player_rel_")]
        if pl:
            for a in pl:
                if action_player(me, a, n) == lead:
                    return a
            return self.rng.choice(pl)
        cs = self._chars(legal)
        notmine = [c for c in cs if not self._mine(view, c)]
        if notmine:
            return ID[f"char_{self.rng.choice(notmine)}"]
        return self.rng.choice(legal)

    def _k_counsel_counselor(self, view, legal, ctx):
        return legal[0]

    def _k_scandal_target(self, view, legal, ctx):
        lead = self._leader(view)
        chars, status = view.chars, view.status
        return self._pick_char(legal, lambda c: (chars[c].owner == lead,
                                                 chars[c].owner is not None and not self._mine(view, c),
                                                 status[c]))

    def _k_assassination_target(self, view, legal, ctx):
        return self._assassination_target(view, legal)

    def _assassination_target(self, view, legal):
        cs = [c for c in self._chars(legal) if not self._mine(view, c)]
        if not cs:
            return None
        status = view.status
        return ID[f"char_{max(cs, key=lambda c: status[c])}"]

    def _k_assassin(self, view, legal, ctx):
        return self._designate_least(view, legal, ctx)

    def _k_assassination_card(self, view, legal, ctx):
        for a in legal:
            if a != PASS:
                return a
        return None

    def _k_intrigue_grant(self, view, legal, ctx):
        return YES

    def _k_treachery_target(self, view, legal, ctx):
        status = view.status
        return self._pick_char(legal, lambda c: status[c])

    # -- rolls -----------------------------------------------------------------
    def _roll_interest(self, view: SeatView, label: str) -> int:
        """+1: the viewer wants the roll high; -1: low; 0: cannot tell / does not care."""
        me, chars = view.me, view.chars

        def owner_of(text: str) -> int | None | str:
            for n in _NAMES_BY_LEN:
                if n in text:
                    return chars[_NAME_TO_CID[n]].owner
            return "?"

        last = self._last_kind or ""
        if label.startswith(("Hearing of", "Trial of")):
            o = owner_of(label)
            if o == me:
                return -1
            if o is not None and o != "?":
                return +1  # against an opponent's character
            return 0
        if label.startswith("Interrogation of"):
            o = owner_of(label)
            return +1 if o == me else 0
        if label.startswith("Scandal Table"):
            o = owner_of(label)
            if o == me:
                return +1
            if last == "scandal_target":
                return -1
            return 0
        if label.startswith("Assassination Table"):
            inner = label[label.find("(") + 1:label.rfind(")")]
            a_txt, _, t_txt = inner.partition(" against ")
            t_owner = owner_of(t_txt)
            if last in ("assassination_target", "assassination_card", "intrigue_grant", "assassin"):
                a_owner = owner_of(a_txt)
                if a_owner == me:
                    return +1
            if t_owner == me:
                return -1
            if t_txt and _NAME_TO_CID.get(t_txt.strip()) == view.monarch:
                mon = view.monarch
                if chars[mon].owner == me:
                    return -1
            return 0
        if label.startswith("Duel ("):
            o = owner_of(label)
            if o == me:
                return +1
            return 0
        if label == "Royal Favor Table":
            return +1 if last in ("favor_farc", "favor_henchman", "favor_through_henchman", "turn_main") and \
                view.turn_state is not None else 0
        if label == "Counseling Results Table":
            return +1 if last.startswith("counsel_") else 0
        if label == "Seduction":
            return -1 if last == "seduce_target" else 0
        if label.startswith("escape of"):
            o = owner_of(label)
            return +1 if o == me else 0
        if "resolution (Ability" in label:
            # low resolves: we want our own ministers to succeed (keeps Support, no blame)
            return 0
        return 0

    def _k_declare_modifier(self, view, legal, ctx):
        label = ctx.get("roll", "")
        i = self._roll_interest(view, label)
        if "resolution (Ability" in label:
            # a problem attempted by one of our ministers: help him resolve it (low is good)
            why = ctx.get("why", "")
            for n in _NAMES_BY_LEN:
                if n in why and self._mine(view, _NAME_TO_CID[n]):
                    i = -1
                    break
        if i > 0:
            return SIGN_PLUS
        if i < 0:
            return SIGN_MINUS
        return PASS

    def _k_card_sign(self, view, legal, ctx):
        i = self._roll_interest(view, ctx.get("roll", ""))
        if i < 0:
            return SIGN_MINUS
        return SIGN_PLUS if i > 0 else self.rng.choice(legal)

    def _k_card_window(self, view, legal, ctx):
        label = ctx.get("roll", "")
        i = self._roll_interest(view, label)
        if i == 0:
            return PASS
        want_up = i > 0
        good_up = {"evidence", "assassination", "informer", "palace_guards", "prison_guards"}
        good_down = {"alibi", "personal_guards", "treachery", "informer", "palace_guards", "prison_guards"}
        pm = {"informer", "palace_guards", "prison_guards"}
        best = None
        for a in legal:
            n = NAME[a]
            if not n.startswith("play_"):
                continue
            c = n[len("play_"):]
            sub = c.startswith("intrigue_as_")
            if sub:
                c = c[len("intrigue_as_"):]
            if label.startswith("escape of") or label == "Seduction":
                continue  # negating cards: only against others' rolls, not ours
            ok = (want_up and c in good_up) or (not want_up and c in good_down)
            if c == "evidence" and not want_up:
                ok = False
            if not ok:
                continue
            score = (0 if sub else 1, 0 if c in pm else 1)
            if best is None or score > best[0]:
                best = (score, a)
        return best[1] if best else PASS

    def _k_duel_card_target(self, view, legal, ctx):
        mine = [c for c in self._chars(legal) if self._mine(view, c)]
        if mine:
            return ID[f"char_{mine[0]}"]
        return None


class NobleRuleV2(NobleRuleV1):
    """v1 plus pressure on the leader and on the RCs ahead of its FARC; usurps at >= 0.55."""

    id = "noble-rule-v2"
    usurp_threshold = 0.55
    aggressive = True

    def _aggressive_activity(self, view: SeatView, s: set[int]) -> int | None:
        if ID["act_expose_scandal"] in s and self.rng.random() < 0.5:
            return ID["act_expose_scandal"]
        if ID["act_assassinate"] in s and self._worth_assassinating(view):
            return ID["act_assassinate"]
        return None

    def _worth_assassinating(self, view: SeatView) -> bool:
        return self._royal_target(view) is not None

    def _royal_target(self, view: SeatView) -> str | None:
        """The living RC just ahead of our best FARC in the succession (if we have one)."""
        me, chars = view.me, view.chars
        farcs = [c for c in SUCCESSION if chars[c].owner == me and not chars[c].dead]
        if not farcs:
            return None
        pos = SUCCESSION.index(farcs[0])
        for c in SUCCESSION[:pos]:
            ch = chars[c]
            if not ch.dead and ch.owner != me:
                return c
        return None

    def _assassination_target(self, view, legal):
        t = self._royal_target(view)
        if t is not None and ID[f"char_{t}"] in legal:
            return ID[f"char_{t}"]
        return super()._assassination_target(view, legal)


register("noble-rule-v1", NobleRuleV1)
register("noble-rule-v2", NobleRuleV2)
