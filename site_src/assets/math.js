// Typeset the math spans that pymdownx.arithmatex (generic mode) leaves in the page.
// KaTeX (about 280 KB of script and CSS) is fetched only by pages that show math,
// once per visit; malformed math stays as its source text instead of breaking the page.
(function () {
  var loading = null;

  function loadKatex() {
    if (typeof katex !== "undefined") return Promise.resolve();
    if (loading) return loading;
    loading = new Promise(function (resolve, reject) {
      var css = document.createElement("link");
      css.rel = "stylesheet";
      css.href = new URL("assets/katex/katex.min.css", window.pdSite.root).href;
      document.head.appendChild(css);
      var script = document.createElement("script");
      script.src = new URL("assets/katex/katex.min.js", window.pdSite.root).href;
      script.onload = resolve;
      script.onerror = reject;
      document.head.appendChild(script);
    });
    return loading;
  }

  function typeset(root) {
    var spans = Array.prototype.filter.call(root.querySelectorAll(".arithmatex"), function (el) {
      return !el.dataset.typeset;
    });
    if (!spans.length) return;
    loadKatex().then(function () {
      spans.forEach(function (el) {
        if (el.dataset.typeset) return;
        var tex = el.textContent.trim();
        var display = tex.startsWith("\\[");
        tex = tex.replace(/^\\[\[(]/, "").replace(/\\[\])]$/, "");
        try {
          katex.render(tex, el, { displayMode: display, throwOnError: true, trust: false, strict: "ignore" });
        } catch (err) {
          el.textContent = tex;
          el.classList.add("arithmatex-error");
          el.title = "This math could not be typeset";
        }
        el.dataset.typeset = "1";
      });
    });
  }
  // Material's instant navigation swaps pages without a reload: typeset each one.
  window.pdSite.onEveryPage(function () { typeset(document); });
})();
