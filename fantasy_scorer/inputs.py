"""What a user gives, read within bounds: whole numbers, the size of an input, YAML's shape.

Every reader of the user's input (hand files, share codes and links, table files, card files,
Majesty files, the web API's bodies and the page's queries) reads its numbers, its bytes and
its YAML through these functions, so that an exotic digit (``players: ²``), a number of 5,000
digits, YAML nested 5,000 deep, a "billion laughs" of YAML aliases or ``/dev/zero`` is one line
naming the problem and the fix, never a traceback, a hang or a process the kernel kills.

This module stands beside :mod:`.errors` (it imports nothing else of the package), so that the
rules, the formats, Majesty, the web page and the command line share one reader.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .errors import ScorerError, clip

#: The most digits a whole number may have (a 64-bit integer holds 18 of them whole).
MAX_DIGITS = 18
#: The most bytes any input file (or standard input) may hold: a hand file is a few hundred
#: bytes, the shipped card files a few kilobytes each.
MAX_INPUT_BYTES = 1024 * 1024
#: The deepest nesting of mappings and lists a YAML input may have (a card is six deep).
MAX_YAML_DEPTH = 32
#: The most nodes a YAML input may hold once its aliases are expanded.
MAX_YAML_NODES = 200_000

_WHOLE = re.compile(r"[+-]?[0-9]+")  # ASCII digits only: str.isdigit() takes '²' and '٣'


def _range(lo: int | None, hi: int | None) -> str:
    if lo is not None and hi is not None:
        return f" from {lo} to {hi}"
    if lo is not None:
        return f" of at least {lo}"
    if hi is not None:
        return f" of at most {hi}"
    return ""


def in_range(value: int, what: str, lo: int | None = None, hi: int | None = None,
             where: str | None = None) -> int:
    """``value`` when it lies within ``lo`` .. ``hi`` (either may be None: no bound), else a
    one-line error naming ``what`` and its range."""
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        shown = str(value) if value.bit_length() < 100 else "a number that large"
        raise ScorerError(f"{what} must be a whole number{_range(lo, hi)}, got {shown}", where)
    return value


def whole_number(text: str, what: str, lo: int | None = None, hi: int | None = None,
                 where: str | None = None) -> int:
    """The whole number written in ``text`` (ASCII digits, an optional sign, spaces around),
    within ``lo`` .. ``hi``; anything else (``²``, ``4.0``, 5,000 digits) is a one-line error
    naming ``what``, never a ValueError."""
    s = str(text).strip()
    if not _WHOLE.fullmatch(s):
        raise ScorerError(f"{what} must be a whole number{_range(lo, hi)}, got '{clip(s)}'",
                          where)
    digits = s.lstrip("+-").lstrip("0")
    if len(digits) > MAX_DIGITS:
        raise ScorerError(f"{what} must be a whole number{_range(lo, hi)}, got a number of "
                          f"{len(digits)} digits", where)
    return in_range(int(s), what, lo, hi, where)


def whole_value(value: Any, what: str, lo: int | None = None, hi: int | None = None,
                where: str | None = None) -> int:
    """An already parsed value (YAML's, JSON's) that must be a whole number in range: a bool,
    a float or a text is a one-line error."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScorerError(f"{what} must be a whole number{_range(lo, hi)}, got "
                          f"{clip(repr(value))}", where)
    return in_range(value, what, lo, hi, where)


def read_limited(read: Callable[[int], bytes], source: str,
                 limit: int = MAX_INPUT_BYTES) -> bytes:
    """At most ``limit`` bytes through ``read`` (a file's or a stream's ``read``); more is a
    one-line error, found after reading one byte past the limit, never the whole of
    ``/dev/zero``."""
    data = read(limit + 1)
    if len(data) > limit:
        raise ScorerError(f"the input is larger than {limit // 1024} KB; a hand, table or card "
                          "file is far smaller: check the file name", source)
    return data


def check_yaml(text: str, source: str, max_depth: int = MAX_YAML_DEPTH,
               max_nodes: int = MAX_YAML_NODES) -> None:
    """Refuse YAML nested deeper than ``max_depth`` or holding more than ``max_nodes`` nodes
    once its aliases are expanded (an alias of an alias of … doubles the work at each
    level), before any loader builds it: the event parser is iterative, so neither depth nor
    aliases cost more than the text's length here. A syntax error is left to the loader, whose
    message says more."""
    import yaml  # (PyYAML only where YAML is read)

    fast = getattr(yaml, "CSafeLoader", None)
    for loader in ([fast] if fast else []) + [yaml.SafeLoader]:
        try:
            _walk(yaml.parse(text, Loader=loader), source, max_depth, max_nodes)
            return
        except yaml.YAMLError:
            continue  # libyaml stops at 1,000 levels with a syntax error: Python's parser
            # then reads the events to the depth this tool refuses; its own syntax errors
            # are left to the loader, whose message says more


def _walk(events: Any, source: str, max_depth: int, max_nodes: int) -> None:
    import yaml

    sizes: list[int] = []  # expanded nodes so far in each open collection
    names: list[str | None] = []  # the anchor of each open collection
    anchors: dict[str, int] = {}  # anchor -> expanded nodes of its node
    expanded = 0
    for event in events:
        line = f"{source}:{event.start_mark.line + 1}" if event.start_mark else source
        if isinstance(event, yaml.CollectionStartEvent):
            if len(sizes) >= max_depth:
                raise ScorerError(f"the YAML nests deeper than {max_depth} levels; a file "
                                  "of this tool needs a few", line)
            sizes.append(1)
            names.append(event.anchor)
            expanded += 1
            continue
        if isinstance(event, yaml.CollectionEndEvent):
            size = sizes.pop()
            anchor = names.pop()
            if anchor is not None:
                anchors[anchor] = size
        elif isinstance(event, yaml.ScalarEvent):
            size = 1
            expanded += 1
            if event.anchor is not None:
                anchors[event.anchor] = 1
        elif isinstance(event, yaml.AliasEvent):
            size = anchors.get(event.anchor, 1)
            expanded += size
        else:
            continue
        if expanded > max_nodes:
            raise ScorerError(f"the YAML's aliases (*name) expand to more than {max_nodes} "
                              "values; write the values out or use fewer aliases", line)
        if sizes:
            sizes[-1] += size


def construct_int(loader: Any, node: Any) -> int:
    """YAML's integer constructor with a bound on the digits: PyYAML's own raises a bare
    ValueError past 4,300 digits (Python's limit on converting text to int)."""
    import yaml

    digits = str(node.value).replace("_", "").lstrip("+-")
    if len(digits.lstrip("0")) > MAX_DIGITS + 2:  # (a '0x' or '0o' prefix is two more)
        raise yaml.constructor.ConstructorError(
            None, None, f"a number of {len(digits)} digits; a number here has at most "
                        f"{MAX_DIGITS}", node.start_mark)
    return yaml.constructor.SafeConstructor.construct_yaml_int(loader, node)


def bound_ints(loader_class: Any) -> Any:
    """``loader_class`` with :func:`construct_int` for YAML's integers (returned, so that it
    can decorate a class)."""
    loader_class.add_constructor("tag:yaml.org,2002:int", construct_int)
    return loader_class
