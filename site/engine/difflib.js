// difflib.get_close_matches(word, possibilities, n=1) of Python, for "did you mean" hints:
// SequenceMatcher's ratio (matching blocks, autojunk on) and the same tie-break.
import { cmp } from './order.js'

function ratio (a, b) { // a, b: arrays of code points; Python's SequenceMatcher(None, a, b).ratio()
  const b2j = new Map()
  b.forEach((ch, j) => { if (!b2j.has(ch)) b2j.set(ch, []); b2j.get(ch).push(j) })
  if (b.length >= 200) { // autojunk: drop elements more popular than 1% + 1
    const ntest = Math.floor(b.length / 100) + 1
    for (const [ch, idx] of [...b2j]) if (idx.length > ntest) b2j.delete(ch)
  }
  const longest = (alo, ahi, blo, bhi) => {
    let [besti, bestj, bestsize] = [alo, blo, 0]
    let j2len = new Map()
    for (let i = alo; i < ahi; i++) {
      const next = new Map()
      for (const j of b2j.get(a[i]) || []) {
        if (j < blo) continue
        if (j >= bhi) break
        const k = (j2len.get(j - 1) || 0) + 1
        next.set(j, k)
        if (k > bestsize) [besti, bestj, bestsize] = [i - k + 1, j - k + 1, k]
      }
      j2len = next
    }
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) { besti--; bestj--; bestsize++ }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) bestsize++
    return [besti, bestj, bestsize]
  }
  let matches = 0
  const queue = [[0, a.length, 0, b.length]]
  while (queue.length) {
    const [alo, ahi, blo, bhi] = queue.pop()
    const [i, j, k] = longest(alo, ahi, blo, bhi)
    if (!k) continue
    matches += k
    if (alo < i && blo < j) queue.push([alo, i, blo, j])
    if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi])
  }
  const total = a.length + b.length
  return total ? 2 * matches / total : 1
}

export function closeMatch (word, possibilities, cutoff = 0.6) {
  let best = null
  const b = [...word]
  for (const x of possibilities) {
    const score = ratio([...x], b)
    if (score >= cutoff && (best === null || score > best[0] || (score === best[0] && cmp(x, best[1]) > 0))) best = [score, x]
  }
  return best && best[1]
}
