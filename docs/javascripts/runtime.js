/* Widget runtime: StackWidgets.register(name, {title, data, mount(ctx, ...json)}). */
(function () {
  "use strict";
  if (window.StackWidgets) return;
  const src = document.currentScript && document.currentScript.src;
  const root = src ? src.replace(/javascripts\/runtime\.js([?#].*)?$/, "")
    : String(window.__md_scope || location.href);
  const W = window.StackWidgets = { registry: {}, mounts: [], ctxs: [] };
  const cache = {};
  let uid = 0;

  // file:// refuses fetch: the offline copy ships the JSON as window.STACK_DATA
  const offline = window.STACK_DATA || {};
  W.load = (rel) => cache[rel] || (cache[rel] = rel in offline ? Promise.resolve(offline[rel])
    : fetch(new URL(rel, root)).then((r) => {
    if (!r.ok) throw new Error(`${rel} (HTTP ${r.status})`);
    return r.json();
  }).catch((e) => { delete cache[rel]; throw e; }));

  // h("div.x.y", {text, onclick, attr}?, ...children); "svg:g" makes SVG
  W.h = (tag, attrs, ...kids) => {
    if (!attrs || attrs.constructor !== Object) [attrs, kids] = [{}, [attrs, ...kids]];
    const [name, ...cls] = tag.split(".");
    const el = name.startsWith("svg:")
      ? document.createElementNS("http://www.w3.org/2000/svg", name.slice(4))
      : document.createElement(name);
    if (cls.length) el.setAttribute("class", cls.join(" "));
    for (const [k, v] of Object.entries(attrs)) {
      if (v == null || v === false) continue;
      if (k === "text") el.textContent = v;
      else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? "" : v);
    }
    for (const c of kids.flat(3)) if (c != null && c !== false) el.append(c.nodeType ? c : String(c));
    return el;
  };
  W.s = (tag, attrs, ...kids) => W.h("svg:" + tag, attrs, ...kids);
  W.id = (p) => `w-${p}-${++uid}`;

  W.num = (v, d = 4) => { // fixed decimals, true minus sign, no "-0"
    const s = Number(v).toFixed(d);
    return (Number(s) === 0 ? s.replace("-", "") : s).replace("-", "\u2212");
  };
  W.int = (v) => Math.round(v).toLocaleString("en-US");
  W.pct = (v, d = 1) => `${(100 * v).toFixed(d)}\u00a0%`;
  W.vec = (a, d = 4) => `[${a.map((v) => W.num(v, d)).join(", ")}]`;
  W.clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
  W.toInt = (v, lo, hi, dflt) => {
    const n = parseInt(v, 10);
    return Number.isFinite(n) ? W.clamp(n, lo, hi) : dflt;
  };
  W.hash = (key) => new URLSearchParams(location.hash.slice(1)).get(key);
  W.reduced = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

  // Tiny TeX subset -> MathML: atoms with _x/_{..} and ^x/^{..}, "text", \sigma \odot \tanh
  const TEX = { sigma: "σ", odot: "⊙", tanh: "tanh", gamma: "γ" };
  const N = String.raw`(?:(?<![\w)\]}]\s*)[-−])?\d+(?:\.\d+)?`; // a sign after no operand: unary
  const tok = (s) => s.replace(RegExp(`"[^"]*"|[A-Za-zσγ]+|${N}|\\S`, "g"), (m) => (m[0] === '"'
    ? `<mtext>\u00a0${m.slice(1, -1)}\u00a0</mtext>` : /^[A-Za-zσγ]/.test(m) ? `<mi>${m}</mi>`
      : /\d/.test(m) ? `<mn>${m.replace("-", "−")}</mn>`
        : `<mo stretchy="false">${m === "-" ? "−" : m}</mo>`));
  W.math = (tex) => {
    const g = (x) => `<mrow>${tok(x[0] === "{" ? x.slice(1, -1) : x)}</mrow>`;
    const body = tex.replace(/\\([a-z]+)/g, (m, w) => TEX[w] || w).replace(/</g, "&lt;").replace(
      RegExp(String.raw`("[^"]*"|[A-Za-zσγ]+|${N}|[^\s_^{}])(?:_(\{[^{}]*\}|[^\s{}]))?(?:\^(\{[^{}]*\}|[^\s{}]))?`, "g"),
      (m, b, sub, sup) => {
        const t = sub && sup ? "msubsup" : sub ? "msub" : sup ? "msup" : "";
        return t ? `<${t}>${tok(b)}${sub ? g(sub) : ""}${sup ? g(sup) : ""}</${t}>` : tok(b);
      });
    const box = document.createElement("span");
    box.innerHTML = `<math>${body}</math>`;
    return box.firstChild;
  };

  W.button = (label, onclick, attrs) =>
    W.h("button.w-btn", { type: "button", onclick, ...attrs }, label);
  W.radios = (legend, options, value, onchange) => {
    const name = W.id("r");
    const box = W.h("fieldset.w-seg", W.h("legend", legend));
    const inputs = options.map(([val, label]) => {
      const input = W.h("input", { type: "radio", name, value: val, onchange: () => onchange(val) });
      input.checked = String(val) === String(value);
      box.append(W.h("label", input, W.h("span", label)));
      return input;
    });
    box.set = (v) => inputs.forEach((i) => { i.checked = i.value === String(v); });
    return box;
  };
  W.slider = (label, { min, max, step = 1, value }, fmt, oninput) => {
    const id = W.id("s");
    const out = W.h("output", { for: id, "aria-live": "off" }); // said by the slider
    const input = W.h("input", { type: "range", id, min, max, step, value });
    const read = () => {
      const v = W.clamp(Number(input.value), min, max);
      out.textContent = fmt(v);
      input.ariaValueText = fmt(v);
      return v;
    };
    input.addEventListener("input", () => oninput(read()));
    read();
    return W.h("div.w-slider", W.h("label", { for: id, text: label }), out, input);
  };
  W.table = (caption, heads, body) => W.h("table.w-table", W.h("caption",
    { text: caption }), W.h("thead", W.h("tr", heads.map((t) => W.h("th", { scope: "col",
    text: t })))), body);
  W.arrows = (el, map) => el.addEventListener("keydown", (e) => {
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName) || e.altKey || e.ctrlKey || e.metaKey) return;
    const fn = { ArrowLeft: map.prev, ArrowUp: map.prev, ArrowRight: map.next, ArrowDown: map.next,
      Home: map.first, End: map.last }[e.key];
    if (fn) { e.preventDefault(); fn(); }
  });

  // 3-layer stack (blueprint, follow-dot). Parts: x, y, cells c1-3, wires v0-3 (up), m1-3, n1-3
  W.diagram = () => {
    const s = W.s, parts = {}, names = {};
    const sc = (t, v) => v && s("tspan", { "baseline-shift": t, "font-size": "75%" }, v);
    const label = (x, y, base, sub, sup) => s("text", { x, y }, base, sc("sub", sub), sc("super", sup));
    const wire = (x1, y1, x2, y2) => {
      const dx = Math.sign(x2 - x1), dy = Math.sign(y2 - y1);
      return [s("line", { x1, y1, x2: x2 - 6 * dx, y2: y2 - 6 * dy }), s("path.w-head", {
        d: `M${x2} ${y2}l${-7 * dx - 4 * dy} ${-7 * dy - 4 * dx}l${8 * dy} ${8 * dx}z` })];
    };
    const part = (key, name, cls, ...kids) => {
      names[key] = name;
      return (parts[key] = s("g", { class: `w-part w-${key[0]} ${cls}`, "data-part": key }, ...kids));
    };
    const g = s("g");
    for (const [l, top] of [[1, 228], [2, 144], [3, 60]]) {
      const y = top + 22, c = `w-l${l}`, sup = `[${l}]`;
      g.append(part(`m${l}`, `Memory wire of layer ${l}`, c, wire(8, y, 100, y),
        label(10, y - 6, "h", "t−1", sup)), part(`n${l}`, `Handoff of layer ${l}`, c,
        wire(240, y, 332, y), label(250, y - 6, "h", "t", sup)),
        part(`c${l}`, `Layer ${l}`, c, s("rect", { x: 100, y: top, width: 140, height: 44, rx: 8 }),
          s("text.w-strong", { x: 170, y: top + 19 }, `layer ${l}`),
          label(170, top + 35, "Cell", null, sup), label(212, top + 35, "W", null, sup)));
    }
    g.append(...[304, 228, 144, 60].map((y1, k) => part(`v${k}`, k < 3 ? `Wire up into layer ${
      k + 1}` : "Wire up to the output", "", wire(170, y1, 170, [272, 188, 104, 34][k]))),
      part("x", "Input", "", s("circle", { cx: 170, cy: 318, r: 14 }), label(170, 322, "x", "t")),
      part("y", "Output", "", s("circle", { cx: 170, cy: 20, r: 14 }), label(170, 24, "y", "t")));
    return { svg: s("svg.w-diagram.sel", { viewBox: "0 0 340 340" }, g), parts, names };
  };

  // loops tick only while their widget is on screen
  const seen = new WeakMap();
  const io = window.IntersectionObserver && new IntersectionObserver((es) => es.forEach((e) => {
    const c = seen.get(e.target);
    if (c) c.setVisible(e.isIntersecting);
  }));

  function context(el, ui) {
    const ctx = { el, ui, visible: !io, loops: [], onvisible: null };
    ctx.setVisible = (v) => {
      ctx.visible = v;
      ui.classList.toggle("is-visible", v);
      ctx.loops.forEach((l) => l.sync());
      if (v && ctx.onvisible) ctx.onvisible();
    };
    ctx.loop = (fn, ms) => { // fn() === false stops the loop
      let id = 0;
      const l = { on: false };
      l.sync = () => {
        const want = l.on && ctx.visible && el.isConnected;
        if (want && !id) {
          id = setTimeout(() => { id = 0; if (l.on && fn() === false) l.on = false; l.sync(); }, ms);
        }
        if (!want && id) { clearTimeout(id); id = 0; }
        el.dataset.ticking = id ? "1" : "0";
      };
      l.start = () => { l.on = true; l.sync(); };
      l.stop = () => { l.on = false; l.sync(); };
      ctx.loops.push(l);
      return l;
    };
    ctx.keep = (sel) => el.querySelectorAll(`:scope > ${sel}`).forEach((n) => n.classList.add("w-keep"));
    ctx.stop = () => { ctx.loops.forEach((l) => l.stop()); if (io) io.unobserve(ui); };
    return ctx;
  }

  function mount(el, def) {
    el.dataset.widgetState = "loading";
    const ui = W.h("div.w-ui.w-main", { role: "group", "aria-label": def.title },
      W.h("p.w-caption", "Loading the interactive version…"));
    el.prepend(ui);
    const ctx = context(el, ui);
    seen.set(ui, ctx);
    W.ctxs.push(ctx);
    const ready = def.error ? Promise.reject(def.error) : Promise.all((def.data || []).map(W.load));
    ready.then((data) => {
      if (!el.isConnected) return;
      ui.replaceChildren();
      def.mount(ctx, ...data);
      el.dataset.widgetState = "live";
      el.classList.add("is-live");
      W.mounts.push(el.dataset.widget);
      if (window.StackA11y) window.StackA11y();
      if (io) io.observe(ui);
    }).catch((err) => {
      el.dataset.widgetState = "error";
      el.classList.remove("is-live");
      ui.replaceChildren(W.h("p.w-error", { role: "status" }, "The interactive " +
        `version could not start: ${err.message || err}. The static figure below shows the ` +
        "same content."));
    });
  }

  // page speed: a page loads javascripts/<name>.js only if it shows widget <name>
  const asked = {};
  const need = (name) => {
    if (asked[name] || !/^[\w-]+$/.test(name)) return;
    const s = asked[name] = W.h("script", { src: new URL(`javascripts/${name}.js`, root),
      onerror: () => { // the next page showing it tries again
        delete asked[name];
        s.remove();
        document.querySelectorAll(`[data-widget="${name}"]:not([data-widget-state])`).forEach(
          (el) => mount(el, { title: name, error: Error(`javascripts/${name}.js did not load`) }));
      } });
    document.head.append(s);
  };

  let queued = false;
  const scan = () => {
    queued = false;
    W.ctxs = W.ctxs.filter((c) => c.el.isConnected || c.stop());
    document.querySelectorAll(".widget[data-widget]").forEach((el) => {
      const def = W.registry[el.dataset.widget];
      if (!def) need(el.dataset.widget);
      else if (!el.dataset.widgetState) mount(el, def);
    });
  };
  const schedule = () => { if (!queued) { queued = true; setTimeout(scan, 0); } };
  W.register = (name, def) => { W.registry[name] = def; schedule(); };
  if (window.document$) window.document$.subscribe(schedule);
  else addEventListener("DOMContentLoaded", schedule);
  schedule();
})();
