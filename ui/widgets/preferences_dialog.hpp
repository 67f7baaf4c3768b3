// SPDX-License-Identifier: GPL-3.0-or-later
// Edit > Preferences: default threads and seed of new runs, the stop words of imports, the theme.
#pragma once

#include <QDialog>

#include "ui/util/preferences.hpp"

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace latent::ui {

// Shows `initial`; OK saves the edited preferences and applies the theme at once.
class PreferencesDialog : public QDialog {
  Q_OBJECT

 public:
  explicit PreferencesDialog(const Preferences& initial, QWidget* parent = nullptr);

  // The preferences as edited so far.
  Preferences preferences() const;

  QSpinBox* threadsBox() const noexcept { return m_threads; }
  QSpinBox* seedBox() const noexcept { return m_seed; }
  QComboBox* stopWordsBox() const noexcept { return m_stopWords; }
  QLineEdit* stopFileEdit() const noexcept { return m_stopFile; }
  QComboBox* themeBox() const noexcept { return m_theme; }

  void accept() override;

 Q_SIGNALS:
  // After OK: the preferences are saved and the theme applied.
  void preferencesChanged(const latent::ui::Preferences& preferences);

 private:
  void updateEnabled();

  QSpinBox* m_threads = nullptr;
  QSpinBox* m_seed = nullptr;
  QComboBox* m_stopWords = nullptr;
  QLineEdit* m_stopFile = nullptr;
  QComboBox* m_theme = nullptr;
};

}  // namespace latent::ui
