/* §06 live stack: a trained 2-layer LSTM reads both probes; #probe=P&word=N. */
StackWidgets.register("live-stack", {
  title: "Live stack: a trained two-layer LSTM reading the probes",
  data: ["generated/data/live_stack.json"],
  mount(ctx, d) {
    const W = StackWidgets, h = W.h, s = W.s, pr = d.probes, H = d.hidden_size;
    const TAG = ["surface features", "integrated meaning"];
    let p = 0, t = -1;
    const tokens = h("div.w-tokens", { role: "group", "aria-label": "Token stream: " +
      "choose a word to jump to it" });
    const panels = Array.from({ length: d.num_layers }, (_, l) => {
      const bars = Array.from({ length: H }, (_, k) => s("rect", { x: 2 + k * 10, width: 8 }));
      const svg = s("svg", { viewBox: `0 0 ${H * 10 + 4} 80`, class: `w-chan w-l${l + 1}`,
        role: "img" }, s("line", { x1: 0, x2: H * 10 + 4, y1: 40, y2: 40 }), bars);
      const mean = h("span.w-big", { "data-layer": l + 1 });
      const box = h("div", h("p.w-title", `Layer ${l + 1} · `,
        W.math(`h_t^{[${l + 1}]}`), ` — ${TAG[l] || "upper layer"}`), svg, h("p", "mean |h| ", mean));
      return { bars, svg, mean, box };
    });
    const status = h("p.w-status", { role: "status" });
    const go = (w) => {
      const q = pr[p];
      t = W.clamp(w, -1, q.words.length - 1);
      [...tokens.children].forEach((b, k) => {
        b.ariaCurrent = k === t;
        b.classList.toggle("seen", k <= t);
      });
      panels.forEach((pan, l) => {
        const vec = t < 0 ? Array(H).fill(0) : q.h[l][t], m = t < 0 ? 0 : q.mean_abs_h[l][t];
        vec.forEach((v, k) => {
          const len = 38 * W.clamp(Math.abs(v), 0, 1);
          Object.entries({ y: v < 0 ? 40 : 40 - len, height: len, class: v < 0 ? "neg" : "pos" })
            .forEach(([a, x]) => pan.bars[k].setAttribute(a, x));
        });
        pan.mean.textContent = W.num(m, 2);
        pan.mean.dataset.value = m;
        pan.svg.ariaLabel = `Layer ${l + 1}, ${H} channels` + (t < 0 ? ": all zero"
          : ` after “${q.words[t]}”: ${vec.map((v) => W.num(v, 2)).join(", ")}`);
      });
      status.textContent = (t < 0 ? "READY — press Play or Next, or choose a word."
        : `Word ${t + 1} of ${q.words.length}: “${q.words[t]}”.`) + (t === q.verb_index
        ? ` The model prefers “${q.verb.correct}” over “${q.verb.wrong}” (p = ` +
          `${W.num(q.verb.p_correct, 3)}).` : "");
      Object.assign(ctx.el.dataset, { probe: p + 1, word: t + 1 });
    };
    const loop = ctx.loop(() => {
      if (t >= pr[p].words.length - 1) return pause();
      go(t + 1);
    }, 750);
    const play = W.button("Play", () => {
      if (loop.on) return pause();
      if (t >= pr[p].words.length - 1) go(-1);
      loop.start();
      play.ariaPressed = "true"; // a toggle: one name, aria-pressed
      status.ariaLive = "off";
    }, { "aria-pressed": "false" });
    function pause() {
      loop.stop();
      play.ariaPressed = "false";
      status.ariaLive = "polite";
      return false;
    }
    const u = (f) => () => { pause(); go(f()); }; // a user step pauses playback
    const setProbe = (k) => {
      p = k;
      pick.set(k);
      tokens.replaceChildren(...pr[p].words.map((word, w) => W.button(word, u(() => w), {
        class: `w-btn w-token${w === pr[p].subject_index || w === pr[p].verb_index ? " w-key" : ""}` })));
      go(-1);
    };
    const pick = W.radios("Probe sentence", pr.map((q, k) => [k, `Probe ${k + 1}: “${q.text}”`]), 0,
      (v) => { pause(); setProbe(Number(v)); });
    ctx.ui.append(pick, tokens, h("div.w-chans", panels.map((x) => x.box)),
      h("div.w-bar", W.button("Previous", u(() => t - 1)), play,
        W.button("Next", u(() => t + 1)), W.button("Reset", u(() => -1))), status);
    W.arrows(ctx.ui, { prev: u(() => t - 1), next: u(() => t + 1), first: u(() => -1),
      last: u(() => pr[p].words.length - 1) });
    setProbe(W.toInt(W.hash("probe"), 1, pr.length, 1) - 1);
    go(W.toInt(W.hash("word"), 0, pr[p].words.length, 0) - 1);
  },
});
