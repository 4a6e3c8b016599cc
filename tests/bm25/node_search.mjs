// stdin {dir, queries: [[words, required, limit]]} -> stdout results of
// site/engine/bm25/, reading the index through a file-backed fetch.
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { IndexReader } from './twin.mjs'

const input = JSON.parse(readFileSync(0, 'utf8'))
const fetched = []
const fetchFile = async (url) => {
  fetched.push(url.slice(input.dir.length + 1))
  try {
    return new Response(await readFile(url))
  } catch (e) {
    return new Response(null, { status: 404 })
  }
}
const index = new IndexReader(input.dir, fetchFile)
const out = []
for (const [words, required, limit] of input.queries) {
  out.push(await index.search(words, required, limit))
}
process.stdout.write(JSON.stringify({ results: out, fetched }))
