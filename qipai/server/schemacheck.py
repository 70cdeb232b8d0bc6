"""Whether the database's schema is the one the server's models expect (a test of last resort).

The store asks it when the database refuses a batch with an error that may come from the schema
rather than from the values written (``ProgrammingError``, ``DataError``; :func:`.commit.write_or_refuse`):
a column missing after a bad migration, a table missing, a column of another kind or shorter
than the model's. Such a batch is not a bad write to leave out but storage failing (reported,
retried, nothing dropped) until the schema is mended. Only what can be read back from the
database is compared: the tables and columns of the models' metadata, each column's kind
(whole number, text, JSON...) and a text column's length.
"""

from __future__ import annotations

from sqlalchemy import inspect
from sqlalchemy.engine import Engine
from sqlalchemy.types import NullType, String, TypeEngine

from qipai.competition.db import Base


def mismatch(engine: Engine) -> list[str]:
    """What differs between the database's schema and the models (empty: nothing found), each
    said in a few words (``column actions.data is missing``)."""
    from . import models  # noqa: F401 - the server's tables in Base's metadata

    insp = inspect(engine)
    present = set(insp.get_table_names())
    out: list[str] = []
    for table in Base.metadata.sorted_tables:
        if table.name not in present:
            out.append(f"table {table.name} is missing")
            continue
        stored = {c["name"]: c["type"] for c in insp.get_columns(table.name)}
        for col in table.columns:
            got = stored.get(col.name)
            if got is None:
                out.append(f"column {table.name}.{col.name} is missing")
            elif not fits(col.type, got):
                out.append(f"column {table.name}.{col.name} is {got}, not {col.type}")
    return out


def fits(model: TypeEngine, stored: TypeEngine) -> bool:
    """Whether a column stored as ``stored`` holds what the model's ``model`` type does: the
    same kind, and a text at least as long (a kind the database does not name is not judged)."""
    if isinstance(stored, NullType):
        return True
    if model._type_affinity is not stored._type_affinity:
        return False
    if isinstance(model, String) and isinstance(stored, String) and model.length and stored.length:
        return stored.length >= model.length
    return True
