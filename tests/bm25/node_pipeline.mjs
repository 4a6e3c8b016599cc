// stdin {words, strings} -> stdout stems/trims/tokens/analysis from the
// vendored lunr.js 2.3.9 (tests/vendor/) and from the site/engine/bm25/ twin.
import { createRequire } from 'node:module'
import { readFileSync } from 'node:fs'
import * as twin from './twin.mjs'

const require = createRequire(import.meta.url)
const lunr = require('../vendor/lunr-2.3.9.js')
const input = JSON.parse(readFileSync(0, 'utf8'))
const s = (w) => lunr.stemmer(new lunr.Token(w)).toString()
const t = (w) => lunr.trimmer(new lunr.Token(w)).toString()
const pipe = new lunr.Pipeline()
pipe.add(lunr.trimmer, lunr.stopWordFilter, lunr.stemmer)

process.stdout.write(JSON.stringify({
  stems: input.words.map(s),
  twinStems: input.words.map(twin.stem),
  trims: input.strings.map(t),
  twinTrims: input.strings.map(twin.trim),
  tokens: input.strings.map((x) => lunr.tokenizer(x).map((k) => [k.str, ...k.metadata.position])),
  twinTokens: input.strings.map(twin.tokenize),
  analyze: input.strings.map((x) => pipe.run(lunr.tokenizer(x)).map(String).filter((k) => k !== ''))
}))
