// SPDX-License-Identifier: GPL-3.0-or-later
// How datasets, runs and numbers are written for people: one place, so the tree, the run panel
// and the views say the same thing the same way.
#pragma once

#include <QIcon>
#include <QString>

#include <cstdint>
#include <optional>

#include "core/data/data_kind.hpp"
#include "core/models/model.hpp"
#include "core/store/project.hpp"
#include "core/store/run_store.hpp"

namespace latent::ui {

QString formatCount(std::int64_t n);  // "852,000" in the user's locale
// "1 run", "3 runs" (English until translations exist; Qt's %n needs a translator for plurals).
QString countOf(std::int64_t n, const QString& singular, const QString& plural);
QString formatReal(double x, int digits = 4);  // significant digits, no exponent for everyday sizes
// formatReal without trailing zeros: "1", "0.01", "4,352.37" (for values, not table columns).
QString formatCompact(double x, int digits = 6);
QString formatPercent(double fraction);   // "12.5 %": one decimal, in the user's locale
QString formatSeconds(double seconds);    // "3 ms", "0.42 s", "12 s", "3 min 20 s"
QString formatBytes(std::int64_t bytes);  // "512 bytes", "3.4 KB", "155 MB", "1.2 GB" (powers of 1000)

QString kindTitle(core::DataKind kind);  // "Corpora", "Graphs", "Ratings" (tree groups)
QString kindNoun(core::DataKind kind);   // "corpus", "graph", "ratings table"
QIcon kindIcon(core::DataKind kind);
QIcon appIcon();
QIcon themedIcon(const char* name);  // one of resources/icons/*.svg, by base name

// "240 documents · 852,000 tokens · 9,812 words"
QString datasetSummaryText(const core::DatasetInfo& dataset);

// The catalogue entry of a model name, or null for a model this build does not know.
const core::ModelInfo* findModel(const std::string& name);

// The held-out number of a run's final metrics (via ModelInfo::heldoutKey), when it has one.
std::optional<double> heldoutValue(const core::RunRecord& run);
QString statusText(core::RunStatus status);  // "running", "finished", "stopped", "failed", "interrupted"
// "#3 unigram — finished, perplexity 1,234.5"; a run with a name: "#3 baseline (unigram) — finished, ..."
QString runLabel(const core::RunRecord& run);
// The two halves of runLabel for two-line displays: "#3 unigram — finished" and
// "perplexity 1,234.5 · 0.4 s".
QString runTitle(const core::RunRecord& run);
QString runSummary(const core::RunRecord& run);

}  // namespace latent::ui
