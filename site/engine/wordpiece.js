// The teacher's tokenizer for the vector arm: twin of builder/vectors/wordpiece.py (read its
// docstring for the steps). Strings are handled as arrays of code points, as Python does.
const MAX_WORD = 100
const INITIAL = 64 // wordpiece.py INITIAL, CONTINUING: vocabulary shards of initial and ## pieces
const CONTINUING = 32
const OTHER = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}]$/u
const SPACE = /^[\t\n\r\p{Zs}]$/u
const MARK = /\p{Mn}/gu
const PUNCT = /^[!-/:-@[-`{-~\p{P}]$/u
const CJK = [[0x4E00, 0x9FFF], [0x3400, 0x4DBF], [0x20000, 0x2A6DF], [0x2A700, 0x2B73F], [0x2B740, 0x2B81F],
  [0x2B820, 0x2CEAF], [0xF900, 0xFAFF], [0x2F800, 0x2FA1F]]

const isCjk = (cp) => CJK.some(([lo, hi]) => lo <= cp && cp <= hi)

export function normalize (text) {
  const out = []
  for (const ch of text) {
    if (SPACE.test(ch)) out.push(' ')
    else if (ch === '\0' || ch === '\ufffd' || OTHER.test(ch)) continue
    else if (isCjk(ch.codePointAt(0))) out.push(` ${ch} `)
    else out.push(ch)
  }
  return out.join('').normalize('NFD').replace(MARK, '').toLowerCase()
}

export function words (text) {
  const out = []
  for (const chunk of normalize(text).split(' ')) {
    const chars = [...chunk]
    let start = 0
    for (let i = 0; i < chars.length; i++) {
      if (PUNCT.test(chars[i])) {
        if (i > start) out.push(chars.slice(start, i).join(''))
        out.push(chars[i])
        start = i + 1
      }
    }
    if (start < chars.length) out.push(chars.slice(start).join(''))
  }
  return out
}

// The vocabulary shard holding `token` (wordpiece.py shard_of).
export function shardOf (token) {
  const chars = [...token]
  if (token.startsWith('##') && chars.length > 2) return INITIAL + chars[2].codePointAt(0) % CONTINUING
  return (chars[0].codePointAt(0) * 257 + (chars.length > 1 ? chars[1].codePointAt(0) : 0)) % INITIAL
}

// The shards holding every piece WordPiece may look up for `word` (wordpiece.py shards_of).
export function shardsOf (word) {
  const chars = [...word]
  const out = new Set([shardOf(chars.slice(0, 1).join('')), shardOf(chars.slice(0, 2).join(''))])
  for (const c of chars.slice(1)) out.add(shardOf('##' + c))
  return out
}

export class WordPiece {
  // `vocab`: every token (id = index), or a token → id Map holding at least the pieces of the
  // words it will split (shardsOf), which may grow between calls.
  constructor (vocab) {
    this.ids = vocab instanceof Map ? vocab : new Map(vocab.map((tok, i) => [tok, i]))
    this.cache = new Map()
  }

  // The word's token ids, or [] for [UNK].
  piece (word) {
    let hit = this.cache.get(word)
    if (hit === undefined) {
      hit = this.split([...word])
      this.cache.set(word, hit)
    }
    return hit
  }

  split (chars) {
    if (chars.length > MAX_WORD) return []
    const out = []
    let start = 0
    while (start < chars.length) {
      let end = chars.length
      while (end > start) {
        const sub = (start === 0 ? '' : '##') + chars.slice(start, end).join('')
        const id = this.ids.get(sub)
        if (id !== undefined) {
          out.push(id)
          break
        }
        end -= 1
      }
      if (end === start) return []
      start = end
    }
    return out
  }

  // Whether a word of `text` (two characters or more) is one whole token of the vocabulary
  // (wordpiece.py known: text made only of word pieces adds nothing of its own).
  known (text) {
    return words(text).some((w) => [...w].length > 1 && this.piece(w).length === 1)
  }

  // Token ids of `text` ([UNK] dropped), the first `limit` of them when given.
  tokens (text, limit = null) {
    const out = []
    for (const word of words(text)) {
      out.push(...this.piece(word))
      if (limit !== null && out.length >= limit) return out.slice(0, limit)
    }
    return out
  }
}
