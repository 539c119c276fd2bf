"""Rule queries written once, for the engine and the agents.

Every function here answers a rules question on either the full ``GameState`` or one
player's view (``game.player_view(state, p)``, what the computer nobles see): the engine rolls
its usurpations with them, and the agents estimate with them instead of keeping copies.
``facts(src)`` is the small adapter that reads either; a view carries the rules in play as
its public ``"rules"`` entry (``{"edition", "optional"}``).

* Support cards (§14.5.2, §7.10.5, §7.11; errata D3, D4, D18, D80): ``support_multiplier``.
* Usurpation ratings (§36.3-§36.5, §36.8, §36.12; A13, A14, A47): ``counts``, ``married``,
  ``faction_value``, ``neutral_value``, ``jane_halves``; who may usurp (§36.2-§36.3):
  ``usurpers``; the Usurpation Value distributions (§36.3) ``royal_uv_distribution`` and the
  exact odds of an attempt with every Support card played: ``usurpation_parts`` ->
  ``success_chance``.
* Prestige (§20.5, §24.3, §29.2): ``gains_halved``; IP -> PP (§35.8, errata D81): ``pp_price``.
* What a seat cannot see (issue 27): ``hidden_pool`` (the Event cards hidden from it, from the
  state or from its view alike), ``hidden_hand_size``; its belief about an opponent's usurpation with
  the Support cards his hand may hide: ``belief_usurpation_chance``.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, Final

from ..core.state import GameState
from ..data.components import (
    CARD_TYPE_OF,
    CARD_TYPES,
    FANDONIA,
    ROYAL_ALIGNMENT_CARD,
    ROYALS,
    SUPPORT_CARDS,
    character_name,
)
from ..data.tables import PP_PRICE, PP_PRICE_ERRATA, SUPPORT_VALUES, monarch_support_value
from .queries import faction as faction
from .queries import free, is_female, owned_ids, status_sum
from .queries import pp_totals as pp_totals
from .queries import status as status
from .queries import statuses as statuses
from .ruleset import ruleset, ruleset_for

__all__ = [
    "ARMY_WAR_MULT", "CATHERINE_BONUS", "MARRIED_MONARCH_BONUS", "NAVY_PIRATES_MULT", "PP_PRICE", "PP_PRICE_ERRATA",
    "SUPPORT_VALUES", "Dist", "Facts", "PartsMemo", "Pool", "RatingParts", "belief_usurpation_chance", "counts", "dice_distribution", "facts", "faction_value",
    "gains_halved", "hidden_hand_size", "hidden_pool", "jane_halves", "married", "mean", "monarch_owner", "neutral_value", "p_greater", "pp_price",
    "royal_uv_distribution", "success_chance", "support_count", "support_multiplier", "usurpation_chance", "usurpation_parts",
    "usurpers",
    # the state's own queries, for the applications that hold the whole game (a tournament's
    # finishing order, an environment's rendering): the Status of a character and of every one,
    # a player's faction, the PP totals the Statuses are kept in
    "faction", "pp_totals", "status", "statuses",
]

# ---------------------------------------------------------------------------
# Constants of the rules these queries answer
# ---------------------------------------------------------------------------

assert set(SUPPORT_VALUES) == set(SUPPORT_CARDS)

ARMY_WAR_MULT: Final = 4  # §7.10.5
NAVY_PIRATES_MULT: Final = 2  # §7.11
MARRIED_MONARCH_BONUS: Final = 10  # §36.5.3, §36.8.1
CATHERINE_BONUS: Final = 10  # §36.5.3


# ---------------------------------------------------------------------------
# The adapter: one reading of a GameState or of a player's view
# ---------------------------------------------------------------------------


class Facts:
    """What the rule queries read, from a ``GameState`` (``StateFacts``) or a view (``ViewFacts``)."""

    __slots__ = ()

    edition: str
    optional: tuple[str, ...]
    monarch: str | None
    support: int
    crown: str | None
    problems: Any  # a container of the unresolved problems' keys
    wars: Any  # a container of the countries at war with Fandonia

    def char_ids(self) -> Iterable[str]:
        raise NotImplementedError

    def owner(self, cid: str) -> int | None:
        raise NotImplementedError

    def dead(self, cid: str) -> bool:
        raise NotImplementedError

    def free(self, cid: str) -> bool:
        """Not dead, banished, imprisoned, hiding or stuck in a country at war (``queries.free``)."""
        raise NotImplementedError

    def spouse(self, cid: str) -> str | None:
        raise NotImplementedError

    def office(self, cid: str) -> str | None:
        raise NotImplementedError

    def status(self, cid: str) -> int:
        raise NotImplementedError

    def pc(self, p: int) -> str:
        raise NotImplementedError

    def in_front(self, p: int) -> list[str]:
        """Card types of the Support cards (and others) lying in front of player p."""
        raise NotImplementedError

    def hand(self, p: int) -> list[str]:
        """Card types in player p's hand (a view knows only its own player's hand)."""
        raise NotImplementedError

    def location(self, cid: str) -> str:
        raise NotImplementedError

    def hiding(self, cid: str) -> bool:
        raise NotImplementedError

    def banished(self, cid: str) -> bool:
        raise NotImplementedError


class StateFacts(Facts):
    """``viewer``: the seat whose view this reading stands for (``engine.face.seat.SeatView`` of a
    live game), which, as a view, shows no other seat's hand; None: the whole state."""

    __slots__ = ("crown", "edition", "monarch", "optional", "problems", "state", "support", "viewer", "wars")

    def __init__(self, state: GameState, viewer: int | None = None) -> None:
        self.state = state
        self.viewer = viewer
        rs = ruleset(state)
        self.edition = rs.edition
        self.optional = rs.optional
        self.monarch = state.monarch
        self.support = state.support
        self.crown = state.crown
        self.problems = state.problems
        self.wars = state.wars

    def char_ids(self) -> Iterable[str]:
        return self.state.chars.keys()

    def owner(self, cid: str) -> int | None:
        return self.state.chars[cid].owner

    def dead(self, cid: str) -> bool:
        return self.state.chars[cid].dead

    def free(self, cid: str) -> bool:
        return free(self.state, self.state.chars[cid])

    def spouse(self, cid: str) -> str | None:
        return self.state.chars[cid].spouse

    def office(self, cid: str) -> str | None:
        return self.state.chars[cid].office

    def status(self, cid: str) -> int:
        return status(self.state, cid)

    def pc(self, p: int) -> str:
        return self.state.players[p].pc

    def in_front(self, p: int) -> list[str]:
        return [CARD_TYPE_OF[c] for c in self.state.players[p].in_front]

    def hand(self, p: int) -> list[str]:
        v = self.viewer
        if v is not None and p != v:
            raise ValueError(f"player {v}'s view does not show player {p}'s hand; "
                             f"only the viewer's own hand (player {v}) is known")
        return [CARD_TYPE_OF[c] for c in self.state.players[p].hand]

    def location(self, cid: str) -> str:
        return self.state.chars[cid].location

    def hiding(self, cid: str) -> bool:
        return self.state.chars[cid].hiding

    def banished(self, cid: str) -> bool:
        return self.state.chars[cid].banished


class ViewFacts(Facts):
    __slots__ = ("chars", "crown", "edition", "me", "monarch", "optional", "players", "problems", "statuses",
                 "support", "view", "wars")

    def __init__(self, view: dict[str, Any]) -> None:
        rules = view.get("rules")
        if not isinstance(rules, dict) or "edition" not in rules:
            raise ValueError("a player's view without its 'rules' entry ({'edition', 'optional'}): "
                             "make it with engine.game.player_view")
        self.view = view
        self.edition = rules["edition"]
        self.optional = tuple(rules.get("optional", ()))
        self.monarch = view["monarch"]
        self.support = view["support"]
        self.crown = view["crown"]
        self.problems = view["problems"]
        self.wars = view["wars"]
        self.chars = view["chars"]
        self.statuses = view["status"]
        self.players = view["players"]
        self.me = view["me"]

    def char_ids(self) -> Iterable[str]:
        return self.chars.keys()

    def owner(self, cid: str) -> int | None:
        return self.chars[cid]["owner"]

    def dead(self, cid: str) -> bool:
        return self.chars[cid]["dead"]

    def free(self, cid: str) -> bool:
        c = self.chars[cid]
        return not (c["dead"] or c["banished"] or c["imprisoned"] or c["hiding"] or c["location"] in self.wars)

    def spouse(self, cid: str) -> str | None:
        return self.chars[cid]["spouse"]

    def office(self, cid: str) -> str | None:
        return self.chars[cid]["office"]

    def status(self, cid: str) -> int:
        return self.statuses[cid]

    def pc(self, p: int) -> str:
        return self.players[p]["pc"]

    def in_front(self, p: int) -> list[str]:
        return list(self.players[p]["in_front"])

    def hand(self, p: int) -> list[str]:
        if p != self.me:
            raise ValueError(f"player {self.me}'s view does not show player {p}'s hand; "
                             f"only the viewer's own hand (player {self.me}) is known")
        return list(self.view["hand"])

    def location(self, cid: str) -> str:
        return self.chars[cid]["location"]

    def hiding(self, cid: str) -> bool:
        return self.chars[cid]["hiding"]

    def banished(self, cid: str) -> bool:
        return self.chars[cid]["banished"]


class FactsSource:
    """Anything the rule queries read through its ``rule_facts()`` (``engine.face.seat.SeatView``)."""

    __slots__ = ()

    def rule_facts(self) -> Facts:
        raise NotImplementedError


Source = GameState | dict[str, Any] | Facts | FactsSource


def facts(src: Source) -> Facts:
    """The adapter for a ``GameState``, a player's view (dict, or a ``SeatView``) or an existing ``Facts``."""
    if isinstance(src, Facts):
        return src
    if isinstance(src, FactsSource):
        return src.rule_facts()
    if isinstance(src, GameState):
        return StateFacts(src)
    if isinstance(src, dict) and "chars" in src and "me" in src:
        return ViewFacts(src)
    raise TypeError(f"rule queries take a GameState or a player's view (dict from player_view), "
                    f"got {type(src).__name__}")


# ---------------------------------------------------------------------------
# Support cards (§14.5.2)
# ---------------------------------------------------------------------------


def support_multiplier(src: Source, p: int, ctype: str) -> tuple[int, str]:
    """The multiplier of a Support card's 1d Usurpation Value for player p, and why (§14.5.2)."""
    f = facts(src)
    if ctype not in SUPPORT_VALUES:
        raise ValueError(f"{ctype!r} is not a Support card; allowed: {sorted(SUPPORT_VALUES)}")
    if ctype == "army_support" and (f.wars or "foreign_war" in f.problems):
        return ARMY_WAR_MULT, "Fandonia is at war (§7.10.5)"
    if ctype == "navy_support" and "pirates" in f.problems:
        return NAVY_PIRATES_MULT, "Pirates unresolved (§7.11)"
    base, boosted, conds = SUPPORT_VALUES[ctype]
    rs = ruleset_for(f.edition, f.optional)
    if ctype.startswith("foreign_support_") and rs.foreign_support_values is not None:
        base, boosted = rs.foreign_support_values  # D3, D4 (ES §2.1.4) (setup group)
    if rs.famine_support_cards is not None and f.crown == "famine":  # D18, A23, R3 (crown group)
        if ctype in rs.famine_support_cards:
            return boosted, "Famine (ES §8.4.2)"
        conds = tuple(c for c in conds if c[0] != "famine")
    if f.support == 0 and rs.crisis_boosts_support:
        return boosted, "the government is in crisis (ES §33.4)"  # D80, A53
    for cond in conds:
        kind = cond[0]
        if kind == "fac":
            if f.owner(cond[1]) == p and not f.dead(cond[1]):
                return boosted, f"{character_name(cond[1])} is a FAC"
        elif kind == "famine":
            if f.crown == "famine":
                return boosted, "Famine"
        elif kind == "problem":
            if cond[1] in f.problems:
                return boosted, cond[1].replace("_", " ").title() + " unresolved"
        elif kind == "ambassador":
            holder = next((cid for cid in f.char_ids() if f.office(cid) == cond[1]), None)
            if holder is not None and f.owner(holder) == p and holder not in ROYALS:
                return boosted, f"the {cond[1].replace('amb_', 'Ambassador to ').replace('_', ' ')} is his"
    return base, "base value"


# ---------------------------------------------------------------------------
# Static parts of the Usurpation Ratings (§36.4.2-§36.4.3, §36.5.2, §36.8.2-§36.8.3, §36.12)
# ---------------------------------------------------------------------------


def counts(src: Source, cid: str) -> bool:
    """§36.12, §7.10.2, A47: the Status of a dead, banished, imprisoned, hiding or stuck
    character is not counted."""
    return facts(src).free(cid)


def married(src: Source, cid: str) -> bool:
    """Has a living spouse."""
    f = facts(src)
    sp = f.spouse(cid)
    return sp is not None and not f.dead(sp)


def monarch_owner(src: Source) -> int | None:
    """The player whose FARC is Monarch, if any (§36.10)."""
    f = facts(src)
    return f.owner(f.monarch) if f.monarch is not None else None


def faction_value(src: Source, p: int, exclude: str | None) -> tuple[int, int]:
    """(PC value, FACs+FARCs value) of player p (§36.4.2-§36.4.3, §36.8.2-§36.8.3, A13).

    The PC's Status is doubled if he is married; his spouse is not counted; ``exclude`` is the
    FARC whose Usurpation Value is used, or the FARC Monarch."""
    if type(src) is GameState:  # the engine's roll: the same sums, read straight from the state
        chars = src.chars
        pcid = src.players[p].pc
        spouse = chars[pcid].spouse
        pc_val = 0
        if free(src, chars[pcid]):
            pc_val = status(src, pcid) * (2 if married(src, pcid) else 1)
        return pc_val, status_sum(src, [cid for cid in owned_ids(src, p)  # p's characters, chars order
                                        if cid != pcid and cid != exclude and cid != spouse
                                        and free(src, chars[cid])])
    f = facts(src)
    pcid = f.pc(p)
    spouse = f.spouse(pcid)
    pc_val = 0
    if f.free(pcid):
        pc_val = f.status(pcid) * (2 if married(f, pcid) else 1)
    others = 0
    for cid in f.char_ids():
        if f.owner(cid) != p or cid == pcid or cid == exclude or cid == spouse:
            continue
        if f.free(cid):
            others += f.status(cid)
    return pc_val, others


def neutral_value(src: Source, used: str) -> int:
    """§36.5.2, A14: Statuses of all NCs and NRCs, except the Monarch, Catherine while George
    reigns and Thomas when the usurper uses him; §36.12 exclusions apply."""
    if isinstance(src, GameState):  # the engine's roll: the same sum, read straight from the state
        mon: str | None = src.monarch
        counted = []
        for cid, c in src.chars.items():
            if c.owner is not None or cid == mon:
                continue
            if cid == "catherine" and mon == "george":
                continue
            if cid == "thomas" and used == "thomas":
                continue
            if free(src, c):
                counted.append(cid)
        return status_sum(src, counted)
    f = facts(src)
    mon = f.monarch
    total = 0
    for cid in f.char_ids():
        if f.owner(cid) is not None or cid == mon:
            continue
        if cid == "catherine" and mon == "george":
            continue
        if cid == "thomas" and used == "thomas":
            continue
        if f.free(cid):
            total += f.status(cid)
    return total


def jane_halves(src: Source, p: int) -> bool:
    """§36.5.1, §36.8.1: the usurper has Jane as FARC and the Monarch is male."""
    f = facts(src)
    return f.owner("jane") == p and not f.dead("jane") and (f.monarch is None or not is_female(f.monarch))


def usurpers(src: Source, p: int) -> list[str]:
    """The RCs player p may use for a usurpation now (empty if he may not usurp), §36.2-§36.3."""
    if isinstance(src, GameState):  # the engine asks at every main decision: read the state directly
        chars = src.chars
        mon: str | None = src.monarch
        if (mon is not None and chars[mon].owner == p) or chars[src.players[p].pc].dead:
            return []
        own = [cid for cid in owned_ids(src, p) if cid in ROYALS and cid != "jane" and not chars[cid].dead]
        if own:
            return [cid for cid in own if free(src, chars[cid]) and cid != mon]
        if chars["thomas"].dead and mon != "thomas":
            return []
        return ["thomas"]
    f = facts(src)
    mon = f.monarch
    if (mon is not None and f.owner(mon) == p) or f.dead(f.pc(p)):
        return []
    own = [cid for cid in f.char_ids() if cid in ROYALS and f.owner(cid) == p and cid != "jane" and not f.dead(cid)]
    if own:
        return [cid for cid in own if f.free(cid) and cid != mon]
    if f.dead("thomas") and mon != "thomas":
        return []
    return ["thomas"]


# ---------------------------------------------------------------------------
# Usurpation Values (§36.3) as exact distributions
# ---------------------------------------------------------------------------

#: an exact distribution: value -> probability
Dist = dict[int, float]


def thomas_uv(die: int) -> int:
    """§36.3: Thomas' Usurpation Value is half a die, rounded up."""
    return (die + 1) // 2


def halve_uv(uv: int) -> int:
    """§36.5.1, §36.8.1: Jane halves a male Monarch's Usurpation Value (rounded down)."""
    return uv // 2


def _conv(a: Dist, b: Dist) -> Dist:
    out: Dist = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] = out.get(x + y, 0.0) + px * py
    return out


@cache
def dice_distribution(n: int, mult: int = 1) -> Dist:
    """Distribution of (n d6) x mult.  Cached: callers must not mutate the returned dict."""
    d: Dist = {0: 1.0}
    for _ in range(n):
        d = _conv(d, {k: 1 / 6 for k in range(1, 7)})
    return {k * mult: p for k, p in d.items()}


@cache
def royal_uv_distribution(cid: str, halve: bool = False) -> Dist:
    """An RC's Usurpation Value distribution (§36.3), halved by Jane when ``halve``; cached,
    callers must not mutate it."""
    if cid == "thomas":
        d: Dist = {}
        for k in range(1, 7):
            v = thomas_uv(k)
            d[v] = d.get(v, 0) + 1 / 6
    else:
        r = ROYALS[cid]
        if r.uv_dice == 0:
            return {0: 1.0}
        d = dice_distribution(r.uv_dice, r.uv_mult)
    if halve:
        h: Dist = {}
        for k, p in d.items():
            h[halve_uv(k)] = h.get(halve_uv(k), 0) + p
        d = h
    return d


def mean(d: Dist) -> float:
    return sum(k * p for k, p in d.items())


def p_greater(a: Dist, b: Dist) -> float:
    """P(A > B) for independent A, B."""
    keys = sorted(b)
    cum = []
    s = 0.0
    for k in keys:
        s += b[k]
        cum.append(s)
    tot = 0.0
    for x, px in a.items():
        i = bisect_left(keys, x)  # number of B values < x
        if i:
            tot += px * cum[i - 1]
    return tot


# ---------------------------------------------------------------------------
# A usurpation attempt's two ratings, and its odds
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RatingParts:
    """Both Usurpation Ratings of an attempt, split into fixed and random parts (§36.4-§36.5,
    §36.8).  ``usurper_cards``/``monarch_cards``: the multipliers of the Support cards counted
    (each 1d x mult), in increasing order; ``monarch_extra``: Catherine's Usurpation Value while George reigns;
    ``monarch_bonus``: +10 for Catherine or a married Monarch; ``monarch_fixed``: the rest
    (neutral Statuses or the FARC Monarch's faction, and the Monarch's Support value);
    ``defender``: the FARC Monarch's player (None for a NRC Monarch)."""

    usurper: str
    usurper_fixed: int
    usurper_cards: tuple[int, ...]
    monarch: str
    defender: int | None
    monarch_halved: bool
    monarch_extra: str | None
    monarch_bonus: int
    monarch_fixed: int
    monarch_cards: tuple[int, ...]


class PartsMemo:
    """What ``usurpation_parts`` works out once for several attempts on one unchanged position: each
    seat's Support multipliers, each (seat, RC)'s faction value, the Monarch's side, the neutral
    values and Jane's halving.  Pass one to a series of calls on the same source (a fresh one per
    position: it is never checked against the source)."""

    __slots__ = ("jane", "neutral", "side", "u_cards", "u_fixed")

    def __init__(self) -> None:
        self.u_cards: dict[tuple[int, bool], tuple[int, ...]] = {}
        self.u_fixed: dict[tuple[int, str], int] = {}
        self.neutral: dict[str, int] = {}
        self.jane: dict[int, bool] = {}
        #: the defender, Catherine's extra, the bonus, the fixed rating (less the neutral values under a
        #: NRC Monarch, which depend on the usurper) and the defender's multipliers
        self.side: tuple[int | None, str | None, int, int, tuple[int, ...]] | None = None


def usurpation_parts(src: Source, p: int, cid: str, with_hand: bool = True,
                     memo: PartsMemo | None = None) -> RatingParts:
    """Player p's attempt with ``cid``, every Support card he has in front (and in hand, if
    ``with_hand``) played; a FARC Monarch's player counts the cards already in front of him
    (his hand is not known to the usurper).  From a view, p must be the viewer when
    ``with_hand``.  ``memo``: shared by calls on the same position (``PartsMemo``)."""
    f = facts(src)
    mon = f.monarch
    if mon is None:
        raise ValueError("no Monarch reigns: there is nothing to usurp")
    if memo is None:
        memo = PartsMemo()
    # the sums read the GameState directly when there is one (their fast paths; same values)
    raw: Source = f.state if type(f) is StateFacts else f
    u_cards = memo.u_cards.get((p, with_hand))
    if u_cards is None:
        cards = f.in_front(p) + (f.hand(p) if with_hand else [])
        u_cards = tuple(sorted(support_multiplier(f, p, t)[0] for t in cards if t in SUPPORT_VALUES))
        memo.u_cards[(p, with_hand)] = u_cards
    u_fixed = memo.u_fixed.get((p, cid))
    if u_fixed is None:
        u_fixed = memo.u_fixed[(p, cid)] = sum(faction_value(raw, p, cid))
    side = memo.side
    if side is None:
        q = f.owner(mon)
        sv = monarch_support_value(f.support)
        extra = None
        if q is None:
            bonus = 0
            if mon == "george":
                if not f.dead("catherine"):
                    extra, bonus = "catherine", CATHERINE_BONUS
            elif married(f, mon):
                bonus = MARRIED_MONARCH_BONUS
            m_base = sv
            m_cards: tuple[int, ...] = ()
        else:
            bonus = MARRIED_MONARCH_BONUS if married(f, mon) else 0
            m_base = sum(faction_value(raw, q, mon)) + sv
            m_cards = tuple(sorted(support_multiplier(f, q, t)[0] for t in f.in_front(q) if t in SUPPORT_VALUES))
        side = memo.side = (q, extra, bonus, m_base, m_cards)
    q, extra, bonus, m_fixed, m_cards = side
    if q is None:
        nv = memo.neutral.get(cid)
        if nv is None:
            nv = memo.neutral[cid] = neutral_value(raw, cid)
        m_fixed += nv
    jane = memo.jane.get(p)
    if jane is None:
        jane = memo.jane[p] = jane_halves(f, p)
    return RatingParts(cid, u_fixed, u_cards, mon, q, jane, extra, bonus, m_fixed, m_cards)


Parts = tuple[tuple[Any, ...], ...]


def _random_parts(parts: RatingParts) -> tuple[int, Parts, Parts]:
    """The gap (Monarch's fixed rating less the usurper's) and the random parts of each side's rating,
    each a hashable ("uv", cid, halve) / ("d", mult), sorted."""
    u_rand = [("uv", parts.usurper, False)] + [("d", m) for m in parts.usurper_cards]
    m_rand: list[tuple[Any, ...]] = [("uv", parts.monarch, parts.monarch_halved)]
    if parts.monarch_extra is not None:
        m_rand.append(("uv", parts.monarch_extra, False))
    m_rand += [("d", m) for m in parts.monarch_cards]
    gap = parts.monarch_fixed + parts.monarch_bonus - parts.usurper_fixed
    return gap, tuple(sorted(u_rand)), tuple(sorted(m_rand))


def success_chance(parts: RatingParts) -> float:
    """Exact P(usurper's rating > Monarch's rating) (§36.6: ties fail)."""
    return _p_win(*_random_parts(parts))


def usurpation_chance(src: Source, p: int, cid: str, with_hand: bool = True, memo: PartsMemo | None = None) -> float:
    """P(player p's usurpation with ``cid`` succeeds), all his Support cards played
    (``usurpation_parts``; ``memo`` shared by calls on the same position); 0 when no Monarch reigns."""
    if facts(src).monarch is None:
        return 0.0
    return success_chance(usurpation_parts(src, p, cid, with_hand, memo))


def best_usurpation(src: Source, p: int, with_hand: bool = True) -> tuple[str | None, float]:
    """Player p's best RC for a usurpation now and its P(success) (``usurpation_chance``); (None, 0.0)
    when he may not usurp or every chance is 0.  The first listed RC wins ties."""
    best, bp = None, 0.0
    memo = PartsMemo()
    for cid in usurpers(src, p):
        q = usurpation_chance(src, p, cid, with_hand, memo)
        if q > bp:
            best, bp = cid, q
    return best, bp


def _part(x: tuple[Any, ...]) -> Dist:
    return royal_uv_distribution(x[1], x[2]) if x[0] == "uv" else dice_distribution(1, x[1])


@lru_cache(maxsize=65536)
def _p_win(gap: int, u_rand: tuple[tuple[Any, ...], ...], m_rand: tuple[tuple[Any, ...], ...]) -> float:
    """P(sum(u_rand) > sum(m_rand) + gap); each part a hashable ("uv", cid, halve) / ("d", mult)."""
    ud = [_part(x) for x in u_rand]
    md = [_part(x) for x in m_rand]
    u_lo, u_hi = sum(min(d) for d in ud), sum(max(d) for d in ud)
    m_lo, m_hi = gap + sum(min(d) for d in md), gap + sum(max(d) for d in md)
    if u_hi <= m_lo:
        return 0.0
    if u_lo > m_hi:
        return 1.0
    u: Dist = {0: 1.0}
    for d in ud:
        u = _conv(u, d)
    m: Dist = {gap: 1.0}
    for d in md:
        m = _conv(m, d)
    return p_greater(u, m)


# ---------------------------------------------------------------------------
# Prestige and PP
# ---------------------------------------------------------------------------


def gains_halved(src: Source, p: int) -> bool:
    """§20.5, §24.3, §29.2: player p's PC is abroad, in hiding or banished, so his Prestige
    gains and losses are halved (once, A2)."""
    f = facts(src)
    pcid = f.pc(p)
    return f.location(pcid) != FANDONIA or f.hiding(pcid) or f.banished(pcid)


def pp_price(src: Source) -> int:
    """IP per PP bought (§35.8; errata D81)."""
    if type(src) is GameState:
        return ruleset(src).pp_price  # the same Ruleset as ruleset_for(edition, optional)
    f = facts(src)
    return ruleset_for(f.edition, f.optional).pp_price


# ---------------------------------------------------------------------------
# What a seat cannot see, and its belief about an opponent's usurpation (issue 27)
# ---------------------------------------------------------------------------

#: the Event cards (§2.1.4) by type, DOWN WITH THE KING aside: each player holds exactly one and the
#: absent players' are out of the game (§3.9), so none is ever hidden
_EVENT_COUNTS: Final[tuple[tuple[str, int], ...]] = tuple(sorted(
    (t, ct.count) for t, ct in CARD_TYPES.items() if t != "dwtk"))

#: a hidden pool: (card type, count) in the order of the type names, counts > 0
Pool = tuple[tuple[str, int], ...]


def hidden_pool(src: Source, seat: int) -> Pool:
    """The Event cards hidden from ``seat``, as ``(card type, count)`` sorted by type: the Event pile
    and every other player's hand except his DOWN WITH THE KING card -- the pool that
    ``engine.face.hidden.resample`` deals from, the same whatever the deal.

    From a view (``seat`` must be the viewer) it is what the view leaves unaccounted for: the 120
    cards less the seat's hand, the discards, the cards in front of every player, the cards lying
    on characters (the view shows which characters are a Henchman, a Monarch's Counselor or a FARC
    on his Royal Alignment card, and those cards' types are fixed) and the cards out of the game:
    the DWTK cards (one in each hand, the rest removed at the setup, §3.9) and the Royal Alignment
    card of every RC who is dead (§31.2; §38 Shorter Game e's removed RCs count as dead) or reigns
    without it under him (§9.4: removed when he succeeded; a FARC Monarch keeps his under him)."""
    f = facts(src)
    if type(f) is StateFacts:
        if f.viewer is not None and seat != f.viewer:
            raise ValueError(f"player {f.viewer}'s view shows what player {f.viewer} cannot see, not player {seat}")
        st = f.state
        n: dict[str, int] = {}
        for c in st.deck:
            t = CARD_TYPE_OF[c]
            n[t] = n.get(t, 0) + 1
        for pl in st.players:
            if pl.idx != seat:
                for c in pl.hand:
                    t = CARD_TYPE_OF[c]
                    if t != "dwtk":
                        n[t] = n.get(t, 0) + 1
        return tuple(sorted(n.items()))
    if not isinstance(f, ViewFacts):
        raise TypeError(f"hidden_pool reads a GameState or a player's view, got {type(f).__name__}")
    if seat != f.me:
        raise ValueError(f"player {f.me}'s view shows what player {f.me} cannot see, not player {seat}")
    v = f.view
    seen: dict[str, int] = {}
    for t in v["hand"]:
        seen[t] = seen.get(t, 0) + 1
    for t in v["discard"]:
        seen[t] = seen.get(t, 0) + 1
    for pv in f.players:
        for t in pv["in_front"]:
            seen[t] = seen.get(t, 0) + 1
    for ch in f.chars.values():
        if ch["henchman"]:
            seen["henchman"] = seen.get("henchman", 0) + 1
        if ch["counselor"]:
            seen["monarchs_counselor"] = seen.get("monarchs_counselor", 0) + 1
    for r, t in ROYAL_ALIGNMENT_CARD.items():
        ch = f.chars[r]
        if ch["aligned"] or ch["dead"] or r == f.monarch:
            seen[t] = seen.get(t, 0) + 1
    out: list[tuple[str, int]] = []
    for t, k in _EVENT_COUNTS:
        left = k - seen.get(t, 0)
        if left > 0:
            out.append((t, left))
    return tuple(out)


def hidden_hand_size(src: Source, p: int) -> int:
    """The cards in player p's hand other than his DOWN WITH THE KING card (every player holds
    exactly one): what another seat cannot see of it (``view["players"][p]["hand_size"] - 1``)."""
    f = facts(src)
    if type(f) is StateFacts:
        return sum(1 for c in f.state.players[p].hand if CARD_TYPE_OF[c] != "dwtk")
    if not isinstance(f, ViewFacts):
        raise TypeError(f"hidden_hand_size reads a GameState or a player's view, got {type(f).__name__}")
    return int(f.players[p]["hand_size"]) - 1


def support_count(pool: Pool) -> int:
    """The Support cards (§14.5.2) of a hidden pool."""
    return sum(k for t, k in pool if t in SUPPORT_VALUES)


#: ``GameState.memo`` key of the belief's cache: exact results keyed by everything they are computed
#: from (so never stale, whatever changed in the state since), dropped when it grows past
#: ``_MEMO_BELIEF_SIZE`` entries
_MEMO_BELIEF: Final = "rule_queries.belief"
_MEMO_BELIEF_SIZE: Final = 256


def _hidden_survival(coef: tuple[tuple[int, int], ...], n: int, lo: int, hi: int) -> list[float]:
    """``s[i] = P(H > lo + i)`` for i = 0 .. hi - lo (``0 <= lo <= hi``), H the sum of n independent
    values each drawn with weights ``coef`` ((value >= 0, integer weight), values distinct).

    Exact: the weights of H are the coefficients of ``C(x)**n``, ``C(x) = sum of w x**v``, over
    ``(sum of w)**n``: integers, powered as one big integer (a coefficient a slot of bits wide
    enough for any of them) cut after ``x**hi``; far cheaper than n convolutions in Python."""
    denom = sum(w for _, w in coef) ** n
    width = 8 * (denom.bit_length() // 8 + 1)  # bits a slot: every coefficient of C**n is <= denom
    mask = (1 << (width * (hi + 1))) - 1  # the coefficients of x**0 .. x**hi
    base = 0
    for v, w in coef:
        if v <= hi:
            base |= w << (width * v)
    acc = 1
    while n:  # acc = C**n cut after x**hi (binary powering)
        if n & 1:
            acc = (acc * base) & mask
        n >>= 1
        if n:
            base = (base * base) & mask
    # the weights of H <= lo - 1: the sum of those slots, which is the number mod 2**width - 1 (as
    # 2**width = 1 there, and the sum is < denom < 2**width - 1)
    below = (acc & ((1 << (width * lo)) - 1)) % ((1 << width) - 1)
    step = width // 8
    raw = (acc >> (width * lo)).to_bytes(step * (hi - lo + 1), "little")
    out = [0.0] * (hi - lo + 1)
    for i in range(hi - lo + 1):  # P(H > t) = 1 - P(H <= t)
        below += int.from_bytes(raw[step * i:step * (i + 1)], "little")
        out[i] = (denom - below) / denom
    return out


def belief_usurpation_chance(src: Source, seat: int, p: int, pool: Pool | None = None) -> float:
    """What ``seat`` can believe of player p's best usurpation odds now: ``best_usurpation``'s odds
    with every Support card in front of p played, and each of his hidden cards (``hidden_hand_size``)
    an independent draw from the cards ``seat`` cannot see (``hidden_pool``; given, it is not
    computed again), played if it is a Support card.  The mean of his odds over those hands, in
    closed form; 0 when no Monarch reigns or p may not usurp; his face-up odds when he hides no
    card.  A FARC Monarch's player defends with the cards in front of him only, as in
    ``usurpation_parts``.  A pure function of seat's view.  From a ``GameState``, its parts are
    kept in ``state.memo`` by what they are computed from."""
    if p == seat:
        raise ValueError(f"player {seat} knows his own hand: use best_usurpation(src, {p})")
    f = facts(src)
    if f.monarch is None:
        return 0.0
    raw: Source = f.state if type(f) is StateFacts else f
    cands = usurpers(raw, p)
    if not cands:
        return 0.0
    n = hidden_hand_size(f, p)
    if n and pool is None:
        pool = hidden_pool(f, seat)
    if not n or not pool:  # nothing hidden: his odds from the cards in front of him
        return max(usurpation_chance(raw, p, cid, False) for cid in cands)
    memo: dict[Any, Any] | None = None
    if type(f) is StateFacts:
        memo = f.state.memo.get(_MEMO_BELIEF)
        if memo is None or len(memo) > _MEMO_BELIEF_SIZE:
            memo = f.state.memo[_MEMO_BELIEF] = {}
    # each candidate: P(D + H > gap), D = his royal and front cards less the Monarch's dice, H his hidden cards
    diffs: list[tuple[int, Dist]] = []
    for cid in cands:
        gap, u_rand, m_rand = _random_parts(usurpation_parts(f, p, cid, with_hand=False))
        key = ("d", u_rand, m_rand)
        d = memo.get(key) if memo is not None else None
        if d is None:
            u: Dist = {0: 1.0}
            for part in u_rand:
                u = _conv(u, _part(part))
            for part in m_rand:  # less the Monarch's random part
                u = _conv(u, {-face: pf for face, pf in _part(part).items()})
            d = u
            if memo is not None:
                memo[key] = d
        diffs.append((gap, d))
    # one hidden card: weight 6 for each card of the pool that adds nothing, and 1 for each face of
    # a Support card's die (its 1d x its multiplier for p): the odds times 6N, N cards in the pool
    w: dict[int, int] = {}
    for t, k in pool:
        if t in SUPPORT_VALUES:
            mult = support_multiplier(f, p, t)[0]
            for i in range(1, 7):
                w[mult * i] = w.get(mult * i, 0) + k
        else:
            w[0] = w.get(0, 0) + 6 * k
    coef = tuple(sorted(w.items()))
    # the thresholds of H asked for: gap - x for x in D, where H can be both above and not
    lo = max(0, min(gap - max(d) for gap, d in diffs))
    hi = min(n * coef[-1][0] - 1, max(gap - min(d) for gap, d in diffs))
    surv: list[float] = []
    if lo <= hi:
        hkey = ("h", coef, n, lo, hi)
        got = memo.get(hkey) if memo is not None else None
        surv = got if got is not None else _hidden_survival(coef, n, lo, hi)
        if memo is not None and got is None:
            memo[hkey] = surv
    best = 0.0
    for gap, d in diffs:
        q = 0.0
        for x, px in d.items():
            need = gap - x  # he wins when H > need: always below 0, never from n * max value on
            if need < 0:
                q += px
            elif lo <= need <= hi:
                q += px * surv[need - lo]
        best = max(best, q)
    return min(1.0, best)
