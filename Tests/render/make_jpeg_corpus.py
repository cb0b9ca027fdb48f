#!/usr/bin/env python3
"""Writes the JPEG decoding corpus: Tests/AnimcRenderTests/Fixtures/jpeg/NAME.jpg, each with
the pixels libjpeg (through Pillow) decodes from it as RGBA8 (NAME.rgba). The test decodes
every .jpg with animc's decoder and allows ±2 per channel.

Baseline files as Pillow (libjpeg) writes them: 4:4:4, 4:2:2 and 4:2:0 chroma, greyscale,
restart markers every few blocks and every row, optimised Huffman tables, odd sizes
(including sizes that are not whole MCUs) and a range of qualities, over a synthetic
photograph (smooth gradients, edges and noise).

    python3 -m pip install pillow && python3 Tests/render/make_jpeg_corpus.py
"""
import math, os, random, sys
from PIL import Image

OUT = os.path.join(os.path.dirname(__file__), "..", "AnimcRenderTests", "Fixtures", "jpeg")


def photo(w, h, seed):
    rng = random.Random(seed)
    im = Image.new("RGB", (w, h))
    px = []
    for y in range(h):
        for x in range(w):
            r = 128 + 100 * math.sin(x / 9.0 + seed) * math.cos(y / 13.0)
            g = 255 * x / max(w - 1, 1) if (x // 16 + y // 16) % 2 else 60
            b = 200 if (x - w / 2) ** 2 + (y - h / 2) ** 2 < (min(w, h) / 3) ** 2 else 30 + y
            n = rng.randrange(-12, 13)
            px.append(tuple(max(0, min(255, int(v + n))) for v in (r, g, b)))
    im.putdata(px)
    return im


def write(name, im, **options):
    path = os.path.join(OUT, name + ".jpg")
    im.save(path, "JPEG", **options)
    with open(os.path.join(OUT, name + ".rgba"), "wb") as f:
        f.write(Image.open(path).convert("RGBA").tobytes())


def main():
    os.makedirs(OUT, exist_ok=True)
    for old in os.listdir(OUT):
        os.remove(os.path.join(OUT, old))
    base = photo(64, 48, 1)
    for sub, label in ((0, "444"), (1, "422"), (2, "420")):
        for q in (50, 90):
            write("ycc%s-q%d" % (label, q), base, quality=q, subsampling=sub)
        write("ycc%s-optimized" % label, base, quality=85, subsampling=sub, optimize=True)
        write("ycc%s-restart-blocks" % label, base, quality=85, subsampling=sub, restart_marker_blocks=3)
        write("ycc%s-restart-rows" % label, base, quality=85, subsampling=sub, restart_marker_rows=1)
    grey = base.convert("L")
    write("grey-q75", grey, quality=75)
    write("grey-restart", grey, quality=75, restart_marker_blocks=5)
    for (w, h) in ((1, 1), (7, 5), (37, 23), (17, 33)):
        im = photo(w, h, w * 31 + h)
        write("odd-%dx%d-420" % (w, h), im, quality=80, subsampling=2)
        write("odd-%dx%d-444" % (w, h), im, quality=80, subsampling=0)
    write("q100-444", base, quality=100, subsampling=0)
    print("wrote", len(os.listdir(OUT)) // 2, "images to", os.path.normpath(OUT))


if __name__ == "__main__":
    sys.exit(main())
