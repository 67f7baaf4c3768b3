// SPDX-License-Identifier: GPL-3.0-or-later
// The built-in demos (Help ▸ Demos, latent-studio --demo NAME): each imports a sample into a
// temporary project, opens the right view, and may fit a model.
#pragma once

#include <QString>
#include <QVector>

#include <optional>

namespace latent::ui {

struct DemoSpec {
  QString name;         // --demo NAME
  QString title;        // one line
  QString explanation;  // two sentences: what is shown, what to look at
  QString sample;       // the built-in sample to import
  QString model;        // a model to fit afterwards (held-out 0.1, seed 1), or empty
  QString orderBy;      // graphs: the node attribute to order the adjacency matrix by, or empty
};

QVector<DemoSpec> demoCatalogue();
// A demo by name; "sample:NAME" is the plain exploration of a sample (the start page's links).
std::optional<DemoSpec> findDemo(const QString& name);
// "corpus-unigram, gibbs-toy, ..." for messages.
QString demoNames();

}  // namespace latent::ui
