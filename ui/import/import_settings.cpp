// SPDX-License-Identifier: GPL-3.0-or-later
// Previews through the real readers (into memory, stopped after a few records) and the import.
#include "ui/import/import_settings.hpp"

#include <QObject>

#include <algorithm>
#include <optional>

#include <nlohmann/json.hpp>

#include "core/data/corpus_sink.hpp"
#include "core/io/corpus_import.hpp"
#include "core/io/graph_import.hpp"
#include "core/io/metadata_file.hpp"
#include "core/io/ratings_import.hpp"
#include "core/io/table_import.hpp"
#include "core/io/text_preview.hpp"
#include "core/util/errors.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"

namespace latent::ui {
namespace {

constexpr int kImportPreviewWords = 14;

// The readers' notes are sentence fragments ("edge list read as undirected; ..."): each becomes
// a sentence of the note.
void appendNotes(ImportPreview& out, const std::vector<std::string>& notes) {
  for (const auto& n : notes) {
    QString sentence = importNoteText(n).trimmed();
    if (sentence.isEmpty()) continue;
    sentence[0] = sentence[0].toUpper();
    if (!sentence.endsWith(QLatin1Char('.'))) sentence += QLatin1Char('.');
    out.note += QLatin1Char(' ') + sentence;
  }
}

// A document's named metadata ({"party": "Whig"}) as "party: Whig; …", in the file's order.
QString metadataCell(const std::string& json) {
  if (json.empty()) return {};
  const auto object = nlohmann::ordered_json::parse(json, nullptr, false);
  if (!object.is_object()) return qs(json);
  QStringList parts;
  for (const auto& [name, value] : object.items())
    parts << QStringLiteral("%1: %2").arg(qs(name), qs(value.is_string() ? value.get<std::string>() : value.dump()));
  return parts.join(QStringLiteral("; "));
}

void previewCorpus(const ImportSettings& s, int maxRecords, ImportPreview& out) {
  const auto& r = s.corpus;
  core::CorpusReadOptions read = r.read;
  // The importer's own default: English stop words for text, none for bag-of-words files.
  const auto format = read.format == core::CorpusFormat::Auto ? core::detectCorpusFormat(r.source) : read.format;
  read.format = format;
  core::CorpusBuildOptions build;
  build.tokenizer = r.tokenizer;
  build.stopWords = core::StopWords::fromSpec(r.stopWords.value_or(core::isBagOfWords(format) ? "none" : "en"));
  out.corpusFormat = format;
  // The metadata file joined as the import joins it, so the Time and Label columns show its values.
  std::optional<core::MetadataFile> metadataFile;
  core::MetadataJoin join;
  if (!r.metadataFile.empty()) {
    metadataFile.emplace(r.metadataFile, r.metadataKey);
    join = core::planMetadataJoin(*metadataFile, read);
  }
  core::MemoryCorpusSink sink;
  core::DocumentMetadataSink joined(sink, metadataFile ? &*metadataFile : nullptr, join);
  core::CorpusBuilder builder(std::move(build), joined);
  core::ImportControl control;
  control.maxRecords = maxRecords;
  core::readCorpus(r.source, read, builder, control);
  builder.finish();
  out.headers = {QObject::tr("#"),     QObject::tr("Id"),       QObject::tr("Title"),  QObject::tr("Time"),
                 QObject::tr("Label"), QObject::tr("Metadata"), QObject::tr("Tokens"), QObject::tr("First kept words")};
  for (std::size_t d = 0; d < sink.documents.size(); ++d) {
    const auto& doc = sink.documents[d];
    QStringList words;
    for (std::size_t i = 0; i < doc.wordIds.size() && words.size() < kImportPreviewWords; ++i) {
      const auto w = static_cast<std::size_t>(doc.wordIds[i]);
      if (w < sink.vocabulary.size()) words << qs(sink.vocabulary[w].word);
    }
    if (doc.wordIds.size() > static_cast<std::size_t>(kImportPreviewWords)) words << QStringLiteral("…");
    out.rows.push_back({QString::number(d + 1), qs(doc.id), qs(doc.title), qs(doc.time), qs(doc.label),
                        metadataCell(doc.metadata), formatCount(static_cast<std::int64_t>(doc.wordIds.size())),
                        words.join(QLatin1Char(' '))});
  }
  out.note =
      QObject::tr("The first %1 as they would be imported (format: %2; before vocabulary pruning).")
          .arg(countOf(out.rows.size(), QObject::tr("document"), QObject::tr("documents")), qs(core::toString(format)));
}

void previewGraph(const ImportSettings& s, int maxRecords, ImportPreview& out) {
  core::ImportControl control;
  control.maxRecords = maxRecords;
  core::GraphReadReport report;
  const auto graph = core::readGraph(s.graph.source, s.graph.read, control, &report);
  out.headers = {QObject::tr("Source"), QObject::tr("Target"), QObject::tr("Weight")};
  auto name = [&graph](std::int32_t node) {
    const auto n = static_cast<std::size_t>(node);
    if (n >= graph.nodeCount()) return QString::number(node);
    const QString id = qs(graph.nodeIds[n]), shown = qs(graph.nodeNames[n]);
    return shown == id ? id : QStringLiteral("%1 (%2)").arg(shown, id);
  };
  for (const auto& e : graph.edges) {
    if (out.rows.size() >= maxRecords) break;
    out.rows.push_back({name(e.source), name(e.target), formatCompact(e.weight)});
  }
  out.note =
      QObject::tr("The first %1 edges read (format: %2, %3).")
          .arg(out.rows.size())
          .arg(qs(core::toString(report.format)), graph.directed ? QObject::tr("directed") : QObject::tr("undirected"));
  appendNotes(out, report.notes);
}

void previewRatings(const ImportSettings& s, int maxRecords, ImportPreview& out) {
  core::ImportControl control;
  control.maxRecords = maxRecords;
  core::RatingsReadReport report;
  const auto ratings = core::readRatings(s.ratings.source, s.ratings.read, control, &report);
  out.headers = {QObject::tr("User"), QObject::tr("Item"), QObject::tr("Rating")};
  if (ratings.hasTime) out.headers << QObject::tr("Time");
  for (const auto& r : ratings.ratings) {
    if (out.rows.size() >= maxRecords) break;
    const auto u = static_cast<std::size_t>(r.user), i = static_cast<std::size_t>(r.item);
    QString item = i < ratings.itemIds.size() ? qs(ratings.itemIds[i]) : QString::number(r.item);
    if (i < ratings.itemNames.size() && ratings.itemNames[i] != ratings.itemIds[i])
      item += QStringLiteral(" (%1)").arg(qs(ratings.itemNames[i]));
    QStringList row{u < ratings.userIds.size() ? qs(ratings.userIds[u]) : QString::number(r.user), item,
                    formatReal(r.value, 6)};
    if (ratings.hasTime) row << QString::number(r.time);
    out.rows.push_back(row);
  }
  out.note = QObject::tr("The first %1 ratings read (format: %2).")
                 .arg(out.rows.size())
                 .arg(qs(report.variant.empty() ? std::string(core::toString(report.format)) : report.variant));
  appendNotes(out, report.notes);
}

// The first columns shown of a wide table; the note says how many there are.
constexpr std::size_t kImportPreviewFeatures = 30;

void previewTable(const ImportSettings& s, int maxRecords, ImportPreview& out) {
  core::ImportControl control;
  control.maxRecords = maxRecords;
  core::TableReadReport report;
  const auto table = core::readTable(s.table.source, s.table.read, control, &report);
  const std::size_t shownFeatures = std::min(table.featureCount(), kImportPreviewFeatures);
  out.headers = {QObject::tr("Row")};
  if (table.hasLabels()) out.headers << qs(table.labelName);
  for (std::size_t f = 0; f < shownFeatures; ++f) out.headers << qs(table.featureNames[f]);
  if (shownFeatures < table.featureCount()) out.headers << QStringLiteral("…");
  for (std::size_t r = 0; r < table.rowCount() && out.rows.size() < maxRecords; ++r) {
    QStringList row{qs(table.rowNames[r])};
    if (table.hasLabels()) row << qs(table.rowLabels[r]);
    for (std::size_t f = 0; f < shownFeatures; ++f)
      row << formatCompact(table.values(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(f)), 6);
    if (shownFeatures < table.featureCount()) row << QStringLiteral("…");
    out.rows.push_back(row);
  }
  out.note = QObject::tr("The first %1 rows read, %2 features each (format: %3).")
                 .arg(out.rows.size())
                 .arg(table.featureCount())
                 .arg(qs(core::toString(report.format)));
  appendNotes(out, report.notes);
}

}  // namespace

const std::filesystem::path& ImportSettings::source() const {
  switch (kind) {
    case core::DataKind::Corpus:
      return corpus.source;
    case core::DataKind::Graph:
      return graph.source;
    case core::DataKind::Ratings:
      return ratings.source;
    case core::DataKind::Table:
      return table.source;
  }
  return corpus.source;
}

QString importNoteText(const std::string& note) {
  QString text = qs(note);
  // Longest first: "--undirected" holds "directed".
  text.replace(QStringLiteral("--undirected"), QObject::tr("“Edges are: Undirected”"));
  text.replace(QStringLiteral("--directed"), QObject::tr("“Edges are: Directed”"));
  return text;
}

ImportPreview computeImportPreview(const ImportSettings& settings, int maxRecords) {
  ImportPreview out;
  try {
    // A folder corpus shows its documents' first lines: the texts are what the user checks.
    std::error_code ec;
    const bool textFolder = settings.kind == core::DataKind::Corpus &&
                            std::filesystem::is_directory(settings.source(), ec) &&
                            (settings.corpus.read.format == core::CorpusFormat::Auto ||
                             settings.corpus.read.format == core::CorpusFormat::Folder);
    const auto lines = textFolder ? core::previewFolderTexts(settings.source(), kPreviewFolderDocuments, 3, 400)
                                  : core::previewLines(settings.source(), 20, 400);
    for (const auto& line : lines) out.rawLines << qs(line);
  } catch (const std::exception& e) {
    out.rawLines << QObject::tr("(cannot show the file: %1)").arg(qs(e.what()));
  }
  try {
    switch (settings.kind) {
      case core::DataKind::Corpus:
        previewCorpus(settings, maxRecords, out);
        break;
      case core::DataKind::Graph:
        previewGraph(settings, maxRecords, out);
        break;
      case core::DataKind::Ratings:
        previewRatings(settings, maxRecords, out);
        break;
      case core::DataKind::Table:
        previewTable(settings, maxRecords, out);
        break;
    }
  } catch (const core::InputError& e) {
    out.rows.clear();
    out.headers.clear();
    out.error = qs(e.what());
    // Only a line of the previewed file itself can be pointed at in the raw lines.
    if (e.line() > 0 && toPath(qs(e.file())) == settings.source()) out.errorLine = static_cast<int>(e.line());
  } catch (const std::exception& e) {
    out.rows.clear();
    out.headers.clear();
    out.error = qs(e.what());
  }
  return out;
}

core::ImportResult runImport(core::Project& project, const ImportSettings& settings,
                             const core::ImportControl& control) {
  switch (settings.kind) {
    case core::DataKind::Corpus:
      return core::importCorpus(project, settings.corpus, control);
    case core::DataKind::Graph:
      return core::importGraph(project, settings.graph, control);
    case core::DataKind::Ratings:
      return core::importRatings(project, settings.ratings, control);
    case core::DataKind::Table:
      return core::importTable(project, settings.table, control);
  }
  throw std::logic_error("unknown data kind");
}

}  // namespace latent::ui
