"""What one seat may know, as a typed, read-only object: ``SeatView``; the pending decision: ``Decision``.

    sv = SeatView.of(game.state, p)             # from the live game: wraps the state, copies nothing
    sv = SeatView.from_json(player_view(...))   # from a view that came over the wire (JSON)
    sv.turn, sv.chars["anne"].owner, sv.players[2].hand_size, sv.hand, sv.decision.kind ...

Both answer every question the same way (``tests/test_seat_view.py``: the encoders give the same
bytes, the nobles the same moves).  A ``SeatView`` shows exactly what ``player_view(state, p)``
shows: the public board, the seat's own hand, drawn counters and Player Turn bookkeeping, the other
seats' hand sizes, the public log, and the pending decision when it is the seat's.  Its attributes
are the live state's own objects (lists, dicts, characters) on a live view: read them, never write.

Cards are given by type (``"army_support"``), as ``player_view`` gives them: the hand, the discards,
the cards in front of each seat, the Opportunity counters drawn.  A character (``chars[cid]``) is
the engine's ``Character``; the fields ``player_view`` shows (``CHAR_VIEW_FIELDS``) are the view's,
its card fields (``henchman_card``, ``counselor_card``, ``alignment_card``) say whether such a card
lies on it (compare them with None: a live view holds the card's id, a view from JSON its type), and
the fields the view does not show are not part of a seat view (defaults from JSON).

``Decision`` replaces the engine's pending frame above the engine: ``decision_of(state)`` (any
seat's) or ``SeatView.decision`` (the seat's own only).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from ..core.character import Character
from ..core.machine import pending
from ..core.state import GameState, Player
from ..data.components import CARD_TYPE_OF, OPPORTUNITY_TYPE_OF
from ..rules.queries import pp_totals, statuses
from ..rules.rule_queries import Facts, FactsSource, StateFacts, ViewFacts
from ..rules.ruleset import ruleset

__all__ = ["CHAR_VIEW_FIELDS", "Character", "Decision", "SeatPlayer", "SeatView", "as_seat_view", "decision_of",
           "player_view"]

#: the fields of a character that ``player_view`` shows under their own name (``Character`` fields);
#: it shows ``henchman``, ``counselor`` and ``aligned`` too: whether the card field is set
CHAR_VIEW_FIELDS: Final[tuple[str, ...]] = (
    "owner", "is_pc", "titles", "fixed_status", "location", "hiding", "banished", "imprisoned",
    "awaiting_execution", "wrongdoer", "dead", "office", "spouse", "consort", "banned", "engaged_to",
    "situation_turns", "escaped", "pending_justice")

_VIEW_KEYS: Final = (
    "me", "n_players", "rules", "turn", "phase", "first_player", "order", "active", "support", "problems", "wars",
    "crown", "forced_crown", "monarch", "reign", "chars", "status", "players", "deck_size", "discard",
    "loyalty_pool_size", "activities_done", "hand", "loyalty_drawn", "opportunity_drawn", "turn_state",
    "decision", "over", "result", "winner")


class Decision:
    """A pending decision: who decides (``player``), its ``kind``, its public context ``ctx`` and
    the legal action ids ``options`` (read-only: on a live game they are the engine's own)."""

    __slots__ = ("ctx", "kind", "options", "player")

    def __init__(self, player: int, kind: str, options: list[int], ctx: dict[str, Any]) -> None:
        self.player = player
        self.kind = kind
        self.options = options
        self.ctx = ctx

    def to_json(self) -> dict[str, Any]:
        """As ``player_view`` gives a seat its decision (without ``player``, which is the seat)."""
        return {"kind": self.kind, "options": list(self.options), "ctx": dict(self.ctx)}

    def __repr__(self) -> str:
        return f"Decision(player={self.player}, kind={self.kind!r}, options={self.options!r}, ctx={self.ctx!r})"


def decision_of(state: GameState) -> Decision | None:
    """The decision the game waits for (any seat's), or None (over, or a chance node)."""
    d = pending(state)
    if d is None:
        return None
    a = d.args
    return Decision(a["player"], a["kind"], a["options"], a["ctx"])


class SeatPlayer:
    """One seat as every seat sees it (``player_view``'s ``players`` entry): read-only properties
    over the seat's record (a live game's own ``Player``, or one read from JSON), the hand by its
    size only."""

    __slots__ = ("_hand_size", "_in_front", "_p")

    def __init__(self, p: Player, hand_size: int = -1, in_front: list[str] | None = None) -> None:
        # a live seat: hand_size -1 and in_front None (read from ``p``); from JSON: given
        self._p = p
        self._hand_size = hand_size
        self._in_front = in_front

    @property
    def idx(self) -> int:
        return self._p.idx

    @property
    def pc(self) -> str:
        return self._p.pc

    @property
    def ip(self) -> int:
        return self._p.ip

    @property
    def pp(self) -> int:
        return self._p.pp

    @property
    def hand_size(self) -> int:
        n = self._hand_size
        return len(self._p.hand) if n < 0 else n

    @property
    def in_front(self) -> list[str]:
        """The Support cards kept in front of the seat (§14.5.2), by type, in the order they were laid."""
        x = self._in_front
        if x is not None:
            return x
        ids = self._p.in_front
        return [CARD_TYPE_OF[c] for c in ids] if ids else []

    @property
    def prestige_mods(self) -> dict[str, int]:
        return self._p.prestige_mods

    @property
    def ball_mod(self) -> int:
        return self._p.ball_mod

    @property
    def counsels(self) -> dict[str, list[int]]:
        return self._p.counsels

    @property
    def lost_turns(self) -> int:
        return self._p.lost_turns

    def numbers(self) -> tuple[int, str, int, int, int, int, int, int, dict[str, int], dict[str, list[int]]]:
        """The seat's fields in one read (what an encoder reads of every seat; one call instead of
        ten property reads): ``(idx, pc, ip, pp, hand_size, ball_mod, lost_turns, in_front count,
        prestige_mods, counsels)``."""
        p = self._p
        n = self._hand_size
        front = self._in_front
        return (p.idx, p.pc, p.ip, p.pp, len(p.hand) if n < 0 else n, p.ball_mod, p.lost_turns,
                len(p.in_front) if front is None else len(front), p.prestige_mods, p.counsels)


_MEMO_DISCARD: Final = "seat.discard"
_MEMO_PLAYERS: Final = "seat.players"
_MEMO_DISCARD_COUNTS: Final = "seat.discard_counts"


def _type_counts(types: list[str], counts: dict[str, int]) -> dict[str, int]:
    """``counts`` with one more for each card type in ``types``."""
    for t in types:
        counts[t] = counts.get(t, 0) + 1
    return counts


def _discard_memo(st: GameState) -> tuple[list[str], list[str], dict[str, int]]:
    """The discard pile as ``st.memo`` keeps it: the card ids it was read from, their types (bottom
    first) and the count of each type; brought up to date when the pile changed (only the cards laid
    on top are added when the old pile lies below them).  Lists and dicts are replaced, never written."""
    pile = st.discard
    memo: tuple[list[str], list[str], dict[str, int]] | None = st.memo.get(_MEMO_DISCARD)
    if memo is not None:
        seen, types, counts = memo
        k = len(seen)
        if len(pile) == k and pile == seen:
            return memo
        if len(pile) > k and pile[:k] == seen:
            added = [CARD_TYPE_OF[c] for c in pile[k:]]
            memo = (list(pile), types + added, _type_counts(added, dict(counts)))
            st.memo[_MEMO_DISCARD] = memo
            return memo
    types = [CARD_TYPE_OF[c] for c in pile]
    memo = (list(pile), types, _type_counts(types, {}))
    st.memo[_MEMO_DISCARD] = memo
    return memo
_MEMO_HAND: Final = tuple(f"seat.hand.{p}" for p in range(6))  # seats 0-5


class SeatView(FactsSource):
    """Everything seat ``me`` may know (see the module).  Build it with ``SeatView.of(state, me)``
    (live, cheap: no copy) or ``SeatView.from_json(view)`` (a ``player_view`` document)."""

    __slots__ = ("_doc", "_facts", "_players", "_state", "active", "cache", "char_writes", "chars", "crown",
                 "deck_size", "decision", "discard_size", "edition", "first_player", "forced_crown", "loyalty_pool_size", "me",
                 "monarch", "n", "optional", "order", "over", "phase", "problems", "reign", "result", "support",
                 "turn", "winner", "wars")

    # every attribute below is set by ``of`` or ``from_json`` (the only ways to build a view), none
    # by ``__init__``: a live view per observation allocates nothing it would throw away
    me: int
    n: int
    edition: str
    optional: tuple[str, ...]
    turn: int
    phase: str
    first_player: int
    order: list[int]
    active: int | None
    support: int
    problems: dict[str, dict[str, Any]]
    wars: list[str]
    crown: str | None
    forced_crown: list[str]
    monarch: str
    reign: dict[str, Any]
    chars: dict[str, Character]
    deck_size: int
    discard_size: int
    loyalty_pool_size: int
    decision: Decision | None
    over: bool
    result: str | None
    winner: int | None
    #: a dict for caches an encoder derives from the view (the state's own ``memo`` on a live view,
    #: so they last from one decision to the next; a fresh one from JSON)
    cache: dict[str, Any]
    #: the ids of the characters written since the state was made, in order (``GameState.writes``
    #: on a live view, empty from JSON): what a cache of character data recomputes
    char_writes: list[str]

    def __init__(self, state: GameState | None, doc: dict[str, Any] | None) -> None:
        self._state = state
        self._doc = doc
        self._facts: Facts | None = None
        self._players: list[SeatPlayer] | None = None

    # -- construction ---------------------------------------------------------
    @staticmethod
    def of(state: GameState, me: int) -> SeatView:
        """Seat ``me``'s view of the live ``state``: the state's own objects, nothing copied."""
        n = len(state.players)
        if not 0 <= me < n:
            raise ValueError(f"player must be 0..{n - 1}, got {me}")
        v = SeatView(state, None)
        v.me = me
        v.n = n
        rs = ruleset(state)
        v.edition = rs.edition
        v.optional = rs.optional
        v.turn = state.turn
        v.phase = state.phase
        v.first_player = state.first_player
        v.order = state.order
        v.active = state.active
        v.support = state.support
        v.problems = state.problems
        v.wars = state.wars
        v.crown = state.crown
        v.forced_crown = state.forced_crown
        v.monarch = state.monarch
        v.reign = state.reign
        v.chars = state.chars
        v.deck_size = len(state.deck)
        v.discard_size = len(state.discard)
        v.loyalty_pool_size = len(state.loyalty_pool)
        d = pending(state)
        v.decision = None
        if d is not None:
            a = d.args
            if a["player"] == me:
                v.decision = Decision(me, a["kind"], a["options"], a["ctx"])
        v.over = state.over
        v.result = state.result
        v.winner = state.winner
        v.cache = state.memo
        v.char_writes = state.writes
        return v

    @staticmethod
    def from_json(doc: dict[str, Any]) -> SeatView:
        """The view in ``doc``, a ``player_view`` document (parsed JSON, the log optional)."""
        if not isinstance(doc, dict):
            raise TypeError(f"a seat view is read from a player_view document (dict), got {type(doc).__name__}")
        missing = [k for k in _VIEW_KEYS if k not in doc]
        if missing:
            raise ValueError(f"not a player_view document: no {missing}")
        rules = doc["rules"]
        v = SeatView(None, doc)
        v.me = doc["me"]
        v.n = doc["n_players"]
        v.edition = rules["edition"]
        v.optional = tuple(rules.get("optional", ()))
        v.turn = doc["turn"]
        v.phase = doc["phase"]
        v.first_player = doc["first_player"]
        v.order = doc["order"]
        v.active = doc["active"]
        v.support = doc["support"]
        v.problems = doc["problems"]
        v.wars = doc["wars"]
        v.crown = doc["crown"]
        v.forced_crown = doc["forced_crown"]
        v.monarch = doc["monarch"]
        v.reign = doc["reign"]
        chars: dict[str, Character] = {}
        for cid, c in doc["chars"].items():
            ch = Character(cid)
            ch.owner = c["owner"]
            ch.is_pc = c["is_pc"]
            ch.titles = c["titles"]
            ch.fixed_status = c["fixed_status"]
            ch.location = c["location"]
            ch.hiding = c["hiding"]
            ch.banished = c["banished"]
            ch.imprisoned = c["imprisoned"]
            ch.awaiting_execution = c["awaiting_execution"]
            ch.wrongdoer = c["wrongdoer"]
            ch.dead = c["dead"]
            ch.office = c["office"]
            ch.spouse = c["spouse"]
            ch.consort = c["consort"]
            ch.banned = c["banned"]
            ch.engaged_to = c["engaged_to"]
            ch.situation_turns = c["situation_turns"]
            ch.escaped = c["escaped"]
            ch.pending_justice = c["pending_justice"]
            # the view shows that a card lies on the character, not which copy: its type
            ch.henchman_card = "henchman" if c["henchman"] else None
            ch.counselor_card = "monarchs_counselor" if c["counselor"] else None
            ch.alignment_card = f"ra_{cid}" if c["aligned"] else None
            chars[cid] = ch
        v.chars = chars
        v.deck_size = doc["deck_size"]
        v.discard_size = len(doc["discard"])
        v.loyalty_pool_size = doc["loyalty_pool_size"]
        d = doc["decision"]
        v.decision = None if d is None else Decision(v.me, d["kind"], d["options"], d["ctx"])
        v.over = doc["over"]
        v.result = doc["result"]
        v.winner = doc["winner"]
        v.cache = {}
        v.char_writes = []
        return v

    # -- what the view shows beyond its attributes ------------------------------
    @property
    def live(self) -> bool:
        """Made from a live state (else from a document)."""
        return self._state is not None

    @property
    def players(self) -> list[SeatPlayer]:
        """Every seat as all see it, in seat order."""
        ps = self._players
        if ps is None:
            st = self._state
            if st is not None:
                # one wrapper a seat for the state's life (its memo; the seats never change once
                # dealt): the wrappers read the records live
                memo: list[SeatPlayer] | None = st.memo.get(_MEMO_PLAYERS)
                if memo is not None and len(memo) == len(st.players):
                    ps = memo
                else:
                    ps = [SeatPlayer(pl) for pl in st.players]
                    st.memo[_MEMO_PLAYERS] = ps
            else:
                doc = self._doc
                assert doc is not None
                ps = [SeatPlayer(Player(p["idx"], p["pc"], p["ip"], p["pp"], prestige_mods=p["prestige_mods"],
                                        ball_mod=p["ball_mod"], counsels=p["counsels"], lost_turns=p["lost_turns"]),
                                 p["hand_size"], p["in_front"]) for p in doc["players"]]
            self._players = ps
        return ps

    @property
    def status(self) -> dict[str, int]:
        """The Status Rating of every character (``chars`` order)."""
        st = self._state
        if st is not None:
            return pp_totals(st).st
        doc = self._doc
        assert doc is not None
        s: dict[str, int] = doc["status"]
        return s

    @property
    def hand(self) -> list[str]:
        """The seat's own cards, by type, sorted."""
        st = self._state
        if st is not None:
            # kept in the memo with the hand it was read from (a hand changes far less often than
            # it is observed): one short comparison instead of a sort
            hand = st.players[self.me].hand
            key = _MEMO_HAND[self.me]
            memo: tuple[list[str], list[str]] | None = st.memo.get(key)
            if memo is not None and memo[0] == hand:
                return memo[1]
            types = sorted([CARD_TYPE_OF[c] for c in hand])
            st.memo[key] = (list(hand), types)
            return types
        doc = self._doc
        assert doc is not None
        h: list[str] = doc["hand"]
        return h

    @property
    def loyalty_drawn(self) -> list[str]:
        """The Loyalty counters the seat has drawn this turn (character ids), sorted."""
        st = self._state
        if st is not None:
            drawn = st.players[self.me].loyalty_drawn
            return sorted(drawn) if drawn else []
        doc = self._doc
        assert doc is not None
        x: list[str] = doc["loyalty_drawn"]
        return x

    @property
    def opportunity_drawn(self) -> list[str]:
        """The Opportunity counters the seat has drawn this turn, by type, sorted."""
        st = self._state
        if st is not None:
            drawn = st.players[self.me].opportunity_drawn
            return sorted([OPPORTUNITY_TYPE_OF[o] for o in drawn]) if drawn else []
        doc = self._doc
        assert doc is not None
        x: list[str] = doc["opportunity_drawn"]
        return x

    @property
    def discard(self) -> list[str]:
        """The discard pile, by type, bottom first (on a live view kept in ``cache`` and brought up
        to date as the pile grows)."""
        st = self._state
        if st is None:
            doc = self._doc
            assert doc is not None
            x: list[str] = doc["discard"]
            return x
        return _discard_memo(st)[1]

    @property
    def discard_counts(self) -> dict[str, int]:
        """The discard pile as a count per card type (the pile is a multiset: no rule reads its
        order): what the encoders read.  The same dict object while the pile is unchanged (a new
        one when it changes; never written), so a cache built from it can be checked by identity;
        on a live view kept in ``cache`` with ``discard`` and brought up to date as the pile grows."""
        st = self._state
        if st is not None:
            return _discard_memo(st)[2]
        counts: dict[str, int] | None = self.cache.get(_MEMO_DISCARD_COUNTS)
        if counts is None:
            counts = self.cache[_MEMO_DISCARD_COUNTS] = _type_counts(self.discard, {})
        return counts

    @property
    def activities_done(self) -> list[str]:
        """The activities done in the current Player Turn (whoever's)."""
        st = self._state
        if st is not None:
            pt = st.pt
            return list(pt.get("done", [])) if pt else []
        doc = self._doc
        assert doc is not None
        x: list[str] = doc["activities_done"]
        return x

    @property
    def turn_state(self) -> dict[str, Any] | None:
        """The seat's own Player Turn bookkeeping while it is its turn, else None."""
        st = self._state
        if st is not None:
            pt = st.pt
            return pt if pt and pt.get("player") == self.me else None  # type: ignore[return-value]
        doc = self._doc
        assert doc is not None
        x: dict[str, Any] | None = doc["turn_state"]
        return x

    @property
    def log(self) -> list[str] | None:
        """The log lines the seat may read (public, and its own private ones); None from a document
        sent without its log."""
        st = self._state
        if st is not None:
            me = self.me
            return [e["t"] for e in st.log if e["to"] is None or e["to"] == me]
        doc = self._doc
        assert doc is not None
        x: list[str] | None = doc.get("log")
        return x

    def hand_size(self, p: int) -> int:
        return self.players[p].hand_size

    def henchman(self, cid: str) -> bool:
        return self.chars[cid].henchman_card is not None

    def counselor(self, cid: str) -> bool:
        return self.chars[cid].counselor_card is not None

    def aligned(self, cid: str) -> bool:
        return self.chars[cid].alignment_card is not None

    def legal_actions(self) -> list[int]:
        """The seat's legal action ids ([] when it has no decision)."""
        d = self.decision
        return [] if d is None else list(d.options)

    def rule_facts(self) -> Facts:
        """What the rule queries (``rule_queries``) read: ``facts(seat_view)``."""
        f = self._facts
        if f is None:
            st = self._state
            if st is not None:
                f = StateFacts(st, self.me)
            else:
                doc = self._doc
                assert doc is not None
                f = ViewFacts(doc)
            self._facts = f
        return f

    def to_json(self, log: bool = False) -> dict[str, Any]:
        """The ``player_view`` document of this view (``log``: with the seat's log lines).  From a
        document: that document (read it, never write)."""
        st = self._state
        if st is not None:
            return player_view(st, self.me, log)
        doc = self._doc
        assert doc is not None
        return doc

    def char_ids(self) -> Iterable[str]:
        return self.chars.keys()

    def __repr__(self) -> str:
        src = "live" if self._state is not None else "json"
        return f"SeatView({src}, me={self.me}, n={self.n}, turn={self.turn}, phase={self.phase!r})"


def as_seat_view(view: SeatView | dict[str, Any]) -> SeatView:
    """``view`` itself when it is a ``SeatView``, else the ``SeatView`` of a ``player_view`` document."""
    if isinstance(view, SeatView):
        return view
    return SeatView.from_json(view)

def player_view(state: GameState, p: int, log: bool = True) -> dict[str, Any]:
    """What player p may know (§14.4 hidden hands, §11/§12 drawn counters; ruling R10).

    ``"rules"`` is the public rules in play (``{"edition", "optional"}``), so that the rule
    queries of ``rule_queries`` answer on a view as on the state.

    Never another player's hand or drawn counters, nor the decision of another
    player (which would tell who was offered a card window)."""
    if not 0 <= p < state.n:
        raise ValueError(f"player must be 0..{state.n - 1}, got {p}")
    chars = {}
    for cid, c in state.chars.items():
        chars[cid] = {
            "owner": c.owner, "is_pc": c.is_pc, "titles": c.titles, "fixed_status": c.fixed_status,
            "location": c.location, "hiding": c.hiding, "banished": c.banished, "imprisoned": c.imprisoned,
            "awaiting_execution": c.awaiting_execution, "wrongdoer": c.wrongdoer, "dead": c.dead,
            "office": c.office, "henchman": c.henchman_card is not None, "counselor": c.counselor_card is not None,
            "aligned": c.alignment_card is not None, "spouse": c.spouse, "consort": c.consort,
            "banned": c.banned, "engaged_to": c.engaged_to, "situation_turns": c.situation_turns,
            "escaped": c.escaped, "pending_justice": c.pending_justice,
        }
    players = []
    for pl in state.players:
        players.append({
            "idx": pl.idx, "pc": pl.pc, "ip": pl.ip, "pp": pl.pp, "hand_size": len(pl.hand),
            "in_front": [CARD_TYPE_OF[c] for c in pl.in_front], "prestige_mods": dict(pl.prestige_mods),
            "ball_mod": pl.ball_mod, "counsels": {k: list(v) for k, v in pl.counsels.items()},
            "lost_turns": pl.lost_turns,
        })
    me = state.players[p]
    d = pending(state)
    dec = None
    if d is not None and d.args["player"] == p:
        dec = {"kind": d.args["kind"], "options": list(d.args["options"]), "ctx": dict(d.args["ctx"])}
    return {
        "me": p,
        "n_players": state.n,
        "rules": {"edition": ruleset(state).edition, "optional": list(ruleset(state).optional)},
        "turn": state.turn,
        "phase": state.phase,
        "first_player": state.first_player,
        "order": list(state.order),
        "active": state.active,
        "support": state.support,
        "problems": {k: dict(v) for k, v in state.problems.items()},
        "wars": list(state.wars),
        "crown": state.crown,
        "forced_crown": list(state.forced_crown),
        "monarch": state.monarch,
        "reign": dict(state.reign),
        "chars": chars,
        "status": statuses(state),
        "players": players,
        "deck_size": len(state.deck),
        "discard": [CARD_TYPE_OF[c] for c in state.discard],
        "loyalty_pool_size": len(state.loyalty_pool),
        "activities_done": list(state.pt.get("done", [])) if state.pt else [],
        "hand": sorted(CARD_TYPE_OF[c] for c in me.hand),
        "loyalty_drawn": sorted(me.loyalty_drawn),
        "opportunity_drawn": sorted(OPPORTUNITY_TYPE_OF[o] for o in me.opportunity_drawn),
        "turn_state": dict(state.pt) if state.pt and state.pt.get("player") == p else None,
        "decision": dec,
        "over": state.over,
        "result": state.result,
        "winner": state.winner,
        "log": [e["t"] for e in state.log if e["to"] is None or e["to"] == p] if log else None,
    }
