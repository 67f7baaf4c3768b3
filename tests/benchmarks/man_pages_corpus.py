#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A real corpus of a few million words from this machine: the English manual pages.

Each page of the chosen sections (default: section 1, user commands) is one document: its roff
source with the requests (lines starting with "." or "'") left out and the inline escapes
(\\fB, \\-, \\(em, \\*(..) removed, so that what is left is the page's prose, option names and
examples. Pages that only include another (".so") are left out, and so is a page whose text is
the same as one already kept (the same page installed under two names). No network, no
downloads: what Debian's packages installed in /usr/share/man. The pages installed differ from
machine to machine, so say how many documents and words a run used (this script prints it).

With --passage-words N each page is cut into passages of N words (the last one of a page takes
the rest, or joins the one before when shorter than N / 2), each a document: the same text with
shorter documents, as in corpora of posts or abstracts.

Writes a CSV with columns id, text, for `latent-cli import corpus --format csv`:

    /usr/bin/python3 tests/benchmarks/man_pages_corpus.py --out man1.csv --max-pages 8000
    latent-cli import corpus --project man.latent --format csv --source man1.csv --name man1
"""
import argparse
import csv
import glob
import gzip
import hashlib
import os
import random
import re
import sys

ESCAPES = re.compile(r"\\(f(\[[^\]]*\]|\(..|.)|\*(\[[^\]]*\]|\(..|.)|\((..)|\[[^\]]*\]|s[-+]?\d+|[-&|^~0:%e\\.'`\" ])")


def page_text(path):
    """The prose of one roff page, or None for an include-only page."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    if any(line.startswith(".so ") for line in lines[:3]):
        return None
    kept = [ESCAPES.sub(" ", line) for line in lines if line and not line.startswith((".", "'"))]
    return " ".join(" ".join(kept).split())


def passages(name, text, size):
    """The page cut into documents of `size` words, named name#1, name#2, ..."""
    words = text.split()
    cuts = list(range(0, len(words), size))
    if len(cuts) > 1 and len(words) - cuts[-1] < size // 2:
        cuts.pop()
    ends = cuts[1:] + [len(words)]
    return [(f"{name}#{i + 1}", " ".join(words[a:b])) for i, (a, b) in enumerate(zip(cuts, ends))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--man", default="/usr/share/man")
    parser.add_argument("--sections", default="1", help="comma-separated manual sections")
    parser.add_argument("--min-words", type=int, default=20, help="pages shorter than this are left out")
    parser.add_argument("--max-pages", type=int, default=0, help="keep this many pages drawn at random; 0 keeps all")
    parser.add_argument("--passage-words", type=int, default=0,
                        help="cut each page into documents of this many words; 0 keeps whole pages")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    rows, seen = [], set()
    for section in args.sections.split(","):
        for path in sorted(glob.glob(os.path.join(args.man, "man" + section, "*"))):
            if not os.path.isfile(path) or os.path.islink(path):
                continue
            text = page_text(path)
            if not text or len(text.split()) < args.min_words:
                continue
            digest = hashlib.sha1(text.encode()).digest()
            if digest in seen:
                continue
            seen.add(digest)
            name = os.path.basename(path)
            rows.append((name[:-3] if name.endswith(".gz") else name, text))
    if not rows:
        sys.exit("no manual pages found under " + args.man)
    if 0 < args.max_pages < len(rows):
        rows = sorted(random.Random(args.seed).sample(rows, args.max_pages))
    pages = len(rows)
    if args.passage_words > 0:
        rows = [passage for name, text in rows for passage in passages(name, text, args.passage_words)]
    words = sum(len(text.split()) for _, text in rows)
    with open(args.out, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["id", "text"])
        writer.writerows(rows)
    print(f"{pages} pages, {len(rows)} documents, {words} words -> {args.out}")


if __name__ == "__main__":
    main()
