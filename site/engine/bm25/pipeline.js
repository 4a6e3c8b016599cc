// Text analysis for any script (read pipeline.py's docstring).
// Twin of builder/bm25/pipeline.py: same tokens, same numbers, bit for bit.
import { stem } from './stemmer.js'
import { MN_TABLE, WORD_TABLE, decode } from './unitable.js'

export const STOP_WORDS = new Set(('a able about across after all almost also am among an and any are as at be ' +
  'because been but by can cannot could dear did do does either else ever every for from get got had has have he ' +
  'her hers him his how however i if in into is it its just least let like likely may me might most must my ' +
  'neither no nor not of off often on only or other our own rather said say says she should since so some than ' +
  'that the their them then there these they this tis to too twas us wants was we were what when where which ' +
  'while who whom why will with would yet you your').split(' '))

const SPACELESS = [[0xE00, 0xEFF], [0x1000, 0x109F], [0x1100, 0x11FF], [0x1780, 0x17FF], [0x19E0, 0x19FF], [0x3005, 0x3007], [0x3021, 0x3029], [0x3031, 0x3035], [0x303B, 0x303C], [0x3040, 0x30FF], [0x3130, 0x318F], [0x31F0, 0x31FF], [0x3400, 0x4DBF], [0x4E00, 0x9FFF], [0xA960, 0xA97F], [0xA9E0, 0xA9FF], [0xAA60, 0xAA7F], [0xAC00, 0xD7FF], [0xF900, 0xFAFF], [0xFF66, 0xFFDC], [0x1B000, 0x1B16F], [0x20000, 0x2FA1F], [0x30000, 0x323AF]]
const LATIN = [[0x30, 0x39], [0x61, 0x7A], [0xAA, 0xAA], [0xBA, 0xBA], [0xC0, 0x24F], [0x250, 0x2AF], [0x300, 0x36F], [0x1AB0, 0x1AFF], [0x1D00, 0x1DFF], [0x1E00, 0x1EFF], [0x20D0, 0x20FF], [0x2C60, 0x2C7F], [0xA720, 0xA7FF], [0xAB30, 0xAB6F]]
const FOLD_MAP = { 'ß': 'ss', 'æ': 'ae', 'ø': 'o', 'œ': 'oe', 'đ': 'd', 'ð': 'd', 'ł': 'l', 'þ': 'th', 'ı': 'i' }

const esc = (cp) => `\\u{${cp.toString(16)}}`
const charClass = (ranges) => ranges.map(([a, b]) => (a === b ? esc(a) : `${esc(a)}-${esc(b)}`)).join('')
const WORD_RE = new RegExp(`[${charClass(decode(WORD_TABLE))}]+`, 'gu')
const MN_RE = new RegExp(`[${charClass(decode(MN_TABLE))}]+`, 'gu')
const SPACELESS_RE = new RegExp(`[${charClass(SPACELESS)}]+`, 'gu')
const LATIN_RE = new RegExp(`^[${charClass(LATIN)}]+$`, 'u')
const FOLD_RE = new RegExp(`[${Object.keys(FOLD_MAP).join('')}]`, 'gu')
const ASCII_WORD_RE = /[a-z0-9]+/g
const isAscii = (s) => /^[\x00-\x7f]*$/.test(s)

// The diacritic-folded form of a lower-cased word.
export function fold (word) {
  if (isAscii(word)) return word
  return word.normalize('NFD').replace(MN_RE, '').normalize('NFC').replace(FOLD_RE, (c) => FOLD_MAP[c])
}

// Raw word -> its analysis, for whoever analyses many texts (read WordMemo in pipeline.py): an
// open site keeps one for its searches. Smaller than Python's: a page's memory is the reader's.
export class WordMemo {
  static MAX = 100000
  constructor () { this.pairs = new Map() }
}

function asciiPairs (word) {
  if (STOP_WORDS.has(word)) return []
  const s = stem(word)
  return [[s, s]]
}

function plainPairs (word) {
  if (isAscii(word)) return asciiPairs(word)
  word = word.replaceAll('ς', 'σ')
  const f = fold(word)
  if (LATIN_RE.test(word)) {
    if (STOP_WORDS.has(word)) return []
    const e = stem(word)
    return [[e, f === word || !f || STOP_WORDS.has(f) ? e : stem(f)]]
  }
  return [[word, f || word]]
}

function wordPairs (raw) {
  const norm = raw.normalize('NFKC').toLowerCase()
  const out = []
  for (const word of norm.match(WORD_RE) || []) {
    if (isAscii(word)) { out.push(...asciiPairs(word)); continue }
    let at = 0
    for (const m of word.matchAll(SPACELESS_RE)) {
      if (m.index > at) out.push(...plainPairs(word.slice(at, m.index)))
      const cps = Array.from(m[0])
      if (cps.length === 1) out.push([cps[0], cps[0]])
      else for (let i = 0; i + 1 < cps.length; i++) { const b = cps[i] + cps[i + 1]; out.push([b, b]) }
      at = m.index + m[0].length
    }
    if (at < word.length) out.push(...plainPairs(word.slice(at)))
  }
  return out
}

// One [exact term, folded term] pair per position of `text`, in order; `memo`: the caller's
// WordMemo (without one, only this text's words are memoised).
export function analyzePairs (text, memo = null) {
  text = String(text)
  const words = isAscii(text) ? (text.toLowerCase().match(ASCII_WORD_RE) || []) : (text.match(WORD_RE) || [])
  const seen = memo ? memo.pairs : new Map()
  const out = []
  for (const w of words) {
    let pairs = seen.get(w)
    if (pairs === undefined) {
      if (seen.size > WordMemo.MAX) seen.clear()
      pairs = wordPairs(w)
      seen.set(w, pairs)
    }
    for (const p of pairs) out.push(p)
  }
  return out
}

// The exact terms of `text`, one per position.
export const analyze = (text, memo = null) => analyzePairs(text, memo).map(([e]) => e)
export const queryTerms = analyzePairs
export function analyzeQueryWord (word) {
  const pairs = analyzePairs(word)
  return pairs.length ? pairs[0][0] : ''
}
export const queryWords = analyzePairs

// The name-index key of a title, alias, file stem or query: its folded terms joined by ' '.
export const nameKey = (text, memo = null) => analyzePairs(text, memo).map(([, f]) => f).join(' ')
