// Listing replies with no stored page: twin of builder/query/listings.py — periods computed
// from the timeline, calendar periods of a source with no record, pages merged over brains.
import { parsePeriod } from './periods.js'
import { sortedBy } from './order.js'
import { PAGE_ITEMS, newestFirst, pageAt, paged, periodPages, rfc3339, sourcePeriodBase } from './listing.js'

export const LISTINGS = new Set(['folder', 'tag', 'period', 'source', 'undated', 'identity', 'memories', 'relation'])
const BY_PATH = new Set(['folder', 'tag', 'memories'])

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
    return pageAt(paged({ ...sourcePeriodBase(brain, ref, source, title, period), counts: [] }, []), offset, ref)
  }
  const [kind, start, end, relative] = period
  const data = site.brainData(brain)
  const entries = relative ? await data.timeline(rfc3339(start)) : []
  const page = pageAt(periodPages(brain, ref, kind, start, end, entries), offset, ref)
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
