/* Page-level accessibility patches found by the axe browser test (not widget code):
   Material's search dialog has no accessible name; wide tables, widget tables and notebook
   code cells scroll horizontally without being keyboard-focusable. Runs on every page
   (Material's document$), after widgets mount, and after resizes. */
(function () {
  "use strict";
  if (window.StackA11y) return;
  const patch = window.StackA11y = () => {
    const dialog = document.querySelector(".md-search[role=dialog]:not([aria-label])");
    if (dialog) dialog.setAttribute("aria-label", "Search");
    document.querySelectorAll(".md-typeset__scrollwrap, .w-scroll, .jupyter-wrapper " +
      ".highlight-ipynb, .jupyter-wrapper pre").forEach((e) => {
      if (e.scrollWidth > e.clientWidth && e.tabIndex < 0) e.tabIndex = 0;
    });
  };
  let timer = 0;
  addEventListener("resize", () => { clearTimeout(timer); timer = setTimeout(patch, 200); });
  if (window.document$) window.document$.subscribe(() => setTimeout(patch, 0));
  else addEventListener("DOMContentLoaded", patch);
})();
