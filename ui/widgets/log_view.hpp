// SPDX-License-Identifier: GPL-3.0-or-later
// The log at the bottom of the main window: timestamped lines about imports, runs and errors.
#pragma once

#include <QPlainTextEdit>
#include <QStringList>

namespace latent::ui {

class LogView final : public QPlainTextEdit {
  Q_OBJECT

 public:
  enum class Level { Info, Success, Warning, Error };

  explicit LogView(QWidget* parent = nullptr);

  void append(const QString& message, Level level = Level::Info);
  // The plain lines as shown (with their time stamps), for tests.
  const QStringList& lines() const noexcept { return m_lines; }

 private:
  QStringList m_lines;
};

}  // namespace latent::ui
