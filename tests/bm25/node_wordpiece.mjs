// stdin {vocab, strings} -> stdout {tokens: WordPiece ids of each string} from
// site/engine/wordpiece.js.
import { readFileSync } from 'node:fs'
import { WordPiece } from '../../site/engine/wordpiece.js'

const input = JSON.parse(readFileSync(0, 'utf8'))
const wp = new WordPiece(input.vocab)
process.stdout.write(JSON.stringify({ tokens: input.strings.map((s) => wp.tokens(s)) }))
