// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/help/shortcut_list.hpp"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSet>
#include <QTableWidget>
#include <QVBoxLayout>

#include "ui/util/table_style.hpp"

namespace latent::ui {
namespace {

QString plainMenuText(QString text) {
  text.replace(QStringLiteral("&&"), QStringLiteral("\x01"));
  text.remove(QLatin1Char('&'));
  text.replace(QChar(0x01), QLatin1Char('&'));
  return text;
}

void addEntry(QList<ShortcutEntry>& out, QSet<const QAction*>& seen, const QAction* action, const QString& where) {
  if (seen.contains(action) || action->isSeparator() || action->shortcuts().isEmpty()) return;
  seen.insert(action);
  QStringList keys;
  for (const QKeySequence& key : action->shortcuts()) keys << key.toString(QKeySequence::NativeText);
  out.push_back({keys.join(QStringLiteral(", ")), plainMenuText(action->text()), where});
}

void walkMenu(QList<ShortcutEntry>& out, QSet<const QAction*>& seen, const QMenu* menu, const QString& where) {
  for (const QAction* action : menu->actions()) {
    if (const QMenu* sub = action->menu())
      walkMenu(out, seen, sub, where + QStringLiteral(" ▸ ") + plainMenuText(sub->title()));
    else
      addEntry(out, seen, action, where);
  }
}

}  // namespace

QList<ShortcutEntry> collectShortcuts(QMainWindow* window) {
  QList<ShortcutEntry> out;
  QSet<const QAction*> seen;
  for (const QAction* top : window->menuBar()->actions())
    if (const QMenu* menu = top->menu()) walkMenu(out, seen, menu, plainMenuText(menu->title()));
  for (const QAction* action : window->findChildren<QAction*>()) addEntry(out, seen, action, QString());
  return out;
}

ShortcutsDialog::ShortcutsDialog(QMainWindow* window) : QDialog(window) {
  setWindowTitle(tr("Keyboard Shortcuts"));
  const auto entries = collectShortcuts(window);
  m_table = new QTableWidget(static_cast<int>(entries.size()), 3, this);
  m_table->setHorizontalHeaderLabels({tr("Keys"), tr("Action"), tr("Menu")});
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  makeCompact(m_table);
  for (int row = 0; row < entries.size(); ++row) {
    m_table->setItem(row, 0, new QTableWidgetItem(entries[row].keys));
    m_table->setItem(row, 1, new QTableWidgetItem(entries[row].action));
    m_table->setItem(row, 2, new QTableWidgetItem(entries[row].menu));
  }
  m_table->resizeColumnsToContents();
  m_table->horizontalHeader()->setStretchLastSection(true);
  auto* note = new QLabel(tr("Read from the window's menus as they are now."), this);
  note->setWordWrap(true);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(m_table, 1);
  layout->addWidget(note);
  layout->addWidget(buttons);
  resize(560, 460);
}

}  // namespace latent::ui
