// SPDX-License-Identifier: GPL-3.0-or-later
// Reading and writing topic labels.
#include "core/store/topic_label_store.hpp"

#include <optional>

#include "core/store/run_store.hpp"
#include "core/util/errors.hpp"
#include "core/util/utf8.hpp"

namespace latent::core {

void setTopicLabel(Project& project, std::int64_t runId, std::int64_t topic, const std::string& label) {
  if (!utf8::isValid(label)) throw UsageError("a topic label must be valid UTF-8 text");
  if (label.find_first_of("\r\n") != std::string::npos) throw UsageError("a topic label must fit on one line");
  if (utf8::codePointCount(label) > kMaxTopicLabelLength)
    throw UsageError("a topic label can have at most " + std::to_string(kMaxTopicLabelLength) + " characters");
  loadRun(project, runId);  // throws UsageError when the run is missing
  if (topic < 0) throw UsageError("topic numbers start at 0, not " + std::to_string(topic));
  // When the run has its final topic-word matrix, the topic must be one of its rows.
  auto rows = project.db().prepare(
      "SELECT rows FROM run_matrices WHERE run_id = ?1 AND name = 'topic_word' AND iteration = -1");
  rows.bind(1, runId);
  if (rows.step() && topic >= rows.integer(0))
    throw UsageError("run " + std::to_string(runId) + " has " + std::to_string(rows.integer(0)) + " topics (0 to " +
                     std::to_string(rows.integer(0) - 1) + "), not topic " + std::to_string(topic));

  const bool ownTransaction = !project.db().inTransaction();
  std::optional<Transaction> tx;
  if (ownTransaction) tx.emplace(project.db());
  if (label.empty()) {
    project.db()
        .prepare("DELETE FROM topic_labels WHERE run_id = ?1 AND topic = ?2")
        .bind(1, runId)
        .bind(2, topic)
        .run();
  } else {
    auto s = project.db().prepare(
        "INSERT INTO topic_labels (run_id, topic, label) VALUES (?1, ?2, ?3) "
        "ON CONFLICT (run_id, topic) DO UPDATE SET label = excluded.label");
    s.bind(1, runId).bind(2, topic).bind(3, label).run();
  }
  if (tx) tx->commit();
}

std::map<std::int64_t, std::string> loadTopicLabels(Project& project, std::int64_t runId) {
  auto s = project.db().prepare("SELECT topic, label FROM topic_labels WHERE run_id = ?1 ORDER BY topic");
  s.bind(1, runId);
  std::map<std::int64_t, std::string> out;
  while (s.step()) out.emplace(s.integer(0), s.text(1));
  return out;
}

}  // namespace latent::core
