// Where the site shows an item, computed in the browser as the build does (builder/emit/urls.py,
// builder/emit/html.py ref_url): a note's page, a section's anchor on it, an identity's or a
// listing's page, and a record's anchor on its source's day page `memories/SOURCE/YYYY-MM-DD`
// (placement day — event time, else observation — in the brain's timezone) or on
// `memories/SOURCE/undated`. Paths are relative to the site root. `site` (the opened site, or
// null) knows the pages that lost a collision (their paths are in the manifest, `moved`).
import { escapeSegment, recordAnchor } from './engine/refs.js'
import { pageFile } from './engine/pageurls.js'
import { localDays } from './engine/periods.js'

const DAY_MS = 86400000

// The site path of `ref`'s page (urls.py page_path).
export function pagePath (site, brain, ref) {
  return pageFile(brain, ref, site && (site.brain(brain) || {}).moved)
}

// `memories/SOURCE/YYYY-MM-DD` or `memories/SOURCE/undated` (urls.py record_page_ref).
export function recordPageRef (source, placed, tz) {
  const day = placed ? new Date(localDays(Date.parse(placed), tz) * DAY_MS).toISOString().slice(0, 10) : 'undated'
  return `memories/${source}/${day}`
}

// The site path of a record's anchor on its day page (urls.py record_url).
export function recordPath (site, brain, ref, source, placed, tz) {
  return pagePath(site, brain, recordPageRef(source, placed, tz)) + '#' + recordAnchor(ref)
}

// urls.py relation_anchor: `rel~REL` on a note or identity page, `RECORD~~rel~REL` for a record.
export function relationAnchor (relation, record = null) {
  const own = 'rel~' + escapeSegment(relation)
  return record === null ? own : recordAnchor(record) + '~~' + own
}

// The site path showing a listed or found item ({brain, ref, kind, source, time, observed}) (html.py ref_url).
export function itemPath (site, item) {
  const brain = item.brain
  if (item.kind === 'record') {
    const tz = (site.brain(brain) || {}).timezone || 'UTC'
    const source = item.source || item.ref.slice(0, item.ref.indexOf(':'))
    return recordPath(site, brain, item.ref, source, item.time || item.observed, tz)
  }
  const hash = item.ref.indexOf('#')
  if (hash > 0 && item.ref.slice(0, hash).endsWith('.md')) {
    return pagePath(site, brain, item.ref.slice(0, hash)) + '#' + item.ref.slice(hash + 1)
  }
  return pagePath(site, brain, item.ref)
}
