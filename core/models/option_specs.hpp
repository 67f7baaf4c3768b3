// SPDX-License-Identifier: GPL-3.0-or-later
// One option of a model as the command line parses it and the run panel shows it, and the
// builders every model family shares. Defaults are not given here: an option table takes each
// default from the model's options struct (models/option_table.hpp).
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace latent::core {

struct OptionSpec {
  enum class Type { Integer, Real, Boolean, Choice, Text };
  std::string name;  // JSON key and command-line flag (--name); "k" and "iterations" are shared
  Type type = Type::Real;
  nlohmann::json defaultValue;
  double minimum = -std::numeric_limits<double>::infinity();
  double maximum = std::numeric_limits<double>::infinity();
  bool minimumExclusive = false;
  std::vector<std::string> choices;  // for Choice
  std::string help;                  // one line a student understands
};

// The maximum of an option that has none.
inline constexpr double kNoMaximum = std::numeric_limits<double>::infinity();

// Any integer option: name, range and its one-line help.
OptionSpec integerOption(const std::string& name, double minimum, double maximum, const std::string& help);
// Any real option; `exclusiveMinimum` makes the minimum itself invalid (a prior must be > 0).
OptionSpec realOption(const std::string& name, double minimum, double maximum, bool exclusiveMinimum,
                      const std::string& help);
OptionSpec booleanOption(const std::string& name, const std::string& help);
// A choice among named values; an enum field's table row names them, a string field's gives `choices`.
OptionSpec choiceOption(const std::string& name, std::vector<std::string> choices, const std::string& help);
// Free text: the name of a document field ("time", "party") or a comma-separated list of them. The
// model checks it against the data when a fit starts.
OptionSpec textOption(const std::string& name, const std::string& help);
// Seeded starts of which the best is kept; `help` says what a poor start looks like.
OptionSpec restartsOption(const std::string& help);

// An option as the command line spells it (`non_edges` -> `--non-edges`).
std::string optionFlag(std::string name);

// True at every evalEvery-th iteration and at the last one.
bool evaluationDue(std::int64_t iteration, std::int64_t lastIteration, int evalEvery) noexcept;

}  // namespace latent::core
