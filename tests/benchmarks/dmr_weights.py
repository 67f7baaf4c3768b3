#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Prints what a finished dmr run's weights say (Mimno & McCallum 2008): for each feature, the topics
# it raises and lowers most, each with its top words and the factor by which its prior weight alpha
# changes over the feature's range on the training documents (a number: smallest to largest value;
# a category or label: with it against without it).
#
#   /usr/bin/python3 tests/benchmarks/dmr_weights.py PROJECT.latent RUN_ID [FEATURE ...] [--top N]
import json
import math
import sqlite3
import struct
import sys


def matrix(db, run, name):
    # Doubles, or floats where the element is 'f32' (schema 15); in one blob or in parts (schema 13).
    columns = {row[1] for row in db.execute("PRAGMA table_info(run_matrices)")}
    element = "element" if "element" in columns else "'f64'"
    rows, cols, kind, blob = db.execute(
        "SELECT rows, cols, %s, data FROM run_matrices WHERE run_id = ? AND name = ? AND iteration = -1" % element,
        (run, name)).fetchone()
    if len(blob) == 0 and rows * cols > 0:
        blob = b"".join(part for (part,) in db.execute(
            "SELECT data FROM run_matrix_parts WHERE run_id = ? AND name = ? AND iteration = -1 ORDER BY part",
            (run, name)))
    values = struct.unpack('<%d%s' % (rows * cols, 'f' if kind == 'f32' else 'd'), blob)
    return [[values[c * rows + r] for c in range(cols)] for r in range(rows)]  # column-major


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    top = int(sys.argv[sys.argv.index('--top') + 1]) if '--top' in sys.argv else 3
    if '--top' in sys.argv:
        args.remove(str(top))
    db = sqlite3.connect(args[0])
    run = int(args[1])
    wanted = args[2:]
    dataset, metrics = db.execute("SELECT dataset_id, final_metrics FROM runs WHERE id = ?", (run,)).fetchone()
    names = json.loads(metrics)['feature_names']
    weights = matrix(db, run, 'feature_weights')
    ranges = matrix(db, run, 'feature_ranges')
    phi = matrix(db, run, 'topic_word')
    words = [w for (w,) in db.execute("SELECT word FROM vocabulary WHERE dataset_id = ? ORDER BY word_id", (dataset,))]
    top_words = [' '.join(words[i] for i in sorted(range(len(row)), key=lambda i: -row[i])[:8]) for row in phi]
    for f, name in enumerate(names):
        if f == 0 or (wanted and name not in wanted):
            continue
        low, high, centre, scale = ranges[f]
        span = (high - low) / scale if scale > 0 else 0.0
        effects = sorted(((weights[k][f] * span, k) for k in range(len(weights))), reverse=True)
        what = ('%g to %g' % (low, high)) if (low, high, centre, scale) != (0, 1, 0, 1) else 'without -> with'
        print('%s (%s)' % (name, what))
        for change, k in effects[:top] + [(None, None)] + effects[-top:]:
            if change is None:
                print('   ...')
                continue
            print('   topic %2d  x %-8.3g %s' % (k + 1, math.exp(change), top_words[k]))


main()
