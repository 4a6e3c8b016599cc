// Search a built pagefind bundle from node 20, without a browser or server.
//
//   node tests/support/pagefind_search.mjs BUNDLE QUERY [--filter key=value]... [--limit N]
//
// BUNDLE is a site folder holding `pagefind/`, or the `pagefind/` folder
// itself, or one bundle folder (holding pagefind.js). When the folder holds
// `bundles.json` (bf's several bundles), one language index of the first bundle
// listed is searched and every other (bundle, language) index is merged into it
// (mergeIndex), as the search page does (site/fulltext.js).
// QUERY is the search text; pass "" to search by filters alone.
// Prints one JSON object on stdout:
//   {"query", "filters_used", "count", "unfiltered_count",
//    "filters": {name: {value: count}},          // counts for the query
//    "total_filters": {name: {value: count}},    // counts ignoring filters
//    "all_filters": {name: {value: count}},      // every filter, pages of all bundles
//    "results": [{"url", "title", "meta", "filters", "excerpt", "sub_results": [{"url", "title"}]}]}
//
// pagefind.js fetches its entry JSON, meta, wasm, index, filter and
// fragment files relative to its own URL (a file:// URL under node), so a
// small `fetch` shim serves file:// URLs from disk. Any other URL is an error:
// the bundle must not reach the network.
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { mergedIndexes } from "../../site/fulltext.js";

function usage(msg) {
  process.stderr.write(`${msg}\nusage: pagefind_search.mjs BUNDLE QUERY [--filter key=value]... [--limit N]\n`);
  process.exit(2);
}

const positional = [];
const filters = {};
let limit = 50;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === "--filter") {
    const kv = argv[++i];
    if (!kv || !kv.includes("=")) usage("--filter needs key=value");
    const at = kv.indexOf("=");
    const key = kv.slice(0, at);
    const value = kv.slice(at + 1);
    (filters[key] ??= []).push(value);
  } else if (a === "--limit") {
    limit = Number(argv[++i]);
    if (!Number.isInteger(limit) || limit < 1) usage("--limit needs a positive integer");
  } else {
    positional.push(a);
  }
}
if (positional.length !== 2) usage("expected BUNDLE and QUERY");
const [bundleArg, query] = positional;

// the bundles to search: [{dir, languages}], the first one primary (languages null: a lone
// bundle, searched in the language pagefind opens)
async function bundleList (arg) {
  for (const dir of [path.resolve(arg), path.resolve(arg, "pagefind")]) {
    try {
      const listed = JSON.parse(await readFile(path.join(dir, "bundles.json"), "utf8"));
      if (!listed.bundles.length) usage(`no bundles listed in ${dir}/bundles.json`);
      return listed.bundles.map((b) => ({ dir: path.join(dir, b.path), languages: b.languages }));
    } catch (err) {
      if (err.code !== "ENOENT") throw err;
    }
    try {
      await stat(path.join(dir, "pagefind.js"));
      return [{ dir, languages: null }];
    } catch {}
  }
  usage(`no bundles.json or pagefind.js in ${arg} or ${arg}/pagefind`);
}
const bundles = await bundleList(bundleArg);
const bundleDir = bundles[0].dir;
const entry = path.join(bundleDir, "pagefind.js");

const fetched = [];
globalThis.fetch = async (input) => {
  const href = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  const url = new URL(href);
  if (url.protocol !== "file:") throw new Error(`pagefind_search: refusing non-file fetch ${href}`);
  url.search = "";
  url.hash = "";
  const file = fileURLToPath(url);
  fetched.push(path.relative(bundleDir, file));
  try {
    const body = await readFile(file);
    const type = file.endsWith(".wasm") || file.endsWith(".pagefind") ? "application/wasm"
      : file.endsWith(".json") ? "application/json" : "application/octet-stream";
    return new Response(body, { status: 200, headers: { "content-type": type } });
  } catch (err) {
    if (err.code === "ENOENT") return new Response("not found", { status: 404 });
    throw err;
  }
};

const pagefind = await import(pathToFileURL(entry).href);
// baseUrl "/" keeps result URLs as indexed ("/notes/a.html"); without it
// pagefind derives them from the file:// basePath.
await pagefind.options({ basePath: pathToFileURL(bundleDir).href + "/", baseUrl: "/" });
await pagefind.init();
// node has no <html lang>: pagefind opens the first bundle's index in "unknown", i.e. its biggest
const merged = bundles[0].languages
  ? mergedIndexes(bundles.map((b) => ({ url: pathToFileURL(b.dir).href + "/", languages: b.languages })), "unknown")
  : [];
for (const { bundlePath, language } of merged) {
  await pagefind.mergeIndex(bundlePath, { baseUrl: "/", language });
}

// like the UI: load every filter (pagefind loads filter files on demand otherwise)
const allFilters = await pagefind.filters();
const hasFilters = Object.keys(filters).length > 0;
const search = await pagefind.search(query === "" ? null : query, hasFilters ? { filters } : {});
if (search === null) usage("search returned null");
const results = [];
for (const r of search.results.slice(0, limit)) {
  const d = await r.data();
  results.push({ url: d.url, title: d.meta?.title ?? null, meta: d.meta, filters: d.filters, excerpt: d.excerpt,
    sub_results: (d.sub_results || []).map((s) => ({ url: s.url, title: s.title })) });
}
process.stdout.write(JSON.stringify({
  query,
  filters_used: filters,
  count: search.results.length,
  unfiltered_count: search.unfilteredResultCount,
  filters: search.filters,
  total_filters: search.totalFilters,
  all_filters: allFilters,
  results,
}) + "\n");
await pagefind.destroy?.();
