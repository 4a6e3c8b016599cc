"""An embedded image's width and height come from its file's first bytes (emit/imagesize.py), so
its page keeps the image's room before it loads."""
from __future__ import annotations

import struct
import zlib

from builder.emit.imagesize import image_size


def _png(width: int, height: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))


def test_the_size_of_each_format(tmp_path):
    files = {
        "a.png": _png(1093, 864),
        "a.gif": b"GIF89a" + struct.pack("<HH", 800, 216) + b"\x00" * 8,
        # SOI, an APP0 segment to skip, then a baseline frame: its precision, height, width
        "a.jpg": b"\xff\xd8" + b"\xff\xe0\x00\x10" + b"JFIF\x00" + b"\x00" * 9 + b"\xff\xc0\x00\x11\x08" + struct.pack(">HH", 436, 761) + b"\x00" * 12,
        "a.webp": b"RIFF\x00\x00\x00\x00WEBPVP8X" + b"\x0a\x00\x00\x00" + b"\x00" * 4 + (544).to_bytes(3, "little") + (152).to_bytes(3, "little"),
        "a.svg": b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>',
        "cut.png": _png(5, 5)[:20],
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    assert {name: image_size(tmp_path / name) for name in files} == {
        "a.png": (1093, 864), "a.gif": (800, 216), "a.jpg": (761, 436), "a.webp": (545, 153), "a.svg": None, "cut.png": None}
    assert image_size(tmp_path / "missing.png") is None


def test_an_embedded_image_keeps_its_room(make_brain, build_site, tmp_path):
    brain = make_brain(tmp_path, {"notes/a.md": "# A\n\n![[pic.png]]\n\n![[gone.png]]\n"})
    (brain / "pic.png").write_bytes(_png(400, 300))
    site = tmp_path / "site"
    build_site(brain, site)
    page = (site / "brain/notes/a.html").read_text(encoding="utf-8")
    assert 'alt="pic.png" width="400" height="300" loading="lazy"' in page
