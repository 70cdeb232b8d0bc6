"""The URL a worker relays a request to (qipai.server.relay.target): the path as the client wrote
it, percent-encoding kept, with its query; a path with a dot segment, which an HTTP client would
resolve into another route, is never relayed."""

from __future__ import annotations

from qipai.server.relay import dot_segments, target


def test_the_relayed_path_keeps_its_encoding_and_query():
    scope = {"path": "/api/bot/game/T/move/h2e2?turn=1", "raw_path": b"/api/bot/game/T/move/h2e2%3Fturn%3D1",
             "query_string": b""}
    assert target(scope) == "/api/bot/game/T/move/h2e2%3Fturn%3D1"
    scope = {"path": "/api/bot/game/T/move/\x00", "raw_path": b"/api/bot/game/T/move/%00",
             "query_string": b"turn=1"}
    assert target(scope) == "/api/bot/game/T/move/%00?turn=1"
    # without raw_path (an ASGI server that gives none): the decoded path quoted again
    assert target({"path": "/api/tables/T/a?b#c", "query_string": b""}) == "/api/tables/T/a%3Fb%23c"


def test_dot_segments_are_found_as_written():
    assert dot_segments("/api/bot/game/T/move/../../account/tokens")
    assert dot_segments("/api/tables/T/./sit")
    assert not dot_segments("/api/bot/game/T/move/..%2F..%2Faccount")     # an encoded / parts nothing
    assert not dot_segments("/api/bot/game/T/move/h2e2")
