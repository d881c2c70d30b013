/* §08 climb stepper: the hand-computed 2-layer LSTM step in climb order; #step=N. */
StackWidgets.register("climb", {
  title: "Climb stepper: one timestep of a two-layer LSTM, by the numbers",
  data: ["generated/data/walkthrough.json"],
  mount(ctx, d) {
    const W = StackWidgets, h = W.h, steps = d.steps, n = steps.length;
    const where = (st) => (st.layer ? `Layer ${st.layer}` : "Output");
    const card = h("div.w-panel", { "aria-live": "polite" });
    const rows = steps.map((st, k) => h("tr", { "data-step": k + 1 }, h("td", String(k + 1)),
      h("td", where(st)), h("td", `${st.label} `, W.math(st.symbol)),
      h("td.w-val")));
    const prev = W.button("Previous", () => go(i - 1)), next = W.button("Next step", () => go(i + 1));
    let i = 0;
    const go = (k) => {
      i = W.clamp(k, 0, n);
      rows.forEach((tr, j) => {
        tr.lastChild.textContent = j < i ? W.vec(steps[j].value) : "?";
        tr.lastChild.dataset.value = j < i ? JSON.stringify(steps[j].value) : "";
        tr.classList.toggle("now", j === i - 1);
        tr.classList.toggle("pending", j >= i);
      });
      const st = steps[i - 1];
      card.replaceChildren(h("p.w-title", { text: st ? `Step ${i} of ${n} · ` +
        `${where(st)} · ${st.label}` : `Step 0 of ${n}` }), ...(st ? [
        h("p.w-math", W.math(`${st.symbol} = ${st.formula}`)),
        h("p.w-big", W.math(st.symbol), ` = ${W.vec(st.value)}`),
        ...(i === n ? [h("p", "The climb is complete: only the top state leaves the " +
          "stack.")] : [])]
        : [h("p", "Nothing computed yet. Press Next step (or →) to climb: layer 1's " +
          "gates, cell and hidden state, then layer 2, then the output.")]));
      prev.ariaDisabled = i === 0;
      next.ariaDisabled = i === n;
      ctx.el.dataset.step = i;
    };
    ctx.keep("h3");
    ctx.keep("p");
    W.arrows(ctx.ui, { prev: () => go(i - 1), next: () => go(i + 1), first: () => go(0),
      last: () => go(n) });
    ctx.ui.append(h("p.w-caption", "Start: ", W.math(`x_t = ${d.x_t}`),
      d.h_prev.map((hp, l) => [" · ", W.math(`h_{t-1}^{[${l + 1}]} = [${hp.join(", ")}]`), ", ",
        W.math(`c_{t-1}^{[${l + 1}]} = [${d.c_prev[l].join(", ")}]`)])),
    h("div.w-bar", prev, next, W.button("Reset", () => go(0)),
      W.button("Reveal all", () => go(n))), card, // the bar stays put above the card
    h("div.w-scroll", W.table("Every intermediate, in climb order",
      ["#", "Where", "Quantity", "Value"], h("tbody", rows))));
    ctx.el.querySelector(".w-table").classList.add("w-climb");
    go(W.toInt(W.hash("step"), 0, n, 0));
  },
});
