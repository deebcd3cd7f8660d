"""The player of the chapter "What trained models do with the encoding".

:class:`AttentionOffsetExplorer`: pick a variant, a layer and a head of the
trained models (seed 0) and see its mean attention weight at each offset on
the validation sample, against the same head at initialisation, uniform
causal attention, and the head fed the encoding alone (content removed).

Reached as ``posenc.widgets.AttentionOffsetExplorer``: ``posenc.widgets``
imports this module and lists the class in its ``EXPLORERS``, so the
website renders its 40 frames. It subclasses
:class:`posenc.explorer.Explorer`, which imports no explorer: no cycle.
"""

from __future__ import annotations

import functools

import numpy as np
from matplotlib.figure import Figure

from . import trained
from . import trained_measures as measures
from .explorer import Choice, Explorer
from .figure_style import PALETTE, new_figure

__all__ = ["AttentionOffsetExplorer", "attention_offset_data", "SHOWN_OFFSETS"]

#: The offsets drawn: 0 (a query's own key) to 64, half the context.
SHOWN_OFFSETS = 65
#: The variants in which the encoding enters the stream (``parts``).
ADDED = ("sinusoidal", "learned")


@functools.cache
def _profiles(variant: str) -> dict[str, np.ndarray]:
    """Profiles (layers, heads, T) of the seed-0 model of ``variant``: as
    trained, at initialisation, and fed the encoding alone."""
    model = trained.load(variant, 0)
    text = measures.sample_text(8, 128)
    profiles = {
        "trained": measures.offset_profiles(trained.forward(model, text)),
        "initial": measures.offset_profiles(
            trained.forward(measures.initial_model(model), text)
        ),
    }
    if variant in ADDED:
        alone = trained.forward(model, text, parts=("position",))
        profiles["position"] = measures.offset_profiles(alone)
    return profiles


def attention_offset_data(variant: str, layer: int, head: int) -> dict:
    """Data of :class:`AttentionOffsetExplorer`: for offsets 0 to 64,
    ``trained``, ``initial`` and (sinusoidal, learned only, else None)
    ``position`` profiles of the head, ``uniform`` (uniform causal
    attention), and the head's ``peak`` weight and its ``offset`` among
    offsets 1 to 16 (:func:`posenc.trained_measures.peaks`)."""
    profiles = _profiles(variant)
    cut = slice(0, SHOWN_OFFSETS)
    peak, offset = measures.peaks(profiles["trained"][layer, head])
    return {
        "offsets": np.arange(SHOWN_OFFSETS),
        "trained": profiles["trained"][layer, head, cut],
        "initial": profiles["initial"][layer, head, cut],
        "position": (
            profiles["position"][layer, head, cut] if "position" in profiles else None
        ),
        "uniform": measures.uniform_profile(128)[cut],
        "peak": float(peak),
        "offset": int(offset),
    }


class AttentionOffsetExplorer(Explorer):
    """Mean attention weight by offset for one head of a trained model."""

    description = (
        "Mean attention weight against the offset from 0 to 64, on a "
        "logarithmic scale, for the chosen variant, layer and head (seed 0): "
        "the trained head as a solid line, the same head at initialisation "
        "dashed, uniform causal attention dotted, and for the sinusoidal and "
        "learned variants the head fed the encoding alone as a dash-dotted "
        "line. The title gives the head's largest weight at one offset."
    )
    choices = (
        Choice("variant", "variant", trained.VARIANTS, "rope"),
        Choice("layer", "layer", (0, 1), 1),
        Choice("head", "head", (0, 1, 2, 3), 2),
    )

    def build(self) -> Figure:
        figure, ax = new_figure(height=3.6)
        grey = "#8a8a8a"
        (self.uniform,) = ax.plot(
            [], [], color=PALETTE["black"], ls=":", lw=1.4, label="uniform causal"
        )
        (self.initial,) = ax.plot(
            [], [], color=grey, ls="--", lw=1.6, label="at initialisation"
        )
        (self.position,) = ax.plot(
            [], [], color=PALETTE["orange"], ls="-.", lw=1.6, label="encoding alone"
        )
        (self.trained,) = ax.plot(
            [], [], color=PALETTE["blue"], lw=2.0, marker="o", ms=3, label="trained"
        )
        ax.set_yscale("log")
        ax.set_xlim(-1, SHOWN_OFFSETS)
        ax.set_ylim(1e-4, 1.2)
        ax.set_xlabel("offset Δ = m − n")
        ax.set_ylabel("mean attention weight")
        self.title = ax.set_title(" ")
        figure.legend(loc="outside lower center", ncol=2)
        self.dynamic(self.uniform, self.initial, self.position, self.trained)
        self.dynamic(self.title, *ax.spines.values())
        return figure

    def draw(self, variant: str, layer: int, head: int) -> None:
        data = attention_offset_data(variant, layer, head)
        offsets = data["offsets"]
        self.trained.set_data(offsets, data["trained"])
        self.initial.set_data(offsets, data["initial"])
        self.uniform.set_data(offsets, data["uniform"])
        if data["position"] is None:
            self.position.set_data([], [])
        else:
            self.position.set_data(offsets, data["position"])
        self.title.set_text(
            f"{variant}, layer {layer}, head {head}: "
            f"peak {data['peak']:.2f} at offset {data['offset']}"
        )
