// Ranking for searches without phrases: twin of builder/query/topk.py. Both runtimes share
// keepGroups; ranked_top is Python's fast path (one check per note rather than one item per
// hit), which the browser does without: search.js ranks through its candidates(), the reference
// both runtimes share, and parity tests compare the two.
import { NOTE_KINDS, RECORD_KINDS } from './scopes.js'

// The index groups (records: their source; notes and sections: '') whose hits can survive the
// scope, or null for all (read keep_groups in topk.py for when a dropped hit narrows).
export function keepGroups (scope, store, type, path) {
  if (NOTE_KINDS.includes(scope.kind)) return new Set([''])
  if ((scope.kind === 'source' || scope.kind === 'undated') && type === null && path === null) return new Set([scope.value])
  if (RECORD_KINDS.includes(scope.kind)) return new Set(Object.keys(store.meta.records || {}))
  return null
}
