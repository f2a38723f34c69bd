"""The race chart: pieces over time for the leading teams, drawn on the server as SVG."""

from django.utils.formats import number_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from puzzle_rules.formatting import format_hms

# The legend's swatches repeat these as classes .s0-.s6 in static/css/public.css.
COLOURS = ("#1f5f8b", "#c0392b", "#1e7b3c", "#b26a00", "#6c3483", "#117a65", "#7f8c8d")
W, H = 720, 300
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 16, 36


def _nice_step(top: int, ticks: int = 5) -> int:
    raw = max(1, top / ticks)
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000):
        if step >= raw:
            return step
    return int(raw)


def race_chart(body: dict, *, top: int = 5, team_id: int | None = None) -> SafeString:
    """SVG of cumulative pieces against the competition clock for the `top` ranked teams,
    and `team_id` too when given (drawn thicker). Empty when nobody has finished a puzzle."""
    rows = [r for r in body["standings"] if r["rank"] is not None][:top]
    if team_id is not None and all(r["team"]["id"] != team_id for r in rows):
        rows += [r for r in body["standings"] if r["team"]["id"] == team_id]
    pieces = {p["position"]: p["pieces"] for p in body["puzzles"]}
    lines = []
    for r in rows:
        points, total = [(0, 0)], 0
        for f in r["finishes"]:
            points.append((f["elapsed_seconds"], total))
            total += pieces.get(f["puzzle"], 0) - f["deducted"]
            points.append((f["elapsed_seconds"], total))
        if len(points) > 1:
            lines.append((r, points, r["counted"] or 0))
    if not lines:
        return mark_safe("")
    duration = body.get("duration_seconds") or max(p[-1][0] for _r, p, _c in lines) or 1
    end = min(body.get("end_seconds") or duration, duration)  # stopped early: counts end there
    y_top = max(p[-1][1] + c for _r, p, c in lines) or 1
    step = _nice_step(y_top)
    y_max = ((y_top + step - 1) // step) * step

    def x(seconds: float) -> float:
        return LEFT + (W - LEFT - RIGHT) * min(seconds, duration) / duration

    def y(value: float) -> float:
        return H - BOTTOM - (H - TOP - BOTTOM) * value / y_max

    label = _("Pieces over time")
    out = [
        f'<svg class="race-chart" viewBox="0 0 {W} {H}" role="img" '
        f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">'
    ]
    for value in range(0, y_max + 1, step):
        out.append(
            f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{y(value):.1f}" y2="{y(value):.1f}" '
            f'class="grid"/><text x="{LEFT - 6}" y="{y(value) + 4:.1f}" text-anchor="end">'
            f"{number_format(value, force_grouping=True)}</text>"
        )
    tick = 1800 if duration > 3600 else 600
    for seconds in range(0, duration + 1, tick):
        out.append(
            f'<text x="{x(seconds):.1f}" y="{H - BOTTOM + 20}" text-anchor="middle">'
            f"{format_hms(seconds)[:-3]}</text>"
        )
    for index, (r, points, counted) in enumerate(lines):
        colour = COLOURS[index % len(COLOURS)]
        width = 4 if r["team"]["id"] == team_id else 2.5
        path = " ".join(f"{x(s):.1f},{y(v):.1f}" for s, v in points)
        name = escape(r["team"]["name"])
        out.append(
            f'<polyline points="{path}" fill="none" stroke="{colour}" '
            f'stroke-width="{width}"><title>{name}</title></polyline>'
        )
        last_s, last_v = points[-1]
        if counted:
            out.append(
                f'<line x1="{x(last_s):.1f}" y1="{y(last_v):.1f}" x2="{x(end):.1f}" '
                f'y2="{y(last_v + counted):.1f}" stroke="{colour}" stroke-width="{width}" '
                f'stroke-dasharray="6 4"/>'
            )
    out.append("</svg>")
    legend = "".join(
        f'<li><span class="swatch s{i % len(COLOURS)}"></span>{escape(r["team"]["name"])}</li>'
        for i, (r, _p, _c) in enumerate(lines)
    )
    return mark_safe(f'{"".join(out)}<ul class="chart-legend">{legend}</ul>')  # noqa: S308
