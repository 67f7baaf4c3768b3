// SPDX-License-Identifier: GPL-3.0-or-later
// What the central area shows with no project open: new, open, recent projects and samples.
#pragma once

#include <QStringList>
#include <QWidget>

class QVBoxLayout;

namespace latent::ui {

class StartPage final : public QWidget {
  Q_OBJECT

 public:
  explicit StartPage(QWidget* parent = nullptr);

  void setRecentProjects(const QStringList& files);

 Q_SIGNALS:
  void newProjectRequested();
  void openProjectRequested();
  void recentProjectRequested(const QString& file);
  // A built-in sample, explored in a temporary project.
  void sampleRequested(const QString& sample);

 private:
  QVBoxLayout* m_recentLayout = nullptr;
};

}  // namespace latent::ui
