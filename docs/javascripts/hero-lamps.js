/* Home: three lamps per word fire bottom -> top; autoplay only on screen, never reduced. */
StackWidgets.register("hero-lamps", {
  title: "Three lamps per word: a three-layer stack reading the probe sentence",
  data: ["generated/data/hero.json"],
  mount(ctx, d) {
    const W = StackWidgets, h = W.h, L = d.num_layers, n = d.words.length, total = n * L;
    let pos = 0, hold = 0, auto = !W.reduced();
    const lamps = []; // [w * L + l]: climb order
    const grid = h("div.w-lampgrid", { "aria-hidden": "true" }, d.words.map((word, w) => {
      const col = d.lamp.map((row, l) => {
        const lamp = h("span", { class: `w-lamp w-l${(l % 3) + 1}`, "data-level": row[w] });
        lamp.style.setProperty("--lv", W.clamp(row[w], 0.08, 1));
        return (lamps[w * L + l] = lamp);
      });
      return h("span.w-lampcol", col.reverse(), h("span", { class: w ===
        d.subject_index || w === d.verb_index ? "w-key" : null, text: word }));
    }));
    const status = h("p.w-status", { role: "status" });
    const show = (announce) => {
      lamps.forEach((lamp, k) => {
        lamp.classList.toggle("on", k < pos);
        lamp.classList.toggle("now", k === pos - 1);
      });
      ctx.el.dataset.pos = pos;
      status.ariaLive = announce ? "polite" : "off";
      const w = Math.floor((pos - 1) / L), l = (pos - 1) % L;
      status.textContent = pos ? `“${d.words[w]}” (word ${w + 1} of ${n}): layer ${l + 1} fires, ` +
        `mean |h| ${W.num(d.mean_abs_h[l][w], 2)}${l === L - 1 ? " — the climb is complete." : "."}`
        : "Ready: no word read yet.";
    };
    const loop = ctx.loop(() => {
      if (pos < total) { pos++; hold = 0; } else if (++hold > 6) pos = 0;
      show(false);
    }, 320);
    const playing = (on) => { // a toggle: aria-pressed, one name
      play.ariaPressed = on;
      ctx.el.dataset.playing = on;
    };
    const start = () => { if (pos >= total) pos = 0; loop.start(); playing(true); };
    const u = (f) => () => { auto = false; loop.stop(); playing(false); pos = W.clamp(f(), 0, total); show(true); };
    const play = W.button("Play", () => (loop.on ? u(() => pos)() : start()));
    ctx.ui.append(h("p.w-caption", "Live · three layers per word. Teal → sky → violet: layer " +
      "1, 2, 3 of a trained stack; brightness = that layer's mean |h| for the word, scaled to " +
      "its brightest word."),
    grid, h("div.w-bar", play, W.button("Step back", u(() => pos - 1)),
      W.button("Step", u(() => pos + 1)), W.button("Restart", u(() => 0))), status);
    W.arrows(ctx.ui, { prev: u(() => pos - 1), next: u(() => pos + 1), first: u(() => 0),
      last: u(() => total) });
    playing(false);
    show(false);
    ctx.onvisible = () => { if (auto) { auto = false; start(); } };
  },
});
