/* Page-level accessibility patches (not widget code), most found by the axe browser tests:
   Material's search dialog has no accessible name; wide tables, widget tables and notebook code
   cells scroll horizontally without being reachable from the keyboard; a link to a heading
   lands above or below it once the widgets before it have mounted.

   window.StackA11y() asks for a run: on every page (Material's document$), after each widget
   mounts, after a resize, when a content tab opens. Requests are coalesced into one run when
   the page is idle: reading scrollWidth right after a DOM change forces a layout (one per
   widget, a long task on a slow phone), while at idle time the layout is already done.
   StackA11y.pending is true until that run has looked at every scroller. */
(function () {
  "use strict";
  if (window.StackA11y) return;
  let heldHeading = null; // the heading a link led to, kept in view until the reader acts

  // Wide scrollers are found one at a time while the page is idle: reading a width may lay out
  // that scroller's content, and measuring every table of a long page in one go was a long
  // task of seconds on a slow phone.
  const scrollersLeft = [];
  let askedAgain = false;
  const isWide = (scroller) => scroller.scrollWidth > scroller.clientWidth || [
    ...scroller.children].some((child) => child.getBoundingClientRect().width >
    scroller.clientWidth + 1);
  const idle = (callback) => {
    if (window.requestIdleCallback) requestIdleCallback(callback, { timeout: 1000 });
    else setTimeout(() => callback({ timeRemaining: () => 0 }), 50);
  };
  const checkScrollers = (deadline) => {
    do {
      const scroller = scrollersLeft.shift();
      if (scroller && scroller.isConnected && scroller.tabIndex < 0 && isWide(scroller)) {
        scroller.tabIndex = 0;
      }
    } while (scrollersLeft.length && deadline.timeRemaining() > 0);
    if (scrollersLeft.length) idle(checkScrollers);
    else if (askedAgain) { // the page changed meanwhile (a widget mounted): look again
      askedAgain = false;
      idle(patch);
    } else request.pending = false;
  };

  const patch = () => {
    if (heldHeading && heldHeading.isConnected) heldHeading.scrollIntoView();
    const dialog = document.querySelector(".md-search[role=dialog]:not([aria-label])");
    if (dialog) dialog.setAttribute("aria-label", "Search");
    scrollersLeft.splice(0, scrollersLeft.length, ...document.querySelectorAll(
      ".md-typeset__scrollwrap, .w-scroll, .jupyter-wrapper .highlight-ipynb, " +
      ".jupyter-wrapper pre"));
    checkScrollers({ timeRemaining: () => 0 }); // at least one now, the rest when idle
  };

  const request = (window.StackA11y = () => {
    if (request.pending) {
      askedAgain = true;
      return;
    }
    request.pending = true;
    idle(patch);
  });
  request.pending = false;

  let resizeTimer = 0;
  addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(request, 200);
  });
  // A table in a content tab not yet chosen has no width: look again when a tab opens.
  addEventListener("change", (event) => {
    if (event.target.closest(".tabbed-set")) request();
  });
  // A link to a heading is followed before the widgets above it mount and change height: until
  // the reader scrolls, clicks or types, each run puts the heading back where the link led.
  for (const event of ["wheel", "touchstart", "keydown", "mousedown"]) {
    addEventListener(event, () => {
      heldHeading = null;
    }, { passive: true });
  }
  const onPage = () => {
    const id = decodeURIComponent(location.hash.slice(1));
    heldHeading = id ? document.getElementById(id) : null;
    request();
  };
  if (window.document$) window.document$.subscribe(onPage);
  else addEventListener("DOMContentLoaded", onPage);
})();
