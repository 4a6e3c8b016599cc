// Source coverage in search replies (docs/replies.md#the-reply): twin of builder/query/coverage.py.
import { NOTE_KINDS, RECORD_KINDS } from './scopes.js'
import { sortedBy } from './order.js'

export function coverageFields (scope, stores, items) {
  if (NOTE_KINDS.includes(scope.kind)) return {}
  const searched = []
  for (const brain of sortedBy([...stores.keys()], (b) => b)) {
    if (scope.brain !== null && brain !== scope.brain) continue
    for (const name of stores.get(brain).sources()) {
      if ((scope.kind === 'source' || scope.kind === 'undated') && name !== scope.value) continue
      searched.push([brain, name])
    }
  }
  const everything = !items.length || RECORD_KINDS.includes(scope.kind)
  const returned = new Set(items.filter((i) => i.kind === 'record').map((i) => JSON.stringify([i.brain, i.source])))
  const listed = []
  for (const [brain, name] of searched) {
    const cov = stores.get(brain).meta.sources[name]
    if (everything || returned.has(JSON.stringify([brain, name])) || cov.needs_attention) listed.push(cov)
  }
  return { sources: listed, sources_omitted: searched.length - listed.length }
}
