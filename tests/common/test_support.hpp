// SPDX-License-Identifier: GPL-3.0-or-later
// Small helpers shared by the test suites: fixture paths, scratch files, file digests.
#pragma once

#include <QCryptographicHash>
#include <QFile>
#include <QString>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace latent::test {

inline std::filesystem::path fixture(const std::string& relative) {
  return std::filesystem::path(LATENT_TEST_FIXTURES) / relative;
}

inline std::filesystem::path sample(const std::string& relative) {
  return std::filesystem::path(LATENT_SAMPLES_DIR) / relative;
}

// A scratch folder removed when the test object dies.
class Scratch {
 public:
  Scratch() { QVERIFY2(m_dir.isValid(), "cannot create a temporary folder"); }
  std::filesystem::path path(const std::string& name) const {
    return std::filesystem::path(m_dir.path().toStdString()) / name;
  }
  // Writes `contents` byte for byte and returns the path.
  std::filesystem::path write(const std::string& name, const std::string& contents) const {
    const auto p = path(name);
    std::filesystem::create_directories(p.parent_path());
    std::ofstream out(p, std::ios::binary);
    out << contents;
    return p;
  }

 private:
  QTemporaryDir m_dir;
};

// An integer from the environment (LATENT_FUZZ_CASES ...), or `fallback` when it is not set.
inline int environmentInt(const char* name, int fallback) {
  const char* text = std::getenv(name);
  return text ? std::atoi(text) : fallback;
}

// Sets an environment variable for the life of the object and restores what it was.
class ScopedEnvironment {
 public:
  ScopedEnvironment(const char* name, const char* value) : m_name(name), m_had(qEnvironmentVariableIsSet(name)) {
    if (m_had) m_old = qgetenv(name);
    qputenv(name, value);
  }
  ~ScopedEnvironment() {
    if (m_had)
      qputenv(m_name, m_old);
    else
      qunsetenv(m_name);
  }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

 private:
  const char* m_name;
  bool m_had;
  QByteArray m_old;
};

// SHA-256 of a file's bytes, or "" when it does not exist.
inline QByteArray fileDigest(const std::filesystem::path& path) {
  QFile f(QString::fromStdString(path.string()));
  if (!f.open(QIODevice::ReadOnly)) return {};
  QCryptographicHash hash(QCryptographicHash::Sha256);
  hash.addData(&f);
  return hash.result().toHex();
}

}  // namespace latent::test
