// The search page's tab a link asks for (searchpage.js scopedWanted), shown before the first
// paint: search.html runs this classic script where it stands, after the tabs' markup; choosing
// the tab once the module has loaded would move the page under the reader. With a query, the
// scoped list is marked busy at once, so the space kept for it (search.html's style) holds.
(function () {
  const p = new URLSearchParams(location.search)
  if (!(p.get('scope') || p.get('type') || p.get('limit') || p.get('mode') === 'scoped')) return
  document.getElementById('fulltext').hidden = true
  document.getElementById('scoped').hidden = false
  document.getElementById('tab-fulltext').setAttribute('aria-selected', 'false')
  document.getElementById('tab-scoped').setAttribute('aria-selected', 'true')
  if (p.get('q')) {
    document.getElementById('scoped-status').textContent = 'Searching…'
    document.getElementById('scoped-results').setAttribute('aria-busy', 'true')
  }
})()
