// SPDX-License-Identifier: GPL-3.0-or-later
// Guessing the kind of a dropped file: extensions first, then the header of delimited text.
#include "ui/import/dropped_file.hpp"

#include <QFileInfo>
#include <QSet>

#include <string>
#include <vector>

#include "core/util/csv_reader.hpp"
#include "ui/util/qt_convert.hpp"

namespace latent::ui {
namespace {

// The header record, lower-cased, read as the importers read it (delimiter sniffed, quotes
// handled); empty when the file cannot be read as delimited text.
QSet<QString> headerColumns(const QString& path) {
  QSet<QString> columns;
  try {
    core::CsvReader reader(toPath(path));
    std::vector<std::string> header;
    if (reader.next(header))
      for (const auto& column : header) columns.insert(qs(column).trimmed().toLower());
  } catch (const std::exception&) {
    // not text, or unreadable: no guess from the header
  }
  return columns;
}

bool anyOf(const QSet<QString>& columns, std::initializer_list<const char*> names) {
  for (const char* name : names)
    if (columns.contains(QLatin1String(name))) return true;
  return false;
}

}  // namespace

bool isProjectFile(const QString& path) {
  return QFileInfo(path).suffix().compare(QLatin1String("latent"), Qt::CaseInsensitive) == 0;
}

std::optional<core::DataKind> guessDataKind(const QString& path) {
  const QFileInfo info(path);
  if (info.isDir()) return core::DataKind::Corpus;
  const QString suffix = info.suffix().toLower();
  const QString name = info.fileName().toLower();
  static const QSet<QString> graphSuffixes = {
      QStringLiteral("gml"), QStringLiteral("graphml"), QStringLiteral("net"),
      QStringLiteral("paj"), QStringLiteral("pajek"),   QStringLiteral("ncol"),
      QStringLiteral("lgl"), QStringLiteral("edges"),   QStringLiteral("edgelist")};
  if (graphSuffixes.contains(suffix)) return core::DataKind::Graph;
  if (suffix == QLatin1String("jsonl") || suffix == QLatin1String("ldac") || suffix == QLatin1String("txt") ||
      name.startsWith(QLatin1String("docword")))
    return core::DataKind::Corpus;
  if (name == QLatin1String("u.data") || name.contains(QLatin1String("rating"))) return core::DataKind::Ratings;
  if (suffix != QLatin1String("csv") && suffix != QLatin1String("tsv")) return std::nullopt;
  const auto columns = headerColumns(path);
  if (anyOf(columns, {"text", "body", "content", "abstract"})) return core::DataKind::Corpus;
  const int ratingParts = int(anyOf(columns, {"user", "user_id", "userid", "student", "rater"})) +
                          int(anyOf(columns, {"item", "item_id", "itemid", "movie", "movieid", "product"})) +
                          int(anyOf(columns, {"rating", "score", "stars", "grade"}));
  if (ratingParts >= 2) return core::DataKind::Ratings;
  if ((columns.contains(QStringLiteral("source")) && columns.contains(QStringLiteral("target"))) ||
      (columns.contains(QStringLiteral("from")) && columns.contains(QStringLiteral("to"))))
    return core::DataKind::Graph;
  return std::nullopt;
}

}  // namespace latent::ui
