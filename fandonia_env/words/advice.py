"""The advisor in plain words (issue 43): ``fandonia_env.agents.advisor.advise`` with every option it names
labelled as the seat's own options are (``decisions.option_words``), and a sentence to show.

    >>> from fandonia_env.words.advice import advice_words
    >>> advice_words(game.view(seat, log=False))
    {'noble': 'noble-ppo-v2', 'suggestion': {'id': ..., 'name': ..., 'label': ..., 'prob': ...},
     'win_chance': 0.31, 'value': ..., 'weighs': [{'id', 'name', 'label', 'prob'}, ...], 'n_options': 5,
     'text': 'noble-ppo-v2 would ...'}

From the seat's view only, like the words of its decision.  Not re-exported by ``fandonia_env.words`` (it
loads the noble's network: numpy and the encoders), import it from here.
"""

from __future__ import annotations

from typing import Any

from fandonia_env.agents.advisor import DEFAULT_NOBLE, AdvisorError, advise
from fandonia_env.agents.ppo_agent import PPOAgent

from .decisions import option_words

__all__ = ["AdvisorError", "advice_text", "advice_words"]


def advice_text(a: dict[str, Any]) -> str:
    """One sentence: the suggestion, the noble's chance of winning, the options it weighs."""
    s = a["suggestion"]
    others = "; ".join(f"{w['label']} ({round(100 * w['prob'])}%)" for w in a["weighs"] if w["id"] != s["id"])
    return (f"{a['noble']} would choose: {s['label']} ({round(100 * s['prob'])}% of its weight). "
            f"Its estimate of your chance to win from here: {round(100 * a['win_chance'])}%."
            + (f" It also weighs: {others}." if others else ""))


def advice_words(view: dict[str, Any], legal: list[int] | None = None, noble: str = DEFAULT_NOBLE,
                 bot: PPOAgent | None = None) -> dict[str, Any]:
    """``advise`` of the seat of the ``player_view`` document ``view``, its options labelled, and ``text``."""
    a = advise(view, legal, noble, bot)
    d = view.get("decision")
    if not d:
        raise AdvisorError("the seat has no decision to advise on")
    weighs = [{**w, "label": option_words(view, d, w["id"])["label"]} for w in a["weighs"]]
    best = next(w for w in weighs if w["id"] == a["suggestion"])
    out = {**a, "suggestion": best, "weighs": weighs}
    out["text"] = advice_text(out)
    return out
