"""A GIF written frame by frame, so that a long game's animation never sits in memory whole.

Pillow's own ``save_all`` keeps every frame until the end (a 4,000-event game would need
gigabytes). Here each frame is encoded by Pillow on its own (``Image.save(..., "GIF")``, a
public call) and its image blocks are copied into one file: the first frame gives the header,
the palette and the loop count; every later frame is cropped to the box that changed since the
previous one, its unchanged pixels made transparent (runs that compress to almost nothing), and
its image descriptor moved to that box's corner. A frame whose palette differs from the
first's carries it as a local colour table. Every frame stays a frame (an
unchanged one is a 1x1 patch), so the file has exactly one frame per call to ``add``.
"""
from __future__ import annotations

import io
import struct

from PIL import Image, ImageChops

CLEAR = 255                     # the palette index kept free for "unchanged" (transparent)


def _blocks(data: bytes):
    """Split an encoded single-frame GIF: (global colour table, [blocks after the header])."""
    if data[:3] != b"GIF":
        raise ValueError("not a GIF")
    packed = data[10]
    pos = 13
    gct = b""
    if packed & 0x80:
        size = 3 * 2 ** ((packed & 7) + 1)
        gct = data[pos:pos + size]
        pos += size
    out = []
    while pos < len(data):
        start = pos
        tag = data[pos]
        if tag == 0x3B:                              # trailer
            break
        if tag == 0x21:                              # extension: label, sub-blocks
            pos += 2
        elif tag == 0x2C:                            # image descriptor (+ table, LZW size)
            ipacked = data[pos + 9]
            pos += 10
            if ipacked & 0x80:
                pos += 3 * 2 ** ((ipacked & 7) + 1)
            pos += 1
        else:
            raise ValueError(f"unexpected GIF block 0x{tag:02x}")
        while data[pos]:
            pos += data[pos] + 1
        pos += 1
        out.append(data[start:pos])
    return gct, out


class GifStream:
    """``add(frame, ms)`` for each RGB frame (all the same size), then ``close()``."""

    def __init__(self, fp, exact=(), loop: int = 0):
        """``exact``: (r, g, b) colours the palette must hold as they are (the picture's own
        colours); the rest of the palette comes from the first frame's median cut."""
        self.fp, self.loop, self.exact = fp, loop, list(dict.fromkeys(exact))[:CLEAR]
        self.palette = None
        self.gct = None
        self.previous = None
        self.frames = 0

    def _quantize(self, rgb: Image.Image) -> Image.Image:
        if self.palette is None:                     # the first frame chooses the palette
            cut = rgb.quantize(CLEAR - len(self.exact), method=Image.Quantize.MEDIANCUT,
                               dither=Image.Dither.NONE).getpalette()
            colours = list(self.exact)
            for k in range(0, len(cut), 3):
                c = tuple(cut[k:k + 3])
                if c not in colours and len(colours) < CLEAR:
                    colours.append(c)
            self.palette = Image.new("P", (1, 1))        # at most 255: index 255 stays free
            self.palette.putpalette([v for c in colours for v in c])
        return rgb.quantize(palette=self.palette, dither=Image.Dither.NONE)

    def add(self, rgb: Image.Image, ms: int) -> None:
        frame = self._quantize(rgb)
        buf = io.BytesIO()
        if self.gct is None:
            frame.save(buf, "GIF", duration=ms, loop=self.loop, optimize=False)
            data = buf.getvalue()
            self.gct, _ = _blocks(data)
            self.fp.write(data[:data.rindex(b"\x3b")])
        else:
            diff = ImageChops.difference(self.previous, rgb)
            box = diff.getbbox() or (0, 0, 1, 1)
            r, g, b = diff.crop(box).split()
            same = ImageChops.lighter(ImageChops.lighter(r, g), b).point(
                [255] + [0] * 255).convert("1")
            patch = frame.crop(box)
            patch.paste(CLEAR, mask=same)
            patch.save(buf, "GIF", duration=ms, optimize=False, transparency=CLEAR, disposal=1)
            gct, blocks = _blocks(buf.getvalue())
            for b in blocks:
                if b[0] == 0x21 and b[1] == 0xFF:    # application extension (loop): once only
                    continue
                if b[0] == 0x2C:
                    b = bytearray(b)
                    b[1:5] = struct.pack("<HH", box[0], box[1])
                    if gct != self.gct and not b[9] & 0x80:
                        b[9] = (b[9] & 0x78) | 0x80 | (len(gct) // 3).bit_length() - 2
                        b = b[:10] + gct + b[10:]
                    b = bytes(b)
                self.fp.write(b)
        self.previous = rgb
        self.frames += 1

    def close(self) -> None:
        self.fp.write(b"\x3b")
