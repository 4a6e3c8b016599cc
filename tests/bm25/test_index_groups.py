"""meta.json `groups` (since bf-lunr-5; spans with room since bf-lunr-7): each hit's group
without its ref, in Python and JS, and doc ids that a record added at its group's end keeps."""
import json
import shutil
import subprocess
from pathlib import Path

from builder.bm25 import IndexReader, write_index

DOCS = [  # refs sort as a.md, a.md#s, b:1, b:2, c.md, d:1 — groups interleave, ids do not
    {"ref": "a.md", "title": "alpha", "body": "shared words"},
    {"ref": "a.md#s", "title": "section", "body": "shared"},
    {"ref": "b:1", "title": "", "body": "shared record", "group": "b"},
    {"ref": "b:2", "title": "", "body": "record", "group": "b"},
    {"ref": "c.md", "title": "gamma", "body": "shared"},
    {"ref": "d:1", "title": "", "body": "shared", "group": "d"},
]


IDS = [0, 1, 2, 128, 129, 256]   # group "" from 0, then each group room(count) (128) after the last


def test_group_spans_and_lookup(tmp_path):
    write_index(DOCS, tmp_path)
    meta = json.loads((tmp_path / "meta.json").read_bytes())
    assert meta["format"] == "bf-lunr-11"
    assert meta["groups"] == [["", 0, 3], ["b", 128, 2], ["d", 256, 1]]
    assert (meta["docs"], meta["ids"]) == (6, 257)
    reader = IndexReader(tmp_path)
    assert [reader.group(d) for d in IDS] == ["", "", "", "b", "b", "d"]
    assert [reader.position(d) for d in IDS] == [0, 1, 2, 0, 1, 0]
    assert [reader.doc(r) for r in ("a.md", "a.md#s", "c.md", "b:1", "b:2", "d:1")] == IDS
    assert reader.doc("b:0") is None and reader.doc("e:1") is None and reader.doc("b.md") is None


def test_a_record_added_at_its_groups_end_moves_no_id(tmp_path):
    """Only the files holding what the new record brings change: no posting of another doc."""
    write_index(DOCS, tmp_path / "before")
    write_index(DOCS + [{"ref": "b:3", "title": "", "body": "fresh", "group": "b"}], tmp_path / "after")
    changed = {p.relative_to(tmp_path / "after").as_posix() for p in (tmp_path / "after").rglob("*")
               if p.is_file() and (tmp_path / "before" / p.relative_to(tmp_path / "after")).read_bytes() != p.read_bytes()}
    assert IndexReader(tmp_path / "after").doc("b:3") == 130
    assert changed <= {"meta.json", "t/0.json.gz", "r/0.json.gz", "c/0.json.gz", "o/0.json.gz", "l/0.json.gz"}


def test_search_ids_reads_no_ref_file(tmp_path):
    write_index(DOCS, tmp_path)
    reader = IndexReader(tmp_path)
    hits = reader.search_ids(["shared"], True)
    assert [kind for kind, _ in reader._chunks] == ["l"]   # ranking needs lengths, no ref file
    assert hits.docs == [h[0] for h in hits]
    assert [(reader.ref(d), s, m, t) for d, s, m, t in hits] == reader.search(["shared"], True)
    assert hits[:2] == list(hits)[:2]


def test_js_grouper_gives_group_and_position(run_node, tmp_path):   # run_node: skips without node
    write_index(DOCS, tmp_path)
    script = tmp_path / "groups.mjs"
    bm25 = (Path(__file__).resolve().parent / "twin.mjs").as_uri()
    script.write_text(f"""
import {{ readFile }} from 'node:fs/promises'
import {{ IndexReader }} from '{bm25}'
const fetchFile = async (url) => new Response(await readFile(url))
const groupOf = await new IndexReader('{tmp_path.as_posix()}', fetchFile).grouper()
const reader = new IndexReader('{tmp_path.as_posix()}', fetchFile)
const docs = []
for (const ref of ['a.md', 'a.md#s', 'c.md', 'b:1', 'b:2', 'd:1', 'b:0', 'e:1']) docs.push(await reader.doc(ref))
process.stdout.write(JSON.stringify([{IDS}.map(groupOf), docs]))
""")
    out = subprocess.run([shutil.which("node"), str(script)], capture_output=True, check=True).stdout
    # position: the doc's rank among its group's docs (records: their place in records/SRC/m/K.json)
    assert json.loads(out) == [[["", 0], ["", 1], ["", 2], ["b", 0], ["b", 1], ["d", 0]], IDS + [None, None]]


def test_owners_rank_a_section_as_its_note_without_ref_files(tmp_path):
    """o/ files (since bf-lunr-5): a section's owner is its note, found across a ref that sorts
    between them ("a.md copy.md" < "a.md#s"); records (ids from 128) own themselves even with
    "#" in an id; no ref file is read for it."""
    docs = [{"ref": r, "title": "t", "body": "w", **({"group": "b"} if r.startswith("b:") else {})}
            for r in ("a.md", "a.md copy.md", "a.md copy.md#x", "a.md#s", "a.md#t", "b:1#2", "z.md#orphan")]
    write_index(docs, tmp_path)
    reader = IndexReader(tmp_path)
    assert [reader.owner(d) for d in (0, 1, 2, 3, 4, 5, 128)] == [0, 1, 1, 0, 0, 5, 128]
    assert ("r", 0) not in reader._chunks
