"""bf's command line: parse flags, delegate to one function per command, print JSON.
The only place that turns errors into exit codes (SPEC §8)."""
from __future__ import annotations

import argparse
import json
import os
import sys
import unicodedata
from pathlib import Path

from .errors import BfError, InvalidInput


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise InvalidInput("flag", message)


def scrub(text: str, roots: list[str] = ()) -> str:
    """Escape control/format characters and hide local paths (<brain>, ~)."""
    for root in sorted(roots, key=len, reverse=True):
        if root:
            text = text.replace(root, "<brain>")
    home = os.path.expanduser("~")
    if home and home != "/":
        text = text.replace(home, "~")
    return "".join(f"\\u{ord(c):04x}" if unicodedata.category(c) in ("Cc", "Cf") else c for c in text)


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


def _add_query_flags(p, brains=True):
    p.add_argument("--site", help="built site folder (default: $BF_SITE, else ./_site)")
    p.add_argument("--dense", action="store_true", help="drop null fields and minify")
    if brains:
        p.add_argument("--brain", action="append", help="select a brain (repeatable)")


def parser() -> Parser:
    p = Parser(prog="bf", description="Publish and query a brain as a static site.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)
    b = sub.add_parser("build", help="build the site")
    b.add_argument("brains", nargs="+", metavar="BRAIN")
    b.add_argument("--out", default="_site")
    b.add_argument("--base-url")
    b.add_argument("--now", help="pin the build instant (RFC 3339)")
    b.add_argument("--no-pagefind", action="store_true")
    b.add_argument("--quiet", action="store_true")
    c = sub.add_parser("check", help="report problems as JSON; exit 1 if any")
    c.add_argument("brains", nargs="+", metavar="BRAIN")
    r = sub.add_parser("read", help="read a ref")
    r.add_argument("ref")
    r.add_argument("--rel")
    r.add_argument("--offset", type=int, default=0)
    _add_query_flags(r)
    return p


def cmd_build(args) -> int:
    from .build import build
    from .progress import Progress
    progress = None if args.quiet else Progress()
    report = build([Path(b) for b in args.brains], Path(args.out), now=args.now, base_url=args.base_url,
                   pagefind=not args.no_pagefind, progress=progress)
    if progress:
        progress.done(report)
    return 0


def cmd_check(args) -> int:
    from .brain import load
    problems = []
    for root in args.brains:
        if not Path(root).is_dir():
            raise InvalidInput("brain", f"not a folder: {root}")
        problems.extend(p.to_json() for p in load(Path(root)).problems)
    emit({"problems": problems, "count": len(problems)}, False)
    return 1 if problems else 0


def cmd_read(args) -> int:
    from .query.read import read
    from .query.site import open_site
    site = open_site(args.site)
    emit(read(site, args.ref, rel=args.rel, offset=args.offset, brains=args.brain), args.dense)
    return 0


COMMANDS = {"build": cmd_build, "check": cmd_check, "read": cmd_read}


def main(argv: list[str] | None = None) -> int:
    roots: list[str] = []
    try:
        args = parser().parse_args(argv)
        roots = [str(Path(b).resolve()) for b in getattr(args, "brains", None) or []]
        code = COMMANDS[args.command](args)
    except BfError as exc:
        err = exc.to_json()
        err["error"] = scrub(err["error"], roots)
        sys.stderr.write(json.dumps(err, ensure_ascii=False) + "\n")
        code = exc.exit
    except KeyboardInterrupt:
        code = 130
    sys.stdout.flush()
    return code


def run() -> None:
    sys.exit(main())
