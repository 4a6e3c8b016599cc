// Reader for the sharded BM25 index written by builder/bm25/index.py (format in builder/bm25/FORMAT.md).
// Twin of builder/bm25/reader.py: same tokens, same numbers, bit for bit.
import { packedName, unpack, unpackBytes } from '../packs.js'
import { cmp } from '../order.js'
import { phraseBuckets } from './adjacent.js'
import { analyzePairs } from './pipeline.js'
import { FORMAT, WHEN_BOOST, fnv1a, idf } from './scoring.js'

export class FormatError extends Error {}

// Fields that add to the score but hold no word for the all-words rule (scoring.CONTEXT).
const CONTEXT = ['neighbours']

// A big posting (b/K.bin, FORMAT.md Big postings) as [[field, ids, tfs], ...]: little-endian
// integers read through a DataView, no parsing (postings.unpack_big).
function bigPosting (buffer) {
  const view = new DataView(buffer)
  const get = [null, (o) => view.getUint8(o), (o) => view.getUint16(o, true), null, (o) => view.getUint32(o, true)]
  const count = get[4](0)
  const out = []
  for (let k = 0, at = 4 + 16 * count; k < count; k++) {
    const [fi, n, first, widths] = [0, 4, 8, 12].map((o) => get[4](4 + 16 * k + o))
    const arrays = [widths & 0xff, widths >> 8].map((w) => {
      const values = new Array(n)
      for (let i = 0; i < n; i++) values[i] = get[w](at + w * i)
      at += Math.ceil(n * w / 4) * 4
      return values
    })
    for (let i = 0, d = first; i < n; i++) arrays[0][i] = (d += arrays[0][i])
    out.push([fi, arrays[0], arrays[1]])
  }
  return out
}

// A term's posting with its weights: ids ascending, ws, named (1 where the doc holds it in a
// `named` field), own (1 where it holds it outside CONTEXT fields), as postings.Posting.
// fields: [[field, ids, tfs], ...]; lens[k]: the lengths of fields[k]'s ids (null for a field
// whose b is 0).
function makePosting (fields, lens, m) {
  let df = 0
  for (const e of fields) df += e[1].length
  const widf = idf(m.docs, df)
  const weighed = []
  for (let k = 0; k < fields.length; k++) {
    const [fi, ids, tfs] = fields[k]
    const lensK = lens[k]
    const field = m.fields[fi]
    const { k1, b, boost } = m.params[field]
    const scale = m.params[field].scale ?? 1 // a weighted field stores tf * scale
    const a = m.docs ? m.lengths[field] / m.docs : 0.0
    const k1p1 = k1 + 1
    const ws = new Array(ids.length)
    for (let i = 0; i < ids.length; i++) {
      const tf = scale !== 1 ? tfs[i] / scale : tfs[i]
      const len = lensK ? lensK[i] : 0 // b * (len / a) is 0 for any len when b is 0
      ws[i] = widf * (k1p1 * tf) / (k1 * (1 - b + b * (len / a)) + tf) * boost
    }
    weighed.push({ named: m.named.includes(field), context: CONTEXT.includes(field), ids, ws })
  }
  let ids, ws
  if (weighed.length === 1) {
    ids = weighed[0].ids; ws = weighed[0].ws
  } else {
    const acc = new Map()
    for (const part of weighed) {
      for (let i = 0; i < part.ids.length; i++) {
        const d = part.ids[i]
        acc.set(d, (acc.has(d) ? acc.get(d) : 0.0) + part.ws[i])
      }
    }
    ids = [...acc.keys()].sort((x, y) => x - y)
    ws = ids.map((d) => acc.get(d))
  }
  const namedSet = new Set()
  for (const part of weighed) if (part.named) for (const d of part.ids) namedSet.add(d)
  const named = new Uint8Array(ids.length)
  for (let i = 0; i < ids.length; i++) named[i] = namedSet.has(ids[i]) ? 1 : 0
  const own = new Uint8Array(ids.length).fill(1)
  if (weighed.some((part) => part.context)) { // else every doc holds it in its own text
    const ownSet = new Set()
    for (const part of weighed) if (!part.context) for (const d of part.ids) ownSet.add(d)
    for (let i = 0; i < ids.length; i++) own[i] = ownSet.has(ids[i]) ? 1 : 0
  }
  return { ids, ws, named, own }
}

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
    if (!m || m.format !== FORMAT) {
      throw new FormatError(`index format ${m && m.format !== undefined ? `'${m.format}'` : 'None'}, need '${FORMAT}'`)
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
    let p = this.terms.get(term)
    if (!p) {
      p = (async () => {
        const m = await this.meta()
        const table = await this.json(`t/${fnv1a(term) & (m.shards - 1)}.json`)
        if (!Object.prototype.hasOwnProperty.call(table, term)) return null
        const entry = table[term]
        const fields = typeof entry === 'number'
          ? bigPosting(await this.bytes(`b/${entry}.bin`))
          : entry.map(([fi, gaps, tfs]) => {
            const ids = new Array(gaps.length)
            for (let i = 0, d = 0; i < gaps.length; i++) ids[i] = (d += gaps[i])
            return [fi, ids, tfs]
          })
        const lens = await Promise.all(fields.map(async ([fi, ids]) => {
          const keeps = m.params[m.fields[fi]].b !== 0 // else l/ files leave it out
          return keeps ? await this.perDoc('l', m.lengthChunk, ids, (chunk, i) => chunk[fi][i]) : null
        }))
        return makePosting(fields, lens, m)
      })()
      p.catch(() => this.terms.delete(term)) // retry after a failed fetch
      this.terms.set(term, p)
    }
    return p
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

  // The doc ids doc ids rank as: a section's note, else itself (o/N.json, reader.py owner).
  async owners (ids) {
    const offsets = await this.perDoc('o', (await this.meta()).convChunk, ids)
    return ids.map((d, k) => d - offsets[k])
  }

  // Conversation numbers for doc ids (c/N.json; 0: a note or section).
  async conversations (ids) {
    return this.perDoc('c', (await this.meta()).convChunk, ids)
  }

  // [{id, score, matched: [folded terms, sorted], tier}]: tier, then score desc, then id
  // asc — reader.IndexReader.search_ids.
  async searchIds (terms, required, limit, when = null) {
    const pairs = asPairs(terms)
    const groups = new Map()
    const bonus = new Map()
    for (const [e, f] of pairs) {
      groups.set(f, (groups.get(f) || 0) + 1)
      if (e !== f) bonus.set(e, (bonus.get(e) || 0) + 1)
    }
    const m = await this.meta()
    // Named documents are hits of tier 0 even when the name is only their file stem, whose
    // words no indexed text may hold (then with score 0 and no matched term).
    const names = await this.named(pairs.map(([, f]) => f).join(' '))
    const found = await Promise.all([...groups.keys()].map((t) => this.postings(t)))
    const present = []
    let missing = false
    let i = 0
    for (const [f, c] of groups) {
      const p = found[i++]
      if (!p) missing = true
      else present.push({ c, f, p })
    }
    if ((required && missing) || !present.length) {
      const docs = [...names].sort((x, y) => x - y)
      return (limit != null ? docs.slice(0, limit) : docs).map((d) => ({ id: d, score: 0, matched: [], tier: 0 }))
    }
    const extra = []
    const bonusFound = await Promise.all([...bonus.keys()].map((t) => this.postings(t)))
    i = 0
    for (const c of bonus.values()) {
      const p = bonusFound[i++]
      if (p) extra.push({ c, p })
    }
    const whole = present.length === groups.size
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
      tiers[d] = names.has(d) ? 0 : !whole ? 3 : nameds[d] === groups.size ? 1 : owns[d] === groups.size ? 2 : 3
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
