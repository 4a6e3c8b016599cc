// Lazy reader of a built site's vector files: twin of builder/query/vectorstore.py (read its
// docstring). The browser fetches table.json, the vocabulary shards of the query's words, the
// table shards of its tokens, the rows of its lexical candidates (each alone, by Range) and the
// buckets it probes (vectorstore.py), each once.
import { WordPiece, shardsOf, words } from './wordpiece.js'
import { sortedBy } from './order.js'
import { packedName, unpackBytes } from './packs.js'

const VECTORS_FORMAT = 'bf-vectors-6' // kernel/formats.py
const ONE = 16 // a weight of 1, in sixteenths (builder/vectors/weights.py ONE)

async function fetchBytes (site, rel) {
  if (!site.vectorFiles) site.vectorFiles = new Map()
  if (!site.vectorFiles.has(rel)) {
    site.vectorFiles.set(rel, fetch(new URL(packedName(rel), site.root)).then(async (r) => (r.ok ? new Int8Array(await unpackBytes(r)) : new Int8Array(0)))
      .catch(() => new Int8Array(0)))
  }
  return site.vectorFiles.get(rel)
}

export class Table {
  constructor (site) {
    this.site = site
    this.meta = {}
    this.pieces = new Set() // the vocabulary shards read into wordpiece's ids
    this.wordpiece = new WordPiece(new Map())
  }

  async open () {
    this.meta = (await this.site.loadJson('_bf/vectors/table.json')) || {}
    return this
  }

  ok () { return this.meta.format === VECTORS_FORMAT }

  // The tokenizer, holding every vocabulary shard `text`'s words need (vectorstore.py _read).
  async read (text) {
    const need = new Set()
    for (const word of words(text)) for (const k of shardsOf(word)) if (!this.pieces.has(k)) need.add(k)
    const shards = await Promise.all([...need].map((k) => this.site.loadJson(`_bf/vectors/v/${k}.json`, true)))
    for (const [tokens, gaps] of shards.map((shard) => shard || [[], []])) {
      let id = 0
      tokens.forEach((token, i) => { id += gaps[i]; this.wordpiece.ids.set(token, id) })
    }
    for (const k of need) this.pieces.add(k)
    return this.wordpiece
  }

  async known (text) { return (await this.read(text)).known(text) }

  // The query's vector in a brain: each token's row times its weight there in sixteenths
  // (`weights`, BrainVectors.weights; a token it does not list weighs ONE), exact integers.
  async query (text, weights) {
    const dims = this.meta.dims
    const total = new Array(dims).fill(0)
    const tokens = (await this.read(text)).tokens(text)
    const shardOf = (token) => `_bf/vectors/t/${Math.floor(token / this.meta.shard)}.bin`
    // every shard asked at once: one after another they cost a round trip each
    await Promise.all([...new Set(tokens.map(shardOf))].map((rel) => fetchBytes(this.site, rel)))
    for (const token of tokens) {
      const shard = await fetchBytes(this.site, shardOf(token))
      const at = (token % this.meta.shard) * dims
      const w = weights.has(token) ? weights.get(token) : ONE
      for (let i = 0; i < dims; i++) total[i] += w * shard[at + i]
    }
    return total
  }
}

// Squared norms of the dims-wide int8 rows of `rows`.
function normsOf (rows, dims) {
  const norms = []
  for (let at = 0; at < rows.length; at += dims) {
    let s = 0
    for (let i = 0; i < dims; i++) s += rows[at + i] * rows[at + i]
    norms.push(s)
  }
  return norms
}

// A file's int8 vectors one after another (it stores them column by column: vectorstore.py _rows).
function rowsOf (columns, dims) {
  const count = columns.length / dims
  const rows = new Int8Array(columns.length)
  for (let d = 0; d < dims; d++) for (let r = 0; r < count; r++) rows[r * dims + d] = columns[d * count + r]
  return rows
}

export class BrainVectors {
  constructor (site, store) {
    this.site = site
    this.store = store
    this.meta = {}
    this.buckets = new Map()
    this.vectors = new Map() // doc id -> Promise of [its int8 vector, its squared norm]
    this.centres = new Map()
  }

  async open () {
    this.meta = (await this.site.loadJson(`${this.store.base}/vectors/meta.json`)) || {}
    return this
  }

  ok () { return this.meta.format === VECTORS_FORMAT }

  // The brain's token weights: token id -> sixteenths, for the tokens weighing less than ONE
  // (weights.json: id gaps, then weights), read once.
  weights () {
    if (!this.weighs) {
      this.weighs = this.site.loadJson(`${this.store.base}/vectors/weights.json`, true).then((data) => {
        const [gaps, weights] = data || [[], []]
        let id = 0
        return new Map(gaps.map((gap, i) => { id += gap; return [id, weights[i]] }))
      })
    }
    return this.weighs
  }

  file (rel) { return fetchBytes(this.site, `${this.store.base}/vectors/${rel}.bin`) }

  // Bucket b of group n: [its vectors one after another, their squared norms, its doc ids]
  // (offsets in the group, then vectors: vectorstore.py block).
  bucket (n, b) {
    const key = `${n}/${b}`
    if (!this.buckets.has(key)) {
      this.buckets.set(key, this.file(key).then((bytes) => {
        const dims = this.meta.dims
        const count = bytes.length / (4 + dims)
        const view = new DataView(bytes.buffer, bytes.byteOffset, 4 * count)
        const first = this.meta.groups[n][1]
        const ids = Array.from({ length: count }, (_, i) => first + view.getUint32(4 * i, true))
        const rows = rowsOf(bytes.subarray(4 * count), dims)
        return [rows, normsOf(rows, dims), ids]
      }))
    }
    return this.buckets.get(key)
  }

  // [doc's int8 vector, its squared norm]: its dims bytes of its group's rows (n/rows.bin),
  // fetched alone (site.js rangeBytes); empty when the file is missing or short. A request that
  // fails throws, as a search file's does.
  at (doc) {
    if (!this.vectors.has(doc)) {
      const [n, i] = this.groupOf(doc)
      const dims = this.meta.dims
      const p = this.site.rangeBytes(`${this.store.base}/vectors/${n}/rows.bin`, i * dims, dims).then((bytes) => {
        const row = bytes !== null && bytes.byteLength === dims ? new Int8Array(bytes) : new Int8Array(0)
        return [row, normsOf(row, dims)[0] || 0]
      })
      p.catch(() => this.vectors.delete(doc))
      this.vectors.set(doc, p)
    }
    return this.vectors.get(doc)
  }

  // [doc's vector, its squared norm] (bf similar's query).
  async row (doc) {
    const [vector, norm] = await this.at(doc)
    return [Array.from(vector), norm]
  }

  // How many docs of `groups` (null: all) the arm may list (a vector, not a section).
  async count (groups) {
    let total = 0
    for (const [group, , , , listable] of this.meta.groups) if (groups === null || groups.has(group)) total += listable
    return total
  }

  // A vector, and not a section (a doc of the notes' group whose ref has an anchor).
  async addable (doc) {
    const [, norm] = await this.at(doc)
    if (!norm) return false
    const [group] = (await this.store.reader.grouper())(doc)
    return Boolean(group) || !(await this.store.reader.refs([doc]))[0].includes('#')
  }

  groupOf (doc) {
    const groups = this.meta.groups
    for (let n = 0; n < groups.length; n++) {
      const [, first, count] = groups[n]
      if (first <= doc && doc < first + count) return [n, doc - first]
    }
    throw new RangeError(String(doc))
  }

  async similarity (q, qq, doc) {
    const [vector, dd] = await this.at(doc)
    if (!qq || !dd) return null
    return dot(q, vector, 0) / (Math.sqrt(qq) * Math.sqrt(dd))
  }

  // The buckets [n, b] of `groups` to scan, centred on the brain's mean as the build assigned them
  // (vectorstore.py _probed).
  async probed (q, qq, groups, probe) {
    const kept = []
    this.meta.groups.forEach((g, n) => { if (groups === null || groups.has(g[0])) kept.push([n, g]) })
    if (probe === null) return kept.flatMap(([n, g]) => Array.from({ length: g[3] }, (_, b) => [n, b]))
    const dims = this.meta.dims
    const top = Math.max(...q.map(Math.abs))
    const mean = this.meta.mean
    const qc = q.map((v, i) => 127 * v - top * mean[i])
    const root = Math.sqrt(dot(qc, qc, 0) || 1)
    let ranked = []
    for (const [n] of kept) this.centre(n) // asked at once, read in group order
    for (const [n] of kept) {
      const [c, norms] = await this.centre(n)
      norms.forEach((cc, b) => ranked.push([dot(qc, c, b * dims) / (root * Math.sqrt(cc)), n, b]))
    }
    ranked = sortedBy(ranked, ([sim, n, b]) => [-sim, n, b])
    return ranked.slice(0, probe).map(([, n, b]) => [n, b])
  }

  // Group n's bucket centres less the brain's mean: [them, their squared norms], read once.
  centre (n) {
    const dims = this.meta.dims
    const mean = this.meta.mean
    if (!this.centres.has(n)) {
      this.centres.set(n, this.file(`${n}/c`).then((rows) => {
        const c = Array.from(rows, (v, i) => v - mean[i % dims])
        return [c, normsOf(c, dims)]
      }))
    }
    return this.centres.get(n)
  }

  // [[similarity, doc]] of the nBest most similar notes and records of `groups` (null: all) in
  // the buckets probed() picks, ties included at the cut, in vector order.
  async nearest (q, qq, groups, nBest, probe = null) {
    const dims = this.meta.dims
    let found = []
    const probed = await this.probed(q, qq, groups, probe)
    const buckets = await Promise.all(probed.map(([n, b]) => this.bucket(n, b))) // at once, read in probe order
    for (const [rows, norms, ids] of buckets) {
      ids.forEach((doc, i) => {
        found.push([dot(q, rows, i * dims) / (Math.sqrt(qq) * Math.sqrt(norms[i])), doc])
      })
    }
    found = sortedBy(found, ([sim, doc]) => [-sim, doc])
    if (found.length > nBest) {
      const cut = found[nBest - 1][0]
      found = found.filter(([sim]) => sim >= cut)
    }
    return found
  }
}

// q · rows[at…at + q.length]: exact integer sums (Python: vectorstore.dot).
export function dot (q, rows, at) {
  let s = 0
  for (let i = 0; i < q.length; i++) s += q[i] * rows[at + i]
  return s
}

// The site's table, read on first use and kept by the site.
export async function table (site) {
  if (!site.vectorTable) site.vectorTable = new Table(site).open()
  return site.vectorTable
}

// A brain's document vectors, kept by its store.
export async function brainVectors (site, store) {
  if (!store.vectors) store.vectors = new BrainVectors(site, store).open()
  return store.vectors
}
