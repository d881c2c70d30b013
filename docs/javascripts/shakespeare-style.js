/* The live Shakespeare widget's styles, added to the page once by this script (used by
   shakespeare-live.js): only this widget's page needs them, while the widgets' shared
   stylesheets (widgets.css, widget-figures.css) load on every page. The reader's box, then one
   pane per model (side by side where there is room), each its text as real text in rows of a
   fixed height with the model's strips on one canvas behind it, at the text's own character
   pitch; every line that changes has room for what it holds, so reading fills the panes
   without moving the page. The widget's reserved height stays in widgets.css (it must hold
   before any script runs). */
(function () {
  "use strict";
  if (document.getElementById("w-sl-style")) return;
  const style = document.createElement("style");
  style.id = "w-sl-style";
  style.textContent = `
.w-sl-input {
  box-sizing: border-box;
  font: 0.7rem/1.4 ui-monospace, monospace;
  min-height: 6rem;
  resize: vertical;
  width: 100%;
}
.w-ui .w-sl-note,
.w-ui .w-sl-status,
.w-ui .w-sl-at {
  line-height: 1.4;
  min-height: 2.8em;
}
.w-ui .w-sl-note {
  font-size: 0.68rem;
}
.w-sl-scores {
  display: grid;
  gap: 0 0.8rem;
  grid-template-columns: 1fr 1fr;
}
.md-typeset .w-sl-score {
  border-left: 4px solid var(--w-line);
  margin: 0;
  padding-left: 0.5rem;
}
.w-sl-who {
  color: var(--w-muted);
  display: block;
  font-size: 0.68rem;
}
.w-sl-legend {
  display: flex;
  flex-wrap: wrap;
  font-size: 0.68rem;
  gap: 0.2rem 0.8rem;
  min-height: 4.2em;
}
.w-sl-swatch {
  display: inline-block;
  height: 0.8em;
  vertical-align: -0.05em;
  width: 1.6em;
}
.w-sl-more {
  background: rgb(220, 38, 38);
}
.w-sl-less {
  background: rgb(37, 99, 235);
}
.w-sl-bits {
  background: linear-gradient(to right, rgba(217, 119, 6, 0.1), rgb(217, 119, 6));
}
.w-sl-dh {
  background: linear-gradient(to right, rgba(13, 148, 136, 0.1), rgb(13, 148, 136));
}
.w-sl-panes {
  display: grid;
  gap: 0.4rem 0.8rem;
  grid-template-columns: 1fr 1fr;
}
.w-sl-panes.is-narrow {
  grid-template-columns: 1fr;
}
.w-sl-panes.is-narrow > .w-sl-side:not(.is-shown) {
  display: none;
}
.w-sl-side {
  min-width: 0;
}
.md-typeset .w-sl-pane-head {
  font-weight: 700;
  margin: 0.2rem 0;
}
.w-sl-pane {
  overflow: hidden; /* the strips' canvas holds a few rows more than the text */
  position: relative;
}
.w-sl-strips {
  left: 0;
  pointer-events: none;
  position: absolute;
  top: 0;
}
.w-sl-line {
  font: 0.65rem/20px ui-monospace, monospace; /* 20px: shakespeare-view.js's LINE */
  height: 20px;
  white-space: pre;
}
.w-sl-gen {
  color: var(--w-gen, #5b21b6);
  text-decoration: underline 2px var(--w-accent);
  text-underline-offset: 2px;
}
[data-md-color-scheme=slate] .w-ui {
  --w-gen: #c4b5fd;
}
.w-sl-nl,
.w-sl-skip {
  display: inline-block;
  overflow: hidden;
  vertical-align: top;
  width: 1ch;
}
.w-sl-nl::before {
  color: var(--w-muted);
  content: "\\21b5";
}
.w-sl-skip {
  color: var(--w-muted);
  text-decoration: line-through;
}
.w-sl-cursor {
  border: 2px solid var(--w-accent);
  border-radius: 2px;
  box-sizing: border-box;
  pointer-events: none;
  position: absolute;
}
.w-sl-show {
  max-width: 100%;
}
.w-sl-select,
.w-sl-seed {
  background: var(--w-bg);
  border: 1px solid var(--w-muted);
  border-radius: 0.3rem;
  color: var(--w-fg);
  font: inherit;
  max-width: 100%;
  min-height: 24px;
}
.w-sl-seed {
  width: 5.5em;
}
.md-typeset .w-sl-values {
  width: 100%;
}
.md-typeset .w-sl-values :is(td, th) {
  white-space: nowrap; /* one line whatever the numbers: reading a text moves nothing */
}
.md-typeset .w-sl-values th:first-child {
  font-weight: 400;
}
@media screen and (max-width: 30em) {
  .w-sl-unit {
    display: block;
    min-height: 1lh; /* every layer's row two lines high, a value or not: a pick moves nothing */
  }
}
.w-sl-nexts {
  display: grid;
  gap: 0 0.8rem;
  grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr));
}
.md-typeset .w-sl-next-head {
  font-weight: 700;
  margin-bottom: 0;
}
.md-typeset .w-sl-next {
  height: 7.5em;
  list-style: none;
  margin: 0.2rem 0 0.4rem;
  padding: 0;
}
.md-typeset .w-sl-next li {
  align-items: center;
  display: grid;
  gap: 0.5rem;
  grid-template-columns: 1.2em 2.5rem auto;
  height: 1.5em;
  margin: 0;
  white-space: nowrap;
}
.w-sl-ch {
  font-family: ui-monospace, monospace;
  text-align: center;
}
.w-sl-bar {
  background: var(--w-accent);
  height: 0.7em;
  justify-self: start;
}
.w-sl-came {
  font-weight: 700;
}
`;
  document.head.append(style);
})();
