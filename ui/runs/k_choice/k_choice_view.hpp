// SPDX-License-Identifier: GPL-3.0-or-later
// Choosing K (000 §27.3.8): the held-out metric of every finished run that differs from this one
// only in K, against K, with ICL beside it for block models, and which K each criterion prefers;
// beside them other models' runs scored on the same held-out documents (003's comparison of
// models under both protocols).
#pragma once

#include <QWidget>

#include <filesystem>
#include <vector>

#include "core/jobs/comparable_runs.hpp"

class QChartView;
class QLabel;

namespace latent::ui {

struct KChoiceData {
  core::RunRecord run;               // the run whose tab this is
  std::vector<core::KPoint> points;  // comparable runs, this one included
  // Other models' runs on the same held-out documents (same fraction and seed), to compare models.
  std::vector<core::ModelCurve> otherModels;
  QString heldoutName;
  int distinctK = 0;
};

// Off the GUI thread: reads the runs of the run's dataset. Throws what the store throws.
KChoiceData loadKChoice(const std::filesystem::path& projectFile, std::int64_t runId);

class KChoiceView final : public QWidget {
  Q_OBJECT

 public:
  explicit KChoiceView(QWidget* parent = nullptr);
  void setData(KChoiceData data);
  const KChoiceData& data() const noexcept { return m_data; }
  QChartView* chartView() const noexcept { return m_view; }
  // The sentence under the chart (which K each criterion picks).
  QString captionText() const;

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void rebuild();

  KChoiceData m_data;
  QChartView* m_view = nullptr;
  QLabel* m_caption = nullptr;
};

}  // namespace latent::ui
