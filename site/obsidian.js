// Maths and diagrams of Obsidian notes (docs/brain.md). Loaded only by pages whose HTML holds
// maths (.math, MathML written at build time) or a diagram (pre.mermaid).
// Nothing here may move the page as it loads: a diagram has a box of its own (bf.css) until it
// is drawn.
// Mermaid is not a script of the page: its modules (the ES build, split by diagram type) are
// imported once the page has loaded and the browser is idle, and only when a diagram nears the
// window, so a phone shows and scrolls the text before it parses a diagram library
// (docs/decisions.md#diagrams-after-the-page).
(() => {
  const here = document.currentScript.src
  for (const el of document.querySelectorAll('.math-display')) {
    if (el.scrollWidth > el.clientWidth) el.tabIndex = 0 // a formula wider than its column scrolls: Tab must reach it
  }
  const diagrams = [...document.querySelectorAll('pre.mermaid')]
  if (!diagrams.length) return
  let library = null
  const mermaid = () => (library ??= import(new URL('vendor/mermaid/mermaid.esm.min.mjs', here).href).then((m) => m.default))
  const sources = new Map(diagrams.map((el) => [el, el.textContent]))
  const drawn = new Set()
  const dark = window.matchMedia('(prefers-color-scheme: dark)')
  // Drawn at its own size, shrunk to fit its column down to 4/5 of it and scrolled sideways
  // beyond: on a phone a wide diagram scrolls instead of shrinking its text to ~7 px.
  const natural = (el) => {
    for (const svg of el.querySelectorAll(':scope > svg')) {
      const width = parseFloat(svg.style.maxWidth)
      if (!width) continue
      svg.style.maxWidth = width + 'px'
      svg.style.minWidth = Math.round(width * 0.8) + 'px'
    }
    // drawn in view, it keeps its reserved box (growing only when it needs more) so the text
    // under it stays put; drawn out of view, as most are, it takes its own height unseen
    const box = el.getBoundingClientRect()
    if (!el.classList.contains('drawn') && box.bottom > 0 && box.top < window.innerHeight) el.classList.add('kept')
    el.classList.add('drawn')
    if (el.scrollWidth > el.clientWidth) el.tabIndex = 0 // it scrolls: Tab must reach it
  }
  const draw = (nodes) => mermaid().then((lib) => {
    nodes.forEach((el) => { el.removeAttribute('data-processed'); el.textContent = sources.get(el); drawn.add(el) })
    // dark's edge labels (#ccc on #585858, 4.4:1) darkened to 4.5:1 or more (WCAG 1.4.3)
    lib.initialize({ startOnLoad: false, securityLevel: 'strict', ...(dark.matches ? { theme: 'dark', themeVariables: { edgeLabelBackground: '#484848' } } : { theme: 'default' }) })
    return lib.run({ nodes, suppressErrors: true }).then(() => {
      nodes.forEach(natural)
      if (drawn.size === diagrams.length) document.documentElement.setAttribute('data-bf-diagrams', 'drawn')
    })
  })
  let queue = Promise.resolve() // one run at a time: mermaid.initialize is global
  const near = new IntersectionObserver((entries) => {
    const nodes = entries.filter((e) => e.isIntersecting && !drawn.has(e.target)).map((e) => e.target)
    nodes.forEach((el) => near.unobserve(el))
    if (nodes.length) queue = queue.then(() => draw(nodes))
  }, { rootMargin: '600px 0px' })
  const watch = () => diagrams.forEach((el) => near.observe(el))
  const idle = () => (window.requestIdleCallback ? window.requestIdleCallback(watch, { timeout: 3000 }) : setTimeout(watch, 200))
  if (document.readyState === 'complete') idle()
  else window.addEventListener('load', idle, { once: true })
  dark.addEventListener('change', () => { if (drawn.size) queue = queue.then(() => draw([...drawn])) }) // redraw in the other scheme's colours
})()
