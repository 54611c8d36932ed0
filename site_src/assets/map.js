// The topic map: every paper as a point on a canvas, coloured by its first area.
// Zoom (wheel, pinch, buttons, + and - keys), pan (drag, arrow keys), a find box
// that highlights papers by title words or topic, labels of the largest topics
// placed so they never overlap, a hover card (title, areas, topics).
// 20,000 points stay smooth: one path per colour, points outside the view
// skipped, frames coalesced with requestAnimationFrame, hover looked up in a
// grid of the unit square. Every text from the data is set with textContent.
(function () {
  var PAD = 12;
  var GRID = 128;
  var MAX_ZOOM = 64;
  var LABEL_FONT = "600 12px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

  var element = window.pdSite.element;

  function plural(count, word) {
    return count.toLocaleString("en") + " " + word + (count === 1 ? "" : "s");
  }

  function build(root, data, base) {
    var points = data.points;
    var total = points.length;
    var xs = new Float64Array(total), ys = new Float64Array(total);
    var colour = new Int32Array(total);
    // What the find box matches: title words and topic names, lower case.
    var words = new Array(total);
    points.forEach(function (p, i) {
      xs[i] = p.x;
      ys[i] = p.y;
      colour[i] = p.areas.length ? p.areas[0] : data.areas.length;
      words[i] = (p.title + " \u0001 " + p.topics.map(function (t) { return data.topics[t].name; }).join(" \u0001 ")).toLowerCase();
    });
    // The points of each colour (the last list: papers with no area), built once.
    var byColour = data.areas.map(function () { return []; }).concat([[]]);
    for (var n = 0; n < total; n++) byColour[colour[n]].push(n);
    // Hover and tap look points up in a grid of the unit square (independent of zoom).
    var grid = new Map();
    for (var g = 0; g < total; g++) {
      var key = cellOf(xs[g]) * GRID + cellOf(ys[g]);
      if (!grid.has(key)) grid.set(key, []);
      grid.get(key).push(g);
    }

    var legend = element("div", "pd-map__legend");
    var caption = element("p", "pd-map__caption",
      "Colour: a paper's first research area. Numbers: papers in each area, as on the home page " +
      "(a paper may have two areas). Click an area to hide or show its papers.");
    var tools = element("div", "pd-map__tools");
    var find = element("input", "pd-map__find");
    find.type = "search";
    find.placeholder = "Find a paper or topic on the map";
    find.setAttribute("aria-label", "Find a paper or topic on the map");
    var buttons = element("div", "pd-map__zoom");
    var zoomIn = element("button", "pd-map__button", "+");
    var zoomOut = element("button", "pd-map__button", "\u2212");
    var reset = element("button", "pd-map__button", "Fit");
    zoomIn.type = zoomOut.type = reset.type = "button";
    [[zoomIn, "Zoom in"], [zoomOut, "Zoom out"], [reset, "Show the whole map"]].forEach(function (pair) {
      pair[0].title = pair[1];
      pair[0].setAttribute("aria-label", pair[1]);
    });
    buttons.append(zoomIn, zoomOut, reset);
    var finder = element("div", "pd-map__search");
    finder.append(find);
    tools.append(finder, buttons);
    var status = element("p", "pd-map__status");
    status.setAttribute("aria-live", "polite");
    var found = element("ul", "pd-map__found");
    var frame = element("div", "pd-map__frame");
    var canvas = element("canvas");
    canvas.tabIndex = 0;
    canvas.setAttribute("role", "img");
    canvas.setAttribute("aria-label", "Map of " + plural(total, "paper") +
      " coloured by research area; drag to pan, wheel or + and - to zoom");
    var card = element("div", "pd-map__tip");
    card.hidden = true;
    frame.append(canvas, card);
    // The map right under the tools, the legend below it: the canvas is in view as the page opens.
    finder.append(found);  // a drop-down under the box: the map does not move as titles come and go
    found.hidden = true;
    root.replaceChildren(tools, status, frame, caption, legend);

    var hidden = new Set();
    var baseRadius = total > 5000 ? 1.6 : total > 1000 ? 2.5 : 5;
    var width = 0, height = 0, k = 1, tx = 0, ty = 0;
    var matches = null, matchList = [], cycle = -1, focused = -1;
    var frames = [];

    data.areas.forEach(function (area, index) {
      if (!area.count) return;  // an area with no paper here needs no switch
      var button = element("button", "pd-map__area");
      button.type = "button";
      button.setAttribute("aria-pressed", "true");
      button.title = plural(area.count, "paper") + " in this area; " + area.coloured.toLocaleString("en") +
        " have it as their first area and are drawn in its colour";
      var swatch = element("span", "pd-map__swatch");
      swatch.style.background = area.color;
      button.append(swatch, area.name + " ", element("span", "pd-map__count", area.count.toLocaleString("en")));
      button.addEventListener("click", function () {
        if (hidden.has(index)) hidden.delete(index); else hidden.add(index);
        button.setAttribute("aria-pressed", hidden.has(index) ? "false" : "true");
        legendChanged();
      });
      legend.appendChild(button);
    });

    function cellOf(v) { return Math.min(GRID - 1, Math.max(0, Math.floor(v * GRID))); }
    function inner() { return [width - 2 * PAD, height - 2 * PAD]; }

    function screen(i) {
      var size = inner();
      return [PAD + xs[i] * size[0] * k + tx, PAD + (1 - ys[i]) * size[1] * k + ty];
    }

    function unit(sx, sy) {
      var size = inner();
      return [(sx - PAD - tx) / (size[0] * k), 1 - (sy - PAD - ty) / (size[1] * k)];
    }

    // 1 for each point shown: none of its areas is hidden (worked out when the legend changes, not per frame).
    var shown = new Uint8Array(total).fill(1);
    function legendChanged() {
      for (var i = 0; i < total; i++) {
        var areas = points[i].areas, show = 1;
        for (var a = 0; a < areas.length; a++) if (hidden.has(areas[a])) show = 0;
        shown[i] = show;
      }
      schedule();
    }
    function visible(i) { return shown[i] === 1; }

    function radius() { return Math.min(7, baseRadius * Math.sqrt(k)); }

    // Keep some of the map in view: it may move at most half the frame past an edge.
    function clampView() {
      var size = inner();
      var slackX = size[0] / 2, slackY = size[1] / 2;
      tx = Math.min(slackX, Math.max(size[0] * (1 - k) - slackX, tx));
      ty = Math.min(slackY, Math.max(size[1] * (1 - k) - slackY, ty));
    }

    function zoomAt(factor, sx, sy) {
      var next = Math.min(MAX_ZOOM, Math.max(1, k * factor));
      tx = sx - PAD - (sx - PAD - tx) * (next / k);
      ty = sy - PAD - (sy - PAD - ty) * (next / k);
      k = next;
      clampView();
      schedule();
    }

    function panBy(dx, dy) {
      tx += dx;
      ty += dy;
      clampView();
      schedule();
    }

    function centreOn(i, zoom) {
      var size = inner();
      k = Math.max(k, zoom || 1);
      tx = width / 2 - PAD - xs[i] * size[0] * k;
      ty = height / 2 - PAD - (1 - ys[i]) * size[1] * k;
      clampView();
      draw();
    }

    function resize() {
      var old = inner();
      width = frame.clientWidth;
      height = Math.max(320, Math.min(720, Math.round(width * 0.7)));
      var ratio = window.devicePixelRatio || 1;
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      canvas.style.width = width + "px";
      canvas.style.height = height + "px";
      var size = inner();
      if (old[0] > 0) { tx *= size[0] / old[0]; ty *= size[1] / old[1]; }
      draw();
    }

    var pending = false;
    function schedule() {
      if (pending) return;
      pending = true;
      requestAnimationFrame(function () { pending = false; draw(); });
    }

    function dots(context, list, r, only) {
      var size = inner();
      var sx = size[0] * k, sy = size[1] * k, d = 2 * r;
      var square = r <= 2.5;
      context.beginPath();
      for (var j = 0; j < list.length; j++) {
        var i = list[j];
        if (only && !only[i]) continue;
        var x = PAD + xs[i] * sx + tx, y = PAD + (1 - ys[i]) * sy + ty;
        if (x < -d || y < -d || x > width + d || y > height + d || !shown[i]) continue;
        // Small dots as squares: a path of 20,000 rectangles fills several times faster than of arcs.
        if (square) context.rect(x - r, y - r, d, d);
        else { context.moveTo(x + r, y); context.arc(x, y, r, 0, 2 * Math.PI); }
      }
    }

    function draw() {
      var started = performance.now();
      var ratio = window.devicePixelRatio || 1;
      var context = canvas.getContext("2d");
      context.setTransform(ratio, 0, 0, ratio, 0, 0);
      context.clearRect(0, 0, width, height);
      var r = radius();
      // One path per colour: far fewer state changes than one per point.
      context.globalAlpha = matches ? 0.18 : 0.8;
      byColour.forEach(function (list, index) {
        if (index < data.areas.length && hidden.has(index)) return;
        context.fillStyle = index < data.areas.length ? data.areas[index].color : "#888888";
        dots(context, list, r, null);
        context.fill();
      });
      var fg = ink();
      if (matches) {
        context.globalAlpha = 1;
        var big = r + 1.5;
        byColour.forEach(function (list, index) {
          context.fillStyle = index < data.areas.length ? data.areas[index].color : "#888888";
          dots(context, list, big, matches);
          context.fill();
          context.lineWidth = 1;
          context.strokeStyle = fg;
          context.stroke();
        });
      }
      if (focused >= 0) {
        var at = screen(focused);
        context.globalAlpha = 1;
        context.lineWidth = 2;
        context.strokeStyle = fg;
        context.beginPath();
        context.arc(at[0], at[1], r + 5, 0, 2 * Math.PI);
        context.stroke();
      }
      labels(context);
      frames.push(performance.now() - started);
      if (frames.length > 600) frames.shift();
    }

    function ink() {
      return getComputedStyle(root).getPropertyValue("--md-default-fg-color").trim() || "#000";
    }

    var placed = [];
    // The largest topics first; a label that would overlap one already drawn waits for more zoom.
    function labels(context) {
      placed = [];
      var style = getComputedStyle(root);
      var fg = style.getPropertyValue("--md-default-fg-color").trim() || "#222";
      var bg = style.getPropertyValue("--md-default-bg-color").trim() || "#fff";
      context.globalAlpha = 1;
      context.font = LABEL_FONT;
      context.textAlign = "center";
      context.textBaseline = "middle";
      context.lineJoin = "round";
      data.labels.forEach(function (label) {
        var size = inner();
        var x = PAD + label.x * size[0] * k + tx, y = PAD + (1 - label.y) * size[1] * k + ty;
        var text = data.topics[label.topic].name;
        if (x < 0 || y < 0 || x > width || y > height) return;
        var half = context.measureText(text).width / 2 + 3;
        // A label near an edge moves inside, beside its place.
        x = Math.min(width - half, Math.max(half, x));
        y = Math.min(height - 9, Math.max(9, y));
        var box = [x - half, y - 9, x + half, y + 9];
        for (var b = 0; b < placed.length; b++) {
          var o = placed[b].box;
          if (box[0] < o[2] && o[0] < box[2] && box[1] < o[3] && o[1] < box[3]) return;
        }
        placed.push({ topic: label.topic, text: text, box: box });
        context.lineWidth = 4;
        context.strokeStyle = bg;
        context.strokeText(text, x, y);
        context.fillStyle = fg;
        context.fillText(text, x, y);
      });
    }

    function nearest(sx, sy) {
      var r = radius() + 4;
      var size = inner();
      var u = unit(sx, sy);
      var reach = Math.ceil(r / (size[0] * k) * GRID) + 1;
      var cx = cellOf(u[0]), cy = cellOf(u[1]);
      var best = -1, distance = r * r;
      for (var dx = -reach; dx <= reach; dx++) {
        for (var dy = -reach; dy <= reach; dy++) {
          var list = grid.get((cx + dx) * GRID + (cy + dy));
          if (!list || cx + dx < 0 || cy + dy < 0 || cx + dx >= GRID || cy + dy >= GRID) continue;
          for (var j = 0; j < list.length; j++) {
            var i = list[j];
            if (!visible(i)) continue;
            var xy = screen(i);
            var d = (xy[0] - sx) * (xy[0] - sx) + (xy[1] - sy) * (xy[1] - sy);
            if (d <= distance) { distance = d; best = i; }
          }
        }
      }
      return best;
    }

    function local(event) {
      var box = canvas.getBoundingClientRect();
      return [event.clientX - box.left, event.clientY - box.top];
    }

    function showCard(i, withLink) {
      var p = points[i];
      var xy = screen(i);
      var title = withLink ? element("a", "pd-map__title", p.title) : element("strong", "pd-map__title", p.title);
      if (withLink) title.href = new URL(p.url, base).href;
      var areas = element("span", "pd-map__areas");
      p.areas.forEach(function (a) {
        var swatch = element("span", "pd-map__swatch");
        swatch.style.background = data.areas[a].color;
        areas.append(swatch, data.areas[a].name + " ");
      });
      var topics = element("span", "pd-map__topics", p.topics.map(function (t) { return data.topics[t].name; }).join(" · "));
      card.replaceChildren(title, areas, topics);
      card.classList.toggle("pd-map__tip--open", !!withLink);
      card.hidden = false;
      var left = Math.max(0, Math.min(xy[0] + 10, width - card.offsetWidth - 4));
      var top = xy[1] + 12 + card.offsetHeight > height ? xy[1] - card.offsetHeight - 10 : xy[1] + 12;
      card.style.left = left + "px";
      card.style.top = Math.max(0, top) + "px";
    }

    // Pointers: one drags the map, two pinch; a short press without movement is a click or tap.
    var pointers = new Map();
    var pressed = null;
    canvas.addEventListener("pointerdown", function (event) {
      try { canvas.setPointerCapture(event.pointerId); } catch (err) { /* a synthetic pointer: nothing to capture */ }
      pointers.set(event.pointerId, local(event));
      pressed = pointers.size === 1 ? { at: local(event), moved: false, type: event.pointerType } : null;
    });
    canvas.addEventListener("pointermove", function (event) {
      var now = local(event);
      var before = pointers.get(event.pointerId);
      if (!before) {
        if (event.pointerType === "mouse") hover(now);
        return;
      }
      if (pointers.size === 2) {
        var other = null;
        pointers.forEach(function (xy, id) { if (id !== event.pointerId) other = xy; });
        var was = Math.hypot(before[0] - other[0], before[1] - other[1]);
        var is = Math.hypot(now[0] - other[0], now[1] - other[1]);
        if (was > 0) zoomAt(is / was, (now[0] + other[0]) / 2, (now[1] + other[1]) / 2);
        panBy((now[0] - before[0]) / 2, (now[1] - before[1]) / 2);
      } else {
        if (pressed && Math.hypot(now[0] - pressed.at[0], now[1] - pressed.at[1]) > 4) pressed.moved = true;
        if (!pressed || pressed.moved) {
          card.hidden = true;
          panBy(now[0] - before[0], now[1] - before[1]);
        }
      }
      pointers.set(event.pointerId, now);
    });
    function release(event) {
      pointers.delete(event.pointerId);
      if (event.type === "pointerup" && pressed && !pressed.moved) {
        var xy = local(event);
        var i = nearest(xy[0], xy[1]);
        if (i >= 0 && pressed.type === "mouse") location.href = new URL(points[i].url, base).href;
        else if (i >= 0) { focused = i; showCard(i, true); schedule(); }
        else card.hidden = true;
      }
      pressed = null;
    }
    canvas.addEventListener("pointerup", release);
    canvas.addEventListener("pointercancel", release);

    function hover(xy) {
      var i = nearest(xy[0], xy[1]);
      canvas.style.cursor = i < 0 ? "grab" : "pointer";
      if (i < 0) { if (!card.classList.contains("pd-map__tip--open")) card.hidden = true; return; }
      showCard(i, false);
    }
    canvas.addEventListener("mouseleave", function () {
      if (!card.classList.contains("pd-map__tip--open")) card.hidden = true;
    });
    canvas.addEventListener("wheel", function (event) {
      event.preventDefault();
      var xy = local(event);
      zoomAt(Math.exp(-event.deltaY * (event.deltaMode === 1 ? 0.05 : 0.002)), xy[0], xy[1]);
    }, { passive: false });
    canvas.addEventListener("keydown", function (event) {
      var step = 60;
      var moves = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
      if (event.key === "+" || event.key === "=") zoomAt(1.5, width / 2, height / 2);
      else if (event.key === "-") zoomAt(1 / 1.5, width / 2, height / 2);
      else if (event.key === "0") fit();
      else if (moves[event.key]) panBy(moves[event.key][0], moves[event.key][1]);
      else return;
      event.preventDefault();
    });
    zoomIn.addEventListener("click", function () { zoomAt(1.5, width / 2, height / 2); });
    zoomOut.addEventListener("click", function () { zoomAt(1 / 1.5, width / 2, height / 2); });
    function fit() { k = 1; tx = 0; ty = 0; schedule(); }
    reset.addEventListener("click", fit);

    // Find: every word typed must start a word of the title or of a topic's name.
    var typing = 0;
    function search() {
      var query = find.value.trim().toLowerCase();
      cycle = -1;
      if (query.length < 2) {
        matches = null;
        matchList = [];
        status.textContent = "";
        found.replaceChildren();
        found.hidden = true;
        schedule();
        return;
      }
      var patterns = query.split(/\s+/).map(function (word) {
        return new RegExp("(^|[^a-z0-9])" + word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
      });
      matches = new Uint8Array(total);
      matchList = [];
      for (var i = 0; i < total; i++) {
        var text = words[i];
        if (patterns.every(function (pattern) { return pattern.test(text); })) { matches[i] = 1; matchList.push(i); }
      }
      status.textContent = matchList.length
        ? plural(matchList.length, "paper") + " match; Enter or a title below centres the map on one"
        : "No paper matches";
      found.hidden = !matchList.length || document.activeElement !== find;
      found.replaceChildren.apply(found, matchList.slice(0, 8).map(function (i) {
        var item = element("li");
        var button = element("button", "pd-map__hit", points[i].title);
        button.type = "button";
        button.addEventListener("click", function () { pick(i); });
        item.appendChild(button);
        return item;
      }));
      schedule();
    }
    function pick(i) {
      found.hidden = true;
      focused = i;
      centreOn(i, 6);
      showCard(i, true);
    }
    find.addEventListener("input", function () {
      clearTimeout(typing);
      typing = setTimeout(search, total > 5000 ? 120 : 30);
    });
    function reopen() { found.hidden = !matchList.length; }
    find.addEventListener("focus", reopen);
    find.addEventListener("click", reopen);
    // Leaving the box closes the drop-down, unless the reader is picking a title from it.
    find.addEventListener("blur", function (event) {
      if (!found.contains(event.relatedTarget)) found.hidden = true;
    });
    find.addEventListener("keydown", function (event) {
      if (event.key === "Escape") { found.hidden = true; return; }
      if (event.key !== "Enter") return;
      event.preventDefault();
      clearTimeout(typing);
      search();
      if (!matchList.length) return;
      cycle = (cycle + 1) % matchList.length;  // Enter again: the next match
      pick(matchList[cycle]);
    });

    window.addEventListener("resize", resize);
    resize();
    // For tests, the bench and the curious: where a paper is drawn, the view, the draw times.
    window.pdMap = {
      screenPoint: screen,
      visibleCount: function () { var c = 0; for (var i = 0; i < total; i++) if (visible(i)) c++; return c; },
      view: function () { return { zoom: k, x: tx, y: ty, width: width, height: height }; },
      matches: function () { return matchList.length; },
      focused: function () { return focused; },
      labels: function () { return placed.map(function (p) { return { topic: p.topic, text: p.text, box: p.box }; }); },
      frameTimes: function () { return frames.slice(); },
      panBy: panBy,
      zoomAt: zoomAt,
    };
  }

  window.pdSite.mount("[data-pd-map]", "map.json", build);
})();
