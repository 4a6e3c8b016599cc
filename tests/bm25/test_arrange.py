"""layout.arrange with a kept memo (a watch build): the ids it gives after documents come and go,
patched from the last call's order, are those a call with nothing kept gives."""
import random

from builder.bm25.layout import arrange


def _docs(refs):
    return [{"ref": ref, "group": ref.partition(":")[0] if ":" in ref else ""} for ref in refs]


def _ids(result):
    slots, refs, spans = result
    return [None if doc is None else doc["ref"] for doc in slots], refs, spans


def test_patched_order_equals_a_fresh_one():
    rng = random.Random(7)
    pool = [f"n{i:04}.md" for i in range(400)] + [f"n{i:04}.md#s" for i in range(0, 400, 3)] \
        + [f"{src}:{i}" for src in ("chat", "issues", "mail") for i in range(300)]
    refs = rng.sample(pool, 600)
    kept = {}
    arrange(_docs(refs), kept)
    for step in range(60):
        if step % 7 == 6:        # many at once: past PATCHED, a sort
            refs = rng.sample(pool, 600)
        else:
            went = set(rng.sample(refs, rng.randint(0, 3)))
            refs = [r for r in refs if r not in went] + rng.sample([r for r in pool if r not in refs], rng.randint(0, 3))
            rng.shuffle(refs)    # documents come in any order
        assert _ids(arrange(_docs(refs), kept)) == _ids(arrange(_docs(refs))), step
