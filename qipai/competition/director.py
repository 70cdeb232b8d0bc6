"""The event director: works on one stage of one event inside one database session — decides
matches from their stored games, makes rounds through the stage's format
(:mod:`.formats`), finishes stages and the event.

Everything is derived from stored rows: the next game of a match is computed from its finished
games (series or session rule, :mod:`.series`, :mod:`.sessions`), the next round from the
finished round. A game is committed the moment it finishes, so a killed process resumes exactly
where it stood; an unfinished game is played again from its start (its seed is stored, so bots
replay identically).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from . import lot
from .common import VACANT, now
from .config import parse_config, round_label, stage_data
from .db import EventRow, GameRow, MatchRow, StageRow
from .formats import format_for
from .games import EventGames
from .series import forfeit_series, update_series
from .sessions import compare_duplicates, update_session


class Director(EventGames):
    """Works on one event inside one database session (the caller commits)."""

    def __init__(self, s: Session, ev: EventRow, stage: int | None = None) -> None:
        """The director of stage ``stage`` (default: the current, i.e. latest, stage). Stage 1
        uses the entrants' draw numbers; a later stage (multi-stage events, §2.8) numbers its
        entrants 1..take from its ``stages`` row, and its rounds continue the event's round
        numbers after ``round0``."""
        self.s = s
        self.ev = ev
        self.full = parse_config(ev.preset, ev.config)
        rows = list(s.scalars(select(StageRow).where(StageRow.event_id == ev.id).order_by(StageRow.number)))
        by_id = {e.entrant_id: e for e in ev.entrants}
        #: stage number -> {draw number: entrant id} for every stage begun
        self.stage_maps = {1: {e.draw: e.entrant_id for e in ev.entrants},
                           **{r.number: dict(enumerate(r.draws, 1)) for r in rows}}
        self.stage_no = stage or (rows[-1].number if rows else 1)
        if self.stage_no == 1:
            self.cfg = self.full
            self.by_draw = {e.draw: e for e in ev.entrants}
            self.round0 = 0
        else:
            row = next(r for r in rows if r.number == self.stage_no)
            self.cfg = parse_config(ev.preset, stage_data(ev.config, self.stage_no))
            self.by_draw = {i: by_id[x] for i, x in enumerate(row.draws, 1)}
            self.round0 = row.first_round - 1
        self.n = len(self.by_draw)
        self.stage = self.cfg.stage_for(self.n)
        self.stages = len(self.full.then) + 1
        self.format = format_for(self)
        #: the last round the standings count (None: every round, as they stand now): see
        #: :meth:`standings`
        self.through: int | None = None

    def matches(self, rnd: int | None = None) -> list[MatchRow]:
        q = select(MatchRow).where(MatchRow.event_id == self.ev.id, MatchRow.stage == self.stage_no)
        if rnd is not None:
            q = q.where(MatchRow.round == rnd)
        return list(self.s.scalars(q.order_by(MatchRow.round, MatchRow.index)))

    def counted(self) -> list[MatchRow]:
        """The matches the standings count: those of the rounds up to :attr:`through`."""
        return [m for m in self.matches() if self.through is None or m.round <= self.through]

    def open_rounds(self) -> list[int]:
        """The rounds of this stage of the running event that still have a match not over."""
        if self.ev.status != "running":
            return []
        return sorted({m.round for m in self.matches() if m.status != "finished"})

    def held_rounds(self) -> list[int]:
        """The rounds whose results are held from their players and the public (the server's
        ``conduct.RoundHold``): the :meth:`open_rounds` being played for the first time. A round
        that was over and is open again because a referee's correction made one of its matches
        need another game (the ``correct`` act's ``data.reopened``) is not: its results have
        been shown, and a page read later never shows less than one read before."""
        rounds = self.open_rounds()
        if not rounds:
            return []
        from .acts import RefereeActRow

        acts = self.s.scalars(select(RefereeActRow.data).where(RefereeActRow.event_id == self.ev.id,
                                                               RefereeActRow.act == "correct"))
        shown = {(d or {}).get("reopened") for d in acts}
        return [r for r in rounds if r not in shown]

    def held_through(self) -> int | None:
        """The last round finished before the first round still held (:meth:`held_rounds`;
        None when none is): while a round is on, its results are not shown to its players and
        the public, and so the standings they see count the rounds up to this one (``round0``
        when no round of the stage is over)."""
        rounds = self.held_rounds()
        return rounds[0] - 1 if rounds else None

    def current_round(self) -> int:
        """The event round number of this stage's latest round (``round0`` before its first)."""

        r = self.s.scalar(select(func.max(MatchRow.round)).where(MatchRow.event_id == self.ev.id,
                                                                  MatchRow.stage == self.stage_no))
        return r or self.round0

    def key(self, m: MatchRow) -> str:
        """The match id of ``m`` in derivations (``<event id>.r<round>.m<index>``)."""
        return f"{self.ev.id}.r{m.round}.m{m.index}"

    def add_match(self, rnd: int, index: int, kind: str, entrants: list[int],
                   result: dict[str, Any] | None = None) -> MatchRow:
        secret = lot.seed(self.ev.secret, "match", [self.ev.id, rnd, index]).hex()
        m = MatchRow(event_id=self.ev.id, round=rnd, index=index, kind=kind, entrants=entrants,
                     status="finished" if result is not None else "pending", result=result, secret=secret,
                     stage=self.stage_no)
        self.s.add(m)
        self.s.flush()
        return m

    def advance(self) -> None:
        """Bring the event up to date: decide matches, create games and rounds, finish."""
        while self.ev.status == "running":
            rnd = self.current_round()
            if rnd == self.round0:
                self._new_round(rnd + 1)
                continue
            ms = self.matches(rnd)
            for m in ms:
                if m.status == "pending":
                    self._update_match(m)
            if any(m.status == "pending" for m in ms):
                return
            compare_duplicates(self, ms)
            self._new_round(rnd + 1)

    def _withdrawn(self, m: MatchRow) -> list[int]:
        """Draw numbers of the entrants of ``m`` who have withdrawn or been disqualified (§2.7), or
        who lost the match by a penalty count (``lose_match_at``)."""
        lost = self._penalty_losers(m)
        return [d for d in m.entrants if d in self.by_draw
                and (self.by_draw[d].status in ("withdrawn", "disqualified") or d in lost)]

    def penalty_counts(self, m: MatchRow, kind: str) -> dict[int, int]:
        """Entries of ``kind`` per draw number in match ``m`` (the penalty ledger, §2.7)."""
        from .db import PenaltyRow

        if not self.cfg.penalties or m.id is None:
            return {}
        ids = {self.by_draw[d].entrant_id: d for d in m.entrants if d in self.by_draw}
        out: dict[int, int] = {}
        q = select(PenaltyRow).where(PenaltyRow.match_id == m.id, PenaltyRow.kind == kind)
        for row in self.s.scalars(q):
            if row.entrant_id in ids:
                out[ids[row.entrant_id]] = out.get(ids[row.entrant_id], 0) + 1
        return out

    def _penalty_losers(self, m: MatchRow) -> set[int]:
        rule = self.cfg.penalties.get("follow_error")
        if rule is None or rule.lose_match_at is None:
            return set()
        return {d for d, n in self.penalty_counts(m, "follow_error").items() if n >= rule.lose_match_at}

    def out_seats(self, m: MatchRow) -> list[int]:
        """Draw numbers at table ``m`` played by trusteeship, ranked last and unable to advance:
        absent entrants (§5.6) and entrants who withdrew (a concession, §5.5)."""
        return sorted({*(m.absent or []), *self._withdrawn(m)})

    def _update_match(self, m: MatchRow) -> None:
        games = sorted(m.games, key=lambda g: g.number)
        if m.kind == "series" and not m.absent and self._withdrawn(m):
            forfeit_series(self, m, loser=self._withdrawn(m)[0], games=games)
            return
        if m.kind == "session" and sum(d not in self.out_seats(m) for d in m.entrants) <= 1:
            for g in games:          # nobody left to play the deal in progress with
                if g.status == "pending":
                    g.status, g.source, g.finished = "finished", "forfeit", now()
                    g.result = {"returns": [0.0] * len(g.seats), "reason": "withdrawal", "text": "void",
                                "winners": [], "winner_draws": [], "moves": 0, "duration": 0,
                                "void": True}
        if any(g.status == "pending" for g in games):
            return
        done = [g for g in games if g.status == "finished"]
        if m.kind == "series":
            update_series(self, m, done)
        else:
            update_session(self, m, done)

    def rule(self, m: MatchRow) -> Any:
        """The match rule of ``m``: the stage's series or session rule, or the one a
        ``round_overrides`` entry gives its round (``final``, ``semifinal``, ... by the number of
        matches in the round; ``round_N`` by the stage's round number)."""
        label = round_label(self.stage, self._round_size(m.round))
        return self.cfg.rule_for(label, m.round - self.round0)

    def _round_size(self, rnd: int) -> int:
        """How many matches round ``rnd`` of this stage has (a count: a round of 512 matches
        is not loaded once per match)."""
        return self.s.scalar(select(func.count(MatchRow.id)).where(
            MatchRow.event_id == self.ev.id, MatchRow.stage == self.stage_no, MatchRow.round == rnd)) or 0

    def pair_seats(self, m: MatchRow, order: list[int] | None = None) -> tuple[list[int], list[str]]:
        """Seats of a game between two pairs (§5.1 ``seats``): the first mover's pair takes the
        game's first side (``state.sides()[0]``, partners opposite each other), the other the
        second; without ``order`` (a pair card table) the pairs, sorted by draw number, are first
        shuffled by the match's ``seats`` stream to give that order. Each pair's two accounts,
        sorted by id, are shuffled onto its seats (lower seat first) by the same stream, pairs in
        draw-number order, so partners keep their seats through the match. Returns (draw number
        per seat, account id per seat)."""
        sides = self.game_obj().new_state(seed=0).sides()
        stream = lot.stream(m.secret, "seats", self.key(m))
        if order is None:       # a pair table: the pairs' order by lot gives the sides (§5.1 seats)
            order = stream.shuffle(sorted(m.entrants))
        accounts = {d: stream.shuffle(sorted(x["id"] for x in self.by_draw[d].members))
                    for d in sorted(m.entrants)}
        n = sum(len(x) for x in sides)
        seats, members = [0] * n, [""] * n
        for d, side in zip(order, sides, strict=True):
            for seat, acc in zip(sorted(side), accounts[d], strict=True):
                seats[seat], members[seat] = d, acc
        return seats, members

    def seat_player(self, g: GameRow, seat: int) -> tuple[str, str | None]:
        """(name, bot or None) of the account in ``seat`` of game ``g``: the entrant, or for a
        pair entrant the member seated there."""
        d = g.seats[seat]
        if d == VACANT:
            return self.name(d), None
        e = self.by_draw[d]
        members = g.spec.get("members")
        if members:
            acc = next(x for x in e.members if x["id"] == members[seat])
            return acc["id"], acc["bot"]
        return e.entrant_id, e.bot

    def people(self, g: GameRow) -> list[str]:
        """The names of the seats of game ``g`` a person plays (not a bot entrant): the names
        a viewer is matched against to tell whether he played ``g`` (an account may bear the
        name of a bot entrant, which no account plays)."""
        return [name for name, bot in (self.seat_player(g, i) for i in range(len(g.seats))) if not bot]

    def bot_names(self) -> set[str]:
        """The names of the event's bot entrants (and bot members of its pairs)."""
        out = {e.entrant_id for e in self.by_draw.values() if e.bot}
        return out | {x["id"] for e in self.by_draw.values() for x in e.members or () if x.get("bot")}

    def name(self, d: int) -> str:
        """The entrant id of draw number ``d`` (``(vacant)`` for an empty seat)."""
        return "(vacant)" if d == VACANT else self.by_draw[d].entrant_id

    def _new_round(self, rnd: int) -> None:
        if not self.format.pair(rnd):
            self._finish()

    def _finish(self) -> None:
        if self.stage_no < self.stages:
            self._next_stage()
            return
        self.ev.status = "finished"
        self.ev.outcome = self.outcome()
        self.reveal()

    def _next_stage(self) -> None:
        """Start the next stage of a multi-stage event (§2.8): the ``take`` best of this stage's
        final standings (withdrawn and disqualified entrants left out) go on; with ``draw =
        "from_previous_stage"`` their draw numbers are their places 1..take, with ``"random"`` a
        new draw (purpose ``draw``, stage number). Then this director moves to that stage."""
        nxt = self.full.then[self.stage_no - 1]
        ids = [r["id"] for r in self.standings()
               if self.by_draw[r["draw"]].status not in ("withdrawn", "disqualified")][:nxt["take"]]
        if nxt["draw"] == "random":
            ids = lot.draw_order(self.ev.secret, self.ev.id, self.stage_no + 1, ids)
        self.s.add(StageRow(event_id=self.ev.id, number=self.stage_no + 1,
                            first_round=self.current_round() + 1, draws=ids, created=now()))
        self.s.flush()
        self.__init__(self.s, self.ev)

    def outcome(self) -> dict[str, Any]:
        """Champion, runner(s)-up, standings and placement points."""
        out = self.format.placings()
        if self.stages > 1:
            out["stages"] = [{"stage": n, "kind": Director(self.s, self.ev, n).stage,
                              "order": [r["id"] for r in Director(self.s, self.ev, n).standings()]}
                             for n in range(1, self.stages)]
        if getattr(self, "stage_note", None):
            out["note"] = self.stage_note
        self._placement_points(out)
        return out

    def provisional_outcome(self) -> dict[str, Any]:
        """What :meth:`outcome` would give if a running event ended as it stands: a points
        format's stage ranks its table at the end of its last round finished (its leader
        champion, the second runner-up: a round still in play is held from the public); a
        knockout stage has no champion or runner-up until its final is played, so each entrant
        who has played scores ``other`` for now; before anyone has played, nobody scores.
        ``{"champion" (or None), "runner_up", "placement_points" (when the event has them),
        "provisional": True}``."""
        undecided = self.format.knockout or not self._played()
        out: dict[str, Any] = {"champion": None, "runner_up": []} if undecided else self.standings(
            self.held_through(), self.format.placings)
        out.pop("standings", None)
        self._placement_points(out)
        out["provisional"] = True
        return out

    def _placement_points(self, out: dict[str, Any]) -> None:
        """Add ``placement_points`` (§2.6) to ``out`` from its champion and runners-up, when the
        event has a points table: disqualified 0, champion, runner-up, other (played), no-show."""
        pp = self.cfg.placement_points
        if pp is None:
            return
        played = self._played()
        pts = {}
        for e in self.ev.entrants:
            pid = e.entrant_id
            if e.status == "disqualified":
                pts[pid] = pp.disqualified
            elif pid == out["champion"]:
                pts[pid] = pp.champion
            elif pid in out["runner_up"]:
                pts[pid] = pp.runner_up
            else:
                pts[pid] = pp.other if pid in played else pp.no_show
        out["placement_points"] = pts

    def _played(self) -> set[str]:
        """Ids of the entrants who played a game or deal in any stage of the event."""
        got: set[str] = set()
        ms = self.s.scalars(select(MatchRow).where(MatchRow.event_id == self.ev.id))
        for m in ms:
            names = self.stage_maps[m.stage]
            for g in m.games:
                if g.status == "finished" and g.source in ("played", "entered"):
                    got.update(names[d] for d in g.seats if d not in (m.absent or []))
        return got

    def standings(self, through: int | None = None, what: Any = None) -> Any:
        """The stage's table, best first: round robin / Swiss (§2.8) points, then the tie-breaks —
        round robin: head-to-head points among the tied, Sonneborn-Berger, wins, lot; Swiss:
        Buchholz minus the lowest opponent, Buchholz, Sonneborn-Berger, wins, direct encounter,
        lot; table Swiss: table points, then total session measure, then lot. The lot (purpose
        ``lot``) shuffles the entrants still tied, sorted by draw number; equal places are never
        shared (:mod:`.standings`, the stage's :mod:`format <.formats>`).

        ``through``: count the matches of the rounds up to this one only (the standings as they
        were at its end: :meth:`held_through` while a round is being played); ``what``: the
        reading made so (default the table itself)."""
        old, self.through = self.through, through
        try:
            return (what or self.format.standings)()
        finally:
            self.through = old
