// Which pagefind indexes full-text search reads: every language of every bundle.
//
// pagefind writes one index per page language (`<html lang>`) in each bundle, and its JS
// searches only one of them, the page's. bundles.json lists each bundle's languages with
// their page counts (builder/emit/pagefind.py); the search page's pagefind instance opens one
// index of the first bundle and merges every other (bundle, language) index with its
// `language` option. Used by searchpage.js, and by tests/support/pagefind_search.mjs in node.

// The index pagefind 1.5.2 opens for a page in language `wanted` (its findIndex): the same
// tag, else its primary subtag, else the language with the most pages (the first by name on
// a tie: bundles.json lists languages sorted, as pagefind-entry.json is after the build).
export function openedLanguage (languages, wanted) {
  const tag = (wanted || 'unknown').toLowerCase()
  if (tag in languages) return tag
  if (tag.split('-')[0] in languages) return tag.split('-')[0]
  return Object.keys(languages).sort((a, b) => languages[b] - languages[a])[0]
}

// `bundles`: [{ url, languages }] with url the bundle folder's absolute URL ending in "/".
// Returns the mergeIndex entries ({ bundlePath, language }) that, with the first bundle's index
// in `pageLanguage`, cover every language of every bundle once.
export function mergedIndexes (bundles, pageLanguage) {
  const opened = openedLanguage(bundles[0].languages, pageLanguage)
  const out = []
  bundles.forEach(({ url, languages }, i) => {
    for (const language of Object.keys(languages).sort()) {
      if (i === 0 && language === opened) continue
      // pagefind skips a merge whose path starts the primary's (its own bundle, once more):
      // "./" spells the same folder differently, and fetch resolves it to the same files
      out.push({ bundlePath: i === 0 ? url + './' : url, language })
    }
  })
  return out
}
