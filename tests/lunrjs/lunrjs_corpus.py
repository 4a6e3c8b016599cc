"""Generated corpora and queries for the lunrjs tests."""
import random


def make_docs(n, words=300, seed=1, vocab=3000):
    """Docs of Zipf-distributed words, with stemmer edge cases and noise."""
    rnd = random.Random(seed)
    base = ["key", "keys", "day", "way", "play", "played", "try", "tries",
            "running", "runs", "notes", "display", "array", "fly", "sky"]
    letters = "bcdfgklmnprstaeiouy"
    vocab_words = base + ["".join(rnd.choice(letters) for _ in range(rnd.randint(3, 9)))
                          for _ in range(vocab)]
    weights = [1 / (i + 1) for i in range(len(vocab_words))]

    def text(k):
        return " ".join(rnd.choices(vocab_words, weights, k=k))

    docs = []
    for i in range(n):
        docs.append({
            "ref": f"notes/n{i:04d}.md" + ("#sec" if i % 9 == 0 else ""),
            "title": text(rnd.randint(1, 6)).title(),
            "aliases": text(rnd.randint(1, 3)) if rnd.random() < 0.3 else "",
            "headings": text(rnd.randint(0, 10)),
            "body": text(rnd.randint(words // 3, words)) + " -- the Éclair, “quoted” co-op 😀x.",
        })
    docs.append({"ref": "empty", "title": "", "aliases": "", "headings": "", "body": ""})
    return docs, vocab_words


def make_queries(vocab_words, n, seed=7):
    rnd = random.Random(seed)
    pool = vocab_words[:400]
    out = []
    for i in range(n):
        q = rnd.sample(pool, rnd.randint(1, 4))
        if i % 7 == 0:
            q.append(q[0])             # repeated word: query vector weight 2
        if i % 11 == 0:
            q.append("zqxjunknown")    # absent term
        if i % 13 == 0:
            q[0] = q[0].upper()
        out.append(q)
    return out
