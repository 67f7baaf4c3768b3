// SPDX-License-Identifier: GPL-3.0-or-later
// What a file dropped on the window is: a project to open, or data of which kind to import,
// guessed from its name and, for delimited text, from its header line.
#pragma once

#include <QString>

#include <optional>

#include "core/data/data_kind.hpp"

namespace latent::ui {

bool isProjectFile(const QString& path);

// The kind of data `path` most likely holds, or nothing when its name and first line do not
// tell (a CSV of three anonymous columns could be edges or ratings): the window then asks.
// Folders are corpora (one document per file); graph formats by extension (GML, GraphML, Pajek,
// edge lists); delimited text by its header (a text column: corpus; user, item and rating
// columns: ratings; source and target: graph).
std::optional<core::DataKind> guessDataKind(const QString& path);

}  // namespace latent::ui
