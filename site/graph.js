// Graphs of the links between notes (docs/site.md#reading-aids), drawn in the browser; no page
// holds graph data.
// - local: a note and what it links to and what links to it (1 step, read from the page's own
//   Links and Backlinks lists, so the first view downloads no graph data); "Show 2 steps" adds
//   their neighbours from the per-site files navdata.js fetches (titles from the folder tree,
//   links from the packed edge file); at most CAP nodes, on two rings (a layout that costs
//   O(nodes): far under 100 ms of main-thread work at 10k notes, docs/site.md has the figures);
//   each relation has its own line style;
// - whole: every note of a brain on a sunflower spiral in tree order (a folder's notes sit
//   together), drawn into a canvas; a click opens the nearest note, the pointer names it.
// Nodes are links (keyboard and mouse alike). Titles are rendered as text nodes, never markup.
import { pagePath } from './links.js'
import { currentRef, folderTree, noteGraph, notes } from './navdata.js'

const SVG = 'http://www.w3.org/2000/svg'
export const CAP = 40 // more than this is not legible in a side column
const STYLES = 6 // relation line styles in bf.css (.rel-0 … .rel-5); more relations reuse them
const LABEL = 22 // characters of a node's label

function svg (tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag)
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v)
  node.append(...children)
  return node
}

// Undirected neighbour lists of every node, packed: node n's are list[start[n] … start[n + 1]).
export function adjacency (count, edges) {
  const start = new Int32Array(count + 1)
  for (let j = 0; j < edges.length; j += 3) { start[edges[j] + 1]++; start[edges[j + 1] + 1]++ }
  for (let n = 0; n < count; n++) start[n + 1] += start[n]
  const list = new Int32Array(start[count])
  const fill = start.slice(0, count)
  for (let j = 0; j < edges.length; j += 3) { list[fill[edges[j]]++] = edges[j + 1]; list[fill[edges[j + 1]]++] = edges[j] }
  return { of: (n) => list.subarray(start[n], start[n + 1]), degree: (n) => start[n + 1] - start[n] }
}

// The nodes within 2 hops of `center`, at most `cap`: Map node → [hop, parent]; nearer first,
// and among equals the better linked (then the lower id), so the cap drops the least connected.
export function neighbourhood (near, center, cap = CAP) {
  const chosen = new Map([[center, [0, center]]])
  const ranked = (ids) => [...new Set(ids)].sort((a, b) => near.degree(b) - near.degree(a) || a - b)
  const first = ranked(near.of(center)).filter((n) => n !== center)
  for (const n of first) if (chosen.size < cap) chosen.set(n, [1, center])
  for (const n of first) {
    if (!chosen.has(n)) continue
    for (const m of ranked(near.of(n))) if (chosen.size < cap && !chosen.has(m)) chosen.set(m, [2, n])
  }
  return chosen
}

// Positions on two rings: hop 1 evenly around the centre, hop 2 fanned out beside its parent.
export function rings (chosen) {
  const at = new Map()
  const first = [...chosen].filter(([, [hop]]) => hop === 1).map(([n]) => n)
  const slot = (2 * Math.PI) / Math.max(first.length, 1)
  for (const [n, [hop]] of chosen) if (hop === 0) at.set(n, [0, 0])
  const inner = first.length < chosen.size - 1 ? 1.1 : 2 // without a second ring the first takes its room
  first.forEach((n, i) => at.set(n, [Math.cos(i * slot) * inner, Math.sin(i * slot) * inner]))
  first.forEach((parent, i) => {
    const kids = [...chosen].filter(([, [hop, p]]) => hop === 2 && p === parent).map(([n]) => n)
    kids.forEach((n, k) => {
      const angle = i * slot + (k - (kids.length - 1) / 2) * (slot / Math.max(kids.length, 1)) * 0.9
      at.set(n, [Math.cos(angle) * 2.1, Math.sin(angle) * 2.1])
    })
  })
  return at
}

// The drawing's box around its nodes, with room for a label above each (LABEL characters of 11 px
// text, centred) and a dot below: a 1-step graph fills its panel instead of the middle of a square.
// The box is at least MIN_BOX wide and tall, the nodes in its middle, so a graph of two nodes is
// not blown up to fill its panel (its 11 px labels drawn at ~17 px).
const MIN_BOX = [420, 200]
function fitted (points) {
  const xs = points.map((p) => Number(p[0]))
  const ys = points.map((p) => Number(p[1]))
  let [left, top] = [Math.min(...xs) - LABEL * 3.2, Math.min(...ys) - 24]
  let [width, height] = [Math.max(...xs) + LABEL * 3.2 - left, Math.max(...ys) + 12 - top]
  if (width < MIN_BOX[0]) { left -= (MIN_BOX[0] - width) / 2; width = MIN_BOX[0] }
  if (height < MIN_BOX[1]) { top -= (MIN_BOX[1] - height) / 2; height = MIN_BOX[1] }
  return [left, top, width, height].map((v) => v.toFixed(0)).join(' ')
}

const short = (text) => text.length > LABEL ? text.slice(0, LABEL - 1) + '…' : text

function legend (relations, used) {
  const items = [...used].sort((a, b) => a - b).map((r) => {
    const sample = svg('svg', { width: 24, height: 8, 'aria-hidden': 'true' }, svg('line', { x1: 0, y1: 4, x2: 24, y2: 4, class: 'rel-' + (r % STYLES) }))
    const li = document.createElement('li')
    li.append(sample, ' ' + relations[r])
    return li
  })
  const list = document.createElement('ul')
  list.className = 'graph-legend'
  list.append(...items)
  return list
}

// An <svg> of the `chosen` nodes (Map id → [hop, parent]) on two rings, with the `edges`
// ([a, b, relation index], …) among them, and its legend; `nodes` maps an id to {title, href}.
function picture (nodes, chosen, edges, relations, center, steps) {
  const at = rings(chosen)
  const scale = (p) => [(p[0] * 95 + 250).toFixed(1), (p[1] * 95 + 250).toFixed(1)]
  const lines = svg('g', { class: 'edges' })
  const used = new Set()
  for (const [a, b, r] of edges) {
    const [x1, y1] = scale(at.get(a))
    const [x2, y2] = scale(at.get(b))
    used.add(r)
    const far = a !== center && b !== center ? ' far' : '' // links among the neighbours: fainter
    lines.append(svg('line', { x1, y1, x2, y2, class: 'rel-' + (r % STYLES) + far }, svg('title', {}, `${nodes.get(a).title} → ${relations[r]} → ${nodes.get(b).title}`)))
  }
  const dots = svg('g', { class: 'nodes' })
  for (const [n, [hop]] of chosen) {
    const [x, y] = scale(at.get(n))
    const label = svg('text', { x, y: (Number(y) - 9).toFixed(1), 'text-anchor': 'middle' })
    label.textContent = short(nodes.get(n).title)
    dots.append(svg('a', { href: nodes.get(n).href, class: 'hop-' + hop, 'aria-label': nodes.get(n).title },
      svg('circle', { cx: x, cy: y, r: hop === 0 ? 7 : 5 }), label))
  }
  const label = `Links of ${nodes.get(center).title}, ${steps === 1 ? '1 step' : 'up to 2 steps'} away`
  return [svg('svg', { viewBox: fitted([...at.values()].map(scale)), class: 'graph-svg', role: 'group', 'aria-label': label }, lines, dots),
    legend(relations, used)]
}

// Relation names the commonest first, then by name (navigation.py `edges` orders them so), so a
// relation keeps its line style from the 1-step graph to the 2-step one.
function byUse (edges, relations) {
  const count = relations.map((_, r) => edges.filter((e) => e[2] === r).length)
  const order = relations.map((_, r) => r).sort((a, b) => count[b] - count[a] || (relations[a] < relations[b] ? -1 : 1))
  const place = new Map(order.map((r, i) => [r, i]))
  return [edges.map(([a, b, r]) => [a, b, place.get(r)]), order.map((r) => relations[r])]
}

// The 1-step graph of this page's note from the page itself: its plain links from the text
// (a.internal outside embedded notes; the page lists only typed relations), its typed relations
// and its backlinks by relation, each node named by its note's title (a link's title attribute
// when its text is something else: emit/html.py _named). Nothing to download, so it costs the first view nothing. Null
// when the note has no links.
export function pageGraph (title) {
  const nodes = new Map([[0, { title, href: location.href.split('#')[0] }]])
  const ids = new Map()
  const relations = []
  const edges = []
  const add = (a, relation, outgoing) => {
    if (!ids.has(a.href)) { ids.set(a.href, nodes.size); nodes.set(nodes.size, { title: a.title || a.textContent, href: a.href }) }
    if (!relations.includes(relation)) relations.push(relation)
    const ends = [0, ids.get(a.href)]
    if (!outgoing) ends.reverse()
    edges.push([...ends, relations.indexOf(relation)])
  }
  const seen = new Set()
  for (const a of document.querySelectorAll('article.note .body a.internal')) {
    const url = new URL(a.href)
    if (!url.hash.includes('~')) url.hash = '' // a section is its note's node; a record's anchor always holds "~"
    if (a.closest('.embed-body') || !url.pathname.endsWith('.html') || seen.has(url.href)) continue
    seen.add(url.href)
    add({ href: url.href, title: a.title, textContent: a.textContent }, 'links', true)
  }
  for (const li of document.querySelectorAll('section.links li')) {
    const a = li.querySelector(':scope > a')
    if (a) add(a, li.querySelector(':scope > .badge').textContent, true)
  }
  for (const h3 of document.querySelectorAll('section.backlinks h3')) {
    for (const a of h3.nextElementSibling.querySelectorAll(':scope > li > a')) add(a, h3.dataset.rel || h3.firstChild.textContent.trim(), false)
  }
  const chosen = new Map([...nodes.keys()].slice(0, CAP).map((n) => [n, n === 0 ? [0, 0] : [1, 0]]))
  if (chosen.size < 2) return null
  const [kept, names] = byUse(edges.filter(([a, b]) => chosen.has(a) && chosen.has(b)), relations)
  return picture(nodes, chosen, kept, names, 0, 1)
}

// The 2-step graph of note `ref` from the site's files; null when the note has no links.
export function localGraph (tree, graph, ref, href) {
  const all = notes(tree)
  const center = all.findIndex((n) => n.ref === ref)
  const near = adjacency(all.length, graph.edges)
  if (center < 0 || !near.degree(center)) return null
  const chosen = neighbourhood(near, center)
  const edges = []
  for (let j = 0; j < graph.edges.length; j += 3) {
    if (chosen.has(graph.edges[j]) && chosen.has(graph.edges[j + 1])) edges.push([graph.edges[j], graph.edges[j + 1], graph.edges[j + 2]])
  }
  const nodes = new Map([...chosen.keys()].map((n) => [n, { title: all[n].title, href: href(all[n].ref) }]))
  return picture(nodes, chosen, edges, graph.relations, center, 2)
}

// Every note of the brain on a sunflower spiral (tree order, so folders stay together), drawn
// into a <canvas> that a worker paints (graphpaint.js): at 10k notes and 50k links an SVG is
// slow to paint, a canvas painted here far less (docs/site.md#reading-aids has the figures). Colours and dashes come from the legend's sample lines, so bf.css stays the one
// place that styles relations (light and dark alike). `paint()` (again) once the canvas is in
// the page, where it has its size and colours.
export function wholeGraph (tree, graph, href, status) {
  const all = notes(tree)
  const golden = Math.PI * (3 - Math.sqrt(5))
  const at = new Float64Array(2 * all.length)
  for (let i = 0; i < all.length; i++) {
    const r = Math.sqrt(i + 0.5) * 10
    at[2 * i] = r * Math.cos(i * golden)
    at[2 * i + 1] = r * Math.sin(i * golden)
  }
  const size = Math.sqrt(all.length + 0.5) * 10 + 20 // half the side, in spiral units
  const canvas = Object.assign(document.createElement('canvas'), { className: 'graph-whole' })
  canvas.setAttribute('role', 'img')
  canvas.setAttribute('aria-label', `Links between the ${all.length} notes of this brain`)
  const key = legend(graph.relations, new Set(graph.relations.map((_, i) => i)))
  let worker = null
  const paint = () => {
    const styles = [...key.querySelectorAll('line')].map((line) => {
      const style = getComputedStyle(line)
      return { stroke: style.stroke, dash: style.strokeDasharray === 'none' ? [] : style.strokeDasharray.split(/[ ,]+/).map(parseFloat) }
    })
    const message = { side: Math.round(Math.min(canvas.clientWidth || 800, 2000) * (window.devicePixelRatio || 1)), size, styles, dot: getComputedStyle(canvas).color }
    if (worker) return worker.postMessage(message)
    worker = new Worker(new URL('./graphpaint.js', import.meta.url), { type: 'module' })
    const offscreen = canvas.transferControlToOffscreen()
    worker.postMessage({ ...message, canvas: offscreen, at, edges: graph.edges }, [offscreen]) // arrays copied: both sides keep theirs
  }
  const nearest = (event) => {
    const box = canvas.getBoundingClientRect()
    const px = ((event.clientX - box.left) / box.width) * 2 * size - size
    const py = ((event.clientY - box.top) / box.height) * 2 * size - size
    let best = -1
    let bestDistance = Infinity
    for (let n = 0; n < all.length; n++) {
      const d = (at[2 * n] - px) ** 2 + (at[2 * n + 1] - py) ** 2
      if (d < bestDistance) { bestDistance = d; best = n }
    }
    return best
  }
  canvas.addEventListener('click', (event) => { const n = nearest(event); if (n >= 0) location.assign(href(all[n].ref)) })
  canvas.addEventListener('mousemove', (event) => { const n = nearest(event); status.textContent = n >= 0 ? all[n].title : '' })
  return { picture: [canvas, key], paint }
}

// Draws the graph into `box`: on a note page ([data-bf-graph]) the 1-step graph from the page,
// and a button that widens it to 2 steps from the site's files (fetched then, and cached);
// on graph.html ([data-bf-graph-whole]) the whole brain.
export async function draw (bf, box) {
  const brain = new URLSearchParams(location.search).get('brain') || document.body.dataset.brain
  const site = await bf.site().catch(() => null) // without it, only pages that kept their paths
  const href = (ref) => new URL(pagePath(site, brain, ref), bf.root).href
  const fail = (err) => {
    box.append(Object.assign(document.createElement('p'), { className: 'error', textContent: 'Could not draw the graph: ' + (err.message || String(err)) }))
    box.hidden = false
  }
  const files = () => Promise.all([folderTree(bf.root, brain), noteGraph(bf.root, brain)])
  if (box.hasAttribute('data-bf-graph-whole')) {
    try {
      const [tree, graph] = await files()
      const status = Object.assign(document.createElement('p'), { className: 'meta graph-status' })
      status.setAttribute('aria-live', 'polite')
      const { picture, paint } = wholeGraph(tree, graph, href, status)
      box.append(...picture, status)
      let width = 0 // painted in the page, where the canvas has its size and colours; again when they change
      new ResizeObserver(() => { if (picture[0].clientWidth !== width) { width = picture[0].clientWidth; paint() } }).observe(box)
      matchMedia('(prefers-color-scheme: dark)').addEventListener('change', paint)
    } catch (err) { fail(err) }
    return
  }
  const first = pageGraph(document.querySelector('h1').textContent)
  if (!first) { box.hidden = true; return } // a note without links (note.html guessed it had some)
  const wider = Object.assign(document.createElement('button'), { type: 'button', className: 'graph-wider', textContent: 'Show 2 steps' })
  box.append(...first, wider)
  box.hidden = false
  wider.addEventListener('click', async () => {
    wider.disabled = true
    try {
      const [tree, graph] = await files()
      const drawn = localGraph(tree, graph, currentRef(), href)
      if (drawn) {
        box.querySelectorAll('.graph-svg, .graph-legend').forEach((old) => old.remove())
        wider.before(...drawn)
        drawn[0].querySelector('a.hop-0').focus() // keyboard readers carry on in the new picture
      }
      wider.remove()
    } catch (err) { wider.disabled = false; fail(err) }
  })
}
