// The site-wide navigation files (builder/emit/navigation.py reads as their format): the folder
// tree `_bf/explorer.json.gz` and the note graph `_bf/graph.json.gz`. Each is fetched once per
// page, on first use, and the browser's cache keeps it from page to page.
import { SUFFIX, unpack } from './engine/packs.js'

const EXPLORER = '_bf/explorer.json'
const GRAPH = '_bf/graph.json'
const loaded = new Map() // file → Promise of its JSON

function load (root, file) {
  if (!loaded.has(file)) {
    const json = fetch(new URL(file + SUFFIX, root)).then((reply) => {
      if (!reply.ok) throw new Error(`${file}${SUFFIX}: ${reply.status} ${reply.statusText}`)
      return unpack(reply)
    })
    json.catch(() => loaded.delete(file)) // a failed fetch is tried again next time
    loaded.set(file, json)
  }
  return loaded.get(file)
}

// A brain's folder tree: [name, [subfolders…], [[file, title], …]].
export async function folderTree (root, brain) {
  const tree = (await load(root, EXPLORER)).brains[brain]
  if (!tree) throw new Error('no folder tree for ' + brain)
  return tree
}

// Note refs in node-id order, with their titles: a folder's notes, then each subfolder's (navigation.py note_ids).
export function notes (tree, path = '', out = []) {
  for (const [file, title] of tree[2]) out.push({ ref: path + file, title: title || file.slice(0, -'.md'.length) })
  for (const sub of tree[1]) notes(sub, path + sub[0] + '/', out)
  return out
}

// A brain's links between notes: {relations, edges}, edges flat [source, target, relation index, …]
// in an Int32Array (no object per link: at 10k notes there are tens of thousands).
export async function noteGraph (root, brain) {
  const packed = (await load(root, GRAPH)).brains[brain]
  if (!packed) throw new Error('no graph for ' + brain)
  return unpackGraph(packed)
}

// The edges of graph.json.gz's packed pairs [Δsource, target × R + relation, …] (what navigation.py edges packs).
export function unpackGraph (packed) {
  const n = packed.relations.length
  const pairs = packed.edges
  const edges = new Int32Array((pairs.length / 2) * 3)
  let source = 0
  for (let i = 0, j = 0; i < pairs.length; i += 2, j += 3) {
    source += pairs[i]
    edges[j] = source
    edges[j + 1] = Math.floor(pairs[i + 1] / n)
    edges[j + 2] = pairs[i + 1] % n
  }
  return { relations: packed.relations, edges }
}

// The note this page shows ("" when it is no note page): the ref the page names (base.html's
// bf-ref), never one guessed from its address.
export function currentRef () {
  const ref = (document.querySelector('meta[name="bf-ref"]') || {}).content || ''
  return ref.endsWith('.md') ? ref : ''
}
