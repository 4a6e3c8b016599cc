// The search page's tab a link asks for (searchpage.js scopedWanted), shown before the first
// paint: search.html runs this classic script where it stands, after the tabs' markup; choosing
// the tab once the module has loaded would move the page under the reader. With a query, the
// scoped list is marked busy at once, so the space kept for it (search.html's style) holds.
// It also asks at once for what the shown tab needs, and only that: the scoped search's modules
// (all at once rather than import after import), or pagefind's UI, its style and its list of
// bundles, which searchpage.js would otherwise ask for only once its own imports have run; the
// scoped search's modules follow when the reader points at or focuses its tab (docs/site.md#pages).
(function () {
  const p = new URLSearchParams(location.search)
  const scoped = document.getElementById('scoped')
  const modules = (scoped.dataset.preload || '').split(' ').filter(Boolean)
  const hint = (rel, href, as, priority = 'low') => {
    const link = document.createElement('link')
    link.rel = rel
    link.href = href
    if (as) link.as = as
    if (as === 'fetch') link.crossOrigin = 'anonymous'
    if (as) link.fetchPriority = priority // pagefind's: behind the page's own style and modules, drawn after them
    document.head.append(link)
  }
  let hinted = false
  const scopedHints = () => {
    if (!hinted) modules.forEach((m) => hint('modulepreload', m))
    hinted = true
  }
  if (!(p.get('scope') || p.get('type') || p.get('limit') || p.get('mode') === 'scoped')) {
    const bundle = document.getElementById('pagefind').dataset.bundle.replace(/\/?$/, '/')
    hint('preload', bundle + 'bundles.json', 'fetch')
    hint('preload', bundle + 'pagefind-ui.css', 'style')
    hint('preload', bundle + 'pagefind-ui.js', 'script')
    // the scoped search's modules once the reader heads for its tab
    const tab = document.getElementById('tab-scoped')
    for (const type of ['pointerenter', 'focus', 'touchstart']) tab.addEventListener(type, scopedHints, { once: true, passive: true })
    return
  }
  scopedHints()
  // the files a scoped search reads first whatever its query, asked with its modules
  for (const f of (scoped.dataset.fetches || '').split(' ').filter(Boolean)) hint('preload', f, 'fetch', 'auto')
  document.getElementById('fulltext').hidden = true
  scoped.hidden = false
  document.getElementById('tab-fulltext').setAttribute('aria-selected', 'false')
  document.getElementById('tab-scoped').setAttribute('aria-selected', 'true')
  if (p.get('q')) {
    document.getElementById('scoped-status').textContent = 'Searching…'
    document.getElementById('scoped-results').setAttribute('aria-busy', 'true')
  }
})()
