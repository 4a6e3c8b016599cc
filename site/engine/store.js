// Lazy reader of one brain's search files (`_bf/search/BRAIN/`): twin of builder/query/store.py.
// Every file is fetched at most once, and only when a search needs it.
import { IndexReader } from './bm25/reader.js'
import { escapeSegment } from './refs.js'
import { cmp, sortedBy } from './order.js'

export const STORE_FORMAT = 'bf-search-5' // kernel/formats.py

// Where `ref` would go in the sorted `heads`, after equal ones (Python's bisect_right, by code point).
function bisectRight (heads, ref) {
  let lo = 0; let hi = heads.length
  while (lo < hi) { const mid = (lo + hi) >> 1; if (cmp(ref, heads[mid]) < 0) hi = mid; else lo = mid + 1 }
  return lo
}

// One searchable item (store.py Entry): `meta` is its notes/m/K.json or records/SRC/m/K.json entry; a
// section's is its note's; `section` is [id, title, first, end] of a section. A record hit's meta
// is null until withMeta reads it, its ref until withRef (ranking a record needs only its id); a
// ranked note's or section's (candidate) ref, note, meta and section are null until withRef;
// `id` is its doc id in the brain's index, for a search hit.
export class Entry {
  constructor (brain, kind, ref, note, source, meta, section = null) {
    Object.assign(this, { brain, kind, ref, note, source, meta, section })
    this.deprecated = kind !== 'record' && Boolean(meta && meta.deprecated) // (a section of) a deprecated note
  }
}

export class BrainStore {
  constructor (site, brain) {
    this.site = site
    this.brain = brain
    this.base = `_bf/search/${escapeSegment(brain)}`
    this.files = new Map()
    this.sections = new Map()
    this.spans = new Map()
    this.meta = {}
    this.reader = new IndexReader(new URL(this.base + '/index/', site.root).href)
  }

  async load (rel) {
    if (!this.files.has(rel)) this.files.set(rel, this.site.loadJson(`${this.base}/${rel}`, rel !== 'meta.json'))
    return (await this.files.get(rel)) || {}
  }

  async ok () { // loads meta.json, which later calls read synchronously
    this.meta = await this.load('meta.json')
    return this.meta.format === STORE_FORMAT
  }

  // FOLDER/m/K.json, the meta chunk that would hold `ref` by its chunks' first refs `heads`
  // (compared by code point, like Python's bisect), or {} (store.py _chunk).
  async chunk (folder, heads, ref) {
    const k = bisectRight(heads, ref)
    return k > 0 ? this.load(`${folder}/m/${k - 1}.json`) : {}
  }

  async noteMeta (ref) {
    const chunk = await this.chunk('notes', this.meta.note_chunks || [], ref)
    return Object.hasOwn(chunk, ref) ? chunk[ref] : null
  }

  async recordMeta (ref) {
    const source = ref.split(':')[0]
    const chunk = await this.chunk(`records/${escapeSegment(source)}`, (this.meta.record_chunks || {})[source] || [], ref)
    return Object.hasOwn(chunk, ref) ? chunk[ref] : null
  }

  // Fill a record hit's meta (see recordHit).
  async withMeta (entry) {
    if (entry.meta === null) entry.meta = (await this.recordMeta(entry.ref)) || {}
    return entry
  }

  // [first, end) of the doc ids of index group `group` whose refs start with `prefix` (`exact`:
  // are `prefix`), kept (store.py span).
  span (group, prefix, exact = false) {
    const key = JSON.stringify([group, prefix, exact])
    if (!this.spans.has(key)) {
      this.spans.set(key, (async () => {
        const [lo, hi] = await this.reader.prefixed(group, prefix)
        if (!exact) return [lo, hi]
        return lo < hi && (await this.reader.refs([lo]))[0] === prefix ? [lo, lo + 1] : [lo, lo]
      })())
    }
    return this.spans.get(key)
  }

  sources () { return sortedBy(Object.keys(this.meta.sources || {}), (s) => s) }

  // Whether a note's ref starts with FOLDER/ (store.py folder_exists).
  async folderExists (folder) {
    const prefix = folder + '/'
    const heads = this.meta.note_chunks || []
    const k = bisectRight(heads, prefix)
    if (Object.keys(await this.chunk('notes', heads, prefix)).some((ref) => ref.startsWith(prefix))) return true
    return k < heads.length && heads[k].startsWith(prefix)
  }

  async noteEntry (ref) {
    const meta = await this.noteMeta(ref)
    if (meta !== null) return new Entry(this.brain, 'note', ref, ref, null, meta)
    const hash = ref.indexOf('#')
    if (hash < 0) return null
    const noteRef = ref.slice(0, hash)
    const sid = ref.slice(hash + 1)
    const note = await this.noteMeta(noteRef)
    if (note === null) return null
    if (!this.sections.has(noteRef)) {
      const byId = new Map()
      for (const s of note.sections || []) byId.set(s[0], s) // the last of equal ids wins, like a dict
      this.sections.set(noteRef, byId)
    }
    const section = this.sections.get(noteRef).get(sid)
    return section ? new Entry(this.brain, 'section', ref, noteRef, null, note, section) : null
  }

  async recordEntry (ref) {
    const meta = await this.recordMeta(ref)
    return meta !== null
      ? new Entry(this.brain, 'record', ref, null, ref.split(':')[0], meta)
      : null
  }

  // Doc `id` of this brain's index, the record at position `pos` of `source` (so it exists);
  // its ref may be null until withRef, its meta is null until withMeta.
  recordHit (ref, id, source, pos) {
    return Object.assign(new Entry(this.brain, 'record', ref, null, source, null), { id, pos })
  }

  // The item of doc id `doc` of this brain's index (a record's ref is filled in by withRef,
  // its meta by withMeta).
  async hit (doc) {
    const [group, pos] = (await this.reader.grouper())(doc)
    if (group) return this.recordHit(null, doc, group, pos)
    const entry = await this.noteEntry((await this.reader.refs([doc]))[0])
    if (entry !== null) entry.id = doc
    return entry
  }

  // A ranked hit as ranking needs it (store.py candidate): doc `id` ranking as doc `owner`; a
  // note's or section's deprecation from the index, its ref and meta left to withRef.
  async candidate (id, owner) {
    const [group, pos] = (await this.reader.grouper())(id)
    if (group) return this.recordHit(null, id, group, pos)
    const entry = Object.assign(new Entry(this.brain, owner === id ? 'note' : 'section', null, null, null, null), { id })
    entry.deprecated = (await this.reader.facet('deprecated')).has(owner)
    return entry
  }

  // A hit's ref (and a ranked note's or section's note, meta and section: candidate). A
  // record's: the index and records/SRC/m/K.json both list a source's records in ref order, so
  // the hit at position pos is key pos % text_chunk of chunk floor(pos / text_chunk).
  async withRef (entry) {
    if (entry.kind !== 'record') {
      const full = await this.noteEntry((await this.reader.refs([entry.id]))[0])
      return Object.assign(entry, { ref: full.ref, note: full.note, meta: full.meta, section: full.section })
    }
    const size = this.meta.text_chunk
    const chunk = await this.load(`records/${escapeSegment(entry.source)}/m/${Math.floor(entry.pos / size)}.json`)
    entry.ref = Object.keys(chunk)[entry.pos % size]
    return entry
  }

  // A note's {summary, pieces}, or a record's text: the gzip member its meta entry's `x` names
  // ([K, start, length] in notes/K.json or records/SRC/x/K.json), fetched alone (site.js
  // loadMember); a record without one, from the brain's record store (store.py text).
  async text (entry) {
    if (entry.kind === 'record') {
      await this.withMeta(entry)
      const x = entry.meta.x
      if (!x) return this.site.brainData(this.brain).recordText(entry.ref)
      const text = await this.site.loadMember(`${this.base}/records/${escapeSegment(entry.source)}/x/${x[0]}.json`, x[1], x[2])
      return typeof text === 'string' ? text : ''
    }
    const x = entry.meta.x
    const text = x ? await this.site.loadMember(`${this.base}/notes/${x[0]}.json`, x[1], x[2]) : null
    return text && typeof text === 'object' && !Array.isArray(text) ? text : {}
  }
}

export function openStore (site, brain) {
  if (!site.stores) site.stores = new Map()
  if (!site.stores.has(brain)) site.stores.set(brain, new BrainStore(site, brain))
  return site.stores.get(brain)
}
