"""What a trick-taking game's view shows that the research tensor reads, without building the
view (``State.seen_tricks(seat, since)``; :class:`~qipai.env.tricks.TrickTensor` reads it)."""

from __future__ import annotations

from typing import Any, NamedTuple


class TrickSeen(NamedTuple):
    """One seat's part of the view that its research tensor reads:

    * ``keys``: the view's small keys the tensor reads, each with the view's value (the phase,
      the card counts, the trump, the roles, the numbers);
    * ``hand``: the seat's cards, face code → count (the view's ``hand`` counted), or
      ``None`` when they changed since ``since`` only by the seat's own plays (the faces
      appended to its ``played`` list, the last of ``public``);
    * ``trick``: the current trick, ``((seat, faces), ...)`` (the view's ``trick``);
    * ``last_trick``: the plays of the last completed trick, ``((seat, faces), ...)`` (``()``
      before the first), or ``None`` when it is the one of ``since``;
    * ``public``: for each public card list the tensor reads (shengji: ``kitty_shown``,
      ``buried``, ``captured``, ``played``), its faces past ``since``'s length (all of them
      when ``whole``); a list the seat may not see is empty;
    * ``mark``: for the next call (``since``); ``whole``: ``since`` did not continue to it;
    * ``played``: when ``hand`` is ``None``, the faces the seat has played since ``since``
      (``None``: they are the last list of ``public``, shengji's ``played``)."""

    keys: dict[str, Any]
    hand: dict[str, int] | None
    trick: tuple
    last_trick: tuple | None
    public: tuple[list[str], ...]
    mark: tuple
    whole: bool
    played: list[str] | None = None
