// SPDX-License-Identifier: GPL-3.0-or-later
// The name the import dialog proposes for a dataset, from its source's path alone.
#pragma once

#include <QString>

namespace latent::ui {

// The source's name without its extension ("sotu.jsonl" -> "sotu"); when it has no extension (a
// folder) and is a generic name that says nothing of the data (texts, text, txt, docs, documents,
// data, corpus, files, raw, input), the name of the folder holding it (".../sotu/texts" -> "sotu").
// Only the path is read, not the disk, and a trailing slash is ignored.
QString datasetNameForSource(const QString& path);

}  // namespace latent::ui
