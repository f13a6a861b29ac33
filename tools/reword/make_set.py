#!/usr/bin/env python3
"""Build a seeded set of reworded English copies, in the development sets' layout.

    make_set.py OUT_DIR WORDNET_DIR SOURCE_FILE... [--seed N] [--references N] [--suspects N]

Like ../shortedit/make_set.py (same sources, same layout and truth), but each copied
passage (200-700 characters, whole sentences) is `reword`: four in five of its content
words that WordNet knows (about half of them) swapped for a synonym (the first sense's other lemmas, read from WORDNET_DIR, e.g.
the wordnet-base package's data files) and, now and then, the two clauses around a comma
swapped; or `verbatim`, as a control. This is the kind of synonym replacement that
../shared/devset-reword holds, drawn on other text with other seeds.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "shortedit"))
from make_set import drop_overlapping, paragraphs, read  # noqa: E402

STOP = set(
    "a an the of is and to in that we for are by be as on with can if from which you it this then at have all not "
    "one has or was were will would there their they but so no do does its than these those he she his her our your "
    "been being into also may such any when where how what who use used using".split()
)


class WordNet:
    def __init__(self, folder: Path):
        self.index: dict[str, list[tuple[str, int]]] = {}
        self.data: dict[str, bytes] = {}
        for pos in ["noun", "verb", "adj", "adv"]:
            self.data[pos] = (folder / f"data.{pos}").read_bytes()
            for line in (folder / f"index.{pos}").read_text(encoding="latin-1").splitlines():
                if line.startswith(" "):
                    continue
                parts = line.split()
                lemma, n_ptr = parts[0], int(parts[3])
                offsets = parts[4 + n_ptr + 2 :]
                if offsets:
                    self.index.setdefault(lemma, []).append((pos, int(offsets[0])))

    def synonyms(self, word: str) -> list[str]:
        out = []
        for pos, offset in self.index.get(word.lower(), [])[:1]:
            data = self.data[pos]
            line = data[offset : data.index(b"\n", offset)].decode("latin-1").split()
            count = int(line[3], 16)
            for k in range(count):
                lemma = line[4 + 2 * k].split("(")[0].replace("_", " ")
                if lemma.lower() != word.lower() and lemma.isascii():
                    out.append(lemma)
        return out


def reword(rng: random.Random, wn: WordNet, text: str, rate: float = 0.8) -> str:
    def swap(m: re.Match) -> str:
        word = m.group(0)
        if word.lower() in STOP or len(word) < 3 or rng.random() >= rate:
            return word
        choices = wn.synonyms(word)
        if not choices:
            return word
        new = rng.choice(choices)
        return new[0].upper() + new[1:] if word[0].isupper() else new

    out = re.sub(r"[A-Za-z]+", swap, text)
    sentences = re.split(r"(?<=[.!?]) ", out)
    for i, s in enumerate(sentences):
        parts = s.rstrip(".").split(", ")
        if len(parts) == 2 and rng.random() < 0.3:
            sentences[i] = parts[1][0].upper() + parts[1][1:] + ", " + parts[0][0].lower() + parts[0][1:] + "."
    return " ".join(sentences)


def passage(rng: random.Random, text: str) -> tuple[int, int] | None:
    """Whole sentences, 200-700 characters, inside one line."""
    starts = [0] + [m.end() for m in re.finditer(r"(?<=[.!?])\s+|\n", text)]
    for _ in range(50):
        start = rng.choice(starts)
        end = start
        while end - start < 200:
            m = re.search(r"[.!?](\s|$)", text[end + 1 :])
            if not m:
                break
            end = end + 1 + m.start() + 1
        if 200 <= end - start <= 700 and "\n" not in text[start:end]:
            return start, end
    return None


def build(wn: WordNet, sources: list[Path], out: Path, seed: int, n_references: int, n_suspects: int) -> dict:
    rng = random.Random(seed)
    docs = [(s, paragraphs(read(s))) for s in sources]
    docs = [(s, p) for s, p in docs if len(p) >= 2]
    rng.shuffle(docs)
    refs = ["\n".join(ps[:40]) + "\n" for _, ps in docs[:n_references]]
    hosts = drop_overlapping([p for _, ps in docs[n_references:] for p in ps], refs)
    rng.shuffle(hosts)
    (out / "reference").mkdir(parents=True, exist_ok=True)
    (out / "suspect").mkdir(parents=True, exist_ok=True)
    documents, pairs, counts = [], {}, {"reword": 0, "verbatim": 0}
    for s in range(n_suspects):
        pieces = [hosts.pop() for _ in range(rng.randint(3, 6)) if hosts]
        text, truth = "", []
        copies = [] if s % 8 == 7 else [rng.randrange(len(refs)) for _ in range(rng.randint(1, 3))]
        for r in copies:
            span = passage(rng, refs[r])
            if span is None:
                continue
            name = "reword" if rng.random() < 0.75 else "verbatim"
            copied = reword(rng, wn, refs[r][span[0] : span[1]]) if name == "reword" else refs[r][span[0] : span[1]]
            if pieces:
                text += pieces.pop() + "\n"
            truth.append((r, len(text), len(text) + len(copied), span, name))
            text += copied + "\n"
            counts[name] += 1
        for p in pieces:
            text += p + "\n"
        (out / "suspect" / f"s{s + 1:03d}.txt").write_text(text, encoding="utf-8")
        documents.append({"id": s, "path": f"suspect/s{s + 1:03d}.txt", "chars": len(text)})
        for r, a0, a1, span, name in truth:
            p = {"a_start": a0, "a_end": a1, "b_start": span[0], "b_end": span[1], "obfuscation": name}
            pairs.setdefault((s, n_suspects + r), []).append(p)
    for r, text in enumerate(refs):
        (out / "reference" / f"r{r + 1:03d}.txt").write_text(text, encoding="utf-8")
        documents.append({"id": n_suspects + r, "path": f"reference/r{r + 1:03d}.txt", "chars": len(text)})
    truth_json = {
        "version": 1,
        "documents": documents,
        "pairs": [{"a": a, "b": b, "passages": p} for (a, b), p in sorted(pairs.items())],
        "near_duplicates": [],
    }
    (out / "truth.json").write_text(json.dumps(truth_json, indent=1), encoding="utf-8")
    manifest = {"seed": seed, "references": len(refs), "suspects": n_suspects, "passages_by_obfuscation": counts}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return manifest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("wordnet", type=Path)
    parser.add_argument("sources", type=Path, nargs="+")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--references", type=int, default=25)
    parser.add_argument("--suspects", type=int, default=40)
    args = parser.parse_args()
    print(json.dumps(build(WordNet(args.wordnet), args.sources, args.out, args.seed, args.references, args.suspects)))


if __name__ == "__main__":
    main()
