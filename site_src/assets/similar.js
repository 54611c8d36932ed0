// "Papers like this abstract": the reader's text against the digest, in the browser.
// The text is weighed as the generator weighs an abstract for related papers
// (lower-case words, the same stop words, (1 + log tf) x idf) and scored against
// each paper's strongest words (similar/t-<n>.json, fetched only for the words
// typed); the ten best papers' titles and tags come from similar/p-<n>.json.
// ?paper=<id> seeds the query with that paper's own words ("more like this").
// Nothing leaves the browser but requests for the site's own files; every text
// from the data is set with textContent.
(function () {
  var SHOWN = 10;
  var WEAK = 0.05;  // the generator's floor for related papers
  var WORD = /(?<![\p{L}\p{N}_])[a-z][a-z0-9-]*[a-z0-9](?![\p{L}\p{N}_])/gu;

  var element = window.pdSite.element;

  // 32-bit FNV-1a of a word's bytes (the words are ASCII): generator/render/similar_data.py's fnv1a.
  function fnv1a(word) {
    var value = 0x811c9dc5;
    for (var i = 0; i < word.length; i++) {
      value ^= word.charCodeAt(i);
      value = Math.imul(value, 0x01000193) >>> 0;
    }
    return value >>> 0;
  }

  // 20000 -> "20,000" (not toLocaleString: its first call loads locale data, a tenth of a second or more).
  function thousands(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }

  function build(root, index, base) {
    var stop = new Set(index.stop);
    var cache = new Map();
    function json(path) {
      if (!cache.has(path)) {
        cache.set(path, fetch(new URL("similar/" + path, base)).then(function (r) {
          if (!r.ok) throw new Error(path + ": " + r.status);
          return r.json();
        }));
      }
      return cache.get(path);
    }

    var form = element("form", "pd-similar__form");
    var box = element("textarea", "pd-similar__text");
    box.rows = 7;
    box.placeholder = "Paste an abstract or a paragraph here";
    box.setAttribute("aria-label", "Abstract or paragraph to find similar papers for");
    var go = element("button", "md-button md-button--primary pd-similar__go", "Find similar papers");
    go.type = "submit";
    form.append(box, go);
    var status = element("p", "pd-similar__status");
    status.setAttribute("aria-live", "polite");
    var list = element("ol", "pd-similar__results");
    root.replaceChildren(form, status, list);
    var sequence = 0;
    // A small digest's whole table is a few dozen KB: fetched as the page opens, so the first answer
    // waits for no request. A large one's shards are fetched only for the words a query has.
    if (index.shards <= 16) {
      for (var n = 0; n < index.shards; n++) json("t-" + n + ".json");
      for (var c = 0; c * index.chunk < index.papers && c < 4; c++) json("p-" + c + ".json");
    }

    function counts(text) {
      var tf = new Map();
      (text.toLowerCase().match(WORD) || []).forEach(function (word) {
        if (!stop.has(word)) tf.set(word, (tf.get(word) || 0) + 1);
      });
      return tf;
    }

    // weights: word -> the query's weight before idf (1 + log tf), or a paper's own weight when seeded.
    function rank(weights, seeded) {
      var mine = ++sequence;
      var started = performance.now();
      var shards = new Map();
      weights.forEach(function (_, word) {
        var shard = fnv1a(word) % index.shards;
        if (!shards.has(shard)) shards.set(shard, []);
        shards.get(shard).push(word);
      });
      status.textContent = "Comparing with " + thousands(index.papers) + " papers…";
      return Promise.all(Array.from(shards.keys()).map(function (n) { return json("t-" + n + ".json"); }))
        .then(function (loaded) {
          if (mine !== sequence) return null;
          var scores = new Map(), norm = 0;
          loaded.forEach(function (table) {
            Object.keys(table).forEach(function (word) {
              if (!weights.has(word)) return;
              var row = table[word];
              var q = seeded ? weights.get(word) : weights.get(word) * row[0] / 1000;
              norm += q * q;
              for (var k = 1; k < row.length; k += 2) {
                scores.set(row[k], (scores.get(row[k]) || 0) + q * row[k + 1] / 1000);
              }
            });
          });
          norm = Math.sqrt(norm) || 1;
          var best = Array.from(scores.entries()).sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; })
            .slice(0, SHOWN);
          var chunks = Array.from(new Set(best.map(function (pair) { return Math.floor(pair[0] / index.chunk); })));
          return Promise.all(chunks.map(function (c) { return json("p-" + c + ".json"); })).then(function (rows) {
            if (mine !== sequence) return null;
            var byChunk = new Map(chunks.map(function (c, i) { return [c, rows[i]]; }));
            list.replaceChildren.apply(list, best.map(function (pair) {
              var paper = byChunk.get(Math.floor(pair[0] / index.chunk))[pair[0] % index.chunk];
              return item(paper, pair[1] / norm);
            }));
            var seconds = (performance.now() - started) / 1000;
            status.textContent = best.length
              ? "The " + best.length + " most similar of " + thousands(index.papers) + " papers (" +
                seconds.toFixed(2) + " s)"
              : "No paper shares a word with this text";
            root.dataset.seconds = String(seconds);
            return best;
          });
        });
    }

    function item(paper, similarity) {
      var li = element("li", "pd-similar__item");
      var link = element("a", "pd-paper-link", paper.title);
      link.href = new URL(paper.url, base).href;
      var score = element("span", "pd-similar__score", " · similarity " + similarity.toFixed(2));
      li.append(link, score);
      if (similarity < WEAK) li.append(element("em", "pd-weak", " · weak match"));
      var tags = element("span", "pd-similar__tags");
      paper.tags.forEach(function (tag) {
        var chip = element("a", "pd-tag pd-" + tag.kind, tag.name);
        chip.href = new URL(tag.url, base).href;
        tags.append(chip, " ");
      });
      li.append(tags);
      return li;
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var tf = counts(box.value);
      if (!tf.size) { status.textContent = "Paste some text first"; list.replaceChildren(); return; }
      var weights = new Map();
      tf.forEach(function (n, word) { weights.set(word, 1 + Math.log(n)); });
      history.replaceState(null, "", location.pathname);
      rank(weights, false);
    });

    // "More like this" from a paper page: its own strongest words are the query.
    var seed = new URLSearchParams(location.search).get("paper");
    if (seed && /^[0-9a-f]{12}$/.test(seed)) {
      json("i-" + seed.slice(0, 2) + ".json").then(function (ids) {
        var number = ids[seed];
        if (number === undefined) throw new Error("unknown paper");
        var chunk = Math.floor(number / index.chunk);
        return Promise.all([json("f-" + chunk + ".json"), json("p-" + chunk + ".json")]).then(function (loaded) {
          var weights = new Map(loaded[0][number % index.chunk].map(function (pair) { return [pair[0], pair[1] / 1000]; }));
          box.placeholder = "Papers like “" + loaded[1][number % index.chunk].title + "”; or paste an abstract here";
          return rank(weights, true);
        });
      }).catch(function () { status.textContent = "That paper is not in this digest any more"; });
    } else {
      status.textContent = "";
    }
    window.pdSimilar = { rank: function (text) {
      box.value = text;
      go.click();
    } };
  }

  window.pdSite.mount("[data-pd-similar]", "similar/index.json", build);
})();
