"""bf's command line: parse flags, delegate to one function per command, print JSON.
The only place that turns errors into exit codes (docs/replies.md#errors-and-exit-codes)."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from types import MappingProxyType

from . import MODES
from .kernel.errors import BfError, BuildError, InvalidInput, NotFound
from .scrub import scrub


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise InvalidInput("flag", message)


def drop_nulls(value):
    if isinstance(value, dict):
        return {k: drop_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [drop_nulls(v) for v in value]
    return value


def emit(reply: dict, dense: bool) -> None:
    if dense:
        text = json.dumps(drop_nulls(reply), ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    else:
        text = json.dumps(reply, ensure_ascii=False, indent=2, sort_keys=True)
    sys.stdout.write(text + "\n")


def user_path(text: str) -> Path:
    """A path the user typed, made absolute against the current directory, once, here:
    no code below the CLI depends on the cwd (docs/decisions.md)."""
    return Path(os.path.abspath(os.path.expanduser(text)))


def typed_paths(given: list[str]) -> dict[str, str]:
    """Each brain folder's absolute and resolved path → the path as the user typed it: a
    message about a brain names it as given (docs/replies.md#errors-and-exit-codes)."""
    return {str(p): typed for typed in given for p in (user_path(typed), user_path(typed).resolve())}


def given_paths(args) -> list[str]:
    """The folders a build, check, new or serve was given: their messages name them as typed.
    A query's --site is not among them: its replies hide paths as documented."""
    if args.command not in ("build", "check", "new", "serve"):
        return []
    return [*(getattr(args, "brains", None) or []), *(getattr(args, "watch", None) or []),
            *[getattr(args, name) for name in ("out", "dir") if getattr(args, name, None)]]


def site_path(args) -> Path:
    """--site, else $BF_SITE, else ./_site (query/site.py find_site) — absolute."""
    from .query.site import find_site
    return user_path(str(find_site(args.site)))


def brain_paths(given: list[str]) -> list[Path]:
    """The BRAIN arguments; none means the current folder when it holds a brain.toml."""
    if given:
        return [user_path(b) for b in given]
    if Path("brain.toml").is_file():
        return [user_path(".")]
    raise InvalidInput("brain", "no BRAIN given and the current folder has no brain.toml; "
                       "name a brain folder (bf build examples/brain) or create one (bf new my-brain)")


def _add_query_flags(p, brains=True):
    p.add_argument("--site", help="built site folder (default: $BF_SITE, else ./_site)")
    p.add_argument("--dense", action="store_true", help="drop null fields and minify")
    if brains:
        p.add_argument("--brain", action="append", help="select a brain (repeatable)")


def parser() -> Parser:
    p = Parser(prog="bf", description="Publish and query a brain as a static site.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)
    b = sub.add_parser("build", help="build the site")
    b.add_argument("brains", nargs="*", metavar="BRAIN", help="brain folder(s); default: . when it holds a brain.toml")
    b.add_argument("--out", default="_site", metavar="DIR", help="the site folder, replaced whole (default: _site)")
    b.add_argument("--base-url", metavar="/x/", help="the path the site is served under; overrides brain.toml's base_url")
    b.add_argument("--site-url", help="the site's absolute URL, e.g. https://me.github.io/repo/: feeds, sitemap, og:url")
    b.add_argument("--theme", metavar="DIR", help="a theme folder: its templates override bf's, its static/ is copied")
    b.add_argument("--now", help="pin the build instant (RFC 3339)")
    b.add_argument("--no-pagefind", action="store_true", help="skip the full-text (pagefind) index: faster, no page search")
    b.add_argument("--no-embeddings", action="store_true", help="skip the vector arm's files (search is lexical only)")
    b.add_argument("-q", "--quiet", action="store_true", help="print nothing but errors (no progress, no summary)")
    sv = sub.add_parser("serve", help="preview the built site on localhost; --watch rebuilds on change and updates open pages")
    sv.add_argument("--out", default="_site", metavar="DIR", help="the site folder to serve (default: _site)")
    sv.add_argument("--watch", action="append", metavar="BRAIN", help="rebuild when this brain changes (repeatable)")
    sv.add_argument("--port", type=int, default=8000, help="the local port (default: 8000)")
    sv.add_argument("--base-url", metavar="/x/", help="with --watch: the path the site is served under, as for bf build")
    c = sub.add_parser("check", help="report problems as JSON; exit 1 if any")
    c.add_argument("brains", nargs="*", metavar="BRAIN", help="brain folder(s); default: . when it holds a brain.toml")
    n = sub.add_parser("new", help="scaffold a brain that builds with no problems")
    n.add_argument("dir", metavar="DIR", help="a folder that does not exist yet, or an empty one")
    r = sub.add_parser("read", help="read a ref")
    r.add_argument("ref", metavar="REF", help="a note's path (concepts/x.md), folder, tag, SOURCE:ID, period or bf:// address; \"\" is home")
    r.add_argument("--rel", metavar="RELATION", help="the items linking to REF through this relation (links, author, a relations: name)")
    r.add_argument("--offset", type=int, default=0, help="where a long reply's page starts: 0 or a next_offset")
    _add_query_flags(r)
    s = sub.add_parser("search", help="search the built site (prose; \"quoted\" spans are phrases)")
    s.add_argument("query", metavar="QUERY", help="prose, up to 4096 characters; use -- before a query starting with -")
    s.add_argument("--scope", help="folder, note, tags/TAG, memories[/SOURCE], TYPE:NAME, a period, or SCOPE/PERIOD")
    s.add_argument("--type", help="keep items of exactly this type")
    s.add_argument("--path", help="keep items whose file path starts with this")
    s.add_argument("--limit", type=int, default=10, help="1-50 (default 10)")
    s.add_argument("--mode", choices=MODES, help="default: hybrid on a site built with vectors, else lexical")
    _add_query_flags(s)
    sm = sub.add_parser("similar", help="the notes and records nearest a note, section or record (needs vectors)")
    sm.add_argument("ref", metavar="REF", help="a ref or bf:// address")
    sm.add_argument("--limit", type=int, default=10, help="1-50 (default 10)")
    sm.add_argument("--scope", help="as for bf search")
    _add_query_flags(sm)
    t = sub.add_parser("types", help="the type values in use, with counts")
    _add_query_flags(t)
    rc = sub.add_parser("recall", help="search, then quote the best bodies within a character budget")
    rc.add_argument("query", metavar="QUERY", help="prose, as for bf search")
    rc.add_argument("--budget", type=int, default=16000, help="characters, 1-1000000 (default 16000)")
    rc.add_argument("--scope", help="as for bf search")
    rc.add_argument("--type", help="as for bf search")
    rc.add_argument("--path", help="as for bf search")
    rc.add_argument("--mode", choices=MODES, help="as for bf search")
    _add_query_flags(rc)
    sc = sub.add_parser("schema", help="print a reply's JSON Schema")
    sc.add_argument("--kind", required=True, choices=["search-reply", "read-reply", "recall-reply", "error"],
                    help="which reply's schema")
    m = sub.add_parser("mcp", help="serve search, read and recall over MCP (stdio)")
    m.add_argument("--site", help="built site folder (default: $BF_SITE, else ./_site)")
    return p


def cmd_build(args) -> int:
    from .build import build
    from .progress import Progress
    roots = brain_paths(args.brains)
    progress = None if args.quiet else Progress()
    try:
        report = build(roots, user_path(args.out), now=args.now, base_url=args.base_url,
                       site_url=args.site_url, pagefind=not args.no_pagefind, embeddings=not args.no_embeddings,
                       progress=progress, theme=None if args.theme is None else str(user_path(args.theme)))
    except OSError as exc:      # disk full, permissions: build() already dropped its staging folder
        where = f": {exc.filename}" if exc.filename else ""
        raise BuildError(f"build failed, previous site kept: {exc.strerror or exc}{where}") from None
    finally:
        if progress:
            progress.close()   # the live display gone before an error is said
    if progress:
        progress.done(report)
    return 0


def cmd_check(args) -> int:
    from .brain import load
    problems = []
    for root in brain_paths(args.brains):
        if not root.is_dir():
            raise InvalidInput("brain", f"not a folder: {root}")
        problems.extend(p.to_json() for p in load(root).problems)
    emit({"problems": problems, "count": len(problems)}, False)
    return 1 if problems else 0


def _reply(args, query, *values, **options) -> int:
    """Print query(site, *values, brains=--brain, **options) over the site of --site."""
    from .query.site import open_site
    emit(query(open_site(site_path(args)), *values, brains=args.brain, **options), args.dense)
    return 0


def _filters(args) -> dict:
    """The options search and recall share."""
    return {"scope": args.scope, "type": args.type, "path": args.path, "mode": args.mode}


def cmd_read(args) -> int:
    from .query.read import read
    try:
        return _reply(args, read, args.ref, rel=args.rel, offset=args.offset)
    except NotFound as exc:
        hint = _ref_hint(args, args.ref)
        if hint is None:
            raise
        exc.message += hint
        raise


CLOSE = 0.8   # difflib's ratio from which a title or file name reads as what the user meant


def _ref_hint(args, text: str) -> str | None:
    """What to say of a ref no page has: the ref of a note among the search's best whose title or
    file name (the best one's aliases too) is close to it; else, for what is not a path, that a
    note's ref is its path. None for a record's ref, a bf:// address, the empty ref."""
    from difflib import SequenceMatcher
    from .query.read import read
    from .query.search import search
    from .query.site import open_site
    if not text.strip() or ":" in text:
        return None
    try:
        site = open_site(site_path(args))
        items = [i for i in search(site, text.strip(), limit=5, brains=args.brain, mode="lexical")["items"]
                 if i.get("kind") == "note"]
        aliases = read(site, f"bf://{items[0]['brain']}/{items[0]['ref']}").get("aliases") or [] if items else []
    except BfError:
        return None
    wanted = Path(text.strip().casefold()).name.removesuffix(".md")
    for n, item in enumerate(items):
        names = (item.get("title") or "", Path(item["ref"]).stem, *(aliases if n == 0 else ()))
        if any(SequenceMatcher(None, wanted, name.casefold()).ratio() >= CLOSE for name in names):
            return (f" (a note's ref is its path: did you mean {item['ref']}? "
                    f"bf search finds notes by title, alias or words)")
    if "/" in text or text.endswith(".md"):   # a path already, of no note
        return None
    return " (a note's ref is its path, like concepts/x.md; bf search finds notes by title, alias or words)"


def cmd_search(args) -> int:
    from .query.search import search
    return _reply(args, search, args.query, limit=args.limit, **_filters(args))


def cmd_similar(args) -> int:
    from .query.similar import similar
    return _reply(args, similar, args.ref, limit=args.limit, scope=args.scope)


def cmd_types(args) -> int:
    from .query.search import types
    return _reply(args, types)


def cmd_recall(args) -> int:
    from .query.recall import recall
    return _reply(args, recall, args.query, budget=args.budget, **_filters(args))


def cmd_schema(args) -> int:
    from .schema import text
    sys.stdout.write(text(args.kind))
    return 0


def cmd_mcp(args) -> int:
    from .mcp import serve
    return serve(site_path(args))


def cmd_serve(args) -> int:
    from .serve import serve
    watched = [user_path(w) for w in args.watch or []]
    for typed, folder in zip(args.watch or [], watched):
        if not folder.is_dir():   # said before serving, not as the first build's failure
            raise InvalidInput("--watch", f"not a folder: {typed}")
    serve(user_path(args.out), args.port, watched, args.base_url)
    return 0


def cmd_new(args) -> int:
    from .scaffold import scaffold
    root = user_path(args.dir)
    files = scaffold(root)
    emit({"created": str(root), "files": files, "next": f"bf build {args.dir} && bf serve"}, False)
    return 0


COMMANDS = MappingProxyType({"build": cmd_build, "serve": cmd_serve, "new": cmd_new, "check": cmd_check, "read": cmd_read, "search": cmd_search, "similar": cmd_similar, "types": cmd_types,
            "recall": cmd_recall, "schema": cmd_schema, "mcp": cmd_mcp})


PROSE = frozenset({"search", "recall", "read", "similar"})   # their positional is prose or a ref: it may start with "-"


def _prose_last(p: Parser, argv: list[str]) -> list[str]:
    """Move the first token that is neither a flag nor a flag's value behind "--", so a query
    like "-x" or a ref like "-draft.md" is text, never an unknown option."""
    if not argv or argv[0] not in PROSE or "--" in argv:
        return argv
    sub = p._subparsers._group_actions[0].choices[argv[0]]
    flags = {o: a.nargs != 0 for a in sub._actions for o in a.option_strings}
    rest, i = argv[1:], 0
    while i < len(rest):
        name = rest[i].split("=", 1)[0]
        if name not in flags:
            return [argv[0], *rest[:i], *rest[i + 1:], "--", rest[i]]
        i += 2 if flags[name] and "=" not in rest[i] else 1
    return argv


def main(argv: list[str] | None = None) -> int:
    roots: dict[str, str] = {}
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        p = parser()
        if not argv:   # no command: what the commands are (--help prints the same, exit 0)
            p.print_help(sys.stderr)
            return 2
        args = p.parse_args(_prose_last(p, argv))
        roots = typed_paths(given_paths(args))
        code = COMMANDS[args.command](args)
    except BfError as exc:
        err = exc.to_json()
        err["error"] = scrub(err["error"], roots)
        sys.stderr.write(json.dumps(err, ensure_ascii=False) + "\n")
        code = exc.exit
    except KeyboardInterrupt:
        code = 130
    except Exception as exc:   # a bug of ours: say so in the §8 shape; the traceback only on request
        if os.environ.get("BF_DEBUG"):
            raise
        message = scrub(f"internal error: {type(exc).__name__}: {exc} (set BF_DEBUG=1 for a traceback)", roots)
        sys.stderr.write(json.dumps({"error": message, "code": "internal"}, ensure_ascii=False) + "\n")
        code = 1
    sys.stdout.flush()
    return code


def run() -> None:
    sys.exit(main())
