"""The app's icon, drawn here and encoded as PNG: three fanned cards on the page's purple.

A phone installs the page as an app from its manifest, which must name square PNG icons
(192 and 512 px; iOS asks for 180 px). They are drawn from a few polygons in unit
coordinates, supersampled for smooth edges, so no image file has to be kept in sync with the
page's colours. The design keeps everything inside the central 80 %, so the same image
serves as a "maskable" icon (Android crops it to a circle or a squircle).
"""

from __future__ import annotations

import math
import struct
import zlib
from functools import cache

import numpy as np

SIZES = (180, 192, 512)
BACKGROUND = (0x4A, 0x2D, 0x5C)
SUPERSAMPLE = 3

Point = tuple[float, float]


def _card(cx: float, cy: float, w: float, h: float, degrees: float) -> list[Point]:
    """A card's outline (a rectangle with cut corners) turned about its centre."""
    c = min(w, h) * 0.12
    pts = [(-w / 2 + c, -h / 2), (w / 2 - c, -h / 2), (w / 2, -h / 2 + c), (w / 2, h / 2 - c),
           (w / 2 - c, h / 2), (-w / 2 + c, h / 2), (-w / 2, h / 2 - c), (-w / 2, -h / 2 + c)]
    a = math.radians(degrees)
    return [(cx + x * math.cos(a) - y * math.sin(a), cy + x * math.sin(a) + y * math.cos(a))
            for x, y in pts]


def _star(cx: float, cy: float, r: float) -> list[Point]:
    pts = []
    for k in range(10):
        radius = r if k % 2 == 0 else r * 0.42
        a = math.radians(-90 + 36 * k)
        pts.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    return pts


#: (outline, colour), back to front.
SHAPES: list[tuple[list[Point], tuple[int, int, int]]] = [
    (_card(0.36, 0.53, 0.30, 0.44, -16), (0xE3, 0xB3, 0x41)),
    (_card(0.64, 0.53, 0.30, 0.44, 16), (0x4F, 0xA3, 0xA5)),
    (_card(0.50, 0.49, 0.32, 0.46, 0), (0xFB, 0xF7, 0xEF)),
    (_star(0.50, 0.49, 0.11), (0x4A, 0x2D, 0x5C)),
]


def _inside(poly: list[Point], x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Even-odd rule: which grid points lie inside the polygon."""
    inside = np.zeros(x.shape, dtype=bool)
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        if y1 == y2:
            continue
        crosses = (y1 > y) != (y2 > y)
        at = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
        inside ^= crosses & (x < at)
    return inside


@cache
def pixels(size: int) -> np.ndarray:
    """The icon as a ``size`` × ``size`` × 3 array of bytes."""
    n = size * SUPERSAMPLE
    coords = (np.arange(n) + 0.5) / n
    x, y = np.meshgrid(coords, coords)
    image = np.empty((n, n, 3), dtype=np.float32)
    image[:] = BACKGROUND
    for poly, colour in SHAPES:
        image[_inside(poly, x, y)] = colour
    small = image.reshape(size, SUPERSAMPLE, size, SUPERSAMPLE, 3).mean(axis=(1, 3))
    return np.clip(np.rint(small), 0, 255).astype(np.uint8)


def encode_png(rgb: np.ndarray) -> bytes:
    """A minimal PNG (8-bit RGB, no interlace) of an array of shape (h, w, 3)."""
    h, w, _ = rgb.shape
    rows = b"".join(b"\x00" + rgb[r].tobytes() for r in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


@cache
def png(size: int) -> bytes:
    return encode_png(pixels(size))
