// Search for large digests: Material's search box, answered by Pagefind.
// Pagefind's index is split into chunks fetched on demand, so the first result
// needs a few hundred KB instead of a whole-site index. The page only gets
// this behaviour when the header holds the Pagefind search box
// (overrides/partials/search.html, search engine "pagefind").
(function () {
  var root = document.querySelector("[data-pd-search]");
  if (!root) return;
  // Material's header box comes without the frame of its results (the same in every page of a
  // large digest): made here, as Material's partial writes it.
  if (!root.querySelector(".md-search-result")) {
    var frame = window.pdSite.element("div", "md-search__scrollwrap");
    frame.tabIndex = 0;
    var results = frame.appendChild(window.pdSite.element("div", "md-search-result"));
    results.appendChild(window.pdSite.element("div", "md-search-result__meta", root.dataset.pdPlaceholder));
    results.appendChild(window.pdSite.element("ol", "md-search-result__list")).setAttribute("role", "presentation");
    root.querySelector(".md-search__inner").appendChild(window.pdSite.element("div", "md-search__output")).appendChild(frame);
  }
  var input = root.querySelector("[data-pd-query]");
  var list = root.querySelector(".md-search-result__list");
  var meta = root.querySelector(".md-search-result__meta");
  var form = root.querySelector("form");
  // Material's search toggle opens and closes its search box; the box of our own
  // (Zensical's theme) is open while it holds the focus, and needs none.
  var toggle = root.classList.contains("md-search") ? document.getElementById("__search") : null;
  var base = window.pdSite.root;
  var pagefind = null;
  var sequence = 0;
  var placeholder = meta.textContent;

  // The index comes in parts (pagefind/, pagefind-2/, ...; pagefind/parts.json
  // lists the others): a rebuild re-indexes only the parts whose papers changed.
  function parts() {
    // Revalidated on every visit: a rebuild may have added or dropped a part.
    return fetch(new URL("pagefind/parts.json", base).href, { cache: "no-cache" }).then(function (response) {
      return response.ok ? response.json() : { parts: [] };
    }).then(function (listing) {
      return Array.isArray(listing.parts) ? listing.parts : [];
    }, function () { return []; });
  }

  // Each index part packs Pagefind's result fragments into bundles (generator/build/fragments.py:
  // a few hundred files, not one per paper). Pagefind fetches fragment/<lang>_<hash>.pf_fragment;
  // this answers it from fragment/<bucket>.pf_bundle (one line of JSON naming each fragment's offset
  // and length, then their bytes), fetched once. A fragment not found there is fetched as usual.
  var BUCKETS = 2048;
  var bundles = {};
  var plainFetch = window.fetch;
  var fragmentUrl = /^(.*\/fragment\/)([A-Za-z0-9-]+_([0-9a-f]{3})[0-9a-f]*)\.pf_fragment$/;

  function bundle(url) {
    if (!bundles[url]) {
      bundles[url] = plainFetch.call(window, url).then(function (response) {
        return response.ok ? response.arrayBuffer() : null;
      }).then(function (buffer) {
        if (!buffer) return null;
        var bytes = new Uint8Array(buffer);
        var end = bytes.indexOf(10);
        return { where: JSON.parse(new TextDecoder().decode(bytes.subarray(0, end))), body: bytes.subarray(end + 1) };
      }).catch(function () { return null; });
    }
    return bundles[url];
  }

  function answerFragmentsFromBundles() {
    if (window.fetch !== plainFetch) return;
    window.fetch = function (input, init) {
      var match = typeof input === "string" && fragmentUrl.exec(input);
      if (!match) return plainFetch.apply(window, arguments);
      var bucket = Math.floor(parseInt(match[3], 16) * BUCKETS / 4096);
      return bundle(match[1] + bucket + ".pf_bundle").then(function (found) {
        var at = found && found.where[match[2]];
        if (!at) return plainFetch.call(window, input, init);
        return new Response(found.body.slice(at[0], at[0] + at[1]));
      });
    };
  }

  function load() {
    if (!pagefind) {
      answerFragmentsFromBundles();
      var runtime = import(new URL("pagefind/pagefind.js", base).href);
      pagefind = Promise.all([runtime, parts()]).then(function (loaded) {
        var module = loaded[0];
        // noWorker: the search runs on the page, so the first search does not
        // also download Pagefind's worker script (about 40 KB).
        // excerptLength (words): enough for 200 characters once a title it may start with is dropped
        // (pdSite.snippet then cuts it to about 190 around the first match).
        return module.options({ baseUrl: base.pathname, noWorker: true, excerptLength: 40 }).then(function () {
          module.init();
          return Promise.all(loaded[1].map(function (folder) {
            return module.mergeIndex(new URL(folder, base).pathname, { baseUrl: base.pathname });
          }));
        }).then(function () { return module; });
      });
    }
    return pagefind;
  }

  // Pagefind's excerpt marks the matched words with <mark>. Parse it in an inert
  // document and copy only text and <mark>, so no markup from a page can run here.
  function excerpt(html) {
    var paragraph = document.createElement("p");
    var doc = new DOMParser().parseFromString("<body>" + html + "</body>", "text/html");
    doc.body.childNodes.forEach(function (node) {
      if (node.nodeName === "MARK") {
        var mark = document.createElement("mark");
        mark.textContent = node.textContent;
        paragraph.appendChild(mark);
      } else {
        paragraph.appendChild(document.createTextNode(node.textContent));
      }
    });
    return paragraph;
  }

  // Remove `prefix` (and the ". " after it) from the start of `element`'s text, across its text nodes and marks.
  function dropPrefix(element, prefix) {
    var text = element.textContent;
    if (!prefix || text.slice(0, prefix.length).toLowerCase() !== prefix.toLowerCase()) return;
    var left = prefix.length + (/^[.:]?\s*/.exec(text.slice(prefix.length))[0].length);
    var walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    var nodes = [];
    for (var node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node);
    nodes.forEach(function (node) {
      if (left <= 0) return;
      var cut = Math.min(left, node.nodeValue.length);
      node.nodeValue = node.nodeValue.slice(cut);
      left -= cut;
    });
    element.querySelectorAll("mark").forEach(function (mark) { if (!mark.textContent) mark.remove(); });
  }

  // Fill `element` with `text`, each word in `words` (lower case) as a <mark>: text nodes only.
  function markWords(element, text, words) {
    text.split(/([\p{L}\p{N}_-]+)/u).forEach(function (part) {
      if (part && words.has(part.toLowerCase())) {
        var mark = document.createElement("mark");
        mark.textContent = part;
        element.appendChild(mark);
      } else if (part) {
        element.appendChild(document.createTextNode(part));
      }
    });
  }

  function render(data) {
    var item = document.createElement("li");
    item.className = "md-search-result__item";
    var link = document.createElement("a");
    link.className = "md-search-result__link";
    link.href = data.url;
    link.tabIndex = -1;
    var article = document.createElement("article");
    article.className = "md-search-result__article md-typeset";
    var text = excerpt(data.excerpt || "");
    // The words Pagefind matched are marked in the title too, as Material's search does.
    var matched = new Set(Array.prototype.map.call(text.querySelectorAll("mark"), function (mark) {
      return mark.textContent.toLowerCase().replace(/[^\p{L}\p{N}_-]+/gu, "");  // "VisionReasoner:" -> the word
    }));
    var title = document.createElement("h1");
    markWords(title, window.pdSite.plainMath((data.meta && data.meta.title) || data.url), matched);
    article.appendChild(title);
    // An excerpt from the start of a record repeats its title (the record's heading): shown once is enough.
    dropPrefix(text, (data.meta && data.meta.title) || "");
    window.pdSite.snippet(text, 190);  // Pagefind cuts by words: this bounds the characters, math as text
    article.appendChild(text);
    var tags = (data.filters && data.filters.tag) || [];
    if (tags.length) {
      var nav = document.createElement("nav");
      nav.className = "md-tags";
      tags.forEach(function (name) {
        var tag = document.createElement("span");
        tag.className = "md-tag";
        tag.textContent = name;
        nav.appendChild(tag);
      });
      article.appendChild(nav);
    }
    link.appendChild(article);
    item.appendChild(link);
    return item;
  }

  var preloaded = "";

  function search() {
    var query = input.value.trim();
    var mine = ++sequence;
    if (!query) {
      list.replaceChildren();
      meta.textContent = placeholder;
      return;
    }
    // The words typed in full are fetched while the reader types the next one: the
    // same index chunks the search needs, so nothing extra is downloaded.
    var complete = input.value.split(/\s+/).slice(0, -1).join(" ").trim();
    if (complete && complete !== preloaded) {
      preloaded = complete;
      load().then(function (module) { module.preload(complete); });
    }
    // Debounced here rather than with Pagefind's debouncedSearch, which fetches
    // the index chunks of every partial word typed ("o", "of", "off", ...):
    // only the words of the query the reader stops at are fetched.
    load().then(function (module) {
      return new Promise(function (resolve) { setTimeout(resolve, 120); }).then(function () {
        return mine === sequence ? module.search(query) : null;
      });
    }).then(function (result) {
      if (result === null || mine !== sequence) return null;
      return Promise.all(result.results.slice(0, 10).map(function (r) { return r.data(); })).then(function (items) {
        if (mine !== sequence) return;
        var count = result.results.length;
        meta.textContent = count === 0 ? "No matching papers" : count === 1 ? "1 matching paper" : count + " matching papers";
        list.replaceChildren.apply(list, items.map(render));
      });
    });
  }

  function links() {
    return Array.prototype.slice.call(list.querySelectorAll(".md-search-result__link"));
  }

  input.addEventListener("focus", function () {
    if (toggle) toggle.checked = true;
    load();
  });
  input.addEventListener("input", search);
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var first = links()[0];
    if (first) first.click();
  });
  form.addEventListener("reset", function () {
    setTimeout(search, 0);
  });
  // Keyboard: arrows move through the results, Enter opens one, Escape closes the search.
  root.addEventListener("keydown", function (event) {
    var all = links();
    var index = all.indexOf(document.activeElement);
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (!all.length) return;
      event.preventDefault();
      var next = event.key === "ArrowDown" ? Math.min(index + 1, all.length - 1) : index - 1;
      if (next < 0) input.focus(); else all[next].focus();
    } else if (event.key === "Escape") {
      if (toggle) toggle.checked = false;
      input.blur();
    }
  });
  // "/" or "s" opens the search, as with Material's own.
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    if (event.key === "/" || event.key === "s") {
      event.preventDefault();
      input.focus();
    }
  });
})();
