#!/usr/bin/env python3
"""Evasion test sets: copies hidden with the tricks of "anti-plagiarism" tools.

    make_evasion.py evade DEVSET OUT [--seed N]
        Every suspect of DEVSET that holds copies gets an evaded twin: its copied
        passages rewritten with one trick (look-alike letters, invisible characters,
        odd spaces, Han radicals, ...), or written as a .docx whose copies carry hidden
        junk runs. The plain suspects stay beside their twins; references are copied.

    make_evasion.py draw EN_TEXTS ZH_TEXTS OUT [--seed N]
        A fresh set from other text (folders of .txt/.html files): references cut from
        them, suspects of unrelated text with inserted copies, each copy verbatim or with
        one trick, and clean suspects.

Both write OUT/reference, OUT/suspect, OUT/truth.json (the scorer's schema, each passage
with its "obfuscation": the original kind for a plain copy, "evade-TRICK" for an evaded
one; offsets on the visible text) and OUT/flags.json ({"flagged": [paths]}: the
documents that must carry flags; every other document must carry none).

Seeded: the same arguments give the same files. Standard library only.
"""

from __future__ import annotations

import argparse
import html
import json
import random
import re
import shutil
import unicodedata
import zipfile
from pathlib import Path

# ------------------------------------------------------------------ tricks

CYRILLIC = dict(zip("aeopcxyijsABEKMHOPCTX", "аеорсхуіјѕАВЕКМНОРСТХ"))
GREEK = dict(zip("ABEZHIKMNOPTYXov", "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧον"))
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\u00ad", "\ufeff"]
ODD_SPACES = ["\u00a0", "\u2007", "\u202f", "\u2003", "\u2009", "\u3000"]
ASCII_PUNCT = {"，": ",", "。": ".", "：": ":", "；": ";", "！": "!", "？": "?", "（": "(", "）": ")"}
# Radical-supplement forms (NFKC leaves them alone) for the ideographs they stand for.
SUPPLEMENT = {"长": "⻓", "门": "⻔", "见": "⻅", "马": "⻢", "风": "⻛", "飞": "⻜", "车": "⻋", "贝": "⻉", "页": "⻚",
              "鱼": "⻥", "鸟": "⻦", "龙": "⻰", "齐": "⻬", "麦": "⻨", "黄": "⻩", "食": "⻝", "青": "⻘", "西": "⻄"}


def han_forms() -> dict[str, str]:
    """Ideograph -> a look-alike: a radical-supplement form, a Kangxi radical or a
    compatibility ideograph whose NFKC form it is."""
    forms: dict[str, str] = {}
    for lo, hi in ((0x2F00, 0x2FD5), (0xF900, 0xFAD9)):
        for cp in range(lo, hi + 1):
            c = chr(cp)
            n = unicodedata.normalize("NFKC", c)
            if len(n) == 1 and n != c and "\u4e00" <= n <= "\u9fff" and cp not in (0xFA0C, 0xFA0D):
                forms.setdefault(n, c)
    forms.update(SUPPLEMENT)
    return forms


HAN_FORMS = han_forms()


def is_han(c: str) -> bool:
    return "\u4e00" <= c <= "\u9fff"


def chinese(text: str) -> bool:
    return sum(map(is_han, text)) > len(text) / 4


def swap_letters(text: str, table: dict[str, str], rng: random.Random, p: float) -> str:
    return "".join(table[c] if c in table and rng.random() < p else c for c in text)


def compat_words(text: str, rng: random.Random) -> str:
    """Letters swapped one by one for full-width ones, some long words in mathematical
    bold letters."""
    def bold(c: str) -> str:
        if "a" <= c <= "z":
            return chr(0x1D41A + ord(c) - 97)
        return chr(0x1D400 + ord(c) - 65) if "A" <= c <= "Z" else c

    def change(word: str) -> str:
        if len(word) >= 5 and rng.random() < 0.2:
            return "".join(bold(c) for c in word)
        return "".join(chr(ord(c) + 0xFEE0) if rng.random() < 0.2 else c for c in word)
    return re.sub(r"[A-Za-z]{2,}", lambda m: change(m.group()), text)


def sprinkle(text: str, rng: random.Random, every: int) -> str:
    """Invisible characters inside words, about one every `every` letters."""
    out = []
    for i, c in enumerate(text):
        out.append(c)
        if c.isalnum() and i + 1 < len(text) and text[i + 1].isalnum() and rng.random() < 1 / every:
            out.append(rng.choice(INVISIBLE))
    return "".join(out)


def odd_spaces(text: str, rng: random.Random) -> str:
    out = list(text)
    for i, c in enumerate(out):
        between_words = 0 < i < len(out) - 1 and out[i - 1].isascii() and out[i + 1].isascii()
        if c == " " and between_words and out[i - 1].isalpha() and out[i + 1].isalpha() and rng.random() < 0.7:
            out[i] = rng.choice(ODD_SPACES + ["\u2800"])
    return "".join(out)


def han_look_alikes(text: str, rng: random.Random) -> str:
    return "".join(HAN_FORMS[c] if c in HAN_FORMS and rng.random() < 0.8 else c for c in text)


def punct_swap(text: str) -> str:
    return "".join(ASCII_PUNCT.get(c, c) for c in text)


EN_TRICKS = ["cyrillic", "greek", "compat", "invisible", "spaces"]
ZH_TRICKS = ["han", "invisible-zh"]


def apply(trick: str, text: str, rng: random.Random) -> str:
    if trick == "cyrillic":
        return swap_letters(text, CYRILLIC, rng, 0.5)
    if trick == "greek":
        return swap_letters(text, GREEK, rng, 0.8)
    if trick == "compat":
        return compat_words(text, rng)
    if trick == "invisible":
        return sprinkle(text, rng, 4)
    if trick == "spaces":
        return odd_spaces(text, rng)
    if trick == "han":
        return han_look_alikes(text, rng)
    if trick == "invisible-zh":
        return sprinkle(punct_swap(text), rng, 3)
    raise ValueError(trick)


def fits(trick: str, text: str) -> str:
    """The trick of a family that fits a passage's language."""
    zh = chinese(text)
    if trick in EN_TRICKS and zh:
        return ZH_TRICKS[EN_TRICKS.index(trick) % len(ZH_TRICKS)]
    if trick in ZH_TRICKS and not zh:
        return EN_TRICKS[ZH_TRICKS.index(trick)]
    return trick


def rewrite(text: str, spans: list[tuple[int, int]], change) -> tuple[str, list[tuple[int, int]]]:
    """`text` with each of the sorted, disjoint `spans` replaced by `change(span text)`;
    the new spans."""
    out, new_spans, at = [], [], 0
    shift = 0
    for s, e in spans:
        out.append(text[at:s])
        new = change(text[s:e])
        new_spans.append((s + shift, s + shift + len(new)))
        shift += len(new) - (e - s)
        out.append(new)
        at = e
    out.append(text[at:])
    return "".join(out), new_spans


# ------------------------------------------------------------------ .docx with hidden runs

STYLES = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
<w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="22"/></w:rPr></w:rPrDefault></w:docDefaults>
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="character" w:styleId="Quiet"><w:name w:val="Quiet"/><w:rPr><w:vanish/></w:rPr></w:style>
<w:style w:type="character" w:styleId="Quieter"><w:name w:val="Quieter"/><w:basedOn w:val="Quiet"/></w:style>
</w:styles>"""

HIDDEN_PROPS = [
    "<w:vanish/>",
    '<w:color w:val="FFFFFF"/>',
    '<w:sz w:val="2"/><w:szCs w:val="2"/>',
    '<w:rStyle w:val="Quieter"/>',
    '<w:spacing w:val="-600"/>',
    '<w:w w:val="1"/>',
    '<w:color w:val="DDEEFF"/><w:shd w:val="clear" w:color="auto" w:fill="DDEEFF"/>',
]

CONTENT_TYPES = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>
</Types>"""
RELS = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
</Relationships>"""
DOC_RELS = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>
</Relationships>"""


def run(text: str, props: str = "") -> str:
    rpr = f"<w:rPr>{props}</w:rPr>" if props else ""
    return f'<w:r>{rpr}<w:t xml:space="preserve">{html.escape(text, quote=False)}</w:t></w:r>'


def write_docx(path: Path, text: str, spans: list[tuple[int, int]], junk: list[str], rng: random.Random) -> None:
    """A .docx whose visible text is `text` (one paragraph a line); inside `spans`, hidden
    runs of junk words every few words."""
    inside = [False] * (len(text) + 1)
    for s, e in spans:
        for i in range(s, e):
            inside[i] = True
    paragraphs, at = [], 0
    # A hidden field code (an index entry) in the first paragraph: ordinary, never flagged.
    field = ('<w:r><w:rPr><w:vanish/></w:rPr><w:fldChar w:fldCharType="begin"/></w:r>'
             '<w:r><w:rPr><w:vanish/></w:rPr><w:instrText xml:space="preserve"> XE "index" </w:instrText></w:r>'
             '<w:r><w:rPr><w:vanish/></w:rPr><w:fldChar w:fldCharType="end"/></w:r>')
    for line in text.split("\n"):
        runs, piece, piece_start = [], [], at
        for i, c in enumerate(line):
            piece.append(c)
            pos = at + i
            if inside[pos] and c in " ，。" and rng.random() < 0.3:
                runs.append(run("".join(piece)))
                piece = []
                props = rng.choice(HIDDEN_PROPS)
                runs.append(run(" ".join(rng.sample(junk, 3)) + " ", props))
        runs.append(run("".join(piece)))
        if not paragraphs:
            runs.insert(0, field)
        paragraphs.append("<w:p>" + "".join(runs) + "</w:p>")
        at += len(line) + 1
        del piece_start
    # A text ending in a line break has one empty paragraph too many.
    if text.endswith("\n"):
        paragraphs.pop()
    body = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>'
            + "".join(paragraphs) + "</w:body></w:document>")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in (("[Content_Types].xml", CONTENT_TYPES), ("_rels/.rels", RELS),
                           ("word/_rels/document.xml.rels", DOC_RELS), ("word/styles.xml", STYLES),
                           ("word/document.xml", body)):
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            z.writestr(info, data, zipfile.ZIP_DEFLATED)


# ------------------------------------------------------------------ sets


class Truth:
    def __init__(self):
        self.documents: list[dict] = []
        self.pairs: list[dict] = []
        self.near: list[list[int]] = []
        self.flagged: list[str] = []
        self.ids: dict[str, int] = {}

    def doc(self, path: str, chars: int) -> int:
        if path not in self.ids:
            self.ids[path] = len(self.documents)
            self.documents.append({"id": self.ids[path], "path": path, "chars": chars})
        return self.ids[path]

    def write(self, out: Path) -> None:
        truth = {"version": 1, "documents": self.documents, "pairs": self.pairs, "near_duplicates": self.near}
        (out / "truth.json").write_text(json.dumps(truth, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        (out / "flags.json").write_text(json.dumps({"flagged": sorted(self.flagged)}, indent=1) + "\n")


def read_text(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    return text[1:] if text.startswith("\ufeff") else text


def evade(src: Path, out: Path, seed: int) -> None:
    rng = random.Random(seed)
    truth_in = json.loads((src / "truth.json").read_text(encoding="utf-8"))
    paths = {d["id"]: d["path"] for d in truth_in["documents"]}
    for sub in ("reference", "suspect"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    truth = Truth()
    for d in truth_in["documents"]:
        shutil.copy(src / d["path"], out / d["path"])
        truth.doc(d["path"], d["chars"])
    for p in truth_in["pairs"]:
        truth.pairs.append({"a": truth.ids[paths[p["a"]]], "b": truth.ids[paths[p["b"]]], "passages": p["passages"]})
    for a, b in truth_in["near_duplicates"]:
        truth.near.append([truth.ids[paths[a]], truth.ids[paths[b]]])
    references = sorted((src / "reference").glob("*.txt"))
    junk = [w for w in re.findall(r"[A-Za-z]{4,}", read_text(references[0]) + read_text(references[-1]))][:400]
    junk += re.findall(r"[\u4e00-\u9fff]{2}", "".join(read_text(r) for r in references[:3]))[:200]
    by_suspect: dict[str, list[dict]] = {}
    for p in truth_in["pairs"]:
        by_suspect.setdefault(paths[p["a"]], []).append(p)
    # Each language's tricks in turn, so that every trick meets copies it fits.
    families = {False: EN_TRICKS + ["hidden-docx"], True: ZH_TRICKS + ["hidden-docx"]}
    turns = {False: 0, True: 0}
    for suspect, pairs in sorted(by_suspect.items()):
        text = read_text(src / suspect)
        spans = sorted({(x["a_start"], x["a_end"]) for p in pairs for x in p["passages"]})
        # Overlapping spans (a passage with twins in two references) are joined.
        joined: list[list[int]] = []
        for s, e in spans:
            if joined and s <= joined[-1][1]:
                joined[-1][1] = max(joined[-1][1], e)
            else:
                joined.append([s, e])
        zh = chinese("".join(text[s:e] for s, e in joined))
        family = families[zh][turns[zh] % len(families[zh])]
        turns[zh] += 1
        stem = Path(suspect).stem
        if family == "hidden-docx":
            new_path = f"suspect/{stem}-hidden.docx"
            write_docx(out / new_path, text, [tuple(j) for j in joined], junk, rng)
            new_text, moved = text, {(s, e): (s, e) for s, e in spans}
            tricks = {(s, e): "hidden-docx" for s, e in spans}
        else:
            new_path = f"suspect/{stem}-{family}.txt"
            used: dict[tuple[int, int], str] = {}

            def change(passage: str) -> str:
                trick = fits(family, passage)
                used[len(used)] = trick
                return apply(trick, passage, rng)

            new_text, new_joined = rewrite(text, [tuple(j) for j in joined], change)
            assert new_text != text, f"{suspect}: {family} changed nothing"
            (out / new_path).write_text(new_text, encoding="utf-8")
            moved, tricks = {}, {}
            for (js, je), (ns, ne), k in zip(joined, new_joined, range(len(joined))):
                for s, e in spans:
                    if js <= s and e <= je:
                        # A passage inside a joined span keeps its share of it (exact at the
                        # ends, proportional inside).
                        scale = (ne - ns) / max(1, je - js)
                        moved[(s, e)] = (ns + round((s - js) * scale), ns + round((e - js) * scale))
                        tricks[(s, e)] = used[k]
        a = truth.doc(new_path, len(new_text))
        truth.flagged.append(new_path)
        for p in pairs:
            passages = []
            for x in p["passages"]:
                s, e = moved[(x["a_start"], x["a_end"])]
                passages.append({**x, "a_start": s, "a_end": e, "obfuscation": "evade-" + tricks[(x["a_start"], x["a_end"])]})
            truth.pairs.append({"a": a, "b": truth.ids[paths[p["b"]]], "passages": passages})
            if [p["a"], p["b"]] in truth_in["near_duplicates"]:
                truth.near.append([a, truth.ids[paths[p["b"]]]])
    truth.write(out)


def paragraphs_of(folder: Path) -> list[list[str]]:
    """The paragraphs of every text file under `folder` (HTML tags stripped)."""
    docs = []
    for path in sorted(folder.rglob("*")):
        if path.suffix not in (".txt", ".html", ".htm", ".md") or not path.is_file():
            continue
        raw = path.read_text(encoding="utf-8", errors="replace")
        if path.suffix in (".html", ".htm"):
            raw = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", raw)
            raw = re.sub(r"(?i)</?(p|div|li|h\d|pre|br|tr|dt|dd)\b[^>]*>", "\n", raw)
            raw = html.unescape(re.sub(r"<[^>]+>", "", raw))
        paras = [re.sub(r"[ \t]+", " ", p).strip() for p in re.split(r"\n\s*\n|\n(?=\S)", raw)]
        paras = [p.replace("\n", " ") for p in paras if len(p) >= 60]
        # A long file makes several documents of 30 paragraphs.
        for at in range(0, len(paras), 30):
            if len(paras[at:at + 30]) >= 8:
                docs.append(paras[at:at + 30])
    return docs


def shingles(text: str, lang: str) -> set[str]:
    """Word 6-grams (English) or character 10-grams (Chinese) of `text`."""
    if lang == "zh":
        chars = re.sub(r"\s+", "", text)
        return {chars[i:i + 10] for i in range(len(chars) - 9)}
    words = re.findall(r"\w+", text.lower())
    return {" ".join(words[i:i + 6]) for i in range(len(words) - 5)}


def draw(en: Path, zh: Path, out: Path, seed: int, docs: int = 60) -> None:
    rng = random.Random(seed)
    for sub in ("reference", "suspect"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    truth = Truth()
    pools = {"en": paragraphs_of(en), "zh": paragraphs_of(zh)}
    refs: list[tuple[str, str, str]] = []
    for lang, pool in pools.items():
        rng.shuffle(pool)
        half = len(pool) // 2
        for i, paras in enumerate(pool[:half][:docs // 2]):
            text = "\n".join(paras[:40]) + "\n"
            path = f"reference/{lang}{i:03d}.txt"
            (out / path).write_text(text, encoding="utf-8")
            truth.doc(path, len(text))
            refs.append((lang, path, text))
        pools[lang] = pool[half:]
    kinds = ["verbatim"] + EN_TRICKS + ["hidden-docx"]
    n = 0
    for lang in ("en", "zh"):
        lang_refs = [r for r in refs if r[0] == lang]
        # Host text that shares a phrase with a reference (release notes repeat their
        # boilerplate, licences quote each other) would be a copy the truth does not list.
        seen = set()
        for _, _, rtext in lang_refs:
            seen.update(shingles(rtext, lang))
        hosts = [[p for p in paras if not (shingles(p, lang) & seen)] for paras in pools[lang]]
        hosts = [paras for paras in hosts if len(paras) >= 8]
        for k, host in enumerate(hosts[: docs // 2]):
            n += 1
            kind = kinds[k % len(kinds)] if k % 8 != 7 else "clean"
            body = host[:30]
            copies = []
            if kind != "clean":
                for _ in range(rng.randint(1, 3)):
                    _, rpath, rtext = rng.choice(lang_refs)
                    lines = rtext.split("\n")[:-1]
                    # One to four whole paragraphs, 100 to 1500 characters.
                    li = rng.randrange(len(lines))
                    lj = min(len(lines), li + rng.randint(1, 4))
                    while lj - 1 > li and len("\n".join(lines[li:lj])) > 1500:
                        lj -= 1
                    copied = "\n".join(lines[li:lj])
                    if len(copied) < 100:
                        continue
                    start = sum(len(x) + 1 for x in lines[:li])
                    copies.append((rng.randrange(len(body) + 1), rpath, start, copied[:1500]))
            pieces, spans, owners = [], [], []
            at = 0
            slots = {pos: (rp, rs, t) for pos, rp, rs, t in copies}
            for i in range(len(body) + 1):
                if i in slots:
                    rp, rs, t = slots[i]
                    spans.append((at, at + len(t)))
                    owners.append((rp, rs, rs + len(t)))
                    pieces.append(t + "\n")
                    at += len(t) + 1
                if i < len(body):
                    pieces.append(body[i] + "\n")
                    at += len(body[i]) + 1
            text = "".join(pieces)
            trick = kind if kind not in ("verbatim", "clean") else None
            if kind == "hidden-docx":
                path = f"suspect/{lang}{n:03d}-hidden.docx"
                write_docx(out / path, text, spans, re.findall(r"\w{3,}", "".join(body))[:300] or ["junk"] * 3, rng)
                new_spans, labels = spans, ["hidden-docx"] * len(spans)
            else:
                labels = []

                def change(passage: str) -> str:
                    t = fits(trick, passage) if trick else None
                    labels.append(t or "verbatim")
                    return apply(t, passage, rng) if t else passage

                plain = text
                text, new_spans = rewrite(text, spans, change)
                # A trick that found nothing to change leaves an ordinary document.
                trick = trick if text != plain else None
                path = f"suspect/{lang}{n:03d}-{kind}.txt"
                (out / path).write_text(text, encoding="utf-8")
            a = truth.doc(path, len(text))
            if trick and spans:
                truth.flagged.append(path)
            by_ref: dict[str, list[dict]] = {}
            for (s, e), (rp, rs, re_), label in zip(new_spans, owners, labels):
                name = label if label == "verbatim" else "evade-" + label
                by_ref.setdefault(rp, []).append({"a_start": s, "a_end": e, "b_start": rs, "b_end": re_, "obfuscation": name})
            for rp, passages in by_ref.items():
                truth.pairs.append({"a": a, "b": truth.ids[rp], "passages": passages})
    truth.write(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    e = sub.add_parser("evade")
    e.add_argument("devset", type=Path)
    e.add_argument("out", type=Path)
    e.add_argument("--seed", type=int, default=22)
    d = sub.add_parser("draw")
    d.add_argument("en", type=Path)
    d.add_argument("zh", type=Path)
    d.add_argument("out", type=Path)
    d.add_argument("--seed", type=int, default=2222)
    args = parser.parse_args()
    if args.command == "evade":
        evade(args.devset, args.out, args.seed)
    else:
        draw(args.en, args.zh, args.out, args.seed)


if __name__ == "__main__":
    main()
