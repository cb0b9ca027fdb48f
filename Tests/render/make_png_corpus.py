#!/usr/bin/env python3
"""Writes the PNG decoding corpus: Tests/AnimcRenderTests/Fixtures/png/NAME.png, and beside
each the pixels Pillow decodes from it as straight RGBA8 (NAME.rgba, raw bytes, rows top to
bottom). The test decodes every .png with animc's decoder and compares with the .rgba.

The ground PngSuite covers: every colour type and legal bit depth, each of the five row
filters (and a mix), Adam7 interlacing (including images smaller than a pass), palette
transparency, grey and RGB colour keys, odd sizes, split IDAT chunks, ancillary chunks and
stored/fixed/dynamic deflate blocks. The files are written by this script's own small
encoder (Python's zlib, not animc's), since Pillow cannot choose filters or interlace;
Pillow is the reference decoder (libpng's behaviour: 16-bit samples keep their high byte).

    python3 -m pip install pillow && python3 Tests/render/make_png_corpus.py
"""
import os, struct, sys, zlib, random
from PIL import Image

OUT = os.path.join(os.path.dirname(__file__), "..", "AnimcRenderTests", "Fixtures", "png")
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def pack_row(samples, depth):
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if depth == 8:
        return bytes(samples)
    out, acc, bits = bytearray(), 0, 0
    for s in samples:
        acc = (acc << depth) | s
        bits += depth
        if bits == 8:
            out.append(acc); acc, bits = 0, 0
    if bits:
        out.append(acc << (8 - bits))
    return bytes(out)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def filter_row(kind, row, prev, bpp):
    out = bytearray(len(row))
    for i in range(len(row)):
        a = row[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        pred = [0, a, b, (a + b) // 2, paeth(a, b, c)][kind]
        out[i] = (row[i] - pred) & 0xFF
    return bytes(out)


def encode(width, height, depth, ctype, pixels, filters, interlace=False, palette=None, trns=None,
           split=None, level=9, extra=()):
    """pixels[y][x] is a tuple of samples. filters: a row -> filter function."""
    ch = CHANNELS[ctype]
    bpp = max(1, ch * depth // 8)
    raw = bytearray()
    passes = [(x0, y0, dx, dy) for (x0, y0, dx, dy) in ADAM7] if interlace else [(0, 0, 1, 1)]
    row_index = 0
    for (x0, y0, dx, dy) in passes:
        xs = list(range(x0, width, dx)); ys = list(range(y0, height, dy))
        if not xs or not ys:
            continue
        prev = bytes(len(pack_row([0] * (len(xs) * ch), depth)))
        for y in ys:
            row = pack_row([s for x in xs for s in pixels[y][x]], depth)
            f = filters(row_index); row_index += 1
            raw.append(f); raw += filter_row(f, row, prev, bpp)
            prev = row
    data = zlib.compress(bytes(raw), level)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, ctype, 0, 0, 1 if interlace else 0))
    for kind, body in extra:
        out += chunk(kind, body)
    if palette is not None:
        out += chunk(b"PLTE", bytes(c for p in palette for c in p))
    if trns is not None:
        out += chunk(b"tRNS", trns)
    parts = [data] if not split else [data[i:i + split] for i in range(0, len(data), split)]
    for p in parts:
        out += chunk(b"IDAT", p)
    return out + chunk(b"IEND", b"")


def reference(path):
    im = Image.open(path)
    im.load()
    if im.mode in ("I;16", "I;16B", "I"):
        # Pillow keeps 16-bit grey as integers; libpng's strip_16 keeps the high byte.
        values = [im.getpixel((x, y)) for y in range(im.height) for x in range(im.width)]
        trns = im.info.get("transparency")
        out = bytearray()
        for v in values:
            g = v >> 8
            out += bytes((g, g, g, 0 if trns is not None and v == trns else 255))
        return bytes(out)
    with open(path, "rb") as f:
        head = f.read(26)
    depth, ctype = head[24], head[25]
    if ctype == 0 and depth < 8 and "transparency" in im.info:
        # Pillow's one departure from the PNG specification (and libpng, and browsers):
        # it compares a low-bit-depth grey key with the samples after scaling them to
        # 8 bits. The key is a sample at the image's depth; scale it the same way.
        key = im.info["transparency"] * 255 // ((1 << depth) - 1)
        grey = im.convert("L").tobytes()
        return b"".join(bytes((g, g, g, 0 if g == key else 255)) for g in grey)
    return im.convert("RGBA").tobytes()


def write(name, png):
    path = os.path.join(OUT, name + ".png")
    with open(path, "wb") as f:
        f.write(png)
    with open(os.path.join(OUT, name + ".rgba"), "wb") as f:
        f.write(reference(path))


def main():
    os.makedirs(OUT, exist_ok=True)
    for old in os.listdir(OUT):
        os.remove(os.path.join(OUT, old))
    rng = random.Random(41)
    W, H = 32, 32
    for ctype, depths in [(0, [1, 2, 4, 8, 16]), (2, [8, 16]), (3, [1, 2, 4, 8]), (4, [8, 16]), (6, [8, 16])]:
        for depth in depths:
            ch, top = CHANNELS[ctype], (1 << depth) - 1
            palette = None
            if ctype == 3:
                palette = [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(1 << depth)]
            # Gradients with noise: every filter has something to predict.
            pixels = [[tuple(min(top, ((x * (c + 1) + y * (3 - c)) * top // 64 + rng.randrange(2)) & top) for c in range(ch))
                       for x in range(W)] for y in range(H)]
            for interlace in (False, True):
                for filt in ("none", "sub", "up", "average", "paeth", "mixed"):
                    if interlace and filt not in ("mixed", "paeth"):
                        continue
                    fn = {"none": lambda r: 0, "sub": lambda r: 1, "up": lambda r: 2, "average": lambda r: 3,
                          "paeth": lambda r: 4, "mixed": lambda r: r % 5}[filt]
                    name = "t%d-d%02d-%s-%s" % (ctype, depth, "adam7" if interlace else "plain", filt)
                    write(name, encode(W, H, depth, ctype, pixels, fn, interlace, palette))
    # Odd sizes, including images smaller than the first Adam7 passes.
    for (w, h) in [(1, 1), (1, 7), (3, 2), (5, 9), (13, 3), (33, 17)]:
        pixels = [[(rng.randrange(256), rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(w)]
                  for _ in range(h)]
        for interlace in (False, True):
            write("size-%dx%d-%s" % (w, h, "adam7" if interlace else "plain"),
                  encode(w, h, 8, 6, pixels, lambda r: r % 5, interlace))
        grey = [[(rng.randrange(4),) for _ in range(w)] for _ in range(h)]
        write("size-%dx%d-grey2-adam7" % (w, h), encode(w, h, 2, 0, grey, lambda r: r % 5, True))
    # Transparency: palette alpha (shorter than the palette), grey and RGB colour keys.
    pal = [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(16)]
    idx = [[((x + y) % 16,) for x in range(W)] for y in range(H)]
    write("trns-palette", encode(W, H, 4, 3, idx, lambda r: r % 5, palette=pal, trns=bytes([0, 64, 128, 200, 255, 10])))
    write("trns-palette-adam7", encode(W, H, 8, 3, idx, lambda r: 4, True, palette=pal, trns=bytes([255, 0, 77])))
    grey = [[((x * 8) & 255,) for x in range(W)] for y in range(H)]
    write("trns-grey8", encode(W, H, 8, 0, grey, lambda r: 1, trns=struct.pack(">H", 64)))
    grey4 = [[(x % 16,) for x in range(W)] for y in range(H)]
    write("trns-grey4", encode(W, H, 4, 0, grey4, lambda r: 0, trns=struct.pack(">H", 5)))
    rgb = [[((x * 8) & 255, (y * 8) & 255, 100) for x in range(W)] for y in range(H)]
    write("trns-rgb8", encode(W, H, 8, 2, rgb, lambda r: 2, trns=struct.pack(">HHH", 64, 64, 100)))
    # Container variations: IDAT split in 7-byte chunks, ancillary chunks, stored and fixed blocks.
    rgba = [[(x * 7 & 255, y * 7 & 255, (x * y) & 255, 255 - x * 3) for x in range(W)] for y in range(H)]
    write("idat-split", encode(W, H, 8, 6, rgba, lambda r: r % 5, split=7))
    write("ancillary", encode(W, H, 8, 6, rgba, lambda r: 4, extra=[(b"gAMA", struct.pack(">I", 45455)),
                                                                   (b"tEXt", b"Comment\x00made for animc"),
                                                                   (b"pHYs", struct.pack(">IIB", 2835, 2835, 1))]))
    write("deflate-stored", encode(W, H, 8, 6, rgba, lambda r: 0, level=0))
    write("deflate-level1", encode(W, H, 8, 6, rgba, lambda r: 1, level=1))
    # Pillow's own encoder, for the files real tools write.
    for mode in ("1", "L", "LA", "P", "RGB", "RGBA"):
        im = Image.new("RGBA", (W, H))
        im.putdata([rgba[y][x] for y in range(H) for x in range(W)])
        path = os.path.join(OUT, "pillow-%s.png" % mode)
        im.convert(mode).save(path, optimize=True)
        with open(path.replace(".png", ".rgba"), "wb") as f:
            f.write(reference(path))
    print("wrote", len(os.listdir(OUT)) // 2, "images to", os.path.normpath(OUT))


if __name__ == "__main__":
    sys.exit(main())
