// Math and diagrams of Obsidian notes (docs/brain.md). Loaded, after the vendored KaTeX and/or
// Mermaid, only by pages whose HTML holds math (.math) or a diagram (pre.mermaid).
// Nothing here may move the page as it loads: display maths has its height reserved
// by bf.css, and a diagram has a box of its own (bf.css) until it is drawn, which happens as it
// nears the window.
(() => {
  if (window.katex) {
    for (const el of document.querySelectorAll('.math')) {
      try {
        window.katex.render(el.textContent, el, {
          displayMode: el.classList.contains('math-display'), throwOnError: false, output: 'htmlAndMathml'
        })
      } catch (err) {
        el.classList.add('math-error')
        el.title = String(err && err.message)
      }
    }
  }
  const mermaid = window.mermaid
  if (!mermaid) return
  const diagrams = [...document.querySelectorAll('pre.mermaid')]
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
  }
  const draw = (nodes) => {
    nodes.forEach((el) => { el.removeAttribute('data-processed'); el.textContent = sources.get(el); drawn.add(el) })
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: dark.matches ? 'dark' : 'default' })
    return mermaid.run({ nodes, suppressErrors: true }).then(() => {
      nodes.forEach(natural)
      if (drawn.size === diagrams.length) document.documentElement.setAttribute('data-bf-diagrams', 'drawn')
    })
  }
  let queue = Promise.resolve() // one run at a time: mermaid.initialize is global
  const near = new IntersectionObserver((entries) => {
    const nodes = entries.filter((e) => e.isIntersecting && !drawn.has(e.target)).map((e) => e.target)
    nodes.forEach((el) => near.unobserve(el))
    if (nodes.length) queue = queue.then(() => draw(nodes))
  }, { rootMargin: '600px 0px' })
  diagrams.forEach((el) => near.observe(el))
  dark.addEventListener('change', () => { queue = queue.then(() => draw([...drawn])) }) // redraw in the other scheme's colours
})()
