"""Building positions: for rule tests, puzzles and front ends.

    >>> from fandonia_env.engine.face.builder import Position
    >>> pos = Position(players=3, seed=1)          # set up, turn 1, first player 0
    >>> pos.give(0, "assassination", "intrigue")   # cards move from the Event pile to a hand
    >>> pos.char("42", owner=0)                    # Duke Roland joins player 0 as a FAC
    >>> pos.dice(6, 5)                             # the next dice rolled show 6 then 5
    >>> pos.next_draws("event", "intrigue")        # the next Event card drawn is an Intrigue card
    >>> g = pos.run("accuse", cid="42")            # run one procedure, stop when it is done
    >>> g.decision()["kind"]                       # decisions on the way are taken by the caller
    'halt'

``run(op, **args)`` pushes the operation followed by a ``halt`` marker, so that
the game stops at a decision of kind ``"halt"`` (options ``pass``/``yes``) once
the procedure has finished; ``play(op, **args)`` pushes it above the normal
continuation of the turn instead.  Every other change is made directly on
``pos.state`` (plain data).  The same position can also be written as JSON and
loaded with ``Game.from_json``.  ``Position(..., chance="explicit")`` stops at chance nodes
(``docs/engine.md``, "Chance nodes").
"""

from __future__ import annotations

from typing import Any, cast

from ..chapters.turn import setup
from ..core import chance
from ..core.machine import run as _run
from ..core.machine import seq
from ..core.records import PlayerTurn
from ..data.components import CARD_TYPE_OF, OPPORTUNITY_TYPE_OF
from .game import Game, make_config


class Position:
    """A game set up by §3, paused before turn 1, with turn bookkeeping ready."""

    def __init__(self, players: int = 3, seed: int = 0, first: int = 0, **config: Any) -> None:
        self.state = setup(make_config(players=players, seed=seed, **config))
        st = self.state
        st.stack.clear()  # drop the pending new_turn
        st.turn = 1
        st.first_player = first
        st.order = [(first + i) % st.n for i in range(st.n)]
        st.phase = "player_turns"
        st.tstate = {}

    # -- pieces ---------------------------------------------------------------
    def give(self, p: int, *ctypes: str) -> Position:
        """Move one card of each type to player p's hand (from the pile, else the discards)."""
        for t in ctypes:
            for src in (self.state.deck, self.state.discard):
                found = next((c for c in src if CARD_TYPE_OF[c] == t), None)
                if found:
                    src.remove(found)
                    self.state.players[p].hand.append(found)
                    break
            else:
                raise ValueError(f"no '{t}' card left in the pile or discards")
        return self

    def empty_hand(self, p: int) -> Position:
        """Return p's hand (except his DOWN WITH THE KING card) to the pile."""
        pl = self.state.players[p]
        keep = [c for c in pl.hand if CARD_TYPE_OF[c] == "dwtk"]
        self.state.deck.extend(c for c in pl.hand if CARD_TYPE_OF[c] != "dwtk")
        pl.hand = keep
        return self

    def opportunity(self, p: int, kind: str) -> Position:
        """Give player p a drawn Opportunity counter of this kind (no effect applied)."""
        oc = next(o for o in self.state.opportunity_pool if OPPORTUNITY_TYPE_OF[o] == kind)
        self.state.opportunity_pool.remove(oc)
        self.state.players[p].opportunity_drawn.append(oc)
        return self

    def loyalty(self, p: int, cid: str) -> Position:
        self.state.loyalty_pool.remove(cid)
        self.state.players[p].loyalty_drawn.append(cid)
        return self

    def char(self, cid: str, **fields: Any) -> Position:
        """Set fields of a character (``owner=0`` makes it a FAC and puts its Loyalty counter on it)."""
        c = self.state.wchar(cid)
        for k, v in fields.items():
            if not hasattr(c, k):
                raise AttributeError(f"Character has no field {k!r}")
            setattr(c, k, v)
        if "owner" in fields and cid in self.state.loyalty_pool and fields["owner"] is not None:
            self.state.loyalty_pool.remove(cid)
            c.loyalty_counter = True
        return self

    def pcs(self, *cids: str) -> Position:
        """Give player i the PC ``cids[i]`` (their old PCs become neutral, Loyalty counters back in
        the pool; the new PCs are his, with their counters on them)."""
        st = self.state
        for pl in st.players[: len(cids)]:
            c = st.wchar(pl.pc)
            c.is_pc, c.owner, c.loyalty_counter = False, None, False
            st.loyalty_pool.append(pl.pc)
        for p, cid in enumerate(cids):
            st.players[p].pc = cid
            c = st.wchar(cid)
            c.is_pc, c.owner, c.loyalty_counter = True, p, True
            st.loyalty_pool.remove(cid)
        return self

    def henchman(self, cid: str, p: int) -> Position:
        """Make ``cid`` player p's FAC and his henchman, with a Henchman card from the pile."""
        st = self.state
        self.char(cid, owner=p)
        card = next(c for c in st.deck if CARD_TYPE_OF[c] == "henchman")
        st.deck.remove(card)
        st.wchar(cid).henchman_card = card
        return self

    def player(self, p: int, **fields: Any) -> Position:
        pl = self.state.players[p]
        for k, v in fields.items():
            if not hasattr(pl, k):
                raise AttributeError(f"Player has no field {k!r}")
            setattr(pl, k, v)
        return self

    def office(self, office: str, cid: str | None) -> Position:
        """Put ``cid`` in ``office`` (discharging whoever held it), or leave it vacant."""
        for c in self.state.chars.values():
            if c.office == office:
                self.state.wchar(c.cid).office = None
        if cid is not None:
            self.state.wchar(cid).office = office
        return self

    # -- chance (chance.py: each scripted outcome is taken before the generator is asked) ----------
    def dice(self, *faces: int) -> Position:
        """The next dice rolled show these faces (1-6), in order."""
        chance.script(self.state, "dice", faces)
        return self

    def next_draws(self, pile: str, *items: str) -> Position:
        """The next draws from ``pile`` give these items, in order: ``"loyalty"`` (character ids),
        ``"opportunity"`` (counter ids or kinds: ``"duel"``), ``"event"`` (card ids or card types:
        ``"assassination"``, the topmost card of that type in the pile)."""
        if pile not in chance.PILES:
            raise ValueError(f"unknown pile {pile!r}; the piles are {list(chance.PILES)}")
        chance.script(self.state, pile, items)
        return self

    def next_pick(self, *items: str) -> Position:
        """The next random picks (a card intrigued or drawn by a blackmailer from a hand) take these
        items, in order: card ids or card types (the first card of that type in the hand)."""
        chance.script(self.state, "pick", items)
        return self

    def turn_state(self, p: int, **pt: Any) -> Position:
        """Open player p's Player Turn bookkeeping (``state.pt``) as after his draws."""
        self.state.active = p
        self.state.phase = "player_turn"
        base: dict[str, Any] = {"player": p, "done": [], "extra": 0, "no_more": False, "restricted": False,
                "imprisoned": False, "any_activity": 0, "intrigue": 0, "scandal": 0, "favor": False,
                "waiver": False, "bought_mod": False, "proposals": [], "counselled": False,
                "free": [], "free_used": 0}
        base.update(pt)
        self.state.pt = cast(PlayerTurn, base)
        return self

    # -- running ----------------------------------------------------------------
    def run(self, op_name: str, args: dict[str, Any] | None = None, **kw: Any) -> Game:
        """Run one procedure and stop at a 'halt' decision once it has finished.

        Arguments come as a dict (``pos.run(*modified_roll(spec))``) or as keywords."""
        st = self.state
        seq(st, (op_name, {**(args or {}), **kw}), ("builder_halt", {}), ("end_of_turn", {}))
        _run(st)
        return Game.from_state(st, advance=False)

    def play(self, op_name: str, **args: Any) -> Game:
        """Run a procedure and let the game carry on normally afterwards."""
        st = self.state
        seq(st, (op_name, args), ("end_of_turn", {}))
        _run(st)
        return Game.from_state(st, advance=False)
