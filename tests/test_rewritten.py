"""tests/rewritten.py: the test files whose rewritten modules a run caches before its workers
collect."""

from __future__ import annotations

from . import rewritten


def test_a_run_caches_its_files_and_their_conftests_and_skips_a_missing_path():
    """A path that is not there is left to pytest (which says the file is not found); caching
    it failed inside the pool and ended the run with an internal error."""
    files = rewritten.test_files(["tests/test_rewritten.py::test_x", "tests/test_no_such_file.py"])
    names = {p.name for p in files}
    assert "test_rewritten.py" in names and "conftest.py" in names
    assert "test_no_such_file.py" not in names
    assert all(p.exists() for p in files)
