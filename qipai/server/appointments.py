"""Who referees an event (competition.md §5.7): the organizers by their role, and the accounts
an organizer appoints per event (``POST /api/events/{id}/referees``); anyone else is refused 403
``not_referee``, an organizer who plays in the event ``plays_in_own_event`` (:func:`not_referee`).
A player of the event is never its referee (:func:`plays_in`), an organizer who plays in it
included (:func:`referees`). A part of :class:`~.referee.Referees`."""

from __future__ import annotations

from pydantic import Field
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from qipai.competition.acts import record_act
from qipai.competition.db import EntrantRow, EventRow, lock_row

from .auth import username_key
from .bodies import Body
from .errors import ApiError
from .models import EventRefereeRow, UserRow, now_iso
from .store import again


def plays_in(ev: EventRow | None, username: str) -> bool:
    """Whether the account ``username`` is an entrant of ``ev`` (or a member of a pair entrant).
    Such an account is never appointed the event's referee, nor does a referee enter it: a referee
    sees every table and every result of a round in play and chats at all times (competition.md
    §5.7, §5.8), which a player may not while his round is on (§6.3: not a player and a spectator
    of the same event; §6.5: no table of the round). An organizer referees every event by his role
    but one he plays in (:func:`referees`)."""
    def plays(e: EntrantRow) -> bool:
        return e.bot is None and (e.entrant_id == username or any(
            p.get("id") == username and not p.get("bot") for p in e.members or ()))
    return ev is not None and any(map(plays, ev.entrants))


def referees(s: Session, event_id: str | None, user: UserRow | None) -> bool:
    """Whether ``user`` referees event ``event_id`` (None: a table of no event): an organizer, by
    his role, of every event but one he plays in (:func:`plays_in`: there he is a player like the
    others, for the held results of his round, the chat at his table and the event's, and the
    console and the acts, §5.7, §5.8, §6.5; he still runs it: entries, rounds, appointments, which
    go by the organizer's role); an account appointed to that event. Nobody else."""
    if user is None:
        return False
    if user.role == "organizer":
        return event_id is None or not plays_in(s.get(EventRow, event_id), user.username)
    return event_id is not None and s.get(EventRefereeRow, (event_id, user.id)) is not None


def not_referee(s: Session, event_id: str, user: UserRow) -> ApiError:
    """The refusal of a console, an act or the reports to ``user``, who does not referee the
    event: an organizer who plays in it is told why (``plays_in_own_event``), anyone else
    ``not_referee``."""
    if user.role == "organizer" and plays_in(s.get(EventRow, event_id), user.username):
        return ApiError(403, "plays_in_own_event", "you play in this event, so you cannot referee it")
    return ApiError(403, "not_referee", "only the organizers and this event's referees may do this")


class Appointment(Body):
    username: str = Field(max_length=64)


class Appointments:
    """Appointments and who may act: a part of :class:`~.referee.Referees`."""

    async def _event(self, event_id: str) -> EventRow:
        def get(s: Session) -> EventRow:
            ev = s.get(EventRow, event_id)
            if ev is None:
                raise ApiError(404, "no_event", f"no event {event_id!r}")
            s.expunge(ev)
            return ev
        return await self.hub.store.call(get, write=False)

    async def referee_names(self, event_id: str) -> list[str]:
        def names(s: Session) -> list[str]:
            q = (select(UserRow.username).join(EventRefereeRow, EventRefereeRow.user_id == UserRow.id)
                 .where(EventRefereeRow.event_id == event_id).order_by(UserRow.username))
            return list(s.scalars(q))
        return await self.hub.store.call(names, write=False)

    async def may_act(self, event_id: str, user: UserRow | None) -> bool:
        """Whether ``user`` referees the event (:func:`referees`)."""
        if user is None:
            return False
        return await self.hub.store.call(lambda s: referees(s, event_id, user), write=False)

    async def need_referee(self, event_id: str, user: UserRow) -> None:
        """Refuse ``user`` who does not referee the event (:func:`not_referee`)."""
        await self._event(event_id)
        if not await self.may_act(event_id, user):
            raise await self.hub.store.call(lambda s: not_referee(s, event_id, user), write=False)

    async def appoint(self, event_id: str, by: UserRow, username: str) -> list[str]:
        """Appoint the account ``username`` referee of the event. Errors: no_event (404),
        no_user (400), already_referee (409), plays_in_event (409: an entrant of the event, or a
        member of a pair entrant, is never its referee, :func:`plays_in`; checked with the event's
        row held, as a Join checks the appointments, so that the two never both pass)."""
        await self._event(event_id)

        def add(s: Session) -> None:
            lock_row(s, EventRow, event_id)
            user = s.scalar(select(UserRow).where(UserRow.username_key == username_key(username)))
            if user is None:
                raise ApiError(400, "no_user", f"no account {username!r}", username=username)
            had = s.get(EventRefereeRow, (event_id, user.id))
            if had is not None and again() and had.appointed_by == by.username:
                return          # this request's first run, committed unanswered (Store.call)
            if had is not None:
                raise ApiError(409, "already_referee", f"{user.username} already referees this event",
                               username=user.username)
            if plays_in(s.get(EventRow, event_id), user.username):
                raise ApiError(409, "plays_in_event", f"{user.username} plays in this event: a player "
                               "of an event cannot referee it", username=user.username)
            s.add(EventRefereeRow(event_id=event_id, user_id=user.id, appointed_by=by.username,
                                  created=now_iso()))
            record_act(s, event_id, "appoint", by.username, "", user_id=by.id, entrant=user.username)
        await self.hub.store.call(add)
        return await self.referee_names(event_id)

    async def dismiss(self, event_id: str, by: UserRow, username: str) -> list[str]:
        """Withdraw a referee's appointment. Errors: no_event (404), not_a_referee (404)."""
        await self._event(event_id)

        def remove(s: Session) -> None:
            user = s.scalar(select(UserRow).where(UserRow.username_key == username_key(username)))
            gone = user is not None and s.execute(delete(EventRefereeRow).where(
                EventRefereeRow.event_id == event_id, EventRefereeRow.user_id == user.id)).rowcount
            if not gone and user is not None and again():
                return          # this request's first run, committed unanswered (Store.call)
            if not gone:
                raise ApiError(404, "not_a_referee", f"{username!r} does not referee this event",
                               username=username)
            record_act(s, event_id, "dismiss", by.username, "", user_id=by.id, entrant=user.username)
        await self.hub.store.call(remove)
        return await self.referee_names(event_id)

