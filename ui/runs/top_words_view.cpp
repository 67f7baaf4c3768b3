// SPDX-License-Identifier: GPL-3.0-or-later
// TopWordsView: a table with a bar column drawn by a small delegate.
#include "ui/runs/top_words_view.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QStyledItemDelegate>
#include <QTableWidget>
#include <QVBoxLayout>

#include "ui/util/format.hpp"

namespace latent::ui {
namespace {

constexpr int kBarRole = Qt::UserRole + 1;  // fraction of the topic's largest probability

class BarDelegate final : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;
  void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override {
    QStyledItemDelegate::paint(painter, option, index);
    const double fraction = index.data(kBarRole).toDouble();
    const QRect area = option.rect.adjusted(4, 5, -4, -5);
    QColor colour = option.palette.color(QPalette::Highlight);
    colour.setAlphaF(0.75f);
    painter->fillRect(QRect(area.left(), area.top(), static_cast<int>(area.width() * fraction), area.height()), colour);
  }
};

}  // namespace

TopWordsView::TopWordsView(QWidget* parent) : QWidget(parent) {
  m_topic = new QComboBox(this);
  m_note = new QLabel(this);
  m_note->setForegroundRole(QPalette::PlaceholderText);
  m_note->setWordWrap(true);
  m_table = new QTableWidget(0, 4, this);
  m_table->setHorizontalHeaderLabels({tr("#"), tr("Word"), tr("Probability"), QString()});
  m_table->verticalHeader()->setVisible(false);
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setItemDelegateForColumn(3, new BarDelegate(m_table));
  m_table->horizontalHeader()->setSectionResizeMode(3, QHeaderView::Stretch);
  m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);

  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(tr("Topic:"), this));
  top->addWidget(m_topic, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(top);
  layout->addWidget(m_note);
  layout->addWidget(m_table, 1);
  connect(m_topic, &QComboBox::currentIndexChanged, this, &TopWordsView::showTopic);
}

void TopWordsView::setTopics(QVector<TopicWords> topics, int vocabularySize) {
  m_topics = std::move(topics);
  const QSignalBlocker block(m_topic);
  m_topic->clear();
  for (int k = 0; k < m_topics.size(); ++k) {
    QStringList head;
    for (int i = 0; i < std::min<int>(4, static_cast<int>(m_topics[k].words.size())); ++i) head << m_topics[k].words[i].first;
    m_topic->addItem(tr("%1 — %2").arg(k + 1).arg(head.join(QStringLiteral(", "))));
  }
  m_topic->setEnabled(m_topics.size() > 1);
  const int shown = m_topics.isEmpty() ? 0 : static_cast<int>(m_topics.front().words.size());
  m_note->setText(m_topics.size() == 1
                      ? tr("The model's one word distribution: its %1 most probable words out of %2.")
                            .arg(shown).arg(formatCount(vocabularySize))
                      : tr("%1 topics; the %2 most probable words of each, out of %3.")
                            .arg(m_topics.size()).arg(shown).arg(formatCount(vocabularySize)));
  showTopic(0);
}

void TopWordsView::showTopic(int topic) {
  m_table->setRowCount(0);
  if (topic < 0 || topic >= m_topics.size()) return;
  const auto& words = m_topics[topic].words;
  const double top = words.isEmpty() ? 1.0 : words.front().second;
  m_table->setRowCount(static_cast<int>(words.size()));
  for (int i = 0; i < words.size(); ++i) {
    auto* rank = new QTableWidgetItem(QString::number(i + 1));
    rank->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    auto* probability = new QTableWidgetItem(formatReal(words[i].second, 4));
    probability->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    auto* bar = new QTableWidgetItem;
    bar->setData(kBarRole, top > 0 ? words[i].second / top : 0.0);
    m_table->setItem(i, 0, rank);
    m_table->setItem(i, 1, new QTableWidgetItem(words[i].first));
    m_table->setItem(i, 2, probability);
    m_table->setItem(i, 3, bar);
  }
  m_table->resizeColumnToContents(0);
  m_table->resizeColumnToContents(1);
  m_table->resizeColumnToContents(2);
  if (m_topic->currentIndex() != topic) {
    const QSignalBlocker block(m_topic);
    m_topic->setCurrentIndex(topic);
  }
}

}  // namespace latent::ui
