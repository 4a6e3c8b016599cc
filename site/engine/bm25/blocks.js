// Exact top-k that reads the l/ chunks of the hits that may rank first (FORMAT.md Block bounds).
// Twin of builder/bm25/blocks.py: its docstring says why the items are those of every hit.
import { makePosting } from './postings.js'

// A query with more (document, field) postings than this is ranked by bounds (blocks.py).
export const BOUND_FROM = 2000

// A Blocked ranking of the query `pairs` ([exact, folded] terms) over `reader`, or null when its
// postings are few (blocks.py blocked).
export async function blocked (reader, pairs) {
  const raw = (t) => reader.raw(t)
  const [groups, bonus, names, present, missing] = await reader.gathered(pairs, raw)
  let size = 0
  for (const { p } of present) for (const [, ids] of p) size += ids.length
  if (!present.length || present.length >= 60 || size <= BOUND_FROM) return null
  const extra = await reader.found(bonus, raw)
  return new Blocked(reader, await reader.meta(), groups.size, !missing, names, present, extra)
}

// One query's hits over one index: `every` (doc ids ascending), their `tiers` and score bounds
// `bounds`; hits() ranks those of the chunks read (blocks.py Blocked).
export class Blocked {
  constructor (reader, m, n, whole, names, present, extra) {
    Object.assign(this, { reader, m, n, whole, names, present, extra, chunk: m.lengthChunk })
    // each posting weighed at its chunk's least length: at least its weight
    const floors = (fields) => fields.map(([fi, ids]) => m.params[m.fields[fi]].b !== 0
      ? ids.map((d) => m.lengthFloors[Math.floor(d / this.chunk)][fi])
      : null)
    const bounds = new Float64Array(m.ids)
    const nameds = new Uint16Array(m.ids)
    const owns = new Uint16Array(m.ids)
    const hit = new Uint8Array(m.ids)
    const every = []
    for (const { c, p } of present) {
      const b = makePosting(p, floors(p), m)
      for (let j = 0; j < b.ids.length; j++) {
        const d = b.ids[j]
        if (!hit[d]) { hit[d] = 1; every.push(d) }
        bounds[d] += c * b.ws[j]; nameds[d] += b.named[j]; owns[d] += b.own[j]
      }
    }
    for (const d of names) if (!hit[d]) { hit[d] = 1; every.push(d) }
    for (const { c, p } of extra) {
      const b = makePosting(p, floors(p), m)
      for (let j = 0; j < b.ids.length; j++) bounds[b.ids[j]] += c * b.ws[j]
    }
    every.sort((x, y) => x - y)
    this.every = every
    this.bounds = every.map((d) => bounds[d])
    this.tiers = every.map((d) => names.has(d) ? 0 : !whole ? 3 : nameds[d] === n ? 1 : owns[d] === n ? 2 : 3)
    this.read = new Uint8Array(Math.ceil(m.ids / this.chunk))
  }

  // The chunks not read that hold a hit (of those keep(id) admits, when given) which may rank
  // before last = [tier, score, doc id]; with last null, those of the first `want` such hits by
  // (tier, bound descending, id) (blocks.py ahead).
  ahead (last, keep = null, want = 0) {
    const { every, tiers, bounds, chunk } = this
    let pick = []
    for (let k = 0; k < every.length; k++) {
      if (!this.read[Math.floor(every[k] / chunk)] && (keep === null || keep(every[k]))) pick.push(k)
    }
    if (last === null) {
      pick = pick.sort((x, y) => (tiers[x] - tiers[y]) || (bounds[y] - bounds[x]) || (x - y)).slice(0, want)
    } else {
      const [tier, score, doc] = last
      pick = pick.filter((k) => tiers[k] < tier ||
        (tiers[k] === tier && (bounds[k] > score || (bounds[k] === score && every[k] < doc))))
    }
    return [...new Set(pick.map((k) => Math.floor(every[k] / chunk)))].sort((x, y) => x - y)
  }

  // Mark `chunks` read: hits() weighs their hits too.
  take (chunks) {
    for (const k of chunks) this.read[k] = 1
  }

  // The reader's searchIds hits (order and values) of the hits in the chunks read.
  async hits () {
    const present = await Promise.all(this.present.map(async ({ c, f, p }) => ({ c, f, p: await this.part(p) })))
    const extra = await Promise.all(this.extra.map(async ({ c, p }) => ({ c, p: await this.part(p) })))
    const names = new Set([...this.names].filter((d) => this.read[Math.floor(d / this.chunk)]))
    return this.reader.rank(present, extra, names, false, this.whole, this.n, null, null)
  }

  // The term's posting over the chunks read, weighed with its whole df (idf as for every hit).
  async part (fields) {
    let df = 0
    for (const [, ids] of fields) df += ids.length
    const sub = fields.map(([fi, ids, tfs]) => {
      const at = []
      for (let i = 0; i < ids.length; i++) if (this.read[Math.floor(ids[i] / this.chunk)]) at.push(i)
      return [fi, at.map((i) => ids[i]), at.map((i) => tfs[i])]
    })
    return makePosting(sub, await this.reader.lengths(sub), this.m, df)
  }
}
