// SPDX-License-Identifier: GPL-3.0-or-later
// The ratings browser tab: summary numbers, a histogram of rating values and the most-rated
// items.
#pragma once

#include <filesystem>

#include "core/store/project.hpp"
#include "ui/browsers/ratings_stats.hpp"
#include "ui/widgets/tab_page.hpp"

class QBarSet;
class QChartView;
class QFormLayout;
class QLabel;
class QTableWidget;

namespace latent::ui {

class RatingsBrowser final : public TabPage {
  Q_OBJECT

 public:
  RatingsBrowser(std::filesystem::path projectFile, qint64 datasetId, QWidget* parent = nullptr);

  const RatingsStats& stats() const noexcept { return m_stats; }
  // The histogram as drawn: the bar set (one value per bar) and the bar labels.
  QBarSet* histogramSet() const noexcept { return m_set; }
  QStringList histogramLabels() const;
  QTableWidget* itemTable() const noexcept { return m_items; }

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void load();
  void fill();
  void buildChart();

  std::filesystem::path m_projectFile;
  qint64 m_datasetId;
  core::DatasetInfo m_dataset;
  RatingsStats m_stats;
  bool m_hasStats = false;

  QLabel* m_title = nullptr;
  QFormLayout* m_form = nullptr;
  QChartView* m_chartView = nullptr;
  QBarSet* m_set = nullptr;
  QTableWidget* m_items = nullptr;
};

}  // namespace latent::ui
