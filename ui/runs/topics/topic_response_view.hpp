// SPDX-License-Identifier: GPL-3.0-or-later
// The Response page of an sLDA run (Blei & McAuliffe 2007, the figure of their movie-review topics):
// each topic's coefficient as a horizontal bar, topics sorted from the highest to the lowest, the
// topic's label (the user's, else its top words) beside it. For a number the bars start at the
// response's mean and end at the topic's coefficient (the response of a document all about that
// topic); for classes a selector picks the class, and a bar is the topic's coefficient for that class
// less its mean over the classes (how far the topic leans towards the class, in log-odds).
#pragma once

#include <QStringList>
#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;

namespace latent::ui {

struct TopicRunData;
class TopicResponseCanvas;

class TopicResponseView final : public QWidget {
  Q_OBJECT

 public:
  explicit TopicResponseView(QWidget* parent = nullptr);

  void setData(std::shared_ptr<const TopicRunData> data);
  void setLabels(const QStringList& labels);  // the Topics page's labels (empty: none)

  // The class shown (categorical responses; 0 otherwise).
  void setCurrentClass(int c);
  int currentClass() const noexcept { return m_class; }
  // The value drawn for a topic, and the topics from the highest value to the lowest.
  double value(int topic) const;
  double baseline() const;
  std::vector<int> order() const;
  QString rowLabel(int topic) const;  // the number and the user's label, else the top four words
  QComboBox* classSelector() const noexcept { return m_classes; }
  TopicResponseCanvas* canvas() const noexcept { return m_canvas; }
  QString summary() const;

 private:
  friend class TopicResponseCanvas;
  void refresh();

  std::shared_ptr<const TopicRunData> m_data;
  QStringList m_labels;
  int m_class = 0;
  QLabel* m_summary = nullptr;
  QLabel* m_classLabel = nullptr;
  QComboBox* m_classes = nullptr;
  TopicResponseCanvas* m_canvas = nullptr;
};

class TopicResponseCanvas final : public QWidget {
  Q_OBJECT

 public:
  explicit TopicResponseCanvas(TopicResponseView* owner);
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override { return {360, 120}; }
  // The rectangle of a topic's bar (empty when the topic is not drawn).
  QRectF barRect(int topic) const;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  TopicResponseView* m_owner;
};

}  // namespace latent::ui
