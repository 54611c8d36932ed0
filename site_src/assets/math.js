// Typeset the math spans that pymdownx.arithmatex (generic mode) leaves in the page.
// Malformed math stays as its source text instead of breaking the page.
(function () {
  function typeset(root) {
    if (typeof katex === "undefined") return;
    root.querySelectorAll(".arithmatex").forEach(function (el) {
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
  }
  // Material's instant navigation swaps pages without a reload: typeset each one.
  window.pdSite.onEveryPage(function () { typeset(document); });
})();
