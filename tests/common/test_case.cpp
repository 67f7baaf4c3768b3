// SPDX-License-Identifier: GPL-3.0-or-later
// The list of test classes LATENT_TEST_CASE fills, and the runner every folder's main calls.
#include "test_case.hpp"

#include <QByteArray>
#include <QList>
#include <QtTest>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace latent::test {

namespace {

struct TestCase {
  std::string name;
  const char* file;
  TestFactory make;
};

std::vector<TestCase>& registry() {
  static std::vector<TestCase> cases;
  return cases;
}

int run(const TestCase& c, int argc, char** argv) {
  QTest::setMainSourcePath(c.file);  // what QTEST_MAIN does, for QFINDTESTDATA
  const auto object = c.make();
  return QTest::qExec(object.get(), argc, argv);
}

std::string names(const std::vector<TestCase>& cases) {
  std::string out;
  for (const auto& c : cases) out += (out.empty() ? "" : " ") + c.name;
  return out;
}

// CTest passes the classes CMake found in the folder's sources (LATENT_TEST_CLASSES, comma-separated);
// a class registered in a way CMake's regex misses would otherwise never run under CTest.
bool sameAsCMake(const std::vector<TestCase>& cases) {
  const QByteArray listed = qgetenv("LATENT_TEST_CLASSES");
  if (listed.isNull()) return true;
  std::set<std::string> cmake;
  for (const auto& name : listed.split(',')) {
    if (!name.isEmpty()) cmake.insert(name.toStdString());
  }
  std::set<std::string> registered;
  for (const auto& c : cases) registered.insert(c.name);
  if (cmake == registered) return true;
  std::fprintf(stderr,
               "test classes registered with LATENT_TEST_CASE: %s\nclasses tests/CMakeLists.txt found: %s\n"
               "(re-run cmake; LATENT_TEST_CASE(Class) must stand on a line of its own)\n",
               names(cases).c_str(), listed.constData());
  return false;
}

}  // namespace

bool registerTestCase(const char* name, const char* file, TestFactory make) {
  registry().push_back({name, file, make});
  return true;
}

int runTestCases(int argc, char** argv) {
  auto& cases = registry();
  std::sort(cases.begin(), cases.end(), [](const TestCase& a, const TestCase& b) { return a.name < b.name; });
  if (!sameAsCMake(cases)) return 1;

  if (argc > 1 && std::strcmp(argv[1], "-classes") == 0) {
    for (const auto& c : cases) std::printf("%s\n", c.name.c_str());
    return 0;
  }
  if (argc > 1 && argv[1][0] != '-') {
    const auto found = std::find_if(cases.begin(), cases.end(), [&](const TestCase& c) { return c.name == argv[1]; });
    if (found == cases.end()) {
      std::fprintf(stderr, "%s: no test class %s; the classes here: %s\n", argv[0], argv[1], names(cases).c_str());
      return 1;
    }
    // Qt Test sees the program name and the arguments after the class name.
    std::vector<char*> rest{argv[0]};
    rest.insert(rest.end(), argv + 2, argv + argc);
    rest.push_back(nullptr);
    return run(*found, argc - 1, rest.data());
  }
  int failed = 0;
  for (const auto& c : cases) failed += run(c, argc, argv);
  return std::min(failed, 127);
}

}  // namespace latent::test
