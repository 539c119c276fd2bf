"""Variants as chosen procedures (issue 29): where an edition or an optional rule changes a
procedure, the ``Ruleset`` picks the procedure once (a hook or an operation named after its D-item
or §38 rule), instead of ``if ruleset(state).<switch>:`` inside the shared one.  Value differences
(numbers, tables) stay values.

``edition_branches`` reads the chapters' AST and counts the branches (``if``/``elif``, conditional
expressions, ``while`` and comprehension filters) whose test reads an attribute of the Ruleset
(``ruleset(state).x`` or a name bound to ``ruleset(state)``: a switch, or a table or value tested
for truth or compared); the count is printed and may not exceed ``MAX_BRANCHES``."""

from __future__ import annotations

import ast
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
ENGINE = ROOT / "fandonia_env" / "engine"
#: chapter code: the chapters, and the vocabulary modules that hold steps moved down out of them
#: (issue 29) or that interpret the tables' effects; the Ruleset module itself is where variants are chosen
CHAPTER_CODE = sorted((ENGINE / "chapters").glob("*.py")) + [ENGINE / "rules" / f"{m}.py" for m in (
    "situation", "court", "turn_steps", "marriage", "effects", "queries", "rolls", "rule_queries")]
RULESET = ROOT / "fandonia_env" / "engine" / "rules" / "ruleset.py"
#: issue 29's ceiling: at most this many edition/option branches left in chapter code
MAX_BRANCHES = 21


def ruleset_attributes() -> set[str]:
    """The Ruleset's declared attributes."""
    return set(re.findall(r"^    (\w+): ", RULESET.read_text(), flags=re.M))


def _is_ruleset_call(n: ast.AST) -> bool:
    return isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "ruleset"


def edition_branches(source: str, switches: set[str]) -> list[int]:
    """Line numbers of the branches of ``source`` that test a boolean Ruleset switch."""
    tree = ast.parse(source)
    seen: set[tuple[int, int]] = set()
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        names = {t.id for n in ast.walk(fn) if isinstance(n, ast.Assign) and _is_ruleset_call(n.value)
                 for t in n.targets if isinstance(t, ast.Name)}
        for n in ast.walk(fn):
            tests = ([n.test] if isinstance(n, ast.If | ast.IfExp | ast.While)
                     else list(n.ifs) if isinstance(n, ast.comprehension) else [])
            for test in tests:
                if any(isinstance(x, ast.Attribute) and x.attr in switches
                       and (_is_ruleset_call(x.value) or (isinstance(x.value, ast.Name) and x.value.id in names))
                       for x in ast.walk(test)):
                    seen.add((test.lineno, test.col_offset))
    return sorted(line for line, _ in seen)


def count() -> dict[str, int]:
    sw = ruleset_attributes()
    return {f.stem: len(edition_branches(f.read_text(), sw)) for f in CHAPTER_CODE}


def test_the_counter_sees_branches_on_a_switch_and_not_on_values():
    src = ("def f(state):\n    rs = ruleset(state)\n    if rs.on:\n        pass\n    x = 1 if ruleset(state).on else 2\n"
           "    if rs.limit > 3:\n        pass\n    return [y for y in z if rs.on]\n")
    assert edition_branches(src, {"on"}) == [3, 5, 8]
    assert {"hand_limit", "es_extradition", "edition"} <= ruleset_attributes()


def test_edition_and_option_branches_in_chapter_code_stay_few():
    per = count()
    total = sum(per.values())
    print(f"\nedition/option branches in chapter code: {total} (max {MAX_BRANCHES}): "
          + ", ".join(f"{k} {v}" for k, v in sorted(per.items(), key=lambda kv: -kv[1]) if v))
    assert total <= MAX_BRANCHES
