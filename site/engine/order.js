// Python's ordering in JS: strings compare by code point (JS `<` compares UTF-16 units, which
// puts U+FF5E after U+1F600), tuples element by element; Array.prototype.sort is stable like sorted().
export function cmp (a, b) {
  if (typeof a === 'string' && typeof b === 'string') {
    if (a === b) return 0
    const n = Math.min(a.length, b.length)
    for (let i = 0; i < n; i++) {
      const x = a.codePointAt(i)
      const y = b.codePointAt(i)
      if (x !== y) return x < y ? -1 : 1
      if (x > 0xffff) i++
    }
    return a.length < b.length ? -1 : a.length > b.length ? 1 : 0
  }
  if (Array.isArray(a)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = cmp(a[i], b[i])
      if (c) return c
    }
    return a.length - b.length
  }
  return a < b ? -1 : a > b ? 1 : 0
}

// sorted(items, key=key, reverse=reverse)
export function sortedBy (items, key, reverse = false) {
  const keyed = items.map((item) => [key(item), item])
  keyed.sort((p, q) => (reverse ? cmp(q[0], p[0]) : cmp(p[0], q[0])))
  return keyed.map((p) => p[1])
}
