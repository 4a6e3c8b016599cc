// Listing pages: twin of builder/kernel/listing.py (paging at 50, period pages), shared by the build
// and both query engines; listings.js computes replies with it.
import * as refs from './refs.js'
import { invalidInput } from './errors.js'
import { sortedBy } from './order.js'

export const PAGE_ITEMS = 50
export const rfc3339 = (date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z')
// Whole seconds since 1970 UTC, as the search index stores placed instants (kernel.times.seconds).
export const seconds = (date) => Math.floor(date.getTime() / 1000)

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

export function periodPages (brain, ref, kind, start, end, entries) {
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
    notes: inside.filter((e) => e.source === null || e.source === undefined).length
  }
  return paged(base, inside.filter((e) => !e.low).map((e) => e.item))
}

// The header of `memories/SOURCE/PERIOD`, a source's records in a calendar period.
export function sourcePeriodBase (brain, ref, source, title, period) {
  const [kind, start, end] = period
  return {
    page: 'period', brain, ref, uri: refs.uri(brain, ref), title: `${title}: ${ref.slice(ref.lastIndexOf('/') + 1)}`,
    period: kind, start: rfc3339(start), end: rfc3339(end), source, notes: 0
  }
}
