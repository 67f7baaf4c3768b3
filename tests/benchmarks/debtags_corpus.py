#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A real multi-label corpus for labeled-lda: Debian package descriptions with their debtags.

Reads this machine's apt lists (the Packages index for the debtags, "Tag: devel::lang:python,
role::program", and the Translation-en index for the long descriptions, joined on
Description-md5; run `apt-get update -o Acquire::Languages=en` first when no Translation-en file
is there). The descriptions are the package metadata's own text, written by the Debian
maintainers. Keeps programs (role::program), one binary package per source package (binary
packages of one source, or of one upstream such as a game and its data, share most of their description, which would leak between training and
held-out documents), and as labels the most common topical tags (facets such as field::, game::,
works-with::, use::, network::, admin::, security::, sound::, hardware::, science::, web::, mail::;
not role::, interface::, implemented-in::, uitoolkit:: and the like, which describe packaging
rather than what a program is about; no ::TODO tags).

Writes a CSV with columns id, text, label (labels separated by ";"). Not needed by CI.

    python3 tests/benchmarks/debtags_corpus.py --out debtags.csv --labels 40 --max-packages 4000
"""
import argparse
import collections
import csv
import glob
import random
import re
import subprocess
import sys

TOPICAL_FACETS = {"field", "game", "works-with", "use", "network", "admin", "security", "sound", "hardware",
                  "science", "web", "mail", "office", "biology", "junior", "accessibility"}


def read_index(pattern):
    """The stanzas of every apt list file matching pattern (lz4 or plain), as dicts."""
    stanzas = []
    for path in sorted(glob.glob(pattern)):
        if path.endswith(".lz4"):
            text = subprocess.run(["lz4", "-dc", path], check=True, capture_output=True).stdout.decode("utf-8", "replace")
        else:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        for block in text.split("\n\n"):
            fields, key = {}, None
            for line in block.split("\n"):
                if line.startswith((" ", "\t")) and key:
                    fields[key] += "\n" + line
                elif ":" in line:
                    key, _, value = line.partition(":")
                    fields[key] = value.strip()
            if fields:
                stanzas.append(fields)
    return stanzas


def long_description(text):
    """Description-en: the short line, then the long part without the " ." paragraph marks; and the
    long part's opening, which packages built from one upstream (game and its data) share."""
    lines = [line.strip() for line in text.split("\n")]
    body = " ".join(line for line in lines[1:] if line and line != ".")
    return lines[0] + " " + body, body[:100]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lists", default="/var/lib/apt/lists")
    parser.add_argument("--out", required=True)
    parser.add_argument("--labels", type=int, default=40, help="the most common topical tags kept as labels")
    parser.add_argument("--max-packages", type=int, default=4000)
    parser.add_argument("--min-words", type=int, default=20, help="descriptions shorter than this are left out")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    translations = {}
    for stanza in read_index(args.lists + "/*_main_i18n_Translation-en*"):
        if "Description-md5" in stanza and "Description-en" in stanza:
            translations[stanza["Description-md5"]] = long_description(stanza["Description-en"])
    if not translations:
        sys.exit("no Translation-en index: run apt-get update -o Acquire::Languages=en")

    packages, seen_sources, seen_openings = [], set(), set()
    for stanza in read_index(args.lists + "/*_main_binary-*_Packages*"):
        tags = [t.strip() for t in stanza.get("Tag", "").replace("\n", " ").split(",") if t.strip()]
        if "role::program" not in tags:
            continue
        source = stanza.get("Source", stanza.get("Package", "")).split(" ")[0]
        text, opening = translations.get(stanza.get("Description-md5", ""), ("", ""))
        if not text or source in seen_sources or opening in seen_openings or len(text.split()) < args.min_words:
            continue
        topical = sorted({t for t in tags if t.split("::")[0] in TOPICAL_FACETS and not t.endswith("::TODO")})
        if not topical:
            continue
        seen_sources.add(source)
        seen_openings.add(opening)
        packages.append((stanza["Package"], text, topical))

    counts = collections.Counter(t for _, _, tags in packages for t in tags)
    kept = {t for t, _ in counts.most_common(args.labels)}
    rows = [(name, text, [t for t in tags if t in kept]) for name, text, tags in packages]
    rows = [r for r in rows if r[2]]
    random.Random(args.seed).shuffle(rows)
    rows = sorted(rows[: args.max_packages])
    with open(args.out, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["id", "text", "label"])
        for name, text, tags in rows:
            writer.writerow([name, text, ";".join(tags)])
    per_doc = sum(len(r[2]) for r in rows) / max(1, len(rows))
    print(f"{len(rows)} packages, {len(kept)} labels, {per_doc:.2f} labels per package -> {args.out}")
    for tag, n in counts.most_common(args.labels):
        print(f"  {tag}: {n}")


if __name__ == "__main__":
    main()
