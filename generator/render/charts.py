"""Bar charts drawn at build time as inline SVG: no script, both colour schemes.

Colours come from Material's CSS variables (see assets/digest.css), so a chart
follows the reader's light or dark scheme. A bar's link is `xlink:href`, not
`href`: Material's instant navigation and Zensical's script reassign the `href`
of every element that has one, and an SVG link's `href` cannot be assigned (a
console error on every page with a chart).
"""

from __future__ import annotations

from html import escape

_ROW = 22
_LABEL = 330
_BAR = 300


def bar_chart(rows: list[tuple[str, int, str]], title: str) -> str:
    """Return an SVG bar chart of (label, value, link) rows, largest value first."""
    if not rows:
        return ""
    top = max(value for _, value, _ in rows) or 1
    height = _ROW * len(rows) + 8
    width = _LABEL + _BAR + 60
    parts = [
        f'<svg class="pd-chart" role="img" aria-label="{escape(title)}" viewBox="0 0 {width} {height}" '
        f'width="100%" preserveAspectRatio="xMinYMin meet" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
    ]
    for index, (label, value, link) in enumerate(rows):
        y = 4 + index * _ROW
        length = max(2, round(_BAR * value / top))
        shown = label if len(label) <= 50 else label[:49] + "…"
        parts.append(
            f'<a xlink:href="{escape(link)}"><text class="pd-chart__label" x="{_LABEL - 8}" y="{y + 15}" '
            f'text-anchor="end">{escape(shown)}</text>'
            f'<rect class="pd-chart__bar" x="{_LABEL}" y="{y + 3}" width="{length}" height="{_ROW - 6}" rx="3">'
            f"<title>{escape(label)}: {value}</title></rect>"
            f'<text class="pd-chart__value" x="{_LABEL + length + 6}" y="{y + 15}">{value}</text></a>'
        )
    parts.append("</svg>")
    return "".join(parts)


def share_chart(rows: list[tuple[str, float, str, str]], title: str) -> str:
    """Return an SVG bar chart of (label, percent, detail, link) rows, in the given order.

    Bars are scaled to the largest percent; the detail ("12 of 976") is shown beside the percent.
    """
    if not rows:
        return ""
    top = max(percent for _, percent, _, _ in rows) or 1.0
    label_width, bar_width = 200, 300
    height = _ROW * len(rows) + 8
    width = label_width + bar_width + 170
    parts = [
        f'<svg class="pd-chart pd-chart--share" role="img" aria-label="{escape(title)}" '
        f'viewBox="0 0 {width} {height}" width="100%" preserveAspectRatio="xMinYMin meet" '
        f'xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
    ]
    for index, (label, percent, detail, link) in enumerate(rows):
        y = 4 + index * _ROW
        length = max(2, round(bar_width * percent / top))
        shown = label if len(label) <= 30 else label[:29] + "…"
        value = f"{percent:.1f}% ({detail})"
        parts.append(
            f'<a xlink:href="{escape(link)}"><text class="pd-chart__label" x="{label_width - 8}" y="{y + 15}" '
            f'text-anchor="end">{escape(shown)}</text>'
            f'<rect class="pd-chart__bar" x="{label_width}" y="{y + 3}" width="{length}" height="{_ROW - 6}" rx="3">'
            f"<title>{escape(label)}: {escape(value)}</title></rect>"
            f'<text class="pd-chart__value" x="{label_width + length + 6}" y="{y + 15}">{escape(value)}</text></a>'
        )
    parts.append("</svg>")
    return "".join(parts)


def change_chart(rows: list[tuple[str, float, str]], title: str) -> str:
    """Return an SVG chart of (label, change in points, link) rows: gains to the right, losses to the left."""
    if not rows:
        return ""
    top = max(abs(points) for _, points, _ in rows) or 1.0
    label_width, half = 330, 150
    middle = label_width + half
    height = _ROW * len(rows) + 8
    width = label_width + 2 * half + 70
    parts = [
        f'<svg class="pd-chart pd-chart--change" role="img" aria-label="{escape(title)}" '
        f'viewBox="0 0 {width} {height}" width="100%" preserveAspectRatio="xMinYMin meet" '
        f'xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
        f'<line class="pd-chart__axis" x1="{middle}" y1="0" x2="{middle}" y2="{height}"/>',
    ]
    for index, (label, points, link) in enumerate(rows):
        y = 4 + index * _ROW
        length = max(2, round(half * abs(points) / top))
        x = middle if points >= 0 else middle - length
        kind = "gain" if points >= 0 else "loss"
        value = f"{points:+.1f} pt"
        value_x = middle + length + 6 if points >= 0 else middle + 6
        shown = label if len(label) <= 50 else label[:49] + "…"
        parts.append(
            f'<a xlink:href="{escape(link)}"><text class="pd-chart__label" x="{label_width - 8}" y="{y + 15}" '
            f'text-anchor="end">{escape(shown)}</text>'
            f'<rect class="pd-chart__bar pd-chart__{kind}" x="{x}" y="{y + 3}" width="{length}" '
            f'height="{_ROW - 6}" rx="3"><title>{escape(label)}: {escape(value)}</title></rect>'
            f'<text class="pd-chart__value" x="{value_x}" y="{y + 15}">{escape(value)}</text></a>'
        )
    parts.append("</svg>")
    return "".join(parts)
