"""YAML with line numbers: the card files' parser.

Every mapping and list a card file holds remembers its line (``.line``), so that a problem
found while compiling a card names the line it is on; a mapping that repeats a key is an
error, never a value silently dropped. Apart from :mod:`.catalog` so that a process whose
shipped cards come from the cache (``catalog._cached``) never imports PyYAML, whose import
would slow every ``fr-score`` start.
"""

from __future__ import annotations

from typing import Any

import yaml

from ..errors import ScorerError, clip
from ..inputs import bound_ints, check_yaml


class _Map(dict):
    line = 0


class _List(list):
    line = 0


class _LineLoader(yaml.SafeLoader):
    """A safe loader that remembers the line of every mapping and list, and refuses a
    mapping that repeats a key."""

    source = ""


class _FastLineLoader(getattr(yaml, "CSafeLoader", _LineLoader)):  # type: ignore[misc]
    """The same loader parsing with libyaml where PyYAML has it: the same data and lines,
    several times sooner on the card files (on every start of ``fr-score`` that reads
    them). Its syntax errors say less (a tab is "a character"), so a file it
    refuses is parsed again by :class:`_LineLoader` for the message."""

    source = ""


def duplicate_key(node: yaml.MappingNode) -> tuple[str, int, int] | None:
    """(key, its line, the line where it first appeared) for the first key a mapping repeats.

    YAML itself keeps the last of two equal keys; a file a person wrote with a key twice is a
    mistake to report, never a value to drop.
    """
    seen: dict[tuple[str, str], int] = {}
    for key, _ in node.value:
        if not isinstance(key, yaml.ScalarNode):
            continue
        ident = (key.tag, str(key.value))
        line = key.start_mark.line + 1
        if ident in seen:
            return str(key.value), line, seen[ident]
        seen[ident] = line
    return None


def duplicate_key_error(node: yaml.MappingNode, source: str) -> ScorerError | None:
    """The one-line error for a repeated key in ``node``, located in ``source``."""
    dup = duplicate_key(node)
    if dup is None:
        return None
    key, line, first = dup
    return ScorerError(f"the key '{clip(key)}' appears twice (also line {first}); keep one",
                       f"{source}:{line}")


def _construct_map(loader: _LineLoader, node: yaml.MappingNode) -> _Map:
    bad = duplicate_key_error(node, loader.source)
    if bad is not None:
        raise bad
    m = _Map(loader.construct_mapping(node, deep=True))
    m.line = node.start_mark.line + 1
    return m


def _construct_seq(loader: _LineLoader, node: yaml.SequenceNode) -> _List:
    s = _List(loader.construct_sequence(node, deep=True))
    s.line = node.start_mark.line + 1
    return s


for _loader in (_LineLoader, _FastLineLoader):
    bound_ints(_loader)
    _loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_map)
    _loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_seq)


def load_yaml(text: str, source: str) -> Any:
    """Parse YAML, turning syntax errors and repeated keys into one-line errors with the line
    number; a file nested too deep or whose aliases expand too far is refused first."""
    check_yaml(text, source)
    try:
        fast = _FastLineLoader(text)
    except yaml.YAMLError:  # (a character YAML does not allow: the full loader says which)
        fast = None
    if fast is not None:
        fast.source = source
        try:
            return fast.get_single_data()
        except yaml.YAMLError:
            pass
        finally:
            fast.dispose()
    loader = None
    try:
        loader = _LineLoader(text)
        loader.source = source
        return loader.get_single_data()
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = f":{mark.line + 1}" if mark else ""
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise ScorerError(f"malformed YAML: {problem}", f"{source}{line}") from None
    finally:
        if loader is not None:
            loader.dispose()
