/* Formulas inside widgets (for widgets that list "mathml" in `uses`, runtime.js). */
(function () {
  "use strict";

  /* The widgets' formulas in a small TeX subset, as MathML (the pages' math is converted at
     build time; a widget's changes with its state): atoms with _x, _{...}, ^x, ^{...};
     "quoted text"; \sigma \odot \tanh \gamma; the Greek letters σ γ ρ as they are. */
  const TEX_COMMANDS = { sigma: "σ", odot: "⊙", tanh: "tanh", gamma: "γ" };
  // A number; its sign is part of it only when nothing it could subtract from comes before
  // (so "a - 1" is a minus operator and "[0.3, -0.2]" holds the number −0.2).
  const NUMBER = String.raw`(?:(?<![\w)\]}]\s*)[-−])?\d+(?:\.\d+)?`;
  const ATOM = `"[^"]*"|[A-Za-zσγρ]+|${NUMBER}`;

  const tokensToMathML = (text) => text.replace(RegExp(`${ATOM}|\\S`, "g"), (token) => {
    if (token[0] === '"') return `<mtext>\u00a0${token.slice(1, -1)}\u00a0</mtext>`;
    if (/^[A-Za-zσγρ]/.test(token)) return `<mi>${token}</mi>`;
    if (/\d/.test(token)) return `<mn>${token.replace("-", "−")}</mn>`;
    return `<mo stretchy="false">${token === "-" ? "−" : token}</mo>`;
  });

  const groupToMathML = (group) =>
    `<mrow>${tokensToMathML(group[0] === "{" ? group.slice(1, -1) : group)}</mrow>`;

  const SCRIPTED = RegExp(String.raw`(${ATOM}|[^\s_^{}])` +
    String.raw`(?:_(\{[^{}]*\}|[^\s{}]))?(?:\^(\{[^{}]*\}|[^\s{}]))?`, "g");

  const mathml = (tex) => {
    const body = tex
      .replace(/\\([a-z]+)/g, (match, command) => TEX_COMMANDS[command] || command)
      .replace(/</g, "&lt;")
      .replace(SCRIPTED, (match, base, sub, sup) => {
        const tag = sub && sup ? "msubsup" : sub ? "msub" : sup ? "msup" : "";
        if (!tag) return tokensToMathML(base);
        return `<${tag}>${tokensToMathML(base)}${sub ? groupToMathML(sub) : ""}` +
          `${sup ? groupToMathML(sup) : ""}</${tag}>`;
      });
    const box = document.createElement("span");
    box.innerHTML = `<math>${body}</math>`;
    return box.firstChild;
  };

  StackWidgets.mathml = mathml;
})();
