// SPDX-License-Identifier: GPL-3.0-or-later
// EmbeddingMapPage: the controls, what is drawn, finding and neighbours.
#include "ui/runs/embeddings/embedding_map_page.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <numeric>

#include "ui/runs/embeddings/embedding_map_view.hpp"
#include "ui/util/figure_export.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/table_export.hpp"
#include "ui/util/table_style.hpp"

namespace latent::ui {

EmbeddingMapPage::EmbeddingMapPage(QWidget* parent) : QWidget(parent) {
  m_header = new QLabel(this);
  m_header->setWordWrap(true);
  m_kind = new QComboBox(this);
  m_kind->addItems({tr("Documents"), tr("Words")});
  m_xBox = new QComboBox(this);
  m_yBox = new QComboBox(this);
  m_find = new QLineEdit(this);
  m_find->setPlaceholderText(tr("Find a word or document"));
  m_find->setClearButtonEnabled(true);
  m_findStatus = new QLabel(this);
  m_findStatus->setForegroundRole(QPalette::PlaceholderText);
  auto* controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Show"), this));
  controls->addWidget(m_kind);
  controls->addSpacing(12);
  controls->addWidget(new QLabel(tr("across"), this));
  controls->addWidget(m_xBox);
  controls->addWidget(new QLabel(tr("up"), this));
  controls->addWidget(m_yBox);
  controls->addSpacing(12);
  controls->addWidget(m_find, 1);
  controls->addWidget(m_findStatus);

  m_view = new EmbeddingMapView(this);
  enableFigureExport(m_view, [this] { return QStringLiteral("run-%1-map").arg(m_data ? m_data->run.id : 0); });
  m_neighbourTable = new QTableWidget(0, 2, this);
  m_neighbourTable->setHorizontalHeaderLabels({tr("Nearest"), tr("Cosine")});
  makeCompact(m_neighbourTable);
  m_neighbourTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_neighbourTable->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_neighbourTable->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  m_neighbourTable->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  enableTableExport(m_neighbourTable, [this] {
    return m_data && m_selectedRow >= 0 ? tr("run-%1-neighbours.csv").arg(m_data->run.id) : QString();
  });
  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(m_view);
  splitter->addWidget(m_neighbourTable);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 1);
  m_neighbourTable->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("Nearest to constitutional")) + 80);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 6, 0, 0);
  layout->addWidget(m_header);
  layout->addLayout(controls);
  layout->addWidget(splitter, 1);

  connect(m_kind, &QComboBox::currentIndexChanged, this, [this](int index) { showWords(index == 1); });
  connect(m_xBox, &QComboBox::currentIndexChanged, this, [this](int x) { setComponents(x, m_y); });
  connect(m_yBox, &QComboBox::currentIndexChanged, this, [this](int y) { setComponents(m_x, y); });
  connect(m_find, &QLineEdit::returnPressed, this, [this] {
    const bool found = selectByName(m_find->text().trimmed());
    m_findStatus->setText(found || m_find->text().trimmed().isEmpty() ? QString() : tr("not found"));
  });
  connect(m_view, &EmbeddingMapView::pointClicked, this,
          [this](int point) { select(m_drawn[static_cast<std::size_t>(point)]); });
  // A neighbour clicked in the list becomes the selection.
  connect(m_neighbourTable, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
    if (row >= 0 && row < static_cast<int>(m_neighbours.size()))
      select(m_neighbours[static_cast<std::size_t>(row)].row);
  });
}

void EmbeddingMapPage::setData(std::shared_ptr<const EmbeddingRunData> data) {
  m_data = std::move(data);
  {
    const QSignalBlocker bx(m_xBox), by(m_yBox), bk(m_kind);
    m_xBox->clear();
    m_yBox->clear();
    const int K = m_data ? m_data->componentCount() : 0;
    for (int k = 0; k < K; ++k) {
      m_xBox->addItem(tr("component %1").arg(k + 1));
      m_yBox->addItem(tr("component %1").arg(k + 1));
    }
    // Documents when the run stored them; the first component of tf-idf counts mostly measures a
    // document's length, so the map starts on the second and third where there are three.
    m_words = !m_data || !m_data->hasDocuments();
    m_kind->setCurrentIndex(m_words ? 1 : 0);
    m_kind->setEnabled(m_data && m_data->hasDocuments());
    m_x = K >= 3 ? 1 : 0;
    m_y = std::min(K - 1, m_x + 1);
    m_xBox->setCurrentIndex(m_x);
    m_yBox->setCurrentIndex(std::max(0, m_y));
  }
  m_selectedRow = -1;
  m_neighbours.clear();
  redraw();
}

const Eigen::MatrixXd& EmbeddingMapPage::coordinates() const { return m_words ? m_data->words : m_data->documents; }

QString EmbeddingMapPage::rowName(int row) const {
  return m_words ? qs(m_data->wordNames[static_cast<std::size_t>(row)]) : m_data->documentName(row);
}

void EmbeddingMapPage::showWords(bool words) {
  if (!m_data || (!words && !m_data->hasDocuments()) || words == m_words) return;
  m_words = words;
  {
    const QSignalBlocker block(m_kind);
    m_kind->setCurrentIndex(words ? 1 : 0);
  }
  m_selectedRow = -1;
  m_neighbours.clear();
  redraw();
}

void EmbeddingMapPage::setComponents(int x, int y) {
  if (!m_data || x < 0 || y < 0 || x >= m_data->componentCount() || y >= m_data->componentCount()) return;
  m_x = x;
  m_y = y;
  const QSignalBlocker bx(m_xBox), by(m_yBox);
  m_xBox->setCurrentIndex(x);
  m_yBox->setCurrentIndex(y);
  redraw();
}

bool EmbeddingMapPage::selectByName(const QString& name) {
  if (!m_data || name.isEmpty()) return false;
  // A word is looked for among the words, a document among the documents, whichever is shown
  // first; finding the other kind switches the map to it.
  for (const bool words : {m_words, !m_words}) {
    if (!words && !m_data->hasDocuments()) continue;
    const int rows =
        words ? static_cast<int>(m_data->wordNames.size()) : static_cast<int>(m_data->documentHeaders.size());
    for (int r = 0; r < rows; ++r) {
      const bool match =
          words
              ? qs(m_data->wordNames[static_cast<std::size_t>(r)]).compare(name, Qt::CaseInsensitive) == 0
              : m_data->documentName(r).compare(name, Qt::CaseInsensitive) == 0 ||
                    qs(m_data->documentHeaders[static_cast<std::size_t>(r)].id).compare(name, Qt::CaseInsensitive) == 0;
      if (!match) continue;
      showWords(words);
      select(r);
      return true;
    }
  }
  return false;
}

void EmbeddingMapPage::select(int row) {
  m_selectedRow = row;
  m_neighbours = nearestByCosine(coordinates(), coordinates().row(row), kMapNeighbours, row);
  m_neighbourTable->setRowCount(static_cast<int>(m_neighbours.size()));
  for (int i = 0; i < static_cast<int>(m_neighbours.size()); ++i) {
    const auto& n = m_neighbours[static_cast<std::size_t>(i)];
    m_neighbourTable->setItem(i, 0, new QTableWidgetItem(rowName(n.row)));
    auto* similarity = new QTableWidgetItem(QLocale().toString(n.similarity, 'f', 3));
    similarity->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_neighbourTable->setItem(i, 1, similarity);
  }
  m_neighbourTable->setHorizontalHeaderLabels({tr("Nearest to %1").arg(rowName(row)), tr("Cosine")});
  // Ring what is drawn of the selection and its neighbours.
  const auto pointOf = [&](int r) {
    const auto it = std::find(m_drawn.begin(), m_drawn.end(), r);
    return it == m_drawn.end() ? -1 : static_cast<int>(it - m_drawn.begin());
  };
  std::vector<int> ringed;
  for (const auto& n : m_neighbours)
    if (const int p = pointOf(n.row); p >= 0) ringed.push_back(p);
  m_view->setSelection(pointOf(row), std::move(ringed));
}

void EmbeddingMapPage::redraw() {
  m_drawn.clear();
  m_neighbourTable->setRowCount(0);
  m_neighbourTable->setHorizontalHeaderLabels({tr("Nearest"), tr("Cosine")});
  if (!m_data || m_data->componentCount() == 0) {
    m_header->clear();
    m_view->setPoints({}, {}, {}, {});
    return;
  }
  const auto& c = coordinates();
  std::vector<int> rows(static_cast<std::size_t>(c.rows()));
  std::iota(rows.begin(), rows.end(), 0);
  if (m_words && static_cast<int>(rows.size()) > kMapWords) {
    const Eigen::VectorXd length = c.rowwise().norm();
    std::partial_sort(rows.begin(), rows.begin() + kMapWords, rows.end(),
                      [&](int a, int b) { return length[a] > length[b] || (length[a] == length[b] && a < b); });
    rows.resize(kMapWords);
    std::sort(rows.begin(), rows.end());
  }
  m_drawn = rows;
  std::vector<QPointF> points;
  QStringList names;
  for (const int r : rows) {
    points.emplace_back(c(r, m_x), c(r, m_y));
    names << rowName(r);
  }
  m_view->setPoints(std::move(points), names, m_xBox->currentText(), m_yBox->currentText());
  if (m_words)
    m_header->setText(
        tr("%1 of %2 words, those farthest from the origin over all %3: words used in the same documents lie in "
           "the same direction. Click one, or find any word, for its nearest neighbours over all components.")
            .arg(formatCount(static_cast<std::int64_t>(rows.size())), formatCount(c.rows()),
                 countOf(m_data->componentCount(), tr("component"), tr("components"))));
  else
    m_header->setText(tr("%1: documents about the same things lie in the same direction. Click one, or find one by "
                         "title, for its nearest neighbours over all %2.")
                          .arg(countOf(c.rows(), tr("document"), tr("documents")),
                               countOf(m_data->componentCount(), tr("component"), tr("components"))));
  if (m_selectedRow >= 0) select(m_selectedRow);
}

}  // namespace latent::ui
