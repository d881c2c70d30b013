/* §04 follow the dot: the diagram, then the page's five steps; #step=N. */
StackWidgets.register("follow-dot", {
  title: "Follow the signal up the stack, step by step",
  mount(ctx) {
    const W = StackWidgets, h = W.h;
    const LIT = [[], ["x", "v0"], ["c1", "m1"], ["v1"], ["c2", "m2", "v2", "c3", "m3"],
      ["v3", "y", "n1", "n2", "n3"]];
    const AT = [null, 296, 250, 208, 82, 20];
    const heads = [...document.querySelectorAll(".md-content h2")];
    const steps = LIT.map((_, k) => {
      if (!k) return ["Overview · the full diagram", [h("p", "Spine, cells, memories, " +
        "output: everything that runs in one timestep. Step through one climb.")]];
      const head = heads.find((e) => e.textContent.trim().startsWith(`Step ${k} `));
      if (!head) throw new Error(`the page has no “Step ${k}” section`);
      const body = [];
      for (let n = head.nextElementSibling; n && n.localName !== "h2"; n = n.nextElementSibling) {
        if (n.matches("p, .mathml-block")) body.push(n.cloneNode(true));
      }
      return [head.textContent.replace(/^Step \d+\s*·\s*|¶$/g, "").trim(), body];
    });
    const last = steps.length - 1;
    const { svg, parts, names } = W.diagram();
    svg.role = "img";
    const dot = W.s("circle.w-dot", { r: 7, cx: 0, cy: 0 });
    svg.append(dot);
    const dialog = h("div.w-panel", { role: "region", "aria-live": "polite",
      "aria-label": "What happens at this step" });
    const prev = W.button("Previous", () => go(i - 1));
    const next = W.button("Next step", () => go(i + 1));
    const pips = steps.map(([name], k) => W.button(k ? String(k) : "Overview", () => go(k),
      { class: "w-btn w-pip", "aria-label": k ? `Step ${k}: ${name}` : "Overview" }));
    let i = 0;
    const go = (k) => {
      i = W.clamp(k, 0, last);
      const [name, body] = steps[i];
      for (const [key, p] of Object.entries(parts)) p.classList.toggle("on", !i || LIT[i].includes(key));
      dot.classList.toggle("hidden", !i);
      if (i) dot.style.transform = `translate(170px, ${AT[i]}px)`;
      svg.ariaLabel = i ? `Stack diagram, step ${i}: ${name}; lit: ` +
        LIT[i].map((k) => names[k]).join(", ") : "Stack diagram, fully lit";
      dialog.replaceChildren(h("p.w-title", { text: i ? `Step ${i} of ${last} · ${name}`
        : name }), ...body.map((n) => n.cloneNode(true)));
      pips.forEach((p, j) => { p.ariaCurrent = j === i ? "step" : "false"; });
      prev.ariaDisabled = i === 0;
      next.ariaDisabled = i === last;
      ctx.el.dataset.step = i;
    };
    W.arrows(ctx.ui, { prev: () => go(i - 1), next: () => go(i + 1), first: () => go(0),
      last: () => go(last) });
    // the bar above the dialog: its length varies by step, the bar stays put
    ctx.ui.append(h("div.w-split", h("div", svg, h("div.w-bar", prev, next,
      h("span.w-pips", pips))), dialog));
    go(W.toInt(W.hash("step"), 0, last, 0));
  },
});
