#!/usr/bin/env python3
"""Draw a held-out set of cross-language (Chinese <-> English) copies from human translations.

    make_set.py OUT_DIR [--seed N] [--references N] [--suspects N]

Writes the layout of ../../../shared/devset-translated (see its README.md; the schema and
the scorer are ../../../shared/eval's):

  OUT_DIR/reference/rNNN.txt   a run of consecutive paragraphs of one document, in one
                               language (English, simplified or traditional Chinese)
  OUT_DIR/suspect/sNNN.txt     unrelated host paragraphs in one language with inserted
                               passages whose other-language version stands in a reference
  OUT_DIR/truth.json           documents, pairs (a = suspect, b = reference) with passages
                               in code points, half-open, each with its "obfuscation";
                               near_duplicates [[suspect id, reference id], ...]
  OUT_DIR/manifest.json        how the set is made up: aligned_pairs (the usable pairs per
                               source and script), alignment (blocks aligned and dropped,
                               sections not aligned), passages_by_direction (reference
                               language -> suspect language), check (host paragraphs against
                               every version of every reference paragraph: both counts 0),
                               and one record per inserted passage

All files are UTF-8, one paragraph per line; suspect ids first, then the references.

Sources: human translations shipped in Debian packages, read under /usr/share (nothing is
downloaded; install them first with
`apt-get install debian-reference-en debian-reference-zh-cn debian-reference-zh-tw
debian-handbook debian-edu-doc-en debian-edu-doc-zh-cn`):

  debian-reference   /usr/share/debian-reference/*.{en,zh-cn,zh-tw}.html (Osamu Aoki et
                     al., GPL-2+, translations under the same licence)
  debian-handbook    /usr/share/doc/debian-handbook/html/{en-US,zh-CN,zh-TW}/*.html
                     (Raphael Hertzog, Roland Mas et al., GPL-2+ or CC-BY-SA-3.0)
  debian-edu-doc     /usr/share/doc/debian-edu-doc-{en,zh-cn}/debian-edu-bookworm-manual.html
                     (the Debian Edu team, GPL-2+)
  gettext            /usr/share/locale/zh_{CN,TW}/LC_MESSAGES/*.mo: msgid <-> msgstr of the
                     long messages (help texts); each catalogue has its program's licence
                     (GPL or LGPL for nearly all)

The development set used debian-faq and maint-guide; they are not read here. Traditional
Chinese comes from debian-reference zh-tw, the handbook's zh-TW and the zh_TW catalogues
(debian-edu-doc has none). Not used: manpages-zh, whose pages translate old versions of the
English ones, so the paragraph under the same option or section in today's manpages is
often not the one translated, and structure cannot tell. Traditional text is folded to
simplified for the overlap filter with the fast2s crate's t2s.txt (found in the cargo
registry), as ../devset-draw does.

Alignment is by structure only, never by a similarity model (the set measures one). The
three versions of an HTML page are cut into sections at their headings, keyed by the
anchor ids, which translation (po4a, publican) keeps. A section is aligned when both
versions hold the same sequence of blocks (paragraph, list item, term, heading, with their
class); block k then translates block k. A block pair is kept only when the Chinese side is
Chinese (an untranslated paragraph falls back to English), the English side has no Han
character, the literal inline elements (code, command, filename, ...) are the same
multiset on both sides, and the length ratio is plausible (Chinese 0.12-1.1 of the
English). gettext: msgid and msgstr split at blank lines into the same number of blocks,
the same printf directives and --options on both sides, the English block reading as
prose and not an option table. Tables, code listings and navigation are skipped.

A document is one section of level 1-2 of a book (a handbook page, a reference chapter's
section, an edu-doc chapter) or one catalogue. A document gives at most one reference, in
one language; hosts come only from documents no reference uses, and a host paragraph is
dropped when any of its versions (English, simplified, traditional, folded to simplified)
shares a 6-word / 10-Han phrase with any version of a reference's paragraphs, or equals
one: the truth then lists every real copy, in either language. A passage is not taken when
any version of its paragraphs shares such a phrase with any version of another reference's.
A paragraph repeated across documents (boilerplate) is kept only where it is first seen.
References: half English, half Chinese (a third of that traditional), spread over the
sources; hosts: unrelated paragraphs of the other documents of all four sources.

Suspects (30 by default, scaled): ~20% clean (hosts only), ~7% reposts, the rest with 1-4
inserted passages of 1-3 consecutive aligned paragraphs (50-1500 characters each side),
from 1-3 references:

  translated           the suspect-language version of the reference's paragraphs; a
                       Chinese suspect is simplified or traditional, and takes the version
                       translated in that script
  verbatim             a same-language copy from a reference in the suspect's script
  repost-translated    a whole reference, paragraph by paragraph, in the other language:
                       every run of consecutive translated paragraphs is one passage, and
                       [suspect, reference] is in near_duplicates

There is no `translated-reworded`: it was tried and left out, as it could not be made
honestly here. Swapping words for WordNet synonyms (wordnet-base; even only words WordNet
knows in a single sense, whose synonyms cannot be of a wrong sense in WordNet's terms)
changes the meaning of this technical text, since WordNet lacks its senses: locales ->
venues, encoding -> encryption, the mutt package -> the mongrel package, Multipurpose
Internet Mail Extensions -> Multipurpose Cyberspace Mail Extensions. No Chinese thesaurus
is packaged. A reworded translation needs a sense-aware rewriter (a person).

Score a check with the project's scorer:

    cd OUT_DIR && twinspot compare -r reference -s suspect --json result.json -q
    python3 shared/eval/score.py truth.json result.json
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import re
import struct
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

_HERE = Path(__file__).resolve().parent


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# The same-language generator: its fold table, phrase shingles and prose test.
draw = _load("devset_draw", _HERE.parent / "devset-draw" / "make_set.py")
han_count, shingles, is_prose = draw.han_count, draw.shingles, draw.is_prose

LANGS = ("en", "zh", "tw")  # English, simplified Chinese, traditional Chinese
LANG_NAME = {"en": "en", "zh": "zh", "tw": "zh-tw"}
CJK = r"\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"


def normalise(text: str) -> str:
    """White space squashed; none left between two CJK characters (wrapped lines)."""
    text = " ".join(text.split())
    return re.sub(rf"(?<=[{CJK}]) (?=[{CJK}])", "", text)


# ---------------------------------------------------------------- HTML blocks

BLOCK = {"p", "dt", "li", "h1", "h2", "h3", "h4", "h5"}
SKIP_TAGS = {"pre", "script", "style", "table", "head", "title"}
SKIP_CLASSES = {"toc", "docnav", "navheader", "navfooter", "indexdiv", "index", "screen", "programlisting",
                "literallayout", "revhistory", "author", "authorgroup", "legalnotice", "copyright", "othercredit"}
CODE_CLASSES = {"command", "filename", "literal", "option", "userinput", "systemitem", "varname", "envar"}


class Blocks(HTMLParser):
    """The text blocks of an HTML page in order: (tag, class, text, codes, heading ids).
    Text goes to the innermost open block; tables, code listings and navigation are
    skipped; `codes` are the texts of the literal inline elements."""

    VOID = {"br", "img", "hr", "meta", "link", "input", "col", "area", "base", "wbr"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[dict] = []
        self.stack: list[tuple[str, bool, dict | None, list | None]] = []  # tag, skip, block, code buffer
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        a = dict(attrs)
        classes = set((a.get("class") or "").split())
        skip = tag in SKIP_TAGS or bool(classes & SKIP_CLASSES) or a.get("id") == "title"
        block = None
        if tag in BLOCK or (tag == "div" and "para" in classes):
            block = {"tag": tag if tag != "div" else "para", "class": " ".join(sorted(classes)), "text": [],
                     "codes": [], "ids": []}
            if not self.skip and not skip:
                self.out.append(block)
        code = [] if (tag in ("code", "tt") or classes & CODE_CLASSES) else None
        if a.get("id"):
            for _, _, b, _ in reversed(self.stack):
                if b is not None and b["tag"].startswith("h"):
                    b["ids"].append(a["id"])
                    break
            else:
                if block is not None:
                    block["ids"].append(a["id"])
        self.stack.append((tag, skip, block, code))
        if skip:
            self.skip += 1

    def handle_startendtag(self, tag, attrs):
        if tag not in self.VOID:
            self.handle_starttag(tag, attrs)
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag in self.VOID or not any(t == tag for t, _, _, _ in self.stack):
            return
        while self.stack:
            t, skip, block, code = self.stack.pop()
            if skip:
                self.skip -= 1
            if code is not None:
                owner = self.innermost()
                if owner is not None:
                    owner["codes"].append(normalise("".join(code)))
            if t == tag:
                break

    def innermost(self) -> dict | None:
        for _, _, b, _ in reversed(self.stack):
            if b is not None:
                return b
        return None

    def handle_data(self, data):
        if self.skip:
            return
        b = self.innermost()
        if b is not None:
            b["text"].append(data)
        for _, _, _, code in self.stack:
            if code is not None:
                code.append(data)

    def blocks(self) -> list[dict]:
        out = []
        for b in self.out:
            text = normalise("".join(b["text"]))
            if text:
                out.append({**b, "text": text, "codes": sorted(c for c in b["codes"] if c)})
        return out


def html_blocks(path: Path) -> list[dict]:
    parser = Blocks()
    parser.feed(path.read_text(encoding="utf-8", errors="replace"))
    parser.close()
    return parser.blocks()


GENERATED_ID = re.compile(r"^(idm?\d+|id-[\d.]+|id\d+[a-z]?\d*)$")  # docbook's, differ between languages


def sections(blocks: list[dict]) -> list[tuple[tuple, list[dict]]]:
    """Blocks cut at headings; a section's key is its heading's tag and anchor ids (its
    position when it has none; repeated keys get their rank)."""
    out: list[tuple[tuple, list[dict]]] = [(("start",), [])]
    seen: Counter = Counter()
    for b in blocks:
        if b["tag"].startswith("h"):
            ids = tuple(i for i in b["ids"] if not GENERATED_ID.match(i))
            key = (b["tag"], ids) if ids else (b["tag"], "#", len(out))
            seen[key] += 1
            out.append((key + (seen[key],), [b]))
        else:
            out[-1][1].append(b)
    return out


def chinese_ok(en: str, zh: str) -> bool:
    """A translated Chinese block against its English original (not a fallback copy)."""
    if zh == en or han_count(en) > 0 or not re.search(r"[A-Za-z]{2}", en):
        return False
    if han_count(zh) < 2 or han_count(zh) < 0.15 * len(zh):
        return False
    return 0.12 <= len(zh) / len(en) <= 1.1


def align_pages(pages: dict[str, Path], stats: Counter) -> list[list[dict]]:
    """Rows of one page in its languages, cut into documents at level-1/2 headings. A row
    is {"en", "zh", "tw", "heading"}; a Chinese text is None when not aligned."""
    en = sections(html_blocks(pages["en"]))
    other = {}
    for lang, p in pages.items():
        if lang == "en":
            continue
        theirs = sections(html_blocks(p))
        # Sections keyed by their position match only when both versions have the same
        # headings in the same order.
        same_outline = [k[0] for k, _ in theirs] == [k[0] for k, _ in en]
        other[lang] = {k: v for k, v in theirs if same_outline or "#" not in k}
    docs: list[list[dict]] = [[]]
    for key, blocks in en:
        if blocks and blocks[0]["tag"] in ("h1", "h2") and docs[-1]:
            docs.append([])
        matched = {}
        for lang, secs in other.items():
            theirs = secs.get(key)
            sig = [(b["tag"], b["class"]) for b in blocks]
            if theirs is not None and [(b["tag"], b["class"]) for b in theirs] == sig:
                matched[lang] = theirs
            else:
                stats[f"sections not aligned [{lang}]"] += 1
        for k, b in enumerate(blocks):
            row = {"en": b["text"], "zh": None, "tw": None, "heading": b["tag"].startswith("h")}
            for lang, theirs in matched.items():
                t = theirs[k]
                if t["codes"] == b["codes"] and chinese_ok(b["text"], t["text"]):
                    row[lang] = t["text"]
                    stats[f"aligned [{lang}]"] += 1
                else:
                    stats[f"blocks dropped [{lang}]"] += 1
            docs[-1].append(row)
    return [d for d in docs if d]


# ---------------------------------------------------------------- gettext


def mo_pairs(path: Path) -> dict[str, str]:
    """msgid -> msgstr of a .mo catalogue (plural and context entries skipped)."""
    data = path.read_bytes()
    if len(data) < 28 or data[:4] not in (b"\xde\x12\x04\x95", b"\x95\x04\x12\xde"):
        return {}
    order = "<" if data[:4] == b"\xde\x12\x04\x95" else ">"
    _, n, orig, trans = struct.unpack(order + "4I", data[4:20])
    out = {}
    for k in range(n):
        lo, oo = struct.unpack(order + "2I", data[orig + 8 * k : orig + 8 * k + 8])
        lt, ot = struct.unpack(order + "2I", data[trans + 8 * k : trans + 8 * k + 8])
        mid = data[oo : oo + lo].decode("utf-8", errors="replace")
        mstr = data[ot : ot + lt].decode("utf-8", errors="replace")
        if mid and "\x00" not in mid and "\x04" not in mid and mstr:
            out[mid] = mstr
    return out


def anchors(text: str) -> list[str]:
    return sorted(re.findall(r"%[-+ #0-9.*$lhjztq]*[a-zA-Z]|--?[A-Za-z][\w-]*", text))


def option_list(block: str) -> bool:
    """A --help table (two or more lines starting with an option), not a paragraph."""
    return len(re.findall(r"(?m)^\s*-", block)) >= 2


def gettext_docs(root: Path, stats: Counter) -> list[tuple[str, list[dict]]]:
    out = []
    for path in sorted((root / "locale/zh_CN/LC_MESSAGES").glob("*.mo")):
        cats = {"zh": mo_pairs(path)}
        tw = root / "locale/zh_TW/LC_MESSAGES" / path.name
        cats["tw"] = mo_pairs(tw) if tw.exists() else {}
        rows = []
        for mid in sorted(cats["zh"]):
            if len(mid) < 150:
                continue
            parts = [p for p in re.split(r"\n\s*\n", mid) if p.strip()]
            row_sets = [{"en": normalise(p), "zh": None, "tw": None, "heading": False} for p in parts]
            for lang in ("zh", "tw"):
                mstr = cats[lang].get(mid)
                if mstr is None:
                    continue
                theirs = [p for p in re.split(r"\n\s*\n", mstr) if p.strip()]
                if len(theirs) != len(parts):
                    stats[f"blocks dropped [{lang}]"] += len(parts)
                    continue
                for row, p, t in zip(row_sets, parts, theirs):
                    t = normalise(t)
                    if anchors(p) == anchors(t) and chinese_ok(row["en"], t):
                        row[lang] = t
                        stats[f"aligned [{lang}]"] += 1
                    else:
                        stats[f"blocks dropped [{lang}]"] += 1
            rows.extend(r for r, p in zip(row_sets, parts) if is_prose(r["en"]) and not option_list(p))
        if rows:
            out.append((f"gettext:{path.stem}", rows))
    return out


# ---------------------------------------------------------------- the pool


class Doc:
    def __init__(self, source: str, name: str, rows: list[dict]):
        self.source, self.name, self.rows = source, name, rows

    def chars(self, lang: str) -> int:
        return sum(len(r[lang]) + 1 for r in self.rows if r[lang])


def book_pages(root: Path) -> list[tuple[str, str, dict[str, Path]]]:
    out = []
    ref = root / "debian-reference"
    for en in sorted(ref.glob("*.en.html")):
        stem = en.name[: -len(".en.html")]
        if stem == "index":
            continue
        pages = {"en": en, "zh": ref / f"{stem}.zh-cn.html", "tw": ref / f"{stem}.zh-tw.html"}
        out.append(("debian-reference", stem, {k: v for k, v in pages.items() if v.exists()}))
    hb = root / "doc/debian-handbook/html"
    for en in sorted((hb / "en-US").glob("*.html")):
        if en.name == "index.html":
            continue
        pages = {"en": en, "zh": hb / "zh-CN" / en.name, "tw": hb / "zh-TW" / en.name}
        out.append(("debian-handbook", en.stem, {k: v for k, v in pages.items() if v.exists()}))
    edu = root / "doc/debian-edu-doc-en/debian-edu-bookworm-manual.html"
    if edu.exists():
        pages = {"en": edu, "zh": root / "doc/debian-edu-doc-zh-cn/debian-edu-bookworm-manual.html"}
        out.append(("debian-edu-doc", "bookworm-manual", {k: v for k, v in pages.items() if v.exists()}))
    return [p for p in out if len(p[2]) > 1]


def pool(root: Path) -> tuple[list[Doc], dict]:
    stats: dict[str, Counter] = {}
    docs: list[Doc] = []
    for source, stem, pages in book_pages(root):
        st = stats.setdefault(source, Counter())
        for k, rows in enumerate(align_pages(pages, st)):
            docs.append(Doc(source, f"{stem}#{k}", rows))
    st = stats.setdefault("gettext", Counter())
    for name, rows in gettext_docs(root, st):
        docs.append(Doc("gettext", name, rows))
    # A paragraph repeated across documents (boilerplate) is kept where first seen.
    seen: set[str] = set()
    for d in docs:
        keep = []
        for r in d.rows:
            if r["en"] in seen and not r["heading"]:
                continue
            seen.add(r["en"])
            keep.append(r)
        d.rows = keep
    docs = [d for d in docs if d.rows]
    return docs, {s: dict(sorted(c.items())) for s, c in stats.items()}


# ---------------------------------------------------------------- references

SOURCE_SHARE = {"debian-reference": 0.3, "debian-handbook": 0.35, "debian-edu-doc": 0.15, "gettext": 0.2}
TITLES = {"zh": ["转载：", "【转】", "编译："], "tw": ["轉載：", "【轉】", "編譯："], "en": ["Repost: ", "Translated: ", "Fwd: "]}


class Reference:
    def __init__(self, doc: Doc, lang: str, rows: list[dict]):
        self.doc, self.lang, self.rows = doc, lang, rows
        self.lines = [r[lang] for r in rows]
        self.text = "\n".join(self.lines) + "\n"
        self.starts = []
        pos = 0
        for line in self.lines:
            self.starts.append(pos)
            pos += len(line) + 1
        self.shingles = shingles(self.text)
        # every version of its rows: a host or a passage elsewhere must not hold any
        self.versions = {r[lang] for r in rows for lang in LANGS if r[lang]}
        self.all_shingles = set().union(*(shingles(v) for v in self.versions))

    def span(self, first: int, last: int) -> tuple[int, int]:
        """Code points of lines first..last (inclusive), without the last line break."""
        return self.starts[first], self.starts[last] + len(self.lines[last])


def window(rng: random.Random, rows: list[dict], lang: str, target: int) -> list[dict]:
    """Consecutive rows with text in `lang`, from a random start (often the first), up to
    `target` characters."""
    rows = [r for r in rows if r[lang]]
    start = 0 if rng.random() < 0.4 else rng.randrange(len(rows))
    while start > 0 and sum(len(r[lang]) + 1 for r in rows[start:]) < target:
        start -= 1
    out, size = [], 0
    for r in rows[start:]:
        if size >= target:
            break
        out.append(r)
        size += len(r[lang]) + 1
    return out


def translatable(rows: list[dict], lang: str) -> list[str]:
    """The other languages most paragraphs of `rows` (in `lang`) are aligned to."""
    body = [r for r in rows if not r["heading"]]
    others = [o for o in LANGS if o != lang and (lang == "en" or o == "en")]
    return [o for o in others if body and sum(1 for r in body if r[o]) >= max(2, 0.5 * len(body))]


def pick_references(rng: random.Random, docs: list[Doc], n: int) -> list[Reference]:
    """About half English, half Chinese (a third of it traditional where a source has it),
    spread over the sources; one reference per document."""
    langs = ["en" if k % 2 == 0 else ("tw" if k % 6 == 1 else "zh") for k in range(n)]
    rng.shuffle(langs)
    caps = {s: max(1, round(share * n)) for s, share in SOURCE_SHARE.items()}
    order = docs[:]
    rng.shuffle(order)
    refs: list[Reference] = []
    used: set[int] = set()
    per_source: Counter = Counter()
    for lang in langs:
        for relax in (False, True):
            chosen = None
            for d in order:
                if id(d) in used or (not relax and per_source[d.source] >= caps[d.source]):
                    continue
                if d.chars(lang) < (1200 if lang == "en" else 500):
                    continue
                target = rng.randint(1500, 5000) if lang == "en" else rng.randint(700, 2500)
                rows = window(rng, d.rows, lang, target)
                if len(rows) < 3 or not translatable(rows, lang):
                    continue
                chosen = Reference(d, lang, rows)
                break
            if chosen is not None:
                refs.append(chosen)
                used.add(id(chosen.doc))
                per_source[chosen.doc.source] += 1
                break
    return refs


# ---------------------------------------------------------------- hosts


class Hosts:
    """Host paragraphs by language from documents no reference uses; a row is used once,
    in one language, and dropped when any of its versions shares a phrase with a
    reference (or equals one of its lines)."""

    def __init__(self, rng: random.Random, docs: list[Doc], refs: list[Reference]):
        used = {id(r.doc) for r in refs}
        held: set = set()
        lines: set[str] = set()
        for r in refs:
            held |= r.all_shingles
            lines |= r.versions
        self.rows: dict[str, list[dict]] = {lang: [] for lang in LANGS}
        self.taken: list[str] = []
        self.stats: Counter = Counter()
        for d in docs:
            if id(d) in used:
                continue
            for row in d.rows:
                if row["heading"]:
                    continue
                versions = [row[lang] for lang in LANGS if row[lang]]
                if any(v in lines for v in versions) or any(shingles(v) & held for v in versions):
                    self.stats["rows dropped: a version shares text with a reference"] += 1
                    continue
                ok = [lang for lang in LANGS if row[lang] and (is_prose(row[lang]) if lang == "en"
                                                               else han_count(row[lang]) >= 20)]
                if not ok:
                    continue
                self.stats["rows kept"] += 1
                self.rows[rng.choice(ok)].append(row)
        for lang in LANGS:
            rng.shuffle(self.rows[lang])
        self.stats.update({f"rows kept [{LANG_NAME[k]}]": len(v) for k, v in self.rows.items()})

    def take(self, lang: str, target: int) -> list[str]:
        got, size = [], 0
        while size < target and self.rows[lang]:
            p = self.rows[lang].pop()[lang]
            self.taken.append(p)
            got.append(p)
            size += len(p) + 1
        return got


# ---------------------------------------------------------------- passages


def candidate_runs(ref: Reference, target: str, taken: set[int]) -> list[tuple[int, int]]:
    """Runs of 1-3 consecutive body lines of `ref` that all have a `target` version, each
    side 50-1500 characters, none taken."""
    out = []
    for first in range(len(ref.rows)):
        for k in (1, 2, 3):
            last = first + k - 1
            if last >= len(ref.rows):
                break
            rows = ref.rows[first : last + 1]
            if any(r["heading"] or not r[target] for r in rows) or taken & set(range(first, last + 1)):
                break
            a = sum(len(r[target]) + 1 for r in rows) - 1
            b = sum(len(r[ref.lang]) + 1 for r in rows) - 1
            if a > 1500 or b > 1500:
                break
            if a >= 50 and b >= 50:
                out.append((first, last))
    return out


def passage_clear(ref: Reference, refs: list[Reference], first: int, last: int, target: str) -> bool:
    """No version of the passage's paragraphs shares a phrase (or a whole line) with any
    version of another reference's paragraphs."""
    rows = ref.rows[first : last + 1]
    texts = [r[lang] for r in rows for lang in LANGS if r[lang]]
    sh = set().union(*(shingles(t) for t in texts))
    return not any(o is not ref and (sh & o.all_shingles or any(t in o.versions for t in texts)) for o in refs)


def insert(rng: random.Random, hosts: list[str], passages: list[tuple], zh: bool) -> tuple[str, list]:
    """Host paragraphs with the passages (obfuscation, reference, b-span, lines) between
    them as their own lines, or a one-line passage (one in six) inside a host paragraph after
    a sentence. Returns the text and (reference, a0, a1, b0, b1, obfuscation, lines)."""
    placed = sorted(((rng.randrange(len(hosts) + 1), p) for p in passages), key=lambda x: x[0])
    text, truth, k = "", [], 0
    for at in range(len(hosts) + 1):
        para = hosts[at] if at < len(hosts) else None
        while k < len(placed) and placed[k][0] == at:
            obf, r, b0, b1, lines = placed[k][1]
            copied = "\n".join(lines)
            cuts = [m.end() for m in re.finditer(r"[.!?] |[。！？]", para or "") if 20 < m.end() < len(para) - 20]
            if para and len(lines) == 1 and cuts and rng.random() < 1 / 6:
                cut = rng.choice(cuts)
                text += para[:cut]
                truth.append((r, len(text), len(text) + len(copied), b0, b1, obf, len(lines)))
                text += copied + ("" if zh else " ")
                para = para[cut:]
            else:
                truth.append((r, len(text), len(text) + len(copied), b0, b1, obf, len(lines)))
                text += copied + "\n"
            k += 1
        if para:
            text += para + "\n"
    return text or "\n", truth


def repost(rng: random.Random, ref: Reference, target: str, hosts: Hosts) -> tuple[str, list]:
    """The reference paragraph by paragraph in `target` (the lines it lacks are left out),
    0-1 paragraphs removed, 0-1 host paragraphs added; a title line when the reference does
    not start with a heading. Every run of consecutive translated lines is one passage."""
    keep = [k for k, r in enumerate(ref.rows) if r[target]]
    if len(keep) > 4 and rng.random() < 0.5:
        keep.remove(rng.choice(keep[1:]))
    items: list[tuple[int | None, str]] = [(k, ref.rows[k][target]) for k in keep]
    if rng.random() < 0.5:
        extra = hosts.take(target, 1)
        if extra:
            items.insert(rng.randint(1, len(items)), (None, extra[0]))
    text = ""
    if not ref.rows[0]["heading"]:
        text = rng.choice(TITLES[target]) + ref.doc.source + "\n"
    runs: list[list[int]] = []
    prev = None
    for k, line in items:
        start = len(text)
        text += line + "\n"
        if k is None:
            prev = None
            continue
        b0, b1 = ref.span(k, k)
        if prev is not None and k == prev + 1:
            runs[-1][1], runs[-1][3] = start + len(line), b1
        else:
            runs.append([start, start + len(line), b0, b1])
        prev = k
    return text, runs


# ---------------------------------------------------------------- the set


def direction(ref_lang: str, suspect_lang: str) -> str:
    return f"{LANG_NAME[ref_lang]}->{LANG_NAME[suspect_lang]}"


def choose_passage(rng, ref, refs, target, taken):
    runs = [run for run in candidate_runs(ref, target, taken) if passage_clear(ref, refs, *run, target)]
    return rng.choice(runs) if runs else None


def plag_suspect(rng, lang, refs, hosts, log):
    """A host text in `lang` with 1-4 passages from 1-3 references."""
    other = [i for i, r in enumerate(refs) if lang in translatable(r.rows, r.lang)]
    same = [i for i, r in enumerate(refs) if r.lang == lang]
    if not other:
        return None
    srcs = rng.sample(other, min(len(other), rng.choice([1, 1, 2, 2, 3])))
    verbatim_src = rng.choice(same) if same and rng.random() < 0.5 else None
    taken: dict[int, set[int]] = {}
    passages: list[tuple] = []
    for _ in range(rng.choice([1, 2, 2, 3, 3, 4])):
        for _try in range(3):
            i = verbatim_src if verbatim_src is not None and rng.random() < 0.25 else rng.choice(srcs)
            ref = refs[i]
            run = choose_passage(rng, ref, refs, lang, taken.setdefault(i, set()))
            if run is not None:
                break
        if run is None:
            continue
        first, last = run
        lines = [r[lang] for r in ref.rows[first : last + 1]]
        obf = "verbatim" if ref.lang == lang else "translated"
        taken[i].update(range(first, last + 1))
        b0, b1 = ref.span(first, last)
        passages.append((obf, i, b0, b1, lines))
    if not passages:
        return None
    text, truth = insert(rng, hosts.take(lang, rng.randint(1500, 6000) if lang == "en" else rng.randint(600, 2500)),
                         passages, lang != "en")
    for r, a0, a1, b0, b1, obf, n_lines in truth:
        log.append({"reference": r, "obfuscation": obf, "direction": direction(refs[r].lang, lang),
                    "paragraphs": n_lines, "a_start": a0, "a_chars": a1 - a0, "b_start": b0, "b_chars": b1 - b0})
    return text, truth


def build(out: Path, seed: int, n_references: int, n_suspects: int, root: Path) -> dict:
    rng = random.Random(seed)
    t2s = draw.find_t2s()
    if t2s is None:
        raise SystemExit("fast2s t2s.txt not found in the cargo registry (needed to fold traditional text)")
    draw.load_t2s(t2s, "")
    docs, aligned = pool(root)
    refs = pick_references(rng, docs, n_references)
    hosts = Hosts(rng, docs, refs)
    S = n_suspects

    n_clean = round(S * 0.2)
    n_repost = max(1, round(S * 0.07))
    kinds = ["clean"] * n_clean + ["repost"] * n_repost + ["plag"] * (S - n_clean - n_repost)
    rng.shuffle(kinds)
    # Suspect languages: half English, the rest simplified and (a third) traditional Chinese.
    plag_langs = ["en" if k % 2 == 0 else ("tw" if k % 6 == 1 else "zh") for k in range(kinds.count("plag"))]
    rng.shuffle(plag_langs)
    repost_plan = []
    for k in range(n_repost):
        want_en = k % 2 == 0  # alternately a Chinese reference reposted in English and the converse
        cands = [(i, t) for i, r in enumerate(refs) for t in translatable(r.rows, r.lang)
                 if (r.lang != "en") == want_en and i not in [p for p, _ in repost_plan]]
        if not cands:
            cands = [(i, t) for i, r in enumerate(refs) for t in translatable(r.rows, r.lang)
                     if i not in [p for p, _ in repost_plan]]
        repost_plan.append(rng.choice(cands))

    pairs: dict[tuple[int, int], list] = {}
    near_duplicates, documents, log, suspect_kinds = [], [], [], Counter()
    (out / "reference").mkdir(parents=True, exist_ok=True)
    (out / "suspect").mkdir(parents=True, exist_ok=True)
    for s, kind in enumerate(kinds):
        if kind == "repost":
            r, lang = repost_plan.pop()
            text, runs = repost(rng, refs[r], lang, hosts)
            for a0, a1, b0, b1 in runs:
                pairs.setdefault((s, S + r), []).append(
                    {"a_start": a0, "a_end": a1, "b_start": b0, "b_end": b1, "obfuscation": "repost-translated"})
                log.append({"suspect": s, "reference": S + r, "obfuscation": "repost-translated",
                            "direction": direction(refs[r].lang, lang), "a_start": a0, "a_chars": a1 - a0,
                            "b_start": b0, "b_chars": b1 - b0})
            near_duplicates.append([s, S + r])
        else:
            made = None
            if kind == "plag":
                lang = plag_langs.pop()
                entries: list = []
                made = plag_suspect(rng, lang, refs, hosts, entries)
                if made is None:
                    kind = "clean"
            if made is None:
                lang = rng.choice(["en", "en", "zh", "tw"])
                text = "\n".join(hosts.take(lang, rng.randint(1500, 6000) if lang == "en" else rng.randint(600, 2500)))
                text += "\n"
            else:
                text, truth = made
                for r, a0, a1, b0, b1, obf, _ in truth:
                    pairs.setdefault((s, S + r), []).append(
                        {"a_start": a0, "a_end": a1, "b_start": b0, "b_end": b1, "obfuscation": obf})
                for e in entries:
                    e["suspect"] = s
                    e["reference"] += S
                log.extend(entries)
        suspect_kinds[f"{kind} [{LANG_NAME[lang]}]"] += 1
        (out / "suspect" / f"s{s + 1:03d}.txt").write_text(text, encoding="utf-8")
        documents.append({"id": s, "path": f"suspect/s{s + 1:03d}.txt", "chars": len(text)})
    for r, ref in enumerate(refs):
        (out / "reference" / f"r{r + 1:03d}.txt").write_text(ref.text, encoding="utf-8")
        documents.append({"id": S + r, "path": f"reference/r{r + 1:03d}.txt", "chars": len(ref.text)})
    check_truth(out, documents, pairs, refs, S)
    truth_json = {
        "version": 1,
        "documents": documents,
        "pairs": [{"a": a, "b": b, "passages": sorted(p, key=lambda x: x["a_start"])}
                  for (a, b), p in sorted(pairs.items())],
        "near_duplicates": near_duplicates,
    }
    (out / "truth.json").write_text(json.dumps(truth_json, indent=1, ensure_ascii=False), encoding="utf-8")
    log.sort(key=lambda e: (e["suspect"], e["a_start"]))
    manifest = {
        "pool": "held-out draw",
        "seed": seed,
        "options": {"references": n_references, "suspects": n_suspects},
        "aligned_pairs": usable_pairs(docs),
        "alignment": aligned,
        "references": len(refs),
        "reference_langs": dict(sorted(Counter(LANG_NAME[r.lang] for r in refs).items())),
        "reference_sources": dict(sorted(Counter(f"{r.doc.source} [{LANG_NAME[r.lang]}]" for r in refs).items())),
        "reference_files": [f"r{i + 1:03d}.txt <- {r.doc.source} {r.doc.name} [{LANG_NAME[r.lang]}]"
                            for i, r in enumerate(refs)],
        "suspects": S,
        "suspect_kinds": dict(sorted(suspect_kinds.items())),
        "passages_by_obfuscation": dict(sorted(Counter(e["obfuscation"] for e in log).items())),
        "passages_by_direction": dict(sorted(Counter(f"{e['obfuscation']} {e['direction']}" for e in log).items())),
        "translated_passages_by_paragraphs": dict(sorted(Counter(
            str(e["paragraphs"]) for e in log if e["obfuscation"].startswith("translated")).items())),
        "near_duplicates": len(near_duplicates),
        "host": dict(sorted(hosts.stats.items())),
        "check": host_check(hosts, refs),
        "chars": {
            "suspect": sum(d["chars"] for d in documents if d["path"].startswith("suspect/")),
            "reference": sum(d["chars"] for d in documents if d["path"].startswith("reference/")),
        },
        "passages": log,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False), encoding="utf-8")
    return manifest


def host_check(hosts: Hosts, refs: list[Reference]) -> dict:
    """Host paragraphs in the suspects against every version of every reference paragraph."""
    versions = set().union(*(r.versions for r in refs))
    held = set().union(*(r.all_shingles for r in refs))
    return {"host paragraphs": len(hosts.taken),
            "host paragraphs that are a version of a reference paragraph": sum(p in versions for p in hosts.taken),
            "host paragraphs sharing a phrase with a version of a reference paragraph":
                sum(bool(shingles(p) & held) for p in hosts.taken)}


def usable_pairs(docs: list[Doc]) -> dict:
    """Aligned paragraph pairs per source that a draw may use (after every filter)."""
    out: dict[str, dict[str, int]] = {}
    for d in docs:
        c = out.setdefault(d.source, {"zh": 0, "zh-tw": 0})
        for r in d.rows:
            c["zh"] += bool(r["zh"])
            c["zh-tw"] += bool(r["tw"])
    return dict(sorted(out.items()))


def check_truth(out: Path, documents: list[dict], pairs: dict, refs: list[Reference], S: int) -> None:
    """Every passage's b side is whole reference lines; its a side has no white space at
    its edges; passages of one suspect do not overlap."""
    texts = {d["id"]: (out / d["path"]).read_text(encoding="utf-8") for d in documents}
    for r, ref in enumerate(refs):
        texts[S + r] = ref.text
    for (a, b), ps in pairs.items():
        for p in ps:
            sa, sb = texts[a][p["a_start"] : p["a_end"]], texts[b][p["b_start"] : p["b_end"]]
            assert sa and sa.strip() == sa, (a, p)
            assert sb and sb.strip() == sb and (p["b_start"] == 0 or texts[b][p["b_start"] - 1] == "\n"), (b, p)
            assert texts[b][p["b_end"]] == "\n", (b, p)
    spans = sorted((a, p["a_start"], p["a_end"]) for (a, _), ps in pairs.items() for p in ps)
    for (a1, _, e1), (a2, s2, _) in zip(spans, spans[1:]):
        assert a1 != a2 or e1 <= s2, (a1, a2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--references", type=int, default=40)
    parser.add_argument("--suspects", type=int, default=30)
    parser.add_argument("--share-root", type=Path, default=Path("/usr/share"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    manifest = build(args.out, args.seed, args.references, args.suspects, args.share_root)
    summary = {k: v for k, v in manifest.items() if k not in ("passages", "reference_files", "alignment")}
    print(json.dumps(summary, ensure_ascii=False))


if __name__ == "__main__":
    main()
