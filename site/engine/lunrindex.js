// Reader for the sharded lunr-compatible index written by
// builder/lunrjs/index.py (format in builder/lunrjs/FORMAT.md). Dependency
// free; the pipeline pieces are copied from lunr.js 2.3.9 (MIT, Oliver
// Nightingale) so results equal the Python reader's bit for bit.

// ---- lunr.js 2.3.9 pipeline -------------------------------------------
export const separator = /[\s\-]+/

export const STOP_WORDS = new Set(('a able about across after all almost also am among an and any are as at be ' +
  'because been but by can cannot could dear did do does either else ever every for from get got had has have he ' +
  'her hers him his how however i if in into is it its just least let like likely may me might most must my ' +
  'neither no nor not of off often on only or other our own rather said say says she should since so some than ' +
  'that the their them then there these they this tis to too twas us wants was we were what when where which ' +
  'while who whom why will with would yet you your').split(' '))

// lunr.tokenizer: lower-cased tokens with [start, length] in UTF-16 units.
export function tokenize (text) {
  const str = String(text).toLowerCase()
  const out = []
  for (let end = 0, start = 0; end <= str.length; end++) {
    if (end === str.length || separator.test(str.charAt(end))) {
      if (end > start) out.push([str.slice(start, end), start, end - start])
      start = end + 1
    }
  }
  return out
}

export function trim (s) {
  return s.replace(/^\W+/, '').replace(/\W+$/, '')
}

export const stem = (function () {
  const step2list = {
    ational: 'ate', tional: 'tion', enci: 'ence', anci: 'ance', izer: 'ize', bli: 'ble', alli: 'al', entli: 'ent',
    eli: 'e', ousli: 'ous', ization: 'ize', ation: 'ate', ator: 'ate', alism: 'al', iveness: 'ive', fulness: 'ful',
    ousness: 'ous', aliti: 'al', iviti: 'ive', biliti: 'ble', logi: 'log'
  }
  const step3list = { icate: 'ic', ative: '', alize: 'al', iciti: 'ic', ical: 'ic', ful: '', ness: '' }
  const c = '[^aeiou]'; const v = '[aeiouy]'; const C = c + '[^aeiouy]*'; const V = v + '[aeiou]*'
  const reMgr0 = new RegExp('^(' + C + ')?' + V + C)
  const reMeq1 = new RegExp('^(' + C + ')?' + V + C + '(' + V + ')?$')
  const reMgr1 = new RegExp('^(' + C + ')?' + V + C + V + C)
  const reSV = new RegExp('^(' + C + ')?' + v)
  const re1a = /^(.+?)(ss|i)es$/; const re21a = /^(.+?)([^s])s$/
  const re1b = /^(.+?)eed$/; const re21b = /^(.+?)(ed|ing)$/
  const re1b2 = /.$/; const re21b2 = /(at|bl|iz)$/
  const re31b2 = new RegExp('([^aeiouylsz])\\1$'); const re41b2 = new RegExp('^' + C + v + '[^aeiouwxy]$')
  const re1c = /^(.+?[^aeiou])y$/
  const re2 = /^(.+?)(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism|iveness|fulness|ousness|aliti|iviti|biliti|logi)$/
  const re3 = /^(.+?)(icate|ative|alize|iciti|ical|ful|ness)$/
  const re4 = /^(.+?)(al|ance|ence|er|ic|able|ible|ant|ement|ment|ent|ou|ism|ate|iti|ous|ive|ize)$/
  const re24 = /^(.+?)(s|t)(ion)$/
  const re5 = /^(.+?)e$/; const re51 = /ll$/; const re35 = new RegExp('^' + C + v + '[^aeiouwxy]$')

  return function (w) {
    let fp, st
    if (w.length < 3) return w
    const firstch = w.substr(0, 1)
    if (firstch === 'y') w = firstch.toUpperCase() + w.substr(1)
    if (re1a.test(w)) w = w.replace(re1a, '$1$2')
    else if (re21a.test(w)) w = w.replace(re21a, '$1$2')
    if (re1b.test(w)) {
      fp = re1b.exec(w)
      if (reMgr0.test(fp[1])) w = w.replace(re1b2, '')
    } else if (re21b.test(w)) {
      fp = re21b.exec(w); st = fp[1]
      if (reSV.test(st)) {
        w = st
        if (re21b2.test(w)) w = w + 'e'
        else if (re31b2.test(w)) w = w.replace(re1b2, '')
        else if (re41b2.test(w)) w = w + 'e'
      }
    }
    if (re1c.test(w)) { fp = re1c.exec(w); w = fp[1] + 'i' }
    if (re2.test(w)) { fp = re2.exec(w); if (reMgr0.test(fp[1])) w = fp[1] + step2list[fp[2]] }
    if (re3.test(w)) { fp = re3.exec(w); if (reMgr0.test(fp[1])) w = fp[1] + step3list[fp[2]] }
    if (re4.test(w)) {
      fp = re4.exec(w); if (reMgr1.test(fp[1])) w = fp[1]
    } else if (re24.test(w)) {
      fp = re24.exec(w); st = fp[1] + fp[2]; if (reMgr1.test(st)) w = st
    }
    if (re5.test(w)) {
      fp = re5.exec(w); st = fp[1]
      if (reMgr1.test(st) || (reMeq1.test(st) && !re35.test(st))) w = st
    }
    if (re51.test(w) && reMgr1.test(w)) w = w.replace(re1b2, '')
    if (firstch === 'y') w = firstch.toLowerCase() + w.substr(1)
    return w
  }
})()

// Index-time terms (tokenize, trim, stop words, stem; empty tokens dropped).
export function analyze (text) {
  const out = []
  for (const [tok] of tokenize(text)) {
    const t = trim(tok)
    if (t && !STOP_WORDS.has(t)) out.push(stem(t))
  }
  return out
}

// Prose -> query words (no stemming: search() stems).
export function queryWords (text) {
  const out = []
  for (const [tok] of tokenize(text)) {
    const t = trim(tok)
    if (t && !STOP_WORDS.has(t)) out.push(t)
  }
  return out
}

export const analyzeQueryWord = (word) => stem(String(word).toLowerCase())

// ---- index reader -----------------------------------------------------
function bisect (ids, d) {
  let lo = 0; let hi = ids.length
  while (lo < hi) { const mid = (lo + hi) >> 1; if (ids[mid] < d) lo = mid + 1; else hi = mid }
  return lo < ids.length && ids[lo] === d
}

const encoder = new TextEncoder()

export function fnv1a (term) {
  let h = 0x811c9dc5
  for (const byte of encoder.encode(term)) h = Math.imul(h ^ byte, 0x01000193) >>> 0
  return h
}

export class LunrIndex {
  // baseUrl: folder holding meta.json; fetchFn: optional fetch replacement.
  constructor (baseUrl, fetchFn) {
    this.base = baseUrl.endsWith('/') ? baseUrl : baseUrl + '/'
    this.fetch = fetchFn || ((u) => globalThis.fetch(u))
    this.files = new Map() // rel path -> Promise of parsed JSON
    this.terms = new Map() // term -> Promise of {ids, ks} | null
  }

  json (rel) {
    let p = this.files.get(rel)
    if (!p) {
      p = this.fetch(this.base + rel).then((r) => {
        if (!r.ok) throw new Error(`lunrindex: ${rel}: HTTP ${r.status}`)
        return r.json()
      })
      p.catch(() => this.files.delete(rel))
      this.files.set(rel, p)
    }
    return p
  }

  async meta () {
    const m = await this.json('meta.json')
    if (m.format !== 'bf-lunr-2') throw new Error('lunrindex: unknown format ' + m.format)
    return m
  }

  // A function doc id -> [group, position among the group's docs] (meta.json `groups`
  // runs), without any ref file.
  async grouper () {
    const m = await this.meta()
    const starts = []
    const before = [] // docs of the same group in earlier runs
    const seen = new Map()
    let start = 0
    for (const [name, count] of m.groups) {
      starts.push(start)
      before.push(seen.get(name) || 0)
      seen.set(name, (seen.get(name) || 0) + count)
      start += count
    }
    return (d) => {
      let lo = 0; let hi = starts.length
      while (lo < hi) { const mid = (lo + hi) >> 1; if (starts[mid] <= d) lo = mid + 1; else hi = mid }
      return [m.groups[lo - 1][0], before[lo - 1] + d - starts[lo - 1]]
    }
  }

  postings (term) {
    let p = this.terms.get(term)
    if (!p) {
      p = (async () => {
        const m = await this.meta()
        const table = await this.json(`t/${fnv1a(term) & (m.shards - 1)}.json`)
        if (!Object.prototype.hasOwnProperty.call(table, term)) return null
        let entry = table[term]
        if (typeof entry === 'number') entry = await this.json(`b/${entry}.json`)
        const [gaps, ks] = entry
        const ids = new Array(gaps.length)
        for (let i = 0, d = 0; i < gaps.length; i++) ids[i] = (d += gaps[i])
        return { ids, ks }
      })()
      p.catch(() => this.terms.delete(term)) // retry after a failed fetch
      this.terms.set(term, p)
    }
    return p
  }

  // Refs for doc ids; loads only the r/N.json chunks those ids fall in.
  async refs (ids) {
    const m = await this.meta()
    const chunks = await Promise.all([...new Set(ids.map((d) => Math.floor(d / m.refChunk)))]
      .map(async (c) => [c, await this.json(`r/${c}.json`)]))
    const byChunk = new Map(chunks)
    return ids.map((d) => byChunk.get(Math.floor(d / m.refChunk))[d % m.refChunk])
  }

  // [{id, score, matched: [words, sorted]}], score desc then id (= ref) asc.
  async searchIds (words, required, limit) {
    const groups = new Map()
    for (const word of words) {
      const t = analyzeQueryWord(word)
      if (!t) continue
      if (!groups.has(t)) groups.set(t, { c: 0, words: [] })
      const g = groups.get(t); g.c += 1; g.words.push(word)
    }
    const m = await this.meta()
    const found = await Promise.all([...groups.keys()].map((t) => this.postings(t)))
    const present = []
    let i = 0
    for (const g of groups.values()) {
      const p = found[i++]
      if (!p) { if (required) return []; continue }
      present.push({ c: g.c, words: g.words, p })
    }
    if (!present.length) return []
    let sq = 0
    for (const e of present) sq += e.c * e.c
    const q = Math.sqrt(sq)
    // Dense per-doc accumulators: sums of c*k stay exact integers in doubles.
    const sums = new Float64Array(m.docs)
    const hits = new Uint16Array(m.docs)
    const masks = new Int32Array(m.docs) // bit per term, first 31 terms
    let ids = []
    for (let bit = 0; bit < present.length; bit++) {
      const { c, p } = present[bit]; const b = bit < 31 ? 1 << bit : 0
      for (let j = 0; j < p.ids.length; j++) {
        const d = p.ids[j]
        if (hits[d] === 0) ids.push(d)
        hits[d]++; sums[d] += c * p.ks[j]; masks[d] |= b
      }
    }
    if (required) ids = ids.filter((d) => hits[d] === present.length)
    for (const d of ids) sums[d] = sums[d] / 1000 / q // now the score
    ids.sort((x, y) => (sums[y] - sums[x]) || (x - y))
    if (limit != null) ids = ids.slice(0, limit)
    const has = present.length <= 31
      ? (d, k) => (masks[d] >>> k) & 1
      : (d, k) => bisect(present[k].p.ids, d)
    const sets = new Map()
    return ids.map((d) => {
      const key = present.length <= 31 ? masks[d] : null
      let s = key === null ? null : sets.get(key)
      if (!s) {
        s = [...new Set(present.filter((e, k) => has(d, k)).flatMap((e) => e.words))].sort()
        if (key !== null) sets.set(key, s)
      }
      return { id: d, score: sums[d], matched: s }
    })
  }

  // [{ref, score, matched}] like IndexReader.search in Python.
  async search (words, required, limit) {
    const items = await this.searchIds(words, required, limit)
    const refs = await this.refs(items.map((it) => it.id))
    return items.map((it, k) => ({ ref: refs[k], score: it.score, matched: it.matched }))
  }
}
