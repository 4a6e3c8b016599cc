// bf similar in the browser: twin of builder/query/similar.py (read its docstring for the
// steps and orders). Same items, order and similarities as Python for the same built site.
import * as refs from './refs.js'
import { embeddingsMissing, invalidInput, notFound } from './errors.js'
import { coverageFields } from './coverage.js'
import { checkRef, finish, selected } from './read.js'
import { admits, parseScope, window } from './scopes.js'
import { checkLimit, itemOf, openStores, refsOf } from './search.js'
import { keepGroups, ownCandidates } from './topk.js'
import { sortedBy } from './order.js'
import { PROBE } from './vector.js'
import { brainVectors, table } from './vectorstore.js'

async function candidate (store, vectors, groups, doc) {
  const [group] = (await store.reader.grouper())(doc)
  return (groups === null || groups.has(group)) && vectors.addable(doc)
}

// [store, doc, the doc ids never listed] of the first chosen brain whose index holds `ref`.
async function target (stores, chosen, ref) {
  for (const name of chosen) {
    const store = stores.get(name)
    const doc = store ? await store.reader.doc(ref) : null
    if (doc !== null) {
      const [group] = (await store.reader.grouper())(doc)
      const skip = new Set([doc])
      if (ref.includes('#') && !group) skip.add(await store.reader.doc(ref.slice(0, ref.indexOf('#'))))
      return [store, doc, skip]
    }
  }
  return [null, null, new Set()]
}

export const EMPTY_SIMILAR = 'empty: name a note, section or record (bf search finds one)'

export async function similar (site, refText, { limit = 10, scope = null, brains = null } = {}) {
  refText = checkRef(refText)
  if (!refText) throw invalidInput('ref', EMPTY_SIMILAR)   // bf read's empty ref is home, which has no neighbours by meaning
  limit = checkLimit(limit)
  const [chosen, ref] = selected(site, refText, brains)
  const [stores, missing] = await openStores(site, brains)
  const sc = await parseScope(scope, stores)
  let has = stores.size > 0 && (await table(site)).ok()
  for (const store of stores.values()) has = has && (await brainVectors(site, store)).ok()
  if (!has) throw embeddingsMissing(String(site.root), 'semantic', 'bf similar')
  const [store, doc, skip] = await target(stores, chosen, ref)
  if (store === null) throw notFound(refText)
  const [q, qq] = await (await brainVectors(site, store)).row(doc)
  const asOf = new Date(site.asOf)
  const trivial = ownCandidates(sc, null, null)
  let found = []
  let total = 0
  for (const name of sortedBy([...stores.keys()], (n) => n)) {
    const other = stores.get(name)
    const groups = keepGroups(sc, other, null, null)
    const vectors = await brainVectors(site, other)
    const count = await vectors.count(groups)
    // a trivial scope refuses nothing: the first limit + 2 (REF and its note) suffice
    const near = qq ? await (trivial ? vectors.nearest(q, qq, groups, limit + 2, PROBE) : vectors.nearest(q, qq, groups, count)) : []
    const info = site.brain(name) || {}
    const bounds = window(sc, 'timezone' in info ? info.timezone : 'UTC', asOf)
    const mine = other === store ? skip : new Set()
    let kept = 0
    for (const [sim, d] of near) {
      if (mine.has(d)) continue
      const entry = await other.hit(d)
      if (entry === null) continue
      if (!trivial) {
        if (entry.kind === 'record') {
          await refsOf(stores, [entry])
          await other.withMeta(entry)
        }
        if (!admits(sc, entry, bounds)) continue
      }
      kept += 1
      if (kept <= limit) found.push([sim, name, d, entry])
    }
    if (trivial) {
      for (const d of mine) if (await candidate(other, vectors, groups, d)) total -= 1
      total += count
    } else total += kept
  }
  found = sortedBy(found, ([sim, name, d]) => [-sim, name, d]).slice(0, limit)
  await refsOf(stores, found.map((f) => f[3]))
  const items = []
  for (const [sim, name, , entry] of found) items.push(await itemOf(stores.get(name), [entry, sim, null, sim], new Set()))
  const hit = await store.hit(doc)
  await refsOf(stores, [hit])
  const reply = {
    query: refText,
    similar_to: { kind: hit.kind, brain: store.brain, ref: hit.ref, uri: refs.uri(store.brain, hit.ref) },
    scope: sc.text, as_of: site.asOf, brains: sortedBy([...stores.keys()], (b) => b), items, total,
    scope_empty: sc.kind !== 'none' && !items.length && Boolean(qq), arms: ['vector'], degraded: false
  }
  Object.assign(reply, coverageFields(sc, stores, items))
  return finish(site, '', reply, missing)
}
