// Open a built site in the browser: twin of builder/query/site.py. The manifest and its
// bundle version, reply files and pack files fetched once each, each brain's compact data.
import * as refs from './refs.js'
import { BrainData } from './data.js'
import { packedName, unpack } from './packs.js'
import { indexMissing } from './errors.js'
import { WordMemo } from './bm25/pipeline.js'

export const BUNDLE_VERSION = 11 // kernel/formats.py
export const MANIFEST = '_bf/manifest.json'

async function fetchJson (url, packed = false) {
  let resp
  try {
    resp = await fetch(url, { cache: 'no-cache' })
  } catch {
    return null
  }
  if (!resp.ok) return null
  try {
    return packed ? await unpack(resp) : await resp.json()
  } catch {
    return null
  }
}

export class Site {
  constructor (root, manifest) {
    this.root = root // URL of the site folder, ending in "/"
    this.manifest = manifest
    this.files = new Map() // rel → Promise of parsed JSON or null
    this.availability = new Map()
    this.data = new Map() // brain → BrainData (its packs, loaded on demand)
    this.words = new WordMemo() // the analysis of the words its searches read
  }

  get buildId () { return this.manifest.build_id }
  get asOf () { return this.manifest.as_of }
  get brains () { return this.manifest.brains }
  brainNames () { return this.brains.map((b) => b.name) }
  brain (name) { return this.brains.find((b) => b.name === name) || null }

  // A file of the site (the pack file of `rel` when `packed`, packs.js), or null when it is
  // missing or unreadable.
  loadJson (rel, packed = false) {
    const name = packed ? packedName(rel) : rel
    if (!this.files.has(name)) this.files.set(name, fetchJson(new URL(name, this.root), packed))
    return this.files.get(name)
  }

  brainData (brain) {
    if (!this.data.has(brain)) this.data.set(brain, new BrainData((rel, packed) => this.loadJson(rel, packed), brain))
    return this.data.get(brain)
  }

  // A reply page: from the brain's compact data, or from its own file (notes, home).
  async reply (brain, ref, ...variant) {
    const [handled, page] = await this.brainData(brain).reply(ref, variant)
    return handled ? page : this.loadJson(refs.refFile(brain, ref, ...variant))
  }

  async available (brain) {
    if (!this.availability.has(brain)) {
      this.availability.set(brain, (async () => {
        for (const rel of [`_bf/${brain}/fingerprint.json.gz`, refs.refFile(brain, 'home')]) {
          const resp = await fetch(new URL(rel, this.root), { method: 'HEAD', cache: 'no-cache' }).catch(() => null)
          if (resp && resp.ok) return true
        }
        return false
      })())
    }
    return this.availability.get(brain)
  }
}

export async function openSite (root) {
  const shown = String(root)
  const manifest = await fetchJson(new URL(MANIFEST, root))
  if (manifest === null) throw indexMissing(shown)
  const version = manifest && typeof manifest === 'object' ? manifest.bundle_version : '?'
  if (!manifest || typeof manifest !== 'object' || version !== BUNDLE_VERSION) {
    throw indexMissing(shown, `built by an incompatible version (bundle ${version}, need ${BUNDLE_VERSION})`)
  }
  return new Site(root, manifest)
}
