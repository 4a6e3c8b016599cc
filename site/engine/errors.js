// The error kinds a caller can meet, twin of builder/kernel/errors.py: the same messages and codes,
// so `{error, code}` from the browser equals the CLI's stderr JSON.
export class BfError extends Error {
  constructor (message, code) {
    super(message)
    this.name = 'BfError'
    this.error = message
    this.code = code
  }

  toJSON () {
    return { error: this.error, code: this.code }
  }
}

export const invalidInput = (what, reason) =>
  new BfError(`invalid input: ${reason === undefined ? what : `${what}: ${reason}`}`, 'invalid_input')
export const notFound = (ref) => new BfError(`not found: ${ref}`, 'not_found')
export const incomplete = (ref, brains) =>
  new BfError(`incomplete: ${ref} may be in unavailable brain(s) ${brains.join(', ')}`, 'incomplete')
export const indexMissing = (site, why = '') =>
  new BfError(`index missing for site '${site}' — run bf build first${why ? ` (${why})` : ''}`, 'index_missing')
export const embeddingsMissing = (site, mode, asked = null) =>
  new BfError(`embeddings missing for site '${site}': ${asked || `--mode ${mode}`} needs vectors — build without --no-embeddings`, 'embeddings_missing')

// Python's repr() of a str, for messages that quote a value: 'x', "it's", '\n', '\x00'.
export function pyRepr (value) {
  if (value === null || value === undefined) return 'None'
  if (typeof value === 'boolean') return value ? 'True' : 'False'
  if (typeof value !== 'string') return String(value)
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'"
  let out = ''
  for (const ch of value) {
    const cp = ch.codePointAt(0)
    if (ch === '\\' || ch === quote) out += '\\' + ch
    else if (ch === '\n') out += '\\n'
    else if (ch === '\r') out += '\\r'
    else if (ch === '\t') out += '\\t'
    else if (/[\p{C}\p{Z}]/u.test(ch) && ch !== ' ') {
      out += cp < 0x100 ? '\\x' + cp.toString(16).padStart(2, '0')
        : cp < 0x10000 ? '\\u' + cp.toString(16).padStart(4, '0') : '\\U' + cp.toString(16).padStart(8, '0')
    } else out += ch
  }
  return quote + out + quote
}
