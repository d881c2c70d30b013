/* §02 three lenses: each layer's states and probe accuracy (generated/data/lenses.json). */
StackWidgets.register("lenses", {
  title: "Three lenses: what each layer of a trained stack works with",
  data: ["generated/data/lenses.json"],
  mount(ctx, d) {
    const W = StackWidgets, h = W.h, s = W.s, L = d.num_layers, H = d.hidden_size;
    const LABEL = { pos: "part of speech", word_number: "the word's own number",
      subject_number: "the subject's number", subject_number_mismatch:
        "the subject's number after a mismatched attractor" };
    const yw = 4 * H + 16, rects = [];
    const map = s("svg.w-heat", { viewBox: `0 0 ${32 * d.words.length + 8} ${yw + 34}`,
      role: "img" }, d.words.map((word, w) => [...Array(H).keys()].map((k) =>
      (rects[w * H + k] = s("rect", { x: 4 + 32 * w, y: 4 + 4 * k, width: 30, height: 4 })))
      .concat(s("text", { x: 20 + 32 * w, y: yw, transform: `rotate(35 ${20 + 32 * w} ${yw})`,
        class: w === d.subject_index || w === d.verb_index ? "w-key" : null }, word))));
    const title = h("p.w-title"), note = h("p.w-caption");
    const say = h("p.w-status", { "aria-live": "polite" });
    const bars = h("div.w-probes");
    const show = (l) => {
      ctx.el.dataset.lens = l;
      title.replaceChildren(`Lens ${l}: layer ${l} reads ${l > 1 ? `layer ${l - 1}'s states`
        : "the word vectors"} and writes `, W.math(`h_t^{[${l}]}`));
      note.textContent = `Heat map: layer ${l}'s ${H} channels (rows) after each word ` +
        "(columns); colour = sign, strength = size. Bars: held-out accuracy of a linear probe " +
        `on what layer ${l} reads and writes; the tick marks the majority-class baseline.`;
      map.ariaLabel = `Heat map of layer ${l}'s state, ${H} channels by ` +
        `${d.words.length} words of “${d.text}”`;
      const c = ` w-l${((l - 1) % 3) + 1}`;
      map.setAttribute("class", "w-heat" + c);
      bars.className = "w-probes" + c;
      d.h[l - 1].flat().forEach((v, i) => {
        rects[i].setAttribute("class", v < 0 ? "neg" : "pos");
        rects[i].style.opacity = W.clamp(Math.abs(v), 0.04, 1).toFixed(3);
      });
      const said = [];
      bars.replaceChildren(...Object.entries(d.accuracy).map(([f, acc]) => {
        const base = d.features[f].majority;
        said.push(`${LABEL[f] || f} ${W.pct(acc[l])}`);
        const row = (cls, label, v) => h("div", { class: `w-pbar ${cls}` }, h("span", label),
          h("span.w-track", h("span.w-fill", { style: `width:${100 * v}%` }),
            h("span.w-base", { style: `left:${100 * base}%` })),
          h("span.w-pval", { "data-value": v, text: W.pct(v) }));
        return h("div.w-probe", { "data-feature": f }, h("p", `${LABEL[f] || f} `,
          h("small", { text: `(${d.features[f].kind}; baseline ${W.pct(base)})` })),
        row("in", `reads (${d.probe_layers[l - 1]})`, acc[l - 1]),
        row("out", `writes (${d.probe_layers[l]})`, acc[l]));
      }));
      say.textContent = `Layer ${l} writes: ${said.join(", ")} (probe accuracy).`;
    };
    ctx.ui.append(W.radios("Lens", [...Array(L).keys()].map((i) => [i + 1, `Layer ${i + 1}`]), 1,
      (v) => show(Number(v))), title, map, note, bars, say);
    show(1);
  },
});
