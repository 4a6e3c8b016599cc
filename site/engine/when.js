// A date the query names, as a period: twin of builder/query/when.py (read its docstring).
// The same patterns in the same order; ASCII only, as Python's re.A.

const NAME = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?' +
  '|sep(?:t|tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?'
const DAY = '([0-9]{1,2})(?:st|nd|rd|th)?'
const YEAR = '((?:19|20)[0-9]{2})'
const GAP = '[ \\t]+'
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december']
// [pattern, which groups are year, month, day]
export const PATTERNS = [
  [/\b([0-9]{4})-([0-9]{2})-([0-9]{2})\b/g, [1, 2, 3]],
  [new RegExp(`\\b${DAY}(?:${GAP}of)?${GAP}${NAME},?${GAP}${YEAR}\\b`, 'gi'), [3, 2, 1]],
  [new RegExp(`\\b${NAME}${GAP}${DAY},?${GAP}${YEAR}\\b`, 'gi'), [3, 1, 2]],
  [/\b([0-9]{4})-([0-9]{2})\b/g, [1, 2, 0]],
  [new RegExp(`\\b${NAME},?${GAP}${YEAR}\\b`, 'gi'), [2, 1, 0]],
  [new RegExp(`\\b${YEAR}\\b`, 'g'), [1, 0, 0]]
]

function month (text) {
  return /^[0-9]+$/.test(text) ? parseInt(text, 10) : MONTHS.map((m) => m.slice(0, 3)).indexOf(text.slice(0, 3).toLowerCase()) + 1
}

// The period key (YYYY-MM-DD, YYYY-MM or YYYY) of the first date `text` names, or null.
export function periodOf (text) {
  for (const [pattern, [y, m, d]] of PATTERNS) {
    for (const found of text.matchAll(pattern)) {
      const mo = m ? month(found[m]) : 0
      const day = d ? parseInt(found[d], 10) : 0
      if ((m && !(mo >= 1 && mo <= 12)) || (d && !(day >= 1 && day <= 31))) continue
      const pad = (n) => String(n).padStart(2, '0')
      return found[y] + (mo ? `-${pad(mo)}` : '') + (day ? `-${pad(day)}` : '')
    }
  }
  return null
}
