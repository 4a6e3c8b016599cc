// Paints graph.html's whole graph into a canvas handed over by graph.js (wholeGraph), in a
// worker: at 10k notes and 50k links rasterising the lines holds the main thread in Chromium's
// software canvas, so the page's own thread only hands over positions and styles
// (docs/site.md#reading-aids has the figures).
let canvas = null
let at = null
let edges = null

// data: {canvas, at, edges} once (at: Float64Array x, y per node in units of `size` around 0;
// edges: Int32Array [a, b, relation, …]), then {side, size, styles: [{stroke, dash}], dot} per paint.
self.onmessage = ({ data }) => {
  if (data.canvas) ({ canvas, at, edges } = data)
  const { side, size, styles, dot } = data
  canvas.width = canvas.height = side
  const ctx = canvas.getContext('2d')
  const unit = side / (2 * size)
  const x = (n) => (at[2 * n] + size) * unit
  const y = (n) => (at[2 * n + 1] + size) * unit
  ctx.lineWidth = Math.max(1, unit * 0.1)
  styles.forEach(({ stroke, dash }, r) => {
    ctx.strokeStyle = stroke
    ctx.setLineDash(dash)
    ctx.beginPath()
    for (let j = 0; j < edges.length; j += 3) {
      if (edges[j + 2] !== r) continue
      ctx.moveTo(x(edges[j]), y(edges[j]))
      ctx.lineTo(x(edges[j + 1]), y(edges[j + 1]))
    }
    ctx.stroke()
  })
  ctx.setLineDash([])
  ctx.fillStyle = dot
  const width = Math.max(2, unit * 3)
  for (let n = 0; n < at.length / 2; n++) ctx.fillRect(x(n) - width / 2, y(n) - width / 2, width, width)
}
