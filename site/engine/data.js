// Replies computed from a brain's compact data (docs/data.md): twin of builder/query/data.py.
// A listing page is its header, a slice of its card ids and the cards; records and the sections
// kept are looked up whole, other sections computed from their note's reply (sections.js). Packs
// are loaded once per BrainData (per open Site).
import * as refs from './refs.js'
import { PAGE_ITEMS } from './listing.js'
import { sectionReply } from './sections.js'

export const DATA_FORMAT = 'bf-data-2' // kernel/formats.py

export class BrainData {
  constructor (loadJson, brain) {
    this.loadJson = loadJson
    this.brain = brain
    this.root = `_bf/${refs.escapeSegment(brain)}/data`
    this.meta = loadJson(`${this.root}/meta.json`).then((m) => (m && typeof m === 'object' && m.format === DATA_FORMAT ? m : null))
  }

  family (meta, ref, variant) {
    const packs = meta ? meta.packs : {}
    // a note's file name may hold "#"; a section id never ends in ".md"
    if ((ref === 'home' && variant.length === 0) || (ref.endsWith('.md') && !variant.includes('r'))) return null
    if (ref.includes('#') && !refs.isRecordLike(ref)) return 'sections'
    if (refs.isRecordLike(ref)) {
      const family = this.recordFamily(ref)
      if (Object.prototype.hasOwnProperty.call(packs, family)) return family
    }
    return 'lists'
  }

  // The pack family of record `ref` (SOURCE:ID): records/SOURCE, escaped like a ref segment.
  recordFamily (ref) { return 'records/' + refs.escapeSegment(ref.split(':')[0]) }

  async entry (meta, family, key) {
    const n = meta && meta.packs[family]
    if (!n) return null
    const pack = await this.loadJson(`${this.root}/${family}/${refs.packOf(key, n)}.json`, true)
    return pack && typeof pack === 'object' && Object.prototype.hasOwnProperty.call(pack, key) ? pack[key] : null
  }

  // Record `ref`'s text with each run of whitespace as one space (what search excerpts and phrase
  // checks read), joined from its reply pages: a search reads it here only when the search store
  // keeps no copy of it (a text longer than emit/search_index.py RECORD_TEXT_MAX).
  async recordText (ref) {
    const meta = await this.meta
    const pages = await this.entry(meta, this.recordFamily(ref), refs.dataKey(this.brain, ref))
    if (!Array.isArray(pages)) return ''
    return refs.pyWords(pages.map((page) => (page.record || {}).text || '').join('')).join(' ')
  }

  async card (meta, n) {
    const size = meta.cardChunk
    return (await this.loadJson(`${this.root}/cards/${Math.floor(n / size)}.json`, true))[n % size]
  }

  async cards (ids) {
    const meta = await this.meta
    return Promise.all(ids.map((n) => this.card(meta, n)))
  }

  // The timeline entries placed at or after `lo`, newest first: {placed, source, low, item},
  // `item` a card id. Reads chunks only until one ends before `lo`.
  async timeline (lo) {
    const meta = (await this.meta) || {}
    let rows = []
    for (let k = 0; k < (meta.timelineChunks || 0); k++) {
      const chunk = (await this.loadJson(`${this.root}/timeline/${k}.json`, true)) || []
      rows = rows.concat(chunk)
      if (!chunk.length || chunk[chunk.length - 1][0] < lo) break
    }
    return rows.filter((r) => r[0] >= lo).map(([placed, source, low, item]) => ({ placed, source, low: Boolean(low), item }))
  }

  // [handled, reply page]: handled is false when the reply lives in a file instead.
  async reply (ref, variant) {
    const meta = await this.meta
    const last = variant.length ? variant[variant.length - 1] : ''
    const offset = last.startsWith('o') ? parseInt(last.slice(1), 10) : 0
    if (offset) variant = variant.slice(0, -1)
    const family = this.family(meta, ref, variant)
    if (family === null || meta === null) return [false, null]
    let found = await this.entry(meta, family, refs.dataKey(this.brain, ref, ...variant))
    if (found === null && family === 'sections' && variant.length === 0) {
      found = [sectionReply(await this.loadJson(refs.refFile(this.brain, ref.slice(0, ref.lastIndexOf('#')))), ref)]
    }
    if (found === null || found[0] === null) return [true, null]
    if (Array.isArray(found)) return [true, pageWithOffset(found, offset)]
    if ('pages' in found) return [true, pageWithOffset(found.pages, offset)]
    return [true, await this.listingPage(meta, found, offset)]
  }

  async listingPage (meta, entry, offset) {
    const ids = entry.ids
    if (offset % PAGE_ITEMS || (offset && offset >= ids.length)) return null
    const end = offset + PAGE_ITEMS
    const items = await Promise.all(ids.slice(offset, end).map((n) => this.card(meta, n)))
    return { ...entry.base, items, total: ids.length, offset, next_offset: end < ids.length ? end : null }
  }
}

// The stored page starting at `offset` (a page without an `offset` field starts at 0).
export function pageWithOffset (pages, offset) {
  return pages.find((p) => (p.offset || 0) === offset) || null
}
