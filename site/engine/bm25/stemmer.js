// lunr.js 2.3.9's Porter stemmer (MIT, Oliver Nightingale).
// Twin of builder/bm25/stemmer.py: same tokens, same numbers, bit for bit.

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
