// Reading list: readers star papers; the stars stay in this browser (localStorage).
// The Starred page lists them, exports their BibTeX entries from papers.bib (or .gz), and turns
// them into a link that opens the same list in another browser.
(function () {
  var KEY = "paper-digest.stars";

  function load() {
    try {
      var value = JSON.parse(localStorage.getItem(KEY) || "[]");
      return Array.isArray(value) ? value.filter(function (id) { return /^[0-9a-f]{6,32}$/.test(id); }) : [];
    } catch (error) {
      return [];
    }
  }

  function save(ids) {
    localStorage.setItem(KEY, JSON.stringify(ids));
  }

  function paintButton(button, starred) {
    button.setAttribute("aria-pressed", starred ? "true" : "false");
    button.textContent = starred ? "★ Starred" : "☆ Star";
    button.title = starred ? "Remove from your reading list" : "Add to your reading list (kept in this browser)";
  }

  function buttons() {
    document.querySelectorAll("[data-pd-star]").forEach(function (button) {
      if (button.dataset.ready) return;
      button.dataset.ready = "1";
      var id = button.getAttribute("data-pd-star");
      paintButton(button, load().indexOf(id) >= 0);
      button.addEventListener("click", function () {
        var ids = load();
        var at = ids.indexOf(id);
        if (at >= 0) ids.splice(at, 1); else ids.push(id);
        save(ids);
        paintButton(button, at < 0);
      });
    });
  }

  function entries(bib) {
    // Split papers.bib into its @misc entries, keyed by citation key.
    var byKey = {};
    bib.split(/\n(?=@)/).forEach(function (entry) {
      var match = /^@\w+\{([^,]+),/.exec(entry.trim());
      if (match) byKey[match[1]] = entry.trim() + "\n";
    });
    return byKey;
  }

  // A shared list travels in the URL fragment (#list=id,id,...): it is never sent to a server.
  var SHARED = /^#list=([0-9a-f,]*)$/;

  function sharedIds() {
    var match = SHARED.exec(location.hash);
    if (!match) return null;
    var seen = {};
    return match[1].split(",").filter(function (id) {
      if (!/^[0-9a-f]{6,32}$/.test(id) || seen[id]) return false;
      seen[id] = true;
      return true;
    });
  }

  var element = window.pdSite.element;

  function button(text, primary) {
    var node = element("button", "md-button" + (primary ? " md-button--primary" : ""), text);
    node.type = "button";
    return node;
  }

  function starredPage() {
    var root = document.querySelector("[data-pd-starred]");
    if (!root || root.dataset.ready) return;
    root.dataset.ready = "1";
    var site = window.pdSite.root;
    fetch(new URL("filter.json", site)).then(function (r) { return r.json(); }).then(function (data) {
      var byId = {};
      data.papers.forEach(function (paper) { byId[paper.id] = paper; });
      var summary = element("p", "pd-starred__summary");
      var actions = element("p", "pd-starred__actions");
      var exportButton = button("Export BibTeX", true);
      var shareButton = button("Share this list");
      var addButton = button("Add these to my stars", true);
      var ownLink = element("a", "pd-starred__own", "Show my own stars");
      ownLink.href = "#";
      var shareBox = element("p", "pd-starred__share");
      var shareField = element("input", "pd-starred__link");
      shareField.type = "text";
      shareField.readOnly = true;
      shareField.setAttribute("aria-label", "Link to this reading list");
      shareBox.append("Anyone who opens this link sees the same list (the papers' ids are in the link; nothing is stored anywhere): ", shareField);
      var list = element("ol");
      root.replaceChildren(summary, actions, shareBox, list);

      function shown() {
        var shared = sharedIds();
        return (shared === null ? load() : shared).filter(function (id) { return byId[id]; });
      }

      function paint() {
        var shared = sharedIds();
        var ids = shown();
        shareBox.hidden = true;
        if (shared === null) {
          summary.textContent = ids.length ? ids.length + (ids.length === 1 ? " starred paper" : " starred papers")
            : "No starred papers yet: open a paper and press ☆ Star.";
          actions.replaceChildren(exportButton, " ", shareButton);
          shareButton.disabled = ids.length === 0;
        } else {
          var missing = shared.length - ids.length;
          summary.textContent = "A shared reading list: " + ids.length + (ids.length === 1 ? " paper" : " papers")
            + (missing ? " (" + missing + " not in this digest)" : "") + ".";
          var mine = load();
          var fresh = ids.filter(function (id) { return mine.indexOf(id) < 0; });
          addButton.disabled = fresh.length === 0;
          addButton.textContent = fresh.length ? "Add " + (fresh.length === ids.length ? "these" : "the " + fresh.length + " new ones") + " to my stars" : "All of these are in my stars";
          actions.replaceChildren(addButton, " ", exportButton, " ", ownLink);
        }
        exportButton.disabled = ids.length === 0;
        list.replaceChildren.apply(list, ids.map(function (id) {
          var row = byId[id];
          var item = element("li");
          var link = element("a", "", row.title);
          link.href = new URL(row.url, site).href;
          item.append(link);
          if (shared === null) {
            var remove = element("button", "pd-starred__remove", "Remove");
            remove.type = "button";
            remove.addEventListener("click", function () {
              save(load().filter(function (other) { return other !== id; }));
              paint();
            });
            item.append(" ", remove);
          }
          return item;
        }));
      }

      shareButton.addEventListener("click", function () {
        var url = new URL(location.href);
        url.hash = "list=" + load().filter(function (id) { return byId[id]; }).join(",");
        shareField.value = url.href;
        shareBox.hidden = false;
        shareField.select();
        if (navigator.clipboard) navigator.clipboard.writeText(url.href).catch(function () {});
      });

      addButton.addEventListener("click", function () {
        var mine = load();
        shown().forEach(function (id) { if (mine.indexOf(id) < 0) mine.push(id); });
        save(mine);
        paint();
      });

      ownLink.addEventListener("click", function (event) {
        event.preventDefault();
        history.pushState(null, "", location.pathname + location.search);
        paint();
      });

      exportButton.addEventListener("click", function () {
        // papers.bib, or papers.bib.gz in a large digest: the page names the file written.
        window.pdSite.exportText(root.dataset.pdStarred || "papers.bib").then(function (bib) {
          var byKey = entries(bib);
          var text = shown().map(function (id) { return byKey[byId[id].key] || ""; }).join("\n");
          var link = document.createElement("a");
          link.href = URL.createObjectURL(new Blob([text], { type: "application/x-bibtex" }));
          link.download = "starred.bib";
          document.body.appendChild(link);
          link.click();
          link.remove();
        });
      });
      window.addEventListener("hashchange", paint);
      paint();
    });
  }

  function start() {
    buttons();
    starredPage();
  }

  window.pdSite.onEveryPage(start);
})();
