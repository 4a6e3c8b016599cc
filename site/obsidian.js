// Math and diagrams of Obsidian notes (docs/brain.md). Loaded, after the vendored KaTeX and/or
// Mermaid, only by pages whose HTML holds math (.math) or a diagram (pre.mermaid).
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
  if (mermaid) {
    const diagrams = [...document.querySelectorAll('pre.mermaid')]
    const sources = diagrams.map((el) => el.textContent)
    const dark = window.matchMedia('(prefers-color-scheme: dark)')
    const draw = () => {
      diagrams.forEach((el, i) => { el.removeAttribute('data-processed'); el.textContent = sources[i] })
      mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: dark.matches ? 'dark' : 'default' })
      return mermaid.run({ nodes: diagrams, suppressErrors: true })
        .then(() => document.documentElement.setAttribute('data-bf-diagrams', 'drawn'))
    }
    draw()
    dark.addEventListener('change', draw)   // redraw in the other scheme's colours
  }
})()
