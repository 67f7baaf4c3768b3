// SPDX-License-Identifier: GPL-3.0-or-later
// Topics against a document field (issue 20: "each topic's share by year, party or any label
// column"): for any topic run with document proportions, each topic's share of the words of the
// documents with each value of a chosen field (the time, the label or a metadata column) —
// stacked areas or lines along a numeric field, stacked bars per category. Topics are named and
// coloured as on the Topics page; clicking one opens it there.
#pragma once

#include <QStringList>
#include <QWidget>

#include <memory>

#include "core/eval/topic_shares_by_field.hpp"

class QChartView;
class QCheckBox;
class QComboBox;
class QLabel;

namespace latent::ui {

struct TopicRunData;

class TopicFieldView final : public QWidget {
  Q_OBJECT

 public:
  explicit TopicFieldView(QWidget* parent = nullptr);

  void setData(std::shared_ptr<const TopicRunData> data);
  void setLabels(const QStringList& labels);
  // Breaks the topics down by `field` ("time", "label" or a metadata column); the shares are
  // computed off the GUI thread and shown when ready (sharesShown()).
  void setField(const QString& field);
  QStringList fields() const;
  void setStacked(bool stacked);

  // The shares shown, for tests and export.
  const core::FieldTopicShares& shares() const noexcept { return m_shares; }
  QChartView* chartView() const noexcept { return m_chart; }
  QString caption() const;

 Q_SIGNALS:
  void sharesShown();
  void topicActivated(int topic);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void compute();
  void draw();

  std::shared_ptr<const TopicRunData> m_data;
  QStringList m_labels;
  core::FieldTopicShares m_shares;
  QString m_error;
  int m_generation = 0;
  QComboBox* m_field = nullptr;
  QCheckBox* m_stacked = nullptr;
  QChartView* m_chart = nullptr;
  QLabel* m_caption = nullptr;
};

}  // namespace latent::ui
