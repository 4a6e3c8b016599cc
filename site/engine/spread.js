// Spread ranked search items across conversations: twin of builder/query/spread.py (read its
// docstring for the rule). The penalty is repeated multiplication, the same doubles as Python.
import { cmp } from './order.js'

export const FACTOR = 0.3
export const POOL = 50

// ranked: [entry, score, ...] in rank order; keys[i]: the conversation key (a string) of
// ranked[i] for i < POOL; block(cand): the part of the rank key before the score.
export function spread (ranked, keys, block) {
  const rest = ranked.slice(0, POOL)
  const restKeys = keys.slice(0, POOL)
  const out = []
  const taken = new Map()
  while (rest.length) {
    let best = 0
    let bestKey = null
    for (let i = 0; i < rest.length; i++) {
      let value = rest[i][1]
      for (let k = taken.get(restKeys[i]) || 0; k > 0; k--) value = value * FACTOR
      const key = [block(rest[i]), -value]
      if (bestKey === null || cmp(key, bestKey) < 0) { best = i; bestKey = key }
    }
    out.push(rest.splice(best, 1)[0])
    const conv = restKeys.splice(best, 1)[0]
    taken.set(conv, (taken.get(conv) || 0) + 1)
  }
  return out.concat(ranked.slice(POOL))
}
