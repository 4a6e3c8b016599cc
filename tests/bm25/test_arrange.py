"""layout.arrange with a kept memo (a watch build): the ids it gives after documents change, come
and go, patched from the last call's order, are those a call with nothing kept gives."""
import random

from builder.bm25.layout import arrange


def _ids(result):
    slots, refs, spans = result
    return [None if doc is None else doc["ref"] for doc in slots], refs, spans


def test_patched_order_equals_a_fresh_one():
    rng = random.Random(7)
    pool = [f"n{i:04}.md" for i in range(400)] + [f"n{i:04}.md#s" for i in range(0, 400, 3)] \
        + [f"{src}:{i}" for src in ("chat", "issues", "mail") for i in range(300)]
    doc = lambda ref: {"ref": ref, "group": ref.partition(":")[0] if ":" in ref else ""}
    docs = [doc(ref) for ref in rng.sample(pool, 600)]
    kept = {}
    arrange(tuple(docs), kept)
    for step in range(80):
        held = {d["ref"] for d in docs}
        kind = step % 5
        if kind == 0:            # an edit: the same key, another dict (unchanged docs keep theirs)
            at = rng.randrange(len(docs))
            docs[at] = dict(docs[at])
        elif kind == 1:          # new documents at the end (a new record) or in the middle (a new note)
            at = rng.choice([len(docs), rng.randrange(len(docs))])
            docs[at:at] = [doc(r) for r in rng.sample([r for r in pool if r not in held], rng.randint(1, 3))]
        elif kind == 2:          # gone
            del docs[rng.randrange(len(docs))]
        elif kind == 3:          # many at once, in another order: past the patch, a sort
            rng.shuffle(docs)
        else:                    # nothing changed, a new sequence
            pass
        docs = list(docs)
        assert _ids(arrange(tuple(docs), kept)) == _ids(arrange(tuple(docs))), step
