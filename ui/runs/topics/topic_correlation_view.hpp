// SPDX-License-Identifier: GPL-3.0-or-later
// The topic correlation graph of a CTM run (000 Fig. 27.10): topics as nodes sized by their share
// of the corpus and labelled as on the Topics page (the user's label, else the top words), placed
// so that topics that go together sit together (core/eval/correlation_map.hpp); edges for the
// positive correlations at or above a threshold set by a slider (first showing about as many
// edges as topics). Hovering a topic says what it goes with; clicking one opens it.
#pragma once

#include <QStringList>
#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QSlider;

namespace latent::ui {

struct TopicRunData;
class TopicCorrelationCanvas;

class TopicCorrelationView final : public QWidget {
  Q_OBJECT

 public:
  explicit TopicCorrelationView(QWidget* parent = nullptr);

  void setData(std::shared_ptr<const TopicRunData> data);
  // The Topics page's labels (empty for a topic without one).
  void setLabels(const QStringList& labels);

  void setThreshold(double threshold);
  double threshold() const noexcept { return m_threshold; }
  // The pairs (a < b) drawn as edges at the current threshold, strongest first.
  std::vector<std::pair<int, int>> edges() const;
  // What a node says under it: the user's label, else the topic's three most probable words.
  QString nodeLabel(int topic) const;
  TopicCorrelationCanvas* canvas() const noexcept { return m_canvas; }
  QSlider* slider() const noexcept { return m_slider; }
  QString summary() const;

 Q_SIGNALS:
  // A topic was clicked: open it on the Topics page.
  void topicActivated(int topic);

 private:
  friend class TopicCorrelationCanvas;
  void updateSummary();

  std::shared_ptr<const TopicRunData> m_data;
  QStringList m_labels;
  double m_threshold = 1.0;
  TopicCorrelationCanvas* m_canvas = nullptr;
  QSlider* m_slider = nullptr;
  QLabel* m_summary = nullptr;
};

// The drawing itself; positions come from the data's correlation map.
class TopicCorrelationCanvas final : public QWidget {
  Q_OBJECT

 public:
  explicit TopicCorrelationCanvas(TopicCorrelationView* owner);

  QPointF nodePosition(int topic) const;
  double nodeRadius(int topic) const;
  // The topic whose node is under a point, or -1.
  int topicAt(const QPointF& point) const;

  QSize sizeHint() const override { return {640, 480}; }
  QSize minimumSizeHint() const override { return {260, 220}; }

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  QString tooltipFor(int topic) const;

  TopicCorrelationView* m_owner;
  int m_hover = -1;
};

}  // namespace latent::ui
