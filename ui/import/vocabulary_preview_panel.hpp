// SPDX-License-Identifier: GPL-3.0-or-later
// The import dialog's vocabulary preview: what the stop words, min-df, max-df, the cap and the
// shortest word length keep of a corpus source (words, tokens, the most frequent words) and what
// each removes, and how many documents a metadata file matches. The source's words are counted once
// off the GUI thread by the import's own reader and tokeniser (core/io/vocabulary_preview.hpp) and
// counted again only when the source, its columns or the tokeniser change; other changes apply the
// import's own rules to those counts. Updates are debounced, and a superseded count is stopped.
#pragma once

#include <QGroupBox>
#include <QTimer>

#include <memory>
#include <stop_token>

#include "core/jobs/import_job.hpp"

class QLabel;

namespace latent::core {
struct CorpusWordCounts;
}

namespace latent::ui {

class VocabularyPreviewPanel final : public QGroupBox {
  Q_OBJECT

 public:
  // The most documents read for the preview: past it the counts are of the first documents (said).
  static constexpr int kMaxDocuments = 10000;

  explicit VocabularyPreviewPanel(QWidget* parent = nullptr);
  ~VocabularyPreviewPanel() override;

  // The import as it stands; the preview follows after a short pause. An empty source clears it.
  void setRequest(const core::CorpusImportRequest& request);

  // The words an import with the last request would keep; -1 before the first preview or on error.
  qint64 keptWords() const noexcept { return m_keptWords; }
  // The preview as plain text (what the panel shows), and the metadata file's line.
  QString summaryText() const;
  QString metadataText() const;
  // True while a preview is scheduled or being computed.
  bool isPending() const noexcept { return m_delay.isActive() || m_shown != m_generation; }

 Q_SIGNALS:
  // A preview (or its error) is shown.
  void updated();

 private:
  void compute();

  core::CorpusImportRequest m_request;
  QTimer m_delay;
  int m_generation = 0;
  int m_shown = 0;  // the generation on show
  std::stop_source m_stop;
  QString m_countsKey;
  std::shared_ptr<const core::CorpusWordCounts> m_counts;
  qint64 m_keptWords = -1;
  QLabel* m_summary = nullptr;
  QLabel* m_metadata = nullptr;
};

}  // namespace latent::ui
