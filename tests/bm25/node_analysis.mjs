// stdin {strings} -> stdout {pairs: analyzePairs of each string, tables} from
// site/engine/bm25/; with {codePoints: true}, the pairs of every code point of WORD_TABLE.
import { readFileSync } from 'node:fs'
import * as twin from './twin.mjs'

const input = JSON.parse(readFileSync(0, 'utf8'))
const out = { pairs: input.strings.map((s) => twin.analyzePairs(s)), word: twin.WORD_TABLE, mn: twin.MN_TABLE }
if (input.codePoints) {
  const all = []
  for (const [a, b] of twin.decode(twin.WORD_TABLE)) {
    for (let cp = a; cp <= b; cp++) all.push(twin.analyzePairs(String.fromCodePoint(cp)))
  }
  out.codePoints = all
}
if (input.logs) out.logs = input.logs.map(twin.ln)
process.stdout.write(JSON.stringify(out))
