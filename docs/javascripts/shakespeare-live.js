/* Two models trained on Shakespeare, live: the study's 3 × 128 residual stack and the wide layer
   of the same parameter budget (generated/data/shakespeare_live.json) run in the page
   (shakespeare-model.js), each in its pane (shakespeare-view.js; the pair: shakespeare-panes.js),
   with a legend and the picked character's values (shakespeare-inspect.js). One button (or Ctrl/Cmd+Enter) reads whatever is
   in the box, its last N characters, with both models, which score every character; then both
   write on from its end with the same random draws, at a pace a reader can follow. The random
   stream runs through the session: each press draws new text, and setting the seed starts it
   again. Nothing heavy happens until the reader acts on the widget (widget-start below): the
   weights, a megabyte, load and the models run only then. The widget's data-state says what it
   is doing: waiting | loading | reading | ready | writing | done | empty | error.
   #passage=N opens passage N. */
StackWidgets.register("shakespeare-live", {
  title: "Two Shakespeare models, live: read your text, then write on",
  data: ["generated/data/shakespeare_live.json"],
  uses: ["controls", "shakespeare-style", "shakespeare-model", "shakespeare-view",
    "shakespeare-inspect", "shakespeare-panes"],
  mount(ctx, live) {
    const { h, button, slider, formatFixed, onArrowKeys, clamp, intInRange, hashParam,
      charModel } = StackWidgets;
    const roles = Object.keys(live.models);
    const vocab = live.vocab;
    const limits = live.limits;
    const reduced = matchMedia("(prefers-reduced-motion: reduce)").matches;
    const features = [live.features.find((f) => f.name === limits.feature),
      ...live.features.filter((f) => f.name !== limits.feature)];
    const panes = {};
    for (const role of roles) panes[role] = StackWidgets.charView(live.models[role], features);
    const inspect = StackWidgets.charInspect(live, panes);
    const layout = StackWidgets.charPanes(ctx.el, live, panes, inspect);
    const { pick } = layout;
    const setState = (state) => (ctx.el.dataset.state = state);
    setState("waiting");

    // --- the models and their states after the text so far -----------------------------------
    const models = {};
    const now = {}; // role -> {state, logits}
    let read = null; // what was read last: {raw, length}, and each model's state after it
    let busy = 0; // the run in progress: its number (a newer run or Stop ends an older one)
    let rng = charModel.random(limits.seed);
    let writes = 0; // presses that ran to the end

    /** Model `role` reads one more character (id -1: skipped), the reader's or its own
        (`gen`): its entry for the pane, with what the model computed if it is loaded. */
    const step = (role, ch, id, gen) => {
      const entry = { ch, id, gen, h: null, dh: null, bits: null, logits: null };
      if (id < 0 || !models[role]) return entry;
      now[role] = models[role].read(now[role], id, entry);
      return entry;
    };

    /** Yield to the browser (input, painting) without the 4 ms clamp of nested timers. */
    const channel = new MessageChannel();
    const waiting = [];
    channel.port1.onmessage = () => waiting.shift()();
    const pause = () => new Promise((resolve) => {
      waiting.push(resolve);
      channel.port2.postMessage(0);
    });
    const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

    // --- the controls -----------------------------------------------------------------------
    const note = h("p.w-sl-note", { "aria-live": "polite" });
    const status = h("p.w-status.w-sl-status", { role: "status" });
    const how = StackWidgets.uniqueId("sl-how");
    const field = h("textarea.w-sl-input", { rows: 5, spellcheck: "false",
      "aria-label": "Text for the models to read", "aria-describedby": how });
    const scores = Object.fromEntries(roles.map((role) => [role, h("span.w-big", "–")]));
    const scoreLine = h("div.w-sl-scores", roles.map((role) => h("p.w-sl-score",
      { "data-role": role }, h("span.w-sl-who", live.models[role].label), scores[role],
      h("span", " bits per character on your text"))));

    /** Read `raw` with both models from a fresh state, yielding to the browser every 8 ms;
        score every character. Returns false if a newer run took over. */
    const readText = async (raw, run) => {
      const { out, length, notes } = charModel.readable(raw, vocab, live.same_as, limits.input);
      note.textContent = notes.join(" ");
      setState("reading");
      status.textContent = "Reading…";
      const entries = Object.fromEntries(roles.map((role) => [role, []]));
      for (const role of roles) now[role] = { state: models[role].zeroState(), logits: null };
      let slice = performance.now();
      for (const [ch, id] of out) {
        for (const role of roles) entries[role].push(step(role, ch, id, false));
        if (performance.now() - slice > 8) {
          await pause();
          if (run !== busy) return false;
          slice = performance.now();
        }
      }
      for (const role of roles) panes[role].set(entries[role]); // one layout, no frame between
      read = { raw, count: out.length, length, after: { ...now } };
      ctx.el.dataset.read = out.length;
      for (const role of roles) {
        const bits = panes[role].chars.map((c) => c.bits).filter((b) => b != null);
        const bpc = bits.reduce((a, b) => a + b, 0) / bits.length;
        ctx.el.dataset[`bpc${role[0].toUpperCase()}${role.slice(1)}`] = bits.length ? bpc : "";
        scores[role].textContent = bits.length ? formatFixed(bpc, 2) : "–";
      }
      pick(out.length - 1);
      return true;
    };

    /** Both models write `count` characters from the end of what they read, one character
        each per draw of the session's random stream. */
    const write = async (count, run) => {
      setState("writing");
      go.textContent = "Stop";
      const atOnce = quick.checked;
      status.textContent = `Writing ${count} characters with each model…`;
      // What is new shows every 100 ms (at once: every 50 ms of computing, then the browser's
      // turn): each showing costs the browser a frame, as much as several characters do.
      const start = performance.now();
      let shown = start;
      const show = (k) => {
        for (const role of roles) panes[role].flush();
        pick(read.count + k);
        shown = performance.now();
      };
      for (let k = 0; k < count && run === busy; k++) {
        const u = rng();
        for (const role of roles) {
          const p = charModel.softmax(now[role].logits, temperature);
          const id = charModel.draw(p, u);
          panes[role].add(step(role, vocab[id], id, true));
        }
        if (k === count - 1 || performance.now() - shown > (atOnce ? 50 : 100)) {
          show(k);
          if (atOnce) await pause();
        }
        if (!atOnce) await sleep(start + ((k + 1) * 1000) / limits.pace - performance.now());
      }
      go.textContent = "Write on";
      for (const role of roles) panes[role].flush(); // what was written before a Stop, too
      if (run !== busy) return;
      for (const role of roles) panes[role].el.dataset.written = panes[role].written();
      ctx.el.dataset.written = panes[roles[0]].written().length;
      ctx.el.dataset.writes = ++writes;
      pick(panes[roles[0]].chars.length - 1);
      status.textContent = `Each model wrote ${ctx.el.dataset.written} characters, from the ` +
        "same random draws. Press again for new ones; pick a character to see its values.";
      setState("done");
    };

    /** The one action: read the box (again, unless it is what was read), then write on. */
    const press = () => load(async () => {
      if (ctx.el.dataset.state === "writing") {
        busy++;
        go.textContent = "Write on";
        status.textContent = "Stopped.";
        setState("done");
        return;
      }
      const run = ++busy;
      const raw = field.value;
      if (!raw.trim()) {
        note.textContent = "";
        status.textContent = "The box is empty: type or paste some text, or pick a passage, " +
          "then press Write on.";
        setState("empty");
        return;
      }
      if (read && read.raw === raw) { // the same text: back to where the reading ended
        for (const role of roles) panes[role].keep(read.count);
        Object.assign(now, read.after);
      } else if (!(await readText(raw, run))) return;
      await write(Number(length.value), run);
    });

    const passage = h("select.w-sl-select", { "aria-label": "Start from a passage",
      onchange: () => {
        field.value = live.passages[Number(passage.value)].text;
        load(() => readOnly());
      } }, live.passages.map((p, k) => h("option", { value: k, text: p.label })),
    h("option", { value: "own", text: "your own text", disabled: true }));
    // The menu names what the box holds: a passage, or, once edited, the reader's own text.
    field.addEventListener("input", () => {
      const k = live.passages.findIndex((p) => p.text === field.value);
      passage.value = k < 0 ? "own" : k;
    });
    const readOnly = async () => {
      const run = ++busy;
      go.textContent = "Write on";
      if (!field.value.trim()) {
        status.textContent = "The box is empty: type or paste some text, or pick a passage.";
        setState("empty");
        return;
      }
      if (await readText(field.value, run)) {
        status.textContent = "Both models read it. Press Write on to let them continue.";
        setState("ready");
      }
    };
    const strips = h("select.w-sl-select", { "aria-label": "What the strips show",
      onchange: () => {
        for (const role of roles) panes[role].setShowing(strips.value);
        inspect.showLegend(strips.value);
        pick(layout.selected());
      } }, features.map((f) => h("option", { value: f.name, text: `cell: ${f.label}` })),
    h("option", { value: "dh", text: "mean change |Δh| of each layer" }));
    const length = h("select.w-sl-select", { "aria-label": "Characters to write" },
      limits.lengths.map((n) => h("option", { value: n, text: `${n} characters` })));
    const quick = h("input", { type: "checkbox" });
    quick.checked = reduced; // reduced motion: the text appears at once
    const seedField = h("input.w-sl-seed", { type: "number", min: 0, max: 99999,
      value: limits.seed, "aria-label": "Seed of the random draws",
      oninput: () => {
        const seed = intInRange(seedField.value, 0, 99999, limits.seed);
        rng = charModel.random(seed);
        load();
        status.textContent = `The random draws start again from seed ${seed}.`;
      },
      onchange: () => { // a value out of range was clamped: show the seed in use
        const seed = intInRange(seedField.value, 0, 99999, limits.seed);
        if (String(seed) !== seedField.value) {
          seedField.value = seed;
          status.textContent = `Seeds run from 0 to 99999: the draws start again from ${seed}.`;
        }
      } });
    let temperature = limits.temperature;
    const go = button("Write on", press, { "aria-keyshortcuts": "Control+Enter Meta+Enter" });
    field.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        press();
      }
    });

    // --- widget-start: the reader's first action shows the live parts and loads the weights --
    // Until then, its controls and the static figure of the first passage (what prints): no
    // megabyte of weights, no seconds of a phone's main thread on models the reader may not use.
    // A copy, last in the UI: the page's own figure would shift down as the UI came above it.
    const picture = ctx.el.querySelector(":scope > p > picture, :scope > p > img");
    const still = h("p.w-sl-still", picture ? picture.cloneNode(true) : []);
    let unstarted = []; // the parts shown once started (filled in under "the page")
    const show = () => {
      if (!unstarted.length) return;
      for (const part of unstarted.splice(0)) part.hidden = false;
      still.hidden = true;
      // The reserved height (widgets.css, runtime.js) kept the mount from moving the page; from
      // the reader's action on, the widget takes the height it needs.
      ctx.el.style.cssText = "--w-reserve: 0; --w-reserve-lg: 0";
      layout.fit();
      // The passage's rows are laid out now, before the weights come: reading only fills them.
      const { out } = charModel.readable(field.value, vocab, live.same_as, limits.input);
      const geometry = layout.measure();
      for (const role of roles) {
        panes[role].set(out.map(([ch, id]) => step(role, ch, id, false)), geometry);
      }
      if (window.StackA11y) window.StackA11y(); // the table and panes, now shown, to patch
    };
    let ready = null;
    const kb = roles.reduce((n, role) => n + live.models[role].weights_bytes, 0) / 1024;
    const load = (then) => {
      if (!ready) {
        show();
        setState("loading");
        status.textContent = `Loading the two models (${Math.round(kb)} KB of weights)…`;
        ready = Promise.all(roles.map((role) => charModel.loadModel(live.models[role].weights,
          role).then((m) => (models[role] = m)))).then(() => {
          ctx.el.dataset.model = "ready";
          return then ? null : readOnly();
        }).catch((error) => {
          ready = null;
          setState("error");
          status.textContent = `The models could not load (${error.message}).`;
          still.hidden = false; // what they would draw, on screen again
        });
      }
      return then ? ready.then(() => roles.every((r) => models[r]) && then()) : ready;
    };
    // Pressing, picking a passage and setting the seed start it too (they call load).
    ctx.el.addEventListener("pointerdown", () => load(), { once: true });
    field.addEventListener("focus", () => load(), { once: true });

    // --- the page -------------------------------------------------------------------------
    const temperatureSlider = slider("Temperature", { min: 0.1, max: 1.5, step: 0.1,
      value: temperature }, (v) => formatFixed(v, 1), (v) => (temperature = v));
    unstarted = [scoreLine,
      h("div.w-controls", h("label.w-sl-show", "Strips and tint show: ", strips)),
      inspect.legend, ...layout.el, inspect.el];
    for (const part of unstarted) part.hidden = true;
    ctx.ui.append(
      h("p.w-title", "Type a text; two models read it and write on"),
      h("p.w-sl-how", { id: how }, `Type or paste anything, or pick a passage. Write on ` +
        `(or Ctrl+Enter) reads the last ${limits.input} characters of the box with both ` +
        "models, then lets each write on from the same random draws."),
      h("div.w-controls", h("label.w-sl-show", "Start from ", passage)), field,
      h("div.w-controls", go, length,
        h("label.w-check", quick, "Write at once"), temperatureSlider,
        h("label", "Seed ", seedField)),
      note, status, ...unstarted,
      h("p.w-caption", "Running live in your browser: " + roles.map((role) => {
        const m = live.models[role];
        return `${m.run} (${m.label}), test ${formatFixed(m.test_bpc, 3)} bits per character` +
          ` (${formatFixed(m.shipped_test_bpc, 3)} as shipped in int8)`;
      }).join("; ") + "."), still);
    const first = intInRange(hashParam("passage"), 1, live.passages.length, 1) - 1;
    passage.value = first;
    field.value = live.passages[first].text;
    inspect.showLegend(strips.value);
    inspect.show(-1); // the table's rows hold their place before a character is picked
    status.textContent = `The two models (${Math.round(kb)} KB of weights) load when you ` +
      "start: click in the box, pick a passage or press Write on. The figure shows the first " +
      "passage meanwhile.";
  },
});
