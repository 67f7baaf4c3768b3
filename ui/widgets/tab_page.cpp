// SPDX-License-Identifier: GPL-3.0-or-later
// TabPage: a stack of loading label, content and error label.
#include "ui/widgets/tab_page.hpp"

#include <QLabel>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace latent::ui {

TabPage::TabPage(QString key, QWidget* parent) : QWidget(parent), m_key(std::move(key)) {
  m_stack = new QStackedWidget(this);
  m_loading = new QLabel(tr("Loading…"), this);
  m_loading->setAlignment(Qt::AlignCenter);
  m_loading->setEnabled(false);  // drawn in the palette's disabled (grey) text colour
  m_errorLabel = new QLabel(this);
  m_errorLabel->setAlignment(Qt::AlignCenter);
  m_errorLabel->setWordWrap(true);
  m_errorLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_errorLabel->setStyleSheet(QStringLiteral("color: #d0443a;"));
  m_stack->addWidget(m_loading);
  m_stack->addWidget(m_errorLabel);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_stack);
}

void TabPage::setContent(QWidget* content) {
  m_content = content;
  m_stack->addWidget(content);
}

void TabPage::showLoading(const QString& text) {
  m_loading->setText(text.isEmpty() ? tr("Loading…") : text);
  m_stack->setCurrentWidget(m_loading);
}

void TabPage::showContent() {
  if (m_content) m_stack->setCurrentWidget(m_content);
  if (!m_loaded) {
    m_loaded = true;
    Q_EMIT loaded();
  }
}

void TabPage::showError(const QString& message) {
  m_error = message;
  m_errorLabel->setText(message);
  m_stack->setCurrentWidget(m_errorLabel);
  if (!m_loaded) {
    m_loaded = true;
    Q_EMIT loaded();
  }
}

}  // namespace latent::ui
