/// The player's stylesheet, markup and script, kept as source text so the page is one
/// file and the package needs no resource bundle. The script reads the data element
/// and never builds markup from strings: names go in with `textContent` and
/// `setAttribute` only.
enum PreviewAssets {
    static let style = #"""
    :root { color-scheme: light dark; --bar: #3b82f6; --fill: #93c5fd; --grid: #8884; }
    body { margin: 0; font: 13px/1.4 system-ui, sans-serif; }
    header, #controls, #chart { padding: 6px 12px; }
    header { font-weight: 600; }
    #viewport { position: relative; overflow: auto; padding: 12px; background: repeating-conic-gradient(#8882 0 25%, transparent 0 50%) 0 0 / 16px 16px; }
    #stage { position: relative; overflow: hidden; box-shadow: 0 0 0 1px #8886; }
    .g { position: absolute; left: 0; top: 0; width: 100%; height: 100%; pointer-events: none; isolation: isolate; }
    .l { position: absolute; left: 0; top: 0; transform-origin: 0 0; box-sizing: border-box; background-repeat: no-repeat; }
    .l > svg { position: absolute; left: 0; top: 0; overflow: visible; }
    .placeholder { background-color: #8e8e93; }
    #diagnostics { position: absolute; left: 12px; right: 12px; top: 12px; margin: 0; padding: 8px; background: #300c; color: #fdd; white-space: pre-wrap; font: 12px/1.3 ui-monospace, monospace; }
    #controls { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
    #scrub { flex: 1; min-width: 200px; }
    #clock { font-variant-numeric: tabular-nums; min-width: 15em; }
    #chart { position: relative; user-select: none; }
    .row { display: flex; align-items: stretch; border-top: 1px solid var(--grid); }
    .row > .name { width: 180px; flex: none; padding: 2px 6px 2px 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    .row > .track { position: relative; flex: 1; min-height: 16px; }
    .bar { position: relative; height: 12px; margin: 2px 0; }
    .seg { position: absolute; top: 0; height: 100%; border-radius: 2px; min-width: 1px; }
    .seg.active { background: var(--bar); }
    .seg.fillingBackwards, .seg.fillingForwards { background: repeating-linear-gradient(135deg, var(--fill) 0 3px, transparent 3px 6px); outline: 1px solid var(--fill); outline-offset: -1px; }
    .bar.group .seg.active { background: #64748b; }
    #playhead { position: absolute; top: 0; bottom: 0; width: 1px; background: #e11d48; pointer-events: none; }
    """#

    static let body = #"""
    <header id="title"></header>
    <div id="viewport"><div id="stage"></div><pre id="diagnostics" hidden></pre></div>
    <div id="controls">
      <button id="play" type="button" title="play or pause (space)">▶</button>
      <label><input id="loop" type="checkbox" checked> loop</label>
      <label>speed <select id="speed"><option>0.1</option><option>0.25</option><option>0.5</option><option selected>1</option><option>1.5</option><option>2</option></select>×</label>
      <input id="scrub" type="range" min="0" value="0" step="1" aria-label="frame">
      <span id="clock"></span>
    </div>
    <div id="chart"></div>
    """#

    static let script = #"""
    (function () {
    "use strict";
    const SVG = "http://www.w3.org/2000/svg";
    const $ = (id) => document.getElementById(id);
    const stage = $("stage");
    const css = (c) => c ? "rgba(" + Math.round(c[0] * 255) + "," + Math.round(c[1] * 255) + "," + Math.round(c[2] * 255) + "," + c[3] + ")" : "transparent";

    // The data (docs/preview.md, "The page's data"): what load() last showed.
    let data, layers, frames, fps, start, W, H, shown, byId, nodes, chart, chartText;

    // A series as one value per frame: {"n": column} numbers, {"c": [column, ...]}
    // lists of numbers, {"r": [[count, value], ...]} anything else. A column is a
    // number at every frame or items that are a number or [count, number].
    function column(c, n) {
      const out = new Array(n);
      if (typeof c === "number") return out.fill(c);
      let f = 0;
      for (const item of c) {
        if (typeof item === "number") out[f++] = item;
        else { out.fill(item[1], f, f + item[0]); f += item[0]; }
      }
      return out;
    }
    function series(s, n) {
      if (s.n !== undefined) return column(s.n, n);
      if (s.c !== undefined) {
        const cols = s.c.map((c) => column(c, n)), out = new Array(n);
        for (let f = 0; f < n; f++) out[f] = cols.map((c) => c[f]);
        return out;
      }
      const out = new Array(n); let f = 0;
      for (const [count, v] of s.r) { out.fill(v, f, f + count); f += count; }
      return out;
    }
    // Constant matrices and opacities are kept once; the rest per frame.
    const constantOrFrames = (s, n) => {
      if (s.n !== undefined && typeof s.n === "number") return { constant: s.n };
      if (s.c !== undefined && s.c.every((c) => typeof c === "number")) return { constant: s.c };
      return { frames: series(s, n) };
    };
    // Animated properties are expanded when first read: the drawing reads few of them
    // (geometry comes from the matrix), and an update of many layers is shown sooner.
    function decodeLayer(l, n) {
      const animated = {};
      for (const [name, s] of Object.entries(l.animated)) {
        Object.defineProperty(animated, name, { enumerable: true, configurable: true, get() {
          const v = series(s, n);
          Object.defineProperty(animated, name, { value: v, enumerable: true });
          return v;
        } });
      }
      return Object.assign({}, l, { animated, matrix: constantOrFrames(l.matrix, n), opacity: constantOrFrames(l.opacity, n) });
    }

    // Numbers are drawn clamped into their property's range, as Core Animation draws an
    // opacity animated from -1 or a spring's overshoot.
    const value = (l, name, f) => {
      const a = l.animated[name], v = a !== undefined ? a[f] : l.constant[name], r = shown[name];
      if (r === undefined || typeof v !== "number") return v;
      return r[1] !== null && v > r[1] ? r[1] : r[0] !== null && !(v >= r[0]) ? r[0] : v;
    };
    const matrix = (l, f) => l.matrix.constant || l.matrix.frames[f];
    const opacity = (l, f) => l.opacity.constant !== undefined ? l.opacity.constant : l.opacity.frames[f];

    // Core Animation's row-vector matrix maps a layer's bounds to the composition:
    // p' = [x y 0 1] · M. CSS matrix3d takes the same 16 numbers in the same order.
    function project(m, x, y) {
      const X = x * m[0] + y * m[4] + m[12], Y = x * m[1] + y * m[5] + m[13], Wc = x * m[3] + y * m[7] + m[15];
      return Wc > 0 ? [X / Wc, Y / Wc] : null;
    }
    // The outline of a rounded rectangle, as points.
    function roundedRect(b, r) {
      const [x, y, w, h] = b;
      r = Math.max(0, Math.min(r || 0, w / 2, h / 2));
      if (r === 0) return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]];
      const pts = [], corners = [[x + w - r, y + r, -Math.PI / 2], [x + w - r, y + h - r, 0], [x + r, y + h - r, Math.PI / 2], [x + r, y + r, Math.PI]];
      for (const [cx, cy, a0] of corners) for (let k = 0; k <= 6; k++) { const a = a0 + k * Math.PI / 12; pts.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]); }
      return pts;
    }
    // UIKit's arcs turn with increasing angle when clockwise (y down), at most one turn;
    // a whole turn apart is the whole circle either way (PathGeometry.sweep).
    function sweep(a0, a1, cw) {
      const full = 2 * Math.PI; let d = a1 - a0;
      if (Math.abs(d) >= full) return cw ? full : -full;
      if (cw) { if (d < 0) d += full * Math.ceil(-d / full); return Math.min(d, full); }
      if (d > 0) d -= full * Math.ceil(d / full);
      return Math.max(d, -full);
    }
    // A path as SVG path data, and as polygons (for masks).
    function pathData(elements) {
      let d = "", pen = null, startPt = null;
      const polys = []; let poly = null;
      const move = (x, y) => { d += "M" + x + " " + y; pen = startPt = [x, y]; poly = [[x, y]]; polys.push(poly); };
      const line = (x, y) => { if (!pen) return move(x, y); d += "L" + x + " " + y; pen = [x, y]; poly.push([x, y]); };
      for (const e of elements || []) {
        switch (e[0]) {
          case "move": move(e[1], e[2]); break;
          case "line": line(e[1], e[2]); break;
          case "quad": { if (!pen) move(e[3], e[4]); const [x0, y0] = pen; d += "Q" + e.slice(1, 5).join(" ");
            for (let k = 1; k <= 8; k++) { const t = k / 8, u = 1 - t; poly.push([u * u * x0 + 2 * u * t * e[1] + t * t * e[3], u * u * y0 + 2 * u * t * e[2] + t * t * e[4]]); }
            pen = [e[3], e[4]]; break; }
          case "cubic": { if (!pen) move(e[5], e[6]); const [x0, y0] = pen; d += "C" + e.slice(1, 7).join(" ");
            for (let k = 1; k <= 12; k++) { const t = k / 12, u = 1 - t;
              poly.push([u * u * u * x0 + 3 * u * u * t * e[1] + 3 * u * t * t * e[3] + t * t * t * e[5], u * u * u * y0 + 3 * u * u * t * e[2] + 3 * u * t * t * e[4] + t * t * t * e[6]]); }
            pen = [e[5], e[6]]; break; }
          case "arc": {
            const [, cx, cy, r, a0, a1, cw] = e, s = sweep(a0, a1, cw);
            const p0 = [cx + r * Math.cos(a0), cy + r * Math.sin(a0)];
            if (pen) line(p0[0], p0[1]); else move(p0[0], p0[1]);
            // SVG cannot draw a whole turn as one arc: two halves.
            const parts = Math.abs(s) > Math.PI ? 2 : 1;
            for (let k = 1; k <= parts; k++) {
              const a = a0 + s * k / parts, p = [cx + r * Math.cos(a), cy + r * Math.sin(a)];
              d += "A" + r + " " + r + " 0 " + (Math.abs(s / parts) > Math.PI ? 1 : 0) + " " + (s > 0 ? 1 : 0) + " " + p[0] + " " + p[1];
            }
            const n = Math.max(2, Math.ceil(Math.abs(s) / (Math.PI / 24)));
            for (let k = 1; k <= n; k++) { const a = a0 + s * k / n; poly.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]); }
            pen = [cx + r * Math.cos(a0 + s), cy + r * Math.sin(a0 + s)]; break; }
          case "close": if (pen) { d += "Z"; pen = startPt; } break;
        }
      }
      return { d, polys };
    }
    // A clip-path polygon, in stage coordinates, of points in a layer's coordinates.
    function clipPolygon(points, m) {
      const out = [];
      for (const p of points) { const q = project(m, p[0], p[1]); if (!q) return "none"; out.push(q[0].toFixed(3) + "px " + q[1].toFixed(3) + "px"); }
      return out.length >= 3 ? "polygon(" + out.join(",") + ")" : "polygon(0 0)";
    }

    // The DOM: per layer, an untransformed group as big as the stage (so clip paths
    // are in stage coordinates and nest), holding the layer's element and then its
    // sublayers' groups, in Core Animation's drawing order.
    let gradients = 0;
    function makeNode(l) {
      const group = document.createElement("div"); group.className = "g";
      const el = document.createElement("div"); el.className = "l"; el.setAttribute("data-layer", l.id);
      const kids = document.createElement("div"); kids.className = "g";
      group.append(el, kids);
      const node = { l, group, el, kids };
      if (l.kind === "shape") {
        const svg = document.createElementNS(SVG, "svg"); svg.setAttribute("width", "1"); svg.setAttribute("height", "1");
        const g = document.createElementNS(SVG, "g"); const path = document.createElementNS(SVG, "path");
        path.setAttribute("pathLength", "1"); g.append(path); svg.append(g); el.append(svg);
        Object.assign(node, { svg, g, path });
      } else if (l.kind === "gradient") {
        const svg = document.createElementNS(SVG, "svg"); svg.setAttribute("preserveAspectRatio", "none");
        const defs = document.createElementNS(SVG, "defs"), id = "grad" + gradients++;
        const rect = document.createElementNS(SVG, "rect"); rect.setAttribute("width", "100%"); rect.setAttribute("height", "100%");
        rect.setAttribute("fill", "url(#" + id + ")"); svg.append(defs, rect); el.append(svg);
        Object.assign(node, { svg, defs, gradientId: id });
      }
      return node;
    }
    // Builds the stage's elements for `layers`. When the tree is the one `old` had
    // (and the images are the same), every layer keeps its elements, which the browser
    // need not build, lay out or draw again; only a layer whose kind changed gets new
    // ones, which take the old ones' place and its sublayers' groups.
    function buildStage(old, keep) {
      const before = nodes;
      nodes = new Map();
      const inPlace = keep && before && old.length === layers.length
        && layers.every((l, i) => l.id === old[i].id && l.parent === old[i].parent && l.isMask === old[i].isMask);
      if (inPlace) {
        for (const l of layers) {
          const was = before.get(l.id);
          if (was.l === l) { nodes.set(l.id, was); continue; }
          if (was.l.kind === l.kind) {
            // The same kind of layer with other values: the elements stay, and drawing
            // writes only the styles that differ.
            was.l = l; was.shownContents = undefined;
            nodes.set(l.id, was);
            continue;
          }
          const node = makeNode(l);
          node.kids.append(...was.kids.childNodes);
          if (was.group.parentNode) was.group.replaceWith(node.group);
          nodes.set(l.id, node);
        }
        return;
      }
      stage.replaceChildren();
      for (const l of layers) {
        const node = makeNode(l);
        nodes.set(l.id, node);
        const parent = l.parent !== null ? nodes.get(l.parent) : null;
        // Masks are not drawn: they shape the layer that names them.
        if (l.isMask) continue;
        (parent ? parent.kids : stage).append(node.group);
      }
    }

    function contents(node, name, f) {
      const { l, el } = node;
      if (node.shownContents === name) return;
      node.shownContents = name;
      el.style.backgroundImage = ""; el.classList.remove("placeholder"); el.removeAttribute("title");
      if (name == null) return;
      const url = data.images[name];
      if (url) {
        el.style.backgroundImage = "url(\"" + url + "\")";
        const g = value(l, "contentsGravity", f);
        el.style.backgroundSize = g === "resizeAspect" ? "contain" : g === "resizeAspectFill" ? "cover" : g === "resize" ? "100% 100%" : "auto";
        el.style.backgroundPosition = "center";
      } else {
        // The grey every backend draws for an image with no file (Color.missingImage);
        // its name shows on hover, not as text over the picture.
        el.classList.add("placeholder"); el.title = "no file for image '" + name + "'";
      }
    }

    // A shape layer's path as SVG attributes, for its own drawing and for masking by it.
    // An attribute that does not apply is null (removed).
    function shapeAttributes(l, f) {
      const a = {
        d: pathData(value(l, "path", f)).d, fill: css(value(l, "fillColor", f)),
        "fill-rule": value(l, "fillRule", f) === "evenOdd" ? "evenodd" : "nonzero",
        stroke: css(value(l, "strokeColor", f)), "stroke-width": value(l, "lineWidth", f),
        "stroke-linecap": value(l, "lineCap", f), "stroke-linejoin": value(l, "lineJoin", f),
        "stroke-miterlimit": value(l, "miterLimit", f), pathLength: null, "stroke-dasharray": null, "stroke-dashoffset": null,
      };
      const s0 = Math.max(0, Math.min(1, value(l, "strokeStart", f))), s1 = Math.max(0, Math.min(1, value(l, "strokeEnd", f)));
      const dash = value(l, "lineDashPattern", f) || [];
      if (s0 > 0 || s1 < 1) {
        // strokeStart/strokeEnd as a dash over a path measured as length 1 (a dash
        // pattern is then not drawn: the page's one approximation of shape strokes).
        Object.assign(a, { pathLength: 1, "stroke-dasharray": s1 > s0 ? (s1 - s0) + " 2" : "0 2", "stroke-dashoffset": -s0 });
      } else if (dash.length) {
        Object.assign(a, { "stroke-dasharray": dash.join(" "), "stroke-dashoffset": value(l, "lineDashPhase", f) });
      }
      return a;
    }
    function drawShape(node, f) {
      const { l, path, g } = node;
      const b = value(l, "bounds", f);
      g.setAttribute("transform", "translate(" + -b[0] + " " + -b[1] + ")");
      for (const [name, v] of Object.entries(shapeAttributes(l, f))) {
        if (v === null) path.removeAttribute(name); else path.setAttribute(name, v);
      }
    }

    // A shape mask as an SVG image the size of the stage: its path drawn as Core
    // Animation draws it (fill, stroke with its width, caps, joins and dashes), through
    // the mask's matrix, at the mask's opacity.
    function shapeMaskImage(k, f, m, alpha) {
      const attr = (name, v) => v === null ? "" : " " + name + "='" + v + "'";
      const path = Object.entries(shapeAttributes(k, f)).map(([name, v]) => attr(name, v)).join("");
      const svg = "<svg xmlns='" + SVG + "'" + attr("width", W) + attr("height", H) + "><g" + attr("opacity", alpha)
        + attr("transform", "matrix(" + [m[0], m[1], m[4], m[5], m[12], m[13]].join(" ") + ")") + "><path" + path + "/></g></svg>";
      return "url(\"data:image/svg+xml," + encodeURIComponent(svg) + "\")";
    }
    function setMask(el, image) {
      for (const p of ["maskImage", "webkitMaskImage"]) put(el, p, image);
      for (const [p, v] of [["maskSize", W + "px " + H + "px"], ["maskRepeat", "no-repeat"], ["maskPosition", "0 0"]]) {
        put(el, p, image ? v : ""); put(el, "webkit" + p[0].toUpperCase() + p.slice(1), image ? v : "");
      }
    }

    function drawGradient(node, f) {
      const { l, defs, gradientId, svg } = node;
      const b = value(l, "bounds", f);
      svg.setAttribute("width", b[2]); svg.setAttribute("height", b[3]);
      const colors = value(l, "colors", f) || [], locations = value(l, "locations", f) || [];
      const type = value(l, "gradientType", f), p0 = value(l, "startPoint", f), p1 = value(l, "endPoint", f);
      const grad = document.createElementNS(SVG, type === "radial" ? "radialGradient" : "linearGradient");
      grad.setAttribute("id", gradientId);
      if (type === "radial") {
        grad.setAttribute("cx", p0[0]); grad.setAttribute("cy", p0[1]); grad.setAttribute("fx", p0[0]); grad.setAttribute("fy", p0[1]);
        grad.setAttribute("r", Math.hypot(p1[0] - p0[0], p1[1] - p0[1]));
      } else {
        grad.setAttribute("x1", p0[0]); grad.setAttribute("y1", p0[1]); grad.setAttribute("x2", p1[0]); grad.setAttribute("y2", p1[1]);
      }
      colors.forEach((c, i) => {
        const stop = document.createElementNS(SVG, "stop");
        stop.setAttribute("offset", locations.length === colors.length ? locations[i] : colors.length > 1 ? i / (colors.length - 1) : 0);
        stop.setAttribute("stop-color", css(c));
        grad.append(stop);
      });
      defs.replaceChildren(grad);
    }

    // A style is written only when it changes: most properties of most layers hold
    // still, and every write makes the browser look at the element again.
    function put(el, property, v) {
      const written = el.animcStyle || (el.animcStyle = {});
      if (written[property] !== v) { written[property] = v; el.style[property] = v; }
    }

    let frame = 0;
    function render(f) {
      for (const node of nodes.values()) {
        const { l, el, kids, group } = node;
        if (l.isMask) continue;
        const m = matrix(l, f), b = value(l, "bounds", f);
        // The element's origin is the bounds' origin: translate by it, then M.
        const t = m.slice(); for (let k = 0; k < 4; k++) t[12 + k] = b[0] * m[k] + b[1] * m[4 + k] + m[12 + k];
        // An element's points have z = 0, so the z row multiplies nothing; making it
        // the identity's keeps a flattened matrix (z column zero) invertible, which
        // CSS needs to draw the element at all.
        t[8] = 0; t[9] = 0; t[10] = 1; t[11] = 0;
        // Without perspective the same map is a 2D matrix, which the browser draws
        // in place; a 3D one gives each element a compositing layer of its own, and
        // in a software compositor 140 of them took 100 ms a frame.
        const planar = Math.abs(t[3]) < 1e-12 && Math.abs(t[7]) < 1e-12 && Math.abs(t[15] - 1) < 1e-12;
        put(el, "transform", planar ? "matrix(" + [t[0], t[1], t[4], t[5], t[12], t[13]].join(",") + ")" : "matrix3d(" + t.join(",") + ")");
        put(el, "width", Math.max(0, b[2]) + "px"); put(el, "height", Math.max(0, b[3]) + "px");
        put(el, "opacity", String(opacity(l, f)));
        put(el, "backgroundColor", css(value(l, "backgroundColor", f)));
        const radius = value(l, "cornerRadius", f);
        put(el, "borderRadius", radius + "px");
        const bw = value(l, "borderWidth", f);
        put(el, "border", bw > 0 ? bw + "px solid " + css(value(l, "borderColor", f)) : "none");
        const masks = value(l, "masksToBounds", f);
        put(el, "overflow", masks ? "hidden" : "visible");
        const so = value(l, "shadowOpacity", f);
        let boxShadow = "", filter = "";
        if (so > 0) {
          const c = value(l, "shadowColor", f), o = value(l, "shadowOffset", f), r = value(l, "shadowRadius", f);
          const shadow = o[0] + "px " + o[1] + "px " + 2 * r + "px " + css([c[0], c[1], c[2], c[3] * so]);
          if (l.kind === "shape") filter = "drop-shadow(" + shadow + ")"; else boxShadow = shadow;
        }
        put(el, "boxShadow", boxShadow); put(el, "filter", filter);
        contents(node, value(l, "contents", f), f);
        if (l.kind === "shape") drawShape(node, f);
        if (l.kind === "gradient") drawGradient(node, f);
        // masksToBounds clips the sublayers to the (rounded) bounds as projected.
        put(kids, "clipPath", masks ? clipPolygon(roundedRect(b, radius), m) : "");
        // A mask shows the layer and its sublayers where the mask draws, by its alpha:
        // a shape mask's fill and stroke (a stroked ring masks a ring, not the disc it
        // outlines), drawn as an SVG mask image in stage coordinates when the mask is
        // seen without perspective; otherwise the mask's outline, or its (rounded)
        // bounds, as a clip (coverage, not alpha).
        if (l.mask !== null && byId.has(l.mask)) {
          const k = byId.get(l.mask), km = matrix(k, f);
          const planar = Math.abs(km[3]) < 1e-12 && Math.abs(km[7]) < 1e-12 && Math.abs(km[15] - 1) < 1e-12;
          if (k.kind === "shape" && planar) {
            setMask(group, shapeMaskImage(k, f, km, opacity(k, f)));
            put(group, "clipPath", "");
          } else {
            setMask(group, "");
            let polys;
            if (k.kind === "shape") polys = pathData(value(k, "path", f)).polys; else polys = [roundedRect(value(k, "bounds", f), value(k, "cornerRadius", f))];
            const visible = opacity(k, f) > 0 ? polys.filter((p) => p.length >= 3) : [];
            put(group, "clipPath", visible.length ? clipPolygon(visible.reduce((a, p) => a.concat(p, [p[0]]), []), km) : "polygon(0 0)");
          }
        }
      }
      // zPosition orders a layer's sublayers (Core Animation sorts them by it, equal ones
      // in the order they were added): each sibling's rank is its z-index, within its
      // parent's group (every group isolates, so a subtree never interleaves with its
      // parent's siblings).
      const byParent = new Map();
      let anyZ = false;
      for (const node of nodes.values()) {
        if (node.l.isMask) continue;
        const z = value(node.l, "zPosition", f) || 0;
        if (z !== 0) anyZ = true;
        const list = byParent.get(node.l.parent) || [];
        list.push([z, list.length, node]);
        byParent.set(node.l.parent, list);
      }
      for (const list of byParent.values()) {
        const ordered = anyZ && list.some(([z]) => z !== 0);
        if (ordered) list.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
        list.forEach(([, , node], rank) => put(node.group, "zIndex", ordered ? String(rank + 1) : ""));
      }
      frame = f;
    }

    // Controls.
    const scrub = $("scrub"), clock = $("clock"), playButton = $("play");
    const timeOf = (f) => Math.round((start + f / fps) * 1e9) / 1e9;
    function show(f) {
      f = Math.max(0, Math.min(frames - 1, Math.round(f)));
      render(f);
      scrub.value = String(f);
      clock.textContent = "t = " + timeOf(f).toFixed(3) + " s · frame " + f + " / " + (frames - 1);
      const span = chart.end - chart.start;
      playhead.style.left = "calc(180px + (100% - 180px) * " + ((timeOf(f) - chart.start) / span) + ")";
    }
    let playing = false, last = 0, clockTime = 0;
    function tick(now) {
      if (!playing) return;
      clockTime += (now - last) / 1000 * Number($("speed").value);
      last = now;
      let f = Math.floor(clockTime * fps);
      if (f >= frames) {
        if ($("loop").checked) { clockTime = clockTime % (frames / fps); f = Math.floor(clockTime * fps); } else { f = frames - 1; pause(); }
      }
      show(f);
      requestAnimationFrame(tick);
    }
    function play() { if (playing) return; playing = true; playButton.textContent = "❚❚"; clockTime = frame / fps; last = performance.now(); requestAnimationFrame(tick); }
    function pause() { playing = false; playButton.textContent = "▶"; }
    playButton.addEventListener("click", () => playing ? pause() : play());
    scrub.addEventListener("input", () => { pause(); show(Number(scrub.value)); });
    document.addEventListener("keydown", (e) => {
      if (e.target instanceof HTMLSelectElement) return;
      if (e.key === " ") { e.preventDefault(); playing ? pause() : play(); }
      else if (e.key === "ArrowRight") { e.preventDefault(); pause(); show(frame + 1); }
      else if (e.key === "ArrowLeft") { e.preventDefault(); pause(); show(frame - 1); }
    });

    // The timing chart: a row per layer, a bar per animation or group.
    const chartElement = $("chart");
    const playhead = document.createElement("div"); playhead.id = "playhead";
    const fmt = (x) => (Math.round(x * 1e6) / 1e6) + " s";
    const phaseText = { active: "plays", fillingBackwards: "fills backwards", fillingForwards: "holds its end" };
    function buildChart() {
      chartElement.replaceChildren();
      for (const row of chart.rows) {
        const r = document.createElement("div"); r.className = "row";
        const name = document.createElement("div"); name.className = "name"; name.textContent = row.layer; name.title = row.layer;
        const track = document.createElement("div"); track.className = "track";
        for (const bar of row.bars) {
          const b = document.createElement("div"); b.className = "bar" + (bar.group ? " group" : "");
          const what = bar.path + (bar.keyPath ? " (" + bar.keyPath + ")" : " (group)");
          const lines = bar.segments.map((s) => phaseText[s[2]] + " " + fmt(s[0]) + " → " + fmt(s[1]));
          b.title = what + "\n" + (lines.length ? lines.join("\n") : "not shown in this window");
          b.setAttribute("data-animation", bar.path);
          for (const s of bar.segments) {
            const seg = document.createElement("div"); seg.className = "seg " + s[2];
            const span = chart.end - chart.start;
            seg.style.left = (100 * (s[0] - chart.start) / span) + "%";
            seg.style.width = (100 * (s[1] - s[0]) / span) + "%";
            b.append(seg);
          }
          track.append(b);
        }
        r.append(name, track);
        chartElement.append(r);
      }
      chartElement.append(playhead);
    }
    chartElement.addEventListener("click", (e) => {
      const box = chartElement.getBoundingClientRect(), left = box.left + 12 + 180, width = box.width - 24 - 180;
      if (e.clientX < left) return;
      pause(); seek(chart.start + (e.clientX - left) / width * (chart.end - chart.start));
    });

    // Shows `d` (a document, or an update applied to what is shown), keeping the
    // playhead's frame.
    function load(d) {
      const n = d.frames.frameCount;
      if (d.from !== undefined && (!data || d.from !== data.version)) throw new Error("an update for other data");
      const old = layers || [];
      d.frames.layers = d.frames.layers.map((l) => l.same !== undefined ? old[l.same] : decodeLayer(l, n));
      if (d.sameImages) d.images = data.images;
      if (d.frames.layers.some((l) => l === undefined)) throw new Error("an update for other data");
      const baked = d.frames;
      data = d; layers = baked.layers; frames = n; fps = baked.fps; start = baked.window.start;
      [W, H] = baked.composition.size; shown = d.shown || {}; chart = d.chart;
      byId = new Map(layers.map((l) => [l.id, l]));
      $("title").textContent = (baked.composition.name || "composition") + " · " + W + " × " + H + " · " + fps + " fps · " + frames + " frames";
      stage.style.width = W + "px";
      stage.style.height = H + "px";
      stage.style.background = baked.composition.backgroundColor ? css(baked.composition.backgroundColor) : "";
      $("diagnostics").textContent = d.diagnostics.join("\n");
      $("diagnostics").hidden = !d.diagnostics.length;
      buildStage(old, Boolean(d.sameImages));
      const shownChart = JSON.stringify(d.chart);
      if (shownChart !== chartText) { chartText = shownChart; buildChart(); }
      scrub.max = String(frames - 1);
    }
    load(JSON.parse(document.getElementById("animc-data").textContent));

    // The API for tests and users, and #t= in the URL.
    function seek(t) { show((Number(t) - start) * fps); return timeOf(frame); }
    function state() {
      return {
        time: timeOf(frame), frame,
        layers: layers.map((l) => {
          const values = {};
          for (const k of Object.keys(l.animated)) values[k] = l.animated[k][frame];
          return { id: l.id, values, opacity: opacity(l, frame), matrix: matrix(l, frame) };
        }),
      };
    }
    // Each drawn layer's box on the stage as the browser lays it out (after 3D projection).
    function boxes() {
      const origin = stage.getBoundingClientRect(), out = {};
      for (const node of nodes.values()) {
        if (node.l.isMask) continue;
        const r = node.el.getBoundingClientRect();
        out[node.l.id] = [r.left - origin.left, r.top - origin.top, r.width, r.height];
      }
      return out;
    }
    window.animc = { seek, state, boxes, play, pause, get frameCount() { return frames; }, get fps() { return fps; }, get data() { return data; },
                     get version() { return data.version; } };
    const hash = /(?:^#|&)t=([-+0-9.e]+)/.exec(location.hash);
    const keep = sessionStorage.getItem("animc-playhead");
    if (hash) seek(Number(hash[1])); else if (data.events && keep !== null) { sessionStorage.removeItem("animc-playhead"); show(Number(keep)); } else show(0);
    if (data.events) {
      // A served page: on a change, fetch what changed since the version shown and
      // redraw the same frame; the whole page only when that fails. Changes that
      // arrive while one is applied are taken together afterwards.
      let busy = false, again = false;
      async function update() {
        if (busy) { again = true; return; }
        busy = true;
        try {
          do {
            again = false;
            const response = await fetch("/update?from=" + data.version, { cache: "no-store" });
            if (!response.ok) throw new Error("update: HTTP " + response.status);
            load(await response.json());
            show(frame);
            document.dispatchEvent(new CustomEvent("animc-update", { detail: data.version }));
          } while (again);
        } catch (error) {
          sessionStorage.setItem("animc-playhead", String(frame));
          location.reload();
        } finally {
          busy = false;
        }
      }
      const source = new EventSource(data.events);
      source.addEventListener("reload", (e) => { if (Number(e.data) !== data.version) update(); });
    }
    // `#t=1&state` also writes the state and the boxes into the page, for tools that
    // read the DOM (a headless browser's --dump-dom) rather than run script.
    if (/(?:^#|&)state\b/.test(location.hash)) {
      const out = document.createElement("script"); out.type = "application/json"; out.id = "animc-state";
      const stageBox = stage.getBoundingClientRect();
      out.textContent = JSON.stringify({ state: state(), boxes: boxes(), stage: [stageBox.left, stageBox.top], frames: { start, fps, count: frames } }).replace(/</g, "\\u003c");
      document.body.append(out);
    }
    document.documentElement.setAttribute("data-ready", "true");
    })();
    """#
}
