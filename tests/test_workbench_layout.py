"""The grid layout file places workbench.py's cells by their order: the two must agree."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PANES = {"canvas_pane", "card_detail", "agent"}


def placed_cells() -> tuple[dict, dict[str, list[int] | None]]:
    """The layout file's data and each workbench cell's position, by cell name."""
    source = (ROOT / "workbench.py").read_text(encoding="utf-8")
    layout_file = re.search(r'layout_file="([^"]+)"', source).group(1)
    layout = json.loads((ROOT / layout_file).read_text(encoding="utf-8"))["data"]
    names = re.findall(r"@app.cell\ndef (\w+)\(", source)
    assert len(names) == len(layout["cells"]), "add the new cell's entry to the layout file"
    return layout, {n: c["position"] for n, c in zip(names, layout["cells"], strict=True)}


def test_every_cell_has_its_place_and_the_panes_sit_side_by_side():
    layout, placed = placed_cells()
    panes = sorted((placed[n] for n in PANES), key=lambda p: p[0])
    for (x, y, w, _h), (x2, y2, _w2, _h2) in itertools.pairwise(panes):
        assert x + w <= x2 and y == y2  # left to right, same top row
    assert panes[-1][0] + panes[-1][2] <= layout["columns"]


def test_the_reader_sits_under_card_detail_and_the_pane_heights_match():
    """Card Detail's head over the reader fill the middle column; the panes' pixel heights
    (basehalf_widgets.panes) are the rows the layout gives them."""
    from basehalf_widgets import panes

    layout, placed = placed_cells()
    assert layout["rowHeight"] == panes.ROW
    x, y, w, h = placed["card_detail"]
    assert h == panes.HEAD_ROWS
    assert placed["reader"] == [x, y + h, w, panes.READER_ROWS]
    assert placed["canvas_pane"][3] == panes.PANE_ROWS == h + panes.READER_ROWS
    assert placed["reader_sync"] is None  # wiring only: no output
