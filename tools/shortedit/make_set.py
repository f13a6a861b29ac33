#!/usr/bin/env python3
"""Build a seeded test set of short edited English (or Chinese) copies, in the development sets' layout.

    make_set.py OUT_DIR SOURCE_FILE... [--seed N] [--references N] [--suspects N] [--chinese]

SOURCE_FILEs are English prose (plain text, or gzip-compressed when their name ends in
.gz), for instance the documentation of a Debian system. Their paragraphs are dealt out,
one source file to one document: the first files make the references, the rest the
unrelated host text of the suspects. Each suspect gets host paragraphs and 1-4 copied
passages of 50-150 characters from the references, each with one obfuscation:

  short-edit     a typo every ten characters or so (a letter replaced, dropped, doubled
                 or two letters swapped)
  short-light    a typo every twenty-five characters or so
  short-verbatim copied as it stands

and a few suspects copy nothing. With --chinese the sources are Chinese prose (for instance
the zh_CN and zh_TW manual pages, rendered as text): paragraphs are lines of Han text, a copy
starts and ends anywhere, and a typo replaces, drops, doubles or swaps Han characters (a
replacement drawn from the sources' own characters). OUT_DIR gets reference/, suspect/,
truth.json (the schema
of ../shared/devset/README.md, offsets in code points) and manifest.json. Score a check
with the project's scorer:

    twinspot compare -r OUT/reference -s OUT/suspect --json result.json -q
    python3 score.py OUT/truth.json result.json
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
from pathlib import Path

OBFUSCATIONS = [("short-edit", 10), ("short-light", 25), ("short-verbatim", 0)]
LETTERS = "abcdefghijklmnopqrstuvwxyz"
# Set by --chinese: Chinese sources, and the Han characters a typo may put in.
CHINESE = False
HAN_POOL: list[str] = []


def read(path: Path) -> str:
    data = path.read_bytes()
    if path.name.endswith(".gz"):
        data = gzip.decompress(data)
    return data.decode("utf-8", errors="replace")


def is_han(c: str) -> bool:
    return "\u4e00" <= c <= "\u9fff"


def chinese_paragraphs(text: str) -> list[str]:
    """Lines that are mostly Han text, long enough to copy from."""
    out = []
    for line in text.split("\n"):
        line = " ".join(line.split())
        han = sum(is_han(c) for c in line)
        if han >= 40 and han >= 0.5 * len(line.replace(" ", "")):
            out.append(line)
    return out


def paragraphs(text: str) -> list[str]:
    """Prose paragraphs: blank-line separated blocks joined into one line, kept when
    they read like sentences (mostly letters, long enough)."""
    if CHINESE:
        return chinese_paragraphs(text)
    out = []
    # A file without blank lines (the development sets) has one paragraph per line.
    blocks = re.split(r"\n\s*\n", text) if re.search(r"\n\s*\n", text) else text.split("\n")
    for block in blocks:
        line = " ".join(block.split())
        letters = sum(c.isalpha() for c in line)
        if len(line) >= 100 and letters >= 0.7 * len(line) and line.count(" ") >= 12:
            out.append(line)
    return out


def shingles(text: str, n: int = 6) -> set[tuple[str, ...]]:
    if CHINESE:
        chars = [c for c in text if is_han(c)]
        return {tuple(chars[i : i + 2 * n]) for i in range(len(chars) - 2 * n + 1)}
    words = re.findall(r"[a-z0-9]+", text.lower())
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


def drop_overlapping(hosts: list[str], references: list[str]) -> list[str]:
    """The host paragraphs that share no run of six words with a reference: documents of
    one package repeat each other (release notes, link lists), and such text in a host
    would be a real copy that the truth does not list."""
    held = set().union(*(shingles(r) for r in references)) if references else set()
    return [h for h in hosts if not (shingles(h) & held)]


def typo(rng: random.Random, text: str, every: int) -> str:
    """Puts a typo about every `every` characters: a letter replaced, dropped, doubled,
    or swapped with the next one."""
    if every == 0:
        return text
    chars = list(text)
    letters = HAN_POOL if CHINESE else LETTERS
    i = rng.randint(2, every)
    while i < len(chars) - 1:
        if chars[i].isalpha():
            kind = rng.randrange(4)
            if kind == 0:
                chars[i] = rng.choice([c for c in letters if c != chars[i].lower()])
            elif kind == 1:
                del chars[i]
            elif kind == 2:
                chars.insert(i, chars[i])
            elif chars[i + 1].isalpha():
                chars[i], chars[i + 1] = chars[i + 1], chars[i]
        i += max(3, int(rng.gauss(every, every / 4)))
    return "".join(chars)


def short_passage(rng: random.Random, text: str) -> tuple[int, int] | None:
    """A span of 50-150 characters starting at a word and ending at a word's end."""
    for _ in range(50):
        length = rng.randint(50, 150)
        if len(text) <= length + 2:
            return None
        start = rng.randrange(0, len(text) - length)
        if CHINESE:
            end = start + length
            if "\n" not in text[start:end] and sum(is_han(c) for c in text[start:end]) >= 0.6 * length:
                return start, end
            continue
        while start > 0 and not text[start - 1].isspace():
            start -= 1
        end = start + length
        while end < len(text) and text[end].isalnum():
            end += 1
        if 50 <= end - start <= 160 and "\n" not in text[start:end]:
            return start, end
    return None


def build(sources: list[Path], out: Path, seed: int, n_references: int, n_suspects: int) -> dict:
    rng = random.Random(seed)
    texts = [read(s) for s in sources]
    if CHINESE:
        HAN_POOL.extend(sorted({c for text in texts for c in text if is_han(c)}))
    docs = [(s, paragraphs(text)) for s, text in zip(sources, texts)]
    docs = [(s, p) for s, p in docs if len(p) >= 2]
    rng.shuffle(docs)
    references = docs[:n_references]
    ref_texts = ["\n".join(ps[:40]) + "\n" for _, ps in references]
    hosts = drop_overlapping([p for _, ps in docs[n_references:] for p in ps], ref_texts)
    rng.shuffle(hosts)
    (out / "reference").mkdir(parents=True, exist_ok=True)
    (out / "suspect").mkdir(parents=True, exist_ok=True)
    documents = []
    pairs: dict[tuple[int, int], list] = {}
    counts = {name: 0 for name, _ in OBFUSCATIONS}
    for s in range(n_suspects):
        pieces: list[str] = []
        for _ in range(rng.randint(3, 6)):
            if hosts:
                pieces.append(hosts.pop())
        copies = [] if s % 8 == 7 else [rng.randrange(len(ref_texts)) for _ in range(rng.randint(1, 4))]
        inserted = []
        for r in copies:
            span = short_passage(rng, ref_texts[r])
            if span is None:
                continue
            name, every = OBFUSCATIONS[rng.randrange(len(OBFUSCATIONS))]
            copied = typo(rng, ref_texts[r][span[0] : span[1]], every)
            inserted.append((rng.randrange(len(pieces) + 1), r, span, name, copied))
        text, truth = "", []
        slots = sorted(inserted, key=lambda x: x[0])
        k = 0
        for at in range(len(pieces) + 1):
            while k < len(slots) and slots[k][0] == at:
                _, r, span, name, copied = slots[k]
                # A copy sits inside a host paragraph, between two of its sentences.
                start = len(text)
                text += copied + " "
                truth.append((r, start, start + len(copied), span, name))
                counts[name] += 1
                k += 1
            if at < len(pieces):
                text += pieces[at] + "\n"
        (out / "suspect" / f"s{s + 1:03d}.txt").write_text(text, encoding="utf-8")
        documents.append({"id": s, "path": f"suspect/s{s + 1:03d}.txt", "chars": len(text)})
        for r, a0, a1, span, name in truth:
            passage = {"a_start": a0, "a_end": a1, "b_start": span[0], "b_end": span[1], "obfuscation": name}
            pairs.setdefault((s, n_suspects + r), []).append(passage)
    for r, text in enumerate(ref_texts):
        (out / "reference" / f"r{r + 1:03d}.txt").write_text(text, encoding="utf-8")
        documents.append({"id": n_suspects + r, "path": f"reference/r{r + 1:03d}.txt", "chars": len(text)})
    truth_json = {
        "version": 1,
        "documents": documents,
        "pairs": [{"a": a, "b": b, "passages": p} for (a, b), p in sorted(pairs.items())],
        "near_duplicates": [],
    }
    (out / "truth.json").write_text(json.dumps(truth_json, indent=1), encoding="utf-8")
    manifest = {
        "seed": seed,
        "references": len(ref_texts),
        "suspects": n_suspects,
        "sources": [s.name for s, _ in references],
        "passages_by_obfuscation": counts,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return manifest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("sources", type=Path, nargs="+")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--references", type=int, default=20)
    parser.add_argument("--suspects", type=int, default=40)
    parser.add_argument("--chinese", action="store_true", help="Chinese sources and Han typos")
    args = parser.parse_args()
    global CHINESE
    CHINESE = args.chinese
    print(json.dumps(build(args.sources, args.out, args.seed, args.references, args.suspects)))


if __name__ == "__main__":
    main()
