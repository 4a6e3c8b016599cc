// A section's read reply computed from its note's reply (docs/data.md#sections): the text from its heading's
// line to the next heading of the same or a higher level, the headings inside it, and its title,
// the note's title and the headings above it. Twin of builder/query/sections.py, which says which
// section replies the build keeps in the compact data instead.
import { uri } from './refs.js'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

// UTF-8 byte offset of the start of every line of `data`.
export function lineStarts (data) {
  const starts = [0]
  let at = data.indexOf(10)
  while (at >= 0) {
    starts.push(at + 1)
    at = data.indexOf(10, at + 1)
  }
  return starts
}

// The reply of section `ref` from the whole reply `note` of its note; null when it has none.
export function sectionReply (note, ref) {
  if (!note || typeof note !== 'object' || note.page !== 'note' || note.offset || (note.next_offset ?? null) !== null) return null
  const outline = note.outline || []
  const target = uri(note.brain, ref)
  const index = outline.findIndex((h) => h.ref === target)
  if (index < 0) return null
  const data = encoder.encode(note.text)
  const starts = lineStarts(data)
  const at = new Map(outline.map((h) => [h, h.line > 0 && h.line <= starts.length ? starts[h.line - 1] : data.length]))
  const head = outline[index]
  const start = at.get(head)
  const next = outline.slice(index + 1).find((h) => h.level <= head.level)
  const end = next ? at.get(next) : data.length
  const path = []
  for (const h of outline.slice(0, index + 1)) {
    while (path.length && path[path.length - 1].level >= h.level) path.pop()
    path.push(h)
  }
  const text = data.subarray(start, end)
  return {
    page: 'section', brain: note.brain, ref, uri: target, kind: 'section',
    title: [note.title, ...path.map((h) => h.title)].join(' — '), heading: head.title,
    level: head.level, note: note.ref, path: note.path, type: note.type,
    tags: note.tags, text: decoder.decode(text), sha256: note.sha256, modified: note.modified,
    outline: outline.filter((h) => h !== head && start <= at.get(h) && at.get(h) < end),
    backlinks: [], problems: [],
    offset: 0, next_offset: null, total_bytes: text.length
  }
}
