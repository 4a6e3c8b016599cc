// The explorer: a collapsible tree of the brain's folders and notes (docs/site.md#reading-aids), from the
// one per-site file `_bf/explorer.json.gz` (navdata.js), fetched when the reader opens the
// explorer and kept by the browser's cache from page to page: no page holds the tree.
// Folders are <details>, so the tree opens and closes by keyboard as by mouse; a folder's
// entries are built when it is first opened, so a 10k-note tree costs only what is shown.
import { pagePath } from './links.js'
import { el } from './page.js'
import { currentRef, folderTree } from './navdata.js'

let panel = null

// <li> entries of a folder: subfolders first, then notes; `path` is the folder's ("" or "a/b/").
function entries (site, brain, root, node, path, here) {
  const out = []
  for (const sub of node[1]) {
    const name = sub[0]
    const inside = path + name + '/'
    const list = el('ul')
    const details = el('details', {}, el('summary', { dir: 'auto' }, name), list)
    const fill = () => { if (!list.childElementCount) list.append(...entries(site, brain, root, sub, inside, here)) }
    details.addEventListener('toggle', fill)
    if (here.startsWith(inside)) { details.open = true; fill() }
    out.push(el('li', { class: 'folder' }, details))
  }
  for (const [file, title] of node[2]) {
    const ref = path + file
    const a = el('a', { href: new URL(pagePath(site, brain, ref), root).href, dir: 'auto' }, title || file.slice(0, -'.md'.length))
    if (ref === here) a.setAttribute('aria-current', 'page')
    out.push(el('li', {}, a))
  }
  return out
}

async function build (bf) {
  const brain = document.body.dataset.brain
  const box = el('nav', { id: 'bf-explorer', class: 'explorer', 'aria-label': 'Explorer' }, el('h2', {}, 'Explorer'))
  document.querySelector('header.top').after(box)
  try {
    const [tree, site] = await Promise.all([folderTree(bf.root, brain), bf.site()])
    box.append(el('ul', { class: 'tree' }, ...entries(site, brain, bf.root, tree, '', currentRef())))
  } catch (err) {
    box.append(el('p', { class: 'error' }, 'Could not load the explorer: ' + (err.message || String(err))))
  }
  return box
}

// Opens the explorer (built on first use) or closes it; the button says which. Returns whether
// it is open now (bf.js remembers it for the next page).
export function toggle (bf, button, open = button.getAttribute('aria-expanded') !== 'true') {
  button.setAttribute('aria-expanded', String(open))
  if (!panel && open) panel = build(bf)
  if (panel) panel.then((box) => { box.hidden = !open })
  return open
}
