// SPDX-License-Identifier: GPL-3.0-or-later
// datasetNameForSource: the last meaningful part of a path.
#include "ui/import/dataset_name.hpp"

#include <QFileInfo>
#include <QStringList>

namespace latent::ui {

QString datasetNameForSource(const QString& path) {
  static const QStringList generic{QStringLiteral("texts"),  QStringLiteral("text"),      QStringLiteral("txt"),
                                   QStringLiteral("docs"),   QStringLiteral("documents"), QStringLiteral("data"),
                                   QStringLiteral("corpus"), QStringLiteral("files"),     QStringLiteral("raw"),
                                   QStringLiteral("input")};
  QString trimmed = path.trimmed();
  while (trimmed.size() > 1 && (trimmed.endsWith(QLatin1Char('/')) || trimmed.endsWith(QLatin1Char('\\'))))
    trimmed.chop(1);
  const QFileInfo info(trimmed);
  const QString name = info.completeBaseName();
  // Only a name without an extension (a folder, as a rule) is replaced: "docs.txt" is a file's own name.
  if (!info.suffix().isEmpty() || !generic.contains(name, Qt::CaseInsensitive)) return name;
  const QString parent = QFileInfo(info.path()).fileName();
  return parent.isEmpty() || parent == QLatin1String(".") ? name : parent;
}

}  // namespace latent::ui
