"""Run the original encoding code of six code bases and record its tables
(writes ``tests/data/codebase_tables.json``).

The chapter "The encoding in real code" restates each code base in numpy
(``posenc.codebases``); ``tests/test_conventions_recorded.py`` checks those
restatements against this recording. PyTorch is not a dependency of the
book and the originals are not copied into it: this script reads each
original function or class it needs from its own source file, compiles just
that (``ast``, nothing else of the file is run, so no package needs to be
installed but torch and numpy), calls it, and records the table it returns
as float32 bit patterns (hex), at widths ``DIMS`` and rows ``ROWS`` (for
fairseq, rows of its forward pass: row ``t`` is the token at position ``t``).

Sources used for the committed recording (PyTorch 2.13.0+cpu, numpy 2.4.6,
in ``/tmp/torchvenv``)::

    # git snapshots, one file each
    git -C <mirror of harvardnlp/annotated-transformer> archive \\
        debc9fd747bb2123160a98046ad1c2d4da44a567 the_annotated_transformer.py \\
        | tar -x -C src/annotated-transformer
    git -C <mirror of facebookresearch/fairseq> archive \\
        3d262bb25690e4eb2e7d3c1309b1e9c406ca4b99 \\
        fairseq/modules/sinusoidal_positional_embedding.py fairseq/utils.py \\
        fairseq/data/dictionary.py | tar -x -C src/fairseq
    git -C <mirror of openai/whisper> archive \\
        c0d2f624c09dc18e709e37c2ad90c039a4eb72a2 whisper/model.py \\
        | tar -x -C src/whisper
    # Hugging Face Transformers, released wheels unpacked (no install)
    pip download --no-deps transformers==5.24.0   # and 4.40.0, 4.39.3, 2.1.1;
    # unzip each into src/transformers-<version>

    python tests/record_codebases.py --annotated src/annotated-transformer \\
        --fairseq src/fairseq --whisper src/whisper \\
        --transformers src/transformers-5.24.0 \\
        --transformers-guarded src/transformers-2.1.1 \\
        --transformers-unguarded src/transformers-4.39.3 \\
        --transformers-fixed src/transformers-4.40.0 \\
        > tests/data/codebase_tables.json

Not recorded: the PyTorch tutorial (``pytorch/tutorials`` was too large to
fetch here) and tensor2tensor (TensorFlow, not installed here); the tests
check those two restatements only against the chapter's description.

fairseq's table is recorded as its module hands it to the model: the
output of ``SinusoidalPositionalEmbedding.forward`` (which numbers the
tokens with ``make_positions`` of ``fairseq/utils.py``) for a sentence of
``N_ROWS`` tokens, none of them padding, with the padding index of
fairseq's default ``Dictionary`` (``fairseq/data/dictionary.py``); its
row ``t`` is the encoding of the sentence's token ``t``. The same forward
pass on a left-padded sentence (``FAIRSEQ_PADDED``) is recorded too.

Besides the tables, DistilBERT's position embedding is built as each of
three releases builds it for a configuration with ``sinusoidal_pos_embds``
and initialised by that release's own ``_init_weights``, as ``post_init``
does: 2.1.1 (with the 2019 guard ``if module.weight.requires_grad``),
4.39.3 (without it) and 4.40.0 (transformers#29813, which writes the table
in ``_init_weights``). The recording keeps row 1, column 0 (sin 1 if the
table survives), whether the weight still trains, and two facts read from
the release's ``_init_weights``: whether it skips frozen weights (tests
``requires_grad``) and whether it writes the table itself (calls
``create_sinusoidal_embeddings``).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import math
import platform
import types
import typing
from pathlib import Path

import numpy as np
import torch
import torch.onnx.operators  # noqa: F401 (fairseq's forward uses it)
from torch import nn

DIMS = (8, 64)
ROWS = (0, 1, 2, 3, 17, 100, 511)
N_ROWS = max(ROWS) + 1
HF = "transformers/models/"
#: A left-padded sentence: two padding tokens, then three real ones (the
#: ids are fairseq's default dictionary's: padding 1, the rest 4 and up).
FAIRSEQ_PADDED = (1, 1, 4, 5, 6)
#: Where the committed recording's sources came from (see the docstring).
ORIGINS = {
    "Annotated Transformer": "harvardnlp/annotated-transformer@debc9fd7",
    "DistilBERT": "transformers 5.24.0 (wheel)",
    "Marian": "transformers 5.24.0 (wheel)",
    "GPT-J": "transformers 5.24.0 (wheel)",
    "fairseq": "facebookresearch/fairseq@3d262bb2",
    "Whisper": "openai/whisper@c0d2f624",
    "guarded": "transformers 2.1.1 (wheel)",
    "unguarded": "transformers 4.39.3 (wheel)",
    "fixed": "transformers 4.40.0 (wheel)",
}


def load(path: Path, name: str, **names: object) -> object:
    """Compile the top-level function or class ``name`` of ``path`` alone
    and return it (its module's names: numpy, torch, nn, math, ``names``)."""
    tree = ast.parse(path.read_text(), str(path))
    nodes = [
        node
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name == name
    ]
    assert len(nodes) == 1, (path, name)
    namespace = {"np": np, "torch": torch, "nn": nn, "math": math, **names}
    module = ast.Module(body=nodes, type_ignores=[])
    exec(compile(module, str(path), "exec"), namespace)
    return namespace[name]


def method(path: Path, cls: str, name: str, **names: object) -> object:
    """Compile method ``name`` of class ``cls`` of ``path`` as a function."""
    tree = ast.parse(path.read_text(), str(path))
    (klass,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls]
    (node,) = [
        n for n in klass.body if isinstance(n, ast.FunctionDef) and n.name == name
    ]
    namespace = {"np": np, "torch": torch, "nn": nn, "math": math, **names}
    exec(
        compile(ast.Module(body=[node], type_ignores=[]), str(path), "exec"), namespace
    )
    return namespace[name]


def words(table: torch.Tensor) -> list[str]:
    """Rows ``ROWS`` of a float32 table as hex bit patterns, one string a row."""
    array = table.detach().numpy()
    assert array.dtype == np.float32 and array.shape[0] == N_ROWS
    return [" ".join(f"{w:08x}" for w in array[r].view(np.uint32)) for r in ROWS]


def tables(args: argparse.Namespace) -> dict[str, tuple[Path, object]]:
    """name -> (source file, function of d returning the whole table)."""
    annotated = args.annotated / "the_annotated_transformer.py"
    fairseq = args.fairseq / "fairseq/modules/sinusoidal_positional_embedding.py"
    whisper = args.whisper / "whisper/model.py"
    hf = args.transformers
    distilbert = hf / HF / "distilbert/modeling_distilbert.py"
    marian = hf / HF / "marian/modeling_marian.py"
    gptj = hf / HF / "gptj/modeling_gptj.py"

    def annotated_table(d):
        encoding = load(annotated, "PositionalEncoding")(d, 0.0, max_len=N_ROWS)
        return encoding.pe[0]

    def distilbert_table(d):
        out = torch.empty(N_ROWS, d)
        return load(distilbert, "_create_sinusoidal_embeddings")(N_ROWS, d, out)

    def marian_table(d):
        return load(marian, "MarianSinusoidalPositionalEmbedding")(
            N_ROWS, d
        ).create_weight()

    def fairseq_table(d):  # sentence token t -> its row, as forward gives
        tokens = torch.arange(4, 4 + N_ROWS).reshape(1, N_ROWS)  # no padding
        return fairseq_forward(args.fairseq, d, tokens)[0]

    return {
        "Annotated Transformer": (annotated, annotated_table),
        "DistilBERT": (distilbert, distilbert_table),
        "Marian": (marian, marian_table),
        "GPT-J": (gptj, lambda d: load(gptj, "create_sinusoidal_positions")(N_ROWS, d)),
        "fairseq": (fairseq, fairseq_table),
        "Whisper": (whisper, lambda d: load(whisper, "sinusoids")(N_ROWS, d)),
    }


def default_dictionary(root: Path) -> object:
    """fairseq's ``Dictionary()`` (a default argument of one of its methods,
    ``tokenize_line``, is never called here)."""
    path = root / "fairseq/data/dictionary.py"
    return load(path, "Dictionary", tokenize_line=None)()


def fairseq_forward(root: Path, d: int, tokens: torch.Tensor) -> torch.Tensor:
    """fairseq's ``SinusoidalPositionalEmbedding(d, padding_idx)`` applied
    to ``tokens`` (batch x length), with ``padding_idx`` that of fairseq's
    default ``Dictionary()`` and positions from its ``make_positions``."""
    dictionary = default_dictionary(root)
    utils = types.SimpleNamespace(
        make_positions=load(root / "fairseq/utils.py", "make_positions")
    )
    module = load(
        root / "fairseq/modules/sinusoidal_positional_embedding.py",
        "SinusoidalPositionalEmbedding",
        utils=utils,
        Optional=typing.Optional,
        Any=typing.Any,
        Tensor=torch.Tensor,
    )(d, dictionary.pad_index)
    return module(tokens)


def fairseq_positions(root: Path) -> dict:
    """The padding index of fairseq's default dictionary, and the forward
    pass on the left-padded sentence ``FAIRSEQ_PADDED`` at d = 8."""
    dictionary = default_dictionary(root)
    out = fairseq_forward(root, 8, torch.tensor([FAIRSEQ_PADDED]))[0]
    files = ("fairseq/utils.py", "fairseq/data/dictionary.py")
    return {
        "origin": ORIGINS["fairseq"],
        "sha256": {
            f: hashlib.sha256((root / f).read_bytes()).hexdigest() for f in files
        },
        "padding_idx": dictionary.pad_index,
        "tokens": list(FAIRSEQ_PADDED),
        "d": 8,
        "rows": [
            " ".join(f"{w:08x}" for w in row.view(np.uint32))
            for row in out.detach().numpy()
        ],
    }


def distilbert_init(root: Path, kind: str) -> dict:
    """Build DistilBERT's position embedding as the file in ``root`` does
    for a configuration with ``sinusoidal_pos_embds``, then initialise it
    as ``post_init`` does (``apply`` of ``_init_weights``, children first).

    ``Embeddings`` is a stand-in holding only the position embedding; it
    writes the table at construction where the file's ``Embeddings`` does
    (up to 4.39.3), and ``_init_weights`` is the file's own.
    """
    path = root / "transformers" / "modeling_distilbert.py"
    if not path.exists():
        path = root / HF / "distilbert/modeling_distilbert.py"
    tree = ast.parse(path.read_text())
    (klass,) = [
        n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Embeddings"
    ]
    writes_at_construction = "create_sinusoidal_embeddings" in ast.unparse(klass)
    create = load(
        path, "create_sinusoidal_embeddings", is_deepspeed_zero3_enabled=lambda: False
    )
    if "_create_sinusoidal_embeddings" in path.read_text():
        create.__globals__["_create_sinusoidal_embeddings"] = load(
            path, "_create_sinusoidal_embeddings"
        )
    config = types.SimpleNamespace(
        initializer_range=0.02,
        sinusoidal_pos_embds=True,
        max_position_embeddings=512,
        dim=768,
    )

    class Embeddings(nn.Module):
        def __init__(self):
            super().__init__()
            self.position_embeddings = nn.Embedding(512, 768)
            if writes_at_construction:
                # 2.1.1 writes into the weight before it sets requires_grad
                # = False, which PyTorch 2.13 refuses outside no_grad
                with torch.no_grad():
                    create(n_pos=512, dim=768, out=self.position_embeddings.weight)

    torch.manual_seed(0)
    embeddings = Embeddings()
    init_weights = method(
        path,
        "DistilBertPreTrainedModel",
        "_init_weights",
        Embeddings=Embeddings,
        create_sinusoidal_embeddings=create,
    )
    model = types.SimpleNamespace(config=config)
    (init_node,) = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.ClassDef) and n.name == "DistilBertPreTrainedModel"
    ]
    (init_node,) = [
        n
        for n in init_node.body
        if isinstance(n, ast.FunctionDef) and n.name == "_init_weights"
    ]
    init_source = ast.unparse(init_node)
    embeddings.apply(lambda module: init_weights(model, module))
    weight = embeddings.position_embeddings.weight
    value = weight[1, 0].detach().numpy().astype(np.float32)
    return {
        "origin": ORIGINS[kind],
        "file": str(path.relative_to(root)),
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        "row1_col0": f"{int(value.view(np.uint32)):08x}",
        "requires_grad": bool(weight.requires_grad),
        "init_skips_frozen": "requires_grad" in init_source,
        "init_writes_table": "create_sinusoidal_embeddings" in init_source,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for flag in ("annotated", "fairseq", "whisper", "transformers"):
        parser.add_argument(f"--{flag}", type=Path, required=True)
    parser.add_argument("--transformers-guarded", type=Path, required=True)
    parser.add_argument("--transformers-unguarded", type=Path, required=True)
    parser.add_argument("--transformers-fixed", type=Path, required=True)
    args = parser.parse_args()
    record = {
        "torch": torch.__version__,
        "numpy": np.__version__,
        "platform": f"{platform.system()} {platform.machine()}",
        "dims": list(DIMS),
        "rows": list(ROWS),
        "sources": {},
        "tables": {},
    }
    for name, (path, table) in tables(args).items():
        root = next(p for p in path.parents if p.name and p in _roots(args))
        record["sources"][name] = {
            "origin": ORIGINS[name],
            "file": str(path.relative_to(root)),
            "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        }
        record["tables"][name] = {str(d): words(table(d)) for d in DIMS}
    record["fairseq_positions"] = fairseq_positions(args.fairseq)
    record["distilbert_init"] = {
        "guarded": distilbert_init(args.transformers_guarded, "guarded"),
        "unguarded": distilbert_init(args.transformers_unguarded, "unguarded"),
        "fixed": distilbert_init(args.transformers_fixed, "fixed"),
    }
    print(json.dumps(record, indent=1))


def _roots(args: argparse.Namespace) -> set[Path]:
    return {args.annotated, args.fairseq, args.whisper, args.transformers}


if __name__ == "__main__":
    main()
