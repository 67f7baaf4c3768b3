// SPDX-License-Identifier: GPL-3.0-or-later
// A model's options declared once: each row ties a field of the options struct to its flag,
// range and help. The catalogue entry (and so the command line's help and the run panel's form)
// and the parsing of a run's JSON options both come from the table, and the default is the
// struct's own, so a flag, a JSON key and a default can no longer disagree.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/models/option_specs.hpp"

namespace latent::core {

// Fills in defaults and checks types, ranges and choices of `given` against `specs`; an unknown
// key is an error too. Throws UsageError naming the flag, the model and what it expects.
nlohmann::json resolveOptions(std::string_view model, const std::vector<OptionSpec>& specs,
                              const nlohmann::json& given);

// `Options` is a struct whose default-constructed value holds every default. A field is an
// integer (std::int64_t or int), a double, a bool, a std::string (free text, or a choice among the
// spec's choices), or an enum with a name for each value.
template <typename Options>
class OptionTable {
 public:
  // An integer, real, boolean or free-choice option stored in `field`.
  template <typename T>
  OptionTable& add(OptionSpec spec, T Options::*field) {
    static_assert(std::is_same_v<T, std::int64_t> || std::is_same_v<T, int> || std::is_same_v<T, double> ||
                      std::is_same_v<T, bool> || std::is_same_v<T, std::string>,
                  "an option field is std::int64_t, int, double, bool or std::string (or an enum with names)");
    spec.defaultValue = Options{}.*field;
    m_specs.push_back(std::move(spec));
    m_setters.push_back([field](Options& options, const nlohmann::json& value) {
      if constexpr (std::is_same_v<T, int>)
        options.*field = static_cast<int>(value.get<std::int64_t>());
      else
        options.*field = value.get<T>();
    });
    return *this;
  }

  // A choice stored as an enum: the name of each value, in the order the help lists them.
  template <typename Enum>
  requires std::is_enum_v<Enum> OptionTable& add(OptionSpec spec, Enum Options::*field,
                                                 std::vector<std::pair<std::string, Enum>> names) {
    spec.type = OptionSpec::Type::Choice;
    spec.choices.clear();
    for (const auto& [name, value] : names) {
      spec.choices.push_back(name);
      if (value == Options{}.*field) spec.defaultValue = name;
    }
    m_specs.push_back(std::move(spec));
    m_setters.push_back([field, names = std::move(names)](Options& options, const nlohmann::json& value) {
      for (const auto& [name, e] : names)
        if (value == name) options.*field = e;
    });
    return *this;
  }

  const std::vector<OptionSpec>& specs() const noexcept { return m_specs; }

  // The options a run asked for: checked (unknown keys, types, ranges and choices are errors
  // naming the flag), defaults for the rest.
  Options parse(const nlohmann::json& given, std::string_view model) const {
    const nlohmann::json resolved = resolveOptions(model, m_specs, given);
    Options options;
    for (std::size_t i = 0; i < m_specs.size(); ++i) m_setters[i](options, resolved.at(m_specs[i].name));
    return options;
  }

 private:
  std::vector<OptionSpec> m_specs;
  std::vector<std::function<void(Options&, const nlohmann::json&)>> m_setters;
};

}  // namespace latent::core
