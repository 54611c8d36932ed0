// Reading list: readers star papers; the stars stay in this browser (localStorage).
// The Starred page lists them and exports their BibTeX entries from papers.bib.
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

  function starredPage() {
    var root = document.querySelector("[data-pd-starred]");
    if (!root || root.dataset.ready) return;
    root.dataset.ready = "1";
    var site = window.pdSite.root;
    fetch(new URL("filter.json", site)).then(function (r) { return r.json(); }).then(function (data) {
      var byId = {};
      data.papers.forEach(function (paper) { byId[paper.id] = paper; });
      var summary = document.createElement("p");
      summary.className = "pd-starred__summary";
      var list = document.createElement("ol");
      var exportButton = document.createElement("button");
      exportButton.type = "button";
      exportButton.className = "md-button md-button--primary";
      exportButton.textContent = "Export BibTeX";
      root.replaceChildren(summary, exportButton, list);

      function paint() {
        var ids = load().filter(function (id) { return byId[id]; });
        summary.textContent = ids.length ? ids.length + (ids.length === 1 ? " starred paper" : " starred papers")
          : "No starred papers yet: open a paper and press ☆ Star.";
        exportButton.disabled = ids.length === 0;
        list.replaceChildren.apply(list, ids.map(function (id) {
          var row = byId[id];
          var item = document.createElement("li");
          var link = document.createElement("a");
          link.href = new URL(row.url, site).href;
          link.textContent = row.title;
          var remove = document.createElement("button");
          remove.type = "button";
          remove.className = "pd-starred__remove";
          remove.textContent = "Remove";
          remove.addEventListener("click", function () {
            save(load().filter(function (other) { return other !== id; }));
            paint();
          });
          item.append(link, " ", remove);
          return item;
        }));
      }

      exportButton.addEventListener("click", function () {
        fetch(new URL("papers.bib", site)).then(function (r) { return r.text(); }).then(function (bib) {
          var byKey = entries(bib);
          var text = load().filter(function (id) { return byId[id]; }).map(function (id) {
            return byKey[byId[id].key] || "";
          }).join("\n");
          var link = document.createElement("a");
          link.href = URL.createObjectURL(new Blob([text], { type: "application/x-bibtex" }));
          link.download = "starred.bib";
          document.body.appendChild(link);
          link.click();
          link.remove();
        });
      });
      paint();
    });
  }

  function start() {
    buttons();
    starredPage();
  }

  window.pdSite.onEveryPage(start);
})();
