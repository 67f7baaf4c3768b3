// SPDX-License-Identifier: GPL-3.0-or-later
// What the import dialog has been told, as core import requests, plus the two things done with
// it off the GUI thread: a preview of the first records, and the import itself.
#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

#include "core/data/data_kind.hpp"
#include "core/jobs/import_job.hpp"

namespace latent::ui {

struct ImportSettings {
  core::DataKind kind = core::DataKind::Corpus;
  // Only the request of `kind` is used; each carries the source and the dataset name.
  core::CorpusImportRequest corpus;
  core::GraphImportRequest graph;
  core::RatingsImportRequest ratings;
  core::TableImportRequest table;

  const std::filesystem::path& source() const;
};

struct ImportPreview {
  QStringList rawLines;       // the file's first lines as text (previewLines), a folder's texts
  QStringList headers;        // of the parsed table
  QVector<QStringList> rows;  // the first records as the importer reads them
  QString note;               // what the rows are ("the first 20 documents, format lines")
  QString error;              // why the file cannot be read ("FILE:LINE: reason"); rows empty then
  int errorLine = 0;          // the line of the source the error names (1-based), 0 when none
  // Corpora: the format the source is read as (Auto resolved), Auto when it could not be told.
  core::CorpusFormat corpusFormat = core::CorpusFormat::Auto;
};

inline constexpr int kPreviewRecords = 20;
// A folder corpus's raw preview: this many documents, three lines each.
inline constexpr int kPreviewFolderDocuments = 6;

// Reads at most `maxRecords` records with the real reader into memory (nothing is written).
ImportPreview computeImportPreview(const ImportSettings& settings, int maxRecords = kPreviewRecords);

// A reader's note as the dialog and the log show it: the command line's --directed and
// --undirected become the dialog's own choice ("Edges are: Directed").
QString importNoteText(const std::string& note);

// The import into `project`, all or nothing: its rows stay hidden until its last commit.
core::ImportResult runImport(core::Project& project, const ImportSettings& settings,
                             const core::ImportControl& control);

}  // namespace latent::ui
