// bf in the browser: search, read and recall over the built site, with the replies Python gives
// (docs/replies.md#python-and-the-browser). Loaded as a module by every page; sets `window.bf` and wires the page:
// Ctrl/Cmd-K and "/" open the search dialog (quicksearch.js); "Show more", "JSON reply" and
// 404.html's redirect come from page.js. The site root is this file's parent folder, so the same build works at / and
// under a GitHub Pages project path.
import { read as readSite } from './engine/read.js'
import { openSite } from './engine/site.js'
import { BfError } from './engine/errors.js'

export const root = new URL('../', import.meta.url)
let opened = null

// The opened site (manifest checked once per page); a failed open is retried next call.
export function site () {
  if (!opened) {
    opened = openSite(root)
    opened.catch(() => { opened = null })
  }
  return opened
}

// read(ref, {rel, offset, brains}) → the reply; throws BfError {error, code} like `bf read`.
export async function read (ref, options = {}) {
  return readSite(await site(), ref, options)
}

// search(query, {scope, type, path, limit, brains}) → the reply of `bf search`.
export async function search (query, options = {}) {
  const engine = await import('./engine/search.js') // only pages that search pay for the engine
  return engine.search(await site(), query, options)
}

// recall(query, {budget, scope, type, path, brains}) → the reply of `bf recall`.
export async function recall (query, options = {}) {
  const engine = await import('./engine/recall.js')
  return engine.recall(await site(), query, options)
}

// similar(ref, {limit, scope, brains}) → the reply of `bf similar`.
export async function similar (ref, options = {}) {
  const engine = await import('./engine/similar.js')
  return engine.similar(await site(), ref, options)
}

export { BfError }

const bf = { search, read, recall, similar, site, root: root.href, BfError }
window.bf = bf

function typing (target) {
  return target instanceof HTMLElement &&
    (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))
}

// Pages with "Show more", a "JSON reply" button or 404.html's redirect get their behaviour (page.js).
if (document.querySelector('[data-bf-more], [data-bf-json], [data-bf-moved]')) {
  import('./page.js').then((page) => page.wire(bf))
}

// An instant's relative form ("3 days ago") comes from the reader's clock, never the build's (dates.js).
if (document.querySelector('time[datetime*="T"]')) import('./dates.js').then((dates) => dates.relativize())

// Link previews where the reader can hover (never on touch-only devices): preview.js is imported
// on the first hover or focus of a link in the page's main part, and takes the events from there.
if (window.matchMedia('(hover: hover)').matches) {
  const first = (event) => {
    if (!(event.target instanceof Element) || !event.target.closest('#main a[href]')) return
    document.removeEventListener('mouseover', first)
    document.removeEventListener('focusin', first)
    import('./preview.js').then((preview) => preview.wire(bf, event))
  }
  document.addEventListener('mouseover', first)
  document.addEventListener('focusin', first)
}

// The table of contents marks the section being read (contents.js).
if (document.querySelector('nav.toc')) import('./contents.js').then((contents) => contents.wire())
// a code block or table wider than its column scrolls (a table on a phone): Tab must reach it
// (axe: scrollable-region-focusable); a diagram is checked once drawn (obsidian.js)
for (const box of document.querySelectorAll('main pre, main table')) if (box.scrollWidth > box.clientWidth) box.tabIndex = 0

// graph.html's whole graph is drawn at once; a note's local graph and its "Related" list when
// they near the window (graph.js and related.js fetch their data then).
const whole = document.querySelector('[data-bf-graph-whole]')
if (whole) import('./graph.js').then((graph) => graph.draw(bf, whole))
function whenNear (box, module) {
  if (!box) return
  const near = new IntersectionObserver((entries) => {
    if (!entries.some((e) => e.isIntersecting)) return
    near.disconnect()
    import(module).then((drawn) => drawn.draw(bf, box))
  }, { rootMargin: '400px' })
  near.observe(box.parentElement) // the section itself is hidden (no box) until drawn
}
whenNear(document.querySelector('[data-bf-graph]'), './graph.js')
whenNear(document.querySelector('[data-bf-related]'), './related.js')

// The explorer's button is in the header (base.html), so the header does not grow as the page
// loads; a theme whose header leaves it out gets one made here. explorer.js builds the tree on
// first use. On wide screens, where it is a column beside the page (bf.css), it opens by itself
// when the reader left it open.
const EXPLORER_KEY = 'bf-explorer' // localStorage: "open" or "closed"
const header = document.querySelector('header.top')
let explorerButton = document.querySelector('[data-bf-explorer]')
if (!explorerButton && header) {
  explorerButton = document.createElement('button')
  for (const [k, v] of Object.entries({ type: 'button', class: 'explorer-toggle', 'data-bf-explorer': '', 'aria-expanded': 'false', 'aria-controls': 'bf-explorer' })) explorerButton.setAttribute(k, v)
  explorerButton.textContent = 'Explorer'
  header.prepend(explorerButton)
}
if (explorerButton) {
  const remember = (open) => {
    try { localStorage.setItem(EXPLORER_KEY, open ? 'open' : 'closed') } catch { /* storage blocked: the explorer just starts closed */ }
  }
  const explorer = (open) => import('./explorer.js').then((m) => remember(m.toggle(bf, explorerButton, open)))
  explorerButton.addEventListener('click', () => explorer())
  let left = null
  try { left = localStorage.getItem(EXPLORER_KEY) } catch { left = null }
  if (left === 'open' && window.matchMedia('(min-width: 75rem)').matches) explorer(true)
}

// Ctrl/Cmd-K, and "/" outside a field, open the search dialog. Its field is made here, at once,
// so what is typed while quicksearch.js loads (a second or more on a slow phone) lands in it;
// the module then takes the dialog over. Should it fail to load, what was typed goes to the
// header's search box, a plain form to search.html. On the search page "/" focuses its own field.
function focusBox (text = '') {
  const box = document.querySelector('[data-bf-search]') || document.querySelector('header input[type=search]')
  if (!box) return
  if (text) box.value = text
  box.focus()
  box.select()
}

function quickShell () {
  const found = document.querySelector('dialog.quick-search-dialog')
  if (found) return found
  const dialog = document.createElement('dialog')
  dialog.className = 'quick-search-dialog'
  dialog.setAttribute('aria-label', 'Search')
  const form = dialog.appendChild(document.createElement('form'))
  form.method = 'dialog'
  form.setAttribute('role', 'search')
  const input = form.appendChild(document.createElement('input'))
  for (const [key, value] of Object.entries({
    type: 'search', name: 'q', autocomplete: 'off', placeholder: 'Search notes and records', role: 'combobox',
    'aria-label': 'Search', 'aria-controls': 'qs-results', 'aria-expanded': 'false', 'aria-autocomplete': 'list'
  })) input.setAttribute(key, value)
  document.body.append(dialog)
  return dialog
}

document.addEventListener('keydown', (event) => {
  const commandK = (event.key || '').toLowerCase() === 'k' && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey
  const slash = event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey && !typing(event.target)
  if (!commandK && !slash) return
  event.preventDefault()
  if (slash && document.querySelector('[data-bf-search]')) return focusBox()
  const dialog = quickShell()
  if (!dialog.open) dialog.showModal()
  const input = dialog.querySelector('input')
  input.focus()
  input.select()
  import('./quicksearch.js').then((quick) => quick.open(bf, dialog)).catch(() => {
    dialog.close()
    focusBox(input.value)
  })
})

export default bf
