// Listing replies computed in the browser: twin of builder/listing.py (paging at 50, period
// pages) and builder/query/listings.py (periods with no file, pages merged over brains).
import * as refs from './refs.js'
import { invalidInput } from './errors.js'
import { parsePeriod } from './periods.js'
import { sortedBy } from './order.js'

export const PAGE_ITEMS = 50
export const LISTINGS = new Set(['folder', 'tag', 'period', 'source', 'undated', 'identity', 'memories', 'relation'])
const BY_PATH = new Set(['folder', 'tag', 'memories'])
export const rfc3339 = (date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z')

// [page at offset 0, 50, 100 …]: `base` plus one slice of `items`; an empty list gives one page.
export function paged (base, items, size = PAGE_ITEMS) {
  const pages = []
  for (let offset = 0; offset < Math.max(items.length, 1); offset += size) {
    const end = offset + size
    pages.push({ ...base, items: items.slice(offset, end), total: items.length, offset, next_offset: end < items.length ? end : null })
  }
  return pages
}

export function pageAt (pages, offset, ref) {
  for (const page of pages) if (page.offset === offset) return page
  if (pages.length === 1) throw invalidInput('offset', `${ref} fits in one page: use offset 0`)
  throw invalidInput('offset', `${offset} is not a page boundary of ${ref}: use 0 or a next_offset`)
}

// Newest `placed` first, undated last; ties by brain, then ref.
export function newestFirst (entries) {
  const out = sortedBy(entries, (e) => [e.brain ?? '', e.ref])
  return sortedBy(out, (e) => e.placed || '', true)
}

export function periodPages (brain, ref, kind, start, end, entries, asOf) {
  const lo = rfc3339(start)
  const hi = rfc3339(end)
  const inside = entries.filter((e) => lo <= e.placed && e.placed < hi) // RFC 3339 Z text: ASCII order
  const counts = new Map()
  for (const e of inside) {
    if (e.source === null || e.source === undefined) continue
    if (!counts.has(e.source)) counts.set(e.source, { source: e.source, count: 0 })
    const entry = counts.get(e.source)
    entry.count += 1
    if (e.low) entry.priority = 'low'
  }
  const base = {
    page: 'period', brain, ref, uri: refs.uri(brain, ref), title: ref, period: kind, start: lo, end: hi,
    counts: sortedBy([...counts.keys()], (s) => s).map((s) => counts.get(s)),
    notes: inside.filter((e) => e.source === null || e.source === undefined).length, as_of: asOf
  }
  return paged(base, inside.filter((e) => !e.low).map((e) => e.item))
}

// The header of `memories/SOURCE/PERIOD`, a source's records in a calendar period.
export function sourcePeriodBase (brain, ref, source, title, period, asOf) {
  const [kind, start, end] = period
  return {
    page: 'period', brain, ref, uri: refs.uri(brain, ref), title: `${title}: ${ref.slice(ref.lastIndexOf('/') + 1)}`,
    period: kind, start: rfc3339(start), end: rfc3339(end), source, notes: 0, as_of: asOf
  }
}

// The page at `offset` of a period read with no stored reply, or null when `ref` is not a
// period: a brain's period, or a calendar period of a source with no record in it.
export async function periodReply (site, brain, ref, offset) {
  const info = site.brain(brain) || {}
  const [source, key] = sourcePeriod(ref)
  const period = parsePeriod(key, 'timezone' in info ? info.timezone : 'UTC', new Date(site.asOf))
  if (period === null) return null
  if (source !== null) {
    if (!(info.sources || []).includes(source) || period[3]) return null
    const page = await site.reply(brain, `memories/${source}`)
    const title = page && 'title' in page ? page.title : source
    return pageAt(paged({ ...sourcePeriodBase(brain, ref, source, title, period, site.asOf), counts: [] }, []), offset, ref)
  }
  const [kind, start, end, relative] = period
  const data = site.brainData(brain)
  const entries = relative ? await data.timeline(rfc3339(start)) : []
  const page = pageAt(periodPages(brain, ref, kind, start, end, entries, site.asOf), offset, ref)
  return { ...page, items: await data.cards(page.items) } // only this page's cards are read
}

// ["SOURCE", "PERIOD"] for `memories/SOURCE/PERIOD`, else [null, ref].
export function sourcePeriod (ref) {
  const parts = ref.split('/')
  return parts.length === 3 && parts[0] === 'memories' ? [parts[1], parts[2]] : [null, ref]
}

// The items of every page of a precomputed listing, in order.
export async function wholeList (site, brain, ref, variant, first) {
  let items = [...(first.items || [])]
  let page = first
  while (page.next_offset) {
    page = await site.reply(brain, ref, ...variant, `o${page.next_offset}`)
    if (page === null) break // a damaged site: answer with what is readable
    items = items.concat(page.items || [])
  }
  return items
}

function ordered (kind, items) {
  if (BY_PATH.has(kind)) return sortedBy(items, (i) => [i.path || i.ref, i.brain])
  return newestFirst(items)
}

const withBrain = (rows, brain) => rows.map((r) => ({ ...r, brain }))

// One page of a listing merged over the brains of `firsts` (a Map brain → its first page).
export function merged (kind, firsts, lists, offset, ref) {
  const brains = [...firsts.keys()]
  const base = {}
  for (const [k, v] of Object.entries(firsts.get(brains[0]))) {
    if (!['items', 'total', 'offset', 'next_offset'].includes(k)) base[k] = v
  }
  base.brains = brains
  if ('counts' in base) base.counts = brains.flatMap((b) => withBrain(firsts.get(b).counts || [], b))
  if ('notes' in base) base.notes = brains.reduce((n, b) => n + (firsts.get(b).notes ?? 0), 0)
  const items = ordered(kind, brains.flatMap((b) => lists.get(b)))
  return pageAt(paged(base, items), offset, ref)
}

// Home over several brains: each section's items merged (first 50 kept), totals summed.
export function mergedHome (homes) {
  const brains = [...homes.keys()]
  const first = homes.get(brains[0])
  const sections = {}
  for (const [name, section] of Object.entries(first.sections)) {
    const parts = brains.map((b) => homes.get(b).sections[name])
    if (name === 'activity') {
      sections[name] = {
        ...section,
        counts: brains.flatMap((b) => withBrain(homes.get(b).sections[name].counts, b)),
        notes_changed: parts.reduce((n, p) => n + p.notes_changed, 0)
      }
      continue
    }
    let items = parts.flatMap((p) => p.items)
    if (name === 'upcoming') items = sortedBy(items, (i) => [i.when, i.brain, i.ref, i.line || 0])
    else if (name === 'changed') {
      items = newestFirst(items.map((i) => ({ ...i, placed: i.modified })))
        .map(({ placed, ...rest }) => rest)
    } else items = sortedBy(items, (i) => [i.ref, i.brain, i.line || 0])
    sections[name] = { items: items.slice(0, PAGE_ITEMS), total: parts.reduce((n, p) => n + p.total, 0) }
  }
  return { ...first, brains, sections, sources: brains.flatMap((b) => homes.get(b).sources) }
}
