// Pack files: twin of builder/kernel/packs.py. The compact data (`_bf/BRAIN/data/`) and the search files
// (`_bf/search/BRAIN/`) are gzip'd JSON named NAME.json.gz, each folder's meta.json aside; the
// browser inflates them with DecompressionStream (static hosts serve them as they are).
export const SUFFIX = '.gz'

export function packedName (rel) { return rel + SUFFIX }

// The bytes of a fetched pack file (a Response), as an ArrayBuffer; throws when it is not one.
// The body is read whole first: piping the network stream straight into the decompressor lets
// Chromium abort the request once the gzip trailer is seen, which reads as a failed fetch.
export async function unpackBytes (resp) {
  const packed = new Blob([await resp.arrayBuffer()]).stream()
  return new Response(packed.pipeThrough(new DecompressionStream('gzip'))).arrayBuffer()
}

// The JSON value of a fetched pack file.
export async function unpack (resp) {
  return JSON.parse(new TextDecoder().decode(await unpackBytes(resp)))
}
