// Excerpts and phrase checks over an item's stored text (docs/replies.md#the-reply): twin of builder/query/excerpt.py
// (read its docstring for the window rules). Lengths and positions count code points.
import { analyze } from './bm25/pipeline.js'
import { pyRstrip } from './refs.js'
import { EXCERPT_CHARS, cut } from './text.js'

const LEAD = 40
const SPACE = ' \t\n\r\f\v'
const SEPARATOR = /^[\s-]$/ // lunr's separator, ECMAScript white space (the Python side copies it)

// [start, end, term] of each token of `chars` whose lunr term is in `terms`, in order.
function matches (chars, terms, memo) {
  const heads = [...new Set([...terms].map((t) => [...t].slice(0, 2).join('')))]
  const out = []
  let start = 0
  for (let i = 0; i <= chars.length; i++) {
    if (i < chars.length && !SEPARATOR.test(chars[i])) continue
    if (i > start) {
      const token = chars.slice(start, i).join('')
      // as the analysis reads it (pipeline.js analyzePairs): NFKC, lower case, σ for ς
      const low = token.normalize('NFKC').toLowerCase().replaceAll('ς', 'σ')
      if (heads.some((h) => low.includes(h))) {
        const found = analyze(token, memo)
        if (found.length && terms.has(found[0])) out.push([start, i, found[0]])
      }
    }
    start = i + 1
  }
  return out
}

// Do the terms of `phrase` occur one after another in `text`? `memo`: the caller's WordMemo.
export function hasPhrase (text, phrase, memo = null) {
  if (!phrase.length) return true
  const terms = analyze(text, memo)
  for (let i = 0; i + phrase.length <= terms.length; i++) {
    if (phrase.every((t, k) => terms[i + k] === t)) return true
  }
  return false
}

function windowStart (chars, at) {
  let start = Math.max(0, at - LEAD)
  if (start > 0 && !SPACE.includes(chars[start - 1])) {
    let k = start
    while (k < at && !SPACE.includes(chars[k])) k++
    start = k < at ? k + 1 : at
  }
  return start
}

export function excerpt (text, terms, fallback, limit = EXCERPT_CHARS, memo = null) {
  const chars = [...text]
  const hits = terms.size ? matches(chars, terms, memo) : []
  if (!hits.length) return cut(fallback, limit)
  let bestStart = 0
  let bestWorth = -1
  for (const [at] of hits) {
    const start = windowStart(chars, at)
    const reach = start + limit - 2
    const worth = new Set(hits.filter(([s, e]) => s >= start && e <= reach).map((h) => h[2])).size
    if (worth > bestWorth) [bestStart, bestWorth] = [start, worth]
  }
  const prefix = bestStart > 0 ? '…' : ''
  const room = limit - prefix.length
  const rest = chars.slice(bestStart)
  if (rest.length <= room) return prefix + pyRstrip(rest.join(''))
  let kept = rest.slice(0, room - 1)
  let space = -1
  for (let i = kept.length - 1; i >= 0; i--) if (SPACE.includes(kept[i])) { space = i; break }
  if (space > Math.floor(kept.length / 2)) kept = kept.slice(0, space)
  return prefix + pyRstrip(kept.join('')) + '…'
}
