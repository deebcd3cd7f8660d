"""Companion module of the book *Why Sines? The Sinusoidal Position Encoding,
Derived and Checked*.

The maths lives in :mod:`posenc.core` (re-exported here), the figure style in
:mod:`posenc.plots`, and the sliders in :mod:`posenc.widgets`. Importing the
package has no side effects: no rcParams changes, no seeding, no printing.
"""

from .core import (
    LAYOUTS,
    cin,
    decay_integral,
    encoding,
    frequencies,
    inner_product,
    rotate,
    shift_matrix,
)

__all__ = [
    "LAYOUTS",
    "cin",
    "decay_integral",
    "encoding",
    "frequencies",
    "inner_product",
    "rotate",
    "shift_matrix",
]
__version__ = "0.1.0"
