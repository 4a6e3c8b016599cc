// Periods (docs/replies.md#periods): relative ones end at the build instant; calendar ones are computed
// in the brain's time zone. Twin of builder/kernel/periods.py. Instants are Date objects (UTC ms).
import { invalidInput } from './errors.js'

// Python's `\d` matches any Unicode decimal digit and int() reads them all: \p{Nd} here.
const RELATIVE = /^(\p{Nd}+)d$/u
const YEAR = /^(\p{Nd}{4})$/u
const MONTH = /^(\p{Nd}{4})-(\p{Nd}{2})$/u
const WEEK = /^(\p{Nd}{4})-W(\p{Nd}{2})$/u
const DAY = /^(\p{Nd}{4})-(\p{Nd}{2})-(\p{Nd}{2})$/u
const LOOSE = /^\p{Nd}{4}(-|$)|^\p{Nd}+d$/u
const ND = /^\p{Nd}$/u

// int() of a run of decimal digits: every Nd block is ten code points starting at its zero.
function int (digits) {
  let n = 0
  for (const ch of digits) {
    let zero = ch.codePointAt(0)
    while (ND.test(String.fromCodePoint(zero - 1))) zero--
    n = n * 10 + (ch.codePointAt(0) - zero) % 10
  }
  return n
}

class Invalid extends Error {} // Python's ValueError from date(): an impossible calendar date

const DAY_MS = 86400000
const isLeap = (y) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)
const civil = (y, m, d) => Math.round(new Date(0).setUTCFullYear(y, m - 1, d) / DAY_MS)

// date(y, m, d) as days since 1970-01-01 (proleptic Gregorian, years 1-9999 like Python).
function dateDays (y, m, d) {
  if (y < 1 || y > 9999 || m < 1 || m > 12 || d < 1) throw new Invalid()
  if (d > new Date(new Date(0).setUTCFullYear(y, m, 0)).getUTCDate()) throw new Invalid()
  return civil(y, m, d)
}

function checked (days) { // Python raises OverflowError past 9999-12-31; it is an invalid period here
  if (days > civil(9999, 12, 31)) throw new Invalid()
  return days
}

// date.fromisocalendar(y, w, 1)
function isoWeekStart (y, w) {
  if (y < 1 || y > 9999) throw new Invalid()
  const jan1 = new Date(civil(y, 1, 1) * DAY_MS).getUTCDay() // Sunday 0 … Saturday 6
  if (!(w > 0 && w < 53) && !(w === 53 && (jan1 === 4 || (jan1 === 3 && isLeap(y))))) throw new Invalid()
  const jan4 = civil(y, 1, 4)
  const week1 = jan4 - ((new Date(jan4 * DAY_MS).getUTCDay() + 6) % 7)
  return week1 + (w - 1) * 7
}

const formats = new Map()
function parts (ms, tz) {
  let f = formats.get(tz)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric',
      hour: 'numeric', minute: 'numeric', second: 'numeric'
    })
    formats.set(tz, f)
  }
  const p = {}
  for (const { type, value } of f.formatToParts(new Date(ms))) p[type] = value
  return { year: Number(p.year), month: Number(p.month), day: Number(p.day), hour: Number(p.hour), minute: Number(p.minute), second: Number(p.second) }
}

function offset (ms, tz) { // the zone's UTC offset at instant `ms`, whole seconds
  const p = parts(ms, tz)
  const wall = new Date(0).setUTCFullYear(p.year, p.month - 1, p.day) + ((p.hour * 60 + p.minute) * 60 + p.second) * 1000
  return wall - Math.floor(ms / 1000) * 1000
}

// Midnight of day `days` in zone `tz`, as UTC ms. Python's fold=0: in a gap or an overlap,
// the offset from before the transition.
function utc (days, tz) {
  const wall = days * DAY_MS
  const before = offset(wall - DAY_MS, tz)
  if (offset(wall - before, tz) === before) return wall - before
  const after = offset(wall + DAY_MS, tz)
  if (offset(wall - after, tz) === after) return wall - after
  return wall - before
}

export function localDays (ms, tz) {
  const p = parts(ms, tz)
  return Math.round(new Date(0).setUTCFullYear(p.year, p.month - 1, p.day) / DAY_MS)
}

// [kind, start, end, relative] with end exclusive (Dates), or null when `ref` is not period-like.
// Throws invalid input for a period-like ref that names no period (2026-13, 0d, 367d).
export function parsePeriod (ref, tz, asOf) {
  const bad = () => invalidInput('ref', `invalid period: ${ref}`)
  const at = asOf.getTime()
  const today = localDays(at, tz)
  if (ref === 'today' || ref === 'yesterday') {
    const day = today - (ref === 'yesterday' ? 1 : 0)
    return ['day', new Date(utc(day, tz)), new Date(utc(day + 1, tz)), true]
  }
  let m = RELATIVE.exec(ref)
  if (m) {
    const n = int(m[1])
    if (!(n >= 1 && n <= 366) || m[1].startsWith('0')) throw bad()
    return ['relative', new Date(at - n * DAY_MS), new Date(at), true]
  }
  try {
    if ((m = YEAR.exec(ref))) {
      const y = int(m[1])
      return ['year', new Date(utc(dateDays(y, 1, 1), tz)), new Date(utc(dateDays(y + 1, 1, 1), tz)), false]
    }
    if ((m = MONTH.exec(ref))) {
      const y = int(m[1]); const mo = int(m[2])
      const start = dateDays(y, mo, 1)
      const end = dateDays(y + (mo === 12 ? 1 : 0), (mo % 12) + 1, 1)
      return ['month', new Date(utc(start, tz)), new Date(utc(end, tz)), false]
    }
    if ((m = WEEK.exec(ref))) {
      const start = isoWeekStart(int(m[1]), int(m[2]))
      return ['week', new Date(utc(start, tz)), new Date(utc(checked(start + 7), tz)), false]
    }
    if ((m = DAY.exec(ref))) {
      const d = dateDays(int(m[1]), int(m[2]), int(m[3]))
      return ['day', new Date(utc(d, tz)), new Date(utc(checked(d + 1), tz)), false]
    }
  } catch (err) {
    if (err instanceof Invalid) throw bad()
    throw err
  }
  if (LOOSE.test(ref)) throw bad()
  return null
}
