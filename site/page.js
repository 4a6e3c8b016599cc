// Page behaviour bf.js loads when a page asks for it (docs/site.md#pages):
// - "Show more" under a listing's first page of items: reads the next page with bf.read and
//   appends its items, rendered like the static ones (builder/emit/listing_pages.py _item_fragment);
// - "JSON reply" on pages whose reply has no file of its own: shows the reply bf.read gives;
// - 404.html: an address of an older build (a record's own page, a listing's later page, a
//   relation page) is sent to where that item is shown now.
// Everything from a reply is rendered as text nodes (never innerHTML).
import { escapeSegment, isRecordLike, unescapeSegment, uri } from './engine/refs.js'
import { cut } from './engine/text.js'
import { cmp } from './engine/order.js'
import { timeNode } from './dates.js'
import { itemPath, pagePath, recordPath } from './links.js'

const LISTED_EXCERPT = 160 // listing_pages.py LISTED_EXCERPT

// An element with attributes and children (strings become text nodes); shared with quicksearch.js.
export function el (tag, props = {}, ...children) {
  const node = document.createElement(tag)
  for (const [k, v] of Object.entries(props)) {
    if (k === 'class') node.className = v
    else node.setAttribute(k, v)
  }
  for (const child of children) if (child !== null && child !== undefined && child !== '') node.append(child)
  return node
}

// One listed item, as listing_pages.py _item_fragment writes it.
export function itemNode (site, root, it) {
  const li = el('li', {}, el('a', { href: new URL(itemPath(site, it), root).href }, it.title))
  // a record's kind goes without saying (its source names it), as does a note's: a note's badge is its type
  const kind = [it.kind === 'note' ? null : it.kind, it.type].filter(Boolean).join(' · ')
  if (kind && !it.source) li.append(' ', el('span', { class: 'badge' }, kind))
  if (it.review) li.append(' ', el('span', { class: 'badge review', title: 'asks for review' }, 'review'))
  if (it.source) {
    const tz = (site.brain(it.brain) || {}).timezone || 'UTC'
    const meta = el('span', { class: 'meta' }, it.source)
    if (it.time) meta.append(' · ', timeNode(it.time, tz))
    else if (it.observed) meta.append(' · observed ', timeNode(it.observed, tz))
    li.append(' ', meta)
  }
  const fields = Object.entries(it.fields || {}).sort((a, b) => cmp(a[0], b[0]))
  if (fields.length) {
    li.append(' ', el('span', { class: 'fields' }, ...fields.map(([k, v]) => el('span', { class: 'field' }, `${k}: ${v}`))))
  }
  const text = it.source ? '' : it.excerpt || '' // a record: its title, source and time
  const shown = listedExcerpt(text, it.title)
  if (shown) li.append(el('p', { class: 'excerpt' }, cut(shown, LISTED_EXCERPT)))
  return li
}

// listing_pages.py _listed_excerpt: none when the excerpt says no more than the title, the rest
// when it opens with the title as a heading would (a space, a capital), else all of it
function listedExcerpt (text, title) {
  const lead = title.replace(/…$/, '')
  if (!lead || !text.startsWith(lead)) return text
  const rest = text.slice(lead.length)
  if (lead !== title || !rest.replace(/[ .!?:;]/g, '')) return ''
  return /^ \p{Lu}/u.test(rest) ? rest.slice(1) : text
}

async function showMore (bf, button) {
  const list = button.closest('[data-bf-list]').querySelector('ul.items')
  const status = button.parentElement.querySelector('.status')
  const options = { offset: Number(button.dataset.next) }
  if (button.dataset.rel) options.rel = button.dataset.rel
  button.disabled = true
  status.textContent = 'Loading…'
  try {
    const [site, reply] = await Promise.all([bf.site(), bf.read(button.dataset.bfMore, options)])
    const nodes = reply.items.map((it) => itemNode(site, bf.root, it))
    list.append(...nodes)
    const left = reply.total - reply.offset - reply.items.length
    status.textContent = `${reply.items.length} more shown`
    if (reply.next_offset === null || reply.next_offset === undefined) {
      button.remove()
    } else {
      button.dataset.next = String(reply.next_offset)
      button.querySelector('.count').textContent = `${left} more`
      button.disabled = false
    }
    if (nodes.length) nodes[0].querySelector('a').focus() // keyboard users carry on from the first new item
  } catch (err) {
    status.textContent = 'Could not load more: ' + (err.error || String(err))
    button.disabled = false
  }
}

async function toggleJson (bf, button) {
  const id = 'bf-json-reply'
  const shown = document.getElementById(id)
  if (shown) {
    shown.remove()
    button.setAttribute('aria-expanded', 'false')
    return
  }
  const box = el('section', { id, class: 'json-reply', 'aria-label': 'JSON reply', tabindex: '-1' })
  try {
    const reply = await bf.read(button.dataset.bfJson)
    const text = JSON.stringify(reply, null, 2) + '\n'
    const name = (reply.ref || 'reply').replace(/[^A-Za-z0-9._-]+/g, '_') + '.json'
    const link = el('a', { href: URL.createObjectURL(new Blob([text], { type: 'application/json' })), download: name }, 'Download ' + name)
    box.append(el('p', {}, link, ' · the reply of ', el('code', {}, `bf read ${button.dataset.bfJson}`)), el('pre', {}, text))
  } catch (err) {
    box.append(el('p', { class: 'error' }, err.error || String(err)))
  }
  document.getElementById('main').append(box)
  button.setAttribute('aria-expanded', 'true')
  box.focus()
}

// The new address of an old one (a path under the site root, its segments escaped as reply files
// still are: refs.escape_segment), or null when it is no older address of a page.
export async function movedTo (bf, rel) {
  if (!rel.endsWith('.html')) return null
  let stem = rel.slice(0, -'.html'.length)
  const offset = /~~o\d+$/.exec(stem)
  if (offset) stem = stem.slice(0, offset.index)
  const at = stem.indexOf('~~r~~')
  const relation = at >= 0 ? stem.slice(at + 5) : null
  if (at >= 0) stem = stem.slice(0, at)
  const parts = stem.split('/')
  const site = await bf.site()
  const brain = site.brains.find((b) => escapeSegment(b.name) === parts[0])
  const segments = parts.slice(1).map(unescapeSegment)
  if (!brain || !segments.length || segments.includes(null)) return null
  const ref = segments.join('/')
  if (segments.length === 1 && isRecordLike(ref) && (brain.sources || []).includes(ref.slice(0, ref.indexOf(':')))) {
    let reply = null
    try { reply = await bf.read(uri(brain.name, ref)) } catch { reply = null }
    if (reply && reply.page === 'record') {
      const rec = reply.record
      const path = recordPath(site, brain.name, ref, rec.source, rec.time || rec.observed, brain.timezone)
      return relation === null ? path : path + '~~rel~' + relation
    }
    return null // a record that is gone
  }
  const path = pagePath(site, brain.name, ref)
  if (path === rel) return null // its own address: nothing moved
  return path + (relation !== null ? '#rel~' + relation : '')
}

async function redirect (bf, box) {
  const root = new URL(bf.root).pathname
  let path
  try { path = decodeURIComponent(location.pathname) } catch { return }
  if (!path.startsWith(root)) return
  const target = await movedTo(bf, path.slice(root.length)).catch(() => null)
  if (!target) return
  const url = new URL(target + (target.includes('#') ? '' : location.hash), bf.root).href
  box.append('This page has moved to ', el('a', { href: url }, target), '. Taking you there…')
  box.hidden = false
  location.replace(url)
}

export function wire (bf) {
  for (const button of document.querySelectorAll('[data-bf-more]')) {
    button.hidden = false
    button.addEventListener('click', () => showMore(bf, button))
  }
  for (const button of document.querySelectorAll('[data-bf-json]')) {
    button.setAttribute('aria-expanded', 'false') // not in the page's HTML: the button works only with bf.js
    button.closest('.json-offer').hidden = false
    button.addEventListener('click', () => toggleJson(bf, button))
  }
  const moved = document.querySelector('[data-bf-moved]')
  if (moved) redirect(bf, moved)
}
