// SPDX-License-Identifier: GPL-3.0-or-later
// The intertopic distance map (Sievert & Shirley 2014, "LDAvis"): on the left the topics as circles
// placed by classical scaling of their Jensen-Shannon divergences, with area in proportion to their
// share of the tokens and labelled as on the Topics page; on the right the words of the selected
// topic as bars of their expected count in the topic drawn over their count in the whole corpus,
// ranked by relevance under a lambda slider, or with no topic selected the most salient words
// (Chuang et al. 2012). Hovering a word sizes the circles by how much of the word each topic holds.
// The map's numbers are computed off the GUI thread (intertopic_map_data.hpp).
#pragma once

#include <QStringList>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <vector>

class QLabel;
class QSlider;

namespace latent::ui {

struct IntertopicMapData;
struct TopicRunData;
class IntertopicCanvas;
class IntertopicBars;

class IntertopicMapView final : public QWidget {
  Q_OBJECT

 public:
  // Sievert & Shirley's user study found lambda about 0.6 best for telling what a topic is about,
  // so the slider starts there rather than at LDAvis's 1 (plain probability).
  static constexpr double kDefaultLambda = 0.6;

  explicit IntertopicMapView(QWidget* parent = nullptr);

  // Computes the map off the GUI thread; `computed()` when it is there.
  void setData(std::shared_ptr<const TopicRunData> data);
  void setLabels(const QStringList& labels);

  void selectTopic(int topic);  // -1: none (the most salient words)
  int selectedTopic() const noexcept { return m_selected; }
  void setLambda(double lambda);
  double lambda() const noexcept { return m_lambda; }
  void setHoveredWord(std::int32_t word);  // -1: none
  std::int32_t hoveredWord() const noexcept { return m_hoveredWord; }

  // The words the bars show, top first.
  std::vector<std::int32_t> shownWords() const;
  QString topicLabel(int topic) const;
  QString wordText(std::int32_t word) const;
  const IntertopicMapData* map() const noexcept { return m_map.get(); }
  const TopicRunData* data() const noexcept { return m_data.get(); }
  IntertopicCanvas* canvas() const noexcept { return m_canvas; }
  IntertopicBars* bars() const noexcept { return m_bars; }
  QSlider* slider() const noexcept { return m_slider; }

  // Writes LDAvis's JSON of this run (core/io/ldavis_json.hpp) off the GUI thread; `ldavisSaved`
  // tells how it went.
  void saveLdavisJson(const QString& file);

 Q_SIGNALS:
  void computed();
  void ldavisSaved(const QString& file, const QString& error);
  // A topic was double-clicked: open it on the Topics page.
  void topicActivated(int topic);

 private:
  void refresh();
  void chooseLdavisFile();

  std::shared_ptr<const TopicRunData> m_data;
  std::shared_ptr<const IntertopicMapData> m_map;
  QStringList m_labels;
  int m_selected = -1;
  double m_lambda = kDefaultLambda;
  std::int32_t m_hoveredWord = -1;
  int m_generation = 0;  // drops a computation overtaken by newer data
  IntertopicCanvas* m_canvas = nullptr;
  IntertopicBars* m_bars = nullptr;
  QSlider* m_slider = nullptr;
  QLabel* m_lambdaLabel = nullptr;
  QLabel* m_status = nullptr;
};

// The circles: placed by the map's coordinates with equal scales on both axes.
class IntertopicCanvas final : public QWidget {
  Q_OBJECT

 public:
  explicit IntertopicCanvas(IntertopicMapView* owner);

  QPointF topicPosition(int topic) const;
  double topicRadius(int topic) const;
  int topicAt(const QPointF& point) const;  // -1 when none
  // The radius of the largest topic's circle (intertopic_map_view.cpp says how it is chosen).
  double largestRadius() const;

  QSize sizeHint() const override { return {520, 520}; }
  QSize minimumSizeHint() const override { return {240, 240}; }

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
  IntertopicMapView* m_owner;
  int m_hover = -1;
};

// The bars: one row per word, the corpus-wide count behind, the selected topic's in front.
class IntertopicBars final : public QWidget {
  Q_OBJECT

 public:
  explicit IntertopicBars(IntertopicMapView* owner);

  QString title() const;
  // The row of a word shown at a point, or -1.
  int rowAt(const QPointF& point) const;
  QRectF rowRect(int row) const;

  QSize sizeHint() const override { return {420, 560}; }
  QSize minimumSizeHint() const override { return {260, 300}; }

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
  IntertopicMapView* m_owner;
};

}  // namespace latent::ui
