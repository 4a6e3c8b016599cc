// The index's adjacent-pair filter, what a query needs of it: twin of builder/bm25/adjacent.py
// (FORMAT.md a/). A pair of exact terms (a, b) is in bucket ((fnv1a(a) * MIX) ^ fnv1a(b)) mod
// the index's pairBuckets: Math.imul keeps the low 32 bits of the product, as Python's mask does.
import { fnv1a } from './scoring.js'

const MIX = 0x01000193

// The buckets of each two adjacent terms of a phrase (its exact terms), ascending.
export function phraseBuckets (terms, buckets) {
  const hs = terms.map(fnv1a)
  const out = new Set()
  for (let i = 1; i < hs.length; i++) out.add((Math.imul(hs[i - 1], MIX) ^ hs[i]) & (buckets - 1))
  return [...out].sort((x, y) => x - y)
}
