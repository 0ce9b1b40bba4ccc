"""harness_ui.charts: lesson 04's plot drawn as SVG where there is no matplotlib (the browser-tab edition).

The drawing is read back from the SVG: each scenario's line goes through its points in order (higher values higher
up, the same x for the same request in both charts), the running total adds up the four usage counters, the budget
is a dashed line at its height, the legend names every line, and the words are escaped.
"""

import re

from harness_ui.charts import line_chart, token_charts

COUNTERS = ("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")


def polylines(svg: str) -> list[list[tuple[float, float]]]:
    return [[tuple(map(float, p.split(","))) for p in points.split()]
            for points in re.findall(r'<polyline points="([^"]+)"', svg)]


def test_each_line_goes_through_its_points_in_order():
    svg = line_chart("t", {"a": [10, 30, 20], "b": [5, 5, 5]}, xlabel="request", ylabel="tokens")
    a, b = polylines(svg)
    assert [x for x, _ in a] == [x for x, _ in b] and a[0][0] < a[1][0] < a[2][0]
    ys = [y for _, y in a]  # SVG's y grows downwards
    assert ys[1] < ys[2] < ys[0]
    assert len(set(y for _, y in b)) == 1 and b[0][1] > ys[0]
    assert svg.count("<circle") == 6


def test_the_running_total_adds_the_four_counters_and_the_budget_is_dashed():
    usages = {"hog": [{"input_tokens": 100, "output_tokens": 10, "cache_creation_input_tokens": None,
                       "cache_read_input_tokens": 5}] * 3}
    charts = token_charts(usages, COUNTERS, titles=("each", "so far"), xlabel="request", ylabel="tokens",
                          budget=300, budget_label="a budget")
    each, so_far = charts.svg
    assert "each" in each and "so far" in so_far and "a budget" in so_far and "a budget" not in each
    (per_request,), (running,) = polylines(each), polylines(so_far)
    assert len({y for _, y in per_request}) == 1  # 100 every time
    budget_y = float(re.search(r'<line x1="[\d.]+" y1="([\d.]+)"[^>]*stroke="grey" stroke-dasharray', so_far)[1])
    # 115, 230, 345: the third point is above the 300 budget, the second below it
    assert running[2][1] < budget_y < running[1][1]
    assert "<svg" in charts._repr_html_() and charts._repr_html_().count("<svg") == 2


def test_words_are_escaped():
    svg = line_chart("<b>t</b>", {"<script>": [1]}, xlabel="x & y", ylabel="z")
    assert "<script>" not in svg and "&lt;script&gt;" in svg and "x &amp; y" in svg and "<b>" not in svg
