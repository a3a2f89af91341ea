"""Random bytes and random YAML to every reader of the user's input (issue 41, "done when"):
hand files, share codes and links, table files, card files, Majesty files and the web API's
bodies. Whatever they are given, they answer with a one-line error (``ScorerError``,
Majesty's ``InputError``, a 4xx ``{"detail": …}``) or a result, never another exception.

No reader here scores or searches: reading stops before the searches, so the examples are
cheap. The example counts are kept modest (``EXAMPLES``) for the shared test machine.
"""

from __future__ import annotations

import json
import string

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fantasy_scorer.errors import ScorerError
from fantasy_scorer.majesty.gamefile import (
    InputError,
    parse_replay_log,
    parse_score_file,
    parse_yaml,
)
from fantasy_scorer.realms.catalog import Catalog, base_catalog, decode_utf8, load_into
from fantasy_scorer.realms.formats.handfile import read_hand
from fantasy_scorer.realms.formats.pool import pool_from_share
from fantasy_scorer.realms.formats.sharecode import read_share
from fantasy_scorer.realms.formats.table import read_table

#: Examples per reader and kind of input.
EXAMPLES = 150
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

CAT = base_catalog()
NAMES = [c.name for c in CAT.cards[:20]] + [c.id for c in CAT.cards[:10]]
#: Cards that make no choice: a whole hand of them is scored without a search.
PLAIN = [c.name for c in CAT.cards if c.choice is None and c.extra is None][:20]
WORDS = NAMES + ["players", "expansion", "edition", "none", "->", "[discard]", "[cursed items]",
                 "hands", "discard", "cards", "suits", "aliases", "also", "strength", "points",
                 "per", "id", "name", "suit", "bonus", "penalty", "side", "realm", "take",
                 "seed", "moves", "player", "&a", "*a", "²", "9" * 30, "-1", "1e26", "~",
                 "Beast", "Flood", "{", "}", "[", "]", ":", ",", "#", "'", '"', "\t"]

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30),
                    st.floats(allow_nan=True), st.sampled_from(WORDS), st.text(max_size=12))
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=5),
                            st.dictionaries(st.sampled_from(WORDS) | st.text(max_size=6),
                                            inner, max_size=5)),
    max_leaves=25)
yaml_docs = values.map(lambda v: yaml.safe_dump(v, allow_unicode=True))
token_text = st.lists(st.sampled_from(WORDS + [" ", "\n", "  ", "\n- ", ": "]),
                      max_size=40).map("".join)
texts = st.one_of(st.text(max_size=200), token_text, yaml_docs,
                  st.binary(max_size=200).map(lambda b: b.decode("utf-8", "replace")))


def one_line(err: Exception) -> None:
    assert "\n" not in str(err), str(err)


def read_or_error(read, *errors: type[Exception]) -> None:
    """Run one reader: a result, or one of ``errors`` in one line."""
    try:
        read()
    except (ScorerError, *errors) as e:
        one_line(e)


@FUZZ
@given(st.binary(max_size=300))
def test_random_bytes_are_text_or_one_line(data: bytes) -> None:
    read_or_error(lambda: read_hand(decode_utf8(data, "fuzz"), "fuzz", CAT))


@FUZZ
@given(texts)
def test_hand_files(text: str) -> None:
    read_or_error(lambda: read_hand(text, "fuzz", CAT))


@FUZZ
@given(st.one_of(texts, st.lists(st.sampled_from(
    [c.id for c in CAT.cards] + ["+", ",", ":", "none", "beast", "https://x/?hand=",
     "&playerCount=", "&discard=", "&expansions=", "ch_items", "9" * 40, "&lang=de", "%2B"]),
    max_size=20).map("".join)))
def test_share_codes_and_links(text: str) -> None:
    read_or_error(lambda: read_share(text, CAT))
    read_or_error(lambda: pool_from_share(text))


@FUZZ
@given(st.one_of(texts, st.fixed_dictionaries(
    {"hands": st.dictionaries(st.sampled_from(["A", "B", "C"]),
                              st.lists(st.sampled_from(NAMES), max_size=9), max_size=3)},
    optional={"players": scalars, "discard": values, "expansion": scalars})
    .map(lambda v: yaml.safe_dump(v, allow_unicode=True))))
def test_table_files(text: str) -> None:
    read_or_error(lambda: read_table(text, "fuzz.yaml"))


card = st.fixed_dictionaries(
    {"id": st.sampled_from(["HB1", "HB2"]), "name": st.sampled_from(["Wyrm", "Newt"])},
    optional={"suit": scalars, "also": values, "strength": scalars, "bonus": values,
              "penalty": values, "copy": values, "clears": values, "extra_card": values})


@FUZZ
@given(st.one_of(texts, st.fixed_dictionaries(
    {"cards": st.lists(card, max_size=3)},
    optional={"suits": values, "aliases": values, "game": scalars, "hand_size": scalars})
    .map(lambda v: yaml.safe_dump(v, allow_unicode=True))))
def test_card_files(text: str) -> None:
    def read() -> None:
        cat = Catalog(suits=list(CAT.suits))
        load_into(cat, text, "fuzz.yaml")

    read_or_error(read)


majesty_player = st.fixed_dictionaries(
    {"name": st.sampled_from(["Ann", "Bob"])},
    optional={"points": scalars, "realm": values, "meeples": scalars})


@FUZZ
@given(st.one_of(texts, st.fixed_dictionaries(
    {"side": st.sampled_from(["A", "B", "ABABABAB", "C"]),
     "players": st.lists(majesty_player, max_size=3)})
    .map(lambda v: yaml.safe_dump(v, allow_unicode=True))))
def test_majesty_game_files(text: str) -> None:
    read_or_error(lambda: parse_score_file(parse_yaml(text, "fuzz"), False, False),
                  InputError)


@FUZZ
@given(st.one_of(texts, st.fixed_dictionaries(
    {"players": st.just(["Ann", "Bob"]), "side": st.just("A"),
     "moves": st.lists(st.fixed_dictionaries({"player": st.sampled_from(["Ann", "Bob"]),
                                              "take": scalars}), max_size=3)},
    optional={"seed": scalars, "deck": values})
    .map(lambda v: yaml.safe_dump(v, allow_unicode=True))))
def test_majesty_replay_logs(text: str) -> None:
    read_or_error(lambda: parse_replay_log(parse_yaml(text, "fuzz")), InputError)


# -- the web API's bodies --------------------------------------------------------------------

_client = None


def client():
    global _client
    if _client is None:
        from fastapi.testclient import TestClient

        from fantasy_scorer.web.app import create_app

        _client = TestClient(create_app())
    return _client


json_bodies = st.one_of(
    st.binary(max_size=200),
    st.text(alphabet=string.printable, max_size=200).map(str.encode),
    st.fixed_dictionaries({}, optional={
        "cards": st.lists(st.sampled_from(PLAIN) | scalars, max_size=9),
        "choices": st.dictionaries(st.sampled_from(NAMES), st.sampled_from(NAMES) | scalars,
                                   max_size=3),
        "players": scalars, "discard": values, "cursed": values, "lang": scalars,
        "optimize": scalars, "expansion": scalars}).map(
        lambda v: json.dumps(v, allow_nan=True).encode()),
)


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(json_bodies, st.sampled_from(["/api/score", "/api/explain"]))
def test_the_apis_bodies_are_answered_or_refused_in_one_line(body: bytes, path: str) -> None:
    r = client().post(path, content=body, headers={"content-type": "application/json"})
    assert r.status_code < 500, r.text
    if r.status_code >= 400:
        detail = r.json()["detail"]
        assert isinstance(detail, str) and "\n" not in detail
