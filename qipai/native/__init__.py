"""Compiled builds of the hot modules, used only when built from the source now on disk.

The Python source stays the single truth: ``python -m qipai.native build`` compiles the modules
of :data:`GROUPS` with mypyc (part of mypy, installed by the ``dev`` extra; it needs a C
compiler) into ``qipai/_native/<group>/``, away from the source, and records a SHA-256 of each
module's ``.py``. At ``import qipai`` :func:`install` puts a finder first on ``sys.meta_path``
that answers for a group's modules with its compiled files only while every module of the group
still hashes as recorded (a group is compiled as one unit: its modules call each other
natively), for this interpreter's extension suffix; otherwise, or with no build, or with
``QIPAI_PURE=1`` in the environment, the pure modules are imported as always.

    python -m qipai.native build [GROUP ...]   # compile (every group by default)
    python -m qipai.native status              # which groups are built, fresh, in use
    python -m qipai.native clean               # remove the builds
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

#: group name -> the modules compiled together (the profiles of benchmarks/mahjong_fan.py and
#: benchmarks/doudizhu.py name them)
GROUPS: dict[str, tuple[str, ...]] = {
    "fans": (
        "qipai.games.mahjong_gb.fans",
        "qipai.games.mahjong_gb.splits",
        "qipai.games.mahjong_gb.tilefans",
        "qipai.games.mahjong_gb.exclusions",
        "qipai.games.mahjong_gb.winning",
        "qipai.games.mahjong_gb.combos",
        "qipai.games.mahjong_gb.special",
        "qipai.tiles.shapes",
    ),
    # the legal plays (combos) and the state with its deal and bidding (game, bidding: mypyc
    # classes holding their attributes in C fields). qipai.core.rng (the deal's shuffle) would
    # gain ~2 % of a game, and every game's states hold its DealRng: left pure
    "doudizhu": ("qipai.games.doudizhu.combos", "qipai.games.doudizhu.bidding",
                 "qipai.games.doudizhu.game"),
    # the research env's kept tensor of the climbing games (doudizhu, wakeng, fouafour,
    # baohuang): one observation's work, item by item, and the plays and bids their states'
    # seen forms and views give (benchmarks/env_speed.py)
    "climbing": ("qipai.env.climbkept", "qipai.cards.playtext"),
}

#: group name -> modules read but not compiled whose ``Final`` constants mypyc writes into the
#: group's C: a change to them makes the build stale too
INLINED: dict[str, tuple[str, ...]] = {"fans": ("qipai.games.mahjong_gb.fantable",)}


def hashed(group: str) -> tuple[str, ...]:
    """The modules whose sources a build of ``group`` must match: its own and :data:`INLINED`."""
    return GROUPS[group] + INLINED.get(group, ())


ROOT = Path(__file__).resolve().parents[2]     # the folder holding the qipai package
NATIVE_DIR = ROOT / "qipai" / "_native"
MANIFEST = "manifest.json"
# mypy's own checks are the compile's input: imported modules are read for their types only
MYPY_FLAGS = ("--follow-imports=silent", "--ignore-missing-imports")


def source(module: str, root: Path = ROOT) -> Path:
    """The ``.py`` file of ``module`` under ``root``."""
    return root.joinpath(*module.split(".")).with_suffix(".py")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def lib_name(group: str) -> str:
    """The top-level name of a group's shared runtime library (mypyc's ``group_name``)."""
    return f"qipai_native_{group}__mypyc"


class NativeFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled file of a module of a fresh group (see the module's text); ``None``
    (the next finder: the pure module) for anything else."""

    def __init__(self, native_dir: Path = NATIVE_DIR, root: Path = ROOT) -> None:
        self.native_dir = native_dir
        self.root = root
        self.group_of: dict[str, str] = {}
        for group, modules in GROUPS.items():
            for m in modules:
                self.group_of[m] = group
            self.group_of[lib_name(group)] = group
        self._files: dict[str, dict[str, Path] | None] = {}

    def files(self, group: str) -> dict[str, Path] | None:
        """Module name -> compiled file of a fresh build of ``group``; ``None`` when there is no
        build, it is for another interpreter, or a module's source differs from the build's."""
        if group not in self._files:
            self._files[group] = self._check(group)
        return self._files[group]

    def _check(self, group: str) -> dict[str, Path] | None:
        where = self.native_dir / group
        try:
            manifest = json.loads((where / MANIFEST).read_text())
            if manifest["suffix"] != importlib.machinery.EXTENSION_SUFFIXES[0]:
                return None
            if set(manifest["sources"]) != set(hashed(group)):
                return None
            for module, sha in manifest["sources"].items():
                if digest(source(module, self.root)) != sha:
                    return None
            out = {name: where / rel for name, rel in manifest["files"].items()}
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return out if all(p.is_file() for p in out.values()) else None

    def find_spec(self, fullname, path=None, target=None):
        group = self.group_of.get(fullname)
        if group is None:
            return None
        files = self.files(group)
        if files is None or fullname not in files:
            return None
        return importlib.util.spec_from_file_location(fullname, files[fullname])


def install() -> NativeFinder | None:
    """Put the finder first on ``sys.meta_path`` (once), unless ``QIPAI_PURE=1``."""
    if os.environ.get("QIPAI_PURE") == "1":
        return None
    for f in sys.meta_path:
        if isinstance(f, NativeFinder):
            return f
    finder = NativeFinder()
    sys.meta_path.insert(0, finder)
    return finder


def compiled(module: str) -> bool:
    """Whether the imported ``module`` is a compiled build (imports it)."""
    mod = importlib.import_module(module)
    return any(str(getattr(mod, "__file__", "")).endswith(s) for s in importlib.machinery.EXTENSION_SUFFIXES)


# --- the build -------------------------------------------------------------------------------

_SETUP = """
import sys
from setuptools import setup
from mypyc.build import mypycify
group, out, tmp, *paths = sys.argv[1:]
setup(name="qipai-native-" + group, script_args=["build_ext", "--build-lib", out, "--build-temp", tmp],
      ext_modules=mypycify(paths, group_name="qipai_native_" + group, target_dir=tmp))
"""


def build(groups: Sequence[str] = tuple(GROUPS), quiet: bool = True) -> dict[str, float]:
    """Compile ``groups`` (in parallel, one process each) into :data:`NATIVE_DIR`; returns the
    wall seconds of each. Raises ``RuntimeError`` with the compiler's output when one fails."""
    NATIVE_DIR.mkdir(exist_ok=True)
    (NATIVE_DIR / ".gitignore").write_text("*\n")
    jobs = {}
    for group in groups:
        modules = GROUPS[group]
        sources = {m: digest(source(m)) for m in hashed(group)}   # before the compiler reads them
        tmp = Path(tempfile.mkdtemp(prefix=f"qipai-native-{group}-"))
        out = NATIVE_DIR / f".new-{group}"
        shutil.rmtree(out, ignore_errors=True)
        paths = [*MYPY_FLAGS, *(str(source(m)) for m in modules)]
        # a fresh folder as the working directory: no project file or mypy cache is read there
        proc = subprocess.Popen([sys.executable, "-c", _SETUP, group, str(out), str(tmp), *paths],
                                cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        jobs[group] = (proc, sources, tmp, out, time.monotonic())
    took = {}
    failed = []
    for group, (proc, sources, tmp, out, start) in jobs.items():
        log, _ = proc.communicate()
        took[group] = time.monotonic() - start
        shutil.rmtree(tmp, ignore_errors=True)
        if proc.returncode:
            failed.append(f"{group}:\n{log}")
            continue
        if not quiet:
            print(log)
        suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
        names = [*GROUPS[group], lib_name(group)]
        files = {name: str(Path(*name.split(".")).with_suffix("")) + suffix for name in names}
        missing = [f for f in files.values() if not (out / f).is_file()]
        if missing:
            failed.append(f"{group}: the build made no {', '.join(missing)}:\n{log}")
            continue
        (out / MANIFEST).write_text(json.dumps({
            "suffix": suffix, "sources": sources, "files": files,
            "mypy": _mypy_version(), "seconds": round(took[group], 1)}, indent=1))
        final = NATIVE_DIR / group
        shutil.rmtree(final, ignore_errors=True)
        out.rename(final)
    if failed:
        raise RuntimeError("native build failed: " + "\n".join(failed))
    return took


def _mypy_version() -> str:
    from importlib.metadata import version

    return version("mypy")


def status() -> dict[str, str]:
    """Each group's state: ``not built``, ``stale`` (a source changed, or another Python),
    ``fresh``; with ``QIPAI_PURE=1`` every group reads ``pure (QIPAI_PURE=1)``."""
    if os.environ.get("QIPAI_PURE") == "1":
        return {g: "pure (QIPAI_PURE=1)" for g in GROUPS}
    finder = NativeFinder()
    out = {}
    for g in GROUPS:
        if not (NATIVE_DIR / g / MANIFEST).is_file():
            out[g] = "not built"
        else:
            out[g] = "fresh" if finder.files(g) is not None else "stale"
    return out


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m qipai.native", description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=("build", "status", "clean"))
    ap.add_argument("groups", nargs="*", help=f"of {', '.join(GROUPS)} (default: all)")
    ap.add_argument("--check", action="store_true",
                    help="status: exit 1 unless every group is fresh and in use")
    args = ap.parse_args(argv)
    unknown = set(args.groups) - set(GROUPS)
    if unknown:
        ap.error(f"no group {', '.join(sorted(unknown))} (groups: {', '.join(GROUPS)})")
    args.groups = args.groups or list(GROUPS)
    if args.command == "build":
        for group, seconds in build(args.groups).items():
            print(f"{group}: compiled in {seconds:.0f} s")
        return 0
    if args.command == "clean":
        shutil.rmtree(NATIVE_DIR, ignore_errors=True)
    states = status()
    ok = True
    for group in args.groups:
        # in use: the modules this process imported are the compiled ones
        used = all(compiled(m) for m in GROUPS[group]) if states[group] == "fresh" else False
        ok &= used
        print(f"{group}: {states[group]}{', in use' if used else ''}")
    return 1 if args.check and not ok else 0
