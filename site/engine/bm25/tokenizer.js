// lunr.js 2.3.9's tokenizer (site/searchpage.js highlights with it).
// Twin of builder/bm25/tokenizer.py: same tokens, same numbers, bit for bit.

export const separator = /[\s\-]+/

// lunr.tokenizer: lower-cased tokens with [start, length] in UTF-16 units.
export function tokenize (text) {
  const str = String(text).toLowerCase()
  const out = []
  for (let end = 0, start = 0; end <= str.length; end++) {
    if (end === str.length || separator.test(str.charAt(end))) {
      if (end > start) out.push([str.slice(start, end), start, end - start])
      start = end + 1
    }
  }
  return out
}
