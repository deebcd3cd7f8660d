"""Companion module of the book *Why Sines? The Sinusoidal Position Encoding,
Derived and Checked*.

One way to reach each thing from a chapter::

    import posenc                        # numbers: posenc.encoding(...)
    from posenc import plots, widgets    # plots.leakage_figure(...),
                                         # widgets.DecayExplorer()

* **Maths: ``posenc.X``.** Every function and constant that computes or
  names a number is re-exported here (``__all__`` below) from the module
  that holds it, and a chapter calls it through ``posenc``, never through
  its module:

  - :mod:`posenc.core` -- the encoding, its inner product, the decay
    integral, shifts, rotary embeddings (both pairings), general H;
  - :mod:`posenc.codebases` -- the encoding as nine public code bases write
    it, and their two frequency schedules;
  - :mod:`posenc.measure` -- reading a table of numbers: column
    frequencies, layout, schedule, start, column permutations;
  - :mod:`posenc.bugchecks` -- checks for the slips that shipped;
  - :mod:`posenc.precision` -- float32 error and distances between positions;
  - :mod:`posenc.scaling` -- long context: frequencies after RoPE scaling,
    the smallest base for a context length, bfloat16 rounding;
  - :mod:`posenc.toy` -- a seeded attention model, numerical derivatives;
  - :mod:`posenc.experiments` -- the sweeps and seeded samples the figures
    draw.

* **Figures: ``posenc.plots.X``.** Each figure function draws the arrays it
  is handed; the chapter computes them with ``posenc.X`` and asserts on them
  first. Not imported here (matplotlib is not needed to compute).
  :mod:`posenc.plots` holds no code: like this module for the maths, it
  re-exports the style of :mod:`posenc.figure_style` and the figures of the
  topic modules ``posenc/figures_*.py`` (encoding, decay, code); a new
  figure goes into the topic module of its chapter and into ``plots``'s
  ``__all__``. The per-chapter modules ``posenc/plots_<chapter>.py`` are
  reached as ``posenc.plots_<chapter>.X`` and are not re-exported.
* **Explorers: ``posenc.widgets.X``** (sliders; the website's static form is
  :mod:`posenc.static`). Not imported here.
* **Trained models: ``from posenc import trained``** reads and runs the
  small Transformers shipped in ``posenc/models`` (``make models``) with
  numpy alone; ``from posenc import trained_measures`` holds what the
  chapter "What trained models do with the encoding" measures on them,
  each with its baseline. Not imported here (loading reads files).
* Argument checks live in :mod:`posenc.validate`, used by every module.

Importing the package has no side effects: no rcParams changes, no seeding,
no printing. The version is the installed distribution's (``pyproject.toml``
is the one place it is written).
"""

from importlib import metadata

from .bugchecks import (
    check_encoding_table,
    check_relative_scores,
    check_rope_pairing,
    encoding_table_problems,
    rope_pairing,
)
from .codebases import (
    CODEBASE_SCHEDULES,
    CONVENTIONS,
    Convention,
    distilbert,
    fairseq,
    gptj,
    marian,
    paper_frequencies,
    pytorch_tutorial,
    schedule_ratio,
    t2t_frequencies,
    tensor2tensor,
    torch_frequencies,
    vaswani2017,
    whisper,
)
from .core import (
    CI_FIRST_ZERO,
    DECAY_SCHEDULES,
    LAYOUTS,
    PAIRINGS,
    alias_count,
    alias_error,
    alias_error_below,
    alias_threshold,
    aliasing_offset,
    cin,
    column_fit,
    cross_terms,
    decay_integral,
    diagonal_means,
    encoding,
    frequencies,
    harmonic,
    inner_product,
    integral_envelope,
    interleave,
    interleaved_to_halves,
    log_law,
    offset_leakage,
    pair_columns,
    rms_law,
    rope_bound,
    rope_partial_sums,
    rotate,
    schedule_frequencies,
    schedule_integral,
    shift_matrix,
)
from .experiments import (
    PERTURBATIONS,
    SCHEDULE_CASES,
    alias_rms,
    aliasing_error,
    decay_regimes,
    leakage_baselines,
    leakage_curves,
    pairing_scores,
    perturbation,
    rope_scores,
    schedule_integrals,
    score_scaling,
)
from .measure import (
    Measured,
    column_distances,
    column_frequencies,
    find_column_permutation,
    measure_table,
    offset_profiles,
)
from .precision import (
    METHODS,
    SINE_ROUNDING,
    UNIT_ROUNDOFF,
    certification_curves,
    certified_length,
    dirichlet_bound,
    distance_records,
    encoding_cast,
    encoding_error,
    encoding_float32,
    encoding_reduced,
    entry_error_bound,
    frequency_error,
    minimum_distance,
    reduced_angles,
    row_error_bound,
    squared_distance,
)
from .scaling import (
    MIN_BASE_RTOL,
    SCALING_METHODS,
    cosine_sums,
    first_negative,
    hf_rope_frequencies,
    min_base,
    phase_step_threshold,
    scaled_frequencies,
    to_bfloat16,
)
from .toy import (
    cross_block,
    cross_leakage,
    gradient,
    hessian,
    mixed_block,
    pooled_attention_model,
)

__all__ = [
    "LAYOUTS",
    "PAIRINGS",
    "frequencies",
    "interleave",
    "pair_columns",
    "interleaved_to_halves",
    "encoding",
    "inner_product",
    "decay_integral",
    "cin",
    "CI_FIRST_ZERO",
    "log_law",
    "integral_envelope",
    "aliasing_offset",
    "alias_threshold",
    "alias_error",
    "alias_error_below",
    "harmonic",
    "alias_count",
    "rms_law",
    "DECAY_SCHEDULES",
    "schedule_frequencies",
    "schedule_integral",
    "shift_matrix",
    "rotate",
    "cross_terms",
    "diagonal_means",
    "offset_leakage",
    "column_fit",
    "rope_partial_sums",
    "rope_bound",
    "vaswani2017",
    "pytorch_tutorial",
    "distilbert",
    "marian",
    "gptj",
    "tensor2tensor",
    "fairseq",
    "whisper",
    "CODEBASE_SCHEDULES",
    "paper_frequencies",
    "t2t_frequencies",
    "torch_frequencies",
    "schedule_ratio",
    "Convention",
    "CONVENTIONS",
    "find_column_permutation",
    "column_distances",
    "column_frequencies",
    "offset_profiles",
    "Measured",
    "measure_table",
    "encoding_table_problems",
    "check_encoding_table",
    "rope_pairing",
    "check_rope_pairing",
    "check_relative_scores",
    "UNIT_ROUNDOFF",
    "SINE_ROUNDING",
    "METHODS",
    "encoding_float32",
    "encoding_cast",
    "reduced_angles",
    "encoding_reduced",
    "encoding_error",
    "frequency_error",
    "entry_error_bound",
    "row_error_bound",
    "squared_distance",
    "distance_records",
    "minimum_distance",
    "dirichlet_bound",
    "certified_length",
    "certification_curves",
    "SCALING_METHODS",
    "MIN_BASE_RTOL",
    "scaled_frequencies",
    "cosine_sums",
    "first_negative",
    "phase_step_threshold",
    "min_base",
    "hf_rope_frequencies",
    "to_bfloat16",
    "pooled_attention_model",
    "gradient",
    "hessian",
    "cross_block",
    "mixed_block",
    "cross_leakage",
    "PERTURBATIONS",
    "perturbation",
    "leakage_curves",
    "leakage_baselines",
    "decay_regimes",
    "SCHEDULE_CASES",
    "schedule_integrals",
    "alias_rms",
    "aliasing_error",
    "rope_scores",
    "score_scaling",
    "pairing_scores",
]

try:
    __version__ = metadata.version("posenc")
except metadata.PackageNotFoundError:  # a copy of the sources, not installed
    __version__ = "unknown"
