// SPDX-License-Identifier: GPL-3.0-or-later
// PreferencesDialog: a form over Preferences; OK saves and applies.
#include "ui/widgets/preferences_dialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QThread>
#include <QVBoxLayout>

#include <climits>

namespace latent::ui {

PreferencesDialog::PreferencesDialog(const Preferences& initial, QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Preferences"));
  auto* form = new QFormLayout;

  m_threads = new QSpinBox(this);
  m_threads->setRange(0, 1024);
  m_threads->setSpecialValueText(tr("Automatic (%1)").arg(std::max(1, QThread::idealThreadCount() - 1)));
  m_threads->setValue(initial.threads);
  m_threads->setToolTip(tr("Worker threads a new run starts with; automatic leaves one core for the window."));
  form->addRow(tr("Threads for new runs"), m_threads);

  m_seed = new QSpinBox(this);
  m_seed->setRange(0, INT_MAX);
  m_seed->setValue(static_cast<int>(std::min<std::uint32_t>(initial.seed, INT_MAX)));
  m_seed->setToolTip(tr("The seed a new run starts with; the same seed and threads give the same numbers."));
  form->addRow(tr("Seed for new runs"), m_seed);

  m_stopWords = new QComboBox(this);
  m_stopWords->addItem(tr("Default (English for text, none for bag of words)"), QString());
  m_stopWords->addItem(tr("English (built in)"), QStringLiteral("en"));
  m_stopWords->addItem(tr("None: keep every word"), QStringLiteral("none"));
  m_stopWords->addItem(tr("From a file…"), QStringLiteral("file"));
  m_stopWords->setToolTip(tr("The stop-word list a corpus import starts with."));
  form->addRow(tr("Stop words for imports"), m_stopWords);
  m_stopFile = new QLineEdit(this);
  m_stopFile->setPlaceholderText(tr("One word per line; # starts a comment"));
  auto* browse = new QPushButton(tr("Browse…"), this);
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString file = QFileDialog::getOpenFileName(this, tr("Stop-word file"), m_stopFile->text(),
                                                      tr("Text files (*.txt);;All files (*)"));
    if (!file.isEmpty()) m_stopFile->setText(file);
  });
  auto* fileRow = new QHBoxLayout;
  fileRow->addWidget(m_stopFile, 1);
  fileRow->addWidget(browse);
  form->addRow(tr("Stop-word file"), fileRow);
  const QString stop = initial.stopWords;
  const int known = m_stopWords->findData(stop);
  if (known >= 0 && stop != QLatin1String("file")) {
    m_stopWords->setCurrentIndex(known);
  } else {
    m_stopWords->setCurrentIndex(m_stopWords->findData(QStringLiteral("file")));
    m_stopFile->setText(stop);
  }
  connect(m_stopWords, &QComboBox::currentIndexChanged, this, [this, browse] {
    updateEnabled();
    browse->setEnabled(m_stopFile->isEnabled());
  });

  m_theme = new QComboBox(this);
  m_theme->addItem(tr("System"), themeName(Theme::System));
  m_theme->addItem(tr("Light"), themeName(Theme::Light));
  m_theme->addItem(tr("Dark"), themeName(Theme::Dark));
  m_theme->setCurrentIndex(m_theme->findData(themeName(initial.theme)));
  m_theme->setToolTip(tr("The colours of the window, the charts and the topic palette."));
  form->addRow(tr("Theme"), m_theme);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &PreferencesDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &PreferencesDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(buttons);
  updateEnabled();
  browse->setEnabled(m_stopFile->isEnabled());
}

Preferences PreferencesDialog::preferences() const {
  Preferences p;
  p.threads = m_threads->value();
  p.seed = static_cast<std::uint32_t>(m_seed->value());
  const QString stop = m_stopWords->currentData().toString();
  p.stopWords = stop == QLatin1String("file") ? m_stopFile->text().trimmed() : stop;
  p.theme = themeFromName(m_theme->currentData().toString());
  return p;
}

void PreferencesDialog::accept() {
  const Preferences p = preferences();
  savePreferences(p);
  applyTheme(p.theme);
  Q_EMIT preferencesChanged(p);
  QDialog::accept();
}

void PreferencesDialog::updateEnabled() {
  m_stopFile->setEnabled(m_stopWords->currentData().toString() == QLatin1String("file"));
}

}  // namespace latent::ui
