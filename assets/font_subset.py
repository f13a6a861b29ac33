#!/usr/bin/env python3
"""Rebuilds assets/NotoSansSC-subset.otf: Noto Sans CJK SC cut down to GB2312 (simplified
Chinese) + Big5 level 1 (common traditional) + Latin + CJK punctuation and symbols.

    pip install fonttools
    python3 assets/font_subset.py /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc

The .ttc's face 2 is "Noto Sans CJK SC" (Debian fonts-noto-cjk; SIL OFL 1.1).
"""
import subprocess
import sys
import tempfile

chars = set()
for hi in range(0xA1, 0xF8):  # GB2312, rows 1-87
    for lo in range(0xA1, 0xFF):
        try:
            chars.add(bytes([hi, lo]).decode("gb2312"))
        except UnicodeDecodeError:
            pass
for hi in range(0xA1, 0xC7):  # Big5 symbols and level 1 (A140-C67E)
    for lo in list(range(0x40, 0x7F)) + list(range(0xA1, 0xFF)):
        if (hi, lo) > (0xC6, 0x7E):
            continue
        try:
            chars.add(bytes([hi, lo]).decode("big5"))
        except UnicodeDecodeError:
            pass
RANGES = [(0x20, 0x7E), (0xA0, 0x24F), (0x2000, 0x206F), (0x2190, 0x21FF), (0x2460, 0x24FF),
          (0x2500, 0x257F), (0x25A0, 0x25FF), (0x3000, 0x303F), (0xFE30, 0xFE4F), (0xFF00, 0xFFEF)]
for a, b in RANGES:
    chars.update(chr(c) for c in range(a, b + 1))

source = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
with tempfile.NamedTemporaryFile("w", encoding="utf-8", suffix=".txt") as text:
    text.write("".join(sorted(chars)))
    text.flush()
    subprocess.run(["pyftsubset", source, "--font-number=2", f"--text-file={text.name}",
                    "--layout-features=*", "--no-hinting",
                    "--output-file=assets/NotoSansSC-subset.otf"], check=True)
print(f"{len(chars)} characters")
