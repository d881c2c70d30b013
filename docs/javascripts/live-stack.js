/* §06 live stack: a trained two-layer LSTM reads the probe sentences word by word; one bar per
   channel of each layer's state (generated/data/live_stack.json). #probe=P&word=N opens there. */
StackWidgets.register("live-stack", {
  title: "Live stack: a trained two-layer LSTM reading the probes",
  data: ["generated/data/live_stack.json"],
  uses: ["controls", "mathml"],
  mount(ctx, live) {
    const { h, svg, button, clamp, formatFixed, mathml, onArrowKeys, radioGroup, intInRange,
      hashParam } = StackWidgets;
    const probes = live.probes;
    const channels = live.hidden_size;
    // what each layer reads; what it keeps is the probes' finding, in the table beside
    const TAGS = ["reads the words", "reads layer 1"];
    const BAR = 10; // width per channel in the chart
    const MIDDLE = 40; // y of the zero line; bars reach up to 38 units either way
    let probe = 0;
    let word = -1; // -1: nothing read yet

    const tokens = h("div.w-tokens", { role: "group",
      "aria-label": "Token stream: choose a word to jump to it" });
    const panels = Array.from({ length: live.num_layers }, (_, l) => {
      const bars = Array.from({ length: channels },
        (_, k) => svg("rect", { x: 2 + k * BAR, width: 8 }));
      const chart = svg("svg", { viewBox: `0 0 ${channels * BAR + 4} 80`,
        class: `w-chan w-l${l + 1}`, role: "img" },
      svg("line", { x1: 0, x2: channels * BAR + 4, y1: MIDDLE, y2: MIDDLE }), bars);
      const mean = h("span.w-big", { "data-layer": l + 1 });
      const box = h("div", h("p.w-title", `Layer ${l + 1} · `, mathml(`h_t^{[${l + 1}]}`),
        ` — ${TAGS[l] || "upper layer"}`), chart, h("p", "mean |h| ", mean));
      return { bars, chart, mean, box };
    });
    const status = h("p.w-status", { role: "status" });

    const go = (target) => {
      const sentence = probes[probe];
      word = clamp(target, -1, sentence.words.length - 1);
      [...tokens.children].forEach((token, k) => {
        token.ariaCurrent = k === word;
        token.classList.toggle("seen", k <= word);
      });
      panels.forEach((panel, l) => {
        const state = word < 0 ? Array(channels).fill(0) : sentence.h[l][word];
        const mean = word < 0 ? 0 : sentence.mean_abs_h[l][word];
        state.forEach((value, k) => {
          const length = 38 * clamp(Math.abs(value), 0, 1);
          const bar = panel.bars[k];
          bar.setAttribute("y", value < 0 ? MIDDLE : MIDDLE - length); // negative: downwards
          bar.setAttribute("height", length);
          bar.setAttribute("class", value < 0 ? "neg" : "pos");
        });
        panel.mean.textContent = formatFixed(mean, 2);
        panel.mean.dataset.value = mean;
        panel.chart.ariaLabel = `Layer ${l + 1}, ${channels} channels` + (word < 0
          ? ": all zero"
          : ` after “${sentence.words[word]}”: ${state.map((v) => formatFixed(v, 2)).join(", ")}`);
      });
      const verb = sentence.verb;
      status.textContent = (word < 0 ? "READY — press Play or Next, or choose a word."
        : `Word ${word + 1} of ${sentence.words.length}: “${sentence.words[word]}”.`) +
        (word === sentence.verb_index ? ` The model prefers “${verb.correct}” over ` +
          `“${verb.wrong}” (p = ${formatFixed(verb.p_correct, 3)}).` : "");
      Object.assign(ctx.el.dataset, { probe: probe + 1, word: word + 1 });
    };

    const atEnd = () => word >= probes[probe].words.length - 1;
    const loop = ctx.loop(() => {
      if (atEnd()) return pause();
      go(word + 1);
      return undefined;
    }, 750);
    const play = button("Play", () => {
      if (loop.on) return pause();
      if (atEnd()) go(-1);
      loop.start();
      play.ariaPressed = "true"; // a toggle: one name, aria-pressed
      status.ariaLive = "off"; // while playing, each word is not announced
      return undefined;
    }, { "aria-pressed": "false" });
    function pause() {
      loop.stop();
      play.ariaPressed = "false";
      status.ariaLive = "polite";
      return false; // also stops the loop when it is the loop that pauses
    }
    /** A step by hand pauses playback, then goes to position(). */
    const byHand = (position) => () => {
      pause();
      go(position());
    };
    const setProbe = (k) => {
      probe = k;
      choice.set(k);
      const sentence = probes[probe];
      tokens.replaceChildren(...sentence.words.map((text, w) => {
        const isKey = w === sentence.subject_index || w === sentence.verb_index;
        return button(text, byHand(() => w), { class: `w-btn w-token${isKey ? " w-key" : ""}` });
      }));
      go(-1);
    };
    const choice = radioGroup("Probe sentence",
      probes.map((sentence, k) => [k, `Probe ${k + 1}: “${sentence.text}”`]), 0, (value) => {
        pause();
        setProbe(Number(value));
      });

    ctx.ui.append(choice, tokens, h("div.w-chans", panels.map((panel) => panel.box)),
      h("div.w-bar", button("Previous", byHand(() => word - 1)), play,
        button("Next", byHand(() => word + 1)), button("Reset", byHand(() => -1))),
      status);
    onArrowKeys(ctx.ui, { prev: byHand(() => word - 1), next: byHand(() => word + 1),
      first: byHand(() => -1), last: byHand(() => probes[probe].words.length - 1) });
    setProbe(intInRange(hashParam("probe"), 1, probes.length, 1) - 1);
    // it opens on the main verb, where the model shows which form it prefers (#word= 1-based)
    const verb = probes[probe].verb_index + 1;
    go(intInRange(hashParam("word"), 0, probes[probe].words.length, verb) - 1);
  },
});
