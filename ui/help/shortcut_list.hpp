// SPDX-License-Identifier: GPL-3.0-or-later
// Help > Keyboard Shortcuts: read from the window's actions when it is opened, so that the list
// says what the keys do in this build and cannot fall behind a changed shortcut.
#pragma once

#include <QDialog>
#include <QList>
#include <QString>

class QMainWindow;
class QTableWidget;

namespace latent::ui {

struct ShortcutEntry {
  QString keys;    // as the platform writes them: "Ctrl+R", "Ctrl+Shift+E" (several: ", ")
  QString action;  // its menu text, without the mnemonic's "&"
  QString menu;    // where it is: "Run", "File ▸ Export"; empty for an action in no menu
};

// Every action of `window` (its menus first, in menu order, then any other action it owns) that
// has a shortcut; an action in several places is listed once.
QList<ShortcutEntry> collectShortcuts(QMainWindow* window);

class ShortcutsDialog final : public QDialog {
  Q_OBJECT

 public:
  explicit ShortcutsDialog(QMainWindow* window);
  QTableWidget* table() const noexcept { return m_table; }

 private:
  QTableWidget* m_table = nullptr;
};

}  // namespace latent::ui
