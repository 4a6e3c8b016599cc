"""An image's width and height in pixels, read from its file's first bytes (PNG, GIF, JPEG, WebP),
for the `width` and `height` of an embedded image (emit/html.py): the browser keeps the image's
room before it loads, so the text under it does not move (docs/site.md, "Nothing moves as a page
loads"). Any other format, or a file that cannot be read, has none. Once loaded, the image's own
proportions win (browsers map the two attributes to `aspect-ratio: auto W / H`), so a watch
rebuild that keeps a page whose image changed since shows it right, the text moving once."""
from __future__ import annotations

import struct
from pathlib import Path

HEAD = 64 * 1024   # a JPEG's size marker may follow its metadata (EXIF, a thumbnail)


def image_size(path: Path) -> tuple[int, int] | None:
    try:
        with open(path, "rb") as f:
            data = f.read(HEAD)
    except OSError:
        return None
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR" and len(data) >= 24:
        return _sane(*struct.unpack(">II", data[16:24]))
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        return _sane(*struct.unpack("<HH", data[6:10]))
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp(data)
    if data[:2] == b"\xff\xd8":
        return _jpeg(data)
    return None


def _sane(width: int, height: int) -> tuple[int, int] | None:
    return (width, height) if 0 < width < 100_000 and 0 < height < 100_000 else None


def _webp(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8X" and len(data) >= 30:
        return _sane(int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1)
    if chunk == b"VP8 " and len(data) >= 30:
        width, height = struct.unpack("<HH", data[26:30])
        return _sane(width & 0x3FFF, height & 0x3FFF)
    if chunk == b"VP8L" and len(data) >= 25:
        bits = int.from_bytes(data[21:25], "little")
        return _sane((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
    return None


def _jpeg(data: bytes) -> tuple[int, int] | None:
    at = 2
    while at + 9 < len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:   # no length
            at += 2
            continue
        length = int.from_bytes(data[at + 2:at + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):   # a start of frame
            height, width = struct.unpack(">HH", data[at + 5:at + 9])
            return _sane(width, height)
        at += 2 + length
    return None
