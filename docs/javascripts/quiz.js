/* §13 mastery check: the page's own questions with immediate feedback. The questions, choices
   and explanations stay the page's prose (they print); generated/data/quiz.json holds the
   answer key, computed by stacklib. Three kinds of question: a choice among A-D (a button per
   choice), a number the question does not state (a field to type it in), and the rest (show
   the answer, then say whether you had it). */
StackWidgets.register("quiz", {
  title: "Mastery check with immediate feedback",
  data: ["generated/data/quiz.json"],
  uses: ["controls"],
  mount(ctx, key) {
    const { h, button, formatFixed, formatInt, uniqueId } = StackWidgets;
    const element = ctx.el;

    // The questions: each <h3> and the elements up to the next one.
    const questions = [];
    for (const child of element.children) {
      if (child.localName === "h3") questions.push({ heading: child, rest: [] });
      else if (questions.length) questions[questions.length - 1].rest.push(child);
    }
    if (!questions.length) throw new Error("no questions found on the page");

    const score = h("p.w-status", { role: "status" });
    const results = new Map(); // question number -> answered right?
    const resets = [];
    const updateScore = () => {
      const right = [...results.values()].filter(Boolean).length;
      score.textContent = `Score: ${right} correct of ${results.size} answered ` +
        `(${questions.length} questions).`;
      Object.assign(element.dataset, { score: right, answered: results.size });
    };

    for (const question of questions) {
      const number = (question.heading.textContent.match(/Q(\d+)/) || [])[1];
      const answer = key[`q${number}`] || {};
      const find = (tag) => question.rest.find((child) => child.localName === tag);
      const choiceList = find("ul");
      const details = find("details"); // the page's collapsible answer
      const explanation = () => (details ? [...details.children]
        .filter((child) => child.localName !== "summary").map((child) => child.cloneNode(true))
        : []);
      const box = h("div.w-ui.w-q", { "data-q": `q${number}`, role: "group",
        "aria-label": `Answer Q${number}` });
      const feedback = h("div", { "aria-live": "polite", id: uniqueId("fb") });
      const answered = (right, lead) => {
        results.set(number, right);
        box.dataset.result = right ? "right" : "wrong";
        feedback.replaceChildren(h("p", { class: right ? "w-right" : "w-wrong", text: lead }),
          ...explanation());
        updateScore();
      };
      // A formula's answer is checked through its value at the lecture's defaults.
      const target = typeof answer.answer === "number" ? answer.answer : answer.at_defaults;
      const targetText = Number.isInteger(target) ? formatInt(target) : String(target);
      let reset;

      if (/^[A-D]$/.test(answer.answer) && choiceList) {
        const options = [...choiceList.children].map((item) => {
          const letter = (item.textContent.match(/^\s*([A-D])\./) || [])[1];
          const option = h("button.w-opt", { type: "button", "aria-pressed": "false",
            "data-letter": letter }, [...item.cloneNode(true).childNodes]);
          option.addEventListener("click", () => {
            if (results.has(number)) return; // one try until "Retry all"
            option.ariaPressed = true;
            options.forEach((other) => {
              other.classList.toggle("right", other.dataset.letter === answer.answer);
              other.ariaDisabled = true;
            });
            const right = letter === answer.answer;
            option.classList.toggle("wrong", !right);
            answered(right, right ? `Correct — ${letter}.`
              : `Not quite: you chose ${letter}; the answer is ${answer.answer}.`);
          });
          return option;
        });
        box.append(h("div.w-opts", options));
        reset = () => options.forEach((option) => {
          option.className = "w-opt";
          option.ariaPressed = false;
          option.ariaDisabled = null;
        });
      } else if (typeof target === "number" && !question.rest.some((child) =>
        child.localName === "p" && child.textContent.includes(targetText))) {
        // a number the question does not already state: ask for it
        const input = h("input", { type: "text", inputmode: "decimal", autocomplete: "off",
          id: uniqueId("q"), spellcheck: "false", "aria-describedby": feedback.id });
        const check = () => {
          if (results.has(number)) return;
          const raw = input.value.trim();
          // "12,345", "12 345" and a true minus sign all read as numbers
          const value = Number(raw.replace(/[\s,_]/g, "").replace("−", "-"));
          input.ariaInvalid = !raw || !Number.isFinite(value);
          if (input.ariaInvalid === "true") {
            feedback.replaceChildren(h("p.w-wrong", "Please enter a number, e.g. 1234 or 0.5."));
            return;
          }
          const right = Number.isInteger(target) ? value === target
            : Math.abs(value - target) <= 5e-4; // three decimals
          input.readOnly = true;
          answered(right, right ? `Correct — ${raw}.` : `Not quite: ${raw} is not it; ` +
            `computed by stacklib, the answer is ${targetText}.`);
        };
        input.addEventListener("keydown", (event) => {
          if (event.key === "Enter") check();
        });
        const label = typeof answer.answer === "number" ? "Your answer"
          : `At γ = ${formatFixed(answer.factor, 2)} and L = ${answer.num_layers}, that ` +
            "fraction is (3 decimals)";
        box.append(h("div.w-numq", h("label", { for: input.id, text: label }), input,
          button("Check", check)));
        reset = () => {
          input.value = "";
          input.readOnly = false;
          input.ariaInvalid = false;
        };
      } else {
        const selfMark = h("div.w-bar", { hidden: true },
          button("I had it", () => results.has(number) || answered(true, "Marked as known.")),
          button("I missed it", () => results.has(number) ||
            answered(false, "Marked to review.")));
        const reveal = button("Show the answer", () => {
          selfMark.hidden = !(reveal.ariaExpanded = selfMark.hidden);
          if (!results.has(number)) {
            feedback.replaceChildren(...(selfMark.hidden ? [] : explanation()));
          }
        }, { "aria-expanded": "false" });
        box.append(reveal, selfMark);
        reset = () => {
          selfMark.hidden = true;
          reveal.ariaExpanded = false;
        };
      }

      box.append(feedback);
      // before the choices (or the page's answer block); else after the question
      if (choiceList || details) (choiceList || details).before(box);
      else (question.rest[question.rest.length - 1] || question.heading).after(box);
      resets.push(() => {
        reset();
        feedback.replaceChildren();
        delete box.dataset.result;
      });
    }

    ctx.keepOnScreen("h3");
    ctx.keepOnScreen("p");
    ctx.ui.append(score, button("Retry all questions", () => {
      results.clear();
      resets.forEach((resetOne) => resetOne());
      updateScore();
      element.querySelector(".w-q button, .w-q input").focus();
    }));
    element.append(ctx.ui); // the score goes below the questions
    updateScore();
  },
});
