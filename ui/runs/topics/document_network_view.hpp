// SPDX-License-Identifier: GPL-3.0-or-later
// The document network of a topic-model run on a linked corpus (issue 18): every document a node
// placed by a force-directed layout of the links, coloured by its most likely topic (the Topics
// page's colours and labels), the corpus's links as grey lines and, for a model of linked
// documents, its most likely new links drawn over them, dashed, opacity by probability, as many
// as a slider says. Hovering a document names it, its topic and its links; clicking opens it in
// the reader.
#pragma once

#include <QStringList>
#include <QWidget>

#include <memory>

class QCheckBox;
class QLabel;
class QSlider;

namespace latent::ui {

struct TopicRunData;
class NetworkCanvas;

class DocumentNetworkView final : public QWidget {
  Q_OBJECT

 public:
  explicit DocumentNetworkView(QWidget* parent = nullptr);

  void setData(std::shared_ptr<const TopicRunData> data);
  void setLabels(const QStringList& labels);
  // How many of the run's predicted links are drawn, most likely first.
  void setPredictedShown(int count);
  int predictedShown() const noexcept;

  NetworkCanvas* canvas() const noexcept { return m_canvas; }
  QSlider* slider() const noexcept { return m_slider; }
  QString summary() const;
  QString legend() const;
  // The most likely topic of a document (-1 when the run has no proportions for it).
  int dominantTopic(qint64 document) const;
  QString toolTipFor(qint64 document) const;

 Q_SIGNALS:
  void documentActivated(qint64 document);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void rebuild();
  void recolour();
  void updateAccents();
  void updateSummary();
  QString topicName(int topic) const;

  std::shared_ptr<const TopicRunData> m_data;
  QStringList m_labels;
  NetworkCanvas* m_canvas = nullptr;
  QSlider* m_slider = nullptr;
  QCheckBox* m_showLinks = nullptr;
  QLabel* m_summary = nullptr;
  QLabel* m_legend = nullptr;
};

}  // namespace latent::ui
