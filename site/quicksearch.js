// The search dialog of every page (Ctrl/Cmd-K, or "/" outside the search page): full-text
// results from pagefind as you type, over every bundle and language (fulltext.js); arrow keys
// move, Enter opens, Escape closes. Filters stay on search.html, which the dialog links to.
// bf.js imports this module on the first such key press, so a page's first view loads none
// of it, and pagefind's files are fetched only when the dialog first opens.
// Everything from an index is rendered as text nodes or <mark> (never innerHTML).
import { mergedIndexes } from './fulltext.js'
import { el } from './page.js'
import { relativeTime } from './dates.js'

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
  for (const { bundlePath, language } of mergedIndexes(bundles, document.documentElement.lang)) {
    await pagefind.mergeIndex(bundlePath, { baseUrl, language })
  }
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

class QuickSearch {
  constructor (bf) {
    this.root = bf.root
    this.pagefind = null
    this.active = -1
    this.input = el('input', {
      type: 'search', name: 'q', autocomplete: 'off', placeholder: 'Search notes and records', role: 'combobox',
      'aria-label': 'Search', 'aria-controls': 'qs-results', 'aria-expanded': 'false', 'aria-autocomplete': 'list'
    })
    this.list = el('ul', { id: 'qs-results', role: 'listbox', 'aria-label': 'Results' })
    this.status = el('p', { class: 'status', role: 'status', 'aria-live': 'polite' })
    this.more = el('a', { href: new URL('search.html', this.root).href }, 'All results and filters on the search page')
    this.dialog = el('dialog', { class: 'quick-search-dialog', 'aria-label': 'Search' },
      el('form', { method: 'dialog', role: 'search' }, this.input), this.status, this.list, el('p', { class: 'more' }, this.more))
    this.input.addEventListener('input', () => this.search())
    this.input.addEventListener('keydown', (event) => this.key(event))
    // a click on the backdrop (the dialog element itself, outside its content) closes it
    this.dialog.addEventListener('click', (event) => { if (event.target === this.dialog) this.dialog.close() })
    document.body.append(this.dialog)
  }

  open (typed) {
    if (!this.dialog.open) this.dialog.showModal()
    if (typed) this.input.value = typed
    this.input.focus()
    if (typed) this.search()
    else this.input.select()
    if (!this.pagefind) {
      this.pagefind = loadPagefind(this.root).catch(() => null)
      this.pagefind.then((pagefind) => { if (!pagefind) this.status.textContent = 'Full-text search is not in this build; the search page has the scoped search.' })
    }
  }

  async search () {
    const query = this.input.value.trim()
    const more = new URL('search.html', this.root)
    if (query) more.searchParams.set('q', query)
    this.more.href = more.href
    const pagefind = await this.pagefind
    if (!pagefind) return
    const found = query ? await pagefind.debouncedSearch(query, {}, WAIT_MS) : { results: [] }
    if (found === null || query !== this.input.value.trim()) return // a later keystroke took over
    const data = await Promise.all(found.results.slice(0, SHOWN).map((r) => r.data()))
    if (query !== this.input.value.trim()) return
    this.list.replaceChildren(...data.map((d, i) => resultNode(d, 'qs-result-' + i)))
    this.input.setAttribute('aria-expanded', String(data.length > 0))
    this.select(-1)
    const n = found.results.length
    this.status.textContent = !query ? '' : n ? `${n} result${n === 1 ? '' : 's'}${n > SHOWN ? `, the first ${SHOWN} shown` : ''}` : `No results for “${query}”.`
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

let dialog = null

// Opens the dialog, taking over what was typed into the header's search box while it loaded (bf.js).
export function open (bf) {
  const header = document.querySelector('header input[type=search]')
  const typed = header && document.activeElement === header ? header.value : ''
  if (typed) header.value = ''
  if (!dialog) dialog = new QuickSearch(bf)
  dialog.open(typed)
}
