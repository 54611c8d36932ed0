// What the site's own scripts share; mkdocs.yml loads it before them.
// - pdSite.root: the site's root URL (this script's URL, resolved as it loads,
//   minus "assets/site.js"), so the site works from any folder it is served in.
// - pdSite.onEveryPage(start): run `start` on each page view; Material's instant
//   navigation swaps pages without reloading the scripts.
// - pdSite.mount(selector, file, build): on each page view, build the widget
//   `selector` marks, once, with the site's JSON `file`.
// - pdSite.element, pdSite.plainMath, pdSite.snippet: a text element; math as text;
//   a search result's snippet (both search engines).
// - pdSite.exportText(file): the text of one of the digest's exports (papers.bib, or papers.bib.gz
//   unpacked), fetched once per page view.
// - the map's, the filter's, similar papers' and topic exports' own scripts load only on the pages that show them.
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
    ["[data-pd-similar]", "assets/similar.js"], ["[data-pd-export]", "assets/exports.js"],
    ["[data-pd-order]", "assets/all-orders.js"],
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

  // The drawer of a lean page (a paper's, a topic's: overrides/lean-layout.html) lists the links
  // of its tabs, the site's top-level pages: made here from the tabs rather than written twice in
  // each of 20,000 pages (issue 43). It is off the screen until the reader opens it.
  onEveryPage(function () {
    var list = document.querySelector("[data-pd-nav]");
    if (!list || list.children.length) return;
    document.querySelectorAll(".md-tabs__link").forEach(function (tab) {
      var item = element("li", "md-nav__item");
      var link = element("a", "md-nav__link", tab.textContent.trim());
      link.setAttribute("href", tab.getAttribute("href"));
      item.appendChild(link);
      list.appendChild(item);
    });
  });

  // Math as a reader would say it in running text: \(\textbf{RaR}\) -> RaR, \alpha -> α, x^{2} -> x2.
  var SYMBOLS = { alpha: "α", beta: "β", gamma: "γ", delta: "δ", epsilon: "ε", theta: "θ", lambda: "λ", mu: "μ",
    pi: "π", sigma: "σ", tau: "τ", phi: "φ", omega: "ω", Delta: "Δ", Omega: "Ω", times: "×", cdot: "·", leq: "≤",
    geq: "≥", le: "≤", ge: "≥", neq: "≠", approx: "≈", sim: "∼", infty: "∞", rightarrow: "→", to: "→", pm: "±",
    log: "log", sqrt: "√", sum: "Σ", ell: "ℓ" };
  function plainMath(text) {
    return text
      .replace(/\\[()[\]]|\$\$?/g, "")
      .replace(/\\(?:text[a-z]*|math[a-z]*|operatorname|emph|boldsymbol|bm|mathbb|mathcal|mathrm)\s*\{([^{}]*)\}/g, "$1")
      .replace(/\\([A-Za-z]+)/g, function (_, name) { return SYMBOLS[name] !== undefined ? SYMBOLS[name] : name; })
      .replace(/\\(.)/g, "$1")
      .replace(/[{}]/g, "")
      .replace(/[ \t]+/g, " ");
  }

  // Shorten `element`'s text to at most `limit` characters around its first <mark>, at word
  // boundaries, keeping the marks; math becomes text. The search results of both engines use it.
  function snippet(element, limit) {
    var parts = [];
    // Every text inside, in order (list items too), each marked or not.
    var walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      var text = plainMath(node.nodeValue).replace(/\s+/g, " ");
      var marked = node.parentNode && node.parentNode.nodeName === "MARK";
      if (text) parts.push({ text: text, mark: marked });
    }
    var whole = parts.map(function (part) { return part.text; }).join("");
    var at = 0, first = -1;
    parts.forEach(function (part) { if (part.mark && first < 0) first = at; at += part.text.length; });
    var start = 0;
    if (whole.length > limit && first > limit / 3) {
      start = whole.lastIndexOf(" ", first - Math.floor(limit / 4));
      start = start < 0 ? 0 : start + 1;
    }
    var end = Math.min(whole.length, start + limit - 2);
    if (end < whole.length) {
      var space = whole.lastIndexOf(" ", end);
      if (space > start + limit / 2) end = space;
    }
    var fragments = [];
    at = 0;
    parts.forEach(function (part) {
      var text = part.text;
      var from = Math.max(start, at), to = Math.min(end, at + text.length);
      if (from < to) {
        var piece = text.slice(from - at, to - at);
        if (part.mark) { var mark = document.createElement("mark"); mark.textContent = piece; fragments.push(mark); }
        else fragments.push(document.createTextNode(piece));
      }
      at += text.length;
    });
    if (start > 0) fragments.unshift(document.createTextNode("… "));
    if (end < whole.length) fragments.push(document.createTextNode(" …"));
    element.replaceChildren.apply(element, fragments);
  }

  // The digest's exports: a large one's are written gzipped only (papers.bib.gz; the page's link names
  // the file written); unpacked here, where the browser can.
  var exports = {};
  function exportText(file) {
    if (!exports[file]) {
      exports[file] = fetch(new URL(file, root)).then(function (response) {
        if (!response.ok) throw new Error(file + ": " + response.status);
        return response.arrayBuffer();
      }).then(function (buffer) {
        var bytes = new Uint8Array(buffer);
        // A server that sends .gz files as Content-Encoding: gzip has the browser unpack it already.
        if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return new TextDecoder().decode(bytes);
        if (typeof DecompressionStream === "undefined") throw new Error(file + ": this browser cannot unpack it");
        var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
        return new Response(stream).text();
      });
      exports[file].catch(function () { delete exports[file]; });
    }
    return exports[file];
  }

  // A new element with a class and a text (set as text: never parsed as markup).
  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  return {
    root: root, onEveryPage: onEveryPage, mount: mount, plainMath: plainMath, snippet: snippet, element: element,
    exportText: exportText,
  };
})();
