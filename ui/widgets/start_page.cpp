// SPDX-License-Identifier: GPL-3.0-or-later
// StartPage: a centred column of command-link buttons, readable at any window size.
#include "ui/widgets/start_page.hpp"

#include <QCommandLinkButton>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include "core/jobs/samples.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"

namespace latent::ui {
namespace {

QLabel* heading(const QString& text, QWidget* parent) {
  auto* label = new QLabel(text, parent);
  QFont f = label->font();
  f.setPointSizeF(f.pointSizeF() * 1.25);
  f.setBold(true);
  label->setFont(f);
  return label;
}

QCommandLinkButton* link(const QIcon& icon, const QString& title, const QString& description, QWidget* parent) {
  auto* button = new QCommandLinkButton(title, description, parent);
  button->setIcon(icon);
  button->setIconSize(QSize(28, 28));
  return button;
}

}  // namespace

StartPage::StartPage(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("startPage"));
  auto* content = new QWidget;
  content->setMaximumWidth(1100);

  // Title row.
  auto* logo = new QLabel;
  logo->setPixmap(appIcon().pixmap(72, 72));
  auto* title = new QLabel(tr("Latent Studio"));
  QFont tf = title->font();
  tf.setPointSizeF(tf.pointSizeF() * 2.2);
  tf.setBold(true);
  title->setFont(tf);
  auto* tagline =
      new QLabel(tr("Latent variable models for text, networks and ratings: import your data, fit a "
                    "model in the background, read what it found."));
  tagline->setWordWrap(true);
  auto* titleText = new QVBoxLayout;
  titleText->addWidget(title);
  titleText->addWidget(tagline);
  auto* titleRow = new QHBoxLayout;
  titleRow->addWidget(logo, 0, Qt::AlignTop);
  titleRow->addSpacing(12);
  titleRow->addLayout(titleText, 1);

  // Left column: start and recent projects.
  auto* left = new QVBoxLayout;
  left->addWidget(heading(tr("Start"), this));
  auto* newButton = link(themedIcon("new"), tr("New Project…"), tr("Create an empty project file (.latent)."), this);
  auto* openButton = link(themedIcon("open"), tr("Open Project…"), tr("Open a project you saved before."), this);
  connect(newButton, &QCommandLinkButton::clicked, this, &StartPage::newProjectRequested);
  connect(openButton, &QCommandLinkButton::clicked, this, &StartPage::openProjectRequested);
  left->addWidget(newButton);
  left->addWidget(openButton);
  left->addSpacing(16);
  left->addWidget(heading(tr("Recent projects"), this));
  m_recentLayout = new QVBoxLayout;
  left->addLayout(m_recentLayout);
  left->addStretch(1);

  // Right column: samples.
  auto* right = new QVBoxLayout;
  right->addWidget(heading(tr("Explore a sample"), this));
  auto* note = new QLabel(tr("Each opens in a temporary project, imported in the background."));
  note->setEnabled(false);
  note->setWordWrap(true);
  right->addWidget(note);
  for (const auto& sample : core::builtInSamples()) {
    auto* button = link(kindIcon(sample.kind), qs(sample.title), qs(sample.description), this);
    const QString name = qs(sample.name);
    connect(button, &QCommandLinkButton::clicked, this, [this, name] { Q_EMIT sampleRequested(name); });
    right->addWidget(button);
  }
  right->addStretch(1);

  auto* columns = new QHBoxLayout;
  columns->addLayout(left, 2);
  columns->addSpacing(32);
  columns->addLayout(right, 3);

  auto* contentLayout = new QVBoxLayout(content);
  contentLayout->setContentsMargins(40, 32, 40, 32);
  contentLayout->addLayout(titleRow);
  contentLayout->addSpacing(24);
  contentLayout->addLayout(columns, 1);

  auto* centred = new QWidget;
  auto* centreLayout = new QHBoxLayout(centred);
  centreLayout->addStretch(1);
  centreLayout->addWidget(content, 100);
  centreLayout->addStretch(1);

  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setWidget(centred);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(scroll);
  setRecentProjects({});
}

void StartPage::setRecentProjects(const QStringList& files) {
  while (auto* item = m_recentLayout->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  if (files.isEmpty()) {
    auto* none = new QLabel(tr("No recent projects yet."));
    none->setEnabled(false);
    m_recentLayout->addWidget(none);
    return;
  }
  for (const QString& file : files) {
    const QFileInfo info(file);
    auto* button = link(appIcon(), info.fileName(), QDir::toNativeSeparators(info.absolutePath()), this);
    button->setToolTip(file);
    connect(button, &QCommandLinkButton::clicked, this, [this, file] { Q_EMIT recentProjectRequested(file); });
    m_recentLayout->addWidget(button);
  }
}

}  // namespace latent::ui
