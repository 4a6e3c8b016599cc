// BM25 arithmetic.
// Twin of builder/bm25/scoring.py: same tokens, same numbers, bit for bit.

export const LUNR_FORMAT = 'bf-lunr-11' // kernel/formats.py
// A hit placed in the span of a date the query names weighs this much more (scoring.WHEN_BOOST).
export const WHEN_BOOST = 2.0

const LN2 = 0.6931471805599453
const SQRT2 = 1.4142135623730951
const INV = []
for (let k = 1; k < 32; k += 2) INV.push(1.0 / k)

// Natural logarithm from + - * / only, so it equals scoring.ln bit for bit.
export function ln (x) {
  let e = 0
  while (x >= 2.0) { x = x / 2.0; e += 1 }
  while (x < 1.0) { x = x * 2.0; e -= 1 }
  if (x > SQRT2) { x = x / 2.0; e += 1 }
  const s = (x - 1.0) / (x + 1.0)
  const s2 = s * s
  let p = INV[15]
  for (let k = 14; k >= 0; k--) p = p * s2 + INV[k]
  return e * LN2 + 2.0 * s * p
}

export function idf (n, df) {
  const x = (n - df + 0.5) / (df + 0.5)
  return ln(1.0 + Math.abs(x))
}

const encoder = new TextEncoder()

export function fnv1a (term) {
  let h = 0x811c9dc5
  for (const byte of encoder.encode(term)) h = Math.imul(h ^ byte, 0x01000193) >>> 0
  return h
}
