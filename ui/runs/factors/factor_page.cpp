// SPDX-License-Identifier: GPL-3.0-or-later
// FactorPage: layout, axis choices, item search, and a user's recommendations computed off the
// GUI thread.
#include "ui/runs/factors/factor_page.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSpinBox>
#include <QSplitter>
#include <QStringListModel>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "ui/runs/factors/factor_run_data.hpp"
#include "ui/runs/factors/factor_scatter_view.hpp"
#include "ui/util/background.hpp"
#include "ui/util/figure_export.hpp"
#include "ui/util/format.hpp"
#include "ui/util/table_export.hpp"
#include "ui/util/table_style.hpp"
#include "ui/util/topic_colours.hpp"

namespace latent::ui {
namespace {

constexpr int kItemRole = Qt::UserRole + 1;

struct UserPredictions {
  std::vector<std::pair<std::int64_t, double>> best;                  // RatingPredictor::recommend
  std::vector<double> rated;                                          // the model's prediction for each rated item
  double low = std::numeric_limits<double>::quiet_NaN(), high = low;  // over the unrated items
  std::int64_t unrated = 0;
};

QTableWidgetItem* readOnlyCell(const QString& text, bool number = false) {
  auto* item = new QTableWidgetItem(text);
  item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
  if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

QTableWidgetItem* numberCell(double value, int decimals) {
  auto* item = readOnlyCell(QLocale().toString(value, 'f', decimals), true);
  item->setData(kExportRole, value);  // the file gets every digit
  return item;
}

QString rating(double value) { return QLocale().toString(value, 'f', 2); }

}  // namespace

FactorPage::FactorPage(QWidget* parent) : QWidget(parent) {
  // Top row: the two axes, users on or off, the item search.
  m_xBox = new QComboBox(this);
  m_yBox = new QComboBox(this);
  const QString axisHelp =
      tr("Each item (and user) has one value per factor; choose the two to plot. The factors are "
         "numbered as the model found them; by default the two that spread the items most are "
         "shown. “Bias” is the item's (user's) own offset from the mean rating.");
  m_xBox->setToolTip(axisHelp);
  m_yBox->setToolTip(axisHelp);
  m_usersBox = new QCheckBox(tr("Show users"), this);
  m_usersBox->setToolTip(
      tr("Also draw every user at their own factors (orange diamonds). A user rates an item higher "
         "the more their factors point the same way as the item's. Click a user to list their "
         "recommendations."));
  m_search = new QLineEdit(this);
  m_search->setPlaceholderText(tr("Find an item…"));
  m_search->setClearButtonEnabled(true);
  m_search->setMinimumWidth(160);
  m_search->setMaximumWidth(280);
  m_search->setToolTip(
      tr("Type an item's name or id: the items that match are ringed, named and brought to the middle "
         "of the plot. An exact name or id finds just that item."));
  m_searchStatus = new QLabel(this);
  m_searchStatus->setForegroundRole(QPalette::PlaceholderText);
  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(tr("Horizontal:"), this));
  top->addWidget(m_xBox);
  top->addSpacing(8);
  top->addWidget(new QLabel(tr("Vertical:"), this));
  top->addWidget(m_yBox);
  top->addSpacing(16);
  top->addWidget(m_usersBox);
  top->addStretch(1);
  top->addWidget(m_searchStatus);
  top->addWidget(m_search, 1);

  m_scatter = new FactorScatterView(this);
  enableFigureExport(m_scatter, [this] {
    return m_data ? tr("run-%1-factors-%2-%3")
                        .arg(m_data->run.id)
                        .arg(m_scatter->dimensionName(m_scatter->xDimension()).toLower().remove(QLatin1Char(' ')),
                             m_scatter->dimensionName(m_scatter->yDimension()).toLower().remove(QLatin1Char(' ')))
                  : QString();
  });
  m_caption = new QLabel(this);
  m_caption->setTextFormat(Qt::RichText);
  m_caption->setWordWrap(true);
  auto* plotPane = new QWidget(this);
  auto* plotLayout = new QVBoxLayout(plotPane);
  plotLayout->setContentsMargins(0, 0, 0, 0);
  plotLayout->addWidget(m_scatter, 1);
  plotLayout->addWidget(m_caption);

  // Beside it: one user's recommendations and ratings.
  auto* userTitle = new QLabel(tr("<b>Recommendations</b>"), this);
  m_userBox = new QLineEdit(this);
  m_userBox->setPlaceholderText(tr("User id"));
  m_userBox->setToolTip(tr("The id of a user as in the imported file; press Enter or pick one from the list."));
  auto* completer = new QCompleter(new QStringListModel(this), this);
  completer->setCaseSensitivity(Qt::CaseInsensitive);
  completer->setFilterMode(Qt::MatchStartsWith);
  completer->setMaxVisibleItems(12);
  m_userBox->setCompleter(completer);
  m_countBox = new QSpinBox(this);
  m_countBox->setRange(1, 200);
  m_countBox->setValue(10);
  m_countBox->setPrefix(tr("top "));
  m_countBox->setToolTip(tr("How many recommendations to list"));
  auto* userRow = new QHBoxLayout;
  userRow->addWidget(new QLabel(tr("User:"), this));
  userRow->addWidget(m_userBox, 1);
  userRow->addWidget(m_countBox);
  m_userSummary = new QLabel(this);
  m_userSummary->setWordWrap(true);
  m_userSummary->setForegroundRole(QPalette::PlaceholderText);

  m_recommended = new QTableWidget(0, 4, this);
  m_recommended->setHorizontalHeaderLabels({tr("#"), tr("Item"), tr("Predicted"), tr("Ratings")});
  m_recommended->horizontalHeaderItem(2)->setToolTip(
      tr("The rating the model predicts for this user: mean + user bias + item "
         "bias + the dot product of their factors (000 eq. 27.93), kept "
         "within the range of the training ratings."));
  m_recommended->horizontalHeaderItem(3)->setToolTip(tr("How many ratings the item has from all users"));
  m_rated = new QTableWidget(0, 3, this);
  m_rated->setHorizontalHeaderLabels({tr("Item"), tr("Rating"), tr("Predicted")});
  m_rated->horizontalHeaderItem(1)->setToolTip(tr("The user's own rating (held-out ratings included)"));
  m_rated->horizontalHeaderItem(2)->setToolTip(tr("What the model predicts for the same pair"));
  for (QTableWidget* t : {m_recommended, m_rated}) {
    makeCompact(t);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    t->horizontalHeader()->setSectionResizeMode(t == m_recommended ? 1 : 0, QHeaderView::Stretch);
    t->setToolTip(tr("Click an item to find it in the plot. Right-click to export the table."));
    // A click finds the item in the plot, as typing its id would.
    connect(t, &QTableWidget::cellClicked, this, [this, t](int row, int) {
      const QTableWidgetItem* first = t->item(row, 0);
      if (!first || !m_data) return;
      const int item = first->data(kItemRole).toInt();
      m_search->setText(m_data->itemId(item));
      search(m_search->text());
    });
  }
  enableTableExport(m_recommended, [this] {
    return m_data ? tr("run-%1-recommendations-user-%2.csv").arg(m_data->run.id).arg(m_data->userId(m_user))
                  : QString();
  });
  enableTableExport(m_rated, [this] {
    return m_data ? tr("run-%1-ratings-user-%2.csv").arg(m_data->run.id).arg(m_data->userId(m_user)) : QString();
  });
  m_lists = new QTabWidget(this);
  m_lists->setDocumentMode(true);
  m_lists->addTab(m_recommended, tr("Recommended"));
  m_lists->addTab(m_rated, tr("Rated"));

  auto* side = new QWidget(this);
  auto* sideLayout = new QVBoxLayout(side);
  sideLayout->setContentsMargins(6, 0, 0, 0);
  sideLayout->addWidget(userTitle);
  sideLayout->addLayout(userRow);
  sideLayout->addWidget(m_userSummary);
  sideLayout->addWidget(m_lists, 1);

  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(plotPane);
  splitter->addWidget(side);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 1);
  splitter->setChildrenCollapsible(false);
  splitter->setSizes({760, 320});

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 6, 0, 0);
  layout->addLayout(top);
  layout->addWidget(splitter, 1);

  m_searchDelay.setSingleShot(true);
  m_searchDelay.setInterval(250);
  connect(&m_searchDelay, &QTimer::timeout, this, &FactorPage::applySearch);
  connect(m_search, &QLineEdit::textEdited, this, [this] { m_searchDelay.start(); });
  connect(m_search, &QLineEdit::returnPressed, this, [this] { search(m_search->text()); });
  // The clear button changes the text without an edit.
  connect(m_search, &QLineEdit::textChanged, this, [this](const QString& text) {
    if (text.isEmpty()) search(QString());
  });
  connect(m_xBox, &QComboBox::currentIndexChanged, this, &FactorPage::applyAxes);
  connect(m_yBox, &QComboBox::currentIndexChanged, this, &FactorPage::applyAxes);
  connect(m_usersBox, &QCheckBox::toggled, this, [this](bool on) {
    m_scatter->setShowUsers(on);
    m_scatter->setHighlightedItems(m_scatter->highlightedItems());
  });
  connect(m_userBox, &QLineEdit::returnPressed, this, &FactorPage::userTyped);
  connect(completer, qOverload<const QString&>(&QCompleter::activated), this, [this](const QString& id) {
    m_userBox->setText(id);
    userTyped();
  });
  connect(m_countBox, &QSpinBox::valueChanged, this, [this] { compute(); });
  connect(m_scatter, &FactorScatterView::userClicked, this, &FactorPage::selectUser);
  updateCaption();
}

void FactorPage::setData(std::shared_ptr<const FactorRunData> data) {
  m_data = std::move(data);
  m_scatter->setData(m_data);
  const QSignalBlocker bx(m_xBox), by(m_yBox);
  m_xBox->clear();
  m_yBox->clear();
  if (m_data) {
    for (int k = 0; k <= m_data->factorCount(); ++k) {
      const QString name = m_scatter->dimensionName(k);
      const QString tip = k < m_data->factorCount()
                              ? tr("Variance across the items: %1")
                                    .arg(formatReal(m_data->factorVariance[static_cast<std::size_t>(k)], 3))
                              : tr("The items' (and users') own offsets from the mean rating");
      for (QComboBox* box : {m_xBox, m_yBox}) {
        box->addItem(name, k);
        box->setItemData(k, tip, Qt::ToolTipRole);
      }
    }
    m_xBox->setCurrentIndex(m_scatter->xDimension());
    m_yBox->setCurrentIndex(m_scatter->yDimension());
    QStringList ids;
    ids.reserve(m_data->userCount());
    for (int u = 0; u < m_data->userCount(); ++u) ids << m_data->userId(u);
    static_cast<QStringListModel*>(m_userBox->completer()->model())->setStringList(ids);
  }
  m_scatter->setShowUsers(m_usersBox->isChecked());
  if (!m_search->text().isEmpty()) applySearch();
  updateCaption();
  selectUser(m_data && m_data->userCount() > 0 ? 0 : -1);
}

void FactorPage::applyAxes() {
  m_scatter->setDimensions(m_xBox->currentData().toInt(), m_yBox->currentData().toInt());
  // Found items stay found on the new axes, and in view.
  if (!m_scatter->highlightedItems().empty()) m_scatter->setHighlightedItems(m_scatter->highlightedItems());
}

void FactorPage::search(const QString& text) {
  m_searchDelay.stop();
  if (m_search->text() != text) m_search->setText(text);
  applySearch();
}

void FactorPage::applySearch() {
  if (!m_data) return;
  const QString text = m_search->text().trimmed();
  std::vector<int> found = matchItems(*m_data, text);
  if (text.isEmpty())
    m_searchStatus->clear();
  else if (found.empty())
    m_searchStatus->setText(tr("no item matches"));
  else
    m_searchStatus->setText(countOf(static_cast<std::int64_t>(found.size()), tr("item found"), tr("items found")));
  m_scatter->setHighlightedItems(std::move(found));
}

void FactorPage::userTyped() {
  if (!m_data) return;
  const int user = m_data->findUser(m_userBox->text());
  if (user < 0) {
    m_userSummary->setText(tr("There is no user with the id “%1”.").arg(m_userBox->text().trimmed()));
    return;
  }
  selectUser(user);
}

void FactorPage::selectUser(int user) {
  if (!m_data || user >= m_data->userCount()) user = -1;
  m_user = user;
  if (user >= 0 && m_userBox->text().trimmed() != m_data->userId(user)) m_userBox->setText(m_data->userId(user));
  compute();
}

void FactorPage::setRecommendationCount(int n) {
  if (m_countBox->value() != n)
    m_countBox->setValue(n);  // valueChanged recomputes
  else
    compute();
}

void FactorPage::compute() {
  const int generation = ++m_generation;
  if (!m_data || m_user < 0) {
    m_computing = false;
    m_recommendations.clear();
    m_recommended->setRowCount(0);
    m_rated->setRowCount(0);
    m_userSummary->clear();
    m_scatter->setUser(-1, {});
    Q_EMIT recommendationsShown();
    return;
  }
  m_computing = true;
  // Every unrated item is scored: cheap for a thousand items, but a large catalogue times many
  // factors is not, so never on the GUI thread.
  runInBackground(
      this,
      [data = m_data, user = m_user, n = static_cast<std::size_t>(m_countBox->value())] {
        UserPredictions out;
        const auto rated = data->ratedBy(user);
        out.best = data->predictor->recommend(user, rated, n);
        for (const auto item : rated) out.rated.push_back(data->predictor->predict(user, item));
        std::size_t next = 0;
        for (int i = 0; i < data->itemCount(); ++i) {
          if (next < rated.size() && rated[next] == i) {
            ++next;
            continue;
          }
          const double p = data->predictor->predict(user, i);
          out.low = out.unrated ? std::min(out.low, p) : p;
          out.high = out.unrated ? std::max(out.high, p) : p;
          ++out.unrated;
        }
        return out;
      },
      [this, generation, data = m_data, user = m_user](UserPredictions out) {
        if (generation != m_generation) return;
        m_computing = false;
        m_recommendations = std::move(out.best);
        const auto rated = data->ratedBy(user);
        const auto values = data->ratingsBy(user);

        m_recommended->setRowCount(0);
        m_recommended->setRowCount(static_cast<int>(m_recommendations.size()));
        std::vector<int> items;
        for (std::size_t k = 0; k < m_recommendations.size(); ++k) {
          const int item = static_cast<int>(m_recommendations[k].first);
          const int row = static_cast<int>(k);
          items.push_back(item);
          auto* rank = readOnlyCell(QString::number(k + 1), true);
          rank->setData(kItemRole, item);
          m_recommended->setItem(row, 0, rank);
          auto* name = readOnlyCell(data->itemName(item));
          name->setToolTip(data->itemName(item) + (data->itemId(item) != data->itemName(item)
                                                       ? QStringLiteral(" (%1)").arg(data->itemId(item))
                                                       : QString()));
          m_recommended->setItem(row, 1, name);
          m_recommended->setItem(row, 2, numberCell(m_recommendations[k].second, 2));
          m_recommended->setItem(
              row, 3, readOnlyCell(formatCount(data->itemRatingCounts[static_cast<std::size_t>(item)]), true));
        }
        m_rated->setRowCount(0);
        m_rated->setRowCount(static_cast<int>(rated.size()));
        for (std::size_t k = 0; k < rated.size(); ++k) {
          const int row = static_cast<int>(k);
          auto* name = readOnlyCell(data->itemName(rated[k]));
          name->setData(kItemRole, rated[k]);
          m_rated->setItem(row, 0, name);
          m_rated->setItem(row, 1, numberCell(values[k], 1));
          m_rated->setItem(row, 2, numberCell(out.rated[k], 2));
        }
        m_lists->setTabText(1, tr("Rated (%1)").arg(formatCount(static_cast<std::int64_t>(rated.size()))));

        double mean = 0;
        for (const double v : values) mean += v;
        QString summary =
            tr("User %1 rated %2")
                .arg(data->userId(user), countOf(static_cast<std::int64_t>(rated.size()), tr("item"), tr("items")));
        if (!values.empty()) summary += tr(" (mean %1)").arg(rating(mean / static_cast<double>(values.size())));
        if (out.unrated > 0)
          summary += tr(". The model predicts %1 to %2 for the other %3; the best are listed and ringed in green.")
                         .arg(rating(out.low), rating(out.high), formatCount(out.unrated));
        else
          summary += tr(", every item there is: nothing is left to recommend.");
        m_userSummary->setText(summary);
        m_scatter->setUser(user, std::move(items));
        Q_EMIT recommendationsShown();
      });
}

void FactorPage::updateCaption() {
  const QPalette pal = palette();
  auto swatch = [](const QColor& c, const QString& glyph) {
    return QStringLiteral("<span style=\"color:%1\">%2</span>").arg(c.name(), glyph);
  };
  // What the factors add, in the numbers the run was judged by.
  QString html;
  if (m_data) {
    const auto& metrics = m_data->run.finalMetrics;
    auto number = [&metrics](const char* key) -> std::optional<double> {
      if (!metrics.contains(key) || !metrics[key].is_number()) return std::nullopt;
      return metrics[key].get<double>();
    };
    if (const auto heldout = number("heldout_rmse")) {
      QStringList against;
      if (const auto bias = number("baseline_bias_rmse"))
        against << tr("%1 from the biases alone").arg(formatReal(*bias, 5));
      if (const auto mean = number("baseline_global_mean_rmse"))
        against << tr("%1 from the mean rating alone").arg(formatReal(*mean, 5));
      html += tr("Held-out RMSE <b>%1</b>").arg(formatReal(*heldout, 5));
      if (!against.isEmpty()) html += tr(", against %1").arg(against.join(tr(" and ")));
      html += QStringLiteral(".<br>");
    }
    if (m_data->iteration >= 0)
      html += tr("The run ended without a final result: these are its factors after iteration %1.")
                  .arg(m_data->iteration)
                  .toHtmlEscaped() +
              QStringLiteral("<br>");
  }
  const QString legend =
      tr("%1 item (bigger, bolder: more ratings) &nbsp;%2 user &nbsp;%3 recommended &nbsp;%4 found &nbsp;· "
         "wheel zooms, drag moves, double-click shows all")
          .arg(swatch(topicColour(0, pal), QStringLiteral("●")), swatch(topicColour(1, pal), QStringLiteral("◆")),
               swatch(topicColour(2, pal), QStringLiteral("◯")), QStringLiteral("◯"));
  html += QStringLiteral("<span style=\"color:%1\">%2</span>").arg(pal.color(QPalette::PlaceholderText).name(), legend);
  m_caption->setText(html);
  m_caption->setToolTip(
      tr("<p>Each item sits at its values on the two chosen factors. Items with few ratings stay near 0: "
         "the prior (000 eq. 27.92) pulls their factors there, so size and shade show how much "
         "evidence a position rests on.</p><p>A user rates an item higher the more their factors point "
         "the same way as the item's (000 eq. 27.86): recommendations lie along the user's direction, "
         "on every factor, not just the two drawn.</p><p>Right-click the plot to save it as PNG or SVG.</p>"));
}

void FactorPage::changeEvent(QEvent* event) {
  if (event->type() == QEvent::PaletteChange) updateCaption();
  QWidget::changeEvent(event);
}

}  // namespace latent::ui
