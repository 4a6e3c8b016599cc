// Open a built site in the browser: twin of builder/query/site.py. The manifest and its
// bundle version, reply files and pack files fetched once each, each brain's compact data.
import * as refs from './refs.js'
import { BrainData } from './data.js'
import { packedName, unpack } from './packs.js'
import { indexMissing } from './errors.js'
import { WordMemo } from './bm25/pipeline.js'

export const BUNDLE_VERSION = 11 // kernel/formats.py
export const MANIFEST = '_bf/manifest.json'

// A request that fails on the way (the network, an aborted transfer) throws: a reply computed
// without that file would not be Python's, so the caller says the file did not load. A response
// that is not ok, or not JSON (or not a pack when `packed`), reads as a missing file: null.
async function fetchJson (url, packed = false) {
  const resp = await request(url)
  if (!resp.ok) return null
  try {
    return packed ? await unpack(resp) : await resp.json()
  } catch {
    return null
  }
}

async function request (url, headers = {}) {
  try {
    return await fetch(url, { cache: 'no-cache', headers })
  } catch (e) {
    throw new Error(`${new URL(url).pathname} did not load (${e.message || e})`)
  }
}

// A fetch kept once per key; a failed one is dropped, so a later search asks again.
function kept (files, key, load) {
  if (!files.has(key)) {
    const p = load()
    p.catch(() => files.delete(key))
    files.set(key, p)
  }
  return files.get(key)
}

export class Site {
  constructor (root, manifest) {
    this.root = root // URL of the site folder, ending in "/"
    this.manifest = manifest
    this.files = new Map() // rel → Promise of parsed JSON or null
    this.wholes = new Map() // a file of members a host sent whole → Promise of its bytes
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
    return kept(this.files, name, () => fetchJson(new URL(name, this.root), packed))
  }

  // The JSON value of the gzip member at [start, start + length) of the file of `rel`
  // (packs.py members, read_member), or null as loadJson reads a missing or damaged file:
  // fetched by a Range request for those bytes alone. A host that ignores Range sends the
  // whole file, kept for its other members.
  loadMember (rel, start, length) {
    const name = packedName(rel)
    return kept(this.files, `${name}@${start}`, async () => {
      const bytes = await this.rangeBytes(name, start, length)
      try {
        return bytes === null ? null : await unpack(new Response(bytes))
      } catch {
        return null
      }
    })
  }

  // The bytes [start, start + length) of the site's file `name` as an ArrayBuffer, by a Range
  // request, or null when it is missing (a member's, a vector's row: vectorstore.js).
  async rangeBytes (name, start, length) {
    const url = new URL(name, this.root)
    if (!this.wholes.has(name)) {
      const resp = await request(url, { Range: `bytes=${start}-${start + length - 1}` })
      if (!resp.ok) return null
      if (resp.status === 206) {
        return (resp.headers.get('Content-Range') || '').startsWith(`bytes ${start}-`) ? resp.arrayBuffer() : null
      }
      kept(this.wholes, name, () => resp.arrayBuffer())
    }
    return (await this.wholes.get(name)).slice(start, start + length)
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
