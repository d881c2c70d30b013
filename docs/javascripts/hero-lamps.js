/* Home: three lamps per word light bottom -> top, word after word, as a trained three-layer stack
   reads the probe sentence (generated/data/hero.json). It plays by itself once it comes on
   screen, unless the reader prefers reduced motion; any step by hand stops it. */
StackWidgets.register("hero-lamps", {
  title: "Three lamps per word: a three-layer stack reading the probe sentence",
  data: ["generated/data/hero.json"],
  uses: ["controls"],
  mount(ctx, hero) {
    const { h, button, clamp, formatFixed, onArrowKeys } = StackWidgets;
    const layers = hero.num_layers;
    const words = hero.words;
    const total = words.length * layers; // lamps, in firing order
    let lit = total; // lamps lit so far: it opens on the whole sentence read, bright and dim
    let pause = 0; // ticks spent on the full sentence before starting again
    let autoplay = !matchMedia("(prefers-reduced-motion: reduce)").matches;

    const lamps = []; // lamps[word * layers + layer]: firing order
    const grid = h("div.w-lampgrid", { "aria-hidden": "true" }, words.map((word, w) => {
      const column = hero.lamp.map((levels, l) => {
        const lamp = h("span", { class: `w-lamp w-l${(l % 3) + 1}`, "data-level": levels[w] });
        // a dim lamp still shows its colour when lit
        lamp.style.setProperty("--lamp-level", clamp(levels[w], 0.08, 1));
        lamps[w * layers + l] = lamp;
        return lamp;
      });
      const isKey = w === hero.subject_index || w === hero.verb_index;
      return h("span.w-lampcol", column.reverse(), // layer 1 at the bottom
        h("span", { class: isKey ? "w-key" : null, text: word }));
    }));
    const status = h("p.w-status", { role: "status" });

    const show = (announce) => {
      lamps.forEach((lamp, k) => {
        lamp.classList.toggle("on", k < lit);
        lamp.classList.toggle("now", k === lit - 1);
      });
      ctx.el.dataset.pos = lit;
      status.ariaLive = announce ? "polite" : "off"; // playing by itself: no announcements
      const word = Math.floor((lit - 1) / layers);
      const layer = (lit - 1) % layers;
      status.textContent = lit
        ? `“${words[word]}” (word ${word + 1} of ${words.length}): layer ${layer + 1} fires, ` +
          `mean |h| ${formatFixed(hero.mean_abs_h[layer][word], 2)}` +
          (layer === layers - 1 ? " — the climb is complete." : ".")
        : "Ready: no word read yet.";
    };

    const loop = ctx.loop(() => {
      if (lit < total) {
        lit++;
        pause = 0;
      } else if (++pause > 6) {
        lit = 0; // after a pause on the full sentence, start again
      }
      show(false);
    }, 320);
    const setPlaying = (on) => { // a toggle: one name, aria-pressed
      play.ariaPressed = on;
      ctx.el.dataset.playing = on;
    };
    const start = () => {
      if (lit >= total) lit = 0;
      loop.start();
      setPlaying(true);
    };
    /** A step by hand: stop playing, move to position(), announce it. */
    const byHand = (position) => () => {
      autoplay = false;
      loop.stop();
      setPlaying(false);
      lit = clamp(position(), 0, total);
      show(true);
    };
    const play = button("Play", () => (loop.on ? byHand(() => lit)() : start()));

    ctx.ui.append(h("p.w-caption", "Live · three layers per word. Teal → sky → violet: layer " +
      "1, 2, 3 of a trained stack; brightness = that layer's mean |h| for the word, scaled to " +
      "its brightest word."),
    grid,
    h("div.w-bar", play, button("Step back", byHand(() => lit - 1)),
      button("Step", byHand(() => lit + 1)), button("Restart", byHand(() => 0))),
    status);
    onArrowKeys(ctx.ui, { prev: byHand(() => lit - 1), next: byHand(() => lit + 1),
      first: byHand(() => 0), last: byHand(() => total) });
    setPlaying(false);
    show(false);
    ctx.onVisible = () => {
      if (autoplay) {
        autoplay = false;
        start();
      }
    };
  },
});
