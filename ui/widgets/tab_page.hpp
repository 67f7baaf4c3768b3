// SPDX-License-Identifier: GPL-3.0-or-later
// The base of every page in the central tab area: shows "Loading…" while its data is read off
// the GUI thread, then the page, or the error that stopped it.
#pragma once

#include <QString>
#include <QWidget>

class QLabel;
class QStackedWidget;

namespace latent::ui {

class TabPage : public QWidget {
  Q_OBJECT

 public:
  // `key` identifies the page so the main window opens each dataset or run once
  // ("dataset:3", "run:7").
  TabPage(QString key, QWidget* parent = nullptr);

  const QString& key() const noexcept { return m_key; }
  bool isLoaded() const noexcept { return m_loaded; }
  const QString& errorText() const noexcept { return m_error; }

 Q_SIGNALS:
  // The page shows its data (or its error) now: for screenshots and tests.
  void loaded();

 protected:
  void setContent(QWidget* content);
  void showLoading(const QString& text = {});
  void showContent();  // and emits loaded() the first time
  void showError(const QString& message);

 private:
  QString m_key;
  QString m_error;
  bool m_loaded = false;
  QStackedWidget* m_stack = nullptr;
  QLabel* m_loading = nullptr;
  QLabel* m_errorLabel = nullptr;
  QWidget* m_content = nullptr;
};

}  // namespace latent::ui
