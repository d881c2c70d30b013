/* The live Shakespeare widget's two panes (used by shakespeare-live.js): side by side where two
   fit, else one at a time with a switch; laid out from one measurement (shakespeare-view.js's
   charGeometry) again for a new width or palette; and the picked character, the same position
   in both panes (the reader's text is shared, what follows is each model's own), chosen with a
   click or the arrow keys and shown by the inspector (shakespeare-inspect.js). */
(function () {
  "use strict";

  StackWidgets.charPanes = (host, live, panes, inspect) => {
    const { h, clamp, onArrowKeys } = StackWidgets;
    const roles = Object.keys(panes);

    // --- the picked character ----------------------------------------------------------------
    let selected = -1;
    const longest = () => Math.max(...roles.map((role) => panes[role].chars.length));
    const pick = (t) => {
      selected = clamp(t, -1, longest() - 1);
      host.dataset.selected = selected + 1;
      for (const role of roles) panes[role].mark(selected);
      inspect.show(selected);
    };
    for (const role of roles) {
      const pane = panes[role];
      pane.el.addEventListener("click", (event) => {
        const t = pane.at(event);
        if (t >= 0) pick(t);
      });
      onArrowKeys(pane.el, { prev: () => pick(Math.max(0, selected - 1)),
        next: () => pick(selected + 1), first: () => pick(0), last: () => pick(longest() - 1) });
    }

    // --- the panes' layout -------------------------------------------------------------------
    const sides = Object.fromEntries(roles.map((role) => [role, h("div.w-sl-side",
      { "data-role": role }, h("p.w-sl-pane-head", live.models[role].label), panes[role].el)]));
    const box = h("div.w-sl-panes", roles.map((role) => sides[role]));
    // One measurement for both panes (a hidden one lays out as wide as the one shown).
    const measure = () => StackWidgets.charGeometry(box,
      panes[roles.find((role) => panes[role].el.clientWidth) || roles[0]].el);
    const relayout = () => {
      const geometry = measure();
      for (const role of roles) panes[role].redraw(geometry);
      pick(selected);
    };
    const which = StackWidgets.radioGroup("Show the text of", roles.map((role) =>
      [role, live.models[role].label]), roles[0], (shown) => {
      for (const role of roles) sides[role].classList.toggle("is-shown", role === shown);
      relayout();
    });
    sides[roles[0]].classList.add("is-shown");
    let width = 0;
    /** Side by side or one at a time, for the box's width; false if the width is the same. */
    const fit = () => {
      const next = box.clientWidth;
      if (next === width) return false;
      width = next;
      const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
      box.classList.toggle("is-narrow", next < 31 * rem);
      which.hidden = next >= 31 * rem;
      return true;
    };
    new ResizeObserver(() => fit() && relayout()).observe(box);
    new MutationObserver(() => host.isConnected && relayout()).observe(document.body,
      { attributes: true, attributeFilter: ["data-md-color-scheme"] });

    return { el: [which, box], pick, fit, measure, selected: () => selected };
  };
})();
