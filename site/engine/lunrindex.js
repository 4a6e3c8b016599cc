// Reader for the sharded BM25 index written by builder/lunrjs/index.py (format bf-lunr-4 in
// builder/lunrjs/FORMAT.md), and the text analysis it shares with builder/lunrjs/pipeline.py:
// every token and every score equals the Python reader's, bit for bit. Dependency free; the
// stemmer is lunr.js 2.3.9's (MIT, Oliver Nightingale).
import { packedName, unpack } from './packs.js'
import { cmp } from './order.js'

// ---- lunr.js 2.3.9 tokenizer and trimmer (site/searchpage.js highlights with them) -------
export const separator = /[\s\-]+/

export const STOP_WORDS = new Set(('a able about across after all almost also am among an and any are as at be ' +
  'because been but by can cannot could dear did do does either else ever every for from get got had has have he ' +
  'her hers him his how however i if in into is it its just least let like likely may me might most must my ' +
  'neither no nor not of off often on only or other our own rather said say says she should since so some than ' +
  'that the their them then there these they this tis to too twas us wants was we were what when where which ' +
  'while who whom why will with would yet you your').split(' '))

// lunr.tokenizer: lower-cased tokens with [start, length] in UTF-16 units.
export function tokenize (text) {
  const str = String(text).toLowerCase()
  const out = []
  for (let end = 0, start = 0; end <= str.length; end++) {
    if (end === str.length || separator.test(str.charAt(end))) {
      if (end > start) out.push([str.slice(start, end), start, end - start])
      start = end + 1
    }
  }
  return out
}

export function trim (s) {
  return s.replace(/^\W+/, '').replace(/\W+$/, '')
}

export const stem = (function () {
  const step2list = {
    ational: 'ate', tional: 'tion', enci: 'ence', anci: 'ance', izer: 'ize', bli: 'ble', alli: 'al', entli: 'ent',
    eli: 'e', ousli: 'ous', ization: 'ize', ation: 'ate', ator: 'ate', alism: 'al', iveness: 'ive', fulness: 'ful',
    ousness: 'ous', aliti: 'al', iviti: 'ive', biliti: 'ble', logi: 'log'
  }
  const step3list = { icate: 'ic', ative: '', alize: 'al', iciti: 'ic', ical: 'ic', ful: '', ness: '' }
  const c = '[^aeiou]'; const v = '[aeiouy]'; const C = c + '[^aeiouy]*'; const V = v + '[aeiou]*'
  const reMgr0 = new RegExp('^(' + C + ')?' + V + C)
  const reMeq1 = new RegExp('^(' + C + ')?' + V + C + '(' + V + ')?$')
  const reMgr1 = new RegExp('^(' + C + ')?' + V + C + V + C)
  const reSV = new RegExp('^(' + C + ')?' + v)
  const re1a = /^(.+?)(ss|i)es$/; const re21a = /^(.+?)([^s])s$/
  const re1b = /^(.+?)eed$/; const re21b = /^(.+?)(ed|ing)$/
  const re1b2 = /.$/; const re21b2 = /(at|bl|iz)$/
  const re31b2 = new RegExp('([^aeiouylsz])\\1$'); const re41b2 = new RegExp('^' + C + v + '[^aeiouwxy]$')
  const re1c = /^(.+?[^aeiou])y$/
  const re2 = /^(.+?)(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism|iveness|fulness|ousness|aliti|iviti|biliti|logi)$/
  const re3 = /^(.+?)(icate|ative|alize|iciti|ical|ful|ness)$/
  const re4 = /^(.+?)(al|ance|ence|er|ic|able|ible|ant|ement|ment|ent|ou|ism|ate|iti|ous|ive|ize)$/
  const re24 = /^(.+?)(s|t)(ion)$/
  const re5 = /^(.+?)e$/; const re51 = /ll$/; const re35 = new RegExp('^' + C + v + '[^aeiouwxy]$')

  return function (w) {
    let fp, st
    if (w.length < 3) return w
    const firstch = w.substr(0, 1)
    if (firstch === 'y') w = firstch.toUpperCase() + w.substr(1)
    if (re1a.test(w)) w = w.replace(re1a, '$1$2')
    else if (re21a.test(w)) w = w.replace(re21a, '$1$2')
    if (re1b.test(w)) {
      fp = re1b.exec(w)
      if (reMgr0.test(fp[1])) w = w.replace(re1b2, '')
    } else if (re21b.test(w)) {
      fp = re21b.exec(w); st = fp[1]
      if (reSV.test(st)) {
        w = st
        if (re21b2.test(w)) w = w + 'e'
        else if (re31b2.test(w)) w = w.replace(re1b2, '')
        else if (re41b2.test(w)) w = w + 'e'
      }
    }
    if (re1c.test(w)) { fp = re1c.exec(w); w = fp[1] + 'i' }
    if (re2.test(w)) { fp = re2.exec(w); if (reMgr0.test(fp[1])) w = fp[1] + step2list[fp[2]] }
    if (re3.test(w)) { fp = re3.exec(w); if (reMgr0.test(fp[1])) w = fp[1] + step3list[fp[2]] }
    if (re4.test(w)) {
      fp = re4.exec(w); if (reMgr1.test(fp[1])) w = fp[1]
    } else if (re24.test(w)) {
      fp = re24.exec(w); st = fp[1] + fp[2]; if (reMgr1.test(st)) w = st
    }
    if (re5.test(w)) {
      fp = re5.exec(w); st = fp[1]
      if (reMgr1.test(st) || (reMeq1.test(st) && !re35.test(st))) w = st
    }
    if (re51.test(w) && reMgr1.test(w)) w = w.replace(re1b2, '')
    if (firstch === 'y') w = firstch.toLowerCase() + w.substr(1)
    return w
  }
})()

// ---- analysis: twin of builder/lunrjs/pipeline.py (read its docstring) -----------------
// builder/lunrjs/unitable.py (Unicode 14.0.0): code point ranges as base-36 (gap, length - 1).
export const WORD_TABLE = '1d,9,8,p,7,p,1c,0,8,1,2,0,4,1,2,2,2,m,2,u,2,cp,5,b,f,4,8,0,2,0,i,38,2,1,3,3,2,0,7,0,2,2,2,0,2,j,2,2a,2,3u,2,4s,2,11,3,0,7,14,9,18,2,0,2,1,2,1,2,0,9,q,5,3,u,a,6,21,5,2t,2,7,3,9,2,i,3,0,h,1m,3,2s,f,1h,5,0,3,0,3,19,j,r,5,a,6,n,2,5,a,21,2,3k,3,9,2,i,2,7,3,1,3,l,2,6,2,0,4,3,3,8,3,1,3,3,9,0,5,1,2,4,3,b,3,5,3,0,2,0,3,2,2,5,5,1,3,l,2,6,2,1,2,1,2,1,3,0,2,4,5,1,3,2,4,0,8,3,2,0,8,f,c,2,2,8,2,2,2,l,2,6,2,1,2,4,3,9,2,2,2,2,3,0,g,3,3,9,a,6,2,2,2,7,3,1,3,l,2,6,2,1,2,4,3,8,3,1,3,2,8,2,5,1,2,4,3,9,2,6,b,1,2,5,4,2,2,3,4,1,2,0,2,1,4,1,4,2,4,b,5,4,4,2,2,3,3,0,7,0,f,c,e,c,2,2,2,m,2,f,3,8,2,2,2,3,8,1,2,2,3,0,3,3,3,9,9,6,2,3,2,7,2,2,2,m,2,9,2,4,3,8,2,2,2,3,8,1,7,1,2,3,3,9,2,1,e,c,2,2,2,1e,2,2,2,4,6,f,3,i,2,5,2,2,2,h,4,n,2,8,2,0,3,6,4,0,5,5,2,0,2,7,7,9,3,1,e,1l,6,e,2,9,14,1,2,0,2,4,2,n,2,0,2,m,3,4,2,0,2,5,3,9,3,3,x,0,o,1,7,j,2,0,2,0,2,0,5,9,2,z,5,j,2,h,2,z,a,0,1m,21,7,25,3,11,2,0,6,0,3,16,2,98,2,3,3,6,2,0,2,3,3,14,2,3,3,w,2,3,3,6,2,0,2,3,3,e,2,1k,2,3,3,1u,3,2,a,j,4,f,h,2d,3,5,4,h7,3,g,2,p,6,22,4,a,8,l,a,l,c,j,d,c,2,2,2,1,d,2b,4,0,5,1,3,9,7,9,i,2,2,a,7,2g,8,16,6,1x,b,u,2,b,5,b,b,13,3,4,c,17,5,p,7,a,12,r,5,1q,2,s,3,a,7,9,e,0,9,u,1e,24,4,9,i,8,d,37,d,1j,9,9,4,1c,3,8,8,16,3,2,h,2,2,12,6,et,3,5,3,11,3,5,3,7,2,0,2,0,2,0,2,u,3,1g,2,6,2,0,4,2,2,6,4,3,3,5,5,c,6,2,2,6,38,1,3,5,6,a,7,c,1g,w,i,0,5,0,3,9,2,0,4,4,7,0,2,0,2,0,2,3,2,a,3,3,6,4,5,0,2,1l,k7,1n,27,l,hj,t,vh,6c,7,8,a,0,3,11,2,0,6,0,3,1j,8,0,g,n,a,6,2,6,2,6,2,6,2,6,2,6,2,6,2,6,2,v,1c,0,d2,2,q,e,2,4,3,4,5,2d,3,1,3,2,2,2h,2,3,6,16,2,2l,4,3,b,v,1d,f,x,9,v,7,2,e,x,9,14,e,8x,533,1t,h3g,1w,19,3,7g,4,r,l,1e,2,9,2,36,12,8,3,2u,3,1r,6,1,2,0,2,4,p,1h,5,0,4,5,b,1f,d,1x,b,9,7,n,4,0,2,1c,3,z,d,s,4,1s,f,a,7,u,2,1i,a,d,3,9,7,m,4,20,p,2,3,f,3,4,b,5,3,5,3,5,a,6,2,6,2,16,2,d,7,3e,2,1,3,9,7,8mb,d,m,5,1c,6it,a5,3,2x,13,6,d,4,6,b,2,c,2,4,2,0,2,1,2,1,2,2z,y,a2,j,1r,3,1h,15,b,5,f,h,f,1t,4,2,3q,k,9,8,p,7,p,c,2g,4,5,3,5,3,5,3,2,10,b,2,p,2,i,2,1,2,e,3,d,z,3e,d,18,d,1k,i,1,36,0,3n,s,4,1c,g,r,5,z,a,t,6,16,6,t,3,z,5,7,2,4,17,4d,3,9,7,z,5,z,5,13,9,1f,d,a,2,e,2,6,2,1,2,a,2,e,2,6,2,1,1w,8m,a,l,b,7,p,5,2,15,2,8,1y,5,3,0,2,17,2,1,4,0,3,m,3,u,3,11,9,8,1d,i,2,1,6,w,5,p,1z,1j,5,j,3,1d,2,1,6,7,2,2,2,s,3,2,5,9,o,u,2,v,x,7,2,t,5,4,h,1h,b,l,3,q,6,p,o,6,29,20,1k,1e,e,1e,8,19,9,9,87,u,2,15,2,1,4,1,27,13,9,10,s,l,17,r,l,m,a,1y,c,z,a,1n,8,0,e,o,8,9,7,1g,2,9,5,3,9,z,3,0,a,1w,5,3,2,c,2,0,5,j,c,h,2,10,7,0,1u,6,2,0,2,3,2,e,2,9,8,1m,6,9,7,3,2,7,3,1,3,l,2,6,2,1,2,4,2,9,3,1,3,2,3,0,7,0,6,6,3,6,4,4,3w,22,6,9,5,3,v,1x,2,0,9,9,4n,1h,3,8,o,5,z,1s,4,0,c,9,13,1k,8,9,1j,q,3,e,5,b,5,6,56,1m,2u,2a,d,7,3,0,3,7,2,1,2,t,2,1,3,8,d,9,1z,7,3,19,3,7,2,1,s,1q,9,0,9,21,4,0,j,20,7c,8,2,18,2,8,g,s,6,t,3,l,2,d,22,6,2,1,2,17,4,0,2,1,2,8,9,9,7,5,2,1,2,10,2,1,2,5,8,9,8n,m,56,0,g,k,18,pl,2v,32,i,5f,219,2o,g,tq,34i,g6,6nu,fs,8,u,2,9,7,26,2,9,7,t,3,4,c,1i,a,3,d,9,2,6,2,k,6,i,j5,2e,2y,22,5,1k,8,g,1t,1,2,1,c,1,f,4qf,9,yd,17,8,6w8,3,2,6,2,1,2,82,1a,2,i,3,9,az,1s5,2y,6,c,4,8,8,9,4,1,3mq,19,3,m,f3,4,4,5,9,7,3,6,v,3,45,2,4c,j,31,o,3s,2c,2,1y,2,1,3,0,3,1,3,3,2,b,2,0,2,6,2,1s,2,3,3,7,2,6,2,r,2,3,2,4,2,0,4,6,2,9f,3,o,2,o,2,u,2,o,2,u,2,o,2,u,2,o,2,u,2,o,2,7,3,1d,e9,1i,5,1d,9,0,f,0,n,4,2,e,up,u,6a,6,2,g,3,6,2,1,2,4,5y,18,4,d,3,9,5,0,8y,u,i,1l,yv,6,2,3,2,1,2,e,2,5g,3,f,16,23,5,9,m0,1m,2,2,2,3,25,18,2,e,5f,3,2,q,2,1,2,0,3,0,2,9,2,3,2,0,2,0,7,0,5,0,2,0,2,0,2,2,2,1,2,0,3,0,2,0,2,0,2,0,2,0,2,1,2,0,3,3,2,6,2,3,2,3,2,0,2,9,2,g,6,2,2,4,2,g,g5,c,25g,9,sn,wyn,x,37c,8,65,3,4g1,f,5rk,2e8,f1,15v,3t6,fcmu,6n'
export const MN_TABLE = 'ld,33,7o,4,7e,18,2,0,2,1,2,1,2,0,21,a,1d,k,h,0,2u,6,3,5,3,1,2,3,10,0,v,q,2k,a,1n,8,a,0,p,3,2,8,2,2,2,4,18,2,1p,7,17,n,2,v,1k,0,2,0,5,7,5,0,4,6,b,1,u,0,1n,0,5,3,9,0,l,1,r,0,3,1,1m,0,5,1,5,1,3,2,4,0,v,1,4,0,c,1,1m,0,5,4,2,1,5,0,l,1,n,5,2,0,1n,0,3,0,2,3,9,0,8,1,c,1,v,0,1q,0,d,0,1f,0,4,0,1k,0,2,2,6,2,2,3,8,1,c,1,u,0,1n,0,3,0,7,0,6,1,l,1,t,1,1m,1,5,3,9,0,l,1,u,0,21,0,8,2,2,0,2j,0,3,6,d,7,2r,0,3,8,c,5,23,1,s,0,2,0,2,0,1k,d,2,4,2,1,6,a,2,z,a,0,2v,3,2,5,2,1,3,1,q,1,5,2,h,3,e,0,3,1,7,0,g,0,jk,2,qb,2,u,1,v,1,v,1,1t,1,2,6,9,0,3,a,a,0,1a,2,2,0,3a,1,z,0,3b,2,5,1,a,0,7,2,64,1,3,0,1n,0,2,6,2,0,2,0,3,7,7,9,3,0,1d,d,2,f,1e,3,1d,0,2,4,2,0,6,0,15,8,d,1,x,3,3,1,2,2,1l,0,2,1,4,0,2,2,1n,7,3,1,49,2,2,c,2,6,5,0,7,0,4,1,5j,1r,k1,c,5,0,4,b,2db,2,3y,0,2p,v,ff,3,30,1,n9x,0,5,9,x,1,29,1,7l,0,4,0,5,0,q,1,6,0,48,1,r,h,e,0,13,7,q,a,1b,2,1d,0,3,3,3,1,14,0,1w,5,3,1,3,1,d,0,9,0,1c,0,1g,0,2,2,3,1,6,1,2,0,17,1,9,0,6n,0,3,0,5,0,fn5,0,ki,f,h,f,r2,0,6b,0,46,4,1af,2,2,1,6,3,15,2,5,0,4m,1,fy,3,as,1,4a,a,1e,3,3g,0,1j,e,16,0,3,1,b,2,1e,3,3,1,8,0,1q,2,11,4,2,7,1r,0,d,1,1h,8,b,3,3,0,2o,2,3,0,2,1,7,0,4h,0,4,7,m,1,1m,1,4,0,12,6,4,4,5g,7,3,2,2,0,o,0,2d,5,2,0,5,1,2,1,6n,3,7,1,2,1,s,1,2e,7,3,0,2,1,2z,0,2,0,3,5,2,0,2u,2,3,3,2,4,78,8,2,1,75,1,2,0,5,0,41,3,3,1,5,0,x,9,15,5,3,3,9,0,a,5,3,2,1b,c,2,1,bb,6,2,5,2,0,2b,l,3,6,2,1,2,1,3f,5,4,0,2,1,2,6,2,0,21,1,4,0,2,0,9o,1,f0c,4,1o,6,t5,0,1s,3,2a,0,f5l,1,3mq,19,3,m,f5,2,i,7,3,6,v,3,45,2,1j0,1i,5,1d,9,0,f,0,n,4,2,e,11t,6,2,g,3,6,2,1,2,4,7a,6,ag,0,1q,3,15t,6,32,6,gzhy,6n'
const SPACELESS = [[0xE00, 0xEFF], [0x1000, 0x109F], [0x1100, 0x11FF], [0x1780, 0x17FF], [0x19E0, 0x19FF], [0x3005, 0x3007], [0x3021, 0x3029], [0x3031, 0x3035], [0x303B, 0x303C], [0x3040, 0x30FF], [0x3130, 0x318F], [0x31F0, 0x31FF], [0x3400, 0x4DBF], [0x4E00, 0x9FFF], [0xA960, 0xA97F], [0xA9E0, 0xA9FF], [0xAA60, 0xAA7F], [0xAC00, 0xD7FF], [0xF900, 0xFAFF], [0xFF66, 0xFFDC], [0x1B000, 0x1B16F], [0x20000, 0x2FA1F], [0x30000, 0x323AF]]
const LATIN = [[0x30, 0x39], [0x61, 0x7A], [0xAA, 0xAA], [0xBA, 0xBA], [0xC0, 0x24F], [0x250, 0x2AF], [0x300, 0x36F], [0x1AB0, 0x1AFF], [0x1D00, 0x1DFF], [0x1E00, 0x1EFF], [0x20D0, 0x20FF], [0x2C60, 0x2C7F], [0xA720, 0xA7FF], [0xAB30, 0xAB6F]]
const FOLD_MAP = { 'ß': 'ss', 'æ': 'ae', 'ø': 'o', 'œ': 'oe', 'đ': 'd', 'ð': 'd', 'ł': 'l', 'þ': 'th', 'ı': 'i' }

export function decodeTable (table) {
  const nums = table.split(',').map((x) => parseInt(x, 36))
  const out = []
  let end = -1
  for (let i = 0; i < nums.length; i += 2) {
    const first = end + nums[i]
    end = first + nums[i + 1]
    out.push([first, end])
  }
  return out
}

const esc = (cp) => `\\u{${cp.toString(16)}}`
const charClass = (ranges) => ranges.map(([a, b]) => (a === b ? esc(a) : `${esc(a)}-${esc(b)}`)).join('')
const WORD_RE = new RegExp(`[${charClass(decodeTable(WORD_TABLE))}]+`, 'gu')
const MN_RE = new RegExp(`[${charClass(decodeTable(MN_TABLE))}]+`, 'gu')
const SPACELESS_RE = new RegExp(`[${charClass(SPACELESS)}]+`, 'gu')
const LATIN_RE = new RegExp(`^[${charClass(LATIN)}]+$`, 'u')
const FOLD_RE = new RegExp(`[${Object.keys(FOLD_MAP).join('')}]`, 'gu')
const ASCII_WORD_RE = /[a-z0-9]+/g
const isAscii = (s) => /^[\x00-\x7f]*$/.test(s)

// The diacritic-folded form of a lower-cased word.
export function fold (word) {
  if (isAscii(word)) return word
  return word.normalize('NFD').replace(MN_RE, '').normalize('NFC').replace(FOLD_RE, (c) => FOLD_MAP[c])
}

function asciiPairs (word) {
  if (STOP_WORDS.has(word)) return []
  const s = stem(word)
  return [[s, s]]
}

function plainPairs (word) {
  if (isAscii(word)) return asciiPairs(word)
  word = word.replaceAll('ς', 'σ')
  const f = fold(word)
  if (LATIN_RE.test(word)) {
    if (STOP_WORDS.has(word)) return []
    const e = stem(word)
    return [[e, f === word || !f || STOP_WORDS.has(f) ? e : stem(f)]]
  }
  return [[word, f || word]]
}

function wordPairs (raw) {
  const norm = raw.normalize('NFKC').toLowerCase()
  const out = []
  for (const word of norm.match(WORD_RE) || []) {
    if (isAscii(word)) { out.push(...asciiPairs(word)); continue }
    let at = 0
    for (const m of word.matchAll(SPACELESS_RE)) {
      if (m.index > at) out.push(...plainPairs(word.slice(at, m.index)))
      const cps = Array.from(m[0])
      if (cps.length === 1) out.push([cps[0], cps[0]])
      else for (let i = 0; i + 1 < cps.length; i++) { const b = cps[i] + cps[i + 1]; out.push([b, b]) }
      at = m.index + m[0].length
    }
    if (at < word.length) out.push(...plainPairs(word.slice(at)))
  }
  return out
}

const memo = new Map()

// One [exact term, folded term] pair per position of `text`, in order.
export function analyzePairs (text) {
  text = String(text)
  const words = isAscii(text) ? (text.toLowerCase().match(ASCII_WORD_RE) || []) : (text.match(WORD_RE) || [])
  const out = []
  for (const w of words) {
    let pairs = memo.get(w)
    if (pairs === undefined) {
      if (memo.size > 100000) memo.clear()
      pairs = wordPairs(w)
      memo.set(w, pairs)
    }
    for (const p of pairs) out.push(p)
  }
  return out
}

// The exact terms of `text`, one per position.
export const analyze = (text) => analyzePairs(text).map(([e]) => e)
export const queryTerms = analyzePairs
export const queryWords = analyzePairs
export function analyzeQueryWord (word) {
  const pairs = analyzePairs(word)
  return pairs.length ? pairs[0][0] : ''
}
// The name-index key of a title, alias, file stem or query (index.name_key).
export const nameKey = (text) => analyzePairs(text).map(([, f]) => f).join(' ')

// ---- BM25 arithmetic: twin of builder/lunrjs/scoring.py -------------------------------
const LN2 = 0.6931471805599453
const SQRT2 = 1.4142135623730951
const INV = []
for (let k = 1; k < 32; k += 2) INV.push(1.0 / k)

// Natural logarithm from + - * / only, so it equals scoring.ln bit for bit.
export function ln (x) {
  let e = 0
  while (x >= 2.0) { x = x / 2.0; e += 1 }
  while (x < 1.0) { x = x * 2.0; e -= 1 }
  if (x > SQRT2) { x = x / 2.0; e += 1 }
  const s = (x - 1.0) / (x + 1.0)
  const s2 = s * s
  let p = INV[15]
  for (let k = 14; k >= 0; k--) p = p * s2 + INV[k]
  return e * LN2 + 2.0 * s * p
}

export function idf (n, df) {
  const x = (n - df + 0.5) / (df + 0.5)
  return ln(1.0 + Math.abs(x))
}

// ---- index reader ----------------------------------------------------------------------
export const FORMAT = 'bf-lunr-4'

export class FormatError extends Error {}

const encoder = new TextEncoder()

export function fnv1a (term) {
  let h = 0x811c9dc5
  for (const byte of encoder.encode(term)) h = Math.imul(h ^ byte, 0x01000193) >>> 0
  return h
}

// Fields that add to the score but hold no word for the all-words rule (scoring.CONTEXT).
const CONTEXT = ['neighbours']

// A term's posting with its weights: ids ascending, ws, named (1 where the doc holds it in a
// `named` field), own (1 where it holds it outside CONTEXT fields), as reader._Posting.
function makePosting (entry, m) {
  let df = 0
  for (const e of entry) df += e[1].length
  const widf = idf(m.docs, df)
  const parts = []
  for (const [fi, gaps, codes] of entry) {
    const field = m.fields[fi]
    const { k1, b, boost } = m.params[field]
    const scale = m.params[field].scale ?? 1 // a weighted field stores tf * scale
    const a = m.docs ? m.lengths[field] / m.docs : 0.0
    const k1p1 = k1 + 1
    const ids = new Array(gaps.length)
    const ws = new Array(gaps.length)
    for (let i = 0, d = 0; i < gaps.length; i++) {
      ids[i] = (d += gaps[i])
      // codes: len * 16 + tf (tf < 16), else -(tf * 2^24 + len): exact integers in doubles
      const v = codes[i]
      const stored = v >= 0 ? v % 16 : Math.floor(-v / 16777216)
      const len = v >= 0 ? (v - stored) / 16 : -v % 16777216
      const tf = scale !== 1 ? stored / scale : stored
      ws[i] = widf * (k1p1 * tf) / (k1 * (1 - b + b * (len / a)) + tf) * boost
    }
    parts.push({ named: m.named.includes(field), context: CONTEXT.includes(field), ids, ws })
  }
  let ids, ws
  if (parts.length === 1) {
    ids = parts[0].ids; ws = parts[0].ws
  } else {
    const acc = new Map()
    for (const part of parts) {
      for (let i = 0; i < part.ids.length; i++) {
        const d = part.ids[i]
        acc.set(d, (acc.has(d) ? acc.get(d) : 0.0) + part.ws[i])
      }
    }
    ids = [...acc.keys()].sort((x, y) => x - y)
    ws = ids.map((d) => acc.get(d))
  }
  const namedSet = new Set()
  for (const part of parts) if (part.named) for (const d of part.ids) namedSet.add(d)
  const named = new Uint8Array(ids.length)
  for (let i = 0; i < ids.length; i++) named[i] = namedSet.has(ids[i]) ? 1 : 0
  const own = new Uint8Array(ids.length).fill(1)
  if (parts.some((part) => part.context)) { // else every doc holds it in its own text
    const ownSet = new Set()
    for (const part of parts) if (!part.context) for (const d of part.ids) ownSet.add(d)
    for (let i = 0; i < ids.length; i++) own[i] = ownSet.has(ids[i]) ? 1 : 0
  }
  return { ids, ws, named, own }
}

// Query pairs from pairs, or from words (each analysed).
function asPairs (terms) {
  const out = []
  for (const t of terms) {
    if (typeof t === 'string') out.push(...analyzePairs(t))
    else out.push([t[0], t[1]])
  }
  return out
}

export class LunrIndex {
  // baseUrl: folder holding meta.json; fetchFn: optional fetch replacement.
  constructor (baseUrl, fetchFn) {
    this.base = baseUrl.endsWith('/') ? baseUrl : baseUrl + '/'
    this.fetch = fetchFn || ((u) => globalThis.fetch(u))
    this.files = new Map() // rel path -> Promise of parsed JSON
    this.terms = new Map() // term -> Promise of posting | null
    this.names = new Map() // name key -> Promise of Set of doc ids
  }

  json (rel) {
    let p = this.files.get(rel)
    if (!p) {
      const packed = rel !== 'meta.json' // every other index file is a pack (packs.js)
      p = this.fetch(this.base + (packed ? packedName(rel) : rel)).then((r) => {
        if (!r.ok) throw new Error(`lunrindex: ${rel}: HTTP ${r.status}`)
        return packed ? unpack(r) : r.json()
      })
      p.catch(() => this.files.delete(rel))
      this.files.set(rel, p)
    }
    return p
  }

  async meta () {
    const m = await this.json('meta.json')
    if (!m || m.format !== FORMAT) {
      throw new FormatError(`index format ${m && m.format !== undefined ? `'${m.format}'` : 'None'}, need '${FORMAT}'`)
    }
    return m
  }

  // A function doc id -> [group, position among the group's docs] (meta.json `groups`
  // runs), without any ref file.
  async grouper () {
    const m = await this.meta()
    const starts = []
    const before = [] // docs of the same group in earlier runs
    const seen = new Map()
    let start = 0
    for (const [name, count] of m.groups) {
      starts.push(start)
      before.push(seen.get(name) || 0)
      seen.set(name, (seen.get(name) || 0) + count)
      start += count
    }
    return (d) => {
      let lo = 0; let hi = starts.length
      while (lo < hi) { const mid = (lo + hi) >> 1; if (starts[mid] <= d) lo = mid + 1; else hi = mid }
      return [m.groups[lo - 1][0], before[lo - 1] + d - starts[lo - 1]]
    }
  }

  postings (term) {
    let p = this.terms.get(term)
    if (!p) {
      p = (async () => {
        const m = await this.meta()
        const table = await this.json(`t/${fnv1a(term) & (m.shards - 1)}.json`)
        if (!Object.prototype.hasOwnProperty.call(table, term)) return null
        let entry = table[term]
        if (typeof entry === 'number') entry = await this.json(`b/${entry}.json`)
        return makePosting(entry, m)
      })()
      p.catch(() => this.terms.delete(term)) // retry after a failed fetch
      this.terms.set(term, p)
    }
    return p
  }

  // Doc ids whose title, an alias or file stem has name key `key`.
  named (key) {
    let p = this.names.get(key)
    if (!p) {
      p = (async () => {
        if (!key) return new Set()
        const m = await this.meta()
        const table = await this.json(`n/${fnv1a(key) & (m.names - 1)}.json`)
        return new Set(Object.prototype.hasOwnProperty.call(table, key) ? table[key] : [])
      })()
      p.catch(() => this.names.delete(key))
      this.names.set(key, p)
    }
    return p
  }

  // Each doc id's value in the chunk files kind/N.json of `size` docs; loads only the chunks
  // those ids fall in.
  async perDoc (kind, size, ids) {
    const chunks = await Promise.all([...new Set(ids.map((d) => Math.floor(d / size)))]
      .map(async (c) => [c, await this.json(`${kind}/${c}.json`)]))
    const byChunk = new Map(chunks)
    return ids.map((d) => byChunk.get(Math.floor(d / size))[d % size])
  }

  // Refs for doc ids (r/N.json).
  async refs (ids) {
    return this.perDoc('r', (await this.meta()).refChunk, ids)
  }

  // The doc id of `ref`, or null: ids follow ref (code point) order, so a bisection (as
  // reader.IndexReader.doc).
  async doc (ref) {
    const n = (await this.meta()).docs
    let lo = 0; let hi = n
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (cmp((await this.refs([mid]))[0], ref) < 0) lo = mid + 1
      else hi = mid
    }
    return lo < n && (await this.refs([lo]))[0] === ref ? lo : null
  }

  // Conversation numbers for doc ids (c/N.json; 0: a note or section).
  async conversations (ids) {
    return this.perDoc('c', (await this.meta()).convChunk, ids)
  }

  // [{id, score, matched: [folded terms, sorted], tier}]: tier, then score desc, then id (= ref)
  // asc — reader.IndexReader.search_ids.
  async searchIds (terms, required, limit) {
    const pairs = asPairs(terms)
    const groups = new Map()
    const bonus = new Map()
    for (const [e, f] of pairs) {
      groups.set(f, (groups.get(f) || 0) + 1)
      if (e !== f) bonus.set(e, (bonus.get(e) || 0) + 1)
    }
    const m = await this.meta()
    // Named documents are hits of tier 0 even when the name is only their file stem, whose
    // words no indexed text may hold (then with score 0 and no matched term).
    const names = await this.named(pairs.map(([, f]) => f).join(' '))
    const found = await Promise.all([...groups.keys()].map((t) => this.postings(t)))
    const present = []
    let missing = false
    let i = 0
    for (const [f, c] of groups) {
      const p = found[i++]
      if (!p) missing = true
      else present.push({ c, f, p })
    }
    if ((required && missing) || !present.length) {
      const docs = [...names].sort((x, y) => x - y)
      return (limit != null ? docs.slice(0, limit) : docs).map((d) => ({ id: d, score: 0, matched: [], tier: 0 }))
    }
    const extra = []
    const bonusFound = await Promise.all([...bonus.keys()].map((t) => this.postings(t)))
    i = 0
    for (const c of bonus.values()) {
      const p = bonusFound[i++]
      if (p) extra.push({ c, p })
    }
    const whole = present.length === groups.size
    // Dense per-doc accumulators, added to in group order, then bonus order (as Python).
    const sums = new Float64Array(m.docs)
    const hits = new Uint16Array(m.docs)
    const nameds = new Uint16Array(m.docs)
    const owns = new Uint16Array(m.docs) // groups held in the doc's own text (all-words rule)
    const masks = new Int32Array(m.docs) // bit per term, first 31 terms
    let ids = []
    for (let bit = 0; bit < present.length; bit++) {
      const { c, p } = present[bit]; const b = bit < 31 ? 1 << bit : 0
      for (let j = 0; j < p.ids.length; j++) {
        const d = p.ids[j]
        if (hits[d] === 0) ids.push(d)
        hits[d]++; sums[d] += c * p.ws[j]; masks[d] |= b; nameds[d] += p.named[j]; owns[d] += p.own[j]
      }
    }
    for (const d of names) if (hits[d] === 0) ids.push(d)
    for (const { c, p } of extra) {
      for (let j = 0; j < p.ids.length; j++) if (hits[p.ids[j]]) sums[p.ids[j]] += c * p.ws[j]
    }
    if (required) ids = ids.filter((d) => owns[d] === present.length || names.has(d))
    const tiers = hits // reused: per doc its tier from here on
    for (const d of ids) tiers[d] = names.has(d) ? 0 : whole && nameds[d] === groups.size ? 1 : 2
    ids.sort((x, y) => (tiers[x] - tiers[y]) || (sums[y] - sums[x]) || (x - y))
    if (limit != null) ids = ids.slice(0, limit)
    const has = present.length <= 31
      ? (d, k) => (masks[d] >>> k) & 1
      : (d, k) => bisect(present[k].p.ids, d)
    const sets = new Map()
    return ids.map((d) => {
      const key = present.length <= 31 ? masks[d] : null
      let s = key === null ? null : sets.get(key)
      if (!s) {
        s = [...new Set(present.filter((e, k) => has(d, k)).map((e) => e.f))].sort()
        if (key !== null) sets.set(key, s)
      }
      return { id: d, score: sums[d], matched: s, tier: tiers[d] }
    })
  }

  // [{ref, score, matched, tier}] like IndexReader.search in Python.
  async search (terms, required, limit) {
    const items = await this.searchIds(terms, required, limit)
    const refs = await this.refs(items.map((it) => it.id))
    return items.map((it, k) => ({ ref: refs[k], score: it.score, matched: it.matched, tier: it.tier }))
  }
}

function bisect (ids, d) {
  let lo = 0; let hi = ids.length
  while (lo < hi) { const mid = (lo + hi) >> 1; if (ids[mid] < d) lo = mid + 1; else hi = mid }
  return lo < ids.length && ids[lo] === d
}
