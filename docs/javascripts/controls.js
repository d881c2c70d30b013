/* Accessible controls the widgets share (for widgets that list "controls" in `uses`,
   runtime.js): buttons, segmented radios, labelled sliders, tables, arrow keys. */
(function () {
  "use strict";
  const { h, uniqueId, clamp } = StackWidgets;

  const button = (label, onclick, attrs) =>
    h("button.w-btn", { type: "button", onclick, ...attrs }, label);

  /** Radio buttons styled as a segmented control; .set(value) checks one from code. */
  const radioGroup = (legend, options, value, onchange) => {
    const name = uniqueId("r");
    const box = h("fieldset.w-seg", h("legend", legend));
    const inputs = options.map(([optionValue, label]) => {
      const input = h("input", { type: "radio", name, value: optionValue,
        onchange: () => onchange(optionValue) });
      input.checked = String(optionValue) === String(value);
      box.append(h("label", input, h("span", label)));
      return input;
    });
    box.set = (newValue) => inputs.forEach((input) => {
      input.checked = input.value === String(newValue);
    });
    return box;
  };

  /** A labelled range input; `format` writes its value beside it and as its spoken value. */
  const slider = (label, { min, max, step = 1, value }, format, oninput) => {
    const id = uniqueId("s");
    // The slider itself announces its value (aria-valuetext): the output stays quiet.
    const output = h("output", { for: id, "aria-live": "off" });
    const input = h("input", { type: "range", id, min, max, step, value });
    const read = () => {
      const current = clamp(Number(input.value), min, max); // a tampered value is clamped
      output.textContent = format(current);
      input.ariaValueText = format(current);
      return current;
    };
    input.addEventListener("input", () => oninput(read()));
    read();
    return h("div.w-slider", h("label", { for: id, text: label }), output, input);
  };

  const table = (caption, headings, tbody) => h("table.w-table",
    h("caption", { text: caption }),
    h("thead", h("tr", headings.map((text) => h("th", { scope: "col", text })))),
    tbody);

  /** Arrow keys, Home and End on `element` call map.prev / next / first / last (not while the
      reader types in a field, nor with a modifier: those keys belong to the browser). */
  const onArrowKeys = (element, map) => element.addEventListener("keydown", (event) => {
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(event.target.tagName) || event.altKey ||
      event.ctrlKey || event.metaKey) return;
    const action = { ArrowLeft: map.prev, ArrowUp: map.prev, ArrowRight: map.next,
      ArrowDown: map.next, Home: map.first, End: map.last }[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  });

  Object.assign(StackWidgets, { button, radioGroup, slider, table, onArrowKeys });
})();
