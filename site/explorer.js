// The explorer: a collapsible tree of the brain's folders and notes (issue 19, item 3), from the
// one per-site file `_bf/explorer.json.gz` (builder/emit/navigation.py), fetched when the reader
// opens the explorer and kept by the browser's cache from page to page: no page holds the tree.
// Folders are <details>, so the tree opens and closes by keyboard as by mouse; a folder's
// entries are built when it is first opened, so a 10k-note tree costs only what is shown.
import { unpack } from './engine/packs.js'
import { unescapeSegment } from './engine/refs.js'
import { pagePath } from './links.js'
import { el } from './page.js'
import { EXPLORER_KEY } from './bf.js'

let panel = null

function remember (state) {
  try { localStorage.setItem(EXPLORER_KEY, state) } catch { /* storage blocked: the explorer just starts closed */ }
}

// <li> entries of a folder: subfolders first, then notes; `path` is the folder's ("" or "a/b/").
function entries (brain, root, node, path, here) {
  const out = []
  for (const [name, sub] of Object.entries(node.d)) {
    const inside = path + name + '/'
    const list = el('ul')
    const details = el('details', {}, el('summary', { dir: 'auto' }, name), list)
    const fill = () => { if (!list.childElementCount) list.append(...entries(brain, root, sub, inside, here)) }
    details.addEventListener('toggle', fill)
    if (here.startsWith(inside)) { details.open = true; fill() }
    out.push(el('li', { class: 'folder' }, details))
  }
  for (const [file, title] of node.n) {
    const ref = path + file
    const a = el('a', { href: new URL(pagePath(brain, ref), root).href, dir: 'auto' }, title || file.slice(0, -'.md'.length))
    if (ref === here) a.setAttribute('aria-current', 'page')
    out.push(el('li', {}, a))
  }
  return out
}

// The note this page shows ("" when it is no note page), from its address.
function currentRef (root, brain) {
  const prefix = new URL(pagePath(brain, 'x'), root).pathname.slice(0, -'x.html'.length)
  const path = location.pathname
  if (!path.startsWith(prefix) || !path.endsWith('.md.html')) return ''
  const segments = path.slice(prefix.length, -'.html'.length).split('/').map(unescapeSegment)
  return segments.includes(null) ? '' : segments.join('/')
}

async function build (bf) {
  const brain = document.body.dataset.brain
  const box = el('nav', { id: 'bf-explorer', class: 'explorer', 'aria-label': 'Explorer' }, el('h2', {}, 'Explorer'))
  document.querySelector('header.top').after(box)
  try {
    const reply = await fetch(new URL('_bf/explorer.json.gz', bf.root))
    if (!reply.ok) throw new Error(`${reply.status} ${reply.statusText}`)
    const tree = (await unpack(reply)).brains[brain]
    const site = await bf.site() // the brain's escaped name and pages, as links.js computes them
    if (!site.brain(brain) || !tree) throw new Error('no tree for this brain')
    box.append(el('ul', { class: 'tree' }, ...entries(brain, bf.root, tree, '', currentRef(bf.root, brain))))
  } catch (err) {
    box.append(el('p', { class: 'error' }, 'Could not load the explorer: ' + (err.message || String(err))))
  }
  return box
}

// Opens the explorer (built on first use) or closes it; the button says which.
export async function toggle (bf, button, open = button.getAttribute('aria-expanded') !== 'true') {
  button.setAttribute('aria-expanded', String(open))
  remember(open ? 'open' : 'closed')
  if (!panel && open) panel = build(bf)
  if (panel) (await panel).hidden = !open
}
