// Reader for the sharded BM25 index written by builder/bm25/index.py (format in builder/bm25/FORMAT.md).
// Twin of builder/bm25/reader.py: same tokens, same numbers, bit for bit.
import { packedName, unpack, unpackBytes } from '../packs.js'
import { cmp } from '../order.js'
import { phraseBuckets } from './adjacent.js'
import { analyzePairs } from './pipeline.js'
import { LUNR_FORMAT, WHEN_BOOST, fnv1a } from './scoring.js'
import { bigPosting, makePosting } from './postings.js'

export class FormatError extends Error {}

// Query pairs from pairs, or from words (each analysed).
function asPairs (terms) {
  const out = []
  for (const t of terms) {
    if (typeof t === 'string') out.push(...analyzePairs(t))
    else out.push([t[0], t[1]])
  }
  return out
}

export class IndexReader {
  // baseUrl: folder holding meta.json; fetchFn: optional fetch replacement.
  constructor (baseUrl, fetchFn) {
    this.base = baseUrl.endsWith('/') ? baseUrl : baseUrl + '/'
    this.fetch = fetchFn || ((u) => globalThis.fetch(u))
    this.files = new Map() // rel path -> Promise of parsed JSON (bytes: a b/ file)
    this.terms = new Map() // term -> Promise of posting | null
    this.raws = new Map() // term -> Promise of its unweighed posting | null
    this.names = new Map() // name key -> Promise of Set of doc ids
    this.facets = new Map() // facet -> Promise of Set of doc ids
    this.pairs = new Map() // adjacent-pair bucket -> Promise of Set of doc ids (a/)
    this.instants = new Map() // p/ chunk number -> Promise of its instants, summed
  }

  // The parsed JSON of index file `rel`.
  json (rel) {
    const packed = rel !== 'meta.json' // every other index file is a pack (packs.js)
    return this.load(rel, packed, (r) => packed ? unpack(r) : r.json())
  }

  // The bytes of the pack file of `rel` (a big posting, b/K.bin), as an ArrayBuffer.
  bytes (rel) {
    return this.load(rel, true, unpackBytes)
  }

  // Index file `rel` fetched once (its pack file when `packed`), as `decode` reads the response.
  load (rel, packed, decode) {
    let p = this.files.get(rel)
    if (!p) {
      p = this.fetch(this.base + (packed ? packedName(rel) : rel)).then((r) => {
        if (!r.ok) throw new Error(`bm25: ${rel}: HTTP ${r.status}`)
        return decode(r)
      })
      p.catch(() => this.files.delete(rel))
      this.files.set(rel, p)
    }
    return p
  }

  async meta () {
    const m = await this.json('meta.json')
    if (!m || m.format !== LUNR_FORMAT) {
      throw new FormatError(`index format ${m && m.format !== undefined ? `'${m.format}'` : 'None'}, need '${LUNR_FORMAT}'`)
    }
    return m
  }

  // A function doc id -> [group, position among the group's docs] (meta.json `groups`
  // spans), without any ref file.
  async grouper () {
    const m = await this.meta()
    return (d) => {
      let lo = 0; let hi = m.groups.length
      while (lo < hi) { const mid = (lo + hi) >> 1; if (m.groups[mid][1] <= d) lo = mid + 1; else hi = mid }
      return [m.groups[lo - 1][0], d - m.groups[lo - 1][1]]
    }
  }

  postings (term) {
    return kept(this.terms, term, async () => {
      const fields = await this.raw(term)
      if (!fields) return null
      return makePosting(fields, await this.lengths(fields), await this.meta())
    })
  }

  // A term's posting as [[field, ids, tfs], ...] by field index, unweighed, or null (reader.py raw).
  raw (term) {
    return kept(this.raws, term, async () => {
      const m = await this.meta()
      const table = await this.json(`t/${fnv1a(term) & (m.shards - 1)}.json`)
      if (!Object.prototype.hasOwnProperty.call(table, term)) return null
      const entry = table[term]
      return typeof entry === 'number'
        ? bigPosting(await this.bytes(`b/${entry}.bin`))
        : entry.map(([fi, gaps, tfs]) => {
          const ids = new Array(gaps.length)
          for (let i = 0, d = 0; i < gaps.length; i++) ids[i] = (d += gaps[i])
          return [fi, ids, tfs]
        })
    })
  }

  // Per field of `fields` ([[field, ids, tfs], ...]) its ids' lengths (l/ files), null for a
  // field whose b is 0 (l/ files leave it out).
  async lengths (fields) {
    const m = await this.meta()
    return Promise.all(fields.map(async ([fi, ids]) => m.params[m.fields[fi]].b !== 0
      ? await this.perDoc('l', m.lengthChunk, ids, (chunk, i) => chunk[fi][i])
      : null))
  }

  // Doc ids whose title, an alias or file stem has name key `key`.
  named (key) {
    return kept(this.names, key, async () => {
      if (!key) return new Set()
      const m = await this.meta()
      const table = await this.json(`n/${fnv1a(key) & (m.names - 1)}.json`)
      return new Set(Object.prototype.hasOwnProperty.call(table, key) ? table[key] : [])
    })
  }

  // Each doc id's value in the chunk files kind/N.json of `size` docs, pick(chunk, place in
  // it); loads only the chunks those ids fall in.
  async perDoc (kind, size, ids, pick = (chunk, i) => chunk[i]) {
    const chunks = await Promise.all([...new Set(ids.map((d) => Math.floor(d / size)))]
      .map(async (c) => [c, await this.json(`${kind}/${c}.json`)]))
    const byChunk = new Map(chunks)
    return ids.map((d) => pick(byChunk.get(Math.floor(d / size)), d % size))
  }

  // Refs for doc ids (r/N.json).
  async refs (ids) {
    return this.perDoc('r', (await this.meta()).refChunk, ids)
  }

  // The doc id of `ref`, or null: a bisection of group '' (notes, sections), then of the group
  // of the source before its first colon, each in ref (code point) order (reader.IndexReader.doc).
  async doc (ref) {
    const groups = (await this.meta()).groups
    const colon = ref.indexOf(':')
    for (const name of new Set(['', colon < 0 ? ref : ref.slice(0, colon)])) {
      const span = groups.find((g) => g[0] === name)
      if (!span) continue
      const lo = await this.first(name, (r) => cmp(r, ref) < 0)
      if (lo < span[1] + span[2] && (await this.refs([lo]))[0] === ref) return lo
    }
    return null
  }

  // The first doc id of `group`'s span whose ref is not `before` (true of a head of the span:
  // refs ascend), by bisection (reader.py _first).
  async first (group, before) {
    const span = (await this.meta()).groups.find((g) => g[0] === group)
    if (!span) return 0
    let lo = span[1]; let hi = span[1] + span[2]
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (before((await this.refs([mid]))[0])) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  // [first, end) of the doc ids of `group` whose refs start with `prefix` (reader.py prefixed).
  async prefixed (group, prefix) {
    return [await this.first(group, (r) => cmp(r, prefix) < 0),
      await this.first(group, (r) => cmp(r, prefix) < 0 || r.startsWith(prefix))]
  }

  // The Set of doc ids holding facet `key` (FORMAT.md Facets; meta.json holds `deprecated`; reader.py facet).
  facet (key) {
    return kept(this.facets, key, async () => {
      const m = await this.meta()
      if (key === 'deprecated') return new Set(m.deprecated)
      const table = await this.json(`f/${fnv1a(key) & (m.facets - 1)}.json`)
      const gaps = Object.prototype.hasOwnProperty.call(table, key) ? table[key] : []
      const ids = new Set()
      for (let i = 0, d = 0; i < gaps.length; i++) ids.add(d += gaps[i])
      return ids
    })
  }

  // For each doc id, whether it (a section: its note) holds a pair of each bucket of each
  // phrase's adjacent terms (FORMAT.md a/; reader.py may_hold): if not, it holds no phrase.
  async mayHold (ids, phrases) {
    const m = await this.meta()
    const groupOf = await this.grouper()
    const notes = ids.filter((d) => groupOf(d)[0] === '')
    const owners = new Map((await this.owners(notes)).map((o, k) => [notes[k], o]))
    const buckets = [...new Set(phrases.flatMap((p) => phraseBuckets(p, m.pairBuckets)))]
    const sets = await Promise.all(buckets.map((b) => kept(this.pairs, b, async () => {
      const table = await this.json(`a/${b & (m.adjacent - 1)}.json`)
      const gaps = Object.prototype.hasOwnProperty.call(table, String(b)) ? table[String(b)] : []
      const held = new Set()
      for (let i = 0, d = 0; i < gaps.length; i++) held.add(d += gaps[i])
      return held
    })))
    return ids.map((d) => {
      const owner = owners.has(d) ? owners.get(d) : d
      return sets.every((held) => held.has(owner))
    })
  }

  // Placed instants of doc ids, seconds since 1970 UTC or null (p/N.json: steps from the chunk's
  // last instant before it, summed once per chunk; reader.py placed).
  async placed (ids) {
    const size = (await this.meta()).convChunk
    const chunks = new Map(await Promise.all([...new Set(ids.map((d) => Math.floor(d / size)))].map(async (k) =>
      [k, await kept(this.instants, k, async () => {
        let last = 0
        return (await this.json(`p/${k}.json`)).map((step) => (step === null ? null : (last += step)))
      })])))
    return ids.map((d) => chunks.get(Math.floor(d / size))[d % size])
  }

  // The doc ids doc ids rank as: a section's note, else itself (o/N.json, reader.py owner). Only
  // group '' holds sections: a record's is itself, with no o/ file read (as Python's store reads).
  async owners (ids) {
    const m = await this.meta()
    const notes = m.groups.find((g) => g[0] === '')
    const end = notes ? notes[1] + notes[2] : 0
    const offsets = await this.perDoc('o', m.convChunk, ids.filter((d) => d < end))
    let k = 0
    return ids.map((d) => (d < end ? d - offsets[k++] : d))
  }

  // Conversation numbers for doc ids (c/N.json; 0: a note or section).
  async conversations (ids) {
    return this.perDoc('c', (await this.meta()).convChunk, ids)
  }

  // [{id, score, matched: [folded terms, sorted], tier}]: tier, then score desc, then id
  // asc — reader.IndexReader.search_ids.
  async searchIds (terms, required, limit, when = null) {
    const [groups, bonus, names, present, missing] = await this.gathered(asPairs(terms))
    if ((required && missing) || !present.length) {
      const docs = [...names].sort((x, y) => x - y)
      return (limit != null ? docs.slice(0, limit) : docs).map((d) => ({ id: d, score: 0, matched: [], tier: 0 }))
    }
    const extra = await this.found(bonus)
    return this.rank(present, extra, names, required, present.length === groups.size, groups.size, when, limit)
  }

  // searchIds' inputs: [groups (folded term -> count), bonus terms (exact -> count), named docs,
  // present [{c, f, p}] with p = get(term) (postings unless given), whether a group is missing].
  async gathered (pairs, get = (t) => this.postings(t)) {
    const groups = new Map()
    const bonus = new Map()
    for (const [e, f] of pairs) {
      groups.set(f, (groups.get(f) || 0) + 1)
      if (e !== f) bonus.set(e, (bonus.get(e) || 0) + 1)
    }
    // Named documents are hits of tier 0 even when the name is only their file stem, whose
    // words no indexed text may hold (then with score 0 and no matched term).
    // the name table and the postings asked at once: one after the other they cost a round trip
    const [names, found] = await Promise.all([this.named(pairs.map(([, f]) => f).join(' ')), Promise.all([...groups.keys()].map(get))])
    const present = []
    let i = 0
    for (const [f, c] of groups) {
      const p = found[i++]
      if (p) present.push({ c, f, p })
    }
    return [groups, bonus, names, present, present.length < groups.size]
  }

  // [{c, p}] of the `bonus` terms (term -> count) the index holds, p = get(term).
  async found (bonus, get = (t) => this.postings(t)) {
    const ps = await Promise.all([...bonus.keys()].map(get))
    return [...bonus.values()].map((c, k) => ({ c, p: ps[k] })).filter((e) => e.p)
  }

  // searchIds' hits of the weighed postings `present` ([{c, f, p}], by group) and `extra` (the
  // bonus terms'), the named docs `names`; `whole`: every one of the `n` groups is in the index.
  async rank (present, extra, names, required, whole, n, when, limit) {
    const m = await this.meta()
    // Dense per-doc accumulators, added to in group order, then bonus order (as Python).
    const sums = new Float64Array(m.ids) // by doc id: ids leave room (FORMAT.md Documents)
    const hits = new Uint16Array(m.ids)
    const nameds = new Uint16Array(m.ids)
    const owns = new Uint16Array(m.ids) // groups held in the doc's own text (all-words rule)
    const masks = new Int32Array(m.ids) // bit per term, first 31 terms
    let ids = []
    for (let bit = 0; bit < present.length; bit++) {
      const { c, p } = present[bit]; const b = bit < 31 ? 1 << bit : 0
      for (let j = 0; j < p.ids.length; j++) {
        const d = p.ids[j]
        if (hits[d] === 0) ids.push(d)
        hits[d]++; sums[d] += c * p.ws[j]; masks[d] |= b; nameds[d] += p.named[j]; owns[d] += p.own[j]
      }
    }
    for (const d of names) if (hits[d] === 0) ids.push(d)
    for (const { c, p } of extra) {
      for (let j = 0; j < p.ids.length; j++) if (hits[p.ids[j]]) sums[p.ids[j]] += c * p.ws[j]
    }
    if (required) ids = ids.filter((d) => owns[d] === present.length || names.has(d))
    if (when !== null) { // a date the query names: hits placed in its span weigh more
      const placed = await this.placed(ids)
      ids.forEach((d, k) => { if (placed[k] !== null && when[0] <= placed[k] && placed[k] < when[1]) sums[d] = sums[d] * WHEN_BOOST })
    }
    const tiers = hits // reused: per doc its tier from here on
    for (const d of ids) {
      tiers[d] = names.has(d) ? 0 : !whole ? 3 : nameds[d] === n ? 1 : owns[d] === n ? 2 : 3
    }
    ids.sort((x, y) => (tiers[x] - tiers[y]) || (sums[y] - sums[x]) || (x - y))
    if (limit != null) ids = ids.slice(0, limit)
    const has = present.length <= 31
      ? (d, k) => (masks[d] >>> k) & 1
      : (d, k) => bisect(present[k].p.ids, d)
    const sets = new Map()
    return ids.map((d) => {
      const key = present.length <= 31 ? masks[d] : null
      let s = key === null ? null : sets.get(key)
      if (!s) {
        s = [...new Set(present.filter((e, k) => has(d, k)).map((e) => e.f))].sort()
        if (key !== null) sets.set(key, s)
      }
      return { id: d, score: sums[d], matched: s, tier: tiers[d] }
    })
  }

  // [{ref, score, matched, tier}] like IndexReader.search in Python.
  async search (terms, required, limit, when = null) {
    const items = await this.searchIds(terms, required, limit, when)
    const refs = await this.refs(items.map((it) => it.id))
    return items.map((it, k) => ({ ref: refs[k], score: it.score, matched: it.matched, tier: it.tier }))
  }
}

// make()'s promise for `key`, kept in `cache`; dropped when it fails, so a later call retries.
function kept (cache, key, make) {
  let p = cache.get(key)
  if (!p) {
    p = make()
    p.catch(() => cache.delete(key))
    cache.set(key, p)
  }
  return p
}

function bisect (ids, d) {
  let lo = 0; let hi = ids.length
  while (lo < hi) { const mid = (lo + hi) >> 1; if (ids[mid] < d) lo = mid + 1; else hi = mid }
  return lo < ids.length && ids[lo] === d
}
