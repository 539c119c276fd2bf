"""Pydantic models of every request and response of the game server (OpenAPI at ``/docs``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, field_validator

from .seeds import MAX_SEED, parse_seed


class ApiError(Exception):
    """A request rejected with ``status`` and a JSON body ``{"error": code, "detail": text}``."""

    def __init__(self, status: int, code: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.extra = extra


class ErrorBody(BaseModel):
    error: str = Field(description="machine-readable code, e.g. stale_step, illegal_action, bad_token")
    detail: str = Field(description="what was wrong and what was allowed")


class Rules(BaseModel):
    """The rules: a preset of configs/presets and/or an edition and optional switches."""

    model_config = ConfigDict(extra="forbid")
    preset: StrictStr | None = Field(None, description="a file of configs/presets, e.g. 'errata' or 'short-game'")
    edition: StrictStr | None = Field(None, description="'1981' or 'errata' (overrides the preset's)")
    optional: list[StrictStr] | None = Field(None, description="§38 optional rule switches (overrides the preset's)")
    max_turns: StrictInt | None = Field(None, ge=1, le=1000, description="truncate the game after this many turns")


class CreateGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seats: list[StrictStr] = Field(
        ..., min_length=2, max_length=6,
        description="one entry per seat (2-6): 'human' or a registered agent id such as 'noble-rule-v1'")
    rules: Rules | None = None
    seed: StrictInt | StrictStr | None = Field(
        None, description=f"a chosen seed, an integer 0..{MAX_SEED} or its decimal string (random if omitted). "
                          "Unless public_seed, it is mixed with a secret drawn for this game into the seed played, "
                          "so knowing it tells nothing of any hand; the replay publishes the chosen seed, the "
                          "secret and the seed played after the end")
    public_seed: StrictBool = Field(
        False, description="play the chosen seed itself (a random one if none is given) and show it to every seat "
                           "and spectator in the game's config: a public, reproducible deal, whose hands anyone "
                           "who replays the seed can read")
    start: dict[str, Any] | None = Field(
        None, description="a saved game (Game.to_json) to start from; its rules and seed are used, so "
                          "'rules' and 'seed' must be omitted")
    rated: StrictBool = Field(
        False, description="a rated game: the advisor is off unless 'advisor' is true (issue 43)")
    advisor: StrictBool | None = Field(
        None, description="may a seat ask the advisor (GET /games/{id}/seats/{seat}/advice)? Default: yes, "
                          "unless the game is rated")

    @field_validator("seed", mode="before")
    @classmethod
    def _seed(cls, v: Any) -> int | None:
        return None if v is None else parse_seed(v)


class SeatInfo(BaseModel):
    seat: int
    kind: Literal["human", "agent"]
    agent: str | None = None


class SeatTicket(SeatInfo):
    token: str | None = Field(None, description="secret bearer token of a human seat (shown once)")
    url: str | None = None


class CreateGameResponse(BaseModel):
    game_id: str
    seats: list[SeatTicket]
    spectator_url: str
    websocket_url: str


class GameSummary(BaseModel):
    game_id: str
    status: Literal["playing", "over", "expired"]
    players: int
    seats: list[SeatInfo]
    config: dict[str, Any] = Field(description="the rules (players, edition, optional, max_turns) and public_seed; "
                                               "never the seed, which only the replay publishes, after the end, "
                                               "unless public_seed is true (then its decimal string)")
    result: str | None = None
    winner: int | None = None
    created: float
    updated: float = Field(description="when the game ended (equal to created while it is being played)")
    rated: bool = Field(False, description="a rated game (set at creation)")
    advisor: bool = Field(True, description="whether the seats may ask the advisor while the game is played")


class GameList(BaseModel):
    total: int
    games: list[GameSummary]


class Confirm(BaseModel):
    """A fatal or risky choice: what to show before it is sent."""

    title: str = Field(description="the question, e.g. 'Attempt to usurp the throne of King George?'")
    odds: float | None = Field(description="the engine's chance of success (e.g. rule_queries.usurpation_chance), "
                                           "null where no single chance exists")
    chance: str | None = Field(None, description="the chance in words where no single number is given (e.g. a "
                                                 "duel: the chance of the fighter's own roll)")
    lose: str = Field(description="what is lost on failure, in plain words")


class Option(BaseModel):
    id: int = Field(description="action id of the catalogue fandonia_env.engine.core.actions")
    name: str = Field(description="the catalogue name of the id (actions.NAME)")
    label: str = Field(description="plain words: what it does and to whom (fandonia_env.wording)")
    detail: str | None = Field(None, description="more explanation, or null")
    rule: str | None = Field(None, description="the rule it follows, e.g. '§36.3' (for a tooltip), or null")
    confirm: Confirm | None = Field(None, description="set for a fatal or risky choice: ask before sending it")


class Decision(BaseModel):
    kind: str
    ctx: dict[str, Any]
    prompt: str = Field(description="what is being asked, in one plain sentence")
    options: list[Option]


class RacePlayer(BaseModel):
    seat: int
    name: str = Field(description="'Player 2 (Sir Guy)'; 'You, Player 0 (...)' for the viewing seat")
    pp: int
    ip: int
    status: int = Field(description="the Status total of the seat's living characters")
    claim: str = Field(description="its royal allies and their place in the line of succession, or its reign")
    countdown: int | None = Field(description="turns after this one before it wins (§37), while its royal reigns")
    odds: float | None = Field(description="its best chance to usurp now (rule_queries.best_usurpation); other "
                                           "seats' hands are never counted; null when it cannot usurp")
    hidden_cards: int = Field(0, description="the cards in its hand the viewer cannot see (0 for the viewer)")
    odds_if_support: float | None = Field(None, description="its best chance to usurp if every hidden card were "
                                                            "an ordinary Support card; null when it cannot "
                                                            "usurp or hides no card")


class Race(BaseModel):
    goal: str = Field(description="how the game is won, in one or two sentences")
    leader: int | None = Field(description="the seat closest to the throne, null when nobody has a chance")
    lead_text: str = Field(description="who is closest to the throne and by how much, in words")
    players: list[RacePlayer]
    unknown: str | None = Field(None, description="what the viewer cannot see (the cards in other hands), in "
                                                  "words; null when every other hand is empty")


class FactionMember(BaseModel):
    cid: str
    name: str
    status: int
    office: str | None
    titles: str | None = Field(description="the present title, e.g. 'Earl'")
    spouse: str | None
    situation: str | None = Field(description="role (PC, FAC, FARC, henchman...) and condition, in words")


class SeatState(BaseModel):
    seat: int
    step: int = Field(description="this seat's decision counter: send it back with the action")
    status: Literal["playing", "over", "expired"]
    decision: Decision | None = Field(description="set when this seat must decide now")
    view: dict[str, Any] = Field(description="exactly Game.view(seat): the seat's own view with its private log lines")
    log_private: list[int] | None = Field(
        None, description="indices of view.log that are private to this seat (e.g. 'You drew ...'); null "
                          "when the log is left out")
    race: Race = Field(description="the race for the throne as this seat may know it")
    faction: list[FactionMember] = Field(description="the seat's own characters")
    recent: list[str] = Field(description="what happened since this seat's previous decision, in plain sentences: "
                                          "what matters most to the seat first (deaths, successions, the end of "
                                          "the turn, its own losses), then how many lesser lines are folded")
    recent_more: list[str] = Field(default_factory=list, description="the lesser lines folded out of recent")


class PublicState(BaseModel):
    status: Literal["playing", "over", "expired"]
    view: dict[str, Any] = Field(description="public information only: no hand, no drawn counter, public log lines")
    race: Race = Field(description="the race for the throne from public information")


class Basics(BaseModel):
    """How to win and the few terms the race for the throne uses (``words.BASICS``)."""

    how_to_win: str
    terms: list[tuple[str, str]]


class Help(BaseModel):
    """``GET /help``: plain explanations for people learning the game."""

    cards: dict[str, str]
    counters: dict[str, str]
    offices: dict[str, str]
    titles: dict[str, str]
    terms: dict[str, str]
    basics: Basics = Field(description="how to win and the terms a newcomer needs, shown as text on the pages")


class Act(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: StrictInt = Field(description="one of the ids of decision.options")
    step: StrictInt = Field(description="the step of the SeatState the choice was made on")


class ReplayAction(BaseModel):
    idx: int
    seat: int
    action: int
    name: str


class LogEntry(BaseModel):
    turn: int
    text: str
    to: int | None = Field(description="None: public line; else the seat it was private to")


class Seeding(BaseModel):
    public_seed: bool = Field(description="the creator asked for a public seed: the game played it as given")
    chosen_seed: str | None = Field(description="the seed the creator chose (decimal string), or null")
    secret: str | None = Field(description="the game's secret the chosen seed was mixed with (hex), or null: "
                                           "seed = fandonia_env.serve.seeds.derive_seed(chosen_seed, secret)")
    seed: str | None = Field(description="the seed the game played (decimal string)")


class Replay(BaseModel):
    game_id: str
    status: Literal["over", "expired"]
    config: dict[str, Any] = Field(description="the game's config; its seed as a decimal string")
    seeding: Seeding = Field(description="how the seed played came about, published after the end")
    seats: list[SeatInfo]
    start: dict[str, Any] | None
    actions: list[ReplayAction]
    log: list[LogEntry]
    result: str | None
    winner: int | None
    final: dict[str, Any] = Field(description="the final game state (Game.to_json, its config's seed as a decimal "
                                              "string: fandonia_env.serve.client.saved_game reads it)")


# -- the pages' endpoints (webui.py, replays.py) ------------------------------------------------
class Meta(BaseModel):
    characters: dict[str, dict[str, Any]] = Field(description="id -> name, royal, female, printed title/Status "
                                                              "(1981 and errata)")
    succession: list[str]
    offices: dict[str, str]
    cards: dict[str, str]
    opportunities: dict[str, str]
    countries: dict[str, str]
    problems: dict[str, str]
    prestige_tables: list[str]
    counsel_tables: dict[str, dict[str, Any]] = Field(description="table -> name and its counsels' texts (1-based)")
    titles: dict[str, str]
    title_ladders: dict[str, list[str]]
    presets: list[str]
    optional_rules: list[str]
    agents: list[str] = Field(description="the agent ids this server may seat")


class OpenReplay(BaseModel):
    model_config = ConfigDict(extra="forbid")
    doc: dict[str, Any] = Field(description="a game record (GET /games/{id}/replay, or a save of "
                                            "python -m fandonia_env.play), a tournament's results.json, or a "
                                            "saved game (Game.to_json)")
    game: StrictInt | None = Field(None, ge=0, description="a tournament's game index (omit to list its games)")


class ReplayInfo(BaseModel):
    replay_id: str | None = Field(description="null when a tournament was opened without choosing a game")
    source: Literal["record", "tournament", "saved_game"]
    config: dict[str, Any]
    seats: list[SeatInfo]
    n_frames: int
    note: str
    actions: list[dict[str, Any]]
    result: str | None
    winner: int | None
    games: list[dict[str, Any]] | None = Field(description="a tournament's games when none was chosen")


class ReplayFrame(BaseModel):
    replay_id: str
    index: int = Field(description="the game before action `index`")
    n_frames: int
    decision: dict[str, Any] | None
    next_action: dict[str, Any] | None
    view: dict[str, Any] = Field(description="the public view, with the whole log ({turn, text, to})")
    hidden: list[dict[str, Any]] = Field(description="every player's hand and drawn counters")


class AdvisedOption(BaseModel):
    id: int = Field(description="action id, one of the decision's options")
    name: str = Field(description="the catalogue name of the id (actions.NAME)")
    label: str = Field(description="plain words, as the option's own label")
    prob: float = Field(description="the noble policy's probability of it: softmax of its logits over the options")


class Advice(BaseModel):
    """The advisor (issue 43): what the noble would play here, from the seat's view only."""

    seat: int
    step: int = Field(description="the seat's step the advice belongs to (as SeatState.step)")
    noble: str = Field(description="the noble that advises, e.g. 'noble-ppo-v2'")
    suggestion: AdvisedOption = Field(description="the option the noble plays in this position (its argmax)")
    win_chance: float = Field(description="the noble's own estimate of the seat's chance to win from here (its value "
                                          "head read as a win probability: docs/server.md, 'The advisor')")
    value: float = Field(description="the value head itself: the expected zero-sum reward (docs/rewards.md)")
    weighs: list[AdvisedOption] = Field(description="the two or three options it rates highest, best first")
    n_options: int = Field(description="how many options the decision has")
    text: str = Field(description="all of it in one plain sentence")
    ms: float = Field(description="how long the advice took, milliseconds")
    index: int | None = Field(None, description="replay advice: the frame")
    played: int | None = Field(None, description="replay advice: the id actually played at the frame")
