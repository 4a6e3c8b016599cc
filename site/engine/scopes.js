// Search scopes (docs/replies.md#scopes): twin of builder/query/scopes.py (read its docstring for the rules).
import * as refs from './refs.js'
import { invalidInput, pyRepr } from './errors.js'
import { parsePeriod } from './periods.js'
import { closeMatch } from './difflib.js'
import { rfc3339 } from './listing.js'
import { sortedBy } from './order.js'

export const NOTE_KINDS = ['folder', 'note', 'tag'] // authored scopes: notes alone
export const RECORD_KINDS = ['memories', 'source', 'undated']
const MAX_SCOPE = 4096

// A parsed scope: text as given (null: no scope), kind, value (the folder, note ref, tag, source
// or identity), period, brain (a bf:// address names one brain); frozen, as Python's dataclass.
export class Scope {
  constructor (text, kind, value = '', period = null, brain = null) {
    Object.assign(this, { text, kind, value, period, brain })
    this.notes = !RECORD_KINDS.includes(kind) // does it admit notes and sections? records?
    this.records = !NOTE_KINDS.includes(kind)
    Object.freeze(this)
  }
}
export const NONE = new Scope(null, 'none')

const bad = (why) => invalidInput('scope', why)

// [base, last] like Python's str.rpartition("/") without the separator.
function rpartition (text) {
  const at = text.lastIndexOf('/')
  return at < 0 ? ['', text] : [text.slice(0, at), text.slice(at + 1)]
}

// `stores`: Map of the selected brains' stores (folders and sources are looked up there).
export async function parseScope (text, stores) {
  if (text === null || text === undefined) return NONE
  if (typeof text !== 'string') throw bad('must be a string')
  if ([...text].length > MAX_SCOPE || [...text].some((c) => c.codePointAt(0) < 32 || c.codePointAt(0) === 127)) {
    throw bad(`longer than ${MAX_SCOPE} characters or holds control characters`)
  }
  const [brain, ref] = refs.splitAddress(refs.pyStrip(text))
  if (brain !== null) return address(text, brain, ref, stores)
  return relative(text, refs.normalize(ref), stores, null)
}

async function address (text, brain, ref, stores) {
  if (!stores.has(brain)) throw bad(`unknown brain ${pyRepr(brain)} in ${text} (valid: ${sortedBy([...stores.keys()], (s) => s).join(', ')})`)
  if (refs.isRecordLike(ref)) return identity(text, ref, new Map([[brain, stores.get(brain)]]), brain)
  if (ref.includes('#')) throw bad(`${text} is a section: scope the whole note, then read the section`)
  if (!ref.endsWith('.md') || ref.endsWith('/')) {
    throw bad(`${text} is a page's address: use its brain-relative form (${refs.normalize(ref)}) with --brain ${brain}`)
  }
  return new Scope(text, 'note', ref, null, brain)
}

async function relative (text, ref, stores, brain) {
  if (ref === 'home') throw bad('empty or home: name a folder, note, tag, source, identity or period')
  if (refs.isRecordLike(ref)) return identity(text, ref, stores, brain)
  if (ref.includes('#')) {
    if (ref === 'memories' || ref.startsWith('memories/')) throw bad(`${text}: a source has no fragments; scope memories/SOURCE`)
    throw bad(`${text} is a section: scope the whole note, then read the section`)
  }
  const isFolder = async (b) => {
    for (const s of stores.values()) if (await s.folderExists(b)) return true
    return false
  }
  const [base, period] = await splitPeriod(text, ref, isFolder)
  if (base === null) return new Scope(text, 'period', '', period, brain)
  const parts = base.split('/')
  if (parts[0] === 'memories') {
    if (parts.length === 1) return new Scope(text, 'memories', '', period, brain)
    knownSource(parts[1], stores)
    if (parts.length === 2) return new Scope(text, 'source', parts[1], period, brain)
    if (parts.length === 3 && parts[2] === 'undated') {
      if (period) throw bad(`${text}: undated records have no event time, so no period applies`)
      return new Scope(text, 'undated', parts[1], null, brain)
    }
    throw bad(`${text}: only \`undated\` or a period may follow memories/${parts[1]}`)
  }
  if (parts[0] === 'tags' && parts.length > 1) return new Scope(text, 'tag', parts.slice(1).join('/'), period, brain)
  if (base.endsWith('.md')) return new Scope(text, 'note', base, period, brain)
  return new Scope(text, 'folder', base, period, brain)
}

// [base or null, period or null] of a path scope.
async function splitPeriod (text, ref, isFolder) {
  const [base, last] = rpartition(ref)
  if (!refs.isPeriodLike(last) || await isFolder(ref)) return [ref, null]
  if (!base) return [null, last]
  if (refs.isPeriodLike(rpartition(base)[1]) && !(await isFolder(base))) {
    throw bad(`${text}: a period cannot be combined with another period`)
  }
  if (base.endsWith('/undated') && base.startsWith('memories/')) {
    throw bad(`${text}: undated records have no event time, so no period applies`)
  }
  return [base, last]
}

async function identity (text, ref, stores, brain) {
  const [base, last] = rpartition(ref)
  let period = null
  if (base && refs.isPeriodLike(last)) {
    ref = base
    period = last
    if (refs.isPeriodLike(rpartition(ref)[1]) && ref.includes('/')) throw bad(`${text}: a period cannot be combined with another period`)
  }
  const source = ref.split(':')[0]
  for (const store of stores.values()) {
    if ((store.meta.records || {})[source] && await store.recordEntry(ref)) {
      throw bad(`${text} is a record, not a scope: scope its source, memories/${source}`)
    }
  }
  return new Scope(text, 'identity', ref, period, brain)
}

function knownSource (name, stores) {
  const known = sortedBy([...new Set([...stores.values()].flatMap((s) => s.sources()))], (s) => s)
  if (known.includes(name)) return
  const close = closeMatch(name, known)
  const hint = close !== null ? ` (did you mean memories/${close}?)` : ` (known: ${known.join(', ') || 'none'})`
  throw bad(`unknown source: memories/${name}${hint}`)
}

// [start, end, asOf] as RFC 3339 strings (they compare like instants), or null; `form` seconds:
// as whole seconds (scopes.py window).
export function window (scope, timezone, asOf, form = rfc3339) {
  if (scope.period === null) return null
  let period
  try {
    period = parsePeriod(scope.period, timezone, asOf)
  } catch (err) {
    if (err.code === 'invalid_input') throw bad(`invalid period: ${scope.period}`)
    throw err
  }
  return [form(period[1]), form(period[2]), form(asOf)]
}

const within = (id, [lo, hi]) => lo <= id && id < hi

// admits() of the item of doc id `doc` in index group `group` ranking as doc `owner` (a
// section's note), from the index alone (scopes.py admits_doc). `bounds`: window()'s in seconds.
export async function admitsDoc (scope, store, doc, group, owner, bounds) {
  const kind = scope.kind
  const reader = store.reader
  if (scope.brain !== null && store.brain !== scope.brain) return false
  if ((NOTE_KINDS.includes(kind) && group) || (RECORD_KINDS.includes(kind) && !group)) return false
  if (kind === 'folder' && !within(owner, await store.span('', scope.value + '/'))) return false
  if (kind === 'note' && !within(owner, await store.span('', scope.value, true))) return false
  if (kind === 'tag' && !(await reader.facet(`tag:${scope.value}`)).has(owner)) return false
  if ((kind === 'source' || kind === 'undated') && group !== scope.value) return false
  if (kind === 'undated' && !(await reader.facet('undated')).has(doc)) return false
  if (kind === 'identity' && !(await reader.facet(`entity:${scope.value}`)).has(owner)) return false
  if (bounds !== null) {
    const [placed] = await reader.placed([doc])
    const [start, end, now] = bounds
    if (placed === null || !(start <= placed && placed < end && placed <= now)) return false
  }
  return true
}

// Does the scope hold this entry? `bounds` from window() for the entry's brain.
export function admits (scope, entry, bounds) {
  const meta = entry.meta
  const kind = scope.kind
  if (scope.brain !== null && entry.brain !== scope.brain) return false
  if ((NOTE_KINDS.includes(kind) && entry.kind === 'record') || (RECORD_KINDS.includes(kind) && entry.kind !== 'record')) return false
  if (kind === 'folder' && !entry.note.startsWith(scope.value + '/')) return false
  if (kind === 'note' && entry.note !== scope.value) return false
  if (kind === 'tag' && !(meta.tags || []).some((t) => t === scope.value || t.startsWith(scope.value + '/'))) return false
  if ((kind === 'source' || kind === 'undated') && entry.source !== scope.value) return false
  if (kind === 'undated' && meta.time !== undefined && meta.time !== null) return false
  if (kind === 'identity' && !(meta.entities || []).includes(scope.value)) return false
  if (bounds !== null) {
    const placed = meta.placed
    const [start, end, now] = bounds
    if (placed === undefined || placed === null || !(start <= placed && placed < end && placed <= now)) return false
  }
  return true
}
