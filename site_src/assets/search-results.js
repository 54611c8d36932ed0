// Material's search results (small digests), made to read like Pagefind's: each hit
// keeps its title and tags and shows one snippet of at most about 200 characters
// around the first matched word, with math as text instead of raw LaTeX.
// Material renders the results; this rewrites each new one once (its text only:
// no markup from a page is copied, pdSite.snippet builds text nodes and <mark>s).
(function () {
  var LIMIT = 190;
  var results = document.querySelector("[data-md-component=search-result]");
  if (!results) return;  // the Pagefind box (large digests) shortens its own results

  function tidy(article) {
    article.dataset.pdTidy = "1";
    var title = article.querySelector("h1, h2");
    if (title && /[\\$]/.test(title.textContent)) title.textContent = window.pdSite.plainMath(title.textContent);
    // Everything but the title, the tags and the icon becomes one snippet: a tag page's list too.
    var keep = document.createElement("p");
    Array.prototype.slice.call(article.children).forEach(function (child) {
      if (child === title || child.matches("nav, .md-search-result__icon")) return;
      keep.appendChild(child);
    });
    (title || article.firstChild).after(keep);
    window.pdSite.snippet(keep, LIMIT);
    keep.classList.add("pd-snippet");
  }

  new MutationObserver(function () {
    results.querySelectorAll(".md-search-result__article:not([data-pd-tidy])").forEach(tidy);
  }).observe(results, { childList: true, subtree: true });
})();
