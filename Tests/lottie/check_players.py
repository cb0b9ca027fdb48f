#!/usr/bin/env python3
"""Plays every example's Lottie export in two real players and compares with animc.

For each example: `animc build --target lottie` and `--target baked`; the Lottie file
is validated against the Lottie 1.0 JSON Schema (PyPI `lottie-specs`); then each
plane layer that draws a rect or an image is drawn alone (every other drawable
emptied, mattes off) by ThorVG (PyPI `thorvg-python`) and by rlottie (Debian
`librlottie-dev`, through its C API with ctypes) at several frames, and by ThorVG at the
half frame after each too (it draws between frames; rlottie takes whole frames), where
the centre must be within 2 px and the alpha within 0.02. The alpha-weighted
centroid of the pixels must be where animc's composed matrix puts the centre of the
layer's bounds (within 0.5 px), the covered area what the matrix makes of the bounds
(within 3%), and the alpha of the inside what animc's opacity says (within 1/255 after
rounding). Layers animc draws in 3D are exported as projections (W0805) and skipped.
Mattes are checked by pixels: FILE.pixels beside FILE.anim lists colours the whole
export (mattes on) must show at given pixels and frames, worked out by hand.

An image layer is probed as a white rect of its asset's size in its place: what is
checked is where the players put the layer and how opaque, not how they filter
bitmaps (rlottie 0.1 draws an opaque image with alpha 253; ThorVG snaps a scaled image
to whole pixels). rlottie does not draw a layer below about 1% opacity, so layers
under 2% are checked only for not being drawn visibly.

Usage: check_players.py ANIMC_BINARY OUT_DIR EXAMPLE.anim...
Exits 1 on any mismatch, 2 when a player is missing.
"""
import copy
import ctypes
import ctypes.util
import json
import math
import os
import subprocess
import sys


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")
    return p


class ThorVG:
    name = "ThorVG"

    def __init__(self):
        import thorvg_python as tvg
        self.tvg = tvg
        self.engine = tvg.Engine()

    def render_argb(self, doc_bytes, frame, w, h):
        """Premultiplied ARGB words, row by row."""
        tvg = self.tvg
        canvas = tvg.SwCanvas(self.engine)
        canvas.set_target(w, h, cs=tvg.Colorspace.ARGB8888)
        buffer = canvas.buffer_arr
        anim = tvg.LottieAnimation(self.engine)
        pic = anim.get_picture()
        result = pic.load_data(doc_bytes, "lottie", None, True)
        if result != tvg.Result.SUCCESS:
            raise RuntimeError(f"ThorVG could not load the file: {result}")
        canvas.add(pic)
        anim.set_frame(float(frame))
        canvas.update()
        canvas.draw(True)
        canvas.sync()
        pixels = list(buffer)
        canvas.destroy()
        return pixels

    def render(self, doc_bytes, frame, w, h):
        return [(px >> 24) & 0xFF for px in self.render_argb(doc_bytes, frame, w, h)]


class RLottie:
    name = "rlottie"

    def __init__(self):
        path = ctypes.util.find_library("rlottie") or "librlottie.so.0"
        self.lib = ctypes.CDLL(path)
        self.lib.lottie_animation_from_data.restype = ctypes.c_void_p
        self.lib.lottie_animation_from_data.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p]
        self.lib.lottie_animation_render.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_uint32),
                                                     ctypes.c_size_t, ctypes.c_size_t, ctypes.c_size_t]
        self.lib.lottie_animation_destroy.argtypes = [ctypes.c_void_p]
        self.serial = 0

    def render(self, doc_bytes, frame, w, h):
        return [(px >> 24) & 0xFF for px in self.render_argb(doc_bytes, frame, w, h)]

    def render_argb(self, doc_bytes, frame, w, h):
        """Premultiplied ARGB words, row by row."""
        self.serial += 1  # rlottie caches parsed files by key: every probe is a new one
        anim = self.lib.lottie_animation_from_data(doc_bytes, f"probe-{self.serial}".encode(), b"")
        if not anim:
            raise RuntimeError("rlottie could not load the file")
        buffer = (ctypes.c_uint32 * (w * h))()
        self.lib.lottie_animation_render(anim, frame, buffer, w, h, w * 4)
        self.lib.lottie_animation_destroy(anim)
        return list(buffer)


def measure(alphas, w, h):
    total = sx = sy = 0.0
    inside = []
    for i, a in enumerate(alphas):
        if a:
            x, y = i % w + 0.5, i // w + 0.5
            total += a
            sx += a * x
            sy += a * y
            inside.append(a)
    if total == 0:
        return None
    inside.sort()
    return {"area": total / 255, "cx": sx / total, "cy": sy / total, "alpha": inside[int(len(inside) * 0.9)]}


def baked_value(layer, key, frame):
    if key in layer.get("animated", {}):
        return layer["animated"][key][frame]
    return layer["constant"].get(key)


def export_and_bake(animc, path, out, name):
    """`animc build` a file to Lottie and to baked frames at twice the export's rate
    (sample 2f is frame f, 2f + 1 the half frame after): the paths and both documents."""
    lottie_path, baked_path = f"{out}/{name}.lottie.json", f"{out}/{name}.baked.json"
    run([animc, "build", path, "--target", "lottie", "-o", lottie_path])
    doc = json.load(open(lottie_path))
    run([animc, "build", path, "--target", "baked", "--fps", repr(2 * doc["fr"]), "-o", baked_path])
    return lottie_path, baked_path, doc, json.load(open(baked_path))


def series(entry, frame):
    return entry["constant"] if "constant" in entry else entry["frames"][frame]


def probe_document(doc, target_names):
    """The document with only the layers named in target_names drawing."""
    probe = copy.deepcopy(doc)
    for layer in probe["layers"]:
        layer.pop("tt", None)
        layer.pop("tp", None)
        if layer.get("td"):
            layer.pop("td")
            layer["ty"] = 3
            layer.pop("shapes", None)
            layer.pop("refId", None)
            continue
        if layer["nm"] in target_names:
            if layer["ty"] == 2:
                asset = next(a for a in probe["assets"] if a["id"] == layer["refId"])
                w, h = asset["w"], asset["h"]
                layer["ty"] = 4
                layer.pop("refId")
                layer["shapes"] = [{"ty": "gr", "it": [
                    {"ty": "rc", "d": 1, "s": {"a": 0, "k": [w, h]}, "p": {"a": 0, "k": [w / 2, h / 2]}, "r": {"a": 0, "k": 0}},
                    {"ty": "fl", "c": {"a": 0, "k": [1, 1, 1]}, "o": {"a": 0, "k": 100}, "r": 1},
                    {"ty": "tr", "a": {"a": 0, "k": [0, 0]}, "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]},
                     "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": 100}}]}]
            continue
        if layer["ty"] == 4:
            layer["shapes"] = []
        elif layer["ty"] == 2:
            layer["ty"] = 3
            layer.pop("refId", None)
    return probe


def pixel_probes(path):
    """FILE.pixels beside FILE.anim: `frame x y r g b` lines, worked out by hand, the
    colours a player must draw there over white, within 3 per channel (what the
    transforms cannot show: what a matte lets through). By frame: {frame: [(x, y, rgb)]}."""
    spec = path[:-5] + ".pixels"
    probes = {}
    if os.path.exists(spec):
        for line in open(spec):
            if line.strip() and not line.startswith("#"):
                f, x, y, r, g, b = line.split()[:6]
                probes.setdefault(int(f), []).append((int(x), int(y), (int(r), int(g), int(b))))
    return probes


def pixel_differs(seen, want):
    return any(abs(p - q) > 3 for p, q in zip(seen, want))


def check_pixels(players, path, doc, name):
    """The pixel probes of `path`, in the whole export (mattes and all) drawn by the
    players."""
    probes = pixel_probes(path)
    if not probes:
        return 0, 0
    w, h = int(doc["w"]), int(doc["h"])
    data = json.dumps(doc).encode()
    failures = checked = 0
    # rlottie 0.1 draws a track-matted layer only when it covers the whole canvas
    # (docs/formats.md, "Not worked around"), so only ThorVG is asked here; lottie-web's
    # pixels are checked by check_lottie_web.py.
    print(f"{name}: pixel probes in ThorVG only (rlottie 0.1 draws no matted layer smaller than the canvas)")
    for player in [p for p in players if p.name != "rlottie"]:
        for frame, points in sorted(probes.items()):
            pixels = player.render_argb(data, frame, w, h)
            for x, y, want in points:
                px = pixels[y * w + x]
                a = (px >> 24) & 0xFF
                seen = tuple(min(255, ((px >> shift) & 0xFF) + 255 - a) for shift in (16, 8, 0))
                checked += 1
                if pixel_differs(seen, want):
                    failures += 1
                    print(f"FAIL {name} frame {frame} in {player.name}: pixel ({x}, {y}) is {seen}, expected {want}")
    return failures, checked


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    animc, out, examples = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(out, exist_ok=True)
    try:
        import jsonschema
        import lottie_specs.resources
        schema = lottie_specs.resources.load_specs()
        players = [ThorVG(), RLottie()]
    except Exception as e:  # a missing package or library: CI installs them
        print(f"check_players: {e}", file=sys.stderr)
        return 2
    validator = jsonschema.Draft202012Validator(schema) if "2020" in schema.get("$schema", "") else jsonschema.Draft7Validator(schema)
    failures = 0
    checked = 0
    for example in examples:
        name = os.path.basename(example)[:-5]
        lottie_path, baked_path, doc, baked = export_and_bake(animc, example, out, name)
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
        if errors:
            failures += 1
            print(f"FAIL {name}: not valid Lottie 1.0: {errors[0].message} at {list(errors[0].path)}")
        w, h = int(doc["w"]), int(doc["h"])
        n = int(round(doc["op"] - doc["ip"]))
        picks = sorted({0, n // 4, n // 2, (3 * n) // 4, n - 1})
        # Whole frames in both players; the half frame after each in ThorVG, which draws
        # between frames (rlottie takes whole frames only), within 2 px.
        frames = [(2 * f, f, players) for f in picks] + [(2 * f + 1, f + 0.5, players[:1]) for f in picks
                                                          if 2 * f + 1 < baked["frameCount"]]
        lottie_names = {l["nm"] for l in doc["layers"]}
        for layer in baked["layers"]:
            lid = layer["id"]
            if layer["isMask"] or lid not in lottie_names:
                continue
            drawn = [l for l in doc["layers"] if l["nm"] == lid and l["ty"] in (2, 4)]
            if not drawn:
                continue
            if drawn[0]["ty"] == 4 and not any(s.get("nm") == "background" for s in drawn[0].get("shapes", [])):
                continue  # paths and gradients: their pixels are not a rect
            probe = json.dumps(probe_document(doc, {lid})).encode()
            for k, f, drawing in frames:
                half = k % 2 == 1
                m = series(layer["matrix"], k)
                if any(abs(m[j]) > 1e-9 for j in (2, 3, 6, 7, 8, 9, 11, 14)) or abs(m[15] - 1) > 1e-9:
                    break  # drawn in 3D: a projection (W0805), not checked here
                bx, by, bw, bh = baked_value(layer, "bounds", k)
                opacity = series(layer["opacity"], k)
                bg = baked_value(layer, "backgroundColor", k)
                alpha = opacity * (bg[3] if drawn[0]["ty"] == 4 and bg else 1)
                cx, cy = bx + bw / 2, by + bh / 2
                ex, ey = cx * m[0] + cy * m[4] + m[12], cx * m[1] + cy * m[5] + m[13]
                radius = min(baked_value(layer, "cornerRadius", k) or 0, bw / 2, bh / 2) if drawn[0]["ty"] == 4 else 0
                area = abs(m[0] * m[5] - m[1] * m[4]) * (bw * bh - (4 - math.pi) * radius * radius)
                visible = alpha >= 0.02 and area >= 4 and 2 <= ex <= w - 2 and 2 <= ey <= h - 2
                for player in drawing:
                    got = measure(player.render(probe, f, w, h), w, h)
                    checked += 1
                    where = f"{name} '{lid}' frame {f} in {player.name}"
                    if not visible:
                        if got and got["area"] * got["alpha"] / 255 > 2 and area >= 4 and alpha * 255 < 0.5:
                            failures += 1
                            print(f"FAIL {where}: drawn, animc says invisible (opacity {alpha:.4f})")
                        continue
                    if got is None:
                        failures += 1
                        print(f"FAIL {where}: nothing drawn; animc: centre ({ex:.2f}, {ey:.2f}), opacity {alpha:.4f}")
                        continue
                    problems = []
                    if abs(got["cx"] - ex) > (2 if half else 0.5) or abs(got["cy"] - ey) > (2 if half else 0.5):
                        clipped = ex - bw < 0 or ey - bh < 0 or ex + bw > w or ey + bh > h
                        if not clipped:
                            problems.append(f"centre ({got['cx']:.2f}, {got['cy']:.2f}) vs ({ex:.2f}, {ey:.2f})")
                    # ThorVG truncates an opacity to 8 bits and scales by x/256, each up to
                    # a level short: a faded layer (a replicator's copy at 0.6375) draws
                    # 161 for 162.6. Two levels and a half, not one and a half.
                    if abs(got["alpha"] - alpha * 255) > (0.02 * 255 + 0.5 if half else 2.5):
                        problems.append(f"alpha {got['alpha']} vs {alpha * 255:.1f}")
                    if area > 50 and abs(got["area"] / (got["alpha"] / 255 or 1) - area) > 0.03 * area + 4 * math.sqrt(area):
                        if not (ex - bw < 0 or ey - bh < 0 or ex + bw > w or ey + bh > h):
                            problems.append(f"area {got['area'] / (got['alpha'] / 255 or 1):.0f} vs {area:.0f}")
                    if problems:
                        failures += 1
                        print(f"FAIL {where}: " + "; ".join(problems))
        failed, probed = check_pixels(players, example, doc, name)
        failures += failed
        checked += probed
        print(f"{name}: {os.path.getsize(lottie_path)} bytes of Lottie ({os.path.getsize(baked_path)} baked), schema "
              f"{'ok' if not errors else 'FAILED'}")
    print(f"{checked} player renders checked, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
