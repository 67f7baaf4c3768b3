// SPDX-License-Identifier: GPL-3.0-or-later
// main of tests/ui: a QApplication (what QTEST_MAIN does with Qt Widgets linked).
#include <QApplication>

#include "test_case.hpp"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  app.setAttribute(Qt::AA_Use96Dpi, true);
#ifdef QT_KEYPAD_NAVIGATION
  QApplication::setNavigationMode(Qt::NavigationModeNone);
#endif
  return latent::test::runTestCases(argc, argv);
}
