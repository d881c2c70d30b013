/* A stack trained on Shakespeare, live: the study's 3×128 residual model (seed 0) runs in the
   page (shakespeare-model.js), drawn by shakespeare-view.js. The reader picks a test-play passage
   or types one; under every character, one strip per layer shows the cell of the chosen feature
   (the probes' most selective cell, generated/data/shakespeare_live.json) or the layer's mean
   change |Δh|; the arrow keys or a click pick a character, whose values and next characters show
   below; and Continue lets the stack write on, one character at a time, yielding to the browser
   between characters. The weights load when the widget nears the screen or is first used; until
   then the static figure stays. #passage=N opens passage N. */
StackWidgets.register("shakespeare-live", {
  title: "Live Shakespeare stack: every layer under every character",
  data: ["generated/data/shakespeare_live.json"],
  uses: ["controls", "shakespeare-model", "shakespeare-view"],
  mount(ctx, live) {
    const { h, button, slider, formatFixed, onArrowKeys, clamp, intInRange, hashParam,
      charModel } = StackWidgets;
    const view = StackWidgets.charView(ctx, live);
    const { chars } = view;
    const L = live.model.layers;
    const H = live.model.hidden;
    const vocab = live.vocab;
    const limits = live.limits;
    const maxText = limits.input + Math.max(...limits.lengths);
    const reduced = matchMedia("(prefers-reduced-motion: reduce)").matches;

    // --- the model's state after the text so far -----------------------------------------
    let state = null;
    let logits = null;
    let model = null;
    let busy = 0; // a run in progress: its number (a newer run stops an older one)

    /** Read one more character (id -1: skipped), the reader's or the stack's (`gen`); it
        joins the view, drawn now unless `later`. */
    const push = (ch, id, gen, later = false) => {
      const entry = { ch, id, gen, h: null, dh: null, logits: null };
      if (id >= 0) {
        const out = model.step(state, id);
        entry.h = new Float32Array(L * H);
        entry.dh = out.state.map((layer, l) => {
          let moved = 0;
          for (let k = 0; k < H; k++) {
            entry.h[l * H + k] = layer.h[k];
            moved += Math.abs(layer.h[k] - state[l].h[k]);
          }
          return moved / H;
        });
        entry.logits = out.logits;
        state = out.state;
        logits = out.logits;
      }
      view.add(entry, later);
    };

    /** Yield to the browser (input, painting) without the 4 ms clamp of nested timers. */
    const channel = new MessageChannel();
    const waiting = [];
    channel.port1.onmessage = () => waiting.shift()();
    const pause = () => new Promise((resolve) => {
      waiting.push(resolve);
      channel.port2.postMessage(0);
    });

    // --- reading and writing --------------------------------------------------------------
    const note = h("p.w-sl-note", { "aria-live": "polite" });
    const status = h("p.w-status.w-sl-status", { role: "status" });
    const field = h("textarea.w-sl-input", { rows: 4, spellcheck: "false",
      "aria-label": "Text for the stack to read" });
    let temperature = limits.temperature;

    /** Read `raw` from a fresh state, yielding to the browser every 12 ms. */
    const read = async (raw) => {
      const run = ++busy;
      playing(false);
      const { out, notes } = charModel.readable(raw, vocab, live.same_as, limits.input);
      note.textContent = notes.join(" ");
      status.textContent = "Reading…";
      view.clear();
      state = model.zeroState();
      logits = null;
      let slice = performance.now();
      for (const [ch, id] of out) {
        push(ch, id, false, true);
        if (performance.now() - slice > 12) {
          await pause();
          if (run !== busy) return;
          slice = performance.now();
        }
      }
      view.redraw();
      view.select(chars.length - 1);
      status.textContent = `Read ${chars.length} characters. Pick one with the arrow keys, ` +
        "or press Continue.";
    };

    /** Let the stack write, one character per task; announce the text once, at the end. */
    const write = async () => {
      if (!logits) {
        status.textContent = "Nothing to continue: pick a passage or type some text first.";
        return;
      }
      const room = maxText - chars.length;
      if (room <= 0) {
        status.textContent = `The text is at its ${maxText}-character limit: read a passage again.`;
        return;
      }
      const run = ++busy;
      const count = Math.min(Number(length.value), room);
      const rng = charModel.random(intInRange(seedField.value, 0, 99999, limits.seed));
      playing(true);
      status.ariaLive = view.heading.ariaLive = "off"; // no announcement per character
      status.textContent = `Writing ${count} characters…`;
      const start = chars.length;
      let undrawn = start; // the first character not drawn yet
      let drawn = performance.now();
      for (let k = 0; k < count && run === busy; k++) {
        const id = charModel.draw(charModel.softmax(logits, temperature), rng());
        push(vocab[id], id, true, true);
        // What is new is drawn every 50 ms, a line at a time with reduced motion: every
        // drawing costs the browser a frame, and more frames than that would slow the stack.
        const due = reduced ? vocab[id] === "\n" : performance.now() - drawn > 50;
        if (due || k === count - 1) {
          view.drawFrom(undrawn);
          undrawn = chars.length;
          drawn = performance.now();
          view.select(chars.length - 1, false);
        }
        await pause(); // the browser's turn: input, painting
      }
      view.drawFrom(undrawn);
      ctx.el.dataset.written = chars.length - start;
      view.select(chars.length - 1);
      if (run === busy) playing(false);
      const text = chars.slice(start).map((c) => c.ch).join("");
      status.ariaLive = view.heading.ariaLive = "polite";
      status.textContent = `The stack wrote ${text.length} characters: ${text}`;
    };

    // --- controls ---------------------------------------------------------------------------
    const passage = h("select.w-sl-select", { "aria-label": "Passage from a test play",
      onchange: () => load(() => {
        field.value = live.passages[Number(passage.value)].text;
        return read(field.value);
      }) }, live.passages.map((p, k) => h("option", { value: k,
      text: `${p.play.replace(/-/g, " ")}: “${p.text.split("\n")[1]}”` })));
    const strips = h("select.w-sl-select", { "aria-label": "What the strips show",
      onchange: () => model && view.setShowing(strips.value) },
    live.features.map((f) => h("option", { value: f.name, text: `cell: ${f.label}` })),
    h("option", { value: "dh", text: "mean change |Δh| of each layer" }));
    const length = h("select.w-sl-select", { "aria-label": "Characters to write" },
      limits.lengths.map((n) => h("option", { value: n, text: `${n} characters` })));
    const seedField = h("input.w-sl-seed", { type: "number", min: 0, max: 99999,
      value: limits.seed, "aria-label": "Seed of the random draws" });
    const go = button("Continue", () => load(() => (go.ariaPressed === "true" ? stop()
      : write())), { "aria-pressed": "false" });
    const stop = () => {
      busy++;
      playing(false);
    };
    function playing(on) {
      go.ariaPressed = String(on); // a toggle: one name, pressed while the stack writes
    }
    const temperatureSlider = slider("Temperature", { min: 0.1, max: 1.5, step: 0.1,
      value: temperature }, (v) => formatFixed(v, 1), (v) => {
      temperature = v;
    });

    // --- the weights: fetched when the widget nears the screen or is first used -----------
    let ready = null;
    const figure = ctx.el.querySelector(":scope > p picture") ||
      ctx.el.querySelector(":scope > p img");
    view.box.append(h("div.w-sl-wait", figure ? figure.cloneNode(true) : null,
      h("p", `The live model (${Math.round(live.model.weights_bytes / 1024)} KB of weights) ` +
        "loads when you come near. Until then, the figure shows what it draws, for the first " +
        "lines of one passage.")));
    const load = (then) => {
      if (!ready) {
        status.textContent = "Loading the model's weights…";
        ready = charModel.loadModel(live.model.weights).then((m) => {
          model = m;
          view.box.replaceChildren(view.lines);
          ctx.el.dataset.model = "ready";
          return read(field.value);
        }).catch((error) => {
          ready = null;
          status.textContent = `The model could not load (${error.message}); the figure ` +
            "shows what it would draw.";
        });
      }
      return then ? ready.then(() => model && then()) : ready;
    };
    const near = window.IntersectionObserver && new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        near.disconnect();
        load();
      }
    }, { rootMargin: "400px 0px" });
    if (near) near.observe(ctx.el);
    else load();
    ctx.ui.addEventListener("focusin", () => load(), { once: true });

    const pick = (t) => view.select(clamp(t, 0, chars.length - 1));
    onArrowKeys(view.box, { prev: () => pick(view.selected() - 1),
      next: () => pick(view.selected() + 1), first: () => pick(0),
      last: () => pick(chars.length - 1) });
    new ResizeObserver(() => model && view.setShowing(view.showing())).observe(view.box);

    const m = live.model;
    ctx.ui.append(
      h("div.w-controls", passage, button("Read my text", () => load(() => read(field.value)))),
      field, note, h("div.w-controls", h("label.w-sl-show", "Strips: ", strips)), view.box,
      view.inspector,
      h("div.w-controls", go, length, temperatureSlider, h("label", "Seed ", seedField)), status,
      h("p.w-caption", `Running live in your browser: ${m.run} (${m.layers} × ${m.hidden} ` +
        `LSTM, residual), test ${formatFixed(m.test_bpc, 3)} bits per character; the shipped ` +
        `int8 weights score ${formatFixed(m.shipped_test_bpc, 3)}.`));
    const first = intInRange(hashParam("passage"), 1, live.passages.length, 1) - 1;
    passage.value = first;
    field.value = live.passages[first].text;
    strips.value = view.showing();
  },
});
