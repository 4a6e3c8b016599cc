// The search dialog of every page (Ctrl/Cmd-K, or "/" outside the search page): full-text
// results from pagefind as you type, over every bundle and language (fulltext.js), or from
// bf's own engine in a site built without pagefind; arrow keys move, Enter opens, Escape
// closes. Filters stay on search.html, which the dialog links to. bf.js makes the dialog and
// its field on the first such key press and imports this module, which takes them over, so a
// page's first view loads none of it, and pagefind's files are fetched only when it first opens.
// Everything from an index is rendered as text nodes or <mark> (never innerHTML).
import { mergedIndexes } from './fulltext.js'
import { el } from './page.js'
import { relativeTime } from './dates.js'
import { itemPath } from './links.js'

const SHOWN = 8 // a quick look; the search page has the rest, with filters
const WAIT_MS = 120 // pagefind's debounce: a keystroke in that time replaces the search

// pagefind, with every other (bundle, language) index merged; null when the build has none.
async function loadPagefind (root) {
  const base = new URL('pagefind/', root).href
  const reply = await fetch(base + 'bundles.json')
  if (!reply.ok) return null
  const bundles = (await reply.json()).bundles.map((b) => ({ url: new URL(b.path, base).href, languages: b.languages }))
  if (!bundles.length) return null
  const pagefind = await import(bundles[0].url + 'pagefind.js')
  const baseUrl = new URL(root).pathname // result URLs are site paths
  await pagefind.options({ baseUrl })
  await pagefind.init()
  // every index asked at once: one after another they cost a phone seconds; pagefind keeps
  // them in the order they are asked, so results merge as they would one by one
  await Promise.all(mergedIndexes(bundles, document.documentElement.lang)
    .map(({ bundlePath, language }) => pagefind.mergeIndex(bundlePath, { baseUrl, language })))
  return pagefind
}

// pagefind's excerpt (escaped text with <mark> around matches) as nodes: text and marks only.
function excerptNodes (html) {
  const body = new DOMParser().parseFromString(html, 'text/html').body
  return [...body.childNodes].map((n) => n.nodeName === 'MARK' ? el('mark', {}, n.textContent) : n.textContent)
}

// A record is a sub-result of its day page: the row opens the record's anchor and shows its title.
function resultNode (data, id) {
  const meta = data.meta || {}
  const filters = data.filters || {}
  const type = (filters.type || [])[0] // a note's type, or "record" on the pages showing records
  const record = type === 'record' ? (data.sub_results || []).find((s) => s.url.includes('#')) : null
  const line = el('span', { class: 'meta' }, type === 'record' ? 'record' : 'note' + (type ? ' · ' + type : ''))
  if ((filters.source || [])[0]) line.append(' · ' + filters.source[0])
  if (meta.instant) {
    const time = el('time', { datetime: meta.instant, title: meta.instant }, meta.modified || meta.date || meta.instant.slice(0, 10))
    line.append(' · ', time, ' (' + relativeTime(meta.instant) + ')')
  }
  return el('li', { id, role: 'option', 'aria-selected': 'false', class: 'qs-result' },
    el('a', { href: (record || data).url, tabindex: '-1', dir: 'auto' }, (record || meta).title || data.url), ' ', line,
    data.excerpt ? el('p', { class: 'excerpt' }, ...excerptNodes((record || data).excerpt)) : null)
}

// An item of bf's own search (a site without pagefind): its title, kind and excerpt.
function itemResult (site, root, item, id) {
  const line = el('span', { class: 'meta' }, item.kind === 'record' ? 'record' + (item.source ? ' · ' + item.source : '') : item.kind + (item.type ? ' · ' + item.type : ''))
  return el('li', { id, role: 'option', 'aria-selected': 'false', class: 'qs-result' },
    el('a', { href: new URL(itemPath(site, item), root).href, tabindex: '-1', dir: 'auto' }, item.title || item.ref), ' ', line,
    item.excerpt ? el('p', { class: 'excerpt', dir: 'auto' }, item.excerpt) : null)
}

class QuickSearch {
  // `dialog`: the dialog bf.js made, its form and field inside (what was typed is kept)
  constructor (bf, dialog) {
    this.bf = bf
    this.root = bf.root
    this.pagefind = null
    this.active = -1
    this.dialog = dialog
    this.input = dialog.querySelector('input')
    this.list = el('ul', { id: 'qs-results', role: 'listbox', 'aria-label': 'Results' })
    this.status = el('p', { class: 'status', role: 'status', 'aria-live': 'polite' })
    this.more = el('a', { href: new URL('search.html', this.root).href }, 'All results and filters on the search page')
    dialog.append(this.status, this.list, el('p', { class: 'more' }, this.more))
    this.input.addEventListener('input', () => this.search())
    this.input.addEventListener('keydown', (event) => this.key(event))
    // a click on the backdrop (the dialog element itself, outside its content) closes it
    this.dialog.addEventListener('click', (event) => { if (event.target === this.dialog) this.dialog.close() })
  }

  // bf.js opened the dialog (a reader may have closed it again while this module loaded)
  open () {
    if (!this.pagefind) this.pagefind = loadPagefind(this.root).catch(() => null)
    if (this.input.value.trim()) this.search()
  }

  async search () {
    const query = this.input.value.trim()
    const more = new URL('search.html', this.root)
    if (query) more.searchParams.set('q', query)
    this.more.href = more.href
    const pagefind = await this.pagefind
    let found
    try {
      found = !query ? { n: 0, nodes: [] } : pagefind ? await this.fullText(pagefind, query) : await this.engine(query)
    } catch (err) {
      if (query === this.input.value.trim()) this.failed(err)
      return
    }
    if (found === null || query !== this.input.value.trim()) return // a later keystroke took over
    this.list.replaceChildren(...found.nodes)
    this.input.setAttribute('aria-expanded', String(found.nodes.length > 0))
    this.select(-1)
    const n = found.n
    this.status.textContent = !query ? '' : n ? `${n} result${n === 1 ? '' : 's'}${n > SHOWN ? `, the first ${SHOWN} shown` : ''}` : `No results for “${query}”.`
  }

  async fullText (pagefind, query) {
    const found = await pagefind.debouncedSearch(query, {}, WAIT_MS)
    if (found === null) return null
    const data = await Promise.all(found.results.slice(0, SHOWN).map((r) => r.data()))
    return { n: found.results.length, nodes: data.map((d, i) => resultNode(d, 'qs-result-' + i)) }
  }

  // A site built without pagefind: bf's own ranking, the reply `bf search` gives.
  async engine (query) {
    await new Promise((resolve) => setTimeout(resolve, WAIT_MS))
    if (query !== this.input.value.trim()) return null
    const [site, reply] = await Promise.all([this.bf.site(), this.bf.search(query, { limit: SHOWN })])
    return { n: reply.total, nodes: reply.items.map((it, i) => itemResult(site, this.root, it, 'qs-result-' + i)) }
  }

  // A search that could not finish (a file that did not load, a bad query): the status says why,
  // and the results shown stay, links that work, for the query before.
  failed (err) {
    const why = err.error || err.message || String(err)
    const kept = this.list.children.length ? ' The results shown are for the query before.' : ''
    this.status.textContent = `Search failed: ${why}.${kept}`
  }

  select (index) {
    const options = [...this.list.children]
    const slots = options.length + 1 // -1 (the input) and each option, round and round
    this.active = (((index + 1) % slots) + slots) % slots - 1
    options.forEach((li, i) => li.setAttribute('aria-selected', String(i === this.active)))
    if (this.active >= 0) {
      this.input.setAttribute('aria-activedescendant', options[this.active].id)
      options[this.active].scrollIntoView({ block: 'nearest' })
    } else this.input.removeAttribute('aria-activedescendant')
  }

  key (event) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      this.select(this.active + (event.key === 'ArrowDown' ? 1 : -1))
    } else if (event.key === 'Enter') {
      event.preventDefault()
      const link = this.list.children[Math.max(this.active, 0)]?.querySelector('a')
      if (link) location.assign(link.href)
      else if (this.input.value.trim()) location.assign(this.more.href)
    }
  }
}

let quick = null

// Takes over the dialog bf.js made (and what was typed into its field while this loaded).
export function open (bf, dialog) {
  if (!quick || quick.dialog !== dialog) quick = new QuickSearch(bf, dialog)
  quick.open()
}
