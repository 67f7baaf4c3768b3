// SPDX-License-Identifier: GPL-3.0-or-later
// Help > User Guide (F1): the manual compiled into the application (resources/help/user_guide.html),
// read offline in a text browser with its headings listed beside it; a click on a heading goes there.
#pragma once

#include <QWidget>

class QTextBrowser;
class QTreeWidget;

namespace latent::ui {

class UserGuideWindow final : public QWidget {
  Q_OBJECT

 public:
  explicit UserGuideWindow(QWidget* parent = nullptr);

  QTextBrowser* browser() const noexcept { return m_browser; }
  QTreeWidget* contents() const noexcept { return m_contents; }
  // Scrolls to the first heading with this text; false when there is none.
  bool showSection(const QString& heading);
  // The heading at the top of the view (or the last one above it).
  QString currentSection() const;

 private:
  QTextBrowser* m_browser = nullptr;
  QTreeWidget* m_contents = nullptr;
};

}  // namespace latent::ui
