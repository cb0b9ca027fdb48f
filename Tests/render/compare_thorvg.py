#!/usr/bin/env python3
"""animc's renderer against ThorVG's software renderer playing the Lottie export.

    python3 Tests/render/compare_thorvg.py ANIMC OUT_DIR [EXAMPLE.anim...]

For the layers the export writes exactly, that is plane layers (a layer animc draws in
3D is exported as a projection, W0805) that are not mattes, with images only when every
picture was embedded (the examples' are in examples/assets; W0806 says one was not): each such layer is drawn
alone at the middle frame, by ThorVG from the export (every other layer emptied, mattes
off: Tests/lottie/check_players.py's probe) and by `animc render --layer`; the alpha-
weighted centroid must agree within 0.25 px and the coverage within 1% plus ThorVG's mean
anti-aliasing error (0.04) per edge pixel: its edges are not exact (a ring animc draws
within 0.04% of the annulus's area is 3.2% short in ThorVG at 1×, 1.2% at 8×
supersampling). An example whose
every layer is written exactly is also compared whole, at five frames: at most 1% of the
pixels may differ by more than 8/255 away from anti-aliased edges (the edge rule of
compare_chromium.py).

Needs thorvg-python and Pillow. Exits 1 on a failure.
"""
import json, os, subprocess, sys
from PIL import Image, ImageChops

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lottie"))
sys.path.insert(0, HERE)
from check_players import ThorVG, probe_document  # noqa: E402
from measure import centroid_and_coverage, edge_count, edges  # noqa: E402

ANIMC, OUT = sys.argv[1], sys.argv[2]
FILES = sys.argv[3:] or sorted(os.path.join(d, f) for d, _, fs in os.walk("examples") for f in fs if f.endswith(".anim"))
failures = []


def fail(message):
    failures.append(message)
    print("FAIL", message)


def thorvg_image(player, doc_bytes, frame, w, h):
    """ThorVG's frame as RGBA (premultiplied ARGB words unpacked, then unpremultiplied)."""
    argb = player.render_argb(doc_bytes, frame, w, h)
    out = bytearray(w * h * 4)
    for i, px in enumerate(argb):
        a = (px >> 24) & 0xFF
        r, g, b = (px >> 16) & 0xFF, (px >> 8) & 0xFF, px & 0xFF
        if a:
            r, g, b = min(255, r * 255 // a), min(255, g * 255 // a), min(255, b * 255 // a)
        out[i * 4:i * 4 + 4] = bytes((r, g, b, a))
    return Image.frombytes("RGBA", (w, h), bytes(out))


def animc_image(source, t, name, layer=None):
    out = os.path.join(OUT, name)
    subprocess.run([ANIMC, "render", source, "--at", repr(t), "-o", out] + (["--layer", layer] if layer else []),
                   check=True, capture_output=True)
    return Image.open(out).convert("RGBA")


THORVG_EDGE_ERROR = 0.04


def over_white(image):
    white = Image.new("RGBA", image.size, (255, 255, 255, 255))
    white.alpha_composite(image)
    return white.convert("RGB")


player = ThorVG()
os.makedirs(OUT, exist_ok=True)
for source in FILES:
    name = os.path.basename(source)[:-5]
    lottie = os.path.join(OUT, name + ".lottie.json")
    built = subprocess.run([ANIMC, "build", source, "--target", "lottie", "-o", lottie], capture_output=True, text=True)
    if built.returncode != 0:
        print("skip", source, "(a library or a file with errors)")
        continue
    doc = json.load(open(lottie))
    data = open(lottie, "rb").read()
    timeline = os.path.join(OUT, name + ".timeline.json")
    subprocess.run([ANIMC, "build", source, "--target", "timeline", "-o", timeline], check=True, capture_output=True)
    ids = {l["id"] for l in json.load(open(timeline))["layers"]}
    w, h, fr = int(doc["w"]), int(doc["h"]), float(doc["fr"])
    n = int(round(doc["op"] - doc["ip"]))
    middle = int(doc["ip"]) + n // 2
    projected = "W0805" in built.stderr
    exact_layers, inexact = [], 0
    for layer in doc["layers"]:
        # An image layer draws what animc draws once its picture is embedded (W0806 says
        # one was not: a grey placeholder the size of the layer).
        if layer.get("td") or layer.get("tt") or (layer["ty"] == 2 and "W0806" in built.stderr):
            inexact += 1
            continue
        # Layers the export adds (the composition's background) have no animc layer to draw alone.
        if layer["ty"] == 4 and layer["nm"] in ids:
            exact_layers.append(layer["nm"])
    checked = 0
    for lid in exact_layers:
        probe = json.dumps(probe_document(doc, {lid})).encode()
        tv = thorvg_image(player, probe, middle, w, h)
        mine = animc_image(source, middle / fr, "%s-%s.png" % (name, "".join(c if c.isalnum() else "_" for c in lid)), lid)
        (c1, a1), (c2, a2) = centroid_and_coverage(tv.getchannel("A")), centroid_and_coverage(mine.getchannel("A"))
        if a1 < 20 and a2 < 20:
            continue
        if c1 is None or c2 is None:
            # A layer drawn in 3D is a projection in the export: only its plane parts compare.
            if not projected:
                fail("%s: layer %s draws in one renderer only (ThorVG %.1f, animc %.1f)" % (name, lid, a1, a2))
            continue
        dc = ((c1[0] - c2[0]) ** 2 + (c1[1] - c2[1]) ** 2) ** 0.5
        da = abs(a1 - a2) / max(a1, a2)
        line = "%s frame %d: layer %s alone: centroid %.3f px apart, coverage %.2f%% apart" % (name, middle, lid, dc, da * 100)
        checked += 1
        # Coverage: 1%, plus ThorVG's own anti-aliasing error on each edge pixel (0.04 on
        # average: a ring animc draws within 0.04% of the annulus's area is 3.2% short in
        # ThorVG, over as many edge pixels as it has pixels).
        edge_pixels = edge_count(mine.getchannel("A"))
        allowed = 0.01 * max(a1, a2) + THORVG_EDGE_ERROR * edge_pixels
        if (dc > 0.25 or abs(a1 - a2) > allowed) and not projected:
            fail(line + " (coverage allowed %.1f px², %d edge pixels)" % (allowed, edge_pixels))
        elif dc > 0.25 or abs(a1 - a2) > allowed:
            print("skip", line, "(the export projects 3D layers, W0805)")
        else:
            print("ok", line)
    if inexact == 0 and not projected:
        for f in sorted({0, n // 4, n // 2, 3 * n // 4, n - 1}):
            frame = int(doc["ip"]) + f
            tv = over_white(thorvg_image(player, data, frame, w, h))
            mine = over_white(animc_image(source, frame / fr, "%s-whole-%d.png" % (name, frame)))

            diff = ImageChops.difference(tv, mine).split()
            worst = ImageChops.lighter(ImageChops.lighter(diff[0], diff[1]), diff[2]).point(lambda v: 255 if v > 8 else 0)
            off_edges = ImageChops.subtract(worst, ImageChops.multiply(edges(tv), edges(mine)))
            bad = sum(1 for v in off_edges.get_flattened_data() if v) / (w * h)
            raw = sum(1 for v in worst.get_flattened_data() if v) / (w * h)
            line = "%s frame %d whole: %.3f%% of pixels differ by more than 8/255 (%.3f%% counting anti-aliased edges)" % (
                name, frame, bad * 100, raw * 100)
            if bad > 0.01:
                fail(line)
            else:
                print("ok", line)
    print("ok", name, "(%d layers compared alone%s)" % (checked, "" if inexact == 0 and not projected else "; not whole: images, mattes or 3D"))

if failures:
    print("%d failure(s)" % len(failures))
    sys.exit(1)
print("animc and ThorVG agree on every layer the export writes exactly")
