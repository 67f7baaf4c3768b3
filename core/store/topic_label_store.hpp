// SPDX-License-Identifier: GPL-3.0-or-later
// The names a user gives to the topics of a run, kept in the project file (table topic_labels).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "core/store/project.hpp"

namespace latent::core {

// The longest label accepted, in characters (code points): a name, not a description.
inline constexpr std::size_t kMaxTopicLabelLength = 120;

// Names topic `topic` (0-based row of the run's topic_word matrix) of run `runId`; an empty label
// removes the name. One short transaction unless the caller holds one. Throws UsageError when
// the run does not exist, the topic is not one of the run's, or the label is not valid UTF-8,
// holds a line break or is longer than kMaxTopicLabelLength.
void setTopicLabel(Project& project, std::int64_t runId, std::int64_t topic, const std::string& label);

// topic -> label for the named topics of a run (none: empty map).
std::map<std::int64_t, std::string> loadTopicLabels(Project& project, std::int64_t runId);

}  // namespace latent::core
