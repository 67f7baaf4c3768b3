// SPDX-License-Identifier: GPL-3.0-or-later
// Building blocks for model options that every family shares (topic, network, ratings).
#pragma once

#include <cstdint>
#include <string>

#include "models/model.hpp"

namespace latent::core {

// Any integer option: name, default, range and its one-line help.
OptionSpec integerOption(const std::string& name, std::int64_t defaultValue, double minimum, double maximum,
                         const std::string& help);
// Any real option; `exclusiveMinimum` makes the minimum itself invalid (a prior must be > 0).
OptionSpec realOption(const std::string& name, double defaultValue, double minimum, double maximum, bool exclusiveMinimum,
                      const std::string& help);
OptionSpec booleanOption(const std::string& name, bool defaultValue, const std::string& help);
OptionSpec choiceOption(const std::string& name, const std::string& defaultValue, std::vector<std::string> choices,
                        const std::string& help);
// Seeded starts of which the best is kept; `help` says what a poor start looks like.
OptionSpec restartsOption(std::int64_t defaultRestarts, const std::string& help);

// True at every evalEvery-th iteration and at the last one.
bool evaluationDue(std::int64_t iteration, std::int64_t lastIteration, int evalEvery) noexcept;

}  // namespace latent::core
