"""The seats of 升级: four, in two partnerships (seats 0 + 2 and 1 + 3)."""

SEATS = 4


def team_of(seat: int) -> int:
    """The partnership of ``seat``: 0 (seats 0 and 2) or 1 (seats 1 and 3)."""
    return seat % 2
