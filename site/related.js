// The "Related" list of a note page (docs/site.md#reading-aids): the notes nearest this one by the vector
// arm, computed at build time (builder/vectors/related.py) and read when the side column nears
// the window, from one pack of `_bf/search/BRAIN/vectors/related/` (a few KB, cached by the
// browser). A site built --no-embeddings has none: the section stays hidden. Titles are
// rendered as text nodes, never markup.
import { pagePath } from './links.js'
import { currentRef } from './navdata.js'
import { escapeSegment, packOf } from './engine/refs.js'
import { packedName, unpack } from './engine/packs.js'

export async function draw (bf, box) {
  const brain = document.body.dataset.brain
  const ref = currentRef()
  const base = `_bf/search/${escapeSegment(brain)}/vectors/`
  const resp = await fetch(new URL(base + 'meta.json', bf.root))
  const meta = resp.ok ? await resp.json() : {}
  if (!ref || !meta.related) return
  const pack = await unpack(await fetch(new URL(packedName(`${base}related/${packOf(ref, meta.related)}.json`), bf.root)))
  const near = pack[ref] || []
  if (!near.length) return
  const site = await bf.site().catch(() => null)
  const list = document.createElement('ul')
  for (const [other, title] of near) {
    const a = Object.assign(document.createElement('a'), { href: new URL(pagePath(site, brain, other), bf.root).href, textContent: title })
    const li = document.createElement('li')
    li.append(a)
    list.append(li)
  }
  box.append(list)
  box.hidden = false
}
