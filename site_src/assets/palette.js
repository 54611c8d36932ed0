// The reader's colour scheme (light or dark, chosen with the header's switch), set on the page
// before it is drawn. Material's header does this with an inline script on every page; a lean
// page (a paper's, a topic's: overrides/lean-layout.html) loads it from here, one file for 20,000
// pages (issue 43).
// Material's bundle keeps the choice in localStorage under "__palette" (__md_get, in the head).
(function () {
  var palette = __md_get("__palette");
  if (!palette || !palette.color) return;
  var color = palette.color;
  if (color.media === "(prefers-color-scheme)") {
    // "Follow the system": the option of the scheme the system prefers now.
    var light = matchMedia("(prefers-color-scheme: light)").matches;
    var input = document.querySelector(
      "[data-md-color-media='(prefers-color-scheme: " + (light ? "light" : "dark") + ")']");
    color.media = input.getAttribute("data-md-color-media");
    color.scheme = input.getAttribute("data-md-color-scheme");
    color.primary = input.getAttribute("data-md-color-primary");
    color.accent = input.getAttribute("data-md-color-accent");
  }
  for (var key in color) document.body.setAttribute("data-md-color-" + key, color[key]);
})();
