"""docs/rules-coverage.md: every section §1-§37 has a row, and every test it cites exists."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "rules-coverage.md").read_text()


def _rows():
    for line in DOC.splitlines():
        if line.startswith("| ") and not line.startswith("| §") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if re.match(r"^\d+(\.\d+)*(-\d+(\.\d+)*)?$", cells[0]):
                yield cells


def test_every_section_1_to_37_has_a_status():
    sections = set()
    for cells in _rows():
        sections.add(int(cells[0].split(".")[0].split("-")[0]))
        assert cells[2] in ("done", "partial", "not yet"), cells
    assert sections >= set(range(1, 38))


def test_every_cited_test_exists():
    sources = {p.stem: p.read_text() for p in (ROOT / "tests").glob("test_*.py")}
    for cells in _rows():
        for file_, prefix in re.findall(r"`(test_\w+)::(test_\w+?)\*?`", cells[4]):
            assert file_ in sources, f"{cells[0]}: no tests/{file_}.py"
            assert re.search(rf"def {re.escape(prefix)}", sources[file_]), \
                f"{cells[0]}: no test starting with {prefix} in {file_}.py"
