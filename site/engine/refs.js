// Refs, bf:// addresses and the ref → file mapping (docs/replies.md#refs-and-bf-addresses, docs/site.md#ref--file).
// A line-by-line twin of builder/kernel/refs.py (read its docstring for the file mapping);
// tests/browser/test_parity.py keeps the two equal. Change both or neither.
import { sha256hex } from './sha256.js'

const SAFE = /^[a-z0-9.-]$/
// Python's `\d` is any Unicode decimal digit, so the JS twin uses \p{Nd}.
const PERIOD_LIKE = /^(\p{Nd}{4}(-\p{Nd}{1,2}(-\p{Nd}{1,2})?|-W\p{Nd}{1,2})?|\p{Nd}+d|today|yesterday)$/u
export const BF_SCHEME = 'bf://'
const encoder = new TextEncoder()

// Python's str.isspace() set, for strip()/rstrip() twins (JS trim() differs: \ufeff, \x85, \x1c-\x1f).
export const PY_SPACE = '\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005' +
  '\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000'

const PY_SPACES = new RegExp('[' + PY_SPACE + ']+')

// Python's text.split(): the words between runs of whitespace.
export const pyWords = (text) => text.split(PY_SPACES).filter(Boolean)

export function pyStrip (text, chars = PY_SPACE) {
  let start = 0
  let end = text.length
  while (start < end && chars.includes(text[start])) start++
  while (end > start && chars.includes(text[end - 1])) end--
  return text.slice(start, end)
}

export function pyRstrip (text, chars = PY_SPACE) {
  let end = text.length
  while (end > 0 && chars.includes(text[end - 1])) end--
  return text.slice(0, end)
}

export function escapeSegment (segment) {
  const out = []
  let i = 0
  for (const ch of segment) { // by code point, like Python
    if (SAFE.test(ch) && !(i === 0 && ch === '.')) out.push(ch)
    else out.push([...encoder.encode(ch)].map((b) => '~' + b.toString(16).padStart(2, '0')).join(''))
    i++
  }
  let text = out.join('')
  if (text.length > 120) {
    const digest = sha256hex(encoder.encode(text)).slice(0, 16)
    text = `${text.slice(0, 80)}~~${digest}`
  }
  return text
}

const ESCAPED = /^(?:[a-z0-9.-]|(?:~[0-9a-f]{2})+)*$/
const decoder = new TextDecoder('utf-8', { fatal: true })

// The segment escapeSegment turned into `text`, or null (refs.py unescape_segment).
export function unescapeSegment (text) {
  if (!ESCAPED.test(text)) return null
  let segment
  try {
    segment = text.replace(/(?:~[0-9a-f]{2})+/g, (run) =>
      decoder.decode(new Uint8Array(run.slice(1).split('~').map((h) => parseInt(h, 16)))))
  } catch {
    return null
  }
  return escapeSegment(segment) === text ? segment : null
}

// The id of a record's element on its day (or undated) page (refs.py record_anchor).
export function recordAnchor (ref) {
  return escapeSegment(ref)
}

// Site-relative path of the JSON reply for `ref` in `brain` ("" ref = home).
export function refFile (brain, ref, ...variant) {
  const parts = [escapeSegment(brain)].concat((ref || 'home').split('/').map(escapeSegment))
  return parts.join('/') + variant.map((v) => '~~' + escapeSegment(v)).join('') + '.json'
}

// Percent-encode what a bf:// address cannot hold as is: "%", and "#"/"?" of record ids.
// The key of a reply in the compact data: its reply file path without ".json".
export function dataKey (brain, ref, ...variant) {
  return refFile(brain, ref, ...variant).slice(0, -5)
}

// The pack (0 <= n < packs) holding `key`: FNV-1a 32 of its UTF-8 bytes, modulo `packs`.
export function packOf (key, packs) {
  let h = 0x811c9dc5
  for (const byte of encoder.encode(key)) h = Math.imul(h ^ byte, 0x01000193) >>> 0
  return h % packs
}

export function encodeUriRef (ref) {
  let text = ref.replaceAll('%', '%25')
  if (isRecordLike(ref)) text = text.replaceAll('#', '%23')
  return text.replaceAll('?', '%3F')
}

export function uri (brain, ref) {
  return `${BF_SCHEME}${brain}/${encodeUriRef(ref)}`
}

export function decodeUriRef (text) {
  return text.replace(/%(23|3F|3f|25)/g, (_, code) => ({ 23: '#', '3f': '?', 25: '%' })[code.toLowerCase()])
}

// `SOURCE:ID` or `type:name`: a colon before any slash.
export function isRecordLike (ref) {
  const colon = ref.indexOf(':')
  const slash = ref.indexOf('/')
  return colon > 0 && (slash < 0 || colon < slash)
}

// [brain, ref] for a bf:// address, [null, ref] otherwise.
export function splitAddress (text) {
  if (!text.startsWith(BF_SCHEME)) return [null, text]
  const rest = text.slice(BF_SCHEME.length)
  const slash = rest.indexOf('/')
  if (slash < 0) return [rest, '']
  return [rest.slice(0, slash), decodeUriRef(rest.slice(slash + 1))]
}

// Canonical form of a ref: trailing "/" dropped from listings, "home" for the empty ref.
export function normalize (ref) {
  ref = pyStrip(ref)
  if (ref === '' || ref === 'home' || ref === '/') return 'home'
  if (ref.endsWith('/') && !isRecordLike(ref)) ref = pyRstrip(ref, '/')
  return ref
}

export function isPeriodLike (ref) {
  return PERIOD_LIKE.test(ref)
}
