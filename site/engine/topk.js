// Ranking for searches without phrases: twin of builder/query/topk.py (one check per note
// rather than one item per hit). search.js candidates() is the reference both runtimes share
// for searches with phrases; parity tests compare the paths. A query of many postings whose
// kept hits all pass is ranked by bounds (bm25/blocks.js): only the l/ files that may hold one
// of the first items are fetched (topk.py says why the items are the same).
import { NOTE_KINDS, RECORD_KINDS } from './scopes.js'
import { sortedBy } from './order.js'
import { blocked } from './bm25/blocks.js'

// Whether every doc of the kept index groups passes the filters: then rankedTop checks no item,
// and the vector arm may add its own candidates (topk.py own_candidates).
export const ownCandidates = (scope, type, path) =>
  ['none', 'memories', 'source'].includes(scope.kind) && scope.period === null && scope.brain === null &&
  type === null && path === null

// The index groups (records: their source; notes and sections: '') whose hits can survive the
// scope, or null for all (read keep_groups in topk.py for when a dropped hit narrows).
export function keepGroups (scope, store, type, path) {
  if (NOTE_KINDS.includes(scope.kind)) return new Set([''])
  if ((scope.kind === 'source' || scope.kind === 'undated') && type === null && path === null) return new Set([scope.value])
  if (RECORD_KINDS.includes(scope.kind)) return new Set(Object.keys(store.meta.records || {}))
  return null
}

// [the first `limit` ranked [entry, score, count, tier], how many in all, whether the scope
// dropped a hit] without an item per hit, for searches without phrases: topk.py ranked_top (its
// docstring says why it gives search.js candidates' items, order and total). `check(store, id,
// group, owner)`: null when the item of doc `id` (in index group `group`, ranking as doc
// `owner`) passes the filters, else whether its refusal narrows; `order`: search.js order.
// `when`: Map brain -> the span of the date the query names (search.js spans).
export async function rankedTop (stores, words, scope, type, path, when, limit, check, order) {
  let top = []
  let total = 0
  let narrowed = false
  const trivial = ownCandidates(scope, type, path)
  for (const name of sortedBy([...stores.keys()], (n) => n)) {
    const store = stores.get(name)
    const span = when.get(name) ?? null
    const keep = keepGroups(scope, store, type, path)
    const ranking = trivial && span === null ? await blocked(store.reader, words) : null
    const [part, count, cut] = ranking !== null
      ? await pruned(store, ranking, keep, limit)
      : await walked(store, words, span, keep, limit, check, trivial)
    top = top.concat(part)
    total += count
    narrowed = narrowed || cut
  }
  return [sortedBy(top, order).slice(0, limit), total, narrowed]
}

// rankedTop of one brain over every hit: [its items, its total, whether the scope dropped a hit].
async function walked (store, words, span, keep, limit, check, trivial) {
  const top = []
  let total = 0
  const reader = store.reader
  let hits = await reader.searchIds(words, false, null, span)
  const groupOf = await reader.grouper()
  const n = hits.length
  if (keep !== null) hits = hits.filter((h) => keep.has(groupOf(h.id)[0]))
  let narrowed = hits.length < n
  // a section ranks as its note; a record as itself (record scopes skip the owner files)
  const owned = keep === null || keep.has('') ? await reader.owners(hits.map((h) => h.id)) : hits.map((h) => h.id)
  const owners = new Map(hits.map((h, k) => [h.id, owned[k]]))
  const owner = (id) => owners.get(id)
  if (trivial) total += new Set(hits.map((h) => owner(h.id))).size
  const seen = new Set()
  let fresh = 0
  for (const { id, score, matched, tier } of hits) {
    const key = owner(id)
    if (seen.has(key)) continue
    seen.add(key)
    const why = trivial ? null : await check(store, id, groupOf(id)[0], key)
    if (why !== null) {
      narrowed = narrowed || why
      continue
    }
    if (!trivial) total += 1
    if (fresh < limit) {
      const entry = await store.candidate(id, key)
      top.push([entry, score, matched.length, tier])
      if (!entry.deprecated) fresh += 1
    } else if (trivial) break
  }
  return [top, total, narrowed]
}

// rankedTop of one brain, trivial, over a bm25/blocks.js Blocked ranking (topk.py _pruned): the
// total and whether the scope dropped a hit from every hit's id; the items from the hits of the
// chunks read, reading more until no unread hit may rank before the last item taken.
async function pruned (store, ranking, keep, limit) {
  const groupOf = await store.reader.grouper()
  const kept = keep === null ? null : (d) => keep.has(groupOf(d)[0])
  const held = kept === null ? ranking.every : ranking.every.filter(kept)
  ranking.take(ranking.ahead(null, kept, limit))
  let hits = ranking.hits() // the first chunks' lengths asked with the owners, not after them
  hits.catch(() => {}) // met below
  const owned = keep === null || keep.has('') ? await store.reader.owners(held) : held
  const owners = new Map(held.map((d, k) => [d, owned[k]]))
  for (;;) {
    const [top, last] = await taken(store, await hits, kept, owners, limit)
    const more = ranking.ahead(last, kept, limit)
    if (!more.length) return [top, new Set(owned).size, held.length < ranking.every.length]
    ranking.take(more)
    hits = ranking.hits()
  }
}

// The walk's items over `hits` (those kept(id) admits, one per owner), and the [tier, score, doc
// id] of the item that made `limit` not deprecated (then it stops), else null (topk.py _taken).
async function taken (store, hits, kept, owners, limit) {
  const top = []
  const seen = new Set()
  let fresh = 0
  for (const { id, score, matched, tier } of hits) {
    if (kept !== null && !kept(id)) continue
    const key = owners.get(id)
    if (seen.has(key)) continue
    seen.add(key)
    const entry = await store.candidate(id, key)
    top.push([entry, score, matched.length, tier])
    if (!entry.deprecated) fresh += 1
    if (fresh === limit) return [top, [tier, score, id]]
  }
  return [top, null]
}
