// Lazy reader of one brain's search files (`_bf/search/BRAIN/`): twin of builder/query/store.py.
// Every file is fetched at most once, and only when a search needs it.
import { LunrIndex } from './lunrindex.js'
import { escapeSegment } from './refs.js'
import { sortedBy } from './order.js'

export const STORE_FORMAT = 'bf-search-1'

// An entry: {brain, kind, ref, note, source, meta, section} (section: [id, title, first, end]).
export class BrainStore {
  constructor (site, brain) {
    this.site = site
    this.brain = brain
    this.base = `_bf/search/${escapeSegment(brain)}`
    this.files = new Map()
    this.sections = new Map()
    this.meta = {}
    this.reader = new LunrIndex(new URL(this.base + '/index/', site.root).href)
  }

  async load (rel) {
    if (!this.files.has(rel)) this.files.set(rel, this.site.loadJson(`${this.base}/${rel}`))
    return (await this.files.get(rel)) || {}
  }

  async ok () { // loads meta.json, which later calls read synchronously
    this.meta = await this.load('meta.json')
    return this.meta.format === STORE_FORMAT
  }

  notes () { return this.load('notes.json') }

  async records (source) {
    if (!Object.hasOwn(this.meta.records || {}, source)) return {}
    return this.load(`records/${escapeSegment(source)}.json`)
  }

  sources () { return sortedBy(Object.keys(this.meta.sources || {}), (s) => s) }

  async folderExists (folder) {
    const prefix = folder + '/'
    return Object.keys(await this.notes()).some((ref) => ref.startsWith(prefix))
  }

  async noteEntry (ref) {
    const notes = await this.notes()
    if (Object.hasOwn(notes, ref)) return { brain: this.brain, kind: 'note', ref, note: ref, source: null, meta: notes[ref], section: null }
    const hash = ref.indexOf('#')
    if (hash < 0) return null
    const noteRef = ref.slice(0, hash)
    const sid = ref.slice(hash + 1)
    if (!Object.hasOwn(notes, noteRef)) return null
    if (!this.sections.has(noteRef)) {
      const byId = new Map()
      for (const s of notes[noteRef].sections || []) byId.set(s[0], s) // the last of equal ids wins, like a dict
      this.sections.set(noteRef, byId)
    }
    const section = this.sections.get(noteRef).get(sid)
    return section ? { brain: this.brain, kind: 'section', ref, note: noteRef, source: null, meta: notes[noteRef], section } : null
  }

  async recordEntry (ref) {
    const source = ref.split(':')[0]
    const records = await this.records(source)
    return Object.hasOwn(records, ref)
      ? { brain: this.brain, kind: 'record', ref, note: null, source, meta: records[ref], section: null }
      : null
  }

  // A note's {summary, pieces}, or a record's text.
  async text (entry) {
    if (entry.kind === 'record') {
      const chunk = await this.load(`records/${escapeSegment(entry.source)}/${entry.meta.t ?? 0}.json`)
      return Object.hasOwn(chunk, entry.ref) ? chunk[entry.ref] : ''
    }
    const chunk = await this.load(`notes/${entry.meta.t ?? 0}.json`)
    return Object.hasOwn(chunk, entry.note) ? chunk[entry.note] : {}
  }
}

export function openStore (site, brain) {
  if (!site.stores) site.stores = new Map()
  if (!site.stores.has(brain)) site.stores.set(brain, new BrainStore(site, brain))
  return site.stores.get(brain)
}
