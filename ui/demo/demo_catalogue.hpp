// SPDX-License-Identifier: GPL-3.0-or-later
// The built-in demos (Help ▸ Demos, latent-studio --demo NAME): each imports a sample into a
// temporary project, opens the right view, and may fit a model.
#pragma once

#include <QString>
#include <QVariantMap>
#include <QVector>

#include <optional>

namespace latent::ui {

// A further fit of a demo that compares models: on the same data, split and seed as the first.
struct DemoFit {
  QString model;
  QVariantMap options;  // the model's options that differ from its defaults
};

struct DemoSpec {
  QString name;          // --demo NAME
  QString title;         // one line
  QString explanation;   // two sentences: what is shown, what to look at
  QString sample;        // the built-in sample to import
  QString model;         // a model to fit afterwards (seed 1), or empty
  QString orderBy;       // graphs: the node attribute to order the adjacency matrix by, or empty
  QVariantMap options;   // the model's options that differ from its defaults
  double heldout = 0.1;  // the fraction of the data held out of the fit
  QList<int> kValues;    // when set: one fit per K, one after another, then the Choosing K page
  // When set: these models are fitted after the first, one after another, and the demo ends on
  // the precision-recall of all its runs (document retrieval on a labelled corpus); with
  // kValues, each model is fitted at every K and the demo ends on Choosing K, where the models'
  // curves are drawn together.
  QVector<DemoFit> thenFit;
};

QVector<DemoSpec> demoCatalogue();
// A demo by name; "sample:NAME" is the plain exploration of a sample (the start page's links).
std::optional<DemoSpec> findDemo(const QString& name);
// "corpus-unigram, gibbs-toy, ..." for messages.
QString demoNames();

}  // namespace latent::ui
