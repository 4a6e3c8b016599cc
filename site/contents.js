// The table of contents beside a note's text (templates/note.html nav.toc): the section being
// read is marked aria-current="location", from an IntersectionObserver over the headings, so the
// page runs nothing while it scrolls between them. Each heading it lists gets its "§" link to
// itself here, not in the page's HTML (builder/brain/mdrender.py).
const READING_BAND = '0px 0px -60% 0px' // a heading in the top 40% of the window starts the section read

export function wire () {
  const toc = document.querySelector('nav.toc')
  const links = new Map() // heading → its link, in the page's order
  for (const a of toc.querySelectorAll('a[href^="#"]')) {
    const heading = document.getElementById(decodeURIComponent(a.hash.slice(1)))
    if (!heading) continue
    links.set(heading, a)
    const self = Object.assign(document.createElement('a'), { className: 'anchor', href: '#' + heading.id, tabIndex: -1, textContent: '§' })
    self.setAttribute('aria-hidden', 'true')
    heading.prepend(self, ' ')
  }
  const seen = new Set()
  const mark = () => {
    const headings = [...links.keys()]
    // the first heading in the band, else the last one scrolled past: its section fills the window
    const current = headings.find((h) => seen.has(h)) || headings.filter((h) => h.getBoundingClientRect().top < 0).pop()
    for (const [heading, a] of links) {
      if (heading === current) a.setAttribute('aria-current', 'location')
      else a.removeAttribute('aria-current')
    }
  }
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (entry.isIntersecting) seen.add(entry.target)
      else seen.delete(entry.target)
    }
    mark()
  }, { rootMargin: READING_BAND })
  for (const heading of links.keys()) observer.observe(heading)
}
