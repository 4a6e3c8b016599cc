// Link previews (docs/site.md#reading-aids): hovering or focusing a link to a note, a section, a record or
// an identity shows a popover with its title, a type/source/date line and its opening text (or
// the section's, or the record's), from the reply bf.read gives (the note's own JSON file, or the
// compact data); no preview data sits in the page. bf.js imports this module on the first hover
// or focus of a link, and only where the reader can hover: never on touch-only devices.
// Escape dismisses; the link names the popover (aria-describedby), so a screen reader reads it.
// Everything from a reply is rendered as text nodes (never innerHTML).
import { isRecordLike, uri, unescapeSegment } from './engine/refs.js'
import { cut } from './engine/text.js'
import { el } from './page.js'
import { stamp } from './dates.js'

const OPENING = 280 // characters of opening text: a glance, the page has the rest
const HOVER_MS = 250 // a pointer passing over a link is not asking for its preview
const LEAVE_MS = 200 // time to move the pointer from the link onto the popover

// Whether a link may show an item of this site: a page under the site root, not this one.
export function sitePage (root, href, here = location.href) {
  const url = new URL(href, here)
  const base = new URL(root)
  return url.origin === base.origin && url.pathname.startsWith(base.pathname) && url.pathname.endsWith('.html') &&
    url.pathname !== new URL(here).pathname // an anchor on this page: the reader is there already
}

// {brain, ref} a page names (base.html's bf-ref and data-brain), from its HTML: a page's address
// is never read back into a ref. The browser's cache keeps the page for when the link is followed.
async function pageRef (url) {
  const reply = await fetch(url)
  if (!reply.ok || !(reply.headers.get('content-type') || '').includes('html')) return null
  const doc = new DOMParser().parseFromString(await reply.text(), 'text/html')
  const ref = (doc.querySelector('meta[name="bf-ref"]') || {}).content
  return ref && doc.body ? { brain: doc.body.dataset.brain, ref } : null
}

// The ref a link shows, {brain, ref}, or null for anything not an item of this site.
export async function linkTarget (root, href, here = location.href) {
  if (!sitePage(root, href, here)) return null
  const url = new URL(href, here)
  const shown = await pageRef(url.href.split('#')[0]).catch(() => null)
  if (!shown) return null
  const { brain, ref: page } = shown
  const anchor = decodeURIComponent(url.hash.slice(1)).split('~~')[0] // `ANCHOR~~rel~R`: the item, not its relation list
  if (anchor && page.startsWith('memories/')) { // a record's anchor on its day page (links.js recordPath)
    const record = unescapeSegment(anchor)
    if (record && isRecordLike(record)) return { brain, ref: record }
  }
  if (anchor && page.endsWith('.md') && !anchor.startsWith('^') && !anchor.startsWith('rel~')) {
    return { brain, ref: page + '#' + anchor }
  }
  return { brain, ref: page }
}

// A note's text as its opening words: no front matter, no headings, wiki links as their labels.
export function opening (text) {
  const body = text.replace(/^---\n[\s\S]*?\n---\n/, '')
  const lines = body.split('\n').filter((line) => line.trim() && !/^\s*(#|```|%%|\|)/.test(line))
    .map((line) => line.replace(/^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/, '')) // list and task markers
  const plain = lines.join(' ')
    .replace(/!?\[\[([^\]|]*)\|?([^\]]*)\]\]/g, (_, target, label) => label || target)
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`~=>]+/g, '')
    .replace(/\s+/g, ' ')
  return cut(plain, OPENING)
}

// {title, line, text} of a reply, as the popover shows it.
export function summary (reply, tz) {
  const line = []
  if (reply.record) {
    const rec = reply.record
    line.push('record', rec.source)
    if (rec.time || rec.observed) line.push(stamp(rec.time || rec.observed, tz))
    if (rec.author) line.push(rec.author)
    return { title: reply.title, line: line.join(' · '), text: opening(rec.text || '') } // its links as their labels, as a note's
  }
  if (typeof reply.text === 'string') {
    line.push(reply.page === 'section' ? 'section of ' + reply.note : 'note')
    if (reply.type) line.push(reply.type)
    if (reply.modified) line.push('modified ' + stamp(reply.modified, tz))
    return { title: reply.title, line: line.join(' · '), text: opening(reply.text) }
  }
  line.push(reply.page)
  if (typeof reply.total === 'number') line.push(`${reply.total} item${reply.total === 1 ? '' : 's'}`)
  const aliases = (reply.aliases || []).length ? 'Also known as ' + reply.aliases.join(', ') : ''
  return { title: reply.title, line: line.join(' · '), text: aliases }
}

class Previews {
  constructor (bf) {
    this.bf = bf
    this.replies = new Map() // href → Promise of a summary, or null: each target read once per page
    this.box = el('div', { id: 'bf-preview', class: 'preview', role: 'tooltip', hidden: '' })
    this.link = null
    this.timer = 0
    document.body.append(this.box)
    this.box.addEventListener('mouseenter', () => clearTimeout(this.timer))
    this.box.addEventListener('mouseleave', () => this.later(() => this.hide(), LEAVE_MS))
    document.addEventListener('keydown', (event) => { if (event.key === 'Escape' && !this.box.hidden) this.hide() })
  }

  later (fn, ms) {
    clearTimeout(this.timer)
    this.timer = setTimeout(fn, ms)
  }

  // The link an event is about, when it is one a preview is for.
  linkOf (event) {
    const a = event.target instanceof Element ? event.target.closest('#main a[href]') : null
    return a && !a.closest('.preview') && this.summaryOf(a) ? a : null
  }

  summaryOf (a) {
    const href = new URL(a.getAttribute('href'), location.href).href // an SVG link's (graph.js) too
    if (!this.replies.has(href)) {
      this.replies.set(href, sitePage(this.bf.root, href) ? linkTarget(this.bf.root, href).then((t) => t && this.read(t)) : null)
    }
    return this.replies.get(href)
  }

  async read ({ brain, ref }) {
    try {
      const [site, reply] = await Promise.all([this.bf.site(), this.bf.read(uri(brain, ref))])
      return summary(reply, (site.brain(brain) || {}).timezone || 'UTC')
    } catch {
      return null // not an item bf can read (an attachment, a moved page): the link just works
    }
  }

  async show (a) {
    const found = await this.summaryOf(a)
    if (!found || this.link !== a) return
    this.box.replaceChildren(el('p', { class: 'preview-title', dir: 'auto' }, found.title),
      el('p', { class: 'meta' }, found.line), found.text ? el('p', { class: 'excerpt', dir: 'auto' }, found.text) : '')
    this.box.hidden = false
    a.setAttribute('aria-describedby', 'bf-preview')
    const at = a.getBoundingClientRect()
    const width = this.box.offsetWidth
    const left = Math.max(8, Math.min(at.left, document.documentElement.clientWidth - width - 8))
    const below = at.bottom + this.box.offsetHeight + 8 < window.innerHeight || at.top < this.box.offsetHeight + 8
    this.box.style.left = `${left + window.scrollX}px`
    this.box.style.top = `${(below ? at.bottom + 6 : at.top - this.box.offsetHeight - 6) + window.scrollY}px`
  }

  enter (a, ms) {
    if (this.link && this.link !== a) this.hide()
    this.link = a
    this.later(() => this.show(a), ms)
  }

  hide () {
    clearTimeout(this.timer)
    if (this.link) this.link.removeAttribute('aria-describedby')
    this.link = null
    this.box.hidden = true
  }
}

export function wire (bf, first) {
  const previews = new Previews(bf)
  const over = (event, ms) => { const a = previews.linkOf(event); if (a) previews.enter(a, ms) }
  const out = (event) => { if (previews.linkOf(event) === previews.link) previews.later(() => previews.hide(), LEAVE_MS) }
  document.addEventListener('mouseover', (event) => over(event, HOVER_MS))
  document.addEventListener('focusin', (event) => over(event, 0))
  document.addEventListener('mouseout', out)
  document.addEventListener('focusout', out)
  over(first, first.type === 'focusin' ? 0 : HOVER_MS)
}
