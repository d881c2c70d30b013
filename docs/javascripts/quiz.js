/* §13 mastery check: the page's questions with immediate feedback (generated/data/quiz.json). */
StackWidgets.register("quiz", {
  title: "Mastery check with immediate feedback",
  data: ["generated/data/quiz.json"],
  mount(ctx, key) {
    const W = StackWidgets, h = W.h, el = ctx.el;
    const qs = [];
    for (const n of el.children) {
      if (n.localName === "h3") qs.push({ head: n, rest: [] });
      else if (qs.length) qs[qs.length - 1].rest.push(n);
    }
    if (!qs.length) throw new Error("no questions found on the page");
    const score = h("p.w-status", { role: "status" });
    const results = new Map(), resets = [];
    const update = () => {
      const right = [...results.values()].filter(Boolean).length;
      score.textContent = `Score: ${right} correct of ${results.size} answered (${qs.length} questions).`;
      Object.assign(el.dataset, { score: right, answered: results.size });
    };
    for (const q of qs) {
      const id = (q.head.textContent.match(/Q(\d+)/) || [])[1];
      const k = key[`q${id}`] || {};
      const find = (tag) => q.rest.find((n) => n.localName === tag);
      const list = find("ul"), det = find("details");
      const explain = () => (det ? [...det.children].filter((c) => c.localName !== "summary")
        .map((c) => c.cloneNode(true)) : []);
      const box = h("div.w-ui.w-q", { "data-q": `q${id}`, role: "group",
        "aria-label": `Answer Q${id}` });
      const fb = h("div", { "aria-live": "polite", id: W.id("fb") });
      const done = (ok, lead) => {
        results.set(id, ok);
        box.dataset.result = ok ? "right" : "wrong";
        fb.replaceChildren(h("p", { class: ok ? "w-right" : "w-wrong", text: lead }), ...explain());
        update();
      };
      const target = typeof k.answer === "number" ? k.answer : k.at_defaults;
      const said = Number.isInteger(target) ? W.int(target) : String(target);
      let reset;
      if (/^[A-D]$/.test(k.answer) && list) {
        const opts = [...list.children].map((li) => {
          const letter = (li.textContent.match(/^\s*([A-D])\./) || [])[1];
          const b = h("button.w-opt", { type: "button", "aria-pressed": "false",
            "data-letter": letter }, [...li.cloneNode(true).childNodes]);
          b.addEventListener("click", () => {
            if (results.has(id)) return;
            b.ariaPressed = true;
            opts.forEach((o) => {
              o.classList.toggle("right", o.dataset.letter === k.answer);
              o.ariaDisabled = true;
            });
            b.classList.toggle("wrong", letter !== k.answer);
            done(letter === k.answer, letter === k.answer ? `Correct — ${letter}.`
              : `Not quite: you chose ${letter}; the answer is ${k.answer}.`);
          });
          return b;
        });
        box.append(h("div.w-opts", opts));
        reset = () => opts.forEach((o) => {
          o.className = "w-opt";
          o.ariaPressed = false;
          o.ariaDisabled = null;
        });
      } else if (typeof target === "number" && !q.rest.some((n) => n.localName === "p" &&
        n.textContent.includes(said))) {
        // a number the question does not already state: ask for it
        const input = h("input", { type: "text", inputmode: "decimal", autocomplete: "off",
          id: W.id("q"), spellcheck: "false", "aria-describedby": fb.id });
        const check = () => {
          const raw = input.value.trim(), v = Number(raw.replace(/[\s,_]/g, "").replace("−", "-"));
          if (results.has(id)) return;
          input.ariaInvalid = !raw || !Number.isFinite(v);
          if (input.ariaInvalid === "true") {
            fb.replaceChildren(h("p.w-wrong", "Please enter a number, e.g. 1234 or 0.5."));
            return;
          }
          const ok = Number.isInteger(target) ? v === target : Math.abs(v - target) <= 5e-4;
          input.readOnly = true;
          done(ok, ok ? `Correct — ${raw}.` : `Not quite: ${raw} is not it; computed by ` +
            `stacklib, the answer is ${said}.`);
        };
        input.addEventListener("keydown", (e) => { if (e.key === "Enter") check(); });
        box.append(h("div.w-numq", h("label", { for: input.id, text: typeof k.answer
          === "number" ? "Your answer" : `At γ = ${W.num(k.factor, 2)} and L = ${k.num_layers}, ` +
          "that fraction is (3 decimals)" }), input, W.button("Check", check)));
        reset = () => { input.value = ""; input.readOnly = false; input.ariaInvalid = false; };
      } else {
        const self = h("div.w-bar", { hidden: true },
          W.button("I had it", () => results.has(id) || done(true, "Marked as known.")),
          W.button("I missed it", () => results.has(id) || done(false, "Marked to review.")));
        const show = W.button("Show the answer", () => {
          self.hidden = !(show.ariaExpanded = self.hidden);
          if (!results.has(id)) fb.replaceChildren(...(self.hidden ? [] : explain()));
        }, { "aria-expanded": "false" });
        box.append(show, self);
        reset = () => { self.hidden = true; show.ariaExpanded = false; };
      }
      box.append(fb);
      if (list || det) (list || det).before(box);
      else (q.rest[q.rest.length - 1] || q.head).after(box);
      resets.push(() => { reset(); fb.replaceChildren(); delete box.dataset.result; });
    }
    ctx.keep("h3");
    ctx.keep("p");
    ctx.ui.append(score, W.button("Retry all questions", () => {
      results.clear();
      resets.forEach((r) => r());
      update();
      el.querySelector(".w-q button, .w-q input").focus();
    }));
    el.append(ctx.ui);
    update();
  },
});
