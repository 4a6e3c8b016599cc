// Where a ref's page lives: its ref as a person reads it. A line-by-line twin of
// builder/kernel/pageurls.py (read its docstring for the rule); tests/query/test_pageurls.py
// keeps the two equal. Change both or neither.
import { escapeSegment, isRecordLike } from './refs.js'
import { sha256hex } from './sha256.js'

const WORDS = { '&': 'and', '%': 'percent', '+': 'plus', '@': 'at' }
const LONG = 150 // UTF-8 bytes a segment may have before it is shortened
const KEPT = 100 // … and what a shortened one keeps
const KEEP = /^[\p{L}\p{M}\p{N}_.]$/u
const encoder = new TextEncoder()
const size = (text) => encoder.encode(text).length

// One ref segment as a path segment: `Linking notes & files` → `Linking-notes-and-files`.
export function pageSegment (segment) {
  let text = [...segment.normalize('NFC')].map((ch) => KEEP.test(ch) ? ch : ch in WORDS ? '-' + WORDS[ch] + '-' : '-').join('')
  text = text.replace(/-{2,}/g, '-').replace(/^-+|-+$/g, '').replace(/^[.-]+/, '') || '-'
  if (size(text) > LONG) text = cut(text, KEPT) + '-' + sha256hex(encoder.encode(segment)).slice(0, 12)
  return text
}

// The longest prefix of `text` (whole code points) of at most `limit` UTF-8 bytes.
function cut (text, limit) {
  let out = ''
  for (const ch of text) {
    if (size(out + ch) > limit) break
    out += ch
  }
  return out
}

// The readable form of `ref` ("" = home): `person:alice` → `person/alice`, `a/B c.md` → `a/B-c`.
export function pageStem (ref) {
  ref = ref || 'home'
  if (isRecordLike(ref)) ref = ref.replace(':', '/')
  if (ref.endsWith('.md')) ref = ref.slice(0, -'.md'.length)
  return ref.split('/').map(pageSegment).join('/')
}

// Site path of `ref`'s page in `brain`; `moved` holds the suffix of each ref that lost a collision.
export function pageFile (brain, ref, moved = null) {
  const suffix = moved && Object.hasOwn(moved, ref) ? '-' + moved[ref] : ''
  return escapeSegment(brain) + '/' + pageStem(ref) + suffix + '.html'
}
