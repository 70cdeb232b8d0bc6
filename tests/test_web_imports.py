"""The page modules (qipai/server/web) are plain ES modules loaded by the browser: a function
called but neither imported nor defined in a module is a ReferenceError that stops the page at
run time. This reads every module and checks that each shared function it calls (an export of
another page module) is imported or defined there."""

from __future__ import annotations

import re
from pathlib import Path

WEB = Path(__file__).resolve().parent.parent / "qipai" / "server" / "web"
EXPORT = re.compile(r"^export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+([A-Za-z_$][\w$]*)", re.M)
IMPORT = re.compile(r"import\s*\{([^}]*)\}\s*from", re.S)
# a local definition: a destructured or declared name, a parameter, an arrow's argument
LOCAL = (r"(?:[{,]\s*{n}\s*[,}:]|function\*?\s+{n}\b|(?:const|let|var|class)\s+{n}\b"
         r"|[(,]\s*{n}\s*[,)=]|\b{n}\s*=>)")


def modules() -> list[Path]:
    return sorted(WEB.glob("*.js")) + sorted((WEB / "boards").glob("*.js"))


def exported() -> dict[str, Path]:
    names: dict[str, Path] = {}
    for p in modules():
        for n in EXPORT.findall(p.read_text(encoding="utf-8")):
            names.setdefault(n, p)
    return names


def test_every_shared_function_a_module_calls_is_imported_or_its_own():
    shared = exported()
    assert "paren" in shared and "t" in shared          # the reader sees the modules
    missing = []
    for p in modules():
        src = p.read_text(encoding="utf-8")
        code = re.sub(r"//[^\n]*|/\*.*?\*/", "", src, flags=re.S)
        imported = {part.split(" as ")[-1].strip() for group in IMPORT.findall(code)
                    for part in group.split(",") if part.strip()}
        own = set(EXPORT.findall(code))
        for name, home in shared.items():
            if home == p or name in imported or name in own or len(name) < 3:
                continue
            if not re.search(rf"(?<![\w$.]){re.escape(name)}\s*\(", code):
                continue
            if re.search(LOCAL.replace("{n}", re.escape(name)), code):
                continue
            missing.append(f"{p.relative_to(WEB)} calls {name}() from {home.name} without importing it")
    assert missing == []
