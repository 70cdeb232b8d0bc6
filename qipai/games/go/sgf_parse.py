"""A small SGF (FF[1]-FF[4]) parser that keeps the line and column of every property.

``parse(text)`` returns the game trees of a collection. Each :class:`Node` keeps its properties
in order; each :class:`Prop` has its identifier, its values (escapes resolved) and where it
starts, so errors can name the property and the position. Identifiers written in the old mixed
case (``AddBlack``) are reduced to their capitals as FF[4] asks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from qipai.core.errors import RecordError


@dataclass
class Prop:
    ident: str
    values: list[str]
    line: int
    col: int


@dataclass
class Node:
    props: list[Prop] = field(default_factory=list)
    line: int = 0

    def get(self, ident: str) -> Prop | None:
        for p in self.props:
            if p.ident == ident:
                return p
        return None

    def value(self, ident: str, default: str | None = None) -> str | None:
        p = self.get(ident)
        return p.values[0] if p is not None and p.values else default


@dataclass
class Tree:
    nodes: list[Node] = field(default_factory=list)
    children: list[Tree] = field(default_factory=list)

    def main_line(self) -> list[Node]:
        """The nodes of the first variation at every branch, root first."""
        out = []
        t: Tree | None = self
        while t is not None:
            out.extend(t.nodes)
            t = t.children[0] if t.children else None
        return out


class _Parser:
    def __init__(self, text: str, source: str | None) -> None:
        self.s = text
        self.i = 0
        self.line = 1
        self.line_start = 0
        self.source = source

    def error(self, reason: str, line: int | None = None, col: int | None = None, *, code: str,
              params: dict | None = None) -> RecordError:
        """The error ``reason`` (catalogue ``refusal.<code>`` with ``params``) at a column."""
        line = self.line if line is None else line
        col = (self.i - self.line_start + 1) if col is None else col
        return RecordError(f"malformed SGF at column {col}: {reason}", source=self.source, line=line,
                           code="record.sgf.malformed", params={**(params or {}), "what": code, "col": col})

    def skip_ws(self) -> None:
        s = self.s
        while self.i < len(s) and s[self.i] in " \t\r\n\f\v":
            if s[self.i] == "\n":
                self.line += 1
                self.line_start = self.i + 1
            self.i += 1

    def peek(self) -> str:
        self.skip_ws()
        return self.s[self.i] if self.i < len(self.s) else ""

    def collection(self) -> list[Tree]:
        trees = []
        if self.s.startswith("\ufeff"):
            self.i = 1
        while True:
            ch = self.peek()
            if ch == "":
                break
            if ch != "(":
                if trees:      # text after the last game tree is ignored (SGF allows it)
                    break
                raise self.error(f"expected '(' to open a game tree, found {ch!r}",
                                 code="record.sgf.no_open", params={"found": ch})
            trees.append(self.tree())
        if not trees:
            raise self.error("no game tree (an SGF file starts with '(;')", code="record.sgf.no_tree")
        return trees

    def tree(self) -> Tree:
        open_line, open_col = self.line, self.i - self.line_start + 1
        self.i += 1                                   # '('
        t = Tree()
        while self.peek() == ";":
            t.nodes.append(self.node())
        if not t.nodes:
            raise self.error("a game tree must start with a node ';'", code="record.sgf.no_node")
        while True:
            ch = self.peek()
            if ch == "(":
                t.children.append(self.tree())
            elif ch == ")":
                self.i += 1
                return t
            elif ch == "":
                raise self.error(f"the game tree opened at line {open_line}, column {open_col} "
                                 "is never closed (missing ')')",
                                 code="record.sgf.tree_open", params={"line": open_line, "column": open_col})
            else:
                raise self.error(f"unexpected {ch!r} (expected ';', '(' or ')')",
                                 code="record.sgf.unexpected", params={"found": ch})

    def node(self) -> Node:
        node = Node(line=self.line)
        self.i += 1                                   # ';'
        while True:
            ch = self.peek()
            if not ch or not ch.isalpha():
                return node
            line, col = self.line, self.i - self.line_start + 1
            start = self.i
            while self.i < len(self.s) and self.s[self.i].isalpha():
                self.i += 1
            raw = self.s[start:self.i]
            ident = "".join(c for c in raw if c.isupper())
            if not ident:
                raise self.error(f"property identifier {raw!r} has no capital letter", line, col,
                                 code="record.sgf.no_capital", params={"ident": raw})
            values = []
            while self.peek() == "[":
                values.append(self.value(ident, line, col))
            if not values:
                raise self.error(f"property {raw} has no value (expected '[')", line, col,
                                 code="record.sgf.no_value",
                                                                params={"ident": raw})
            node.props.append(Prop(ident, values, line, col))

    def value(self, ident: str, line: int, col: int) -> str:
        self.i += 1                                   # '['
        s = self.s
        out = []
        while True:
            if self.i >= len(s):
                raise self.error(f"the value of property {ident} (line {line}, column {col}) is "
                                 "never closed (missing ']')", line, col,
                                 code="record.sgf.value_open",
                                 params={"ident": ident, "line": line, "column": col})
            ch = s[self.i]
            if ch == "]":
                self.i += 1
                return "".join(out)
            if ch == "\\":
                self.i += 1
                if self.i >= len(s):
                    continue
                ch = s[self.i]
                if ch in "\r\n":                      # soft line break: removed
                    if ch == "\r" and s[self.i + 1:self.i + 2] == "\n":
                        self.i += 1
                    self.line += 1
                    self.line_start = self.i + 1
                    self.i += 1
                    continue
            if ch == "\n":
                self.line += 1
                self.line_start = self.i + 1
            out.append(ch)
            self.i += 1


def parse(text: str, source: str | None = None) -> list[Tree]:
    """The game trees of the SGF collection ``text``. Raises :class:`RecordError` naming the
    line and column of the first syntax error."""
    return _Parser(text, source).collection()


def escape(value: str) -> str:
    """``value`` with ``]`` and ``\\`` escaped for an SGF property value."""
    return value.replace("\\", "\\\\").replace("]", "\\]")
