// stdin {site, calls: [[query, options]]} -> stdout the replies of site/engine/search.js over a
// built site folder, read through a file-backed fetch (what the browser does over HTTP).
// With {recall: true}, the replies of site/engine/recall.js instead.
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { openSite } from '../../site/engine/site.js'
import { search } from '../../site/engine/search.js'

globalThis.fetch = async (url, options = {}) => {
  try {
    return new Response(await readFile(fileURLToPath(String(url))))
  } catch (e) {
    return new Response(null, { status: 404 })
  }
}
const input = JSON.parse(readFileSync(0, 'utf8'))
const site = await openSite(pathToFileURL(input.site + '/').href)
const out = []
for (const [query, options] of input.calls) {
  try { out.push(await search(site, query, options)) } catch (e) { out.push(e.toJSON ? e.toJSON() : { uncaught: String(e) }) }
}
process.stdout.write(JSON.stringify(out))
