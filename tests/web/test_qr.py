"""The page's own QR encoder (``static/qr.js``, issue 40 §4) against the standard and against
segno, an independent pure-Python encoder.

What is compared:
* the data codewords of a text with the standard's bit stream (ISO/IEC 18004 7.4: mode 0100,
  the byte count, the bytes, a terminator of up to four 0 bits, 0 bits to the byte, then the
  pad codewords 11101100 and 00010001 in turn), written out here, and by hand for ``hello``;
* everything after them (blocks, Reed-Solomon, interleaving, placement, the eight masks, the
  penalty that picks one, format and version information) with segno's matrices for the same
  data codewords (the 331-byte link fills version 13-M exactly). segno writes a whole 0 byte
  before the pad codewords when the terminator ends on a byte boundary (always, in byte mode,
  when there is room), where the standard starts the pad codewords at once; decoders read
  both alike. So segno's data codewords are handed to ``fsQR.symbol`` to compare the symbols
  module by module. Both score the masks before the format and version information is
  written (segno reads ISO/IEC 18004 7.8 so; the choice only matters for which mask wins).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

segno = pytest.importorskip("segno")

QR_JS = Path(__file__).resolve().parents[2] / "fantasy_scorer" / "web" / "static" / "qr.js"
HOST = "https://fantasy-realms.example/"
LINKS = [
    "hello",
    HOST + "?hand=FR01,FR08,FR13,FR14,FR15,FR16,FR52+FR52:FR11",
    HOST + "?hand=FR49,FR44,FR30,FR55P,FR08,FR04,FR20+FR49:FR55P:weather&playerCount=4",
    HOST + "?expansions=ch_items,ch_suits&playerCount=6&hand=CH11,CH20,FR31,FR32,FR21,FR22,"
    "FR24,CH06,CH24+&discard=FR37,FR38,FR23,FR01,FR02,FR03,FR04,FR05,FR06",
    HOST + "majesty.html?side=B&players=Alice,Bob,Carol,Dave&Alice=3,0,2,1,2,1,2,1&"
    "Bob=2,3,0,2,0,2,1,2&Carol=1,1,1,1,1,1,1,5&Dave=0,0,0,0,0,0,0,12&Alice_points=17" * 2,
    "x" * 1500,
]


@pytest.fixture(scope="module")
def qr(browser):
    page = browser.new_page()
    page.set_content("<!doctype html><title>qr</title>")
    page.add_script_tag(path=str(QR_JS))
    yield page
    page.close()


def standard_words(text: str, capacity: int, version: int) -> list[int]:
    """ISO/IEC 18004 7.4 for one byte-mode segment, bit by bit."""
    data = text.encode("utf-8")
    bits = "0100" + format(len(data), "08b" if version <= 9 else "016b")
    bits += "".join(format(b, "08b") for b in data)
    bits += "0" * min(4, capacity * 8 - len(bits))
    bits += "0" * (-len(bits) % 8)
    words = [int(bits[i:i + 8], 2) for i in range(0, len(bits), 8)]
    pads = [0xEC, 0x11]
    while len(words) < capacity:
        words.append(pads[(len(words) - len(bits) // 8) % 2])
    return words


def segno_words(text: str, capacity: int, version: int) -> list[int]:
    """The data codewords segno writes: the standard's, with a 0 byte before the pads where
    the symbol has room for it."""
    data = text.encode("utf-8")
    used = (4 + (8 if version <= 9 else 16) + 8 * len(data) + 4) // 8
    words = standard_words(text, capacity, version)[:used] + ([0] if used < capacity else [])
    pads = [0xEC, 0x11]
    while len(words) < capacity:
        words.append(pads[(len(words) - used - 1) % 2])
    return words


def reference(text: str, mask: int | None = None):
    return segno.make(text, error="m", boost_error=False, mode="byte", micro=False,
                      encoding="utf-8", mask=mask)


def test_hello_by_hand(qr) -> None:
    # 0100 | 00000101 | h e l l o | 0000, then EC 11 … to version 1-M's 16 data codewords.
    got = qr.evaluate("fsQR.data('hello')")
    assert (got["version"], got["level"]) == (1, "M")
    assert got["words"] == [0x40, 0x56, 0x86, 0x56, 0xC6, 0xC6, 0xF0, 0xEC, 0x11, 0xEC, 0x11,
                            0xEC, 0x11, 0xEC, 0x11, 0xEC]


@pytest.mark.parametrize("text", LINKS, ids=lambda t: f"{len(t)}-bytes")
def test_the_symbol_is_segnos_module_for_module(qr, text: str) -> None:
    ref = reference(text)
    got = qr.evaluate(f"fsQR.data({text!r})")
    assert (got["version"], got["level"]) == (ref.version, "M")
    capacity = len(got["words"])
    assert got["words"] == standard_words(text, capacity, ref.version)
    theirs = segno_words(text, capacity, ref.version)
    # The mask picked by the penalty rules, and the symbol, are segno's.
    mine = qr.evaluate("([w, v]) => fsQR.symbol(w, v, 'M')", [theirs, ref.version])
    assert mine["mask"] == ref.mask
    assert mine["modules"] == [list(row) for row in ref.matrix]


def test_every_mask_draws_segnos_symbol(qr) -> None:
    text = LINKS[3]  # version 7 or more: the version information is drawn too
    for mask in range(8):
        ref = reference(text, mask)
        assert ref.version >= 7
        capacity = len(qr.evaluate(f"fsQR.data({text!r}).words"))
        mine = qr.evaluate("([w, v, m]) => fsQR.symbol(w, v, 'M', m)",
                           [segno_words(text, capacity, ref.version), ref.version, mask])
        assert mine["modules"] == [list(row) for row in ref.matrix], mask


def test_a_text_too_long_for_m_falls_back_to_l_then_refuses(qr) -> None:
    # Version 40-M holds 2331 bytes, 40-L 2953.
    assert qr.evaluate("fsQR.data('y'.repeat(2331)).level") == "M"
    assert qr.evaluate("fsQR.data('y'.repeat(2332)).level") == "L"
    assert qr.evaluate("fsQR.data('y'.repeat(2953)).version") == 40
    with pytest.raises(Exception, match="too long for a QR code"):
        qr.evaluate("fsQR.data('y'.repeat(2954))")


def test_the_svg_draws_each_dark_module_inside_a_quiet_zone(qr) -> None:
    text = LINKS[1]
    svg = qr.evaluate(f"fsQR.svg({text!r})")
    modules = qr.evaluate(f"fsQR.matrix({text!r}).modules")
    size = len(modules) + 8
    assert f'viewBox="0 0 {size} {size}"' in svg
    drawn = {(int(x), int(y)) for x, y in re.findall(r"M(\d+) (\d+)h1v1h-1z", svg)}
    assert drawn == {(c + 4, r + 4) for r, row in enumerate(modules)
                     for c, on in enumerate(row) if on}
