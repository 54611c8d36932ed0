// A topic's BibTeX and CSV exports, made in the reader's browser (issue 43).
// In a large digest a topic page's "BibTeX" and "CSV" links point at the whole digest's papers.bib
// and papers.csv (what a reader without JavaScript gets); this script picks the topic's papers out
// of them instead of storing every abstract again in a file per topic. It reads
// - filter.json: the tags, and per paper (in the digest's order) its tag numbers and BibTeX key;
// - the file the link names, papers.bib or papers.csv (papers.bib.gz, papers.csv.gz once large,
//   unpacked by pdSite.exportText): the same papers in the same order, one entry (one row) each.
// The file it saves holds the topic's papers in the digest's order, as papers.bib and papers.csv
// write them, byte for byte.
(function () {
  var root = window.pdSite.root;
  var loaded = {};

  function load(file, read) {
    if (!loaded[file]) {
      loaded[file] = fetch(new URL(file, root)).then(function (response) {
        if (!response.ok) throw new Error(file + ": " + response.status);
        return read(response);
      });
      loaded[file].catch(function () { delete loaded[file]; });
    }
    return loaded[file];
  }

  // papers.bib's entries: each starts on a line of its own with "@" (a field never spans lines).
  function bibEntries(text) {
    var starts = [];
    var re = /^@/gm;
    var match;
    while ((match = re.exec(text))) starts.push(match.index);
    return starts.map(function (start, i) { return text.slice(start, i + 1 < starts.length ? starts[i + 1] : text.length); });
  }

  // papers.csv's records, each with its line end: a quoted field may hold line breaks.
  function csvRecords(text) {
    var records = [];
    var start = 0;
    var quoted = false;
    for (var i = 0; i < text.length; i++) {
      var c = text[i];
      if (c === '"') quoted = !quoted;
      else if (c === "\n" && !quoted) {
        records.push(text.slice(start, i + 1));
        start = i + 1;
      }
    }
    if (start < text.length) records.push(text.slice(start));
    return records;
  }

  function chosen(data, slug) {
    var tag = data.tags.findIndex(function (t) { return t.slug === slug; });
    var out = [];
    data.papers.forEach(function (paper, i) { if (tag >= 0 && paper.tags.indexOf(tag) >= 0) out.push(i); });
    return out;
  }

  function topicBib(data, slug, text) {
    var entries = bibEntries(text);
    var byKey = {};
    entries.forEach(function (entry) {
      var key = /^@[^{]*\{([^,]*),/.exec(entry);
      if (key) byKey[key[1]] = entry;
    });
    return chosen(data, slug).map(function (i) {
      var entry = entries[i];
      var key = data.papers[i].key;
      // The same order in both files; a key that does not match (an edited file) is found by its key.
      if (!entry || entry.indexOf("{" + key + ",") < 0) entry = byKey[key];
      if (!entry) throw new Error("papers.bib has no entry " + key);
      return entry.replace(/\n+$/, "\n");
    }).join("\n");
  }

  function topicCsv(data, slug, text) {
    var records = csvRecords(text);
    if (records.length !== data.papers.length + 1) throw new Error("papers.csv does not list the digest's papers");
    return records[0] + chosen(data, slug).map(function (i) { return records[i + 1]; }).join("");
  }

  function save(name, text, type) {
    var link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type: type }));
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(link.href); }, 60000);
  }

  function start() {
    document.querySelectorAll("a[data-pd-export]").forEach(function (link) {
      if (link.dataset.ready) return;
      link.dataset.ready = "1";
      link.addEventListener("click", function (event) {
        if (link.dataset.failed) return;  // the link's own file, the whole digest's
        event.preventDefault();
        var kind = link.dataset.pdExport;
        var slug = link.dataset.pdTag;
        var label = link.textContent;
        link.textContent = label + " (preparing…)";
        var data = load("filter.json", function (r) { return r.json(); });
        Promise.all([data, window.pdSite.exportText(link.href)]).then(function (both) {
          if (kind === "bib") save(slug + ".bib", topicBib(both[0], slug, both[1]), "application/x-bibtex");
          else save(slug + ".csv", topicCsv(both[0], slug, both[1]), "text/csv");
          link.textContent = label;
        }).catch(function (error) {
          // Nothing lost: the whole digest's file is still there.
          link.textContent = label + " (could not be made here: the link gives every paper)";
          link.dataset.failed = "1";
          console.warn(error);
        });
      });
    });
  }

  window.pdSite.onEveryPage(start);
})();
