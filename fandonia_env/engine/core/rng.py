"""The game's random number generator: plain data, seedable, scriptable.

Chance is resolved inside the engine (dice, shuffles, random draws) by this
generator, never by the global ``random`` or ``numpy.random`` modules, and only
through ``chance.py``, which names each draw and describes its outcomes (in a
``chance="explicit"`` game a draw inside the machine takes the outcome chosen at a
chance node instead: ``docs/engine.md``, "Chance nodes").  Its whole
state is two integers, so cloning and JSON round-trips are exact and cheap.

The generator is PCG32 (O'Neill, 2014; the ``pcg32_random_r`` reference).

**The dice seam for tests.**  ``rng.script_dice([3, 5, 6])`` queues die faces;
every die the engine rolls (``d6``) takes the next queued face before it falls
back to the generator, so a test can reach any row of any table from any
position.  The queue is part of the state and survives clone/JSON.  Draws from
the piles and random picks are scripted by ``chance.script`` (their queues are
kept in ``state.misc``).
"""

from __future__ import annotations

from typing import Final

_MASK64: Final = (1 << 64) - 1
_MULT: Final = 6364136223846793005
# The 64-bit state is kept as two 32-bit halves and multiplied in 16-bit pieces, so that every
# intermediate value stays below 2**62: the compiled engine then does the arithmetic on machine
# words (its ``int`` is a tagged word up to 2**62) instead of allocating 128-bit integers.
_M0: Final = _MULT & 0xFFFF
_M1: Final = (_MULT >> 16) & 0xFFFF
_MH0: Final = (_MULT >> 32) & 0xFFFF
_MH1: Final = (_MULT >> 48) & 0xFFFF


#: ``raw`` of a generator about to be overwritten (``copy``)
_ZERO: Final[tuple[int, int, list[int]]] = (0, 1, [])


class RNG:
    __slots__ = ("hi", "lo", "ihi", "ilo", "scripted")
    hi: int  # the state's high 32 bits
    lo: int  # and low 32 bits
    ihi: int  # the increment's (odd) high and low 32 bits
    ilo: int
    scripted: list[int]

    def __init__(self, seed: int = 0, stream: int = 54, raw: tuple[int, int, list[int]] | None = None) -> None:
        """Seeded by ``seed`` and ``stream``; or, with ``raw`` = (state, inc, scripted), exactly that
        generator (copies and saved games: the seed is then ignored)."""
        if raw is not None:
            self.state, self.inc, self.scripted = raw
            return
        self.state = 0
        self.inc = ((stream << 1) | 1) & _MASK64
        self.scripted = []
        self._next32()
        self.state = (self.state + (seed & _MASK64)) & _MASK64
        self._next32()

    @property
    def state(self) -> int:
        """The 64-bit generator state."""
        return (self.hi << 32) | self.lo

    @state.setter
    def state(self, value: int) -> None:
        self.hi = (value >> 32) & 0xFFFFFFFF
        self.lo = value & 0xFFFFFFFF

    @property
    def inc(self) -> int:
        """The 64-bit increment (odd): the stream."""
        return (self.ihi << 32) | self.ilo

    @inc.setter
    def inc(self, value: int) -> None:
        self.ihi = (value >> 32) & 0xFFFFFFFF
        self.ilo = value & 0xFFFFFFFF

    def _next32(self) -> int:
        hi = self.hi
        lo = self.lo
        # the output, from the old state: xorshift ((old >> 18) ^ old) >> 27, rotated by old >> 59
        xs = (((hi << 5) | (lo >> 27)) ^ (hi >> 13)) & 0xFFFFFFFF
        rot = hi >> 27
        out = (xs >> rot) | ((xs & ((1 << rot) - 1)) << (32 - rot))
        # the new state: old * _MULT + inc (mod 2**64)
        l0 = lo & 0xFFFF
        l1 = lo >> 16
        mid = l1 * _M0 + l0 * _M1
        t = l0 * _M0 + ((mid & 0xFFFF) << 16) + self.ilo
        self.lo = t & 0xFFFFFFFF
        h0 = hi & 0xFFFF
        self.hi = (l1 * _M1 + (mid >> 16) + (t >> 32)
                   + h0 * _M0 + (((hi >> 16) * _M0 + h0 * _M1) << 16)
                   + l0 * _MH0 + ((l1 * _MH0 + l0 * _MH1) << 16) + self.ihi) & 0xFFFFFFFF
        return out

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) (unbiased, by rejection)."""
        if n <= 0:
            raise ValueError(f"below() needs n > 0, got {n}")
        threshold = (1 << 32) % n
        while True:
            r = self._next32()
            if r >= threshold:
                return r % n

    def d6(self) -> int:
        """One die, 1-6: the next scripted face if any (the test seam), else random."""
        if self.scripted:
            face = self.scripted.pop(0)
            return face
        return self.below(6) + 1

    def script_dice(self, faces: list[int]) -> None:
        """Queue die faces (1-6) that the next dice rolled will show, in order."""
        for f in faces:
            if not isinstance(f, int) or not 1 <= f <= 6:
                raise ValueError(f"a scripted die face must be an int 1-6, got {f!r}")
        self.scripted.extend(faces)

    def shuffle(self, items: list) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def copy(self) -> RNG:
        r = RNG(0, 0, _ZERO)
        r.hi, r.lo, r.ihi, r.ilo, r.scripted = self.hi, self.lo, self.ihi, self.ilo, list(self.scripted)
        return r

    def to_json(self) -> dict:
        return {"state": str(self.state), "inc": str(self.inc), "scripted": list(self.scripted)}

    @classmethod
    def from_json(cls, d: dict) -> RNG:
        return cls(0, 0, (int(d["state"]), int(d["inc"]), [int(x) for x in d["scripted"]]))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, RNG)
            and self.state == other.state
            and self.inc == other.inc
            and self.scripted == other.scripted
        )
