"""docs/rulings.md: every ruling (R<n>) and reading (A<n>) cited anywhere in the repository is
defined inside it, and every errata difference (D<n>) in docs/rules-coverage.md (or in a
"Differences" table of docs/rulings.md), so that no reference points outside the repository."""

from __future__ import annotations

import pathlib
import re
import subprocess
from collections.abc import Iterable

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
RULINGS = ROOT / "docs" / "rulings.md"
COVERAGE = ROOT / "docs" / "rules-coverage.md"

#: Directories never scanned when git is not available (virtual environments, build outputs).
SKIP_DIRS = {".git", ".venv", "venv", "runs", "build", "dist", "__pycache__", ".pytest_cache",
             ".ruff_cache", "node_modules"}

# A reference is an upper-case R, A or D followed by a number, standing alone: not inside a word,
# an identifier, a hex string or a path ("0xA4", "var_A4", "fileA4", "x/A4"), not a dotted name
# ("D3.js") and not a paper size ("A4 paper").  "A13-A16" is a range and cites A13..A16.
_START = r"(?<![A-Za-z0-9_./\\])"
_END = r"(?![0-9A-Za-z_])(?!\.\w)(?!\s+(?:paper|sheet|size|format)\b)"
REF = re.compile(_START + r"([RAD])([1-9][0-9]{0,2})" + _END)
RANGE = re.compile(_START + r"([RAD])([1-9][0-9]{0,2})\s*[-\u2013]\s*\1([1-9][0-9]{0,2})" + _END)

#: A definition: a heading "### R3. ..." / "#### A13. ..." or a table row "| D49 | ...".
HEADING_DEF = re.compile(r"^#{2,6}\s+([RAD])([1-9][0-9]*)\.", re.M)
ROW_DEF = re.compile(r"^\|\s*([RAD])([1-9][0-9]*)\s*\|", re.M)


#: "R3/A20", "A17/A59": a slash between two ids separates two references (not a path).
PAIR_SLASH = re.compile(r"(?<![A-Za-z0-9_./\\])([RAD][1-9][0-9]{0,2})/(?=[RAD][1-9])")


def find_references(text: str) -> set[str]:
    """Every R/A/D id cited in ``text``, ranges expanded ("A13-A16" -> A13, A14, A15, A16)."""
    text = PAIR_SLASH.sub(r"\1 ", PAIR_SLASH.sub(r"\1 ", text))  # twice: "A1/A2/A3"
    refs = {k + n for k, n in REF.findall(text)}
    for kind, lo, hi in RANGE.findall(text):
        a, b = int(lo), int(hi)
        if a < b:
            refs.update(f"{kind}{i}" for i in range(a, b + 1))
    return refs


def definitions(text: str) -> list[str]:
    """The ids a document defines, in order, with repetitions (headings and table rows)."""
    found = [(m.start(), m.group(1) + m.group(2)) for m in HEADING_DEF.finditer(text)]
    found += [(m.start(), m.group(1) + m.group(2)) for m in ROW_DEF.finditer(text)]
    return [ident for _, ident in sorted(found)]


def defined_ids() -> set[str]:
    """What a reference may resolve to: R/A/D defined in docs/rulings.md, D rows of rules-coverage."""
    ids = set(definitions(RULINGS.read_text(encoding="utf-8")))
    ids |= {i for i in definitions(COVERAGE.read_text(encoding="utf-8")) if i.startswith("D")}
    return ids


def repo_files(root: pathlib.Path = ROOT) -> list[pathlib.Path]:
    """The repository's files: tracked and not-ignored ones per git, else a walk of the tree."""
    try:
        out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
                             cwd=root, capture_output=True, check=True, timeout=60).stdout
        names = [n for n in out.decode("utf-8", "surrogateescape").split("\0") if n]
        if names:
            return [root / n for n in names if (root / n).is_file()]
    except (OSError, subprocess.SubprocessError):
        pass
    files = []
    for path in root.rglob("*"):
        rel = path.relative_to(root).parts
        if any(p in SKIP_DIRS or p.endswith(".egg-info") for p in rel[:-1]):
            continue
        if path.is_file():
            files.append(path)
    return files


def read_text(path: pathlib.Path) -> str | None:
    """The file's text, or None for a binary file."""
    data = path.read_bytes()
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def unresolved(files: Iterable[pathlib.Path], defined: set[str],
               root: pathlib.Path = ROOT) -> dict[str, list[str]]:
    """{id: [files citing it]} for every reference in ``files`` that ``defined`` lacks."""
    missing: dict[str, list[str]] = {}
    for path in files:
        text = read_text(path)
        if text is None:
            continue
        for ref in sorted(find_references(text) - defined):
            missing.setdefault(ref, []).append(str(path.relative_to(root)))
    return missing


def _key(ident: str) -> tuple[str, int]:
    return ident[0], int(ident[1:])


# -- the scanner itself ---------------------------------------------------------------------------

def _cite(text: str) -> str:
    """Synthetic citations are written "R~98" in this file, so that its own scan stays clean."""
    return text.replace("~", "")


def test_scanner_finds_ruling_and_reading_references_in_prose_and_code():
    text = _cite('"""Reading (A13): see ruling R~98; A30\'s fallback; (A27 vi), A10 i."""\n'
                 "# §36 (rulings A9, A13-A16, A53); errata D~100, D1-D3\n"
                 'log(state, "roll again (A~99).")  # R8/A6, D7/A26/R3\n')
    assert find_references(text) == set(_cite("A13 R~98 A30 A27 A10 A9 A14 A15 A16 A53 D~100 D1 D2 D3 A~99 "
                                              "R8 A6 D7 A26 R3").split())


def test_scanner_ignores_hex_identifiers_paths_and_paper_sizes():
    text = ("colour 0xA4 and #FFA4D2; sha 3fA13c; var_A4 = fileA4 + R2D2; path/A4/x; D3.js;"
            " print on A4 paper, A3 sheet; A0; R 12; d6 and r2 (lower case)")
    assert find_references(text) == set()


def test_a_citation_of_r98_or_a99_in_a_docstring_is_reported(tmp_path):
    mod = tmp_path / "chapter.py"
    mod.write_text(_cite('"""§19.4: the duel buy-out (ruling R~98; reading A~99, not A13)."""\n'),
                   encoding="utf-8")
    missing = unresolved([mod], defined_ids(), root=tmp_path)
    assert missing == {_cite("R~98"): ["chapter.py"], _cite("A~99"): ["chapter.py"]}


def test_binary_files_are_skipped(tmp_path):
    blob = tmp_path / "weights.bin"
    blob.write_bytes(_cite("\0\1ruling R~99\0").encode())
    assert unresolved([blob], set(), root=tmp_path) == {}


# -- the document ---------------------------------------------------------------------------------

def test_rulings_doc_defines_exactly_r1_to_r19_once_each():
    rs = [i for i in definitions(RULINGS.read_text(encoding="utf-8")) if i.startswith("R")]
    assert rs == [f"R{n}" for n in range(1, 20)]


def test_rulings_doc_defines_each_a_reading_once_within_a1_to_a62():
    ids = [i for i in definitions(RULINGS.read_text(encoding="utf-8")) if i.startswith("A")]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    assert {int(i[1:]) for i in ids} <= set(range(1, 63))


def test_every_a_reading_entry_names_rule_sections_and_the_reading():
    text = RULINGS.read_text(encoding="utf-8")
    parts = re.split(r"^#{3,4} (?=[AR]\d+\.)", text, flags=re.M)[1:]
    assert parts, "no R/A headings found"
    for part in parts:
        ident = part.split(".", 1)[0]
        body = part.split("\n", 1)[1].split("\n#", 1)[0]
        assert "§" in body, f"{ident}: no rule section named"
        assert len(body.split()) >= 12, f"{ident}: the reading itself is missing"


def test_rules_coverage_has_one_row_per_difference_d1_to_d99():
    ds = [i for i in definitions(COVERAGE.read_text(encoding="utf-8")) if i.startswith("D")]
    assert sorted(ds, key=_key) == [f"D{n}" for n in range(1, 100)]


# -- the repository -------------------------------------------------------------------------------

def test_the_scan_covers_the_repository():
    files = {str(p.relative_to(ROOT)) for p in repo_files()}
    assert {"README.md", "docs/rulings.md", "docs/rules-coverage.md",
            "fandonia_env/engine/chapters/usurpation.py", "tests/test_rulings_doc.py"} <= files
    assert not any(f.startswith((".venv/", "runs/", "build/")) for f in files)


@pytest.mark.parametrize("kind", ["R", "A", "D"])
def test_every_reference_in_the_repo_resolves_inside_it(kind):
    missing = {k: v for k, v in unresolved(repo_files(), defined_ids()).items() if k.startswith(kind)}
    assert not missing, "cited but defined neither in docs/rulings.md nor (D) in docs/rules-coverage.md: " + \
        "; ".join(f"{k} in {', '.join(v[:5])}" for k, v in sorted(missing.items(), key=lambda kv: _key(kv[0])))
