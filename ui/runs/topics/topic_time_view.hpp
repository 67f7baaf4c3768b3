// SPDX-License-Identifier: GPL-3.0-or-later
// The "Topics over time" page of a dynamic topic model's run (000 §27.4.2, Fig. 27.12): pick a
// topic (named as on the Topics page, following its label edits) and see its top words slice by
// slice as columns, the probability of chosen words within it across time as lines (at first the
// words that move most; type a word to add it, click it in the legend to take it off), every
// topic's share of each slice as stacked areas with the chosen one at the bottom, and the documents
// of the slice clicked (on a column or on either chart), most of the topic first, each opening in
// the Documents page. Slices without documents are greyed in the table and left out of the charts.
// Everything shown was ranked when the run was read, off the GUI thread (topic_time_data.hpp).
#pragma once

#include <QChartView>
#include <QStringList>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <vector>

class QAreaSeries;
class QComboBox;
class QLabel;
class QLineEdit;
class QLineSeries;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QSplitter;
class QTableView;

namespace latent::ui {

struct TopicRunData;
class SliceDocumentModel;
class SliceWordsModel;

// A chart that says where it was clicked, in the values of its axes.
class SliceChartView final : public QChartView {
  Q_OBJECT

 public:
  explicit SliceChartView(QWidget* parent = nullptr);
  // The viewport position of a point given in the chart's values (for tests and tooltips).
  QPoint viewportPosition(const QPointF& value) const;

 Q_SIGNALS:
  // A left click inside the plot area, at this value.
  void clickedAt(const QPointF& value);

 protected:
  void mouseReleaseEvent(QMouseEvent* event) override;
};

class TopicTimeView final : public QWidget {
  Q_OBJECT

 public:
  explicit TopicTimeView(QWidget* parent = nullptr);

  // A run whose data has overTime; the first topic and the first slice with documents are shown.
  void setData(std::shared_ptr<const TopicRunData> data);
  // The Topics page's labels (empty for a topic without one).
  void setLabels(const QStringList& labels);
  // Whether the run has a Documents page to open a listed document in.
  void setDocumentsOpenable(bool openable);

  void selectTopic(int topic);
  int currentTopic() const noexcept { return m_topic; }
  void selectSlice(int slice);
  int currentSlice() const noexcept { return m_slice; }
  void setRankCount(int count);
  int rankCount() const;

  // Draws a word of the vocabulary (as typed, any case) over time; false with a message when it is
  // not in the vocabulary or already drawn.
  bool addWord(const QString& word);
  void removeWord(const QString& word);
  // Back to the words that move most in the chosen topic.
  void resetWords();
  QStringList chartedWords() const;

  // "3 · sail, steam, ship": the number and the user's label, else the three most probable words.
  QString topicName(int topic) const;
  // The corpus indices of the documents listed, in the list's order.
  std::vector<std::int64_t> listedDocuments() const;
  QString sliceNote() const;
  QString wordMessage() const;

  QComboBox* topicBox() const noexcept { return m_topicBox; }
  QSpinBox* rankBox() const noexcept { return m_rankBox; }
  QTableView* wordTable() const noexcept { return m_wordTable; }
  SliceWordsModel* wordModel() const noexcept { return m_wordModel; }
  SliceChartView* wordChart() const noexcept { return m_wordChart; }
  SliceChartView* shareChart() const noexcept { return m_shareChart; }
  QTableView* documentTable() const noexcept { return m_documentTable; }
  QLineEdit* wordBox() const noexcept { return m_wordBox; }
  QPushButton* openButton() const noexcept { return m_open; }
  // The line of a charted word, or null.
  QLineSeries* wordSeries(const QString& word) const;
  // The shares' areas, one per topic, in topic order.
  const std::vector<QAreaSeries*>& shareSeries() const noexcept { return m_areas; }
  // The topic whose band holds this point of the shares chart (x a year, y a percentage), or -1.
  int topicAtShare(const QPointF& value) const;

 Q_SIGNALS:
  // Open this document (a corpus index) in the Documents page.
  void documentActivated(qint64 index);

 protected:
  void changeEvent(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void showEvent(QShowEvent* event) override;

 private:
  struct ChartedWord {
    std::int32_t word;
    int colour;  // slot in the topic colours, kept while the word is drawn
  };
  void updateTopicBox();
  void rebuildWordChart();
  void rebuildShareChart();
  void updateShareChart();  // the stacking and emphasis for the chosen topic, in place
  void updateMarkers();     // the chosen slice on both charts
  void updateWordColours();
  void updateDocuments();
  void showSliceColumn();  // marks the chosen slice's column in the table
  void fitTable();         // the splitter's first sizes
  void showWordMessage(const QString& message);
  std::vector<int> drawnSlices() const;  // the slices with documents (every slice if none has)
  std::int32_t wordId(const QString& word) const;
  void openCurrentDocument();

  std::shared_ptr<const TopicRunData> m_data;
  QStringList m_labels;
  int m_topic = 0;
  int m_slice = -1;
  bool m_openable = false;
  bool m_syncing = false;  // the table's current cell follows m_slice
  bool m_fitted = false;   // fitTable has set the splitter's sizes for this run
  std::vector<ChartedWord> m_words;

  QComboBox* m_topicBox = nullptr;
  QSpinBox* m_rankBox = nullptr;
  QTableView* m_wordTable = nullptr;
  SliceWordsModel* m_wordModel = nullptr;
  SliceChartView* m_wordChart = nullptr;
  QLineSeries* m_wordMarker = nullptr;
  QLineEdit* m_wordBox = nullptr;
  QPushButton* m_resetWords = nullptr;
  QLabel* m_wordNote = nullptr;
  SliceChartView* m_shareChart = nullptr;
  QLineSeries* m_shareMarker = nullptr;
  std::vector<QAreaSeries*> m_areas;
  QLabel* m_sliceNote = nullptr;
  QTableView* m_documentTable = nullptr;
  SliceDocumentModel* m_documentModel = nullptr;
  QSortFilterProxyModel* m_documentOrder = nullptr;
  QPushButton* m_open = nullptr;
  QSplitter* m_splitter = nullptr;
};

}  // namespace latent::ui
