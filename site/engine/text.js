// Excerpts and previews: twin of builder/kernel/text.py, the part the browser needs (cut on
// code points, '…' marks the cut; the build alone turns Markdown into plain text).
import { pyRstrip, pyStrip } from './refs.js'

export const EXCERPT_CHARS = 320

// Strip, then cut to `limit` code points with "…".
export function cut (text, limit = EXCERPT_CHARS) {
  const chars = [...pyStrip(text)]
  if (chars.length <= limit) return chars.join('')
  return pyRstrip(chars.slice(0, limit - 1).join('')) + '…'
}

// A note's searchable text from its pieces (lead + sections): the build and the query join alike.
export const joinPieces = (pieces) => pieces.filter(Boolean).join(' ')
