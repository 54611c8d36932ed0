// What the site's own scripts share; mkdocs.yml loads it before them.
// - pdSite.root: the site's root URL (this script's URL, resolved as it loads,
//   minus "assets/site.js"), so the site works from any folder it is served in.
// - pdSite.onEveryPage(start): run `start` on each page view; Material's instant
//   navigation swaps pages without reloading the scripts.
// - pdSite.mount(selector, file, build): on each page view, build the widget
//   `selector` marks, once, with the site's JSON `file`.
// - the map's, the filter's and similar papers' own scripts load only on the pages that show them.
window.pdSite = (function () {
  var root = new URL(document.currentScript.src.replace(/assets\/site\.js.*$/, ""));

  function onEveryPage(start) {
    if (typeof document$ !== "undefined") document$.subscribe(start);
    else document.addEventListener("DOMContentLoaded", start);
  }

  function mount(selector, file, build) {
    onEveryPage(function () {
      var element = document.querySelector(selector);
      if (!element || element.dataset.ready) return;
      element.dataset.ready = "1";
      fetch(new URL(file, root)).then(function (r) { return r.json(); }).then(function (data) {
        build(element, data, root);
      });
    });
  }

  // The map's and the filter's scripts are fetched only by the page that shows the widget, once per visit.
  var WIDGETS = [
    ["[data-pd-map]", "assets/map.js"], ["[data-pd-filter]", "assets/filter.js"],
    ["[data-pd-similar]", "assets/similar.js"],
  ];
  var fetched = {};
  onEveryPage(function () {
    WIDGETS.forEach(function (widget) {
      if (fetched[widget[1]] || !document.querySelector(widget[0])) return;
      fetched[widget[1]] = true;
      var script = document.createElement("script");
      script.src = new URL(widget[1], root).href;
      document.head.appendChild(script);
    });
  });

  return { root: root, onEveryPage: onEveryPage, mount: mount };
})();
