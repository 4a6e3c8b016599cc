// The search page: pagefind's UI for full-text search, and the scoped search of bf.js shown
// as a list. Everything from a reply is rendered as text nodes (never innerHTML).
// search.html runs it as an async module: the full-text tab, the page's default, starts pagefind
// as soon as this file and fulltext.js are here, not after bf.js's module graph; the scoped
// search imports its modules when it first runs (scopedModules).
import { mergedIndexes } from './fulltext.js'

let bf, itemPath, timeNode, stem, tokenize, trim, escapeSegment
let scopedImports = null
function scopedModules () {
  scopedImports ??= Promise.all([import('./bf.js'), import('./links.js'), import('./dates.js'),
    import('./engine/bm25/stemmer.js'), import('./engine/bm25/tokenizer.js'), import('./engine/bm25/trimmer.js'),
    import('./engine/refs.js')]).then(([b, links, dates, stemmer, tokenizer, trimmer, refs]) => {
    bf = b.default
    ;({ itemPath } = links)
    ;({ timeNode } = dates)
    ;({ stem } = stemmer)
    ;({ tokenize } = tokenizer)
    ;({ trim } = trimmer)
    ;({ escapeSegment } = refs)
  })
  return scopedImports
}

const $ = (sel) => document.querySelector(sel)
const params = new URLSearchParams(location.search)

function el (tag, props = {}, ...children) {
  const node = document.createElement(tag)
  for (const [k, v] of Object.entries(props)) {
    if (k === 'class') node.className = v
    else node.setAttribute(k, v)
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child)
  return node
}

// ---- tabs ------------------------------------------------------------------
const tabs = [...document.querySelectorAll('[role=tab]')]
function select (tab) {
  for (const t of tabs) {
    const on = t === tab
    t.setAttribute('aria-selected', String(on))
    t.tabIndex = on ? 0 : -1
    document.getElementById(t.getAttribute('aria-controls')).hidden = !on
  }
  // "/" focuses the visible search field
  for (const f of document.querySelectorAll('[data-bf-search]')) f.removeAttribute('data-bf-search')
  const field = tab.id === 'tab-scoped' ? $('#scoped-q') : $('#pagefind input')
  if (field) field.setAttribute('data-bf-search', '')
  if (tab.id === 'tab-fulltext' && !pagefindStarted) startPagefind()
}
tabs.forEach((tab, i) => {
  tab.addEventListener('click', () => select(tab))
  tab.addEventListener('keydown', (e) => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0
    if (!step) return
    const next = tabs[(i + step + tabs.length) % tabs.length]
    select(next)
    next.focus()
  })
})

// ---- full text (pagefind) -------------------------------------------------------
// The build writes several pagefind bundles, each with one index per page language
// (pagefind/bundles.json lists them): the UI searches one index of the first bundle and
// merges all the others (fulltext.js), so results and filters cover every bundle and language.
function fullTextMissing () {
  $('#pagefind').replaceChildren(el('p', { class: 'empty' },
    'Full-text search is not in this build (it was built with --no-pagefind). Use the scoped search.'))
}

// pagefind's files load when its tab is first shown: a scoped search does not wait behind them.
let pagefindStarted = false
async function startPagefind () {
  pagefindStarted = true
  const holder = $('#pagefind')
  const root = new URL(holder.dataset.bundle.replace(/\/?$/, '/'), document.baseURI).href
  let bundles
  try {
    const reply = await fetch(root + 'bundles.json')
    bundles = reply.ok ? (await reply.json()).bundles.map((b) => ({ url: new URL(b.path, root).href, languages: b.languages })) : []
  } catch { bundles = [] }
  if (!bundles.length) return fullTextMissing()
  // its style is no stylesheet of the page (it would hold back the first paint): the UI is drawn
  // once both its script and its style have loaded, so it never shows unstyled
  const loaded = (node) => new Promise((resolve, reject) => {
    node.addEventListener('load', resolve)
    node.addEventListener('error', reject)
    document.head.append(node)
  })
  const style = loaded(el('link', { rel: 'stylesheet', href: root + 'pagefind-ui.css' }))
  const script = loaded(el('script', { src: root + 'pagefind-ui.js' }))
  Promise.all([script, style.catch(() => null)]).then(() => {
    // result URLs are site paths: the site root is the folder holding pagefind/
    const baseUrl = new URL('..', root).pathname
    // eslint-disable-next-line no-undef
    const ui = new PagefindUI({
      element: '#pagefind', bundlePath: bundles[0].url, baseUrl, showSubResults: true, resetStyles: false,
      // pages carry no images: without this every result card keeps an empty thumbnail column
      showImages: false,
      // a page's instant is for the search dialog's <time datetime> (quicksearch.js): the card shows the day
      processResult: (result) => { delete result.meta.instant; return result },
      mergeIndex: mergedIndexes(bundles, document.documentElement.lang).map((index) => ({ ...index, baseUrl }))
    })
    // pagefind's input is named by its title alone (axe: label-title-only)
    holder.querySelector('input')?.setAttribute('aria-label', 'Search the full text')
    if (params.get('q') && !scopedWanted()) ui.triggerSearch(params.get('q'))
    if ($('#tab-fulltext').getAttribute('aria-selected') === 'true') select($('#tab-fulltext'))
  }, fullTextMissing)
}

// ---- scoped (bf.js) ----------------------------------------------------------------
const scopedWanted = () => ['scope', 'type', 'limit'].some((k) => params.get(k)) || params.get('mode') === 'scoped'

// Where the site shows a result: a record is an anchor on its source's day page (links.js).
function pageUrl (site, item) {
  return new URL(itemPath(site, item), bf.root).href
}

// The excerpt with every word whose stem a query word shares wrapped in <mark>, as DOM nodes.
function highlighted (text, query) {
  const wanted = new Set(tokenize(query).map(([t]) => stem(trim(t))).filter(Boolean))
  const out = document.createDocumentFragment()
  const lower = text.toLowerCase()
  let at = 0
  if (lower.length === text.length) { // positions are only valid when lower-casing kept them
    for (const [token, start, length] of tokenize(text)) {
      if (!wanted.has(stem(trim(token)))) continue
      out.append(text.slice(at, start), el('mark', {}, text.slice(start, start + length)))
      at = start + length
    }
  }
  out.append(text.slice(at))
  return out
}

// `pending`: an item of the lexical ranking shown before the reply (engine/search.js
// rankedItems): its excerpt's line is kept empty, so the list keeps its height when it comes.
function renderItem (site, item, query, pending = false) {
  const badge = el('span', { class: 'badge kind-' + item.kind }, item.kind + (item.type ? ' · ' + item.type : ''))
  const tz = (site.brain(item.brain) || {}).timezone || 'UTC'
  const line = el('span', { class: 'meta' })
  const add = (...parts) => line.append(line.childNodes.length ? ' · ' : ' ', ...parts)
  if (item.source) add(item.source)
  if (item.time) add(timeNode(item.time, tz))
  else if (item.observed) add('observed ', timeNode(item.observed, tz))
  if (item.path && item.kind !== 'record') add(item.path)
  return el('li', { class: 'result kind-' + item.kind, 'data-uri': item.uri },
    el('a', { dir: 'auto', href: pageUrl(site, item) }, item.title || item.ref), ' ', badge,
    line.childNodes.length ? line : null,
    item.excerpt ? el('p', { class: 'excerpt' }, highlighted(item.excerpt, query)) : pending ? el('p', { class: 'excerpt pending' }) : null)
}

function attention (reply) {
  return (reply.sources || []).filter((s) => s.needs_attention)
}

function summary (reply, query, scope) {
  const n = reply.items.length
  const where = scope ? ` in ${scope}` : ''
  if (n) return `${n} result${n === 1 ? '' : 's'} for “${query}”${where}`
  const why = attention(reply).map((s) => `source ${s.source} is ${s.status.replaceAll('_', ' ')}`)
  return `No items${where} match “${query}”` + (why.length ? `; ${why.join('; ')}` : '') + '.'
}

function renderSources (reply) {
  const box = $('#scoped-sources')
  const list = box.querySelector('ul')
  const shown = reply.items.length ? attention(reply) : (reply.sources || [])
  list.replaceChildren(...shown.map((s) => el('li', { class: 'status-' + s.status },
    s.title || s.source, ' ', el('span', { class: 'badge ' + (s.needs_attention ? 'attention' : 'ok') }, s.status),
    s.last_run ? el('span', { class: 'meta' }, ' last run ' + s.last_run) : null,
    s.error ? el('span', { class: 'meta' }, ' — ' + s.error) : null)))
  if (reply.sources_omitted) list.append(el('li', { class: 'meta' }, `${reply.sources_omitted} other source(s) fine`))
  box.hidden = !shown.length
}

// Before any bucket of vectors, the vector arm reads every group's centres
// (meta's `fixed`): ~0.2 MB at 60,000 docs, more on a far bigger brain. Past 1 MB the
// page searches by words first and offers the semantic arm as a choice naming that download;
// bf.search's own default (hybrid) is unchanged, so replies stay Python's.
const FIRST_DOWNLOAD = 1000000

async function vectorBytes (site) {
  let bytes = 0
  for (const brain of site.brainNames()) {
    const meta = await site.loadJson(`_bf/search/${escapeSegment(brain)}/vectors/meta.json`) // the engine's copy
    bytes += (meta && meta.fixed) || 0 // as stored: packed
  }
  return bytes
}

function meaningButton (bytes) {
  const button = el('button', { type: 'button', class: 'meaning' },
    `Also search by meaning (downloads ${(bytes / 1e6).toFixed(1)} MB once)`)
  button.addEventListener('click', () => { params.set('arm', 'hybrid'); runScoped() })
  return button
}

// A reader's pointer or focus on the list: from then on a search's later reply does not reorder it.
let touched = false
let running = 0 // the latest search; an earlier one's replies are dropped
{
  const results = $('#scoped-results')
  for (const type of ['pointerover', 'focusin', 'touchstart']) results.addEventListener(type, () => { touched = true }, { passive: true })
}

// The reply's items in the list: all at once when the reader has not touched the list (the
// ranking's first items replaced once), else the items shown keep their places, given their
// excerpts, and the reply's others follow them.
function showReply (site, results, reply, query) {
  const shown = [...results.children]
  if (!touched || !shown.length) {
    results.replaceChildren(...reply.items.map((item) => renderItem(site, item, query)))
    return
  }
  const byUri = new Map(reply.items.map((item) => [item.uri, item]))
  for (const li of shown) {
    const item = byUri.get(li.dataset.uri)
    byUri.delete(li.dataset.uri)
    const pending = li.querySelector('.excerpt.pending')
    if (pending && item && item.excerpt) pending.replaceWith(el('p', { class: 'excerpt' }, highlighted(item.excerpt, query)))
  }
  results.append(...[...byUri.values()].map((item) => renderItem(site, item, query)))
}

// The search shows the lexical ranking's first items as soon as they are known (titles, links,
// kinds: `early`), then the reply (fused order, excerpts) once their files arrived. A failure (a
// file that did not load names itself) says so and leaves what is shown, links that work.
async function runScoped (event) {
  if (event) event.preventDefault()
  const run = ++running
  const query = $('#scoped-q').value
  const scope = $('#scoped-scope').value.trim()
  const type = $('#scoped-type').value.trim()
  const limit = Number($('#scoped-limit').value || 10)
  const status = $('#scoped-status')
  const results = $('#scoped-results')
  const next = new URLSearchParams({ mode: 'scoped', q: query })
  if (scope) next.set('scope', scope)
  if (type) next.set('type', type)
  if (limit !== 10) next.set('limit', String(limit))
  if (params.get('arm')) next.set('arm', params.get('arm'))
  history.replaceState(null, '', '?' + next)
  status.textContent = 'Searching…'
  status.classList.remove('error')
  results.setAttribute('aria-busy', 'true')
  if (event) { // a new search from the form: the last one's list goes
    results.replaceChildren()
    touched = false
  }
  let site = null
  let settled = false // the reply came, or the search failed: the ranking's first items come too late
  try {
    const options = { limit }
    if (scope) options.scope = scope
    if (type) options.type = type
    await scopedModules()
    site = await bf.site()
    // the search's first files asked now, with the vectors' meta read below: not a round trip after it
    import('./engine/search.js').then((engine) => engine.prefetch(site, null, null)).catch(() => {})
    const bytes = params.get('arm') === 'hybrid' ? 0 : await vectorBytes(site)
    if (bytes > FIRST_DOWNLOAD) options.mode = 'lexical'
    options.early = (items) => {
      if (run !== running || settled || results.children.length) return
      results.replaceChildren(...items.map((item) => renderItem(site, item, query, true)))
      status.textContent = `The first ${items.length} result${items.length === 1 ? '' : 's'} for “${query}”; ranking and excerpts follow…`
    }
    const reply = await bf.search(query, options).finally(() => { settled = true })
    if (run !== running) return
    showReply(site, results, reply, query)
    status.replaceChildren(summary(reply, query, scope))
    if (options.mode === 'lexical') status.append(' ', meaningButton(bytes))
    renderSources(reply)
  } catch (err) {
    if (run !== running) return
    $('#scoped-sources').hidden = true
    settled = true
    const why = err.error || err.message || String(err)
    status.textContent = results.children.length ? `Could not finish the search (${why}); the results shown are the ranking's first, without excerpts.` : why
    status.classList.add('error')
  } finally {
    if (run === running) results.removeAttribute('aria-busy')
  }
}

$('#scoped-form').addEventListener('submit', runScoped)
for (const [field, key] of [['#scoped-q', 'q'], ['#scoped-scope', 'scope'], ['#scoped-type', 'type'], ['#scoped-limit', 'limit']]) {
  if (params.get(key)) $(field).value = params.get(key)
}
if (scopedWanted()) {
  select($('#tab-scoped'))
  if (params.get('q')) runScoped()
} else select($('#tab-fulltext'))
