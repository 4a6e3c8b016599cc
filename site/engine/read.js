// bf read in the browser: twin of builder/query/read.py (answer from the site's replies and
// compact data). Same replies, same errors. One difference: the browser cannot see the brain
// folder, so it never adds `stale`.
import * as refs from './refs.js'
import { incomplete, invalidInput, notFound, pyRepr } from './errors.js'
import { LISTINGS, merged, mergedHome, periodReply, wholeList } from './listings.js'

const MAX_REF = 4096
export const MAX_ADDED_PROBLEMS = 2 // builder/query/read.py MAX_ADDED_PROBLEMS; tests check they agree

const BARE_HASH = "ends with a bare '#': name a section after it, or drop it"

export function checkRef (text) {
  if (typeof text !== 'string') throw invalidInput('ref', 'must be a string')
  if ([...text].length > MAX_REF) throw invalidInput('ref', `longer than ${MAX_REF} characters`)
  if ([...text].some((c) => c.codePointAt(0) < 32 || c.codePointAt(0) === 127)) throw invalidInput('ref', 'holds control characters')
  if (text.endsWith('#')) throw invalidInput('ref', BARE_HASH)
  return refs.pyStrip(text)
}

export function checkOffset (offset) {
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) throw invalidInput('offset', 'must be a whole number ≥ 0')
  return offset
}

// [brains to read, brain-relative ref] for a ref or bf:// address.
export function selected (site, refText, brains) {
  const [brain, ref] = refs.splitAddress(refText)
  const known = site.brainNames()
  if (brain !== null) {
    if (!known.includes(brain)) throw notFound(refText)
    if (ref.endsWith('#')) throw invalidInput('ref', BARE_HASH)
    return [[brain], refs.normalize(ref)]
  }
  const chosen = brains && brains.length ? brains : known
  for (const name of chosen) {
    if (!known.includes(name)) throw invalidInput('brain', `unknown brain ${pyRepr(name)} (valid: ${known.join(', ')})`)
  }
  return [[...chosen], refs.normalize(ref)]
}

export async function read (site, refText, { rel = null, offset = 0, brains = null } = {}) {
  refText = checkRef(refText)
  offset = checkOffset(offset)
  const [chosen, ref] = selected(site, refText, brains)
  const variant = (rel !== null ? ['r', rel] : []).concat(offset ? [`o${offset}`] : [])
  const missing = []
  if (chosen.length > 1) {
    for (const name of chosen) if (rel !== null) checkRelation(site, name, rel)
    const combined = await mergedRead(site, chosen, ref, rel, offset)
    if (combined !== null) {
      const unavailable = []
      for (const b of chosen) if (!(await site.available(b))) unavailable.push(b)
      return finish(site, combined[0], combined[1], unavailable)
    }
  }
  for (const name of chosen) {
    if (rel !== null) checkRelation(site, name, rel)
    if (!(await site.available(name))) {
      missing.push(name)
      continue
    }
    let reply = await site.reply(name, ref, ...variant)
    if (reply === null) reply = await computed(site, name, ref, rel, offset)
    if (reply !== null) {
      const others = []
      for (const b of chosen) if (b !== name && !(await site.available(b))) others.push(b)
      return finish(site, name, reply, missing.concat(others))
    }
  }
  if (missing.length) throw incomplete(ref, missing)
  throw notFound(refText)
}

function checkRelation (site, brain, rel) {
  const valid = (site.brain(brain) || {}).relations || ['links']
  if (typeof rel !== 'string' || !valid.includes(rel)) {
    throw invalidInput('rel', `unknown relation ${pyRepr(rel)} (valid: ${valid.join(', ')})`)
  }
}

// [first brain, reply] of a listing page over several brains (docs/replies.md#several-brains); null for exact reads.
async function mergedRead (site, chosen, ref, rel, offset) {
  const variant = rel !== null ? ['r', rel] : []
  const firsts = new Map()
  for (const name of chosen) {
    if (await site.available(name)) {
      const first = (await site.reply(name, ref, ...variant)) || (await computed(site, name, ref, rel, 0))
      if (first !== null) firsts.set(name, first)
    }
  }
  if (!firsts.size) return null
  const [brain, first] = firsts.entries().next().value
  if (first.page === 'home') return [brain, mergedHome(firsts)]
  if (!LISTINGS.has(first.page)) return null
  const lists = new Map()
  for (const [b, f] of firsts) lists.set(b, await wholeList(site, b, ref, variant, f))
  return [brain, merged(first.page, firsts, lists, offset, ref)]
}

// Valid reads with no file: a later page that does not exist, an unused relation, a period.
async function computed (site, brain, ref, rel, offset) {
  const base = await site.reply(brain, ref)
  if (offset && (base !== null || rel !== null)) {
    const first = rel !== null ? await site.reply(brain, ref, 'r', rel) : base
    if (first !== null && (first.next_offset === undefined || first.next_offset === null)) {
      throw invalidInput('offset', `${ref} fits in one page: use offset 0`)
    }
    if (first !== null) throw invalidInput('offset', `${offset} is not a page boundary of ${ref}: use 0 or a next_offset`)
  }
  if (rel !== null && base !== null) {
    if (offset) throw invalidInput('offset', `${ref} has no ${rel} page at offset ${offset}`)
    return {
      page: 'relation', brain, ref, uri: refs.uri(brain, ref), title: 'title' in base ? base.title : ref, relation: rel,
      items: [], total: 0, offset: 0, next_offset: null
    }
  }
  if (base === null && rel === null) return periodReply(site, brain, ref, offset)
  return null
}

export function finish (site, brain, reply, unavailable) {
  reply = structuredClone(reply) // replies are cached per file: callers get their own copy
  reply.as_of = site.asOf // stored replies leave the build instant to the manifest
  if (unavailable.length) {
    addProblems(reply, unavailable.map((b) => (
      { brain: b, path: '', kind: 'unavailable', message: `brain ${b} has no readable built data` })))
  }
  return reply
}

// Twin of builder/query/read.py _add_problems: an exact read keeps the first MAX_ADDED_PROBLEMS and
// counts the rest, so none of its pages passes 32 KiB (docs/replies.md#paging-large-reads).
function addProblems (reply, added) {
  if ('total_bytes' in reply && added.length > MAX_ADDED_PROBLEMS) {
    reply.problems_omitted = (reply.problems_omitted || 0) + added.length - MAX_ADDED_PROBLEMS
    added = added.slice(0, MAX_ADDED_PROBLEMS)
  }
  reply.problems = [...(reply.problems || []), ...added]
}
