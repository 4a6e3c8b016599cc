// bf recall in the browser: twin of builder/query/recall.py (read its docstring for the fold).
import { invalidInput, pyRepr } from './errors.js'
import { cut } from './text.js'
import { read } from './read.js'
import { ITEM_FIELDS, RECORD_FIELDS, search } from './search.js'
import { openStore } from './store.js'
import { diversify, vectorOf } from './vector.js'
import { pyStrip, pyWords } from './refs.js'

export const DEFAULT_BUDGET = 16000
const MAX_BUDGET = 1000000
const CANDIDATES = 50
const MAX_PER_ENTITY = 2
const GIST_CHARS = 160
// what a quoted memory keeps of its search item (twin of recall.QUOTED)
const QUOTED = [...new Set(['kind', 'brain', 'ref', 'uri', 'title', 'path',
  ...[...ITEM_FIELDS, ...RECORD_FIELDS].filter(([, , quoted]) => quoted).map(([name]) => name), 'source', 'score'])]
const FRONTMATTER = /^---[ \t]*\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/
// Python's \b is Unicode-aware: a tag name ends where no letter, digit or "_" follows.
const DETAILS_TAGS = /<\/?(?:details|summary)(?![\p{L}\p{N}_])[^>]*>/giu
const length = (text) => [...text].length

function checkBudget (budget) {
  if (typeof budget !== 'number' || !Number.isInteger(budget) || !(budget >= 1 && budget <= MAX_BUDGET)) {
    throw invalidInput('budget', `must be a whole number from 1 to ${MAX_BUDGET}, got ${pyRepr(budget)}`)
  }
  return budget
}

export const disclose = (text) => text.replace(DETAILS_TAGS, '')

function indexLine (item, rank, reason) {
  const line = {}
  for (const k of ['kind', 'brain', 'ref', 'uri', 'title']) line[k] = item[k] ?? null
  const gist = cut(pyWords(item.excerpt || '').join(' '), GIST_CHARS)
  return Object.assign(line, { rank, gist, reason })
}

function quoted (item, rank, text) {
  const out = {}
  for (const k of QUOTED) if (Object.hasOwn(item, k)) out[k] = item[k]
  return Object.assign(out, { rank, text, chars: length(text) })
}

// Fold ranked search items into quoted memories and index lines.
export async function pack (items, budget, body) {
  const disclosed = []
  const indexLines = []
  let left = budget
  const perEntity = new Map()
  for (let rank = 1; rank <= items.length; rank++) {
    const item = items[rank - 1]
    const entities = item.entities || []
    const capped = entities.some((e) => (perEntity.get(e) || 0) >= MAX_PER_ENTITY)
    if (!capped) {
      const text = await body(item)
      if (length(text) <= left) {
        left -= length(text)
        for (const e of new Set(entities)) perEntity.set(e, (perEntity.get(e) || 0) + 1)
        disclosed.push(quoted(item, rank, text))
        continue
      }
    }
    indexLines.push(indexLine(item, rank, capped ? 'entity_cap' : 'budget'))
  }
  return { memories: { disclosed, index_lines: indexLines }, spent_chars: budget - left, truncated: indexLines.length > 0 }
}

// The quotable text of a search item, from its precomputed read (all pages joined).
async function bodyOf (site, item) {
  const parts = []
  let offset = 0
  for (;;) {
    const page = await read(site, item.uri, { offset })
    parts.push('record' in page ? page.record.text : (page.text ?? ''))
    offset = page.next_offset
    if (!offset) break
  }
  let text = parts.join('')
  if (item.kind === 'note') text = text.replace(FRONTMATTER, '')
  return pyStrip(disclose(text))
}

export async function recall (site, query, { budget = DEFAULT_BUDGET, scope = null, type = null, path = null, brains = null, mode = null } = {}) {
  budget = checkBudget(budget)
  const found = await search(site, query, { scope, type, path, limit: CANDIDATES, brains, mode })
  const reply = {}
  for (const [k, v] of Object.entries(found)) if (k !== 'items') reply[k] = v
  let items = found.items
  if (found.arms.includes('vector')) { // diversified by MMR first (recall.py)
    const vectors = []
    for (const item of items) vectors.push(await vectorOf(site, openStore(site, item.brain), item.ref))
    items = diversify(items, vectors)
  }
  Object.assign(reply, await pack(items, budget, (item) => bodyOf(site, item)))
  return Object.assign(reply, { budget, candidates: found.items.length })
}
