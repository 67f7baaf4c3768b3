// SPDX-License-Identifier: GPL-3.0-or-later
// Precision-recall of document retrieval for several runs of one labelled corpus, overlaid (000
// §27.7.3.1, Fig. 27.33): the curves core::retrievalForRuns computes, one line per run.
#pragma once

#include <QList>
#include <QString>

#include <cstdint>
#include <filesystem>
#include <vector>

#include "core/jobs/run_retrieval.hpp"
#include "ui/widgets/tab_page.hpp"

class QChartView;
class QCheckBox;
class QLabel;
class QPushButton;

namespace latent::ui {

struct PrecisionRecallData {
  std::vector<core::RunRetrieval> runs;  // in the order asked for
  QString error;                         // the engine's message when the runs cannot be compared
};

// Off the GUI thread: scores the runs at core::defaultRecallLevels() through its own read-only
// connection; any error (runs of different splits, no labels, no representation) comes back in
// `error`, never as an exception.
PrecisionRecallData loadPrecisionRecall(const std::filesystem::path& projectFile,
                                        const std::vector<std::int64_t>& runIds);

// A tab of its own (the main window opens one per set of runs): the curves, a caption per run
// with its representation and counts, recall on a log scale or not, and Export CSV with the
// columns of `latent-cli retrieval --out`.
class PrecisionRecallView final : public TabPage {
  Q_OBJECT

 public:
  PrecisionRecallView(std::filesystem::path projectFile, QList<qint64> runIds, QWidget* parent = nullptr);

  // "retrieval:3,5": the key of the tab for these runs, whatever their order.
  static QString keyFor(QList<qint64> runIds);

  const QList<qint64>& runIds() const noexcept { return m_runIds; }
  const PrecisionRecallData& data() const noexcept { return m_data; }
  QChartView* chartView() const noexcept { return m_view; }
  QCheckBox* logRecallBox() const noexcept { return m_logRecall; }
  QPushButton* exportButton() const noexcept { return m_export; }
  // The legend entry of run `index`: "#3 rsm — MAP 0.912".
  QString seriesName(std::size_t index) const;
  QString captionText() const;

  // Writes the curves as `latent-cli retrieval --out` does (core::writeRetrievalCsv).
  bool exportCsv(const QString& file, QString* error = nullptr) const;
  // Computes the curves again in the background (the runs may have finished meanwhile); the
  // curves shown stay until the new ones (or an error) arrive, then computed() follows.
  void reload();
  bool isComputing() const noexcept { return m_computing; }

 Q_SIGNALS:
  // The curves or the error of the latest reload() are shown.
  void computed();

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void rebuild();
  void exportInteractively();

  std::filesystem::path m_file;
  QList<qint64> m_runIds;
  PrecisionRecallData m_data;
  int m_generation = 0;
  bool m_computing = false;
  QChartView* m_view = nullptr;
  QCheckBox* m_logRecall = nullptr;
  QPushButton* m_export = nullptr;
  QLabel* m_caption = nullptr;
};

}  // namespace latent::ui
