"""Where an event is, for every page that names its state (the event list, a player's events,
the event's own page): its stage, its latest round and whether that round has begun. The pages
turn it into the one set of words (web/eventstatus.js): Entries open / Round 1 not started yet /
Semi-finals in play / Finished. An event whose draw is made is "running" in the database from
then on, before any game of its first round is played; "running" alone is never shown."""

from __future__ import annotations

from typing import Any

from sqlalchemy import exists, select
from sqlalchemy.orm import Session

from qipai.competition.db import EventRow, GameRow, MatchRow
from qipai.competition.event import Director

from .models import TableRow


def phase(s: Session, ev: EventRow, d: Director | None = None) -> dict[str, Any]:
    """``{"stage", "current_round", "begun", "playing"}`` of ``ev``: ``begun`` when its organizer
    started the latest round, or one of that round's games has a table or is finished (played
    elsewhere, ``qipai event run``, or entered); ``playing`` when one of them has started (its
    table's players all sat) or is finished: begun but not playing, the round waits for its
    players. An event not running (in registration, finished) has no
    stage and round 0 here: its status says where it is."""
    if ev.status != "running":
        return {"stage": None, "current_round": 0, "begun": False, "playing": False}
    d = d or Director(s, ev)
    rnd = d.current_round()
    games = (select(GameRow.id).join(MatchRow, GameRow.match_id == MatchRow.id)
             .where(MatchRow.event_id == ev.id, MatchRow.round == rnd))
    finished = bool(s.scalar(select(exists(games.where(GameRow.status == "finished")))))
    # a table whose players have all sat has started its game (status playing or finished)
    playing = finished or bool(s.scalar(select(exists().where(
        TableRow.event_game.in_(games), TableRow.status != "open"))))
    begun = ((ev.started_round or 0) >= rnd > 0 or playing
             or bool(s.scalar(select(exists().where(TableRow.event_game.in_(games))))))
    return {"stage": d.stage, "current_round": rnd, "begun": begun, "playing": playing}
