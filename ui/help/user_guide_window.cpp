// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/help/user_guide_window.hpp"

#include <QFile>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QScrollBar>
#include <QSplitter>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTreeWidget>

#include "ui/util/format.hpp"
#include "ui/util/resources.hpp"

namespace latent::ui {
namespace {

constexpr int kGuideBlockRole = Qt::UserRole + 1;  // the heading's position in the document

QString guideHtml() {
  QFile file(QStringLiteral(":/help/user_guide.html"));
  if (!file.open(QIODevice::ReadOnly)) return QObject::tr("<p>The user guide is missing from this build.</p>");
  return QString::fromUtf8(file.readAll());
}

}  // namespace

UserGuideWindow::UserGuideWindow(QWidget* parent) : QWidget(parent, Qt::Window) {
  initResources();
  setWindowTitle(tr("Latent Studio User Guide"));
  setWindowIcon(appIcon());
  m_browser = new QTextBrowser(this);
  m_browser->setOpenExternalLinks(false);
  m_browser->setOpenLinks(true);  // links inside the guide (#anchors) are followed
  m_browser->setHtml(guideHtml());
  m_browser->document()->setDocumentMargin(16);

  // The headings (h1 to h3) as a tree: a section's subsections under it.
  m_contents = new QTreeWidget(this);
  m_contents->setHeaderHidden(true);
  m_contents->setObjectName(QStringLiteral("guideContents"));
  QTreeWidgetItem* byLevel[4] = {nullptr, nullptr, nullptr, nullptr};
  for (QTextBlock block = m_browser->document()->begin(); block.isValid(); block = block.next()) {
    const int level = block.blockFormat().headingLevel();
    if (level < 1 || level > 3 || block.text().trimmed().isEmpty()) continue;
    QTreeWidgetItem* parentItem = nullptr;
    for (int up = level - 1; up >= 1 && !parentItem; --up) parentItem = byLevel[up];
    auto* item = parentItem ? new QTreeWidgetItem(parentItem) : new QTreeWidgetItem(m_contents);
    item->setText(0, block.text().trimmed());
    item->setData(0, kGuideBlockRole, block.position());
    byLevel[level] = item;
    for (int deeper = level + 1; deeper <= 3; ++deeper) byLevel[deeper] = nullptr;
  }
  m_contents->expandAll();
  connect(m_contents, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
    if (item) showSection(item->text(0));
  });

  auto* splitter = new QSplitter(this);
  splitter->addWidget(m_contents);
  splitter->addWidget(m_browser);
  splitter->setStretchFactor(1, 1);
  splitter->setSizes({230, 620});
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(splitter);
  resize(900, 680);
}

bool UserGuideWindow::showSection(const QString& heading) {
  for (QTextBlock block = m_browser->document()->begin(); block.isValid(); block = block.next()) {
    if (block.blockFormat().headingLevel() == 0 || block.text().trimmed() != heading) continue;
    // The heading at the top of the view: to the end first, then back up to it.
    QTextCursor cursor(block);
    m_browser->moveCursor(QTextCursor::End);
    m_browser->setTextCursor(cursor);
    m_browser->ensureCursorVisible();
    return true;
  }
  return false;
}

QString UserGuideWindow::currentSection() const {
  const QPoint topLeft(4, 4);
  const int top = m_browser->cursorForPosition(topLeft).position();
  QString last;
  for (QTextBlock block = m_browser->document()->begin(); block.isValid() && block.position() <= top;
       block = block.next())
    if (block.blockFormat().headingLevel() > 0) last = block.text().trimmed();
  // The view stops at a heading's top line: the block at the top may be the heading itself.
  const QTextBlock atTop = m_browser->document()->findBlock(top);
  if (atTop.blockFormat().headingLevel() > 0) last = atTop.text().trimmed();
  return last;
}

}  // namespace latent::ui
