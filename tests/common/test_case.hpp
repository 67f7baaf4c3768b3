// SPDX-License-Identifier: GPL-3.0-or-later
// Each folder of tests is one executable (tests_core, tests_models, ...) holding all its tst_*.cpp;
// a file registers its Qt Test class with LATENT_TEST_CASE(Class) where it used to say
// QTEST_APPLESS_MAIN(Class). The folder's main runs the class named by its first argument with the
// rest as Qt Test's arguments (`tests_models LdaGibbsTest -v2 fitsSmallCorpus`), or every class when
// the first argument is not a name. tests/CMakeLists.txt reads the names from the sources and gives
// each class its own CTest entry.
#pragma once

#include <QObject>

#include <memory>

namespace latent::test {

using TestFactory = std::unique_ptr<QObject> (*)();

// Adds a class to the executable's list (from a static initialiser; returns true to initialise it).
bool registerTestCase(const char* name, const char* file, TestFactory make);

// What a folder's main returns: runs the class named by argv[1] or all of them (see above).
int runTestCases(int argc, char** argv);

}  // namespace latent::test

// At namespace scope, after the class (on a line of its own: CMake finds it with a regex).
#define LATENT_TEST_CASE(TestClass)                                                                      \
  namespace {                                                                                            \
  [[maybe_unused]] const bool latentTestCase_##TestClass = ::latent::test::registerTestCase(             \
      #TestClass, __FILE__, []() -> std::unique_ptr<QObject> { return std::make_unique<TestClass>(); }); \
  }
