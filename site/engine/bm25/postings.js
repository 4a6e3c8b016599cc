// A term's posting as the index reader weighs it (builder/bm25/postings.py: unpack_big, Posting).
import { idf } from './scoring.js'

// Fields that add to the score but hold no word for the all-words rule (scoring.CONTEXT).
const CONTEXT = ['neighbours']

// A big posting (b/K.bin, FORMAT.md Big postings) as [[field, ids, tfs], ...]: little-endian
// integers read through a DataView, no parsing (postings.unpack_big).
export function bigPosting (buffer) {
  const view = new DataView(buffer)
  const get = [null, (o) => view.getUint8(o), (o) => view.getUint16(o, true), null, (o) => view.getUint32(o, true)]
  const count = get[4](0)
  const out = []
  for (let k = 0, at = 4 + 16 * count; k < count; k++) {
    const [fi, n, first, widths] = [0, 4, 8, 12].map((o) => get[4](4 + 16 * k + o))
    const arrays = [widths & 0xff, widths >> 8].map((w) => {
      const values = new Array(n)
      for (let i = 0; i < n; i++) values[i] = get[w](at + w * i)
      at += Math.ceil(n * w / 4) * 4
      return values
    })
    for (let i = 0, d = first; i < n; i++) arrays[0][i] = (d += arrays[0][i])
    out.push([fi, arrays[0], arrays[1]])
  }
  return out
}

// A term's posting with its weights: ids ascending, ws, named (1 where the doc holds it in a
// `named` field), own (1 where it holds it outside CONTEXT fields), as postings.Posting.
// fields: [[field, ids, tfs], ...]; lens[k]: the lengths of fields[k]'s ids (null for a field
// whose b is 0); whole: the term's postings when `fields` are part of them (blocks.js).
export function makePosting (fields, lens, m, whole = null) {
  let df = 0
  for (const e of fields) df += e[1].length
  if (whole !== null) df = whole
  const widf = idf(m.docs, df)
  const weighed = []
  for (let k = 0; k < fields.length; k++) {
    const [fi, ids, tfs] = fields[k]
    const lensK = lens[k]
    const field = m.fields[fi]
    const { k1, b, boost } = m.params[field]
    const scale = m.params[field].scale ?? 1 // a weighted field stores tf * scale
    const a = m.docs ? m.lengths[field] / m.docs : 0.0
    const k1p1 = k1 + 1
    const ws = new Array(ids.length)
    for (let i = 0; i < ids.length; i++) {
      const tf = scale !== 1 ? tfs[i] / scale : tfs[i]
      const len = lensK ? lensK[i] : 0 // b * (len / a) is 0 for any len when b is 0
      ws[i] = widf * (k1p1 * tf) / (k1 * (1 - b + b * (len / a)) + tf) * boost
    }
    weighed.push({ named: m.named.includes(field), context: CONTEXT.includes(field), ids, ws })
  }
  let ids, ws
  if (weighed.length === 1) {
    ids = weighed[0].ids; ws = weighed[0].ws
  } else {
    const acc = new Map()
    for (const part of weighed) {
      for (let i = 0; i < part.ids.length; i++) {
        const d = part.ids[i]
        acc.set(d, (acc.has(d) ? acc.get(d) : 0.0) + part.ws[i])
      }
    }
    ids = [...acc.keys()].sort((x, y) => x - y)
    ws = ids.map((d) => acc.get(d))
  }
  const namedSet = new Set()
  for (const part of weighed) if (part.named) for (const d of part.ids) namedSet.add(d)
  const named = new Uint8Array(ids.length)
  for (let i = 0; i < ids.length; i++) named[i] = namedSet.has(ids[i]) ? 1 : 0
  const own = new Uint8Array(ids.length).fill(1)
  if (weighed.some((part) => part.context)) { // else every doc holds it in its own text
    const ownSet = new Set()
    for (const part of weighed) if (!part.context) for (const d of part.ids) ownSet.add(d)
    for (let i = 0; i < ids.length; i++) own[i] = ownSet.has(ids[i]) ? 1 : 0
  }
  return { ids, ws, named, own }
}
