"""``python -m fandonia_env``: the list of commands, and a shortcut to run one.

    python -m fandonia_env                 # the commands, one line each (also --help)
    python -m fandonia_env demo --games 8  # the same as python -m fandonia_env.demo --games 8

The commands are found, not listed by hand: every module of ``fandonia_env`` (the training stages included)
and every file of ``scripts/`` (source checkout) with a ``__main__`` block; the description is
the one below or else the first sentence of the module's docstring.
"""

from __future__ import annotations

import ast
import re
import runpy
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("fandonia_env", "scripts")  # scripts/: run as files, not modules
ORDER = ["demo", "tournament", "bench"]  # listed first: the main job, then the other core commands

DESCRIPTIONS = {  # nicer one-liners than the docstrings' for the core commands
    "fandonia_env.demo": "the main job: a short tournament, noble-ppo-v2 against noble-rule-v1, noble-rule-v2 and "
                         "random-v1 (writes runs/demo/)",
    "fandonia_env.tournament": "rated tournament between registered agents (seat rotation, duplicate seeds)",
    "fandonia_env.bench": "speed of the engine and the PettingZoo env (random legal play)",
    "fandonia_env.training.train_ppo": "train a MaskablePPO noble from a YAML config (needs the train extra)",
    "scripts/soak.py": "random-play soak: invariants checked after every step",
    "scripts/make_golden.py": "regenerate the golden playthroughs in tests/golden/",
    "scripts/make_docs.py": "regenerate the generated docs (docs/actions.md, docs/observation.md)",
}


@dataclass(frozen=True)
class Command:
    name: str  # short name for `python -m fandonia_env NAME`
    target: str  # dotted module name, or scripts/x.py
    run: str  # how to run it
    description: str
    module: bool  # runnable with `python -m fandonia_env NAME`


def _first_sentence(*docs: str | None) -> str:
    """The first sentence of the first paragraph that is not a bare usage line."""
    for doc in docs:
        for para in (doc or "").split("\n\n"):
            text = " ".join(para.replace("``", "").split())
            if not text or text.startswith("python "):
                continue
            m = re.search(r"(?<=[.!?])\s", text)
            text = (text[: m.start()] if m else text).rstrip(".")
            return text[:89] + "…" if len(text) > 90 else text
    return "(no description)"


def _is_command(path: Path) -> bool:
    try:
        src = path.read_text(encoding="utf-8")
    except OSError:
        return False
    return "__name__ == \"__main__\"" in src or "__name__ == '__main__'" in src or path.name == "__main__.py"


def _docstring(path: Path) -> str | None:
    try:
        return ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    except (OSError, SyntaxError, ValueError):
        return None


def discover() -> list[Command]:
    """The commands of this install (the scripts only in a source checkout)."""
    found: list[Command] = []
    for folder in FOLDERS:
        base = ROOT / folder
        if not base.is_dir():
            continue
        for f in sorted(base.rglob("*.py")):
            rel = f.relative_to(ROOT)
            if rel == Path("fandonia_env/__main__.py") or "tests" in rel.parts or not _is_command(f):
                continue
            if folder == "scripts":
                target = rel.as_posix()
                name, run, module = f.stem, f"python {target}", False
            else:
                parts = rel.with_suffix("").parts
                parts = parts[:-1] if parts[-1] == "__main__" else parts
                target = ".".join(parts)
                name, run, module = parts[-1], f"python -m {target}", True
            docs = [_docstring(f)]
            if f.name == "__main__.py":
                docs.append(_docstring(f.parent / "__init__.py"))
            found.append(Command(name, target, run, DESCRIPTIONS.get(target) or _first_sentence(*docs), module))
    rank = {n: i for i, n in enumerate(ORDER)}
    found.sort(key=lambda c: (c.name not in rank, rank.get(c.name, 0), not c.module, c.target))
    return found


def usage(commands: Sequence[Command] | None = None) -> str:
    cmds = list(commands if commands is not None else discover())
    w = max(len(c.run) for c in cmds)
    lines = ["usage: python -m fandonia_env [COMMAND [ARGS...]]", "",
             "fandonia_env: an RL environment for Down With The King (1981). Commands:", ""]
    lines += [f"  {c.run.ljust(w)}  {c.description}" for c in cmds]
    lines += ["", f"`python -m fandonia_env COMMAND ARGS` runs one of {', '.join(c.name for c in cmds if c.module)};",
              "every command takes --help."]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    cmds = discover()
    if not args or args[0] in ("-h", "--help"):
        print(usage(cmds))
        return 0
    runnable = {c.name: c for c in cmds if c.module} | {c.target: c for c in cmds if c.module}
    if args[0] not in runnable:
        names = ", ".join(c.name for c in cmds if c.module)
        print("usage: python -m fandonia_env [COMMAND [ARGS...]]", file=sys.stderr)
        print(f"python -m fandonia_env: error: unknown command {args[0]!r} "
              f"(commands: {names}; `python -m fandonia_env` lists them all)", file=sys.stderr)
        return 2
    target = runnable[args[0]].target
    sys.argv = [f"python -m {target}", *args[1:]]
    try:
        runpy.run_module(target, run_name="__main__", alter_sys=True)
    except SystemExit as e:
        if e.code is None or isinstance(e.code, int):
            return e.code or 0
        print(e.code, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
