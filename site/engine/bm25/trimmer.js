// lunr.js 2.3.9's trimmer.
// Twin of builder/bm25/trimmer.py: same tokens, same numbers, bit for bit.

export function trim (s) {
  return s.replace(/^\W+/, '').replace(/\W+$/, '')
}
