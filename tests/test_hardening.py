"""The audit's ways to crash, hang or hold down the command line (issue 41), each with the
input the issue gives: one ``Error:`` line naming the problem and the fix, exit code 2, or
the right answer. (The web API's and the server's are in ``tests/web/test_hardening_web.py``;
random inputs to every reader in ``tests/test_fuzz_readers.py``.)

No test here runs a search: every refusal comes before one.
"""

from __future__ import annotations

import socket

import pytest
from click.testing import CliRunner

from fantasy_scorer.cli.main import main
from fantasy_scorer.cli.majesty import main as majesty_main
from fantasy_scorer.errors import ScorerError
from fantasy_scorer.inputs import MAX_INPUT_BYTES, whole_number
from fantasy_scorer.realms.catalog import base_catalog, load_catalog
from fantasy_scorer.realms.game.advice import Situation
from fantasy_scorer.realms.solve.api import max_hand

from .conftest import write
from .test_input import error_line

BIG = "9" * 5000
HAND = "King\nQueen\nKnights\nPrincess\nMountain\nWarhorse\nSwamp\n"
CARD = "  - {id: HB1, name: Dragonling, suit: Beast, strength: 3%s}\n"
DEEP = "a: " + "[" * 5000 + "]" * 5000 + "\n"
# Nine levels of nine aliases each: 9**9 values once expanded, in under 400 bytes.
LAUGHS = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
    f"{n}: &{n} [{', '.join(['*' + p] * 9)}]\n"
    for p, n in zip("abcdefghi", "bcdefghij", strict=True))


def run(args: list[str], stdin: str | None = None):
    return CliRunner().invoke(main, args, input=stdin, prog_name="fr-score")


def majesty(*args: str, stdin: str | None = None):
    return CliRunner().invoke(majesty_main, list(args), input=stdin, prog_name="majesty-score")


def homebrew(tmp_path, head: str = "", card: str = "") -> str:
    return write(tmp_path, "hb.yaml", f"game: hb\n{head}\ncards:\n" + CARD % card)


# -- 1. exotic digits and 5,000-digit numbers --------------------------------------------------


def test_1_an_exotic_digit_for_players_is_one_line(tmp_path) -> None:
    r = run([write(tmp_path, "hand.txt", "players: ²\n" + HAND)])
    assert error_line(r) == (f"Error: {tmp_path / 'hand.txt'}:1: players must be a whole "
                             "number, got '²'")


@pytest.mark.parametrize("digits", [5000, 19])
def test_1_a_huge_number_of_players_in_a_hand_file_is_one_line(tmp_path, digits) -> None:
    hand = write(tmp_path, "hand.txt", f"players: {BIG[:digits]}\n" + HAND)
    assert error_line(run([hand])) == (f"Error: {hand}:1: players must be a whole number, got "
                                       f"a number of {digits} digits")


def test_1_a_huge_player_count_in_a_link_is_one_line() -> None:
    link = f"https://example.org/?hand=FR01,FR02,FR03,FR04,FR05,FR06,FR07&playerCount={BIG}"
    assert error_line(run(["--code", link])) == (
        "Error: share link: playerCount must be a whole number, got a number of 5000 digits")


def test_1_a_huge_number_of_players_in_a_table_is_one_line(tmp_path) -> None:
    table = write(tmp_path, "t.yaml", f"players: {BIG}\nhands:\n  A: [King]\n  B: [Queen]\n")
    assert error_line(run(["game", table])) == (
        f"Error: {table}:1: 'players' must be a whole number, got a number of 5000 digits")


@pytest.mark.parametrize("key", ["points", "take", "seed"])
def test_1_a_huge_number_in_a_majesty_file_is_one_line(tmp_path, key) -> None:
    if key == "points":
        text = (f"side: A\nplayers:\n  - {{name: Ann, points: {BIG}, realm: [1,1,1,1,1,1,1,5]}}"
                "\n  - {name: Bob, realm: [1,1,1,1,1,1,1,5]}\n")
        args = ["score"]
    else:
        seed = BIG if key == "seed" else "1"
        take = BIG if key == "take" else "0"
        text = (f"players: [Ann, Bob]\nside: A\nseed: {seed}\n"
                f"moves:\n  - {{player: Ann, take: {take}}}\n")
        args = ["replay"]
    path = write(tmp_path, "m.yaml", text)
    line = error_line(majesty(*args, path))
    assert "a number of 5000 digits; a number here has at most 18" in line


def test_1_the_shared_reader_takes_ascii_digits_only() -> None:
    assert whole_number(" 4 ", "players", 2, 6) == 4
    assert whole_number("-3", "n") == -3
    for text in ("²", "٣", "4.0", "", "0x4", "4 4"):
        with pytest.raises(ScorerError, match="must be a whole number"):
            whole_number(text, "n")
    with pytest.raises(ScorerError, match="from 2 to 6, got 7"):
        whole_number("7", "players", 2, 6)


# -- 2. YAML nested 5,000 deep ------------------------------------------------------------------


def test_2_deep_yaml_is_one_line_in_every_yaml_reader(tmp_path) -> None:
    deep = write(tmp_path, "deep.yaml", DEEP)
    hand = write(tmp_path, "hand.txt", HAND)
    expected = f"Error: {deep}:1: the YAML nests deeper than 32 levels; a file of this tool " \
               "needs a few"
    assert error_line(run(["--cards", deep, hand])) == expected
    assert error_line(run(["game", deep])) == expected
    for command in ("score", "replay"):
        assert error_line(majesty(command, deep)) == expected


# -- 3. homebrew card types ---------------------------------------------------------------------


@pytest.mark.parametrize("head, card, message", [
    ("aliases: [a, b]", "", "'aliases' maps other spellings to names, such as "
                            "{Animal: Beast}, got ['a', 'b']"),
    ("suits: 5", "", "'suits' lists the new suits' names, such as [Dragonkin], got 5"),
    ("", ", also: 5", "'also' lists suit names, such as [Beast], got 5"),
])
def test_3_a_homebrew_value_of_the_wrong_type_is_one_line(tmp_path, head, card,
                                                          message) -> None:
    cards = homebrew(tmp_path, head, card)
    line = error_line(run(["--cards", cards, write(tmp_path, "hand.txt", HAND)]))
    assert line.endswith(message)
    port = _free_port()
    assert error_line(run(["serve", "--cards", cards, "--port", str(port)])).endswith(message)


def test_3_one_suit_named_alone_is_that_suit_not_one_per_letter(tmp_path) -> None:
    cat = load_catalog([homebrew(tmp_path, "suits: Dragonkin", ", also: Dragonkin")])
    assert cat.suits == [*base_catalog().suits, "Dragonkin"]
    assert cat.by_id["HB1"].suit == "Beast/Dragonkin"


# -- 4. a card required twice ------------------------------------------------------------------


@pytest.mark.parametrize("first, second", [("Island", "Island"), ("Mirage", "FR52"),
                                           ("Book of Changes", "book of changes")])
def test_4_max_refuses_a_card_required_twice(first, second) -> None:
    name = base_catalog().card(first).name
    assert error_line(run(["max", "--with", first, "--with", second])) == (
        f"Error: {name} is required twice; each card exists once in the game")
    cat = base_catalog()
    with pytest.raises(ScorerError, match="required twice"):
        max_hand(cat, [cat.card(first), cat.card(second)])


# -- 5. advise with too few unseen cards --------------------------------------------------------


def test_5_seen_cards_beyond_the_other_hands_are_refused() -> None:
    cat = base_catalog()
    hand = tuple(cat.card(n) for n in HAND.split("\n") if n)
    others = [c for c in cat.suit_cards if c not in hand]
    for unseen in (6, 3, 0):  # the audit's "6 or fewer unseen cards"
        seen = tuple(others[:len(others) - unseen])
        with pytest.raises(ScorerError) as e:
            Situation(cat, 2, hand, (), (), seen)
        assert str(e.value) == (f"{len(seen)} cards are known to be in other hands, but the "
                                "other player holds 7: check --seen, --next-holds and the "
                                "number of players")
    # Exactly the other hand's seven cards seen is a legal situation.
    Situation(cat, 2, hand, (), (), tuple(others[:7]))


def test_5_the_command_says_so_in_one_line(tmp_path) -> None:
    cat = base_catalog()
    hand = [cat.card(n) for n in HAND.split("\n") if n]
    seen = [c.name for c in cat.suit_cards if c not in hand][:-6]
    line = error_line(run(["advise", write(tmp_path, "hand.txt", HAND), "--players", "2",
                           "--seen", write(tmp_path, "seen.txt", "\n".join(seen))]))
    assert line == (f"Error: {len(seen)} cards are known to be in other hands, but the other "
                    "player holds 7: check --seen, --next-holds and the number of players")


# -- 6. every number a card holds is bounded at reading -----------------------------------------


@pytest.mark.parametrize("card, message", [
    (", bonus: [{points: 9223372036854775808}]",
     "'points' must be a whole number from -10000 to 10000, got 9223372036854775808"),
    (", bonus: [{points: 100000000000000000000000000}]",
     "a number of 27 digits; a number here has at most 18"),
    (", bonus: [{points: 1e26}]",
     "'points' must be a whole number from -10000 to 10000, got '1e26'"),
    (", bonus: [{points: 5, per: Army, first: 1000}]",
     "'first' must be a whole number from 0 to 100, got 1000"),
])
def test_6_a_number_out_of_bounds_is_refused_at_reading(tmp_path, card, message) -> None:
    with pytest.raises(ScorerError) as e:
        load_catalog([homebrew(tmp_path, "", card)])
    assert str(e.value).endswith(message)


def test_6_the_largest_number_a_card_may_hold_is_read(tmp_path) -> None:
    cat = load_catalog([homebrew(tmp_path, "", ", bonus: [{points: 10000}]")])
    assert cat.by_id["HB1"].strength == 3


# -- 11, 12. billion laughs, /dev/zero -----------------------------------------------------------


def test_11_an_alias_bomb_is_refused_before_it_is_built(tmp_path) -> None:
    table = write(tmp_path, "t.yaml", LAUGHS + "hands: {A: [King]}\n")
    assert len(table) and len(LAUGHS) < 500
    expected = (f"Error: {table}:6: the YAML's aliases (*name) expand to more than 200000 "
                "values; write the values out or use fewer aliases")
    assert error_line(run(["game", table])) == expected
    assert error_line(run(["--cards", table, write(tmp_path, "h.txt", HAND)])) == expected
    assert error_line(majesty("score", table)) == expected


def test_12_an_endless_input_is_refused_after_the_cap() -> None:
    expected = (f"Error: /dev/zero: the input is larger than {MAX_INPUT_BYTES // 1024} KB; a "
                "hand, table or card file is far smaller: check the file name")
    assert error_line(run(["/dev/zero"])) == expected
    assert error_line(run(["game", "/dev/zero"])) == expected
    assert error_line(run(["--cards", "/dev/zero", "--code", "FR01"])) == expected
    assert error_line(majesty("score", "/dev/zero")) == expected


def test_12_standard_input_is_capped_too() -> None:
    r = run(["-"], stdin="King\n" * (MAX_INPUT_BYTES // 5 + 1))
    assert "larger than 1024 KB" in error_line(r)


# -- 13. serve on a busy port or a bad address ---------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_13_serve_on_a_busy_port_is_one_line_before_the_address() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        r = run(["serve", "--port", str(port)])
    assert r.stdout == ""  # the address is never printed
    assert error_line(r) == (f"Error: port {port} is already in use on 127.0.0.1; stop the "
                             "other server or choose another port with --port")


def test_13_serve_on_an_address_not_of_this_machine_is_one_line() -> None:
    r = run(["serve", "--host", "192.0.2.1", "--port", str(_free_port())])  # TEST-NET-1
    assert r.stdout == ""
    assert error_line(r) == ("Error: --host 192.0.2.1 is not an address of this machine; use "
                             "127.0.0.1, or 0.0.0.0 for every address")


# -- 14. Click usage errors ----------------------------------------------------------------------


@pytest.mark.parametrize("args, expected", [
    (["score", "--players", "9", "h.txt"],
     "Error: Invalid value for '--players': 9 is not in the range 2<=x<=6 "
     "(run 'fr-score score --help' for the options)"),
    (["--jsn", "h.txt"],
     "Error: No such option '--jsn'. Did you mean '--json'? "
     "(run 'fr-score score --help' for the options)"),
    (["serve", "--port", "99999"],
     "Error: Invalid value for '--port': 99999 is not in the range 0<=x<=65535 "
     "(run 'fr-score serve --help' for the options)"),
])
def test_14_a_usage_error_is_one_line_naming_the_option(args, expected) -> None:
    assert error_line(run(args)) == expected


def test_14_majesty_usage_errors_are_one_line_too() -> None:
    assert error_line(majesty("score", "--bogus", "x")) == (
        "Error: No such option '--bogus' (run 'majesty-score score --help' for the options)")
    assert error_line(majesty("simulate", "--players", "9")) == (
        "Error: Invalid value for '--players': 9 is not in the range 2<=x<=4 "
        "(run 'majesty-score simulate --help' for the options)")


# -- 15. an empty Majesty input -------------------------------------------------------------------


@pytest.mark.parametrize("command", ["score", "replay"])
@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_15_an_empty_majesty_input_is_an_error(tmp_path, command, json_flag) -> None:
    empty = write(tmp_path, "empty.yaml", "# nothing yet\n")
    assert error_line(majesty(command, *json_flag, empty)) == (
        f"Error: {empty} is empty; write the game in it (see --help for the format)")
    r = majesty(command, *json_flag, "-", stdin="")
    assert error_line(r) == ("Error: <stdin> is empty; write the game in it (see --help for "
                             "the format)")
    assert r.stdout == ""


# -- 16. time limits ------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["best", "max"])
@pytest.mark.parametrize("value, why", [
    ("nan", "'nan' is not a number of seconds; give one such as 5"),
    ("inf", "'inf' is not a number of seconds; give one such as 5"),
    ("-1", "-1.0 is not in the range x>0"),
    ("0", "0.0 is not in the range x>0"),
])
def test_16_a_time_limit_that_is_no_number_of_seconds_is_refused(tmp_path, command, value,
                                                                  why) -> None:
    args = [command, "--time-limit", value] + ([write(tmp_path, "p.txt", HAND)]
                                               if command == "best" else [])
    assert error_line(run(args)) == (f"Error: Invalid value for '--time-limit': {why} "
                                     f"(run 'fr-score {command} --help' for the options)")


@pytest.mark.parametrize("args", [
    ["advise", "Knights, Queen, King, Swamp, Gem of Order, Hydra, Unicorn, Rainstorm",
     "--players", "3"],
    ["simulate", "--games", "1"],
])
@pytest.mark.parametrize("value, why", [
    ("nan", "'nan' is not a number of seconds; give one such as 5"),
    ("inf", "'inf' is not a number of seconds; give one such as 5"),
    ("-inf", "-inf is not in the range x>0"),
])
def test_16_a_budget_that_is_no_number_of_seconds_is_refused(args, value, why) -> None:
    assert why in error_line(run(args + ["--budget", value]))
