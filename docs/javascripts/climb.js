/* §08 climb stepper: the hand-computed two-layer LSTM step, one intermediate at a time, in the
   order the stack computes them (generated/data/walkthrough.json); #step=N opens at step N. */
StackWidgets.register("climb", {
  title: "Climb stepper: one timestep of a two-layer LSTM, by the numbers",
  data: ["generated/data/walkthrough.json"],
  uses: ["controls", "mathml"],
  mount(ctx, walk) {
    const { h, mathml, button, clamp, formatFixed, onArrowKeys, intInRange, hashParam,
      table } = StackWidgets;
    const formatVector = (values) => `[${values.map((v) => formatFixed(v)).join(", ")}]`;
    const steps = walk.steps;
    const count = steps.length;
    const where = (step) => (step.layer ? `Layer ${step.layer}` : "Output");
    const card = h("div.w-panel", { "aria-live": "polite" });
    const rows = steps.map((step, k) => h("tr", { "data-step": k + 1 },
      h("td", String(k + 1)), h("td", where(step)),
      h("td", `${step.label} `, mathml(step.symbol)), h("td.w-val")));

    let shown = 0; // steps computed so far
    const go = (k) => {
      shown = clamp(k, 0, count);
      rows.forEach((row, j) => {
        const value = row.lastChild;
        value.textContent = j < shown ? formatVector(steps[j].value) : "?";
        value.dataset.value = j < shown ? JSON.stringify(steps[j].value) : "";
        row.classList.toggle("now", j === shown - 1);
        row.classList.toggle("pending", j >= shown);
      });
      const step = steps[shown - 1];
      if (step) {
        card.replaceChildren(
          h("p.w-title", { text: `Step ${shown} of ${count} · ${where(step)} · ${step.label}` }),
          h("p.w-math", mathml(`${step.symbol} = ${step.formula}`)),
          h("p.w-big", mathml(step.symbol), ` = ${formatVector(step.value)}`),
          ...(shown === count
            ? [h("p", "The climb is complete: only the top state leaves the stack.")] : []));
      } else {
        card.replaceChildren(h("p.w-title", { text: `Step 0 of ${count}` }),
          h("p", "Nothing computed yet. Press Next step (or →) to climb: layer 1's gates, " +
            "cell and hidden state, then layer 2, then the output."));
      }
      previous.ariaDisabled = shown === 0;
      next.ariaDisabled = shown === count;
      ctx.el.dataset.step = shown;
    };
    const previous = button("Previous", () => go(shown - 1));
    const next = button("Next step", () => go(shown + 1));

    // The page's heading and explanation stay beside the live widget.
    ctx.keepOnScreen("h3");
    ctx.keepOnScreen("p");
    onArrowKeys(ctx.ui, { prev: () => go(shown - 1), next: () => go(shown + 1),
      first: () => go(0), last: () => go(count) });
    const start = walk.h_prev.map((hPrev, l) => [" · ",
      mathml(`h_{t-1}^{[${l + 1}]} = [${hPrev.join(", ")}]`), ", ",
      mathml(`c_{t-1}^{[${l + 1}]} = [${walk.c_prev[l].join(", ")}]`)]);
    const intermediates = table("Every intermediate, in climb order",
      ["#", "Where", "Quantity", "Value"], h("tbody", rows));
    intermediates.classList.add("w-climb");
    ctx.ui.append(h("p.w-caption", "Start: ", mathml(`x_t = ${walk.x_t}`), start),
      // the bar stays put above the card, whose length changes
      h("div.w-bar", previous, next, button("Reset", () => go(0)),
        button("Reveal all", () => go(count))),
      card,
      h("div.w-scroll", intermediates));
    go(intInRange(hashParam("step"), 0, count, 0));
  },
});
