// The JS twin of builder/bm25 as one namespace, for the node parity tests.
export * from '../../site/engine/bm25/tokenizer.js'
export * from '../../site/engine/bm25/trimmer.js'
export * from '../../site/engine/bm25/stemmer.js'
export * from '../../site/engine/bm25/unitable.js'
export * from '../../site/engine/bm25/pipeline.js'
export * from '../../site/engine/bm25/scoring.js'
export * from '../../site/engine/bm25/reader.js'
