"""The lobby home's seeks and challenges, kept in Redis so that a new home takes them over.

With several workers the seek pool and the pending challenges are served by one worker, the
lobby home (docs/deploy.md), from its memory: one process pairs the whole pool. So that they
outlive that worker, every change is written to Redis before the request that made it is
answered, and a worker that becomes the home loads them first:

* ``<cluster>:lobby:seeks`` — hash, seek id -> JSON of the :class:`.seeks.Seek` and ``done``
  (paired or given a bot, kept for its owner's next look);
* ``<cluster>:lobby:challenges`` — hash, challenge id -> the challenge (:mod:`.challenges`);
* ``<cluster>:lobby:answers`` — hash, challenge id -> the answer to it (accepted, declined,
  canceled, expired), kept for the challenger's ``GET /api/challenges`` for
  :data:`.challenges.ANSWER_KEEP` seconds.

Times are wall-clock seconds (the pool's clock is ``time.time`` on the server) so that another
process reads them right. A write is made only while the writer holds the lobby home's lease
(checked in the same script): a home that froze and lost the lease can no longer overwrite what
the new home keeps. An entry goes when the pool or the challenges drop it (expired, answered,
taken back; an answer once it is old); what the new home loads is expired at once as it would
have been.

A change made by a home that dies before answering is lost like the answer (the client asks
again). A pairing or an acceptance is written (the seeks paired, the challenge answered, with
the table's id) before the table is given to the database: a pairing whose table was not
stored when the home died is found waiting again and paired anew, such a challenge pending
again, and a table stored is always one its players are told of.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from typing import TYPE_CHECKING, Any

from .seeks import Seek, SeekPool

if TYPE_CHECKING:
    from .challenges import Challenges
    from .cluster import Cluster

log = logging.getLogger("qipai.server")

SEEKS = "{}:lobby:seeks"
CHALLENGES = "{}:lobby:challenges"
ANSWERS = "{}:lobby:answers"

#: KEYS: the lobby home's lease, a hash; ARGV: worker id, then field, value pairs (value "":
#: delete the field). Writes only while the worker holds the lease; returns 1 if it wrote.
_WRITE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
for i = 2, #ARGV, 2 do
  if ARGV[i + 1] == '' then
    redis.call('HDEL', KEYS[2], ARGV[i])
  else
    redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1])
  end
end
return 1
"""


def stored(db: Any, table_ids: list[str]) -> set[str]:
    """Those of ``table_ids`` the database holds."""
    from sqlalchemy import select

    from .models import TableRow

    return set(db.scalars(select(TableRow.id).where(TableRow.id.in_(table_ids)))) if table_ids else set()


def _seek_json(s: Seek, done: bool) -> str:
    return json.dumps({**dataclasses.asdict(s), "done": done}, separators=(",", ":"))


def _compact(value: Any) -> str:
    """``value`` as compact JSON text, "" for None (a challenge or answer gone)."""
    return "" if value is None else json.dumps(value, separators=(",", ":"))


class LobbyState:
    """The Redis side of one worker's seek pool and challenges (``cluster``: None for one
    process alone, where :meth:`save` only forgets what changed)."""

    def __init__(self, cluster: Cluster | None, pool: SeekPool, challenges: Challenges) -> None:
        self.cluster = cluster
        self.pool = pool
        self.challenges = challenges
        challenges.state = self
        if cluster is None:
            return
        from .cluster import LOBBY_HOME

        self.seeks_key = SEEKS.format(cluster.name)
        self.challenges_key = CHALLENGES.format(cluster.name)
        self.answers_key = ANSWERS.format(cluster.name)
        self.lease_key = cluster.leases.lease_key + LOBBY_HOME
        self._write = cluster.redis.register_script(_WRITE)
        cluster.on_home.append(self.load)

    async def save(self) -> None:
        """Write what changed since the last save (the seeks, challenges and answers marked
        dirty). Raises ``redis.exceptions.RedisError`` when Redis cannot be reached (the request
        fails: nothing is acknowledged that is not kept)."""
        pool, ch = self.pool, self.challenges
        seeks, pool.dirty = pool.dirty, set()
        cids, ch.dirty = ch.dirty, set()
        aids, ch.answers_dirty = ch.answers_dirty, set()
        if self.cluster is None or not (seeks or cids or aids):
            return
        wrote = 1

        def seek_row(sid: str) -> str:
            s = pool.waiting.get(sid) or pool.done.get(sid)
            return "" if s is None else _seek_json(s, sid not in pool.waiting)

        for key, ids, row in ((self.seeks_key, seeks, seek_row),
                              (self.challenges_key, cids, lambda cid: _compact(ch.by_id.get(cid))),
                              (self.answers_key, aids, lambda cid: _compact(ch.answers.get(cid)))):
            if ids:           # id, JSON text ("": gone) for each, in one script call per key
                args = [x for i in sorted(ids) for x in (i, row(i))]
                wrote &= await self._write(keys=[self.lease_key, key], args=[self.cluster.worker_id, *args])
        if not wrote:
            log.warning("cluster: seeks or challenges not kept: this worker is no longer the lobby home")

    async def load(self) -> None:
        """Become the home: the seeks and challenges as the last home left them."""
        assert self.cluster is not None
        redis = self.cluster.redis
        seeks = await redis.hgetall(self.seeks_key)
        cs = await redis.hgetall(self.challenges_key)
        answers = await redis.hgetall(self.answers_key)
        pool = self.pool
        pool.waiting.clear()
        pool.done.clear()
        for sid, raw in seeks.items():
            d = json.loads(raw)
            done = d.pop("done")
            s = Seek(**d)
            if done and s.table is None:    # its table was being made when the home died
                s.partners, done = [], False
            (pool.done if done else pool.waiting)[sid] = s
        ch = self.challenges
        ch.by_id = {cid: json.loads(raw) for cid, raw in cs.items()}
        ch.answers = {cid: json.loads(raw) for cid, raw in answers.items()}
        # a pairing or an acceptance whose table the last home never stored: not made
        accepted = {cid: a["table"] for cid, a in ch.answers.items() if a.get("pending") and a.get("table")}
        tables = sorted({s.table for s in pool.done.values() if s.table is not None} | set(accepted.values()))
        made = await self.cluster.hub.store.call(lambda db: stored(db, tables), write=False)
        pool.unpair([s for s in pool.done.values() if s.table is not None and s.table not in made])
        for cid, table in accepted.items():
            if table not in made:
                ch.unanswer(cid)
        pool.expire()
        self.challenges.expire()
        await self.save()
        log.warning("cluster: lobby home: %d seek(s), %d challenge(s) and %d answer(s) taken over",
                    len(pool.waiting) + len(pool.done), len(ch.by_id), len(ch.answers))
