// The tag filter page: combine tags (all of these, none of those) and see the
// matching papers at once. The selection lives in the URL hash, so it can be shared.
// Data: filter.json, a compact list of titles, urls and tag indexes.
(function () {
  function readHash(slugs) {
    var state = { all: [], none: [] };
    location.hash.replace(/^#/, "").split("&").forEach(function (part) {
      var pair = part.split("=");
      if ((pair[0] === "all" || pair[0] === "none") && pair[1]) {
        state[pair[0]] = decodeURIComponent(pair[1]).split(",").filter(function (s) { return slugs.has(s); });
      }
    });
    return state;
  }

  function build(root, data, base) {
    var slugs = new Set(data.tags.map(function (t) { return t.slug; }));
    var state = readHash(slugs);
    var chips = document.createElement("div");
    chips.className = "pd-filter__tags";
    var summary = document.createElement("p");
    summary.className = "pd-filter__summary";
    summary.setAttribute("aria-live", "polite");
    var list = document.createElement("ol");
    list.className = "pd-filter__results";
    var buttons = {};
    data.tags.forEach(function (tag) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "pd-filter__tag pd-" + tag.kind;
      button.textContent = tag.name + " (" + tag.count + ")";
      button.dataset.slug = tag.slug;
      button.title = "Click: must have · again: must not have · again: either";
      button.addEventListener("click", function () {
        var slug = tag.slug;
        if (state.all.indexOf(slug) >= 0) {
          state.all = state.all.filter(function (s) { return s !== slug; });
          state.none.push(slug);
        } else if (state.none.indexOf(slug) >= 0) {
          state.none = state.none.filter(function (s) { return s !== slug; });
        } else {
          state.all.push(slug);
        }
        update(true);
      });
      buttons[tag.slug] = button;
      chips.appendChild(button);
    });
    var clear = document.createElement("button");
    clear.type = "button";
    clear.className = "md-button pd-filter__clear";
    clear.textContent = "Clear";
    clear.addEventListener("click", function () { state = { all: [], none: [] }; update(true); });
    root.replaceChildren(chips, clear, summary, list);

    var index = {};
    data.tags.forEach(function (tag, i) { index[tag.slug] = i; });

    function update(push) {
      Object.keys(buttons).forEach(function (slug) {
        var mode = state.all.indexOf(slug) >= 0 ? "all" : state.none.indexOf(slug) >= 0 ? "none" : "";
        buttons[slug].dataset.mode = mode;
        buttons[slug].setAttribute("aria-pressed", mode ? "true" : "false");
      });
      var must = state.all.map(function (s) { return index[s]; });
      var mustNot = state.none.map(function (s) { return index[s]; });
      var matches = data.papers.filter(function (paper) {
        var tags = paper.tags;
        return must.every(function (t) { return tags.indexOf(t) >= 0; }) &&
          mustNot.every(function (t) { return tags.indexOf(t) < 0; });
      });
      summary.textContent = matches.length + (matches.length === 1 ? " paper" : " papers") +
        (state.all.length || state.none.length ? " match" : " in the digest");
      var items = matches.slice(0, 300).map(function (paper) {
        var item = document.createElement("li");
        var link = document.createElement("a");
        link.href = new URL(paper.url, base).href;
        link.textContent = paper.title;
        item.appendChild(link);
        return item;
      });
      if (matches.length > 300) {
        var more = document.createElement("li");
        more.className = "pd-filter__more";
        more.textContent = "… and " + (matches.length - 300) + " more: add a tag to narrow the list";
        items.push(more);
      }
      list.replaceChildren.apply(list, items);
      if (push) {
        var hash = [];
        if (state.all.length) hash.push("all=" + state.all.join(","));
        if (state.none.length) hash.push("none=" + state.none.join(","));
        history.replaceState(null, "", hash.length ? "#" + hash.join("&") : location.pathname);
      }
    }
    window.addEventListener("hashchange", function () { state = readHash(slugs); update(false); });
    update(false);
  }

  window.pdSite.mount("[data-pd-filter]", "filter.json", build);
})();
