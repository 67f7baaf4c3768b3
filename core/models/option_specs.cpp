// SPDX-License-Identifier: GPL-3.0-or-later
// Option builders shared by every model family, and the checking of a run's options against them.
#include "core/models/option_specs.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>

#include "core/models/option_table.hpp"
#include "core/util/errors.hpp"

namespace latent::core {
namespace {

std::string describeRange(const OptionSpec& spec) {
  std::ostringstream out;
  const bool hasMin = std::isfinite(spec.minimum), hasMax = std::isfinite(spec.maximum);
  if (hasMin && hasMax && spec.minimumExclusive) {
    out << "greater than " << spec.minimum << " and at most " << spec.maximum;
  } else if (hasMin && hasMax) {
    out << "between " << spec.minimum << " and " << spec.maximum;
  } else if (hasMin) {
    out << (spec.minimumExclusive ? "greater than " : "at least ") << spec.minimum;
  } else if (hasMax) {
    out << "at most " << spec.maximum;
  }
  return out.str();
}

std::string listed(const std::vector<std::string>& names) {
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  return list;
}

nlohmann::json checkValue(std::string_view model, const OptionSpec& spec, const nlohmann::json& value) {
  const std::string where = "option " + optionFlag(spec.name) + " of " + std::string(model);
  switch (spec.type) {
    case OptionSpec::Type::Boolean:
      if (!value.is_boolean()) throw UsageError(where + " must be true or false");
      return value;
    case OptionSpec::Type::Choice: {
      const auto text = value.is_string() ? value.get<std::string>() : std::string();
      if (std::find(spec.choices.begin(), spec.choices.end(), text) == spec.choices.end())
        throw UsageError(where + " must be one of: " + listed(spec.choices) + " (got " + value.dump() + ")");
      return value;
    }
    case OptionSpec::Type::Text:
      if (!value.is_string()) throw UsageError(where + " must be text (got " + value.dump() + ")");
      return value;
    case OptionSpec::Type::Integer:
    case OptionSpec::Type::Real: {
      if (!value.is_number()) throw UsageError(where + " must be a number");
      const double x = value.get<double>();
      if (spec.type == OptionSpec::Type::Integer && (!value.is_number_integer() && x != std::floor(x)))
        throw UsageError(where + " must be a whole number");
      const bool below = spec.minimumExclusive ? !(x > spec.minimum) : !(x >= spec.minimum);
      if (!std::isfinite(x) || below || x > spec.maximum)
        throw UsageError(where + " must be " + describeRange(spec) + " (got " + value.dump() + ")");
      if (spec.type == OptionSpec::Type::Integer) return static_cast<std::int64_t>(x);
      return x;
    }
  }
  return value;
}

}  // namespace

OptionSpec integerOption(const std::string& name, double minimum, double maximum, const std::string& help) {
  OptionSpec o;
  o.name = name;
  o.type = OptionSpec::Type::Integer;
  o.minimum = minimum;
  o.maximum = maximum;
  o.help = help;
  return o;
}

OptionSpec realOption(const std::string& name, double minimum, double maximum, bool exclusiveMinimum,
                      const std::string& help) {
  OptionSpec o;
  o.name = name;
  o.type = OptionSpec::Type::Real;
  o.minimum = minimum;
  o.maximum = maximum;
  o.minimumExclusive = exclusiveMinimum;
  o.help = help;
  return o;
}

OptionSpec booleanOption(const std::string& name, const std::string& help) {
  OptionSpec o;
  o.name = name;
  o.type = OptionSpec::Type::Boolean;
  o.help = help;
  return o;
}

OptionSpec choiceOption(const std::string& name, std::vector<std::string> choices, const std::string& help) {
  OptionSpec o;
  o.name = name;
  o.type = OptionSpec::Type::Choice;
  o.choices = std::move(choices);
  o.help = help;
  return o;
}

OptionSpec textOption(const std::string& name, const std::string& help) {
  OptionSpec o;
  o.name = name;
  o.type = OptionSpec::Type::Text;
  o.help = help;
  return o;
}

OptionSpec restartsOption(const std::string& help) { return integerOption("restarts", 1, 1000, help); }

std::string optionFlag(std::string name) {
  std::replace(name.begin(), name.end(), '_', '-');
  return "--" + name;
}

bool evaluationDue(std::int64_t iteration, std::int64_t lastIteration, int evalEvery) noexcept {
  return iteration == lastIteration || (evalEvery > 0 && iteration % evalEvery == 0);
}

nlohmann::json resolveOptions(std::string_view model, const std::vector<OptionSpec>& specs,
                              const nlohmann::json& given) {
  if (!given.is_null() && !given.is_object()) throw UsageError("model options must be a JSON object");
  nlohmann::json resolved = nlohmann::json::object();
  for (const auto& spec : specs)
    resolved[spec.name] =
        given.is_object() && given.contains(spec.name) ? checkValue(model, spec, given[spec.name]) : spec.defaultValue;
  if (given.is_object()) {
    for (const auto& [key, value] : given.items()) {
      const bool known = std::any_of(specs.begin(), specs.end(), [&](const auto& s) { return s.name == key; });
      if (known) continue;
      std::vector<std::string> flags;
      for (const auto& s : specs) flags.push_back(optionFlag(s.name));
      throw UsageError("model " + std::string(model) + " has no option " + optionFlag(key) +
                       (flags.empty() ? "" : " (its options: " + listed(flags) + ")"));
    }
  }
  return resolved;
}

}  // namespace latent::core
