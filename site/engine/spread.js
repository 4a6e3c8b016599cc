// Spread ranked search items across conversations: twin of builder/query/spread.py (read its
// docstring for the rule). The penalty is repeated multiplication, the same doubles as Python.
import { cmp } from './order.js'

export const FACTOR = 0.5
export const HEAD = 5
export const POOL = 50

// ranked: [entry, score, ...] in rank order (scores do not rise within a block); keys[i]: the
// conversation key (a string) of ranked[i] for i < POOL; block(cand): the part of the rank key
// before the score. The first HEAD places are spread; each step compares one item per
// conversation: its first one left. The items not taken follow in rank order.
export function spread (ranked, keys, block) {
  const pool = ranked.slice(0, POOL)
  const blocks = pool.map(block)
  const picked = []
  const taken = new Map()
  let start = 0
  while (start < pool.length && picked.length < HEAD) {
    let end = start
    while (end < pool.length && cmp(blocks[end], blocks[start]) === 0) end++
    const queues = new Map() // conversation -> its positions left, in rank order
    for (let i = start; i < end; i++) {
      if (!queues.has(keys[i])) queues.set(keys[i], [])
      queues.get(keys[i]).push(i)
    }
    for (let n = start; n < end && picked.length < HEAD; n++) {
      let best = -1
      let bestValue = 0.0
      let bestConv = null
      for (const [conv, queue] of queues) {
        if (!queue.length) continue
        const i = queue[0]
        let value = pool[i][1]
        for (let k = taken.get(conv) || 0; k > 0; k--) value = value * FACTOR
        if (best < 0 || value > bestValue || (value === bestValue && i < best)) {
          best = i; bestValue = value; bestConv = conv
        }
      }
      picked.push(queues.get(bestConv).shift())
      taken.set(bestConv, (taken.get(bestConv) || 0) + 1)
    }
    start = end
  }
  const chosen = new Set(picked)
  return picked.map((i) => pool[i]).concat(pool.filter((c, i) => !chosen.has(i)), ranked.slice(POOL))
}
