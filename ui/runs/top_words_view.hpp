// SPDX-License-Identifier: GPL-3.0-or-later
// The top words of each topic of a topic-word result: word, probability and a bar, one topic
// at a time (a one-topic model such as the unigram shows its single distribution).
#pragma once

#include <QPair>
#include <QVector>
#include <QWidget>

class QComboBox;
class QLabel;
class QTableWidget;

namespace latent::ui {

struct TopicWords {
  QVector<QPair<QString, double>> words;  // most probable first
};

class TopWordsView final : public QWidget {
  Q_OBJECT

 public:
  explicit TopWordsView(QWidget* parent = nullptr);

  void setTopics(QVector<TopicWords> topics, int vocabularySize);
  void showTopic(int topic);

  QTableWidget* table() const noexcept { return m_table; }
  QComboBox* topicCombo() const noexcept { return m_topic; }
  const QVector<TopicWords>& topics() const noexcept { return m_topics; }

 private:
  QVector<TopicWords> m_topics;
  QComboBox* m_topic = nullptr;
  QLabel* m_note = nullptr;
  QTableWidget* m_table = nullptr;
};

}  // namespace latent::ui
