"""The base of every JSON request body the server reads.

Pydantic's default (lax) mode converts what it can: ``"1"`` and ``true`` became seat 1,
``"false"`` a false ``sit``, ``1`` a true ``hide_history``. A body of the wrong type is a
client's mistake, and guessing what it meant acts on a seat or a setting it did not name, so
every request body is validated strictly: a JSON integer for an ``int`` (not a string, a
boolean or ``1.0``), a JSON boolean for a ``bool``, a string for a ``str``. A wrong type is
400 ``bad_request`` with ``problems`` naming the field, as any body of the wrong shape.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Body(BaseModel):
    """A request body: fields declared as usual; values must already have the declared JSON
    type (strict validation)."""

    model_config = ConfigDict(strict=True)
