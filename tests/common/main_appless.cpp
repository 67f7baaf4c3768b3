// SPDX-License-Identifier: GPL-3.0-or-later
// main of the engine's test folders: no application object (what QTEST_APPLESS_MAIN did).
#include "test_case.hpp"

int main(int argc, char** argv) { return latent::test::runTestCases(argc, argv); }
