// SPDX-License-Identifier: GPL-3.0-or-later
// Formatting of counts, summaries and run labels.
#include "ui/util/format.hpp"

#include <QLocale>

#include <cmath>

#include "ui/util/qt_convert.hpp"

namespace latent::ui {
namespace {

std::int64_t summaryInt(const nlohmann::json& summary, const char* key) {
  const auto it = summary.find(key);
  return it != summary.end() && it->is_number() ? it->get<std::int64_t>() : 0;
}

}  // namespace

QString formatCount(std::int64_t n) { return QLocale().toString(static_cast<qlonglong>(n)); }

QString countOf(std::int64_t n, const QString& singular, const QString& plural) {
  return formatCount(n) + QLatin1Char(' ') + (n == 1 ? singular : plural);
}

QString formatPercent(double fraction) {
  return QStringLiteral("%1 %").arg(QLocale().toString(fraction * 100.0, 'f', 1));
}

QString formatReal(double x, int digits) {
  if (!std::isfinite(x)) return QStringLiteral("–");
  const double magnitude = std::abs(x);
  if (magnitude != 0.0 && (magnitude >= 1e7 || magnitude < 1e-4)) return QLocale().toString(x, 'g', digits);
  // Fixed notation with `digits` significant digits, at least one decimal for non-integers.
  const int intDigits = magnitude >= 1.0 ? static_cast<int>(std::floor(std::log10(magnitude))) + 1 : 0;
  int decimals = std::max(1, digits - intDigits);
  if (magnitude < 1.0 && magnitude > 0.0) decimals = digits - static_cast<int>(std::floor(std::log10(magnitude))) - 1;
  return QLocale().toString(x, 'f', std::min(decimals, 10));
}

QString formatCompact(double x, int digits) {
  QString text = formatReal(x, digits);
  const QString point = QLocale().decimalPoint();
  if (!text.contains(point) || text.contains(QLatin1Char('e'), Qt::CaseInsensitive)) return text;
  while (text.endsWith(QLatin1Char('0'))) text.chop(1);
  if (text.endsWith(point)) text.chop(point.size());
  return text;
}

QString formatBytes(std::int64_t bytes) {
  if (bytes < 1000) return QObject::tr("%1 bytes").arg(bytes);
  const char* units[] = {"KB", "MB", "GB", "TB"};
  double value = static_cast<double>(bytes);
  int unit = -1;
  while (value >= 1000.0 && unit < 3) {
    value /= 1000.0;
    ++unit;
  }
  return QStringLiteral("%1 %2").arg(formatCompact(value, 3), QLatin1String(units[unit]));
}

QString formatSeconds(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return QStringLiteral("–");
  if (seconds < 0.01) return QStringLiteral("%1 ms").arg(formatCompact(seconds * 1000.0, 2));
  if (seconds < 10) return QStringLiteral("%1 s").arg(QLocale().toString(seconds, 'f', seconds < 1 ? 2 : 1));
  if (seconds < 60) return QStringLiteral("%1 s").arg(qRound(seconds));
  const auto total = static_cast<qint64>(std::llround(seconds));
  if (total < 3600) return QStringLiteral("%1 min %2 s").arg(total / 60).arg(total % 60);
  return QStringLiteral("%1 h %2 min").arg(total / 3600).arg((total % 3600) / 60);
}

QString kindTitle(core::DataKind kind) {
  switch (kind) {
    case core::DataKind::Corpus:
      return QObject::tr("Corpora");
    case core::DataKind::Graph:
      return QObject::tr("Graphs");
    case core::DataKind::Ratings:
      return QObject::tr("Ratings");
    case core::DataKind::Table:
      return QObject::tr("Tables");
  }
  return {};
}

QString kindNoun(core::DataKind kind) {
  switch (kind) {
    case core::DataKind::Corpus:
      return QObject::tr("corpus");
    case core::DataKind::Graph:
      return QObject::tr("graph");
    case core::DataKind::Ratings:
      return QObject::tr("ratings table");
    case core::DataKind::Table:
      return QObject::tr("numeric table");
  }
  return {};
}

QIcon themedIcon(const char* name) { return QIcon(QStringLiteral(":/icons/%1.svg").arg(QLatin1String(name))); }

QIcon kindIcon(core::DataKind kind) {
  switch (kind) {
    case core::DataKind::Corpus:
      return themedIcon("corpus");
    case core::DataKind::Graph:
      return themedIcon("graph");
    case core::DataKind::Ratings:
      return themedIcon("ratings");
    case core::DataKind::Table:
      return themedIcon("table");
  }
  return {};
}

QIcon appIcon() { return themedIcon("latent-studio"); }

QString datasetSummaryText(const core::DatasetInfo& dataset) {
  const auto& s = dataset.summary;
  const QString dot = QStringLiteral(" · ");
  switch (dataset.kind) {
    case core::DataKind::Corpus: {
      QString text = QObject::tr("%1 documents").arg(formatCount(summaryInt(s, "documents"))) + dot +
                     QObject::tr("%1 tokens").arg(formatCount(summaryInt(s, "tokens"))) + dot +
                     QObject::tr("%1 words").arg(formatCount(summaryInt(s, "vocabulary")));
      if (s.contains("has_text") && s["has_text"].is_boolean() && !s["has_text"].get<bool>())
        text += dot + QObject::tr("bag of words");
      if (s.contains("metadata_columns") && s["metadata_columns"].is_array()) {
        QStringList names;
        for (const auto& n : s["metadata_columns"])
          if (n.is_string()) names << qs(n.get<std::string>());
        if (!names.isEmpty()) text += dot + QObject::tr("metadata: %1").arg(names.join(QStringLiteral(", ")));
      }
      return text;
    }
    case core::DataKind::Graph: {
      const bool directed = s.value("directed", false);
      return QObject::tr("%1 nodes").arg(formatCount(summaryInt(s, "nodes"))) + dot +
             QObject::tr("%1 edges").arg(formatCount(summaryInt(s, "edges"))) + dot +
             (directed ? QObject::tr("directed") : QObject::tr("undirected"));
    }
    case core::DataKind::Ratings:
      return QObject::tr("%1 ratings").arg(formatCount(summaryInt(s, "ratings"))) + dot +
             QObject::tr("%1 users").arg(formatCount(summaryInt(s, "users"))) + dot +
             QObject::tr("%1 items").arg(formatCount(summaryInt(s, "items")));
    case core::DataKind::Table: {
      QString text = QObject::tr("%1 rows").arg(formatCount(summaryInt(s, "rows"))) + dot +
                     QObject::tr("%1 features").arg(formatCount(summaryInt(s, "features")));
      if (s.value("binary", false)) text += dot + QObject::tr("0/1");
      if (s.contains("label_column") && s["label_column"].is_string())
        text += dot + QObject::tr("labels: %1").arg(qs(s["label_column"].get<std::string>()));
      return text;
    }
  }
  return {};
}

const core::ModelInfo* findModel(const std::string& name) {
  for (const auto* info : core::modelCatalogue())
    if (info->name == name) return info;
  return nullptr;
}

std::optional<double> heldoutValue(const core::RunRecord& run) {
  const auto* info = findModel(run.model);
  if (!info || info->heldoutKey.empty()) return std::nullopt;
  const auto it = run.finalMetrics.find(info->heldoutKey);
  if (it == run.finalMetrics.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

QString statusText(core::RunStatus status) {
  switch (status) {
    case core::RunStatus::Running:
      return QObject::tr("running");
    case core::RunStatus::Finished:
      return QObject::tr("finished");
    case core::RunStatus::Stopped:
      return QObject::tr("stopped");
    case core::RunStatus::Failed:
      return QObject::tr("failed");
    case core::RunStatus::Interrupted:
      return QObject::tr("interrupted");  // its program ended mid-run
  }
  return {};
}

QString runTitle(const core::RunRecord& run) {
  if (!run.name.empty())
    return QStringLiteral("#%1 %2 (%3) — %4").arg(run.id).arg(qs(run.name), qs(run.model), statusText(run.status));
  return QStringLiteral("#%1 %2 — %3").arg(run.id).arg(qs(run.model), statusText(run.status));
}

namespace {

QString heldoutShort(const core::RunRecord& run) {
  const auto value = heldoutValue(run);
  if (!value) return {};
  // The short metric name: "heldout_perplexity" -> "perplexity".
  const auto* info = findModel(run.model);
  QString metric = info ? qs(info->heldoutKey) : QString();
  metric.remove(QStringLiteral("heldout_"));
  metric.replace(QLatin1Char('_'), QLatin1Char(' '));
  return QStringLiteral("%1 %2").arg(metric, formatReal(*value, 5));
}

}  // namespace

QString runSummary(const core::RunRecord& run) {
  QStringList parts;
  if (const QString h = heldoutShort(run); !h.isEmpty()) parts << QObject::tr("held-out %1").arg(h);
  if (run.seconds) parts << formatSeconds(*run.seconds);
  parts << QObject::tr("seed %1").arg(run.seed);
  return parts.join(QStringLiteral(" · "));
}

QString runLabel(const core::RunRecord& run) {
  QString label = runTitle(run);
  if (const QString h = heldoutShort(run); !h.isEmpty()) label += QStringLiteral(", ") + h;
  return label;
}

}  // namespace latent::ui
