"""One screenshot of the play page per decision kind the engine can ask, as the deciding seat sees it.

    .venv/bin/python scripts/screenshots.py                       # every kind, into docs/screenshots
    .venv/bin/python scripts/screenshots.py --kinds usurp_support,bribe_amount --out /tmp/shots
    .venv/bin/python scripts/screenshots.py --missing             # only the kinds without a PNG in --out

Every kind is reached the way tests/test_wording.py reaches it (its test asserts that all are met): the
first time a kind is met in the same random games (both editions, every optional rule, 2-6 players), else
in one of that test's builder positions (``POSITIONS``, walked the same way). The game at that point is
saved (``Game.to_json``), checked to load back with the same pending decision, and given to the real server
(``python -m fandonia_env.serve`` on a loopback port, a throw-away database) as the ``start`` of a new game
whose deciding seat is human and whose other seats are nobles. The play page of that seat is opened in
headless Chromium (Debian's ``chromium``, driven by Playwright) at 1400x1000; once the decision is shown
and armed, the top of the page (the race, the question and its options, what just happened) is saved as
``decision-<kind>.png`` in 256 colours (as tests/test_play_page.py keeps docs/screenshots).

Nothing is skipped silently: every kind without a screenshot is printed with the reason, and the exit
status is 1 if any kind asked for has none. A prompt or option that shows an engine word (snake_case, a
relative seat ``rel:``, a bare ``§``) is printed as a warning.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # tests/test_wording.py and the helpers it imports

import test_wording as tw  # noqa: E402

from fandonia_env.engine import Game  # noqa: E402
from fandonia_env.engine.core.actions import NO, YES  # noqa: E402
from fandonia_env.spaces.observation import DECISION_KINDS  # noqa: E402

WIDE = {"width": 1400, "height": 1000}
#: words a player should never read in a prompt or an option (as tests/test_play_page.py checks them)
RAW = re.compile(r"\b[a-z]+_[a-z0-9_]+\b|\brel:|§")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
NOBLE = "noble-rule-v1"


def all_kinds() -> list[str]:
    """Every decision kind the engine can ask: those its source asks and the observation's list."""
    return sorted(tw.engine_kinds() | set(DECISION_KINDS) - {"other"})


@dataclass
class Found:
    """A saved game whose pending decision is of ``kind``, for ``seat``; ``where`` it was met."""

    kind: str
    doc: dict[str, Any]
    seat: int
    where: str


def _loads_back(g: Game) -> tuple[dict[str, Any] | None, str]:
    """The saved game, if it loads back (``Game.from_json``, checked for trust as the server checks it) with
    the same pending decision; else None and why."""
    doc = g.to_json()
    try:
        back = Game.from_json(json.loads(json.dumps(doc)))
    except Exception as e:  # noqa: BLE001 - the reason is reported
        return None, f"the saved game does not load back: {e}"
    if back.decision() != g.decision():
        return None, f"the saved game loads back at another decision: {back.decision() and back.decision()['kind']}"
    return doc, ""


def random_positions(wanted: set[str], found: dict[str, Found], why: dict[str, list[str]]) -> None:
    """The random games of tests/test_wording.py (same configs, seeds and choices): the first position of
    each wanted kind that saves and loads back."""
    for edition in ("1981", "errata"):
        for n in range(2, 7):
            for s in range(3):
                if wanted <= set(found):
                    return
                g = Game(players=n, seed=700 + 10 * n + s, preset=f"{edition}-all-optional", max_turns=30)
                rng = random.Random(s)
                steps = 0
                while not g.over and steps < 2500:
                    d = g.decision()
                    k = d["kind"]
                    if k in wanted and k not in found:
                        doc, reason = _loads_back(g)
                        where = f"random game: {edition}-all-optional, {n} players, seed {700 + 10 * n + s}, " \
                                f"step {steps}"
                        if doc is not None:
                            found[k] = Found(k, doc, d["player"], where)
                        else:
                            why.setdefault(k, []).append(f"{where}: {reason}")
                    g.apply(rng.choice(g.legal_actions()))
                    steps += 1


def builder_positions(wanted: set[str], found: dict[str, Found], why: dict[str, list[str]]) -> None:
    """The builder positions of tests/test_wording.py, walked as its ``walk`` does (each step answers yes, or
    takes the last option; no Intrigue at the extradition); every one loads back from its save (the test
    checks it)."""
    for name, (build, kinds) in tw.POSITIONS.items():
        if not (set(kinds) & wanted) - set(found):
            continue
        for variant, make in (("", build),):
            g = make()
            for k in kinds:
                d = g.decision()
                if d is None or d["kind"] != k:
                    why.setdefault(k, []).append(f"builder position {name}{variant}: reached "
                                                 f"{d and d['kind']} instead")
                    break
                if k in wanted and k not in found:
                    doc, reason = _loads_back(g)
                    if doc is not None:
                        found[k] = Found(k, doc, d["player"], f"builder position {name} (tests/test_wording.py)")
                    else:
                        why.setdefault(k, []).append(f"builder position {name}{variant}: {reason}")
                if k != kinds[-1]:
                    g.apply(NO if k == "extradite_intrigue" else YES if YES in d["options"] else d["options"][-1])


def positions(kinds: list[str]) -> tuple[dict[str, Found], dict[str, list[str]]]:
    """A saved game for each kind (random games first, then builder positions), and why the others have none."""
    wanted = set(kinds)
    found: dict[str, Found] = {}
    why: dict[str, list[str]] = {}
    random_positions(wanted, found, why)
    builder_positions(wanted, found, why)
    for k in wanted - set(found):
        if k not in why:
            why[k] = ["never met in tests/test_wording.py's random games or builder positions"]
    return found, {k: v for k, v in why.items() if k not in found}


def shrink_png(path: str) -> None:
    """The screenshot in 256 colours (as tests/test_play_page.py's shrink_pngs), where Pillow is installed."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as im:
        q = im.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    q.save(path, optimize=True)


@dataclass
class Shot:
    """What the page showed for one kind."""

    kind: str
    where: str
    seat: int
    png: str | None = None
    prompt: str = ""
    options: list[str] = field(default_factory=list)
    text: str = ""  # the whole decision section
    who: str = ""  # the page's "Game G · you are Player N (...)"
    raw: list[str] = field(default_factory=list)  # engine words seen in it
    errors: list[str] = field(default_factory=list)  # the page's script errors
    failed: str | None = None


class Renderer:
    """The server process and headless Chromium, for as many screenshots as asked."""

    def __init__(self) -> None:
        if CHROMIUM is None:
            raise RuntimeError("Debian's chromium is not installed (apt-get install chromium)")
        from playwright.sync_api import sync_playwright

        from fandonia_env.serve.client import Client, ServerProcess

        self.tmp = tempfile.mkdtemp(prefix="fandonia-shots-")
        self.server = ServerProcess(os.path.join(self.tmp, "games.sqlite3"), "--workers", "1").start()
        self.client = Client(self.server.url)
        self.pw = sync_playwright().start()
        self.browser = self.pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)

    def close(self) -> None:
        for f in (self.browser.close, self.pw.stop, self.client.close, self.server.stop):
            try:
                f()
            except Exception:  # noqa: BLE001 - best effort at the end
                pass
        shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self) -> Renderer:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def shoot(self, f: Found, out: str, timeout_ms: int = 30_000) -> Shot:
        """A game started from the saved position, the deciding seat's page, its screenshot."""
        shot = Shot(f.kind, f.where, f.seat)
        n = len(f.doc["players"])
        seats = ["human" if i == f.seat else NOBLE for i in range(n)]
        try:
            g = self.client.create(seats, start=f.doc)
        except Exception as e:  # noqa: BLE001
            body = getattr(getattr(e, "response", None), "text", "")
            shot.failed = f"the server refused the saved game: {e} {body[:300]}"
            return shot
        token = g["seats"][f.seat]["token"]
        page = self.browser.new_page(viewport=WIDE)
        page.on("pageerror", lambda e: shot.errors.append(str(e)))
        page.on("console", lambda m: shot.errors.append("console: " + m.text)
                if m.type == "error" and "Failed to load resource" not in m.text else None)
        try:
            page.goto(f"{self.server.url}/ui/play.html#game={g['game_id']}&seat={f.seat}&token={token}")
            try:
                page.wait_for_selector(f"#decision[data-kind='{f.kind}'][data-ready]", timeout=timeout_ms)
            except Exception:  # noqa: BLE001
                shown = page.evaluate("() => { const s = document.querySelector('#decision'); return s ? "
                                      "[s.dataset.kind, s.dataset.step, s.dataset.ready, "
                                      "s.innerText.slice(0, 200)] : null; }")
                shot.failed = f"the page did not show the decision (shown: {shown}; page errors: {shot.errors})"
                return shot
            page.evaluate("window.scrollTo(0, 0)")
            page.evaluate("document.activeElement && document.activeElement.blur()")
            shot.prompt = page.inner_text("#decision #prompt")
            shot.options = page.locator("#decision .options button").all_inner_texts()
            shot.text = page.inner_text("#decision")
            shot.who = page.inner_text("#whoami")
            shot.raw = sorted({m.group(0) for t in [shot.prompt, shot.text, *shot.options]
                               for m in RAW.finditer(t)})
            bottom = page.evaluate("Math.max(...['#decision', '#recent-sec'].map(s => document.querySelector(s))"
                                   ".filter(e => e).map(e => e.getBoundingClientRect().bottom)) "
                                   "+ window.scrollY + 8")
            path = os.path.join(out, f"decision-{f.kind}.png")
            page.screenshot(path=path, full_page=True,
                            clip={"x": 0, "y": 0, "width": WIDE["width"], "height": min(bottom, 1400)})
            shrink_png(path)
            shot.png = path
        except Exception as e:  # noqa: BLE001
            shot.failed = f"{type(e).__name__}: {e}"
        finally:
            page.close()
        return shot


def render(kinds: list[str], out: str, log: Callable[[str], None] = print) -> tuple[dict[str, Shot], dict[str, str]]:
    """Screenshots of these kinds in ``out``: what each page showed, and why the others have none."""
    os.makedirs(out, exist_ok=True)
    found, why = positions(kinds)
    missing = {k: "; ".join(v) for k, v in why.items()}
    shots: dict[str, Shot] = {}
    if not found:
        return shots, missing
    with Renderer() as r:
        for k in sorted(found):
            t0 = time.monotonic()
            s = r.shoot(found[k], out)
            shots[k] = s
            if s.failed:
                missing[k] = f"{found[k].where}: {s.failed}"
                log(f"FAILED {k}: {missing[k]}")
            else:
                log(f"{k}: {os.path.basename(s.png)} ({os.path.getsize(s.png) // 1024} KiB, seat {s.seat}, "
                    f"{len(s.options)} options, {time.monotonic() - t0:.1f} s) - {s.where}")
            for w in s.raw:
                log(f"  WARNING {k}: an engine word on the page: {w!r}")
            for e in s.errors:
                log(f"  WARNING {k}: page error: {e}")
    return shots, missing


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kinds", help="comma-separated decision kinds (default: every kind the engine can ask)")
    ap.add_argument("--out", default=str(ROOT / "docs" / "screenshots"), help="where decision-<kind>.png go")
    ap.add_argument("--missing", action="store_true", help="only the kinds without decision-<kind>.png in --out")
    a = ap.parse_args(argv)
    every = all_kinds()
    kinds = every if not a.kinds else [k.strip() for k in a.kinds.split(",") if k.strip()]
    unknown = sorted(set(kinds) - set(every))
    if unknown:
        ap.error(f"not decision kinds of the engine: {unknown}; known: {', '.join(every)}")
    if a.missing:
        kinds = [k for k in kinds if not os.path.exists(os.path.join(a.out, f"decision-{k}.png"))]
    t0 = time.monotonic()
    shots, missing = render(kinds, a.out)
    done = [k for k, s in shots.items() if s.png and not s.failed]
    print(f"{len(done)} of {len(kinds)} kinds rendered into {a.out} in {time.monotonic() - t0:.0f} s")
    for k in sorted(missing):
        print(f"NOT RENDERED {k}: {missing[k]}")
    have = [k for k in every if os.path.exists(os.path.join(a.out, f"decision-{k}.png"))]
    print(f"{a.out} now has a screenshot of {len(have)} of the {len(every)} decision kinds")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
