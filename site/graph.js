// Graphs of the links between notes (issue 19, item 2), drawn in the browser into SVG from the
// per-site files navdata.js fetches (titles from the folder tree, links from the packed edge
// file): no page holds graph data.
// - local: a note, the notes it links to and those linking to it, up to 2 hops, at most CAP
//   nodes, on two rings (a layout that costs O(nodes), so it stays far under 100 ms of main-thread
//   work at 10k notes: docs/site.md has the figures); each relation has its own line style;
// - whole: every note of a brain on a sunflower spiral in tree order (a folder's notes sit
//   together), its links one <path> per relation, so 10k notes make a handful of DOM nodes; a
//   click opens the nearest note, the pointer names it.
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
  first.forEach((n, i) => at.set(n, [Math.cos(i * slot) * 1.1, Math.sin(i * slot) * 1.1]))
  first.forEach((parent, i) => {
    const kids = [...chosen].filter(([, [hop, p]]) => hop === 2 && p === parent).map(([n]) => n)
    kids.forEach((n, k) => {
      const angle = i * slot + (k - (kids.length - 1) / 2) * (slot / Math.max(kids.length, 1)) * 0.9
      at.set(n, [Math.cos(angle) * 2.1, Math.sin(angle) * 2.1])
    })
  })
  return at
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

// The local graph of note `ref`: an <svg> and its legend, or null when the note has no links.
export function localGraph (tree, graph, ref, href) {
  const all = notes(tree)
  const center = all.findIndex((n) => n.ref === ref)
  const near = adjacency(all.length, graph.edges)
  if (center < 0 || !near.degree(center)) return null
  const chosen = neighbourhood(near, center)
  const at = rings(chosen)
  const scale = (p) => [(p[0] * 95 + 250).toFixed(1), (p[1] * 95 + 250).toFixed(1)]
  const lines = svg('g', { class: 'edges' })
  const used = new Set()
  for (let j = 0; j < graph.edges.length; j += 3) {
    const a = graph.edges[j]
    const b = graph.edges[j + 1]
    const r = graph.edges[j + 2]
    if (!chosen.has(a) || !chosen.has(b)) continue
    const [x1, y1] = scale(at.get(a))
    const [x2, y2] = scale(at.get(b))
    used.add(r)
    const far = a !== center && b !== center ? ' far' : '' // links among the neighbours: fainter
    lines.append(svg('line', { x1, y1, x2, y2, class: 'rel-' + (r % STYLES) + far }, svg('title', {}, `${all[a].title} → ${graph.relations[r]} → ${all[b].title}`)))
  }
  const nodes = svg('g', { class: 'nodes' })
  for (const [n, [hop]] of chosen) {
    const [x, y] = scale(at.get(n))
    const label = svg('text', { x, y: (Number(y) - 9).toFixed(1), 'text-anchor': 'middle' })
    label.textContent = short(all[n].title)
    nodes.append(svg('a', { href: href(all[n].ref), class: 'hop-' + hop, 'aria-label': all[n].title },
      svg('circle', { cx: x, cy: y, r: hop === 0 ? 7 : 5 }), label))
  }
  const picture = svg('svg', { viewBox: '0 0 500 500', class: 'graph-svg', role: 'group', 'aria-label': `Links of ${all[center].title}, up to 2 steps away` }, lines, nodes)
  return [picture, legend(graph.relations, used)]
}

// Every note of the brain on a sunflower spiral (tree order, so folders stay together).
export function wholeGraph (tree, graph, href, status) {
  const all = notes(tree)
  const golden = Math.PI * (3 - Math.sqrt(5))
  const at = all.map((_, i) => { const r = Math.sqrt(i + 0.5) * 10; return [500 + r * Math.cos(i * golden), 500 + r * Math.sin(i * golden)] })
  const size = Math.sqrt(all.length + 0.5) * 10 + 20
  const paths = graph.relations.map(() => [])
  for (let j = 0; j < graph.edges.length; j += 3) {
    const a = graph.edges[j]
    const b = graph.edges[j + 1]
    const r = graph.edges[j + 2]
    paths[r].push(`M${at[a][0].toFixed(1)} ${at[a][1].toFixed(1)}L${at[b][0].toFixed(1)} ${at[b][1].toFixed(1)}`)
  }
  const dots = at.map(([x, y]) => `M${x.toFixed(1)} ${y.toFixed(1)}h0.1`).join('') // round caps: a dot each
  const picture = svg('svg', { viewBox: `${500 - size} ${500 - size} ${2 * size} ${2 * size}`, class: 'graph-svg whole', role: 'img', 'aria-label': `Links between the ${all.length} notes of this brain` },
    ...paths.map((d, r) => svg('path', { d: d.join(''), class: 'rel-' + (r % STYLES), 'vector-effect': 'non-scaling-stroke' })),
    svg('path', { d: dots, class: 'dots', 'vector-effect': 'non-scaling-stroke' }))
  const nearest = (event) => {
    const box = picture.getBoundingClientRect()
    const x = 500 - size + ((event.clientX - box.left) / box.width) * 2 * size
    const y = 500 - size + ((event.clientY - box.top) / box.height) * 2 * size
    let best = -1
    let bestDistance = Infinity
    at.forEach(([px, py], i) => { const d = (px - x) ** 2 + (py - y) ** 2; if (d < bestDistance) { bestDistance = d; best = i } })
    return best
  }
  picture.addEventListener('click', (event) => { const n = nearest(event); if (n >= 0) location.assign(href(all[n].ref)) })
  picture.addEventListener('mousemove', (event) => { const n = nearest(event); status.textContent = n >= 0 ? all[n].title : '' })
  return [picture, legend(graph.relations, new Set(graph.relations.map((_, i) => i)))]
}

// Draws the graph into `box` ([data-bf-graph] on a note page, [data-bf-graph-whole] on graph.html).
export async function draw (bf, box) {
  const brain = new URLSearchParams(location.search).get('brain') || document.body.dataset.brain
  const href = (ref) => new URL(pagePath(brain, ref), bf.root).href
  try {
    const [tree, graph] = await Promise.all([folderTree(bf.root, brain), noteGraph(bf.root, brain)])
    if (box.hasAttribute('data-bf-graph-whole')) {
      const status = document.createElement('p')
      status.className = 'meta graph-status'
      status.setAttribute('aria-live', 'polite')
      box.append(...wholeGraph(tree, graph, href, status), status)
      return
    }
    const drawn = localGraph(tree, graph, currentRef(bf.root, brain), href)
    if (!drawn) return // a note without links: the section stays hidden
    box.append(...drawn)
    box.hidden = false
  } catch (err) {
    box.append(Object.assign(document.createElement('p'), { className: 'error', textContent: 'Could not draw the graph: ' + (err.message || String(err)) }))
    box.hidden = false
  }
}
