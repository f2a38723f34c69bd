"""The race chart: pieces over time, drawn on the server as SVG."""

import re

from scoring.charts import LEFT, RIGHT, W, race_chart


def body(end_seconds: int) -> dict:
    return {
        "duration_seconds": 10800,
        "end_seconds": end_seconds,
        "puzzles": [
            {"position": 1, "title": "", "pieces": 500},
            {"position": 2, "title": "", "pieces": 1000},
        ],
        "standings": [
            {
                "rank": 1,
                "team": {"id": 7, "name": "Kantsøgerne <b>", "table": 3},
                "finishes": [{"puzzle": 1, "elapsed_seconds": 2700, "deducted": 1}],
                "counted": 400,
            },
            {
                "rank": 2,
                "team": {"id": 8, "name": "Brikkebanden", "table": 4},
                "finishes": [],
                "counted": 0,
            },
        ],
    }


def x_of(seconds: int) -> float:
    return LEFT + (W - LEFT - RIGHT) * seconds / 10800


def dashed_x2(svg: str) -> float:
    return float(re.search(r'x2="([\d.]+)"[^>]*stroke-dasharray', svg).group(1))


def test_the_count_is_drawn_to_the_end_of_the_clock_even_when_stopped_early():
    stopped_early = str(race_chart(body(end_seconds=5400)))
    assert abs(dashed_x2(stopped_early) - x_of(5400)) < 0.2  # not at 3:00:00, the planned end
    full_time = str(race_chart(body(end_seconds=10800)))
    assert abs(dashed_x2(full_time) - x_of(10800)) < 0.2


def test_only_teams_with_a_finish_get_a_line_and_names_are_escaped():
    svg = str(race_chart(body(end_seconds=10800)))
    assert svg.count("<polyline") == 1
    assert "Kantsøgerne &lt;b&gt;" in svg
    assert "<b>" not in svg.split("</svg>")[0].split("<title>")[1]


def test_nothing_is_drawn_before_the_first_finish():
    empty = body(10800)
    empty["standings"][0]["finishes"] = []
    assert str(race_chart(empty)) == ""
