// SPDX-License-Identifier: GPL-3.0-or-later
// Option builders shared by every model family.
#include "models/option_specs.hpp"

#include <utility>

namespace latent::core {

OptionSpec integerOption(const std::string& name, std::int64_t defaultValue, double minimum, double maximum,
                         const std::string& help) {
  OptionSpec o;
  o.name = name;
  o.type = OptionSpec::Type::Integer;
  o.defaultValue = defaultValue;
  o.minimum = minimum;
  o.maximum = maximum;
  o.help = help;
  return o;
}

OptionSpec realOption(const std::string& name, double defaultValue, double minimum, double maximum, bool exclusiveMinimum,
                      const std::string& help) {
  OptionSpec o;
  o.name = name;
  o.type = OptionSpec::Type::Real;
  o.defaultValue = defaultValue;
  o.minimum = minimum;
  o.maximum = maximum;
  o.minimumExclusive = exclusiveMinimum;
  o.help = help;
  return o;
}

OptionSpec booleanOption(const std::string& name, bool defaultValue, const std::string& help) {
  OptionSpec o;
  o.name = name;
  o.type = OptionSpec::Type::Boolean;
  o.defaultValue = defaultValue;
  o.help = help;
  return o;
}

OptionSpec choiceOption(const std::string& name, const std::string& defaultValue, std::vector<std::string> choices,
                        const std::string& help) {
  OptionSpec o;
  o.name = name;
  o.type = OptionSpec::Type::Choice;
  o.defaultValue = defaultValue;
  o.choices = std::move(choices);
  o.help = help;
  return o;
}

OptionSpec restartsOption(std::int64_t defaultRestarts, const std::string& help) {
  return integerOption("restarts", defaultRestarts, 1, 1000, help);
}

bool evaluationDue(std::int64_t iteration, std::int64_t lastIteration, int evalEvery) noexcept {
  return iteration == lastIteration || (evalEvery > 0 && iteration % evalEvery == 0);
}

}  // namespace latent::core
