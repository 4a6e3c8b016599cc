"""Unicode tables shared by builder/bm25/pipeline.py and site/engine/bm25/.

Both runtimes read these very strings (site/engine/bm25/ embeds a copy; tests/bm25 checks the
copy and regenerates them from `unicodedata`), so which characters make words and which are
nonspacing marks does not depend on either runtime's own Unicode version (Python 3.11 ships
Unicode 14, node and Chromium newer ones).

Encoding: ranges of code points, ascending, as base-36 numbers separated by ",": for each
range, the gap from the end of the previous range (from -1 for the first) and its length - 1.
`python -m builder.bm25.unitable` rewrites the constants below from `unicodedata`.
"""
from __future__ import annotations

UNICODE_VERSION = "14.0.0"
# General categories L*, M*, N*: the characters of words.
WORD = "1d,9,8,p,7,p,1c,0,8,1,2,0,4,1,2,2,2,m,2,u,2,cp,5,b,f,4,8,0,2,0,i,38,2,1,3,3,2,0,7,0,2,2,2,0,2,j,2,2a,2,3u,2,4s,2,11,3,0,7,14,9,18,2,0,2,1,2,1,2,0,9,q,5,3,u,a,6,21,5,2t,2,7,3,9,2,i,3,0,h,1m,3,2s,f,1h,5,0,3,0,3,19,j,r,5,a,6,n,2,5,a,21,2,3k,3,9,2,i,2,7,3,1,3,l,2,6,2,0,4,3,3,8,3,1,3,3,9,0,5,1,2,4,3,b,3,5,3,0,2,0,3,2,2,5,5,1,3,l,2,6,2,1,2,1,2,1,3,0,2,4,5,1,3,2,4,0,8,3,2,0,8,f,c,2,2,8,2,2,2,l,2,6,2,1,2,4,3,9,2,2,2,2,3,0,g,3,3,9,a,6,2,2,2,7,3,1,3,l,2,6,2,1,2,4,3,8,3,1,3,2,8,2,5,1,2,4,3,9,2,6,b,1,2,5,4,2,2,3,4,1,2,0,2,1,4,1,4,2,4,b,5,4,4,2,2,3,3,0,7,0,f,c,e,c,2,2,2,m,2,f,3,8,2,2,2,3,8,1,2,2,3,0,3,3,3,9,9,6,2,3,2,7,2,2,2,m,2,9,2,4,3,8,2,2,2,3,8,1,7,1,2,3,3,9,2,1,e,c,2,2,2,1e,2,2,2,4,6,f,3,i,2,5,2,2,2,h,4,n,2,8,2,0,3,6,4,0,5,5,2,0,2,7,7,9,3,1,e,1l,6,e,2,9,14,1,2,0,2,4,2,n,2,0,2,m,3,4,2,0,2,5,3,9,3,3,x,0,o,1,7,j,2,0,2,0,2,0,5,9,2,z,5,j,2,h,2,z,a,0,1m,21,7,25,3,11,2,0,6,0,3,16,2,98,2,3,3,6,2,0,2,3,3,14,2,3,3,w,2,3,3,6,2,0,2,3,3,e,2,1k,2,3,3,1u,3,2,a,j,4,f,h,2d,3,5,4,h7,3,g,2,p,6,22,4,a,8,l,a,l,c,j,d,c,2,2,2,1,d,2b,4,0,5,1,3,9,7,9,i,2,2,a,7,2g,8,16,6,1x,b,u,2,b,5,b,b,13,3,4,c,17,5,p,7,a,12,r,5,1q,2,s,3,a,7,9,e,0,9,u,1e,24,4,9,i,8,d,37,d,1j,9,9,4,1c,3,8,8,16,3,2,h,2,2,12,6,et,3,5,3,11,3,5,3,7,2,0,2,0,2,0,2,u,3,1g,2,6,2,0,4,2,2,6,4,3,3,5,5,c,6,2,2,6,38,1,3,5,6,a,7,c,1g,w,i,0,5,0,3,9,2,0,4,4,7,0,2,0,2,0,2,3,2,a,3,3,6,4,5,0,2,1l,k7,1n,27,l,hj,t,vh,6c,7,8,a,0,3,11,2,0,6,0,3,1j,8,0,g,n,a,6,2,6,2,6,2,6,2,6,2,6,2,6,2,6,2,v,1c,0,d2,2,q,e,2,4,3,4,5,2d,3,1,3,2,2,2h,2,3,6,16,2,2l,4,3,b,v,1d,f,x,9,v,7,2,e,x,9,14,e,8x,533,1t,h3g,1w,19,3,7g,4,r,l,1e,2,9,2,36,12,8,3,2u,3,1r,6,1,2,0,2,4,p,1h,5,0,4,5,b,1f,d,1x,b,9,7,n,4,0,2,1c,3,z,d,s,4,1s,f,a,7,u,2,1i,a,d,3,9,7,m,4,20,p,2,3,f,3,4,b,5,3,5,3,5,a,6,2,6,2,16,2,d,7,3e,2,1,3,9,7,8mb,d,m,5,1c,6it,a5,3,2x,13,6,d,4,6,b,2,c,2,4,2,0,2,1,2,1,2,2z,y,a2,j,1r,3,1h,15,b,5,f,h,f,1t,4,2,3q,k,9,8,p,7,p,c,2g,4,5,3,5,3,5,3,2,10,b,2,p,2,i,2,1,2,e,3,d,z,3e,d,18,d,1k,i,1,36,0,3n,s,4,1c,g,r,5,z,a,t,6,16,6,t,3,z,5,7,2,4,17,4d,3,9,7,z,5,z,5,13,9,1f,d,a,2,e,2,6,2,1,2,a,2,e,2,6,2,1,1w,8m,a,l,b,7,p,5,2,15,2,8,1y,5,3,0,2,17,2,1,4,0,3,m,3,u,3,11,9,8,1d,i,2,1,6,w,5,p,1z,1j,5,j,3,1d,2,1,6,7,2,2,2,s,3,2,5,9,o,u,2,v,x,7,2,t,5,4,h,1h,b,l,3,q,6,p,o,6,29,20,1k,1e,e,1e,8,19,9,9,87,u,2,15,2,1,4,1,27,13,9,10,s,l,17,r,l,m,a,1y,c,z,a,1n,8,0,e,o,8,9,7,1g,2,9,5,3,9,z,3,0,a,1w,5,3,2,c,2,0,5,j,c,h,2,10,7,0,1u,6,2,0,2,3,2,e,2,9,8,1m,6,9,7,3,2,7,3,1,3,l,2,6,2,1,2,4,2,9,3,1,3,2,3,0,7,0,6,6,3,6,4,4,3w,22,6,9,5,3,v,1x,2,0,9,9,4n,1h,3,8,o,5,z,1s,4,0,c,9,13,1k,8,9,1j,q,3,e,5,b,5,6,56,1m,2u,2a,d,7,3,0,3,7,2,1,2,t,2,1,3,8,d,9,1z,7,3,19,3,7,2,1,s,1q,9,0,9,21,4,0,j,20,7c,8,2,18,2,8,g,s,6,t,3,l,2,d,22,6,2,1,2,17,4,0,2,1,2,8,9,9,7,5,2,1,2,10,2,1,2,5,8,9,8n,m,56,0,g,k,18,pl,2v,32,i,5f,219,2o,g,tq,34i,g6,6nu,fs,8,u,2,9,7,26,2,9,7,t,3,4,c,1i,a,3,d,9,2,6,2,k,6,i,j5,2e,2y,22,5,1k,8,g,1t,1,2,1,c,1,f,4qf,9,yd,17,8,6w8,3,2,6,2,1,2,82,1a,2,i,3,9,az,1s5,2y,6,c,4,8,8,9,4,1,3mq,19,3,m,f3,4,4,5,9,7,3,6,v,3,45,2,4c,j,31,o,3s,2c,2,1y,2,1,3,0,3,1,3,3,2,b,2,0,2,6,2,1s,2,3,3,7,2,6,2,r,2,3,2,4,2,0,4,6,2,9f,3,o,2,o,2,u,2,o,2,u,2,o,2,u,2,o,2,u,2,o,2,7,3,1d,e9,1i,5,1d,9,0,f,0,n,4,2,e,up,u,6a,6,2,g,3,6,2,1,2,4,5y,18,4,d,3,9,5,0,8y,u,i,1l,yv,6,2,3,2,1,2,e,2,5g,3,f,16,23,5,9,m0,1m,2,2,2,3,25,18,2,e,5f,3,2,q,2,1,2,0,3,0,2,9,2,3,2,0,2,0,7,0,5,0,2,0,2,0,2,2,2,1,2,0,3,0,2,0,2,0,2,0,2,0,2,1,2,0,3,3,2,6,2,3,2,3,2,0,2,9,2,g,6,2,2,4,2,g,g5,c,25g,9,sn,wyn,x,37c,8,65,3,4g1,f,5rk,2e8,f1,15v,3t6,fcmu,6n"
# General category Mn: the marks a diacritic-folded form drops.
MN = "ld,33,7o,4,7e,18,2,0,2,1,2,1,2,0,21,a,1d,k,h,0,2u,6,3,5,3,1,2,3,10,0,v,q,2k,a,1n,8,a,0,p,3,2,8,2,2,2,4,18,2,1p,7,17,n,2,v,1k,0,2,0,5,7,5,0,4,6,b,1,u,0,1n,0,5,3,9,0,l,1,r,0,3,1,1m,0,5,1,5,1,3,2,4,0,v,1,4,0,c,1,1m,0,5,4,2,1,5,0,l,1,n,5,2,0,1n,0,3,0,2,3,9,0,8,1,c,1,v,0,1q,0,d,0,1f,0,4,0,1k,0,2,2,6,2,2,3,8,1,c,1,u,0,1n,0,3,0,7,0,6,1,l,1,t,1,1m,1,5,3,9,0,l,1,u,0,21,0,8,2,2,0,2j,0,3,6,d,7,2r,0,3,8,c,5,23,1,s,0,2,0,2,0,1k,d,2,4,2,1,6,a,2,z,a,0,2v,3,2,5,2,1,3,1,q,1,5,2,h,3,e,0,3,1,7,0,g,0,jk,2,qb,2,u,1,v,1,v,1,1t,1,2,6,9,0,3,a,a,0,1a,2,2,0,3a,1,z,0,3b,2,5,1,a,0,7,2,64,1,3,0,1n,0,2,6,2,0,2,0,3,7,7,9,3,0,1d,d,2,f,1e,3,1d,0,2,4,2,0,6,0,15,8,d,1,x,3,3,1,2,2,1l,0,2,1,4,0,2,2,1n,7,3,1,49,2,2,c,2,6,5,0,7,0,4,1,5j,1r,k1,c,5,0,4,b,2db,2,3y,0,2p,v,ff,3,30,1,n9x,0,5,9,x,1,29,1,7l,0,4,0,5,0,q,1,6,0,48,1,r,h,e,0,13,7,q,a,1b,2,1d,0,3,3,3,1,14,0,1w,5,3,1,3,1,d,0,9,0,1c,0,1g,0,2,2,3,1,6,1,2,0,17,1,9,0,6n,0,3,0,5,0,fn5,0,ki,f,h,f,r2,0,6b,0,46,4,1af,2,2,1,6,3,15,2,5,0,4m,1,fy,3,as,1,4a,a,1e,3,3g,0,1j,e,16,0,3,1,b,2,1e,3,3,1,8,0,1q,2,11,4,2,7,1r,0,d,1,1h,8,b,3,3,0,2o,2,3,0,2,1,7,0,4h,0,4,7,m,1,1m,1,4,0,12,6,4,4,5g,7,3,2,2,0,o,0,2d,5,2,0,5,1,2,1,6n,3,7,1,2,1,s,1,2e,7,3,0,2,1,2z,0,2,0,3,5,2,0,2u,2,3,3,2,4,78,8,2,1,75,1,2,0,5,0,41,3,3,1,5,0,x,9,15,5,3,3,9,0,a,5,3,2,1b,c,2,1,bb,6,2,5,2,0,2b,l,3,6,2,1,2,1,3f,5,4,0,2,1,2,6,2,0,21,1,4,0,2,0,9o,1,f0c,4,1o,6,t5,0,1s,3,2a,0,f5l,1,3mq,19,3,m,f5,2,i,7,3,6,v,3,45,2,1j0,1i,5,1d,9,0,f,0,n,4,2,e,11t,6,2,g,3,6,2,1,2,4,7a,6,ag,0,1q,3,15t,6,32,6,gzhy,6n"


def decode(table: str) -> list[tuple[int, int]]:
    """[(first, last), ...] code point ranges of an encoded table."""
    nums = [int(x, 36) for x in table.split(",")]
    out, end = [], -1
    for gap, span in zip(nums[::2], nums[1::2]):
        first = end + gap
        end = first + span
        out.append((first, end))
    return out


def char_class(table: str) -> str:
    """The body of a regex character class matching the table's code points."""
    return "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}"
                   for a, b in decode(table)).replace("\\", "\\\\").replace("]", "\\]").replace("^", "\\^")


def _encode(ranges: list[tuple[int, int]]) -> str:
    out, end = [], -1
    for first, last in ranges:
        out += [_b36(first - end), _b36(last - first)]
        end = last
    return ",".join(out)


def _b36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    s = ""
    while True:
        n, r = divmod(n, 36)
        s = digits[r] + s
        if not n:
            return s


def generate() -> dict[str, str]:
    """The tables from this Python's unicodedata."""
    import unicodedata

    def ranges(pred):
        out, start = [], None
        for cp in range(0x110001):
            ok = cp < 0x110000 and pred(unicodedata.category(chr(cp)))
            if ok and start is None:
                start = cp
            elif not ok and start is not None:
                out.append((start, cp - 1))
                start = None
        return out
    return {"UNICODE_VERSION": unicodedata.unidata_version,
            "WORD": _encode(ranges(lambda c: c[0] in "LMN")),
            "MN": _encode(ranges(lambda c: c == "Mn"))}


if __name__ == "__main__":
    import re
    from pathlib import Path
    path = Path(__file__)
    src = path.read_text("utf-8")
    for name, value in generate().items():
        src = re.sub(rf'^{name} = ".*"$', f'{name} = "{value}"', src, count=1, flags=re.M)
    path.write_text(src, "utf-8")
