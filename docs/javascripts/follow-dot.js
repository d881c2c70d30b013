/* §04 follow the dot: the stack diagram, lit step by step as the page's five "Step N" sections
   describe it, with a dot riding the live path; #step=N opens at step N. */
StackWidgets.register("follow-dot", {
  title: "Follow the signal up the stack, step by step",
  uses: ["stack-diagram", "controls"],
  mount(ctx) {
    const { h, svg: svgElement, button, clamp, onArrowKeys, intInRange, hashParam } = StackWidgets;
    // Parts lit at each step (step 0 = the overview, everything lit).
    const LIT = [[], ["x", "v0"], ["c1", "m1"], ["v1"], ["c2", "m2", "v2", "c3", "m3"],
      ["v3", "y", "n1", "n2", "n3"]];
    const DOT_Y = [null, 296, 250, 208, 82, 20]; // where the dot sits on the spine per step

    // Each step's title and text come from the page's own "Step N · Title" sections, so the
    // widget and the page (and the printed lecture) say the same thing.
    const headings = [...document.querySelectorAll(".md-content h2")];
    const steps = LIT.map((_, k) => {
      if (!k) {
        return ["Overview · the full diagram", [h("p", "Spine, cells, memories, output: " +
          "everything that runs in one timestep. Step through one climb.")]];
      }
      const heading = headings.find((e) => e.textContent.trim().startsWith(`Step ${k} `));
      if (!heading) throw new Error(`the page has no “Step ${k}” section`);
      const body = [];
      for (let n = heading.nextElementSibling; n && n.localName !== "h2"; n = n.nextElementSibling) {
        if (n.matches("p, .mathml-block")) body.push(n.cloneNode(true));
      }
      return [heading.textContent.replace(/^Step \d+\s*·\s*|¶$/g, "").trim(), body];
    });
    const last = steps.length - 1;

    const { svg, parts, names } = StackWidgets.stackDiagram();
    svg.role = "img";
    const dot = svgElement("circle.w-dot", { r: 7, cx: 0, cy: 0 });
    svg.append(dot);
    const dialog = h("div.w-panel", { role: "region", "aria-live": "polite",
      "aria-label": "What happens at this step" });
    let step = 0;
    const go = (k) => {
      step = clamp(k, 0, last);
      const [name, body] = steps[step];
      for (const [key, part] of Object.entries(parts)) {
        part.classList.toggle("on", !step || LIT[step].includes(key));
      }
      dot.classList.toggle("hidden", !step);
      if (step) dot.style.transform = `translate(170px, ${DOT_Y[step]}px)`;
      svg.ariaLabel = step
        ? `Stack diagram, step ${step}: ${name}; lit: ${LIT[step].map((k) => names[k]).join(", ")}`
        : "Stack diagram, fully lit";
      dialog.replaceChildren(h("p.w-title", { text: step ? `Step ${step} of ${last} · ${name}`
        : name }), ...body.map((node) => node.cloneNode(true)));
      pips.forEach((pip, j) => {
        pip.ariaCurrent = j === step ? "step" : "false";
      });
      previous.ariaDisabled = step === 0;
      next.ariaDisabled = step === last;
      ctx.el.dataset.step = step;
    };
    const previous = button("Previous", () => go(step - 1));
    const next = button("Next step", () => go(step + 1));
    const pips = steps.map(([name], k) => button(k ? String(k) : "Overview", () => go(k),
      { class: "w-btn w-pip", "aria-label": k ? `Step ${k}: ${name}` : "Overview" }));

    onArrowKeys(ctx.ui, { prev: () => go(step - 1), next: () => go(step + 1),
      first: () => go(0), last: () => go(last) });
    // The buttons sit above the text that changes, so they stay put while stepping.
    ctx.ui.append(h("div.w-split",
      h("div", svg, h("div.w-bar", previous, next, h("span.w-pips", pips))), dialog));
    go(intInRange(hashParam("step"), 0, last, 0));
  },
});
