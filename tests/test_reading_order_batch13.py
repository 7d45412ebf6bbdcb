"""Rules found on batch 13 (unseen pages: Neural Computation, NIPS, APS, IOP, Nature, ...).

- MIT Press's *Neural Computation* opens a paragraph with "Let S = {w ∈ R^n} be ...": the
  line breaks into a piece of text, a piece in a math font and the rest of the paragraph,
  whose boxes overlap and whose tops differ by a point with their fonts' heights. Ordered
  by top, "Let S" was read after its paragraph. Blocks whose first lines stand level are
  read left to right.

The pages are made with PyMuPDF in tmp_path.
"""

from __future__ import annotations

from basehalf_core.documents.reading_order import Block, order_blocks

VOCABULARY = (
    "we show that dynamical systems with spatial degrees of freedom naturally evolve into a "
    "critical point and flicker noise can be identified with the dynamics of the critical "
    "state while this picture also yields insight into the origin of fractal objects"
)
WORDS = VOCABULARY.split()


def _block(n: int, box, first=None, lines: int = 1) -> Block:
    return Block(
        id=n,
        bbox=box,
        direction=(1.0, 0.0),
        size=9.5,
        chars=40 * lines,
        lines=lines,
        style="Palatino@9.5",
        first_line=first or box,
    )


def test_a_paragraph_whose_first_line_breaks_at_inline_math_is_read_from_its_start():
    # Boxes as MuPDF gives them for Neural Computation's "Let S = {w ∈ R^n} be a parameter
    # space ...": the rest of the paragraph starts a point higher than "Let S".
    heading = _block(0, (133.0, 456.5, 217.0, 466.0))
    let_s = _block(1, (133.4, 479.3, 153.8, 488.9))
    math = _block(2, (156.4, 477.0, 206.3, 495.3))
    rest = _block(3, (133.4, 478.6, 444.2, 511.8), first=(208.0, 478.6, 444.2, 488.9), lines=3)
    order = [b for b, _role in order_blocks([heading, rest, math, let_s], 792.0)]
    assert order == [0, 1, 2, 3]


def test_blocks_one_above_the_other_keep_their_order():
    upper = _block(0, (133.0, 100.0, 444.0, 140.0), first=(200.0, 100.0, 444.0, 110.0), lines=4)
    lower = _block(1, (133.0, 150.0, 300.0, 160.0))
    order = [b for b, _role in order_blocks([lower, upper], 792.0)]
    assert order == [0, 1]
