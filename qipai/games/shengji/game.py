"""升级 / 拖拉机 (shengji): the game, its options and profiles (rules/shengji.md §1.3).

One :class:`~.state.ShengjiState` is one hand (一副): deal with declarations, kitty exchange,
25 tricks (39 with three decks), scoring. The match context of the hand (both teams' levels,
the scheduled dealer, or "first hand") comes in as options, and ``Result.details`` gives the
levels, the next dealer and the attackers' total after the hand; :mod:`.match` chains hands.
"""

from __future__ import annotations

from typing import Any

from qipai.core.errors import NotationError, OptionError
from qipai.core.game import Game, State
from qipai.core.options import Option
from qipai.core.registry import add_alias, register

from .actions import Action, parse_action
from .scoring import TABLES, TARGETS

PROFILES: dict[str, dict[str, Any]] = {
    "seed000": {"decks": 2, "kitty_size": 8, "declaration": "ladder2", "no_declaration": "kitty_first",
                "failed_throw_penalty": "per_card_10", "kitty_multiplier": "exponential",
                "score_table": "t000", "start_level": 2, "target": "pass_10", "time_limit_min": 90,
                "timeout_tiebreak": "dealer_team", "sanctions": "s000", "must_play_levels": []},
    "seed001": {"decks": 2, "kitty_size": 8, "declaration": "ladder2", "no_declaration": "kitty_third",
                "failed_throw_penalty": "none", "kitty_multiplier": "exponential",
                "score_table": "t003", "start_level": 2, "target": "pass_A", "time_limit_min": 90,
                "timeout_tiebreak": "dealer_team", "sanctions": "none", "must_play_levels": []},
    "seed002": {"decks": 2, "kitty_size": 8, "declaration": "bao", "no_declaration": "kitty_random",
                "failed_throw_penalty": "none", "kitty_multiplier": "linear",
                "score_table": "t002", "start_level": 2, "target": "pass_A", "time_limit_min": 60,
                "timeout_tiebreak": "dealer_team", "sanctions": "s002", "must_play_levels": []},
    "seed003": {"decks": 2, "kitty_size": 8, "declaration": "ladder2", "no_declaration": "no_trump",
                "failed_throw_penalty": "none", "kitty_multiplier": "exponential",
                "score_table": "t003", "start_level": 5, "target": "reach_10", "time_limit_min": 90,
                "timeout_tiebreak": "attack_points", "sanctions": "none", "must_play_levels": [10, 13]},
    "titanic": {"decks": 3, "kitty_size": 6, "declaration": "grab3", "no_declaration": "kitty_third",
                "failed_throw_penalty": "none", "kitty_multiplier": "linear",
                "score_table": "t_titanic", "start_level": 2, "target": "pass_A", "time_limit_min": 90,
                "timeout_tiebreak": "dealer_team", "sanctions": "none", "must_play_levels": []},
    # one deck (打百分 / 40分): a reconstructed profile, not from a seed sheet (the seeds name the
    # game only); the seed000 defaults with one pack, a 6-card kitty and the 100-point table
    "one_deck": {"decks": 1, "kitty_size": 6, "declaration": "ladder2", "no_declaration": "kitty_first",
                 "failed_throw_penalty": "per_card_10", "kitty_multiplier": "exponential",
                 "score_table": "t_one_deck", "start_level": 2, "target": "pass_10", "time_limit_min": 90,
                 "timeout_tiebreak": "dealer_team", "sanctions": "s000", "must_play_levels": []},
}

_P0 = PROFILES["seed000"]


@register
class Shengji(Game):
    """升级 for four seats in two partnerships (0+2, 1+3). ``profile`` fills in the options of
    one seed sheet (§1.3); explicitly given options override it."""

    id = "shengji"
    seats = (4,)
    hidden_information = True
    #: with a person seated: with two or more people, the number of prompts during the deal and
    #: the rounds of four cards they stop in would tell each person that someone got a level card
    #: or a joker; with one person and bots, "when_able" dealt the whole hand at once (the bots
    #: answer at once) and left the person no deal to declare in
    people_options = {"deal_prompt": "every_card"}
    option_spec = (
        Option("profile", "seed000", choices=tuple(PROFILES),
               doc="§1.3 profile: the options one seed sheet implies (seed000 default, titanic = 3 decks, "
                   "one_deck = 打百分, reconstructed)"),
        Option("decks", 2, choices=(1, 2, 3), kind=int,
               doc="§1.1 number of 54-card packs (1 = the reconstructed one-deck profile)"),
        Option("kitty_size", 8, choices=(6, 8), kind=int,
               doc="§1.1 kitty cards (8 with 2 decks, 6 with 1 or 3)"),
        Option("declaration", "ladder2", choices=("ladder2", "bao", "grab3"),
               doc="§2.4 亮主/反主 during the deal; §2.5 报主/反主 after it; §2.6 抢亮 (3 decks)"),
        Option("no_declaration", "kitty_first",
               choices=("kitty_first", "kitty_third", "no_trump", "kitty_random"),
               doc="§2.8 trump when nobody declares"),
        Option("deal_prompt", "when_able", choices=("when_able", "every_card"),
               doc="§2.7 who is asked while trump is declared: when_able = a seat that can declare "
                   "(rules 1-3); every_card = the seat dealt each card, and every seat in each round "
                   "of asking, pass its only answer when it cannot declare (who could declare never "
                   "shows; a server's choice at a table with a person)"),
        Option("two_always_trump", False, kind=bool, doc="§3.1 常主: every 2 is a trump"),
        Option("throw_beat_rule", "key", choices=("key", "all"), doc="§3.8 how trumping throws compare"),
        Option("failed_throw_penalty", "per_card_10", choices=("per_card_10", "none"), doc="§4.3"),
        Option("kitty_multiplier", "exponential", choices=("exponential", "linear"), doc="§4.2"),
        Option("score_table", "t000", choices=TABLES, doc="§4.4"),
        Option("start_level", 2, kind=int, minimum=2, doc="§2.1 both teams' level at match start"),
        Option("target", "pass_10", choices=TARGETS, doc="§4.6 match target (seed000 final: pass_A)"),
        Option("time_limit_min", 90, kind=int, minimum=1, doc="§5.1 match time limit in minutes "
               "(seed000 final: 180); used by the match layer"),
        Option("timeout_tiebreak", "dealer_team", choices=("dealer_team", "attack_points"),
               doc="§5.1/§5.2 equal levels at time-out"),
        Option("sanctions", "s000", choices=("none", "s000", "s002"),
               doc="§5.3 the profile's sanctions, applied only when strict is true"),
        Option("strict", False, kind=bool, doc="§5.3 apply the sanctions for invalid submissions"),
        Option("must_play_levels", [], kind=list, doc="§4.5 必打 levels, e.g. [10, 13]"),
        # the match context of this hand
        Option("team0_level", None, kind=int, minimum=2, nullable=True,
               doc="level of team 0 (seats 0, 2) before this hand; default start_level"),
        Option("team1_level", None, kind=int, minimum=2, nullable=True,
               doc="level of team 1 (seats 1, 3) before this hand; default start_level"),
        Option("dealer", None, kind=int, minimum=0, nullable=True,
               doc="§2.9 the scheduled dealer of a later hand; None = hand 1 (dealer by 抢庄)"),
        Option("provisional_dealer", None, kind=int, minimum=0, nullable=True,
               doc="§2.2 hand 1's provisional dealer; None = drawn by lot from the seed"),
    )

    def __init__(self, **options: Any) -> None:
        # decks=1 alone means the one-deck profile (its kitty and score table go with it)
        profile = options.get("profile", "one_deck" if options.get("decks") in (1, "1") else "seed000")
        if not isinstance(profile, str) or profile not in PROFILES:
            raise OptionError(f"option 'profile': invalid value {profile!r}; valid values: "
                              + ", ".join(repr(p) for p in PROFILES),
                              code="option.not_in_choices",
                              params={"label": "shengji.profile", "value": profile,
                                      "choices": list(PROFILES)})
        merged = {**PROFILES[profile], **options, "profile": profile}
        mpl = merged.get("must_play_levels")
        if isinstance(mpl, str):
            try:
                mpl = [int(x) for x in mpl.replace(",", " ").split()]
            except ValueError:
                raise OptionError(f"option 'must_play_levels': levels 2..14 separated by commas, "
                                  f"not {mpl!r}",
                                  code="option.bad_list",
                                  params={"label": "shengji.must_play_levels"}) from None
        if isinstance(mpl, tuple):
            mpl = list(mpl)
        merged["must_play_levels"] = mpl
        super().__init__(**merged)
        o = self.options
        if any(type(x) is not int or not 2 <= x <= 14 for x in o["must_play_levels"]):
            raise OptionError("option 'must_play_levels': a list of levels 2..14, e.g. [10, 13]",
                              code="option.bad_list", params={"label": "shengji.must_play_levels"})
        o["must_play_levels"] = sorted(set(o["must_play_levels"]))
        for name in ("dealer", "provisional_dealer"):
            if o[name] is not None and not 0 <= o[name] <= 3:
                raise OptionError(f"option {name!r}: a seat 0..3 or None, got {o[name]}",
                                  code="option.out_of_range",
                                  params={"label": f"shengji.{name}", "min": 0, "max": 3})
        if o["start_level"] > 14:
            raise OptionError("option 'start_level': 2..14",
                              code="option.out_of_range",
                              params={"label": "shengji.start_level", "min": 2, "max": 14})
        for name in ("team0_level", "team1_level"):
            if o[name] is not None and o[name] > 14:
                raise OptionError(f"option {name!r}: a level 2..14 (a team past A has won the match)",
                                  code="option.out_of_range",
                                  params={"label": f"shengji.{name}", "min": 2, "max": 14})
        if o["dealer"] is None and self.levels[0] != self.levels[1]:
            raise OptionError("hand 1 (dealer None) starts with both teams at the same level; "
                              "give 'dealer' for a later hand",
                              code="option.conflict",
                              params={"label": "shengji.dealer", "other": "shengji.team0_level"})
        decks = o["decks"]
        packs = "one deck has" if decks == 1 else f"{decks} decks have"
        hint = " (decks=1 alone, or profile='one_deck', sets every one-deck option)" if decks == 1 else ""
        expect = {1: 6, 2: 8, 3: 6}[decks]
        if o["kitty_size"] != expect:
            article = "an" if expect == 8 else "a"
            raise OptionError(f"option 'kitty_size': {packs} {article} {expect}-card kitty{hint}",
                              code="option.conflict",
                              params={"label": "shengji.kitty_size", "other": "shengji.decks"})
        if (o["declaration"] == "grab3") != (decks == 3):
            raise OptionError("option 'declaration': 3 decks use grab3" if decks == 3 else
                              f"option 'declaration': grab3 is the 3-deck system; {packs.split(' ha')[0]} "
                              f"use{'s' if decks == 1 else ''} ladder2 or bao{hint}",
                              code="option.conflict",
                              params={"label": "shengji.declaration", "other": "shengji.decks"})
        if (o["decks"] == 1) != (o["score_table"] == "t_one_deck"):
            raise OptionError("option 'score_table': t_one_deck (100 points) is the table of one deck, "
                              f"and one deck uses no other{hint}",
                              code="option.conflict",
                              params={"label": "shengji.score_table", "other": "shengji.decks"})

    @property
    def levels(self) -> list[int]:
        o = self.options
        return [o["team0_level"] or o["start_level"], o["team1_level"] or o["start_level"]]

    def new_state(self, *, seed: int | str | None = None, deal: Any = None,
                  position: str | None = None, num_seats: int | None = None) -> State:
        """A hand dealt from ``seed`` (DealRng) or from ``deal`` (``{"order": [card ids in
        dealing order], "provisional_dealer": p, "kitty_flip": [kitty indexes]}``), or a
        play-phase ``position`` (JSON, see :meth:`ShengjiState._setup_position`). Raises
        :class:`NotationError` for a bad deal or position."""
        from .state import ShengjiState

        if num_seats not in (None, 4):
            raise NotationError("shengji is played by exactly 4 seats", "num_seats",
                                code="game.seats", params={"seats": 4})
        if position is not None:
            return ShengjiState(self, position=position)
        if seed is None and deal is None:
            from qipai.core.rng import new_seed
            seed = new_seed()
        return ShengjiState(self, seed=seed, deal=deal)

    def parse_action(self, text: str, state: State | None = None) -> Action:
        """Read ``pass``, ``declare 2H 2H``, ``bury …`` or a play (``AS AS KS``).
        Raises :class:`IllegalAction`."""
        return parse_action(text, self.options["decks"])


add_alias("tuolaji", "shengji")
add_alias("titanic", "shengji", profile="titanic")
add_alias("dabaifen", "shengji", profile="one_deck")
