// bf search in the browser: twin of builder/query/search.py (read its docstring for the rules
// and orders). Same items, order, fields and scores as Python for the same built site.
import * as refs from './refs.js'
import { invalidInput, pyRepr } from './errors.js'
import { analyzeQueryWord, queryWords } from './lunrindex.js'
import { coverageFields } from './coverage.js'
import { excerpt, hasPhrase } from './excerpt.js'
import { finish, selected } from './read.js'
import { admits, parseScope, window } from './scopes.js'
import { openStore } from './store.js'
import { cmp, sortedBy } from './order.js'

const MAX_QUERY = 4096
const MAX_LIMIT = 50
const get = (obj, key, dflt = null) => (Object.hasOwn(obj, key) ? obj[key] : dflt)

function checkQuery (text) {
  if (typeof text !== 'string') throw invalidInput('query', 'must be a string')
  const n = [...text].length
  if (n > MAX_QUERY) throw invalidInput('query', `longer than ${MAX_QUERY} characters (${n})`)
  return text
}

function checkLimit (limit) {
  if (typeof limit !== 'number' || !Number.isInteger(limit) || !(limit >= 1 && limit <= MAX_LIMIT)) {
    throw invalidInput('limit', `must be a whole number from 1 to ${MAX_LIMIT}, got ${pyRepr(limit)}`)
  }
  return limit
}

function checkText (name, value) {
  if (value !== null && value !== undefined && typeof value !== 'string') throw invalidInput(name, 'must be a string')
  return value ?? null
}

// [words, phrases]: the query's words, and each quoted span's terms in order.
export function parseQuery (text) {
  const phrases = []
  for (const [, span] of text.matchAll(/"([^"]*)"/g)) {
    const terms = queryWords(span).map(analyzeQueryWord).filter(Boolean)
    if (terms.length) phrases.push(terms)
  }
  return [queryWords(text), phrases]
}

async function openStores (site, brains) {
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

async function entryOf (store, ref, notes, records) {
  if (notes) {
    const found = await store.noteEntry(ref)
    if (found !== null) return found
  }
  return records && refs.isRecordLike(ref) ? store.recordEntry(ref) : null
}

const joinPieces = (pieces) => pieces.filter(Boolean).join(' ') // views/search.join_pieces

async function textOf (store, entry) {
  const data = await store.text(entry)
  if (entry.kind === 'record') return data
  const pieces = data.pieces || []
  if (entry.kind === 'section') return joinPieces(pieces.slice(entry.section[2], entry.section[3]))
  return joinPieces(pieces)
}

const pathOf = (entry) => (entry.kind === 'record' ? `memories/${entry.source}/${entry.meta.id}.json` : entry.note)

// [[entry, score, count]] that survive every filter, and whether the scope dropped any hit.
async function candidates (stores, words, phrases, scope, type, path, required, asOf) {
  const kept = []
  let narrowed = false
  for (const name of sortedBy([...stores.keys()], (n) => n)) {
    const store = stores.get(name)
    const info = store.site.brain(name) || {}
    const bounds = window(scope, 'timezone' in info ? info.timezone : 'UTC', asOf)
    for (const { ref, score, matched } of await store.reader.search(words, required)) {
      const entry = await entryOf(store, ref, scope.notes, scope.records)
      if (entry === null) {
        narrowed = narrowed || scope.kind !== 'none'
        continue
      }
      if (type !== null && get(entry.meta, 'type') !== type) continue
      if (path !== null && !pathOf(entry).startsWith(path)) continue
      if (!admits(scope, entry, bounds)) {
        narrowed = true
        continue
      }
      if (phrases.length) {
        const text = await textOf(store, entry)
        if (!phrases.every((p) => hasPhrase(text, p))) continue
      }
      kept.push([entry, score, matched.length])
    }
  }
  return [kept, narrowed]
}

const within = ([entry, score, count]) => [-count, -score, entry.kind === 'note' ? 0 : 1, entry.ref]
const order = ([entry, score, count]) =>
  [entry.kind !== 'record' && get(entry.meta, 'deprecated') ? 1 : 0, -count, -score, entry.brain, entry.ref]

function bestPerNote (kept) {
  const best = new Map()
  for (const cand of kept) {
    const entry = cand[0]
    const key = JSON.stringify([entry.brain, entry.note !== null ? entry.note : entry.ref])
    const cur = best.get(key)
    if (cur === undefined || cmp(within(cand), within(cur)) < 0) best.set(key, cand)
  }
  return sortedBy([...best.values()], order)
}

async function itemOf (store, [entry, score], terms) {
  const meta = entry.meta
  const item = {
    kind: entry.kind, brain: entry.brain, ref: entry.ref, uri: refs.uri(entry.brain, entry.ref), score,
    type: get(meta, 'type'), path: pathOf(entry), tags: get(meta, 'tags', []), fields: get(meta, 'fields', {}),
    entities: get(meta, 'entities', []), modified: get(meta, 'modified')
  }
  const text = await textOf(store, entry)
  if (entry.kind === 'record') {
    Object.assign(item, {
      title: get(meta, 'title', ''), source: entry.source, time: get(meta, 'time'),
      observed: get(meta, 'observed'), excerpt: excerpt(text, terms, text)
    })
  } else if (entry.kind === 'section') {
    Object.assign(item, { title: entry.section[1], excerpt: excerpt(text, terms, text) })
  } else {
    const fallback = (await store.text(entry)).summary || text
    Object.assign(item, { title: get(meta, 'title', ''), excerpt: excerpt(text, terms, fallback) })
  }
  return item
}

export async function search (site, query, { scope = null, type = null, path = null, limit = 10, brains = null } = {}) {
  const text = checkQuery(query)
  limit = checkLimit(limit)
  type = checkText('type', type)
  path = checkText('path', path)
  const [stores, missing] = await openStores(site, brains)
  const sc = await parseScope(scope, stores)
  const asOf = new Date(site.asOf)
  const [words, phrases] = parseQuery(text)
  let kept = []
  let narrowed = false
  if (words.length) {
    [kept, narrowed] = await candidates(stores, words, phrases, sc, type, path, true, asOf)
    if (!kept.length && new Set(words).size > 1) {
      [kept, narrowed] = await candidates(stores, words, phrases, sc, type, path, false, asOf)
    }
  }
  const ranked = bestPerNote(kept)
  const terms = new Set(words.map(analyzeQueryWord).filter(Boolean))
  const items = []
  for (const cand of ranked.slice(0, limit)) items.push(await itemOf(stores.get(cand[0].brain), cand, terms))
  const reply = {
    query: text, scope: sc.text, as_of: site.asOf, brains: sortedBy([...stores.keys()], (b) => b), items,
    total: ranked.length, scope_empty: sc.kind !== 'none' && !items.length && narrowed
  }
  Object.assign(reply, coverageFields(sc, stores, items))
  return finish('', reply, missing)
}
