// bf search in the browser: twin of builder/query/search.py (read its docstring for the rules
// and orders). Same items, order, fields and scores as Python for the same built site.
import * as refs from './refs.js'
import { indexMissing, invalidInput, pyRepr } from './errors.js'
import { FormatError } from './bm25/reader.js'
import { analyze, queryTerms } from './bm25/pipeline.js'
import { coverageFields } from './coverage.js'
import { excerpt, hasPhrase } from './excerpt.js'
import { EXCERPT_CHARS, joinPieces } from './text.js'
import { finish, selected } from './read.js'
import { admits, admitsDoc, parseScope, window } from './scopes.js'
import { seconds } from './listing.js'
import { openStore } from './store.js'
import { parsePeriod } from './periods.js'
import { periodOf } from './when.js'
import { BOOST, people } from './who.js'
import { cmp, sortedBy } from './order.js'
import { POOL, spread } from './spread.js'
import { keepGroups, ownCandidates, rankedTop } from './topk.js'
import { DEPTH, checkMode, fused } from './vector.js'
import { brainVectors, table } from './vectorstore.js'

const MAX_QUERY = 4096
const MAX_LIMIT = 50
const get = (obj, key, dflt = null) => (Object.hasOwn(obj, key) ? obj[key] : dflt)
// What an item copies from its store entry: (field, its value when the entry leaves it out,
// whether recall quotes it). Written from builder/kernel/formats.py by the twins tool.
export const ITEM_FIELDS = [['type', null, true], ['tags', [], true], ['fields', {}, false], ['entities', [], true], ['modified', null, true]] // kernel/formats.py
export const RECORD_FIELDS = [['title', '', true], ['time', null, true], ['observed', null, true]] // kernel/formats.py

function checkQuery (text) {
  if (typeof text !== 'string') throw invalidInput('query', 'must be a string')
  const n = [...text].length
  if (n > MAX_QUERY) throw invalidInput('query', `longer than ${MAX_QUERY} characters (${n})`)
  return text
}

export function checkLimit (limit) {
  if (typeof limit !== 'number' || !Number.isInteger(limit) || !(limit >= 1 && limit <= MAX_LIMIT)) {
    throw invalidInput('limit', `must be a whole number from 1 to ${MAX_LIMIT}, got ${pyRepr(limit)}`)
  }
  return limit
}

function checkText (name, value) {
  if (value !== null && value !== undefined && typeof value !== 'string') throw invalidInput(name, 'must be a string')
  return value ?? null
}

// [words, phrases]: the query's [exact, folded] term pairs, and each quoted span's exact terms
// in order.
export function parseQuery (text) {
  const phrases = []
  for (const [, span] of text.matchAll(/"([^"]*)"/g)) {
    const terms = analyze(span)
    if (terms.length) phrases.push(terms)
  }
  return [queryTerms(text), phrases]
}

// The files a search reads first, asked at once: each brain's availability, its store's and
// index's meta files, and the vector arm's unless the search is lexical. Awaited one after
// another they cost a round trip each, what a phone waits for most; their readers keep them,
// and a failure is met where each is awaited. The search page asks for them too, while it
// settles the search's options (searchpage.js).
export function prefetch (site, brains, mode) {
  const ignore = () => {}
  let chosen
  try {
    [chosen] = selected(site, '', brains)
  } catch {
    return // search() reports the bad brains
  }
  for (const name of chosen) {
    const store = openStore(site, name)
    site.available(name).catch(ignore)
    store.ok().catch(ignore)
    store.reader.meta().catch(ignore)
    if (mode !== 'lexical') brainVectors(site, store).catch(ignore)
  }
  if (mode !== 'lexical') table(site).catch(ignore)
}

export async function openStores (site, brains) {
  const [chosen] = selected(site, '', brains)
  const stores = new Map()
  const missing = []
  for (const name of chosen) {
    const store = openStore(site, name)
    if ((await site.available(name)) && (await store.ok())) stores.set(name, store)
    else missing.push(name)
  }
  return [stores, missing]
}

async function entryOf (store, ref, id, group, pos, scope) {
  if (group) return scope.records ? store.recordHit(ref, id, group, pos) : null
  const entry = scope.notes ? await store.noteEntry(ref) : null
  if (entry !== null) entry.id = id
  return entry
}

// admits() reads a record's meta only for these scopes.
const needsMeta = (scope, bounds) => scope.kind === 'undated' || scope.kind === 'identity' || bounds !== null

async function textOf (store, entry) {
  const data = await store.text(entry)
  if (entry.kind === 'record') return data
  const pieces = data.pieces || []
  if (entry.kind === 'section') return joinPieces(pieces.slice(entry.section[2], entry.section[3]))
  return joinPieces(pieces)
}

// A record's ref is SOURCE:ID.
const pathOf = (entry) => (entry.kind === 'record'
  ? `memories/${entry.source}/${entry.ref.slice(entry.ref.indexOf(':') + 1)}.json`
  : entry.note)

// [first, end) spans of the doc ids of index group `group` whose pathOf starts with `path`
// (search.py _path_spans).
async function pathSpans (store, group, path) {
  if (!group) return [await store.span('', path)]
  const folder = `memories/${group}/`
  if (folder.startsWith(path)) return [await store.span(group, '')]
  if (!path.startsWith(folder)) return []
  const rest = path.slice(folder.length)
  const heads = []
  for (let k = 0; k < rest.length; k++) {
    if ('.json'.startsWith(rest.slice(k))) heads.push(await store.span(group, `${group}:${rest.slice(0, k)}`, true))
  }
  return [await store.span(group, `${group}:${rest}`), ...heads]
}

// check(store, doc, group, owner): null when the item of doc id `doc` passes --type, --path and
// the scope, else whether its refusal narrows, from the index alone (search.py _checker).
function checker (stores, scope, type, path, asOf) {
  const bounds = new Map()
  for (const [name, store] of stores) {
    const info = store.site.brain(name) || {}
    bounds.set(name, window(scope, 'timezone' in info ? info.timezone : 'UTC', asOf, seconds))
  }
  return async (store, doc, group, owner) => {
    if (type !== null && (group || !(await store.reader.facet(`type:${type}`)).has(owner))) return false
    if (path !== null && !(await pathSpans(store, group, path)).some(([lo, hi]) => lo <= owner && owner < hi)) return false
    return scope.kind === 'none' || await admitsDoc(scope, store, doc, group, owner, bounds.get(store.brain)) ? null : true
  }
}

// The verdict of check (checker's) on doc id `doc`, its kind first (search.py _refused).
async function refused (check, store, doc, group, scope) {
  if (!(group ? scope.records : scope.notes)) return scope.kind !== 'none'
  return check(store, doc, group, (await store.reader.owners([doc]))[0])
}

// [[entry, score, count, tier]] that survive every filter, and whether the scope dropped any hit.
// With a phrase, each hit is first asked of the index alone (adjacent pairs, then --type,
// --path and the scope); only one that passes has its ref and entry read and its text checked.
// One that cannot hold the phrase is asked of the scope until the scope has dropped a hit
// (search.py _candidates).
async function candidates (stores, words, phrases, scope, type, path, when, asOf) {
  const kept = []
  let narrowed = false
  const filtered = scope.kind !== 'none' || type !== null || path !== null
  const check = phrases.length && filtered ? checker(stores, scope, type, path, asOf) : null
  const need = phraseTerms(words, phrases)
  for (const name of sortedBy([...stores.keys()], (n) => n)) {
    const store = stores.get(name)
    const info = store.site.brain(name) || {}
    const bounds = window(scope, 'timezone' in info ? info.timezone : 'UTC', asOf)
    const reader = store.reader
    const keep = keepGroups(scope, store, type, path)
    const groupOf = await reader.grouper()
    let hits = []
    for (const hit of await reader.searchIds(words, false, null, when.get(name) ?? null)) {
      const [group, pos] = groupOf(hit.id)
      if (keep !== null && !keep.has(group)) narrowed = true
      else hits.push([hit, group, pos])
    }
    if (phrases.length) { // the index's verdicts, in hit order (search.py: before any entry)
      const may = await reader.mayHold(hits.map(([hit]) => hit.id), phrases)
      const passed = []
      for (let k = 0; k < hits.length; k++) {
        const [{ id }, group] = hits[k]
        if (!may[k] && (narrowed || check === null)) continue
        const verdict = check !== null ? await refused(check, store, id, group, scope) : null
        narrowed = narrowed || Boolean(verdict)
        if (may[k] && verdict === null) passed.push(hits[k])
      }
      hits = passed
    }
    // Ranking a record needs only its id (ids follow ref order), so a record's ref is fetched
    // here only when a filter reads it, else read from its meta chunk for the returned items
    // (refsOf): the ref files of a source's hits are never fetched for a scoped search.
    const wantRef = ([, group]) => !group || path !== null || needsMeta(scope, bounds) || phrases.length > 0
    const hitRefs = await reader.refs(hits.filter(wantRef).map(([hit]) => hit.id))
    let r = 0
    for (let k = 0; k < hits.length; k++) {
      const [{ id, score, matched, tier }, group, pos] = hits[k]
      const entry = await entryOf(store, wantRef(hits[k]) ? hitRefs[r++] : null, id, group, pos, scope)
      if (entry === null) {
        narrowed = narrowed || scope.kind !== 'none'
        continue
      }
      if (type !== null && (group || get(entry.meta, 'type') !== type)) continue // records have no type
      if (path !== null && !pathOf(entry).startsWith(path)) continue
      if (entry.kind === 'record' && needsMeta(scope, bounds)) await store.withMeta(entry)
      if (!admits(scope, entry, bounds)) {
        narrowed = true
        continue
      }
      if (phrases.length) {
        if (!need.every((f) => matched.includes(f))) continue
        const text = await textOf(store, entry)
        if (!phrases.every((p) => hasPhrase(text, p, store.site.words))) continue
      }
      kept.push([entry, score, matched.length, tier])
    }
  }
  return [kept, narrowed]
}

// The query's terms a hit must hold (searchIds' `matched`) to hold its phrases: each exact
// phrase term that folds to itself; a hit without one is spared its text (search.py _phrase_terms).
function phraseTerms (words, phrases) {
  const exact = new Set(phrases.flat())
  return [...new Set(words.filter(([e, f]) => e === f && exact.has(e)).map(([, f]) => f))]
}

// Doc ids stand for refs: within a brain they are in ref (code point) order.
const within = ([entry, score, , tier]) => [tier, -score, entry.kind === 'note' ? 0 : 1, entry.id]
const order = ([entry, score, , tier]) => [entry.deprecated ? 1 : 0, tier, -score, entry.brain, entry.id]

function bestPerNote (kept) {
  const best = new Map()
  for (const cand of kept) {
    const entry = cand[0]
    const key = JSON.stringify([entry.brain, entry.note !== null ? entry.note : entry.id])
    const cur = best.get(key)
    if (cur === undefined || cmp(within(cand), within(cur)) < 0) best.set(key, cand)
  }
  return sortedBy([...best.values()], order)
}

// The ranking spread across conversations (spread.js): a record's conversation is its source
// and its number there in the index (c/N.json), a note's (or section's) its note, by doc id (o/N.json).
// block(cand): the part of the rank key before the score (the lexical ranking's: order's first two).
async function spreadRanked (stores, ranked, block = (cand) => order(cand).slice(0, 2)) {
  const pool = ranked.slice(0, POOL)
  const keys = []
  for (const [name, store] of stores) {
    const at = pool.flatMap(([entry], i) => (entry.kind === 'record' && entry.brain === name ? [i] : []))
    const notes = pool.flatMap(([entry], i) => (entry.kind !== 'record' && entry.brain === name ? [i] : []))
    const [numbers, owners] = await Promise.all([store.reader.conversations(at.map((i) => pool[i][0].id)),
      store.reader.owners(notes.map((i) => pool[i][0].id))])
    at.forEach((i, k) => { keys[i] = JSON.stringify([name, 'record', pool[i][0].source, numbers[k]]) })
    notes.forEach((i, k) => { keys[i] = JSON.stringify([name, 'note', owners[k]]) })
  }
  return spread(ranked, keys, block)
}

// [the first `limit` ranked candidates, how many in all, whether the scope dropped a hit]
// (search.py _top): without phrases, topk.js rankedTop checks one item per note and stops at
// `limit`, so a search reads the note metadata and refs of what it ranks, not of every hit.
async function topOf (stores, words, phrases, scope, type, path, when, asOf, limit) {
  if (!phrases.length) return rankedTop(stores, words, scope, type, path, when, limit, checker(stores, scope, type, path, asOf), order)
  const [kept, narrowed] = await candidates(stores, words, phrases, scope, type, path, when, asOf)
  const best = bestPerNote(kept)
  return [best.slice(0, limit), best.length, narrowed]
}

// `top` (the ranked pool) with the score of each item naming one of the identities `keys`
// (who.js) times BOOST, ranked again; a section by its note's identities (search.py _named).
async function named (stores, keys, top) {
  if (!keys.length) return top
  const owners = top.map(([entry]) => entry.id)
  const held = new Map()
  for (const [name, store] of stores) {
    const ids = new Set()
    for (const k of keys) for (const d of await store.reader.facet(`entity:${k}`)) ids.add(d)
    held.set(name, ids)
    const notes = top.flatMap(([entry], i) => (entry.kind !== 'record' && entry.brain === name ? [i] : []))
    const of = await store.reader.owners(notes.map((i) => top[i][0].id))
    notes.forEach((i, k) => { owners[i] = of[k] })
  }
  const weighed = top.map((c, i) => (held.get(c[0].brain).has(owners[i]) ? [c[0], c[1] * BOOST, ...c.slice(2)] : c))
  return sortedBy(weighed, order)
}

// The refs and metadata of the items a ranking will likely show, asked while it is spread across
// conversations (rankedItems and the reply read them from the readers that keep them).
function warmItems (stores, top) {
  const entries = top.map(([entry]) => entry)
  refsOf(stores, entries).then(() => Promise.all(entries.filter((e) => e.kind === 'record').map((e) => stores.get(e.brain).withMeta(e))))
    .catch(() => {})
}

// [the first `limit` candidates, ranked and spread across conversations, how many in all,
// whether the scope dropped a hit] (search.py _ranked); the first `shown` are read ahead (warmItems).
async function ranked (stores, words, phrases, scope, type, path, when, asOf, limit, keys, shown) {
  const [top, total, narrowed] = await topOf(stores, words, phrases, scope, type, path, when, asOf, POOL)
  warmItems(stores, top.slice(0, shown))
  return [(await spreadRanked(stores, await named(stores, keys, top))).slice(0, limit), total, narrowed]
}

// Map brain -> [start, end) in seconds of the period a query names, in each brain's timezone
// (search.py spans).
export function spans (stores, period, asOf) {
  const out = new Map()
  if (period === null) return out
  for (const [name, store] of stores) {
    const info = store.site.brain(name) || {}
    let parsed
    try {
      parsed = parsePeriod(period, 'timezone' in info ? info.timezone : 'UTC', asOf)
    } catch (e) {
      return new Map()
    }
    if (parsed !== null) out.set(name, [seconds(parsed[1]), seconds(parsed[2])])
  }
  return out
}

// Fill in the refs candidates() and rankedTop left out.
export async function refsOf (stores, entries) {
  await Promise.all(entries.filter((e) => e.ref === null).map((e) => stores.get(e.brain).withRef(e)))
}

// Each of `fields` from a store entry, else the value it stands for, a fresh one (twin of copied).
export function copied (meta, fields) {
  const out = {}
  for (const [name, dflt] of fields) out[name] = Object.hasOwn(meta, name) ? meta[name] : structuredClone(dflt)
  return out
}

export async function itemOf (store, [entry, score, lexicalScore, similarity], terms) {
  if (entry.kind === 'record') await store.withMeta(entry)
  const meta = entry.meta
  const item = {
    kind: entry.kind, brain: entry.brain, ref: entry.ref, uri: refs.uri(entry.brain, entry.ref), score,
    lexical_score: lexicalScore, similarity, path: pathOf(entry), ...copied(meta, ITEM_FIELDS)
  }
  const text = await textOf(store, entry)
  if (entry.kind === 'record') {
    Object.assign(item, copied(meta, RECORD_FIELDS), {
      source: entry.source, excerpt: excerpt(text, terms, text, EXCERPT_CHARS, store.site.words)
    })
  } else if (entry.kind === 'section') {
    Object.assign(item, { title: entry.section[1], excerpt: excerpt(text, terms, text, EXCERPT_CHARS, store.site.words) })
  } else {
    const fallback = (await store.text(entry)).summary || text
    Object.assign(item, { title: get(meta, 'title', ''), excerpt: excerpt(text, terms, fallback, EXCERPT_CHARS, store.site.words) })
  }
  return item
}

// The first `top` of the lexical ranking as items without their excerpts (kind, title, where it
// lives), for a page to show while the vector arm and the excerpts' files load: the browser's
// alone (searchpage.js), Python answers at once. Reads only what the reply reads too.
async function rankedItems (stores, top) {
  const entries = top.map(([entry]) => entry)
  await refsOf(stores, entries)
  await Promise.all(entries.filter((e) => e.kind === 'record').map((e) => stores.get(e.brain).withMeta(e)))
  return entries.map((entry) => {
    const meta = entry.meta || {}
    const item = {
      kind: entry.kind, brain: entry.brain, ref: entry.ref, uri: refs.uri(entry.brain, entry.ref),
      type: get(meta, 'type'), path: pathOf(entry), title: entry.kind === 'section' ? entry.section[1] : get(meta, 'title', '')
    }
    if (entry.kind === 'record') Object.assign(item, { source: entry.source, time: get(meta, 'time'), observed: get(meta, 'observed') })
    return item
  })
}

// `early(items)`, when given, is called once with rankedItems of the lexical ranking's first
// `limit`, before fusion and excerpts (which wait for it); the reply is the same with or without it.
export async function search (site, query, { scope = null, type = null, path = null, limit = 10, brains = null, mode = null, early = null } = {}) {
  const text = checkQuery(query)
  limit = checkLimit(limit)
  type = checkText('type', type)
  path = checkText('path', path)
  prefetch(site, brains, mode)
  const [stores, missing] = await openStores(site, brains)
  const sc = await parseScope(scope, stores)
  const asOf = new Date(site.asOf)
  const [words, phrases] = parseQuery(text)
  const [arm, hasVectors] = await checkMode(mode, site, stores)
  const depth = arm === 'lexical' ? limit : Math.max(limit, DEPTH)
  let top = []
  let total = 0
  let narrowed = false
  try {
    if (words.length && !(arm === 'semantic' && ownCandidates(sc, type, path))) {
      const when = spans(stores, periodOf(text), asOf)
      // a page that shows the first items early reads them anyway: start while the ranking is spread
      ;[top, total, narrowed] = await ranked(stores, words, phrases, sc, type, path, when, asOf, depth, people(text), early === null ? 0 : limit)
    }
  } catch (e) { // a site built by an older bf: its index is another format
    if (e instanceof FormatError) throw indexMissing(String(site.root), `search index: ${e.message}`)
    throw e
  }
  // the first items shown before the vector arm asks for its files: on a phone they share the
  // bandwidth, and the reader waits for the first
  if (early !== null && top.length) await rankedItems(stores, top.slice(0, limit)).then(early).catch(() => {}) // the reply whatever they did
  let scored = top.map((c) => [c[0], c[1], c[1], null])
  if (arm !== 'lexical') { // fuse after the lexical ranking: the vector arm re-ranks its candidates
    const admit = phrases.length
      ? async (entry) => {
        await refsOf(stores, [entry])
        const text = await textOf(stores.get(entry.brain), entry)
        return phrases.every((p) => hasPhrase(text, p, stores.get(entry.brain).site.words))
      }
      : null
    ;[scored, total] = await fused(arm, site, stores, text, top, total, new Set(words.map(([, f]) => f)).size,
      limit, sc, type, path, (ranked, block) => spreadRanked(stores, ranked, block), admit)
  }
  const terms = new Set(words.flat())
  const shown = scored.slice(0, limit)
  await refsOf(stores, shown.map((cand) => cand[0]))
  // every item's files asked at once (its text, a record's meta): one after another they were
  // a round trip each
  const items = await Promise.all(shown.map((cand) => itemOf(stores.get(cand[0].brain), cand, terms)))
  const reply = {
    query: text, scope: sc.text, as_of: site.asOf, brains: sortedBy([...stores.keys()], (b) => b), items,
    total, scope_empty: sc.kind !== 'none' && !items.length && narrowed,
    arms: { hybrid: ['lexical', 'vector'], lexical: ['lexical'], semantic: ['vector'] }[arm], degraded: !hasVectors
  }
  Object.assign(reply, coverageFields(sc, stores, items))
  return finish(site, '', reply, missing)
}
