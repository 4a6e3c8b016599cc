// The vector arm of bf search and its fusion with the lexical arm: twin of
// builder/query/vector.py (read its docstring for the steps, orders and float operations).
// The vector files are read by vectorstore.js.
import { embeddingsMissing, invalidInput, pyRepr } from './errors.js'
import { sortedBy } from './order.js'
import { keepGroups, ownCandidates } from './topk.js'
import { brainVectors, dot, table } from './vectorstore.js'

export const MODES = ['hybrid', 'lexical', 'semantic']
export const K = 60
export const DEPTH = 50
export const EXTEND = 20
export const PROBE = 16 // buckets scanned for the arm's own candidates (vector.py)
export const MIN_ADDED = 0.6 // an addition needs this similarity (vector.py)
export const FIT = 2.0 // a strong item's words' score over 1 + FIT × its cosine's gap to the best (vector.py)
export const WEIGHT_WEAK = 100.0 // the vector arm's weight beside a weak item and for its additions: there the vector order leads

// [the mode to run, whether every selected brain has vectors].
export async function checkMode (mode, site, stores) {
  if (mode !== null && mode !== undefined && !MODES.includes(mode)) {
    throw invalidInput('mode', `must be one of ${MODES.join(', ')}, got ${pyRepr(mode)}`)
  }
  let has = stores.size > 0 && (await table(site)).ok()
  for (const store of stores.values()) has = has && (await brainVectors(site, store)).ok()
  if (mode === null || mode === undefined) return [has ? 'hybrid' : 'lexical', has] // as vector.py
  if (mode !== 'lexical' && !has) throw embeddingsMissing(String(site.root), mode)
  return [mode, has]
}

export const LAMBDA = 0.7 // recall's MMR (vector.py)

// [vector, squared norm] of an item (recall's MMR).
export async function vectorOf (site, store, ref) {
  return (await brainVectors(site, store)).row(await store.reader.doc(ref))
}

// `items` reordered by maximal marginal relevance: vector.py diversify, the same doubles.
export function diversify (items, vectors) {
  const n = items.length
  if (n < 3) return [...items]
  const roots = vectors.map(([, qq]) => Math.sqrt(qq))
  const cos = (a, b) => (roots[a] > 0 && roots[b] > 0 ? dot(vectors[a][0], vectors[b][0], 0) / (roots[a] * roots[b]) : 0.0)
  const left = items.map((_, i) => i)
  const best = new Array(n).fill(0.0)
  const out = []
  while (left.length) {
    let pick = left[0]
    let top = -Infinity
    for (const i of left) {
      const v = LAMBDA * ((n - i) / n) - (1 - LAMBDA) * best[i]
      if (v > top) { top = v; pick = i } // the better-ranked on ties: left ascends
    }
    out.push(items[pick])
    left.splice(left.indexOf(pick), 1)
    for (const i of left) best[i] = Math.max(best[i], cos(pick, i))
  }
  return out
}

// How many of a query's n >= 2 words an any-word candidate must hold to be strong (vector.py).
export function heldEnough (n) { return n === 2 ? 1 : 2 }

// Each hybrid candidate's fused score (vector.py _scores): a strong item's lexical score weighed
// by its cosine's gap to the best strong item's; a weak item's reciprocal ranks.
function scores (entries, strong, sims, lscore, lrank, vrank) {
  let top = 0.0
  for (const k of strong) top = Math.max(top, lscore.get(k))
  const near = [...strong].map((k) => sims.get(k)).filter((sim) => sim !== null)
  const best = near.length ? Math.max(...near) : 0.0
  const least = near.length ? Math.min(...near) : 0.0
  const score = new Map()
  for (const k of entries.keys()) {
    if (strong.has(k)) {
      const gap = best - (sims.get(k) !== null ? sims.get(k) : least)
      // every strong item scored 0 (words every document holds): all tie, and the cosine orders them
      score.set(k, (top ? lscore.get(k) / top : 1) / (1 + FIT * gap) / (K + 1))
    } else {
      const rrf = (lrank.has(k) ? 1 / (K + lrank.get(k)) : 0.0) + (vrank.has(k) ? WEIGHT_WEAK / (K + vrank.get(k)) : 0.0)
      score.set(k, rrf / (1 + WEIGHT_WEAK))
    }
  }
  return score
}

// [[[entry, score, lexical score | null, similarity | null]] in reply order, total] (vector.py fused).
// spreadBy(ranked, block): ranked spread across conversations within blocks (search.js);
// admit(entry): whether an addition holds the query's phrases (null: no phrase).
export async function fused (mode, site, stores, text, lexical, lexicalTotal, nWords, limit, scope, type, path, spreadBy, admit = null) {
  const queries = new Map()
  const query = async (name) => { // [vector, squared norm] in brain `name`
    if (!queries.has(name)) {
      const q = await (await table(site)).query(text, await (await brainVectors(site, stores.get(name))).weights())
      queries.set(name, [q, dot(q, q, 0)])
    }
    return queries.get(name)
  }
  const keyOf = (entry) => JSON.stringify([entry.brain, entry.id])
  const sims = new Map()
  const entries = new Map()
  const keys = new Map()
  // the candidates' vector pages and each brain's query asked at once, read in order below (a
  // failure is met there): one after another they cost a round trip each
  await Promise.all([...lexical.map(([entry]) => brainVectors(site, stores.get(entry.brain)).then((v) => v.at(entry.id)).catch(() => null)),
    ...[...new Set(lexical.map(([entry]) => entry.brain))].map((name) => query(name).catch(() => null))])
  for (const [entry] of lexical) {
    const key = keyOf(entry)
    entries.set(key, entry)
    keys.set(key, [entry.brain, entry.id])
    const [q, qq] = await query(entry.brain)
    sims.set(key, qq ? await (await brainVectors(site, stores.get(entry.brain))).similarity(q, qq, entry.id) : null)
  }
  const everyWord = lexical.some((c) => c[3] <= 2)
  const need = heldEnough(nWords) // whether or not another candidate holds every word (vector.py)
  const strong = new Set(mode === 'hybrid' ? lexical.filter((c) => c[3] <= 2 || c[2] >= need).map((c) => keyOf(c[0])) : [])
  let added = 0 // additions follow every strong item: sought only when those do not fill the reply
  if (strong.size < limit && ownCandidates(scope, type, path) && await (await table(site)).known(text)) {
    for (const name of sortedBy([...stores.keys()], (n) => n)) {
      const store = stores.get(name)
      const [q, qq] = await query(name)
      if (!qq) continue
      const near = await (await brainVectors(site, store)).nearest(q, qq, keepGroups(scope, store, type, path), mode === 'semantic' ? DEPTH : EXTEND, PROBE)
      const fresh = near.filter(([sim, doc]) => !entries.has(JSON.stringify([name, doc])) && sim >= MIN_ADDED)
      const hits = await Promise.all(fresh.map(([, doc]) => store.hit(doc))) // at once, weighed in order
      for (const [k, [sim, doc]] of fresh.entries()) {
        const key = JSON.stringify([name, doc])
        const entry = hits[k]
        if (entry === null || (admit !== null && !(await admit(entry)))) continue
        entries.set(key, entry)
        keys.set(key, [name, doc])
        sims.set(key, sim)
        added += 1
      }
    }
  }
  const ranked = sortedBy([...sims.keys()].filter((k) => sims.get(k) !== null), (k) => [-sims.get(k), keys.get(k)])
  // vector ranks within each class, so the strong items' order does not hang on the additions
  const vrank = new Map(ranked.filter((k) => strong.has(k)).map((k, r) => [k, r + 1]))
  ranked.filter((k) => !strong.has(k)).forEach((k, r) => vrank.set(k, r + 1))
  const lrank = new Map(lexical.map((c, r) => [keyOf(c[0]), r + 1]))
  const lscore = new Map(lexical.map((c) => [keyOf(c[0]), c[1]]))
  if (mode === 'semantic') {
    const out = sortedBy(ranked, (k) => [entries.get(k).deprecated ? 1 : 0])
      .map((k) => [entries.get(k), sims.get(k), null, sims.get(k)])
    return [out, out.length]
  }
  const score = scores(entries, strong, sims, lscore, lrank, vrank)
  const tier = new Map(lexical.map((c) => [keyOf(c[0]), c[3]]))
  const unlisted = entries.size + 1
  // the order's part before the score, which the spread keeps within: deprecated items last; the
  // best item holding every word first; strong items before weak ones; a strong item's tier
  const blocks = new Map([...entries.keys()].map((k) => [k, [entries.get(k).deprecated ? 1 : 0,
    everyWord && lrank.get(k) === 1 ? 0 : 1, strong.has(k) ? 0 : 1, strong.has(k) ? tier.get(k) : 0]]))
  const order = (k) => [...blocks.get(k), -score.get(k), lrank.has(k) ? lrank.get(k) : unlisted, vrank.has(k) ? vrank.get(k) : unlisted]
  const out = sortedBy([...entries.keys()], order).map((k) =>
    [entries.get(k), score.get(k), lscore.has(k) ? lscore.get(k) : null, sims.has(k) ? sims.get(k) : null])
  return [await spreadBy(out, (cand) => blocks.get(keyOf(cand[0]))), lexicalTotal + added]
}
