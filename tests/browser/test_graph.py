"""Graphs (issue 19, item 2; site/graph.js): a note's local graph — the note, its links and
backlinks, up to 2 hops, at most CAP nodes, typed relations told apart — drawn when it nears the
window from the per-site files; nodes are links; graph.html draws the whole brain."""
from __future__ import annotations

import base64
import json
import random
from types import SimpleNamespace

import pytest

from builder.emit.navigation import edges, folder_tree, note_ids
from builder.kernel.pageurls import page_file
from builder.query.site import open_site
from example import opened
from test_parity import python_read   # tests/browser is on sys.path (rootdir-less imports)

NOTE = "brain/projects/new-website.html"

pytestmark = pytest.mark.browser


def _local_graph(page):
    page.locator("aside.side").scroll_into_view_if_needed()
    graph = page.locator("section.graph svg.graph-svg")
    graph.wait_for()
    return graph


def _hrefs(graph, hop: str) -> set[str]:
    return set(graph.locator(f"a.{hop}").evaluate_all("as => as.map((a) => a.href.baseVal)"))


def test_a_note_shows_its_links_and_backlinks_as_a_graph(page, example_site, serve_site):
    base = serve_site(example_site, "/my-repo/")
    opened(page, base + NOTE)
    graph = _local_graph(page)
    # 1 step, from the page itself (the text's links, typed relations, backlinks): no graph data downloaded
    assert not [r for r in serve_site.servers[-1].requests if "graph.json" in r[1] or "explorer.json" in r[1]]
    reply = python_read(open_site(example_site), "projects/new-website.md", {})
    linked = {base + page_file("brain", l["ref"]) for l in reply["links"] if l["ref"]}
    assert {l["relation"] for l in reply["links"]} > {"links"}       # plain links and typed relations
    backlinks = set(page.locator("section.backlinks li > a").evaluate_all("as => as.map((a) => a.href)"))
    assert _hrefs(graph, "hop-1") == linked | backlinks
    assert graph.locator("a.hop-0").get_attribute("aria-label") == "New website"
    legend = [t.strip() for t in page.locator("section.graph .graph-legend li").all_inner_texts()]
    relations = set(page.locator("section.links li > .badge:first-of-type").all_inner_texts())
    assert legend[0] == "links" and set(legend) >= relations and len(legend) >= 2   # typed relations, named
    styles = {page.evaluate("(c) => { const l = document.querySelector('section.graph line.' + c); return l && getComputedStyle(l).strokeDasharray }", f"rel-{i}")
              for i in range(len(legend))}
    assert len(styles) == len(legend)                                    # each drawn its own way

    page.locator("section.graph button.graph-wider").click()             # 2 steps, from the site's files
    page.wait_for_function("document.querySelector('section.graph a.hop-2') !== null")
    graph = page.locator("section.graph svg.graph-svg")
    near = {l["ref"] for l in reply["links"] if (l["ref"] or "").endswith(".md")}
    near |= {b["ref"] for b in reply["backlinks"] if b["ref"].endswith(".md")}
    near.discard("projects/new-website.md")
    assert {h.split("/my-repo/", 1)[1] for h in _hrefs(graph, "hop-1")} == {page_file("brain", r) for r in near}
    assert 1 + len(near) < graph.locator("a").count() <= 40              # second steps too, capped
    assert page.evaluate("document.activeElement.getAttribute('class')") == "hop-0"
    node = graph.locator("a.hop-1").first
    target = node.evaluate("a => a.href.baseVal")
    node.focus()
    page.keyboard.press("Enter")                                         # nodes are links
    page.wait_for_url(target)


def _painted_share(page, png: bytes) -> float:
    """The share of a screenshot's pixels that differ from its top-left one (the background)."""
    return page.evaluate("""async (b64) => {
        const img = new Image()
        img.src = 'data:image/png;base64,' + b64
        await img.decode()
        const c = Object.assign(document.createElement('canvas'), { width: img.width, height: img.height })
        const ctx = c.getContext('2d')
        ctx.drawImage(img, 0, 0)
        const px = ctx.getImageData(0, 0, img.width, img.height).data
        let differ = 0
        for (let i = 0; i < px.length; i += 4) if (px[i] !== px[0] || px[i + 1] !== px[1] || px[i + 2] !== px[2]) differ++
        return differ / (px.length / 4)
    }""", base64.b64encode(png).decode())


def test_the_whole_graph_opens_a_note_on_click(page, example_site, serve_site):
    base = serve_site(example_site, "/")
    opened(page, base + "graph.html")
    whole = page.locator(".graph-whole")
    whole.wait_for()
    for _ in range(50):                                                  # a worker paints it
        if _painted_share(page, whole.screenshot()) > 0.001:
            break
        page.wait_for_timeout(100)
    assert _painted_share(page, whole.screenshot()) > 0.001
    box = whole.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    name = page.locator(".graph-status").inner_text()
    assert name
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_url("**/brain/**.html")
    assert page.locator("h1").inner_text() == name


def _synthetic_brain(n: int, per_note: int, relations: list[str]):
    """A brain-like object of `n` notes in 100 folders, each linking `per_note` others (seeded)."""
    rng = random.Random(19)
    refs = [f"f{i % 100:02d}/note-{i:05d}.md" for i in range(n)]
    notes = {r: SimpleNamespace(title=f"Note {i}") for i, r in enumerate(refs)}
    links = [SimpleNamespace(source=r, ref=rng.choice(refs), status="resolved",
                             relation=relations[min(int(rng.expovariate(1.5)), len(relations) - 1)])
             for r in refs for _ in range(per_note)]
    return SimpleNamespace(notes=notes, links=links)


def test_at_10k_notes_the_local_graph_stays_capped(page, example_site, serve_site):
    brain = _synthetic_brain(10_000, 5, ["links", "cites", "depends-on", "part-of", "supersedes"])
    tree = folder_tree(brain)
    packed = edges(brain, {r: i for i, r in enumerate(note_ids(tree))})
    opened(page, serve_site(example_site, "/") + NOTE)
    said = page.evaluate("""async ([treeText, graphText, ref]) => {
        const graph = await import(bf.root + '_bf/graph.js')
        const { unpackGraph } = await import(bf.root + '_bf/navdata.js')
        const start = performance.now()
        const drawn = graph.localGraph(JSON.parse(treeText), unpackGraph(JSON.parse(graphText)), ref, (r) => r)
        document.body.append(...drawn)
        const ms = performance.now() - start
        const svg = drawn[0]
        return { ms, nodes: svg.querySelectorAll('a').length, hops: [...svg.querySelectorAll('a')].map((a) => a.getAttribute('class')) }
    }""", [json.dumps(tree), json.dumps(packed), "f07/note-00007.md"])
    print(f"local graph at 10k notes, {len(packed['edges']) // 2} links: {said['ms']:.1f} ms main thread")
    assert said["nodes"] == 40 and said["hops"].count("hop-0") == 1
    assert set(said["hops"]) <= {"hop-0", "hop-1", "hop-2"}


def test_at_10k_notes_the_whole_graph_is_painted_by_a_worker(page, example_site, serve_site):
    brain = _synthetic_brain(10_000, 5, ["links", "cites", "depends-on", "part-of", "supersedes"])
    tree = folder_tree(brain)
    packed = edges(brain, {r: i for i, r in enumerate(note_ids(tree))})
    opened(page, serve_site(example_site, "/") + "graph.html")
    page.locator(".graph-whole").wait_for()
    said = page.evaluate("""async ([treeText, graphText]) => {
        const graph = await import(bf.root + '_bf/graph.js')
        const { unpackGraph } = await import(bf.root + '_bf/navdata.js')
        const box = document.querySelector('[data-bf-graph-whole]')
        const start = performance.now()
        const drawn = graph.wholeGraph(JSON.parse(treeText), unpackGraph(JSON.parse(graphText)), (r) => r, document.createElement('p'))
        box.replaceChildren(...drawn.picture)
        drawn.paint()
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
        return { ms: performance.now() - start, transferred: (() => { try { drawn.picture[0].getContext('2d'); return false } catch { return true } })() }
    }""", [json.dumps(tree), json.dumps(packed)])
    print(f"whole graph at 10k notes, {len(packed['edges']) // 2} links: {said['ms']:.1f} ms main thread to a frame")
    assert said["transferred"]                                           # the page's thread does not paint it
    whole = page.locator(".graph-whole")
    for _ in range(50):
        if _painted_share(page, whole.screenshot()) > 0.2:               # 50k links cover much of it
            break
        page.wait_for_timeout(100)
    assert _painted_share(page, whole.screenshot()) > 0.2
