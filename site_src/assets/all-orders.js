// The pages of All papers after the first, in every order but Newest first, made in the browser (issue 43).
// Newest first is written as pages; the other orders (by title, collection, first area) only their
// first page, so that each listing entry is not stored four times. This script pages them:
// all.json gives each order as positions into filter.json's papers (the digest's order) and where
// each group (collection, area) starts, and every paper's summary; filter.json the titles, addresses
// and tags. The page number is in the address (?page=3), so a page can be linked and reloaded.
(function () {
  var root = window.pdSite.root;
  var element = window.pdSite.element;
  var data = null;

  function load() {
    if (!data) {
      data = Promise.all(["filter.json", "all.json"].map(function (file) {
        return fetch(new URL(file, root)).then(function (response) {
          if (!response.ok) throw new Error(file + ": " + response.status);
          return response.json();
        });
      }));
      data.catch(function () { data = null; });
    }
    return data;
  }

  function entry(paper, summary, tags) {
    var item = document.createElement("li");
    var text = document.createElement("p");
    var link = element("a", "pd-paper-link", paper.title);
    link.href = new URL(paper.url, root).href;
    text.append(link, document.createElement("br"), summary, document.createElement("br"));
    paper.tags.forEach(function (index, i) {
      var tag = tags[index];
      var chip = element("a", "pd-tag pd-" + tag.kind, tag.name);
      chip.href = new URL("tags/" + tag.slug + "/", root).href;
      chip.title = tag.kind.charAt(0).toUpperCase() + tag.kind.slice(1);
      if (i) text.append(" ");
      text.append(chip);
    });
    item.append(text);
    return item;
  }

  // The group each position of the order is in ("" for none), from the positions where groups start.
  function groupAt(groups, position) {
    var name = "";
    for (var i = 0; i < groups.length && groups[i][0] <= position; i++) name = groups[i][1];
    return name;
  }

  function pager(number, count, first, last, total) {
    var nav = element("p", "pd-pager");
    function link(label, n) {
      var a = element("a", "", label);
      a.href = "?page=" + n;
      return a;
    }
    var parts = [];
    if (number > 1) parts.push(link("← Previous", number - 1));
    var shown = [];
    for (var n = 1; n <= count; n++) {
      if (n <= 2 || n > count - 2 || Math.abs(n - number) <= 2) shown.push(n);
    }
    shown.forEach(function (n, i) {
      if (i && n - shown[i - 1] > 1) parts.push("…");
      parts.push(n === number ? element("strong", "", String(n)) : link(String(n), n));
    });
    if (number < count) parts.push(link("Next →", number + 1));
    parts.forEach(function (part) { nav.append(part, " "); });
    nav.append("· page " + number + " of " + count + ", papers " + first.toLocaleString("en") + "–"
      + last.toLocaleString("en") + " of " + total.toLocaleString("en"));
    return nav;
  }

  function show(marker) {
    if (marker.dataset.ready) return;
    marker.dataset.ready = "1";
    var slug = marker.dataset.pdOrder;
    var wanted = parseInt(new URLSearchParams(location.search).get("page") || "1", 10);
    load().then(function (both) {
      var papers = both[0].papers;
      var tags = both[0].tags;
      var order = both[1].orders[slug];
      var size = both[1].size;
      var total = order.papers.length;
      var count = Math.max(1, Math.ceil(total / size));
      var number = Math.min(Math.max(wanted || 1, 1), count);
      var first = (number - 1) * size;
      var article = marker.closest("article") || document.body;
      var top = pager(number, count, first + 1, Math.min(first + size, total), total);
      marker.replaceWith(top);
      if (number > 1) {
        // The first page's own list (written in the page) gives way to this page's.
        article.querySelectorAll("ul.pd-listing, h2.pd-listing__group").forEach(function (old) { old.remove(); });
        var list = element("ul", "pd-listing");
        var after = top;
        order.papers.slice(first, first + size).forEach(function (index, i) {
          var position = first + i;
          var name = groupAt(order.groups, position);
          var opens = name && (i === 0 || name !== groupAt(order.groups, position - 1));
          if (opens) {
            if (list.children.length) { after.after(list); after = list; list = element("ul", "pd-listing"); }
            var continued = i === 0 && position > 0 && name === groupAt(order.groups, position - 1);
            var heading = element("h2", "pd-listing__group", continued ? name + " (continued)" : name);
            after.after(heading);
            after = heading;
          }
          list.append(entry(papers[index], both[1].summaries[index], tags));
        });
        after.after(list);
      }
      var lists = article.querySelectorAll("ul.pd-listing");
      (lists.length ? lists[lists.length - 1] : top).after(top.cloneNode(true));
      if (number > 1) window.scrollTo(0, 0);
    }).catch(function (error) {
      marker.append(" (" + error.message + ")");
    });
  }

  window.pdSite.onEveryPage(function () {
    document.querySelectorAll("[data-pd-order]").forEach(show);
  });
})();
