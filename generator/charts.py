"""Bar charts drawn at build time as inline SVG: no script, both colour schemes.

Colours come from Material's CSS variables (see assets/digest.css), so a chart
follows the reader's light or dark scheme.
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
            f'<a href="{escape(link)}"><text class="pd-chart__label" x="{_LABEL - 8}" y="{y + 15}" '
            f'text-anchor="end">{escape(shown)}</text>'
            f'<rect class="pd-chart__bar" x="{_LABEL}" y="{y + 3}" width="{length}" height="{_ROW - 6}" rx="3">'
            f"<title>{escape(label)}: {value}</title></rect>"
            f'<text class="pd-chart__value" x="{_LABEL + length + 6}" y="{y + 15}">{value}</text></a>'
        )
    parts.append("</svg>")
    return "".join(parts)
