// Lazy reader of a built site's vector files: twin of builder/query/vectorstore.py (read its
// docstring). The browser fetches table.json (the vocabulary), the table shards of the query's
// tokens, and the vector files of the index groups it ranks, each once.
import { WordPiece } from './wordpiece.js'
import { sortedBy } from './order.js'
import { packedName, unpackBytes } from './packs.js'

const FORMAT = 'bf-vectors-2' // vectorstore.py FORMAT

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
    this.wordpiece = new WordPiece([])
  }

  async open () {
    this.meta = (await this.site.loadJson('_bf/vectors/table.json')) || {}
    this.wordpiece = new WordPiece(this.meta.vocab || [])
    return this
  }

  ok () { return this.meta.format === FORMAT }

  // The query's vector (exact integers).
  async query (text) {
    const dims = this.meta.dims
    const total = new Array(dims).fill(0)
    for (const token of this.wordpiece.tokens(text)) {
      const shard = await fetchBytes(this.site, `_bf/vectors/t/${Math.floor(token / this.meta.shard)}.bin`)
      const at = (token % this.meta.shard) * dims
      for (let i = 0; i < dims; i++) total[i] += shard[at + i]
    }
    return total
  }
}

export class BrainVectors {
  constructor (site, store) {
    this.site = site
    this.store = store
    this.meta = {}
    this.blocks = new Map()
  }

  async open () {
    this.meta = (await this.site.loadJson(`${this.store.base}/vectors/meta.json`)) || {}
    return this
  }

  ok () { return this.meta.format === FORMAT }

  // File n's vectors and their squared norms.
  async block (n) {
    if (!this.blocks.has(n)) {
      this.blocks.set(n, fetchBytes(this.site, `${this.store.base}/vectors/${n}.bin`).then((rows) => {
        const dims = this.meta.dims
        const norms = []
        for (let at = 0; at < rows.length; at += dims) {
          let s = 0
          for (let i = 0; i < dims; i++) s += rows[at + i] * rows[at + i]
          norms.push(s)
        }
        return [rows, norms]
      }))
    }
    return this.blocks.get(n)
  }

  // Doc ids of sections (never listed by the arm), computed once.
  sectionSet () {
    if (!this.sectionIds) {
      this.sectionIds = new Set()
      for (const [first, count] of this.meta.sections) for (let d = first; d < first + count; d++) this.sectionIds.add(d)
    }
    return this.sectionIds
  }

  // [doc's vector, its squared norm] (bf similar's query).
  async row (doc) {
    const [n, i] = this.fileOf(doc)
    const [rows, norms] = await this.block(n)
    const dims = this.meta.dims
    return [Array.from(rows.subarray(i * dims, (i + 1) * dims)), norms[i]]
  }

  // How many docs of `groups` (null: all) the arm may list (a vector, not a section).
  async count (groups) {
    let total = 0
    const files = this.meta.files
    for (let n = 0; n < files.length; n++) {
      const [group, first, count] = files[n]
      if (groups !== null && !groups.has(group)) continue
      const [, norms] = await this.block(n)
      for (let i = 0; i < count; i++) if (norms[i] && !this.sectionSet().has(first + i)) total++
    }
    return total
  }

  async addable (doc) {
    const [n, i] = this.fileOf(doc)
    const [, norms] = await this.block(n)
    return Boolean(norms[i]) && !this.sectionSet().has(doc)
  }

  fileOf (doc) {
    const files = this.meta.files
    for (let n = 0; n < files.length; n++) {
      const [, first, count] = files[n]
      if (first <= doc && doc < first + count) return [n, doc - first]
    }
    throw new RangeError(String(doc))
  }

  async similarity (q, qq, doc) {
    const [n, i] = this.fileOf(doc)
    const [rows, norms] = await this.block(n)
    const dd = norms[i]
    if (!qq || !dd) return null
    return dot(q, rows, i * this.meta.dims) / (Math.sqrt(qq) * Math.sqrt(dd))
  }

  // [[similarity, doc]] of the nBest most similar notes and records of `groups` (null: all),
  // ties included at the cut, in vector order.
  async nearest (q, qq, groups, nBest) {
    const sections = this.sectionSet()
    let found = []
    const files = this.meta.files
    for (let n = 0; n < files.length; n++) {
      const [group, first, count] = files[n]
      if (groups !== null && !groups.has(group)) continue
      const [rows, norms] = await this.block(n)
      for (let i = 0; i < count; i++) {
        if (norms[i] && !sections.has(first + i)) {
          found.push([dot(q, rows, i * this.meta.dims) / (Math.sqrt(qq) * Math.sqrt(norms[i])), first + i])
        }
      }
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
