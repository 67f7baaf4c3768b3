// SPDX-License-Identifier: GPL-3.0-or-later
// LogView: read-only, monospace time stamps, colour only for warnings and errors.
#include "ui/widgets/log_view.hpp"

#include <QDateTime>
#include <QScrollBar>

namespace latent::ui {

LogView::LogView(QWidget* parent) : QPlainTextEdit(parent) {
  setReadOnly(true);
  setMaximumBlockCount(5000);
  setUndoRedoEnabled(false);
  setLineWrapMode(QPlainTextEdit::WidgetWidth);
  setPlaceholderText(tr("Imports, runs and errors are logged here."));
}

void LogView::append(const QString& message, Level level) {
  const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss"));
  m_lines << stamp + QLatin1Char(' ') + message;
  QString colour;
  switch (level) {
    case Level::Info:
      break;
    case Level::Success:
      colour = QStringLiteral("#3a9a5b");
      break;
    case Level::Warning:
      colour = QStringLiteral("#c98a12");
      break;
    case Level::Error:
      colour = QStringLiteral("#d0443a");
      break;
  }
  const QString body = message.toHtmlEscaped();
  const QString stampHtml = QStringLiteral("<span style=\"color:gray\">%1</span>&nbsp;&nbsp;").arg(stamp);
  appendHtml(stampHtml +
             (colour.isEmpty() ? body : QStringLiteral("<span style=\"color:%1\">%2</span>").arg(colour, body)));
  verticalScrollBar()->setValue(verticalScrollBar()->maximum());
}

}  // namespace latent::ui
