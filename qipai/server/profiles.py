"""The players' routes: leaderboards, a player's ratings and rating history, the events they
entered, and their profile settings (hide the history).

Privacy: a player who hides their history (``PUT /api/me/settings {"hide_history": true}``) is
shown to others with their current ratings only: no game counts, rating history, events or
games (:func:`visible`); they themselves still see everything.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from qipai.competition.db import EntrantRow, EventRow

from . import auth, ratings
from .bodies import Body
from .errors import ApiError
from .eventphase import phase
from .models import UserRow


class ProfileSettings(Body):
    hide_history: bool


def find(s: Session, username: str) -> UserRow:
    """The account ``username`` (any case); 404 ``no_user``."""
    found = auth.find_user(s, username) if len(username) <= 64 else None
    if found is None:
        raise ApiError(404, "no_user", f"no user {username!r}")
    return found


def visible(s: Session, owner: UserRow, viewer: UserRow | None) -> bool:
    """May ``viewer`` (None: signed out) see ``owner``'s history?"""
    return (viewer is not None and viewer.id == owner.id) or not ratings.hides_history(s, owner.id)


def events_of(s: Session, user: UserRow, limit: int = 50) -> list[dict[str, Any]]:
    """The events ``user`` entered (alone or in a pair), newest first: ``[{"id", "name", "game",
    "status", "entrants", "stage", "current_round", "begun"}]`` (a running one's place: eventphase.py),
    a finished one with the entrant's ``place`` ``of`` the entrants (:func:`_place`)."""
    q = (select(EventRow, EntrantRow).join(EntrantRow, EntrantRow.event_id == EventRow.id)
         .where(EntrantRow.bot.is_(None),
                or_(EntrantRow.entrant_id == user.username, EntrantRow.members.isnot(None)))
         .order_by(EventRow.created.desc()))
    out: list[dict[str, Any]] = []
    for ev, ent in s.execute(q):
        # a pair's members are its two accounts by username (competition.create), as an
        # entrant's id is its account's; an individual's JSON null ``members`` is not SQL NULL,
        # so every entrant of the event comes: the player's own is the one kept
        if (ent.entrant_id != user.username if ent.members is None
                else not any(m.get("id") == user.username for m in ent.members)):
            continue
        if out and out[-1]["id"] == ev.id:
            continue
        out.append({"id": ev.id, "name": ev.name, "game": ev.game, "status": ev.status,
                    "entrants": len(ev.entrants), **phase(s, ev), **_place(ev, ent.entrant_id)})
        if len(out) >= limit:
            break
    return out


def _place(ev: EventRow, entrant: str) -> dict[str, Any]:
    """A finished event's place of ``entrant``: ``{"place", "of"}`` (its rank in the final
    standings, 1 the champion, 2 a runner-up of a knockout), or nothing when the outcome does
    not rank it (a knockout's loser before its final)."""
    out = ev.outcome if ev.status == "finished" else None
    if not out:
        return {}
    rank = next((r.get("rank") for r in out.get("standings") or [] if r.get("id") == entrant), None)
    if rank is None:
        rank = 1 if out.get("champion") == entrant else 2 if entrant in (out.get("runner_up") or []) else None
    return {} if rank is None else {"place": rank, "of": len(ev.entrants)}


def add_profile_routes(app: FastAPI, store: Any, user_of: Any, need_user: Any) -> None:
    """Add ``/api/leaderboard``, ``/api/users/{name}/ratings``, ``/api/users/{name}/events`` and
    ``/api/me/settings``."""

    @app.get("/api/leaderboard", tags=["players"])
    async def leaderboard(game: str | None = None, time_class: str | None = None,
                          limit: int = 100) -> dict[str, Any]:
        """Without ``game``: ``{"boards": [{"game", "time_class", "players"}]}``, every board
        that has ratings. With ``game`` and ``time_class`` (bullet, blitz, rapid, slow):
        ``{"game", "time_class", "players": [{"rank", "username", "rating", "deviation",
        "games", ...}]}``, the established players best first (provisional ones are left out).
        Error: bad_time_class (400)."""
        if game is None:
            return {"boards": await store.call(ratings.boards, write=False),
                    "time_classes": list(ratings.TIME_CLASSES)}
        if time_class not in ratings.TIME_CLASSES:
            raise ApiError(400, "bad_time_class", f"time_class must be one of "
                           f"{', '.join(ratings.TIME_CLASSES)}", valid=list(ratings.TIME_CLASSES))
        n = max(1, min(limit, 200))
        players = await store.call(lambda s: ratings.leaderboard(s, game[:60], time_class, n), write=False)
        return {"game": game, "time_class": time_class, "players": players}

    @app.get("/api/users/{username}/ratings", tags=["players"])
    async def user_ratings(request: Request, username: str) -> dict[str, Any]:
        """``{"username", "ratings": [{"game", "time_class", "system", "rating", "deviation",
        "games", "provisional"}], "history": [{"game", "time_class", "record", "before",
        "after", "at"}] | null, "provisional_games"}``: the current ratings, and the rating after
        each rated game (oldest first; null when the player hides their history from the viewer);
        ``provisional_games``: a rating with fewer rated games is provisional (so is one whose
        deviation is still high, :func:`.ratings.provisional`), which a page explains."""
        viewer = await user_of(request)

        def read(s: Session) -> dict[str, Any]:
            u = find(s, username)
            show = visible(s, u, viewer)
            return {"username": u.username, "ratings": ratings.ratings_of(s, u.id),
                    "history": ratings.history_of(s, u.id, viewer.id if viewer else None)
                    if show else None, "provisional_games": ratings.PROVISIONAL_GAMES}
        return await store.call(read, write=False)

    @app.get("/api/users/{username}/events", tags=["players"])
    async def user_events(request: Request, username: str) -> list[dict[str, Any]]:
        """The events the player entered, newest first. Error: history_hidden (403)."""
        viewer = await user_of(request)

        def read(s: Session) -> list[dict[str, Any]]:
            u = find(s, username)
            if not visible(s, u, viewer):
                raise ApiError(403, "history_hidden", f"{u.username} keeps their history private",
                               username=u.username)
            return events_of(s, u)
        return await store.call(read, write=False)

    @app.get("/api/me/settings", tags=["players"])
    async def get_settings(request: Request) -> dict[str, Any]:
        """The signed-in player's profile settings: ``{"hide_history": bool}``."""
        me = await need_user(request)
        return {"hide_history": await store.call(lambda s: ratings.hides_history(s, me.id), write=False)}

    @app.put("/api/me/settings", tags=["players"])
    async def put_settings(request: Request, body: ProfileSettings) -> dict[str, Any]:
        """Set the profile settings; ``hide_history``: others see only your ratings."""
        me = await need_user(request)
        await store.call(lambda s: ratings.set_hide_history(s, me.id, body.hide_history))
        return {"hide_history": body.hide_history}
