// SPDX-License-Identifier: GPL-3.0-or-later
// ProjectTree: reading the project, two-line items (name over a grey summary), context menu.
#include "ui/widgets/project_tree.hpp"

#include <QApplication>
#include <QContextMenuEvent>
#include <QHeaderView>
#include <QMenu>
#include <QPainter>
#include <QSet>
#include <QStyledItemDelegate>

#include "core/store/project.hpp"
#include "core/store/run_store.hpp"
#include "ui/jobs/project_session.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"

namespace latent::ui {
namespace {

// Draws an item's name and, when it has one, its summary in a smaller grey line below.
class TwoLineDelegate final : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;

  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override {
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    if (!index.data(ProjectTree::SummaryRole).toString().isEmpty())
      size.setHeight(size.height() + QFontMetrics(smallFont(option.font)).height() + 2);
    return size;
  }

  void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override {
    const QString summary = index.data(ProjectTree::SummaryRole).toString();
    if (summary.isEmpty()) {
      QStyledItemDelegate::paint(painter, option, index);
      return;
    }
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString name = opt.text;
    opt.text.clear();
    const QWidget* widget = opt.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    const QRect textRect = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget);
    const bool selected = opt.state & QStyle::State_Selected;
    const QPalette::ColorGroup group = opt.state & QStyle::State_Enabled ? QPalette::Normal : QPalette::Disabled;
    QColor text = opt.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text);
    QColor grey = text;
    grey.setAlphaF(0.62f);
    const QFont small = smallFont(opt.font);
    const int nameHeight = QFontMetrics(opt.font).height();
    painter->save();
    painter->setFont(opt.font);
    painter->setPen(text);
    const QRect nameRect(textRect.left(), textRect.top() + 2, textRect.width(), nameHeight);
    painter->drawText(nameRect, Qt::AlignLeft | Qt::AlignVCenter,
                      QFontMetrics(opt.font).elidedText(name, Qt::ElideRight, nameRect.width()));
    painter->setFont(small);
    painter->setPen(grey);
    const QRect summaryRect(textRect.left(), nameRect.bottom() + 1, textRect.width(), QFontMetrics(small).height());
    painter->drawText(summaryRect, Qt::AlignLeft | Qt::AlignVCenter,
                      QFontMetrics(small).elidedText(summary, Qt::ElideRight, summaryRect.width()));
    painter->restore();
  }

 private:
  static QFont smallFont(QFont f) {
    f.setPointSizeF(f.pointSizeF() * 0.88);
    return f;
  }
};

QString runTooltip(const core::RunRecord& run) {
  const auto* info = findModel(run.model);
  QStringList lines;
  lines
      << QObject::tr("Run #%1: %2 on %3").arg(run.id).arg(info ? qs(info->title) : qs(run.model), qs(run.datasetName));
  if (!run.name.empty()) lines << qs(run.name);
  lines << QObject::tr("Status: %1").arg(statusText(run.status));
  if (!run.message.empty()) lines << qs(run.message);
  if (const auto v = heldoutValue(run)) lines << QStringLiteral("%1: %2").arg(qs(run.heldoutName), formatReal(*v, 6));
  if (run.seconds) lines << QObject::tr("Time: %1").arg(formatSeconds(*run.seconds));
  lines << (run.threads == 1 ? QObject::tr("Seed %1, 1 thread").arg(run.seed)
                             : QObject::tr("Seed %1, %2 threads").arg(run.seed).arg(run.threads));
  if (!run.notes.empty()) lines << QString() << qs(run.notes);
  return lines.join(QLatin1Char('\n'));
}

}  // namespace

ProjectTree::ProjectTree(QWidget* parent) : QTreeWidget(parent) {
  setHeaderHidden(true);
  setColumnCount(1);
  setItemDelegate(new TwoLineDelegate(this));
  setIconSize(QSize(20, 20));
  setUniformRowHeights(false);
  setAnimated(true);
  setExpandsOnDoubleClick(false);
  // Several runs can be selected to compare them (precision-recall); the rest acts on the first.
  setSelectionMode(QAbstractItemView::ExtendedSelection);
  connect(this, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) { activate(item); });
}

void ProjectTree::setProject(ProjectSession* session) {
  m_session = session;
  ++m_generation;
  clear();
  if (m_session) refresh();
}

namespace {
struct TreeContents {
  std::vector<core::DatasetInfo> datasets;
  std::vector<core::RunRecord> runs;
};
}  // namespace

void ProjectTree::refresh() {
  if (!m_session) return;
  const int generation = ++m_generation;
  m_session->read(
      this,
      [](core::Project& project) {
        return TreeContents{project.datasets(), core::listRuns(project)};
      },
      [this, generation](SessionResult<TreeContents> result) {
        if (generation != m_generation) return;  // a later refresh or another project
        if (!result.ok()) {
          Q_EMIT readFailed(result.error);
          return;
        }
        fill(result.value->datasets, result.value->runs);
        Q_EMIT refreshed();
      });
}

void ProjectTree::fill(const std::vector<core::DatasetInfo>& datasets, const std::vector<core::RunRecord>& runs) {
  // What to restore: collapsed datasets (new ones start expanded) and the selection.
  QSet<QString> collapsed, selected;
  auto keyOf = [](const QTreeWidgetItem* item) {
    return QStringLiteral("%1:%2").arg(item->data(0, ItemTypeRole).toInt()).arg(item->data(0, IdRole).toLongLong());
  };
  for (QTreeWidgetItemIterator it(this); *it; ++it) {
    if (!(*it)->isExpanded()) collapsed.insert(keyOf(*it));
    if ((*it)->isSelected()) selected.insert(keyOf(*it));  // several runs can be selected
  }
  const bool firstFill = topLevelItemCount() == 0;

  clear();
  for (const auto kind :
       {core::DataKind::Corpus, core::DataKind::Graph, core::DataKind::Ratings, core::DataKind::Table}) {
    auto* group = new QTreeWidgetItem(this, {kindTitle(kind)});
    group->setData(0, ItemTypeRole, GroupItem);
    group->setData(0, IdRole, static_cast<int>(kind));
    group->setData(0, KindRole, static_cast<int>(kind));
    group->setIcon(0, kindIcon(kind));
    QFont bold = group->font(0);
    bold.setBold(true);
    group->setFont(0, bold);
    group->setFlags(Qt::ItemIsEnabled);
    int count = 0;
    for (const auto& d : datasets) {
      if (d.kind != kind) continue;
      ++count;
      auto* item = new QTreeWidgetItem(group, {qs(d.name)});
      item->setData(0, ItemTypeRole, DatasetItem);
      item->setData(0, IdRole, static_cast<qlonglong>(d.id));
      item->setData(0, KindRole, static_cast<int>(kind));
      const QString summary = datasetSummaryText(d);
      item->setData(0, SummaryRole, summary);
      item->setToolTip(0, QStringLiteral("%1\n%2\n%3: %4").arg(qs(d.name), summary, tr("Source"), qs(d.source)));
      item->setIcon(0, kindIcon(kind));
      for (const auto& r : runs) {
        if (r.datasetId != d.id) continue;
        auto* runItem = new QTreeWidgetItem(item, {runTitle(r)});
        runItem->setData(0, SummaryRole, runSummary(r));
        runItem->setData(0, ItemTypeRole, RunItem);
        runItem->setData(0, IdRole, static_cast<qlonglong>(r.id));
        runItem->setData(0, KindRole, static_cast<int>(kind));
        runItem->setIcon(0, themedIcon(r.status == core::RunStatus::Running ? "start" : "run"));
        runItem->setToolTip(0, runTooltip(r));
      }
    }
    group->setData(0, SummaryRole,
                   count == 0 ? tr("none yet") : (count == 1 ? tr("1 dataset") : tr("%1 datasets").arg(count)));
  }
  for (QTreeWidgetItemIterator it(this); *it; ++it) {
    const QString key = keyOf(*it);
    (*it)->setExpanded(firstFill || !collapsed.contains(key));
    if (selected.contains(key)) (*it)->setSelected(true);
  }
}

QTreeWidgetItem* ProjectTree::findItem(ItemType type, qint64 id) const {
  for (QTreeWidgetItemIterator it(const_cast<ProjectTree*>(this)); *it; ++it)
    if ((*it)->data(0, ItemTypeRole).toInt() == type && (*it)->data(0, IdRole).toLongLong() == id) return *it;
  return nullptr;
}

QTreeWidgetItem* ProjectTree::groupItem(core::DataKind kind) const {
  return findItem(GroupItem, static_cast<int>(kind));
}
QTreeWidgetItem* ProjectTree::datasetItem(qint64 datasetId) const { return findItem(DatasetItem, datasetId); }
QTreeWidgetItem* ProjectTree::runItem(qint64 runId) const { return findItem(RunItem, runId); }

qint64 ProjectTree::selectedDatasetId() const {
  const auto items = selectedItems();
  if (items.isEmpty()) return 0;
  QTreeWidgetItem* item = items.first();
  if (item->data(0, ItemTypeRole).toInt() == RunItem) item = item->parent();
  return item && item->data(0, ItemTypeRole).toInt() == DatasetItem ? item->data(0, IdRole).toLongLong() : 0;
}

qint64 ProjectTree::selectedRunId() const {
  const auto items = selectedItems();
  if (items.isEmpty() || items.first()->data(0, ItemTypeRole).toInt() != RunItem) return 0;
  return items.first()->data(0, IdRole).toLongLong();
}

QList<qint64> ProjectTree::selectedRunIds() const {
  QList<qint64> ids;
  for (QTreeWidgetItemIterator it(const_cast<ProjectTree*>(this), QTreeWidgetItemIterator::Selected); *it; ++it)
    if ((*it)->data(0, ItemTypeRole).toInt() == RunItem) ids << (*it)->data(0, IdRole).toLongLong();
  return ids;
}

void ProjectTree::activate(QTreeWidgetItem* item) {
  if (!item) return;
  const qint64 id = item->data(0, IdRole).toLongLong();
  switch (item->data(0, ItemTypeRole).toInt()) {
    case DatasetItem:
      Q_EMIT openDatasetRequested(id);
      break;
    case RunItem:
      Q_EMIT openRunRequested(id);
      break;
    default:
      item->setExpanded(!item->isExpanded());
      break;
  }
}

void ProjectTree::contextMenuEvent(QContextMenuEvent* event) {
  QTreeWidgetItem* item = itemAt(viewport()->mapFromGlobal(event->globalPos()));
  if (!item) return;
  QMenu menu(this);
  if (fillContextMenu(item, menu)) menu.exec(event->globalPos());
}

bool ProjectTree::fillContextMenu(QTreeWidgetItem* item, QMenu& menu) {
  const qint64 id = item->data(0, IdRole).toLongLong();
  switch (item->data(0, ItemTypeRole).toInt()) {
    case DatasetItem:
      menu.addAction(tr("Open"), this, [this, id] { Q_EMIT openDatasetRequested(id); });
      menu.addAction(themedIcon("start"), tr("New Run on This Dataset…"), this,
                     [this, id] { Q_EMIT newRunRequested(id); });
      menu.addAction(tr("Compare Runs"), this, [this, id] { Q_EMIT compareRunsRequested(id); })
          ->setEnabled(item->childCount() > 0);
      if (item->data(0, KindRole).toInt() == static_cast<int>(core::DataKind::Corpus))
        menu.addAction(tr("Attach Links…"), this, [this, id] { Q_EMIT attachLinksRequested(id); });
      menu.addSeparator();
      menu.addAction(tr("Rename…"), this, [this, id] { Q_EMIT renameDatasetRequested(id); });
      menu.addAction(tr("Delete…"), this, [this, id] { Q_EMIT deleteDatasetRequested(id); });
      break;
    case RunItem:
      menu.addAction(tr("Open"), this, [this, id] { Q_EMIT openRunRequested(id); });
      menu.addAction(tr("Run Again with Changes…"), this, [this, id] { Q_EMIT rerunRequested(id); });
      menu.addAction(tr("Name and Notes…"), this, [this, id] { Q_EMIT annotateRunRequested(id); })
          ->setStatusTip(tr("Give the run a name of its own and write notes on it"));
      menu.addSeparator();
      {
        // The selected runs when the menu is on one of them, else this run alone.
        QList<qint64> runs = selectedRunIds();
        if (!item->isSelected() || runs.isEmpty()) runs = {id};
        QAction* compare = menu.addAction(
            runs.size() > 1 ? tr("Precision–Recall of %1 Runs…").arg(runs.size()) : tr("Precision–Recall…"), this,
            [this, runs] { Q_EMIT precisionRecallRequested(runs); });
        compare->setStatusTip(
            tr("Document retrieval with held-out documents as queries, the runs' curves overlaid "
               "(select several runs of one labelled corpus with Ctrl)"));
      }
      menu.addSeparator();
      menu.addAction(tr("Remove Snapshots…"), this, [this, id] { Q_EMIT removeSnapshotsRequested(id); })
          ->setStatusTip(tr("Delete the run's intermediate snapshots; its final results stay"));
      menu.addAction(tr("Delete Run…"), this, [this, id] { Q_EMIT deleteRunRequested(id); });
      break;
    default:
      return false;
  }
  return true;
}

}  // namespace latent::ui
