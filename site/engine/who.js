// A person the query names: twin of builder/query/who.py (read its docstring).
import { STOP_WORDS } from './bm25/pipeline.js'

export const BOOST = 1.5

// The identities `text` may name (person:WORD), in the order written, each once (who.py people).
export function people (text) {
  const out = []
  for (const [word] of text.matchAll(/[A-Za-z0-9]+/g)) {
    const key = 'person:' + word.toLowerCase()
    if (word[0] >= 'A' && word[0] <= 'Z' && !STOP_WORDS.has(word.toLowerCase()) && !out.includes(key)) out.push(key)
  }
  return out
}
