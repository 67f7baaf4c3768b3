// SPDX-License-Identifier: GPL-3.0-or-later
// main of tests/cli: a QCoreApplication for QProcess (what QTEST_GUILESS_MAIN did).
#include <QCoreApplication>

#include "test_case.hpp"

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  app.setAttribute(Qt::AA_Use96Dpi, true);
  return latent::test::runTestCases(argc, argv);
}
