// The topic map: every paper as a point on a canvas, coloured by area.
// Drawing is one pass over the points; hover uses a grid of buckets, so
// 20,000 points stay smooth. Titles are shown with textContent only.
(function () {
  var PAD = 12;

  function build(root, data, base) {
    var legend = document.createElement("div");
    legend.className = "pd-map__legend";
    var frame = document.createElement("div");
    frame.className = "pd-map__frame";
    var canvas = document.createElement("canvas");
    canvas.setAttribute("role", "img");
    canvas.setAttribute("aria-label", "Map of " + data.points.length + " papers coloured by research area");
    var tip = document.createElement("div");
    tip.className = "pd-map__tip";
    tip.hidden = true;
    frame.append(canvas, tip);
    root.replaceChildren(legend, frame);

    var hidden = new Set();
    var radius = data.points.length > 5000 ? 2 : data.points.length > 1000 ? 3 : 5;
    var width = 0, height = 0, grid = null, cell = 24;
    // The points of each area (the last list: papers with no area), built once.
    var byArea = data.areas.map(function () { return []; }).concat([[]]);
    data.points.forEach(function (p, i) { byArea[p.area < 0 ? data.areas.length : p.area].push(i); });

    data.areas.forEach(function (area, index) {
      if (!area.count) return;  // an area with no paper here needs no switch
      var button = document.createElement("button");
      button.type = "button";
      button.className = "pd-map__area";
      button.setAttribute("aria-pressed", "true");
      var swatch = document.createElement("span");
      swatch.className = "pd-map__swatch";
      swatch.style.background = area.color;
      button.append(swatch, area.name + " (" + area.count + ")");
      button.addEventListener("click", function () {
        if (hidden.has(index)) hidden.delete(index); else hidden.add(index);
        button.setAttribute("aria-pressed", hidden.has(index) ? "false" : "true");
        draw();
      });
      legend.appendChild(button);
    });

    function screen(i) {
      var p = data.points[i];
      return [PAD + p.x * (width - 2 * PAD), PAD + (1 - p.y) * (height - 2 * PAD)];
    }

    function visible(i) {
      return !hidden.has(data.points[i].area);
    }

    function draw() {
      width = frame.clientWidth;
      height = Math.max(320, Math.min(720, Math.round(width * 0.7)));
      var ratio = window.devicePixelRatio || 1;
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      canvas.style.width = width + "px";
      canvas.style.height = height + "px";
      var context = canvas.getContext("2d");
      context.setTransform(ratio, 0, 0, ratio, 0, 0);
      context.clearRect(0, 0, width, height);
      context.globalAlpha = 0.8;
      grid = new Map();
      // One path per colour: far fewer state changes than one per point.
      data.areas.concat([{ color: "#888888" }]).forEach(function (area, areaIndex) {
        var index = areaIndex === data.areas.length ? -1 : areaIndex;
        if (hidden.has(index)) return;
        context.fillStyle = area.color;
        context.beginPath();
        byArea[areaIndex].forEach(function (i) {
          var xy = screen(i);
          context.moveTo(xy[0] + radius, xy[1]);
          context.arc(xy[0], xy[1], radius, 0, 2 * Math.PI);
          var key = Math.floor(xy[0] / cell) + ":" + Math.floor(xy[1] / cell);
          if (!grid.has(key)) grid.set(key, []);
          grid.get(key).push(i);
        });
        context.fill();
      });
    }

    function nearest(x, y) {
      var best = -1, distance = (radius + 4) * (radius + 4);
      var cx = Math.floor(x / cell), cy = Math.floor(y / cell);
      for (var dx = -1; dx <= 1; dx++) {
        for (var dy = -1; dy <= 1; dy++) {
          (grid.get((cx + dx) + ":" + (cy + dy)) || []).forEach(function (i) {
            if (!visible(i)) return;
            var xy = screen(i);
            var d = (xy[0] - x) * (xy[0] - x) + (xy[1] - y) * (xy[1] - y);
            if (d <= distance) { distance = d; best = i; }
          });
        }
      }
      return best;
    }

    function at(event) {
      var box = canvas.getBoundingClientRect();
      return nearest(event.clientX - box.left, event.clientY - box.top);
    }

    canvas.addEventListener("mousemove", function (event) {
      var i = at(event);
      if (i < 0) {
        tip.hidden = true;
        canvas.style.cursor = "default";
        return;
      }
      var xy = screen(i);
      tip.textContent = data.points[i].title;
      tip.style.left = Math.min(xy[0] + 10, width - 260) + "px";
      tip.style.top = xy[1] + 10 + "px";
      tip.hidden = false;
      canvas.style.cursor = "pointer";
    });
    canvas.addEventListener("mouseleave", function () { tip.hidden = true; });
    canvas.addEventListener("click", function (event) {
      var i = at(event);
      if (i >= 0) location.href = new URL(data.points[i].url, base).href;
    });
    window.addEventListener("resize", draw);
    draw();
    // For tests and the curious: where a paper is drawn, and how many points are shown.
    window.pdMap = {
      screenPoint: screen,
      visibleCount: function () { return data.points.filter(function (p, i) { return visible(i); }).length; },
    };
  }

  window.pdSite.mount("[data-pd-map]", "map.json", build);
})();
