"""What a referee's console shows (``GET /api/events/{id}/console``): the event's live tables
with their clocks (on every worker: :mod:`.roundacts`), the log of acts and disputes, the games
to enter on paper or to confirm or correct, and the results a two-seat game may be given, in
words (:func:`outcomes`). A part of :class:`~.referee.Referees`."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

import qipai
from qipai.competition.acts import event_log
from qipai.competition.config import parse_config
from qipai.competition.db import EventRow

from . import roundacts

if TYPE_CHECKING:
    from .tables import LiveTable


#: result notations a referee's adjudication of a two-seat game is tried with: each game reads
#: those it knows (xiangqi, junqi 1-0 / 0-1 / 1/2-1/2; go and gomoku B+R / W+R / 0)
_OUTCOME_TEXTS = ("1-0", "0-1", "1/2-1/2", "B+R", "W+R", "0")


def outcomes(st: Any) -> list[dict[str, Any]]:
    """The results a referee may give a live two-seat game, each once: ``{"text": notation,
    "winners": [seat]}`` (no winner: a drawn game); none for other games (their results, scores
    of a deal, are typed)."""
    if st is None or st.is_terminal() or getattr(st, "num_seats", 2) != 2:
        return []
    out: dict[tuple[int, ...], str] = {}
    for text in _OUTCOME_TEXTS:
        try:
            trial = st.clone()
            trial.end_by_result_text(text, "arbiter")
        except Exception:          # a notation this game does not read
            continue
        out.setdefault(tuple(trial.result.winners), text)
    return [{"text": text, "winners": list(w)} for w, text in out.items()]


_FRESH: dict[str, list[dict[str, Any]]] = {}


def game_outcomes(game_id: str, options: dict[str, Any]) -> list[dict[str, Any]]:
    """:func:`outcomes` of a game not begun (a table whose players have not sat yet, a result to
    correct or enter on paper): the same drop-down of results in words, never a notation to type
    for a two-seat game. Kept per game and options (the console asks every few seconds)."""
    key = json.dumps([game_id, options], sort_keys=True, default=str)
    if key not in _FRESH:
        try:
            game = qipai.load(game_id, **options)
            _FRESH[key] = outcomes(game.new_state(seed=0, num_seats=2)) if 2 in game.seats else []
        except Exception:          # a game that cannot be set up here: its results typed
            _FRESH[key] = []
    return _FRESH[key]


class Console:
    """The console's data: a part of :class:`~.referee.Referees`."""

    def live_tables(self, event_id: str) -> list[LiveTable]:
        return sorted((t for t in self.hub.tables.values() if t.event_id == event_id),
                      key=lambda t: (t.event_round or 0, t.event_game or 0))

    @staticmethod
    def table_json(t: LiveTable) -> dict[str, Any]:
        r = t.runner
        st = r.state if r else None
        return {"id": t.id, "game": t.game_id, "round": t.event_round, "event_game": t.event_game,
                "status": t.status, "names": [s["name"] if s else None for s in t.seats],
                "bots": [bool(s and s.get("bot")) for s in t.seats],
                # the seats whose person has come to the table of a game not started (§5.6)
                "ready": sorted(t.ready_seats),
                "paused": t.referee_paused(),
                "clocks": r.clock_state() if r else [], "now": r.time.now() if r else None,
                "game_limit": r.game_limit_state() if r else None,
                # a paused table's countdowns stand at the moment of the pause
                "paused_at": r.paused_at if r else None,
                "to_act": list(st.to_act) if st is not None and not st.is_terminal() else [],
                "moves": len(st.log) if st is not None else 0,
                "replay_of": t.settings.get("replay_of") or [],
                "count": bool(st is not None and callable(getattr(st, "forced_count", None))),
                "outcomes": outcomes(st) if st is not None else game_outcomes(t.game_id, t.options)}

    async def log(self, event_id: str) -> list[dict[str, Any]]:
        """The event's log of referee acts and disputes, oldest first."""
        return await self.hub.store.call(lambda s: event_log(s, event_id), write=False)

    async def console(self, event_id: str) -> dict[str, Any]:
        """What a referee's console shows: the live tables with their clocks, the event's log,
        the disputes (open ones first), the pending games with no table (to enter results of
        games played on paper), the finished results (to confirm or correct), the entrants and the
        referees."""
        from .referee import ACTS  # the module that makes the referee of these parts

        log = await self.log(event_id)
        ruled = {e["data"].get("dispute"): e for e in log if e["act"] == "ruling"}
        disputes = [{**e, "open": e["id"] not in ruled,
                     "ruling": ({k: ruled[e["id"]][k] for k in ("by", "reason", "data")}
                                if e["id"] in ruled else None)}
                    for e in log if e["act"] == "dispute"]
        ev = await self.service.read("describe", event_id)
        paper = [{"id": g["id"], "round": r["round"], "match": m["index"], "number": g["number"],
                  "seats": g["seats"]}
                 for r in ev["rounds"] for m in r["matches"] for g in m["games"]
                 if g["status"] == "pending" and not g["table"]]
        # finished results a referee may confirm or correct (§5.7); a forfeit has no result to correct
        results = [{"id": g["id"], "round": r["round"], "match": m["index"], "number": g["number"],
                    "seats": g["seats"], "result": g["result"], "winners": g["winners"],
                    "confirmed": g["confirmed"], "standing": g["standing"],
                    "confirmed_by": g["confirmed_by"], "corrections": g["corrections"]}
                   for r in ev["rounds"] for m in r["matches"] for g in m["games"]
                   if g["status"] == "finished" and g["source"] != "forfeit"]
        def kinds(s: Session) -> tuple[list[str], dict[str, Any]]:
            row = s.get(EventRow, event_id)
            cfg = parse_config(row.preset, row.config)
            kinds = [k for k, r in cfg.penalties.items() if r.source == "referee"]
            return kinds, (cfg.game_id, cfg.game_options)
        penalty_kinds, (game_id, options) = await self.hub.store.call(kinds, write=False)
        return {"event": {"id": ev["id"], "name": ev["name"], "game": ev["game"], "status": ev["status"],
                          "preset": ev["preset"], "started_round": ev["started_round"],
                          "current_round": ev["current_round"], "begun": ev["begun"],
                          "playing": ev["playing"],
                          "stage": ev["stage"], "entrants": len(ev["entrants"])},
                "tables": await roundacts.tables_everywhere(self.hub, event_id, self.table_json,
                                                            self.live_tables(event_id)),
                "log": log, "disputes": sorted(disputes, key=lambda d: (not d["open"], -d["id"])),
                "paper": paper, "results": results, "entrants": ev["entrants"],
                # a two-seat game's results in words, for a result entered or corrected
                "outcomes": game_outcomes(game_id, options),
                "referees": await self.referee_names(event_id),
                "acts": list(ACTS), "penalty_kinds": penalty_kinds}

