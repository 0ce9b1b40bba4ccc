"""Lesson 04's two token charts drawn as SVG, for where matplotlib is not installed (the course in a browser tab).

    display(token_charts(usage_by_scenario, USAGE_COUNTERS, titles=(LEFT, RIGHT), xlabel="request",
                         ylabel="tokens", budget=40_000, budget_label="a 40,000-token budget"))

The same picture as the lesson's matplotlib cell, from the same numbers: on the left the input tokens of each
request, on the right the tokens used so far (the four usage counters added up, as the lesson's `tokens_of`), one
line with round markers per scenario, the budget as a dashed grey line. The result shows itself in a notebook
(`_repr_html_`) and is plain SVG inside (``.svg``), so a test can read it.

NOT handled: anything but line charts of positive numbers against 1, 2, 3, ...; more than ten scenarios (the
colours repeat); matplotlib's styles, zoom or export. On the desktop the lesson draws with matplotlib, not this.
"""

from __future__ import annotations

import html
import math

__all__ = ["token_charts", "line_chart"]

# matplotlib's default colour cycle ("tab10"), so the two drawings match
COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
           "#17becf")
WIDTH, HEIGHT = 520, 330
LEFT, RIGHT, TOP, BOTTOM = 70, 15, 35, 50  # the margins around the plot area


def _nice_ticks(top: float, count: int = 5) -> list[float]:
    """Round tick values from 0 to at least `top` (steps of 1, 2 or 5 times a power of ten)."""
    raw = max(top, 1) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    return [i * step for i in range(int(math.ceil(top / step)) + 1)]


def _text(x: float, y: float, words: str, **attributes) -> str:
    extra = "".join(f' {name.replace("_", "-")}="{value}"' for name, value in attributes.items())
    return f'<text x="{x:.1f}" y="{y:.1f}"{extra}>{html.escape(words)}</text>'


def line_chart(title: str, series: dict[str, list[float]], *, xlabel: str, ylabel: str,
               hline: tuple[float, str] | None = None) -> str:
    """One chart as an SVG element: a line with markers per series (x = 1, 2, ...), an optional dashed line."""
    longest = max((len(v) for v in series.values()), default=1)
    top = max([max(v, default=0) for v in series.values()] + [hline[0] if hline else 0])
    yticks = _nice_ticks(top)
    xstep = max(1, math.ceil(longest / 10))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x_at(i: float) -> float:
        return LEFT + (i - 0.5) / max(longest, 1) * plot_w

    def y_at(v: float) -> float:
        return TOP + plot_h - v / yticks[-1] * plot_h

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
             f'font-family="sans-serif" font-size="11" role="img" aria-label="{html.escape(title)}">',
             '<rect width="100%" height="100%" fill="white"/>',
             _text(WIDTH / 2, 20, title, text_anchor="middle", font_size="13"),
             f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="black"/>']
    for value in yticks:
        parts.append(_text(LEFT - 6, y_at(value) + 4, f"{value:.0f}", text_anchor="end"))
    for i in range(1, longest + 1, xstep):
        parts.append(_text(x_at(i), TOP + plot_h + 16, str(i), text_anchor="middle"))
    parts.append(_text(LEFT + plot_w / 2, HEIGHT - 12, xlabel, text_anchor="middle"))
    parts.append(_text(16, TOP + plot_h / 2, ylabel, text_anchor="middle",
                       transform=f"rotate(-90 16 {TOP + plot_h / 2:.1f})"))
    legend = []
    for n, (label, values) in enumerate(series.items()):
        colour = COLOURS[n % len(COLOURS)]
        points = " ".join(f"{x_at(i):.1f},{y_at(v):.1f}" for i, v in enumerate(values, start=1))
        parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="1.5"/>')
        parts += [f'<circle cx="{x_at(i):.1f}" cy="{y_at(v):.1f}" r="3" fill="{colour}"/>'
                  for i, v in enumerate(values, start=1)]
        legend.append((label, colour, ""))
    if hline:
        y = y_at(hline[0])
        parts.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}" stroke="grey" '
                     'stroke-dasharray="6 4"/>')
        legend.append((hline[1], "grey", ' stroke-dasharray="6 4"'))
    for n, (label, colour, dash) in enumerate(legend):
        y = TOP + 14 + 16 * n
        parts.append(f'<line x1="{LEFT + 8}" y1="{y - 4}" x2="{LEFT + 30}" y2="{y - 4}" stroke="{colour}" '
                     f'stroke-width="1.5"{dash}/>')
        parts.append(_text(LEFT + 36, y, label))
    return "\n".join(parts + ["</svg>"])


class Charts:
    """SVG charts side by side; a notebook shows them (``_repr_html_``), ``.svg`` is the list of SVG texts."""

    def __init__(self, svg: list[str]):
        self.svg = svg

    def _repr_html_(self) -> str:
        return '<div style="display: flex; flex-wrap: wrap; gap: 8px">' + "".join(self.svg) + "</div>"


def token_charts(usage_by_scenario: dict[str, list[dict]], counters, *, titles: tuple[str, str], xlabel: str,
                 ylabel: str, budget: float, budget_label: str) -> Charts:
    """Lesson 04's picture: per scenario, the input tokens of each request and the running total of `counters`."""
    per_request, so_far = {}, {}
    for scenario, usages in usage_by_scenario.items():
        per_request[scenario] = [u["input_tokens"] for u in usages]
        total, so_far[scenario] = 0, []
        for u in usages:
            total += sum(u.get(name) or 0 for name in counters)
            so_far[scenario].append(total)
    return Charts([line_chart(titles[0], per_request, xlabel=xlabel, ylabel=ylabel),
                   line_chart(titles[1], so_far, xlabel=xlabel, ylabel=ylabel, hline=(budget, budget_label))])
