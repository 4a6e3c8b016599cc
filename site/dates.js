// Dates as people read them (docs/site.md#reading-aids). Pages are static: the build writes the absolute
// form ("3 Dec 2026, 09:14", in the brain's timezone: builder/emit/days.py stamp) inside
// <time datetime="INSTANT">; here the reader's own clock adds the relative form ("3 days ago"),
// so a page hosted for months never shows a stale "yesterday". Replies keep RFC 3339.
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const UNITS = [['year', 31536000], ['month', 2592000], ['week', 604800], ['day', 86400], ['hour', 3600], ['minute', 60]]
const formats = new Map() // one Intl formatter per timezone: building one costs more than using it

// "3 Dec 2026, 09:14": `instant` in timezone `tz`, as days.py stamp writes it ('' for no date).
export function stamp (instant, tz = 'UTC') {
  const ms = Date.parse(instant)
  if (Number.isNaN(ms)) return ''
  if (!formats.has(tz)) {
    formats.set(tz, new Intl.DateTimeFormat('en-GB', {
      timeZone: tz, year: 'numeric', month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23'
    }))
  }
  const part = Object.fromEntries(formats.get(tz).formatToParts(ms).map((p) => [p.type, p.value]))
  return `${Number(part.day)} ${MONTHS[Number(part.month) - 1]} ${part.year}, ${part.hour}:${part.minute}`
}

// "3 days ago" / "in 2 hours": `instant` against the reader's clock `now` (ms).
export function relativeTime (instant, now = Date.now()) {
  const seconds = (Date.parse(instant) - now) / 1000
  if (Number.isNaN(seconds)) return ''
  const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' })
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit)
  }
  return 'just now'
}

// <time datetime="INSTANT"> with its absolute text, its exact instant as a tooltip, then "· 3 days ago".
export function timeNode (instant, tz) {
  const time = document.createElement('time')
  time.setAttribute('datetime', instant)
  time.textContent = stamp(instant, tz)
  return withRelative(time)
}

// Adds the relative form after a <time> holding an instant (a bare day, such as a due day, has
// its words already). Returns what to insert: the element and, when known, the words.
function withRelative (time, now = Date.now()) {
  const instant = time.getAttribute('datetime') || ''
  const words = instant.includes('T') ? relativeTime(instant, now) : ''
  time.dataset.ago = ''
  if (!time.title) time.title = instant
  if (!words) return time
  const ago = document.createElement('span')
  ago.className = 'ago'
  ago.textContent = ' · ' + words
  const both = document.createDocumentFragment()
  both.append(time, ago)
  return both
}

// Every instant of the page (or of a part just added) gets its relative form, once.
export function relativize (root = document) {
  const now = Date.now()
  for (const time of root.querySelectorAll('time[datetime*="T"]:not([data-ago])')) {
    const next = time.nextSibling
    time.parentNode.insertBefore(withRelative(time, now), next)
  }
}
