#!/usr/bin/env python3
"""Draw a fresh evaluation set like the public development set, from other texts on this machine.

    make_set.py OUT_DIR [--seed N] [--references N] [--suspects N]
                        [--chinese-share F | --english-only] [--t2s FILE]

Writes, like ../../../shared/devset (see its README.md for the schema):

  OUT_DIR/reference/rNNN.txt   references: a run of consecutive paragraphs of one source
  OUT_DIR/suspect/sNNN.txt     suspects: unrelated host paragraphs with copied passages
  OUT_DIR/truth.json           documents (id/path/chars), pairs (a = suspect id, b = reference
                               id) with passages a_start/a_end/b_start/b_end in code points,
                               half-open, each with its "obfuscation"; near_duplicates
                               [[suspect id, reference id], ...] for the reposts
  OUT_DIR/manifest.json        how the set is made up (and one record per inserted passage)

All files are UTF-8 without BOM, one paragraph per line. Suspect ids come first (0..S-1),
then the references (S..S+R-1), as in the devset.

Suspects (by default 30: about 22 with copies, 4 clean, 4 reposts, scaled with --suspects):

  plag     host paragraphs (from source files no reference uses, 2,000-7,000 characters)
           with 1-5 inserted passages of 50-1500 characters (log-uniform length, mostly
           starting/ending on a sentence boundary) copied from 1-3 references, each with one
           obfuscation:
             verbatim          as it stands
             light-edit        3-8% of the characters inserted, deleted or replaced (Han
                               characters by Han characters drawn from the sources, by
                               frequency; letters by letters, digits by digits)
             whitespace-punct  punctuation swapped full-width <-> half-width (。，：（ ...),
                               some ASCII words turned into full-width letters/digits (and
                               back), spaces doubled/dropped, line breaks added, removed or
                               doubled
             reorder           the passage's sentences shuffled (ends . ! ? 。！？ and line
                               breaks)
             s2t               simplified -> traditional Chinese (Chinese passages only)
             mixed             two of the above (the pair is in manifest.json)
           A passage goes in as its own line between host paragraphs, or (one in five) inside
           a host paragraph after a sentence.
  clean    host paragraphs only.
  repost   a whole reference: its first line replaced by a new title (a "转载：" / "Repost: "
           style prefix plus the old title, lightly edited), 0-2 paragraphs removed, 0-2 host
           paragraphs added, a few character edits. As in the devset's truth, every maximal
           run of reference paragraphs kept in order is one passage with obfuscation
           "repost" (the title line is not), and [suspect, reference] is in near_duplicates.

Host paragraphs that share a 6-word phrase (lower-cased ASCII words) or a 10-Han-character
run (traditional folded to simplified, non-Han characters skipped) with any reference are
dropped, as ../shortedit/make_set.py does: documents of one package repeat each other, and
such text in a host would be a real copy that the truth does not list. Identical source
files (one NEWS shipped by several packages) and repeated paragraphs are kept once.

Sources (read-only; nothing is downloaded), found under /usr/share:

  English  /usr/share/doc/**: README*, NEWS*, changelog*, FAQ, TODO, *.txt, *.md, *.rst
           (gzipped or not), not copyright/AUTHORS/THANKS files, at least 2,000 characters.
           Paragraphs are blank-line blocks (bullet items split apart, wrapped lines
           joined); a paragraph is kept when it reads like prose: >= 80 characters and 12
           words, mostly plain words, a sentence mark, a few function words (so code, file
           lists and most changelog bullets are skipped). At most 3 references per package.
  Chinese  there is little Chinese prose on this machine. Used: the zh_CN/zh_TW manual pages
           (/usr/share/man/zh_CN, zh_TW; groff macros and escapes stripped; many of them are
           only partly translated and only their Chinese paragraphs are kept), the Chinese
           vim tutor (/usr/share/vim/vim*/tutor/tutor.zh_cn.utf-8, split into its lessons),
           the GnuPG help texts (/usr/share/gnupg/help.zh_CN.txt) and the zenity help pages
           (/usr/share/help/zh_CN/zenity/*.page, Mallard XML). A zh_TW translation of the
           same work (man page, tutor, GnuPG help) is one source with its zh_CN sibling: only
           the one with more Han text is used, converted to simplified when it is
           traditional. Translations under /usr/share/locale (.mo) are message catalogues,
           not prose: they are never used as text (the zh_TW ones only to count how often
           each traditional character is used, see below). The whole Chinese pool is 35
           units, ~43k characters, shared by every seed (Chinese references of different
           seeds repeat each other), and the man-db pages (man, whatis, apropos, manpath,
           lexgrog) repeat whole option descriptions, as Debian documentation does. The
           number of Chinese references is capped so that about half of the Chinese text is
           left for hosts: --chinese-share 0.4 gives 14-15 of 60 (25%), not 24.

Traditional <-> simplified: the table is the `fast2s` crate's src/t2s.txt (found in the
cargo registry, or --t2s FILE), the very table the checker folds with
(src/normalize/fold.rs). Traditional sources are folded with it; `s2t` inverts it, taking
for each simplified character the traditional one seen most often in the traditional
text here (zh_TW man pages, tutor and GnuPG help, and the zh_TW .mo catalogues; the
simplified character itself is a candidate, so 同/面/系 stay), else the first one in the
table. So an s2t passage folds back exactly under the checker's own fold -- easier than
OpenCC's s2t (which the devset used, with phrase-level variants outside this table).

Like the devset, nothing stops a copied passage from also occurring elsewhere in its
reference or in another reference (changelogs repeat "Part-of: <URL>" lines, the man-db
pages share option texts); manifest.json lists, per passage, the references that share a
6-word / 10-Han phrase with it ("phrase_also_in_references"). Host lines with fewer than
ten Han characters cannot be caught by the overlap filter.

Score a check with the project's scorer:

    cd OUT_DIR && twinspot compare -r reference -s suspect --json result.json -q
    python3 shared/eval/score.py truth.json result.json
"""

from __future__ import annotations

import argparse
import glob
import gzip
import hashlib
import json
import math
import os
import random
import re
from collections import Counter
from pathlib import Path

# ---------------------------------------------------------------- characters

T2S: dict[str, str] = {}
S2T: dict[str, str] = {}
HAN_POOL: list[str] = []  # Han characters of the Chinese sources, one entry per occurrence
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def is_han(c: str) -> bool:
    return "\u4e00" <= c <= "\u9fff" or "\u3400" <= c <= "\u4dbf"


def han_count(text: str) -> int:
    return sum(is_han(c) for c in text)


def is_zh(text: str) -> bool:
    nonspace = len(text) - text.count(" ") - text.count("\n")
    return han_count(text) >= 0.3 * max(1, nonspace)


def fold(text: str) -> str:
    """Traditional -> simplified, one character at a time (the checker's fold)."""
    return "".join(T2S.get(c, c) for c in text)


def load_t2s(path: Path, traditional_text: str) -> None:
    """Reads fast2s's t2s.txt ("traditional simplified" per line) into T2S, and its
    inverse into S2T: for each simplified character the candidate seen most often in
    `traditional_text` -- the simplified character itself counts as a candidate, as many
    (同, 面, 系, 管) are also the usual traditional form --, else the table's first."""
    pairs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split(" ")
        if len(parts) == 2 and len(parts[0]) == 1 and len(parts[1]) == 1 and parts[0] != parts[1]:
            pairs.append((parts[0], parts[1]))
    T2S.update(pairs)
    freq = Counter(c for c in traditional_text if is_han(c))
    candidates: dict[str, list[str]] = {}
    for t, s in pairs:
        candidates.setdefault(s, []).append(t)
    for s, ts in candidates.items():
        best = max(ts + [s], key=lambda t: (freq[t], t != s, -(ts + [s]).index(t)))
        if best != s:
            S2T[s] = best


def mo_strings(path: Path) -> list[str]:
    """The translated strings of a gettext .mo catalogue (used only to count how often
    each traditional character is used, never as text)."""
    data = path.read_bytes()
    if len(data) < 28:
        return []
    order = "<" if data[:4] == b"\xde\x12\x04\x95" else ">"
    import struct

    _, n, _, trans = struct.unpack(order + "4I", data[4:20])
    out = []
    for k in range(n):
        length, offset = struct.unpack(order + "2I", data[trans + 8 * k : trans + 8 * k + 8])
        out.append(data[offset : offset + length].decode("utf-8", errors="replace"))
    return out


def find_t2s() -> Path | None:
    home = Path(os.path.expanduser("~"))
    hits = sorted(glob.glob(str(home / ".cargo/registry/src/*/fast2s-*/src/t2s.txt")))
    return Path(hits[-1]) if hits else None


# ---------------------------------------------------------------- reading sources


def read(path: Path) -> str:
    data = path.read_bytes()
    if path.name.endswith(".gz"):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError):
            return ""
    text = data.decode("utf-8", errors="replace")
    return text.lstrip("\ufeff")


def cjk_join(a: str, b: str) -> str:
    """Joins two wrapped lines: no space between two CJK characters."""
    if not a:
        return b
    if not b:
        return a
    if (is_han(a[-1]) or "\u3000" <= a[-1] <= "\u303f" or "\uff00" <= a[-1] <= "\uffef") and (
        is_han(b[0]) or "\u3000" <= b[0] <= "\u303f" or "\uff00" <= b[0] <= "\uffef"
    ):
        return a + b
    return a + " " + b


def squash(text: str) -> str:
    return " ".join(text.split())


GROFF_NAMED = {
    "aq": "'", "lq": "“", "rq": "”", "oq": "‘", "cq": "’", "dq": '"', "em": "—", "en": "–",
    "bu": "•", "co": "©", "rg": "®", "tm": "™", "mi": "-", "hy": "-", "Fo": "«", "Fc": "»",
    "ha": "^", "ti": "~", "rs": "\\", "pl": "+", "eq": "=", "Aq": "'", "lh": "", "rh": "",
}


def groff_unescape(s: str) -> str:
    s = s.replace("\\\\", "\x00")
    s = re.sub(r"\\f(\[[^\]]*\]|\(..|.)", "", s)
    s = re.sub(r"\\[wh]'[^']*'", "", s)
    s = re.sub(r"\\s[+-]?\d+", "", s)
    s = re.sub(r"\\\*\((..)", lambda m: GROFF_NAMED.get(m.group(1), ""), s)
    s = re.sub(r"\\\*\[([^\]]*)\]", lambda m: GROFF_NAMED.get(m.group(1), ""), s)
    s = re.sub(r"\\\((..)", lambda m: GROFF_NAMED.get(m.group(1), ""), s)
    s = re.sub(r"\\\[([^\]]*)\]", lambda m: GROFF_NAMED.get(m.group(1), ""), s)
    for a, b in [("\\-", "-"), ("\\ ", " "), ("\\~", " "), ("\\e", "\\"), ("\\'", "'"), ("\\`", "`"), ("\\.", ".")]:
        s = s.replace(a, b)
    s = re.sub(r"\\.", "", s)
    return s.replace("\x00", "\\")


def groff_paragraphs(src: str) -> list[str]:
    """Plain paragraphs of a man page: requests dropped, text lines joined up to the next
    paragraph request, headings kept as their own line."""
    paras: list[str] = []
    cur = ""

    def flush() -> None:
        nonlocal cur
        if cur.strip():
            paras.append(squash(cur))
        cur = ""

    for line in src.split("\n"):
        if line.startswith((".\\\"", "'\\\"", "\\\"", '.\\"')):
            continue
        if line.startswith((".", "'")):
            parts = line[1:].strip().split(None, 1)
            name = parts[0] if parts else ""
            arg = parts[1] if len(parts) > 1 else ""
            if name in ("SH", "SS"):
                flush()
                cur = groff_unescape(arg.replace('"', ""))
                flush()
            elif name in ("B", "I", "SM", "SB"):
                cur = cjk_join(cur, groff_unescape(arg.replace('"', "")))
            elif name in ("BI", "IB", "BR", "RB", "IR", "RI"):
                words = ["".join(x) for x in re.findall(r'"([^"]*)"|(\S+)', arg)]
                cur = cjk_join(cur, groff_unescape("".join(words)))
            elif name in ("TP", "PP", "P", "LP", "IP", "HP", "sp", "br", "RS", "RE", "TS", "TE", "nf", "fi",
                          "EX", "EE", "Vb", "Ve", "TH", "in", "ti", "UR", "UE", "MT", "ME"):
                flush()
                if name == "IP" and arg:
                    first = re.findall(r'"([^"]*)"|(\S+)', arg)
                    if first:
                        cur = groff_unescape("".join(first[0]))
                        flush()
            continue
        stripped = line.strip()
        if stripped in ("T{", "T}") or stripped.endswith("T{"):
            flush()
            continue
        if not stripped:
            flush()
            continue
        cur = cjk_join(cur, groff_unescape(stripped))
    flush()
    return paras


def wrapped_paragraphs(text: str, separator: str = r"\n\s*\n") -> list[str]:
    """Blank-line blocks of wrapped lines, each joined into one line (CJK without spaces)."""
    out = []
    for block in re.split(separator, text):
        cur = ""
        for line in block.split("\n"):
            cur = cjk_join(cur, squash(line))
        if cur:
            out.append(cur)
    return out


def mallard_paragraphs(src: str) -> list[str]:
    src = re.sub(r"<info>.*?</info>", "", src, flags=re.S)
    src = re.sub(r"<code[^>]*>.*?</code>", "", src, flags=re.S)
    src = re.sub(r"<screen[^>]*>.*?</screen>", "", src, flags=re.S)
    out = []
    for m in re.finditer(r"<(p|title|desc)\b[^>]*>(.*?)</\1>", src, flags=re.S):
        text = re.sub(r"<[^>]+>", "", m.group(2))
        text = text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")
        out.append(squash(text))
    return out


def chinese_filter(paras: list[str], traditional: bool) -> list[str]:
    out = []
    for p in paras:
        p = squash(p)
        if traditional:
            p = fold(p)
        if len(re.findall(r"(?<=[\u4e00-\u9fff]) (?=[\u4e00-\u9fff])", p)) >= 0.3 * han_count(p):
            p = re.sub(r"(?<=[\u4e00-\u9fff]) (?=[\u4e00-\u9fff])", "", p)  # old "帐 号 建 立" style
        if han_count(p) >= 8 and is_zh(p):
            out.append(p)
    return out


class Unit:
    """A source of paragraphs: one file (or one lesson of the vim tutor)."""

    def __init__(self, name: str, package: str, lang: str, paragraphs: list[str]):
        self.name, self.package, self.lang, self.paragraphs = name, package, lang, paragraphs

    @property
    def chars(self) -> int:
        return sum(len(p) + 1 for p in self.paragraphs)


def chinese_units(root: Path) -> tuple[list[Unit], str]:
    """The Chinese sources, one unit per work; a work's zh_CN and zh_TW versions are one
    unit (the version with more Han text, traditional folded to simplified). Also returns
    the traditional text seen (for the s2t choice)."""
    works: dict[str, list[tuple[str, list[str], bool]]] = {}

    def add(work: str, name: str, paras: list[str], traditional: bool) -> None:
        works.setdefault(work, []).append((name, paras, traditional))

    for lang_dir in ["zh_CN", "zh_TW"]:
        for path in sorted((root / "man" / lang_dir).glob("man*/*")):
            if path.is_file():
                page = re.sub(r"\.gz$", "", path.name)
                add(f"man:{page}", str(path), groff_paragraphs(read(path)), lang_dir == "zh_TW")
    # The zh_TW tutor is the zh_CN one converted (lesson headings differ a little), so
    # only the file with more Han text is used, split into its lessons.
    tutors = sorted(glob.glob(str(root / "vim/vim*/tutor/tutor.zh_cn.utf-8")))
    tutors += sorted(glob.glob(str(root / "vim/vim*/tutor/tutor.zh_tw.utf-8")))
    tutors = sorted(tutors, key=lambda p: -han_count(read(Path(p))))[:1]
    for path in tutors:
        text = read(Path(path))
        # Lessons (第一讲 ...) are sections between rules of ~, headed 第N讲第M节.
        lessons: dict[str, list[str]] = {}
        lesson = "0"
        for section in re.split(r"\n~{20,}\n", text):
            m = re.search(r"第(.)[讲講]", section)
            if m:
                lesson = m.group(1)
            paras = [p for p in wrapped_paragraphs(section) if not re.fullmatch(r"[=~\s\-]*", p)]
            lessons.setdefault(lesson, []).extend(paras)
        for lesson, paras in lessons.items():
            add(f"vim-tutor:{lesson}", f"{path}#lesson-{lesson}", paras, path.endswith("zh_tw.utf-8"))
        if path.endswith("zh_tw.utf-8"):
            continue
        # its traditional twin still counts for the s2t character frequencies
        for twin in glob.glob(str(Path(path).parent / "tutor.zh_tw.utf-8")):
            add("vim-tutor-zh_tw-frequencies-only", twin, wrapped_paragraphs(read(Path(twin))), True)
    for path in sorted(glob.glob(str(root / "gnupg/help.zh_*.txt"))):
        text = "\n".join(line for line in read(Path(path)).split("\n") if not line.startswith("#"))
        entries = re.split(r"\n\.\n|\n\.[a-z][\w.]*\n", "\n" + text + "\n")
        paras = [p for e in entries for p in wrapped_paragraphs(e) if not re.fullmatch(r"\.[\w.]+", p)]
        add("gnupg-help", path, paras, "zh_TW" in path)
    for path in sorted(glob.glob(str(root / "help/zh_CN/*/*.page"))):
        app = Path(path).parent.name
        add(f"help:{app}:{Path(path).stem}", path, mallard_paragraphs(read(Path(path))), False)

    trad = "\n".join(p for versions in works.values() for _, paras, t in versions if t for p in paras)
    for mo in sorted((root / "locale/zh_TW/LC_MESSAGES").glob("*.mo")):
        trad += "\n" + "\n".join(mo_strings(mo))
    units = []
    for work in sorted(works):
        if work.endswith("frequencies-only"):
            continue
        best = None
        for name, paras, traditional in works[work]:
            uniq = list(dict.fromkeys(chinese_filter(paras, traditional)))
            han = sum(han_count(p) for p in uniq)
            if best is None or han > best[0]:
                best = (han, name, uniq)
        if best and best[0] >= 150:
            package = "help-" + work.split(":")[1] if work.startswith("help:") else work.split(":")[0]
            units.append(Unit(best[1], package, "zh", best[2]))
    return units, trad


FUNCTION_WORDS = {"the", "a", "an", "of", "to", "and", "is", "in", "that", "for", "it", "are", "be", "with", "as",
                  "this", "by", "on", "not", "or", "can", "you", "will", "was", "from", "if", "when", "which"}
BULLET = re.compile(r"^\s*(?:[*+•o-]|\d{1,2}[.)])\s+")
EN_NAME = re.compile(
    r"^(readme|news|changelog|changes|faq|todo|hacking|contributing|bugs|install|usage|notes)([._-].*)?$"
    r"|.*\.(txt|md|rst)(\.gz)?$", re.I)
EN_SKIP = re.compile(r"^(copyright|authors|thanks|credits|license|copying|maintainers)"
                     r"|\.(html?|xml|pdf|png|gif|jpe?g|svg|css|js|json|c|h|py|pl|sh|conf|pem|awk|go|pm)$", re.I)


def is_prose(p: str) -> bool:
    if len(p) < 80:
        return False
    words = p.split()
    if len(words) < 12:
        return False
    plain = sum(1 for w in words if re.fullmatch(r"[(\"'`]?[A-Za-z][a-z'’-]*[)\"'`]?[,.;:!?]?[)\"']?", w))
    if plain < 0.7 * len(words):
        return False
    if sum(c.isalpha() or c == " " for c in p) < 0.85 * len(p):
        return False
    if not re.search(r"[a-z][.!?:;,]", p):
        return False
    return sum(1 for w in words if w.lower() in FUNCTION_WORDS) >= 3


def unseen_file_paragraphs(path: Path, name: str, seen_files: set) -> list[str] | None:
    """The prose paragraphs of an English source file, or None when a file with the same
    text was read before (one NEWS shipped by several packages); records its digest."""
    text = read(path)
    digest = hashlib.sha1(text.encode("utf-8")).hexdigest()
    if digest in seen_files:
        return None
    seen_files.add(digest)
    return english_paragraphs(text, name.endswith((".md", ".md.gz", ".rst", ".rst.gz")))


def english_paragraphs(text: str, markdown: bool) -> list[str]:
    text = text[:300_000]
    if markdown:
        text = re.sub(r"```.*?```", "\n\n", text, flags=re.S)
        text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
        text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
        text = re.sub(r"<[^>\n]+>", "", text)
    out = []
    for block in re.split(r"\n\s*\n", text):
        items: list[str] = []
        for line in block.split("\n"):
            if markdown and (line.startswith("    ") or line.startswith("\t")) and not BULLET.match(line):
                continue
            if re.match(r"^\s*--? \S.*<.*@.*>", line) or re.match(r"^\S+ \([^)]*\) [\w-]+;", line):
                continue  # a changelog's signature or header line
            if BULLET.match(line) or not items:
                items.append(BULLET.sub("", line))
            else:
                items[-1] += " " + line
        for item in items:
            item = squash(re.sub(r"^#+\s*", "", item.strip()))
            if is_prose(item):
                out.append(item)
    return out


def english_units(doc_root: Path) -> list[tuple[str, str, Path]]:
    """(package, name, path) of the candidate English files, each distinct content once."""
    out = []
    seen_real = set()
    for dirpath, dirnames, filenames in os.walk(doc_root):
        dirnames.sort()
        for fn in sorted(filenames):
            path = Path(dirpath) / fn
            base = re.sub(r"\.gz$", "", fn)
            if EN_SKIP.match(base) or not EN_NAME.match(fn) or not path.is_file():
                continue
            real = os.path.realpath(path)
            if real in seen_real:
                continue
            seen_real.add(real)
            try:
                size = path.stat().st_size
            except OSError:
                continue
            if size < (800 if fn.endswith(".gz") else 2000):
                continue
            package = path.relative_to(doc_root).parts[0]
            out.append((package, str(path.relative_to(doc_root)), path))
    return out


# ---------------------------------------------------------------- overlap


def shingles(text: str) -> set:
    words = re.findall(r"[a-z0-9]+", text.lower())
    out: set = {tuple(words[i : i + 6]) for i in range(len(words) - 5)}
    han = "".join(c for c in fold(text) if is_han(c))
    out |= {han[i : i + 10] for i in range(len(han) - 9)}
    return out


# ---------------------------------------------------------------- obfuscations

FULL_PUNCT = {",": "，", ".": "。", ":": "：", ";": "；", "?": "？", "!": "！", "(": "（", ")": "）", "/": "／",
              "[": "［", "]": "］", "-": "－", "'": "’", "%": "％", "&": "＆", "=": "＝", "+": "＋"}
HALF_PUNCT = {"，": ", ", "。": ". ", "：": ": ", "；": "; ", "？": "? ", "！": "! ", "（": " (", "）": ") ",
              "、": ", ", "“": '"', "”": '"', "‘": "'", "’": "'", "「": '"', "」": '"', "《": "<", "》": ">",
              "【": "[", "】": "]", "～": "~", "－": "-", "／": "/"}


def similar(rng: random.Random, c: str, english_han_share: float = 0.0) -> str:
    if is_han(c) and HAN_POOL:
        return rng.choice(HAN_POOL)
    if c.isdigit():
        return rng.choice("0123456789")
    if HAN_POOL and rng.random() < english_han_share:
        return rng.choice(HAN_POOL)
    new = rng.choice(LETTERS)
    return new.upper() if c.isupper() else new


def light_edit(rng: random.Random, text: str, rate: float | None = None, minimum: int = 1) -> str:
    """About `rate` (default 3-8%) of the characters inserted, deleted or replaced; edits
    land on letters, digits and Han characters."""
    rate = rng.uniform(0.03, 0.08) if rate is None else rate
    chars = list(text)
    n = max(minimum, round(rate * len(text)))
    for _ in range(n):
        if len(chars) < 3:
            break
        for _try in range(30):
            i = rng.randrange(len(chars))
            if chars[i].isalnum():
                break
        op = rng.randrange(3)
        if op == 0:
            del chars[i]
        elif op == 1:
            chars.insert(i + rng.randrange(2), similar(rng, chars[i]))
        else:
            for _try in range(5):
                new = similar(rng, chars[i])
                if new != chars[i]:
                    break
            chars[i] = new
    return "".join(chars)


def to_full_width(word: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in word)


def whitespace_punct(rng: random.Random, text: str) -> str:
    p_punct = rng.uniform(0.4, 0.9)
    p_word = rng.uniform(0.05, 0.3)
    p_double = rng.uniform(0.2, 0.7)
    p_drop = 0.08 if is_zh(text) else 0.04  # "GOsa² 会" -> "GOsa²会" is common, "inthe" less so
    out: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        nxt = text[i + 1] if i + 1 < len(text) else ""
        if c.isascii() and c.isalnum():
            j = i
            while j < len(text) and text[j].isascii() and text[j].isalnum():
                j += 1
            word = text[i:j]
            out.append(to_full_width(word) if rng.random() < p_word else word)
            i = j
            continue
        if "\uff10" <= c <= "\uff5a" and c.isalnum():
            out.append(chr(ord(c) - 0xFEE0))
        elif c in HALF_PUNCT and rng.random() < p_punct:
            out.append(HALF_PUNCT[c])
        elif c in FULL_PUNCT and (nxt == "" or not nxt.isalnum() or c in "(),;:!?") and rng.random() < p_punct:
            out.append(FULL_PUNCT[c])
        elif c == '"' and rng.random() < p_punct:
            out.append("“" if not out or out[-1].endswith((" ", "\n")) else "”")
        elif c == " ":
            r = rng.random()
            out.append("" if r < p_drop else "  " if r < p_drop + p_double else " ")
        elif c == "\n":
            r = rng.random()
            out.append("" if r < 0.4 else " " if r < 0.6 else "\n\n" if r < 0.85 else "\n")
        else:
            out.append(c)
        i += 1
    s = "".join(out)
    # new line breaks every 30-120 characters, at a space for spaced text
    chars = list(s)
    pos = rng.randint(20, 90)
    while pos < len(chars) - 10:
        k = pos
        if not is_zh(s):
            while k < len(chars) - 10 and chars[k] != " ":
                k += 1
        else:  # between two characters, not inside an ASCII / full-width word
            while k < len(chars) - 10 and (chars[k].isalnum() and not is_han(chars[k])
                                          or chars[k + 1].isalnum() and not is_han(chars[k + 1])):
                k += 1
        if k < len(chars) - 10:
            chars[k] = rng.choice(["\n", " \n", "\n "]) if chars[k] == " " else chars[k] + "\n"
        pos = k + rng.randint(30, 120)
    return "".join(chars).strip()


SENT_END = "。！？"
CLOSERS = "”’」』）)\"'"


def split_sentences(text: str) -> list[str]:
    """Sentences with their trailing separator (space or line break) attached."""
    out, start, i = [], 0, 0
    while i < len(text):
        c = text[i]
        end = None
        if c in SENT_END:
            end = i + 1
            while end < len(text) and text[end] in CLOSERS:
                end += 1
        elif c in ".!?" and (i + 1 == len(text) or text[i + 1].isspace()):
            end = i + 1
        elif c == "\n":
            end = i
        if end is not None:
            while end < len(text) and text[end].isspace():
                end += 1
            if text[start:end].strip():
                out.append(text[start:end])
            start, i = end, end
            continue
        i += 1
    if text[start:].strip():
        out.append(text[start:])
    return out


def reorder(rng: random.Random, text: str) -> str | None:
    sents = split_sentences(text)
    if len(sents) < 2:
        return None
    order = list(range(len(sents)))
    for _ in range(20):
        rng.shuffle(order)
        if order != sorted(order):
            break
    else:
        return None
    pieces = []
    for k in order:
        s = sents[k]
        if not s[-1].isspace():
            s += "" if is_zh(s) else " "
        pieces.append(s)
    return "".join(pieces).strip()


def s2t(text: str) -> str | None:
    out = "".join(S2T.get(c, c) for c in text)
    changed = sum(a != b for a, b in zip(out, text))
    return out if changed >= 2 else None


def obfuscate(rng: random.Random, kind: str, text: str) -> str | None:
    if kind == "verbatim":
        return text
    if kind == "light-edit":
        return light_edit(rng, text)
    if kind == "whitespace-punct":
        out = whitespace_punct(rng, text)
        return out if out != text else None
    if kind == "reorder":
        return reorder(rng, text)
    if kind == "s2t":
        return s2t(text)
    raise ValueError(kind)


# ---------------------------------------------------------------- spans


def sentence_starts(text: str) -> list[int]:
    starts = {0}
    pos = 0
    for s in split_sentences(text):
        pos = text.index(s, pos) if s in text[pos:] else pos
        starts.add(pos)
        pos += len(s)
    return sorted(starts)


def choose_span(rng: random.Random, text: str, taken: list[tuple[int, int]]) -> tuple[int, int] | None:
    """50-1500 characters (log-uniform), mostly from a sentence start to a sentence end,
    not overlapping `taken`, not starting or ending in white space."""
    starts = sentence_starts(text)
    ends = sorted({s + len(x.rstrip()) for s, x in zip(starts, split_sentences(text))}) if starts else []
    for _ in range(200):
        length = int(math.exp(rng.uniform(math.log(50), math.log(1500))))
        if length > len(text) - 10:
            length = rng.randint(50, max(50, len(text) - 10))
        if rng.random() < 0.75 and starts:
            start = rng.choice(starts)
        else:
            start = rng.randrange(0, max(1, len(text) - length))
        end = start + length
        if rng.random() < 0.75 and ends:
            later = [e for e in ends if start + 50 <= e <= start + 1500]
            if later:
                end = min(later, key=lambda e: abs(e - (start + length)))
        end = min(end, len(text))
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if not 50 <= end - start <= 1500:
            continue
        if any(start < b and a < end for a, b in taken):
            continue
        return start, end
    return None


# ---------------------------------------------------------------- the set

WEIGHTS = {"verbatim": 9, "light-edit": 13, "whitespace-punct": 9, "reorder": 8, "s2t": 6, "mixed": 12}
ZH_S2T_WEIGHT = 20  # Chinese passages are rarer than in the devset; keep s2t's count up
TITLES = {"zh": ["转载：", "分享 - ", "【转】", "转自网络："], "en": ["Repost: ", "Fwd: ", "[shared] ", "Reposted - "]}


def pick_kind(rng: random.Random, zh: bool) -> str:
    weights = dict(WEIGHTS)
    if zh:
        weights["s2t"] = ZH_S2T_WEIGHT
    else:
        del weights["s2t"]
    kinds = list(weights)
    return rng.choices(kinds, [weights[k] for k in kinds])[0]


def make_passage(rng: random.Random, text: str, zh: bool) -> tuple[str, str, list[str]] | None:
    for _ in range(10):
        kind = pick_kind(rng, zh)
        if kind == "mixed":
            options = ["light-edit", "whitespace-punct", "reorder"] + (["s2t"] if zh else [])
            parts = rng.sample(options, 2)
            order = ["reorder", "s2t", "light-edit", "whitespace-punct"]
            parts.sort(key=order.index)
            out: str | None = text
            for p in parts:
                out = obfuscate(rng, p, out) if out is not None else None
            if out is not None:
                return kind, out, parts
            continue
        out = obfuscate(rng, kind, text)
        if out is not None:
            return kind, out, []
    return None


def insert_point(rng: random.Random, para: str) -> int | None:
    """Offset right after a sentence inside a host paragraph (not its end)."""
    cuts = [m.end() for m in re.finditer(r"[.!?] |[。！？]", para) if 20 < m.end() < len(para) - 20]
    return rng.choice(cuts) if cuts else None


def build(out: Path, seed: int, n_references: int, n_suspects: int, zh_share: float, t2s_path: Path | None,
          share_root: Path) -> dict:
    rng = random.Random(seed)
    zh_units: list[Unit] = []
    if zh_share > 0:
        if t2s_path is None:
            raise SystemExit("fast2s t2s.txt not found; pass --t2s FILE or --english-only")
        # The t2s table is needed to read the traditional sources, which in turn pick the
        # s2t variants: load it once without frequencies, then again with them.
        load_t2s(t2s_path, "")
        zh_units, trad = chinese_units(share_root)
        T2S.clear()
        S2T.clear()
        load_t2s(t2s_path, trad)
        HAN_POOL.extend(c for u in zh_units for p in u.paragraphs for c in p if is_han(c))
    elif t2s_path is not None:
        load_t2s(t2s_path, "")

    # ---- references
    zh_chars = sum(u.chars for u in zh_units)
    n_zh = round(zh_share * n_references)
    # leave about half of the Chinese text for hosts: a Chinese reference takes ~0.8-2.5k chars
    n_zh = min(n_zh, int(zh_chars * 0.55 / 1600))
    n_en = n_references - n_zh
    rng.shuffle(zh_units)
    en_files = english_units(share_root / "doc")
    rng.shuffle(en_files)

    references: list[tuple[Unit, list[str]]] = []
    used_zh: set[str] = set()
    # Chinese: largest-first within a shuffled order would bias; take shuffled units big enough.
    for u in zh_units:
        if len([r for r in references if r[0].lang == "zh"]) >= n_zh:
            break
        if u.chars < 600 or len(u.paragraphs) < 3:
            continue
        references.append((u, window(rng, u.paragraphs, rng.randint(800, 2500))))
        used_zh.add(u.name)
    per_package: Counter = Counter()
    en_cache: dict[str, list[str]] = {}
    en_used: set[str] = set()
    seen_paras: set[str] = set()
    seen_files: set[str] = set()
    for package, name, path in en_files:
        if sum(1 for r in references if r[0].lang == "en") >= n_en:
            break
        if per_package[package] >= 3:
            continue
        if re.match(r"changelog|changes", Path(name).name, re.I) and rng.random() < 0.7:
            continue  # every package has one; keep them to a minority of the references
        paras = unseen_file_paragraphs(path, name, seen_files)
        if paras is None:
            continue
        paras = [p for p in paras if p not in seen_paras]
        en_cache[name] = paras
        if sum(len(p) + 1 for p in paras) < 1500 or len(paras) < 4:
            continue
        chosen = window(rng, paras, rng.randint(1500, 5000))
        seen_paras.update(paras)
        references.append((Unit(name, package, "en", paras), chosen))
        per_package[package] += 1
        en_used.add(name)
    rng.shuffle(references)
    ref_texts = ["\n".join(ps) + "\n" for _, ps in references]
    ref_langs = [u.lang for u, _ in references]
    held: set = set()
    ref_shingles = []
    for t in ref_texts:
        sh = shingles(t)
        ref_shingles.append(sh)
        held |= sh

    # ---- host paragraphs: other source files, no phrase shared with a reference
    hosts = {"zh": [], "en": []}
    dropped = 0
    for u in zh_units:
        if u.name in used_zh:
            continue
        for p in u.paragraphs:
            if shingles(p) & held:
                dropped += 1
            else:
                hosts["zh"].append(p)
    need_en = 9000 * n_suspects
    have = 0
    for package, name, path in en_files:
        if have >= need_en:
            break
        if name in en_used:
            continue
        paras = en_cache.get(name)
        if paras is None:
            paras = unseen_file_paragraphs(path, name, seen_files)
            if paras is None:
                continue
        for p in paras:
            if p in seen_paras:
                continue
            seen_paras.add(p)
            if shingles(p) & held:
                dropped += 1
            else:
                hosts["en"].append(p)
                have += len(p)
    for k in hosts:
        rng.shuffle(hosts[k])
    kept = {k: len(v) for k, v in hosts.items()}

    def take_host(lang: str) -> str | None:
        if hosts[lang]:
            return hosts[lang].pop()
        other = "en" if lang == "zh" else "zh"
        return hosts[other].pop() if hosts[other] else None

    def host_paragraphs(lang: str, target: int) -> list[str]:
        got, size = [], 0
        while size < target:
            p = take_host(lang)
            if p is None:
                break
            got.append(p)
            size += len(p) + 1
        return got

    # ---- suspects
    n_clean = round(n_suspects * 4 / 30)
    n_repost = min(round(n_suspects * 4 / 30), len(ref_texts))
    kinds = ["clean"] * n_clean + ["repost"] * n_repost + ["plag"] * (n_suspects - n_clean - n_repost)
    rng.shuffle(kinds)
    repost_refs = rng.sample(range(len(ref_texts)), n_repost)
    pairs: dict[tuple[int, int], list] = {}
    near_duplicates = []
    counts: Counter = Counter()
    passage_log = []
    documents = []
    (out / "reference").mkdir(parents=True, exist_ok=True)
    (out / "suspect").mkdir(parents=True, exist_ok=True)
    for s, kind in enumerate(kinds):
        if kind == "clean":
            text = "\n".join(host_paragraphs(rng.choice(["zh", "en", "en"]), rng.randint(2000, 7000))) + "\n"
        elif kind == "repost":
            r = repost_refs.pop()
            text, runs = repost(rng, ref_texts[r], ref_langs[r], host_paragraphs, references[r][0].package)
            for a0, a1, b0, b1 in runs:
                pairs.setdefault((s, n_suspects + r), []).append(
                    {"a_start": a0, "a_end": a1, "b_start": b0, "b_end": b1, "obfuscation": "repost"})
                counts["repost"] += 1
            near_duplicates.append([s, n_suspects + r])
        else:
            n_src = rng.choice([1, 1, 2, 2, 3])
            srcs = rng.sample(range(len(ref_texts)), n_src)
            lang = ref_langs[srcs[0]] if rng.random() < 0.8 else rng.choice(["zh", "en"])
            pieces = host_paragraphs(lang, rng.randint(2000, 7000))
            if not pieces:
                pieces = [""]
            inserted = []
            taken: dict[int, list] = {}
            for _ in range(rng.randint(1, 5)):
                r = rng.choice(srcs)
                span = choose_span(rng, ref_texts[r], taken.setdefault(r, []))
                if span is None:
                    continue
                original = ref_texts[r][span[0] : span[1]]
                zh = is_zh(original)
                made = make_passage(rng, original, zh)
                if made is None:
                    continue
                name, copied, parts = made
                # An edit may leave white space at an edge (a line break added): the
                # passage is the text between.
                copied = copied.strip()
                if not copied:
                    continue
                taken[r].append(span)
                inline = rng.random() < 0.2
                inserted.append((rng.randrange(len(pieces) + 1), inline, r, span, name, parts, copied, zh))
            inserted.sort(key=lambda x: x[0])
            text, truth = "", []
            k = 0
            for at in range(len(pieces) + 1):
                para = pieces[at] if at < len(pieces) else None
                while k < len(inserted) and inserted[k][0] == at:
                    _, inline, r, span, name, parts, copied, zh = inserted[k]
                    cut = insert_point(rng, para) if (inline and para) else None
                    if cut is not None:
                        # inside the host paragraph after one of its sentences
                        text += para[:cut]
                        start = len(text)
                        text += copied
                        truth.append((r, start, len(text), span, name, parts, zh))
                        text += " " if not is_zh(para) else ""
                        para = para[cut:]
                    else:
                        start = len(text)
                        text += copied
                        truth.append((r, start, len(text), span, name, parts, zh))
                        text += "\n"
                    k += 1
                if para:
                    text += para + "\n"
            for r, a0, a1, span, name, parts, zh in truth:
                assert text[a0:a1].strip() == text[a0:a1], "passage edges must not be white space"
                pairs.setdefault((s, n_suspects + r), []).append(
                    {"a_start": a0, "a_end": a1, "b_start": span[0], "b_end": span[1], "obfuscation": name})
                counts[name] += 1
                also = [n_suspects + o for o in range(len(ref_texts)) if o != r and
                        shingles(ref_texts[r][span[0]:span[1]]) & ref_shingles[o]]
                passage_log.append({"suspect": s, "reference": n_suspects + r, "obfuscation": name,
                                    "parts": parts, "lang": "zh" if zh else "en", "a_start": a0, "b_start": span[0],
                                    "a_chars": a1 - a0,
                                    "b_chars": span[1] - span[0], "phrase_also_in_references": also})
            if not text:
                text = "\n"
        (out / "suspect" / f"s{s + 1:03d}.txt").write_text(text, encoding="utf-8")
        documents.append({"id": s, "path": f"suspect/s{s + 1:03d}.txt", "chars": len(text)})
    for r, text in enumerate(ref_texts):
        (out / "reference" / f"r{r + 1:03d}.txt").write_text(text, encoding="utf-8")
        documents.append({"id": n_suspects + r, "path": f"reference/r{r + 1:03d}.txt", "chars": len(text)})
    truth_json = {
        "version": 1,
        "documents": documents,
        "pairs": [{"a": a, "b": b, "passages": sorted(p, key=lambda x: x["a_start"])}
                  for (a, b), p in sorted(pairs.items())],
        "near_duplicates": near_duplicates,
    }
    (out / "truth.json").write_text(json.dumps(truth_json, indent=1, ensure_ascii=False), encoding="utf-8")
    shared_pairs = sum(1 for i in range(len(ref_texts)) for j in range(i + 1, len(ref_texts))
                       if ref_shingles[i] & ref_shingles[j])
    manifest = {
        "pool": "draw",
        "seed": seed,
        "s2t_table": "fast2s t2s.txt inverted (the checker's own fold table)" if zh_units else None,
        "references": len(ref_texts),
        "suspects": n_suspects,
        "reference_langs": dict(Counter(ref_langs)),
        "reference_packages": dict(Counter(u.package for u, _ in references)),
        "reference_sources": [f"r{i + 1:03d}.txt <- {u.name}" for i, (u, _) in enumerate(references)],
        "reference_pairs_sharing_a_phrase": shared_pairs,
        "suspect_kinds": dict(Counter(kinds)),
        "passages_by_obfuscation": dict(counts),
        "near_duplicates": len(near_duplicates),
        "host_paragraphs_dropped_for_overlap": dropped,
        "host_paragraphs_kept": kept,
        "chinese_pool_chars": zh_chars,
        "chars": {
            "suspect": sum(d["chars"] for d in documents if d["path"].startswith("suspect/")),
            "reference": sum(d["chars"] for d in documents if d["path"].startswith("reference/")),
        },
        "passages": passage_log,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False), encoding="utf-8")
    return manifest


def window(rng: random.Random, paras: list[str], target: int) -> list[str]:
    """Consecutive paragraphs from a random start (often the first) up to `target` chars."""
    start = 0 if rng.random() < 0.4 else rng.randrange(len(paras))
    while start > 0 and sum(len(p) + 1 for p in paras[start:]) < target:
        start -= 1
    out, size = [], 0
    for p in paras[start:]:
        if size >= target:
            break
        out.append(p)
        size += len(p) + 1
    return out


def repost(rng: random.Random, ref: str, lang: str, host_paragraphs, source: str
           ) -> tuple[str, list[tuple[int, int, int, int]]]:
    """A whole reference under a new title, 0-2 paragraphs removed, 0-2 host paragraphs
    added, a few character edits. Returns the text and the runs of reference paragraphs
    kept in order (suspect start/end, reference start/end).

    When the reference starts with a heading (a first line of at most 60 characters) the
    new title replaces it: a prefix plus the heading, lightly edited -- the devset's way,
    and like the devset the title is not in the truth. Otherwise the first line is body
    text and stays; the title is a prefix plus words about the source (`source`), which
    share no text with the reference."""
    lines = ref.rstrip("\n").split("\n")
    offsets, pos = [], 0
    for line in lines:
        offsets.append(pos)
        pos += len(line) + 1
    heading = len(lines[0]) <= 60
    body = list(range(1 if heading else 0, len(lines)))
    for _ in range(rng.randint(0, min(2, max(0, len(body) - 2)))):
        body.remove(rng.choice(body))
    items: list[tuple[int | None, str]] = [(i, lines[i]) for i in body]
    for _ in range(rng.randint(0, 2)):
        extra = host_paragraphs(lang, 1)
        if extra:
            items.insert(rng.randint(1, len(items)), (None, extra[0]))
    if rng.random() < 0.5 and len(items) > 3 and not any(i is None for i, _ in items):
        extra = host_paragraphs(lang, 1)  # at least one change in the body
        if extra:
            items.insert(rng.randint(1, len(items) - 1), (None, extra[0]))
    # a few edits: about one per 400 characters, at least two
    n_edits = max(2, len(ref) // 400)
    edited = [list(x) for x in items]
    for _ in range(n_edits):
        k = rng.randrange(len(edited))
        if len(edited[k][1]) > 10:
            edited[k][1] = light_edit(rng, edited[k][1], rate=0.0, minimum=1)
    if heading:
        title = rng.choice(TITLES[lang]) + light_edit(rng, lines[0], rate=0.0, minimum=1)
    elif lang == "zh":
        title = rng.choice(TITLES[lang]) + rng.choice(["{} 说明（整理）", "关于 {} 的笔记", "{} 常见问题"]).format(source)
    else:
        title = rng.choice(TITLES[lang]) + rng.choice(["{} notes", "Everything about {}", "{}: what you need"]).format(source)
    text = title + "\n"
    runs: list[list[int]] = []
    prev = None
    for i, line in edited:
        start = len(text)
        text += line + "\n"
        if i is None:
            prev = None
            continue
        if prev is not None and i == prev + 1:
            runs[-1][1] = start + len(line)
            runs[-1][3] = offsets[i] + len(lines[i])
        else:
            runs.append([start, start + len(line), offsets[i], offsets[i] + len(lines[i])])
        prev = i
    return text, [tuple(r) for r in runs]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--references", type=int, default=60)
    parser.add_argument("--suspects", type=int, default=30)
    parser.add_argument("--chinese-share", type=float, default=0.4,
                        help="share of Chinese references (capped by the Chinese text available)")
    parser.add_argument("--english-only", action="store_true", help="no Chinese text at all")
    parser.add_argument("--t2s", type=Path, default=None, help="fast2s src/t2s.txt (default: cargo registry)")
    parser.add_argument("--share-root", type=Path, default=Path("/usr/share"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    share = 0.0 if args.english_only else args.chinese_share
    t2s = args.t2s or find_t2s()
    manifest = build(args.out, args.seed, args.references, args.suspects, share, t2s, args.share_root)
    summary = {k: v for k, v in manifest.items() if k not in ("passages", "reference_sources")}
    print(json.dumps(summary, ensure_ascii=False))


if __name__ == "__main__":
    main()
