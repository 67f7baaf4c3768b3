// SPDX-License-Identifier: GPL-3.0-or-later
// The model catalogue and option checking shared by the command line and the run panel.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "models/model.hpp"
#include "models/network/irm.hpp"
#include "models/network/mmsb.hpp"
#include "models/network/sbm.hpp"
#include "models/ratings/pmf.hpp"
#include "models/topic/lda_gibbs.hpp"
#include "models/topic/lda_online.hpp"
#include "models/topic/lda_vb.hpp"
#include "models/topic/mixture.hpp"
#include "models/topic/plsa.hpp"
#include "models/topic/unigram.hpp"
#include "util/errors.hpp"
#include "util/parse_number.hpp"

namespace latent::core {
namespace {

struct Entry {
  const ModelInfo& (*info)();
  std::unique_ptr<Model> (*make)();
};

// One line per model, in the order of DESIGN §3.
const Entry kModels[] = {
    {&unigramInfo, &makeUnigramModel},
    {&mixtureInfo, &makeMixtureModel},
    {&plsaInfo, &makePlsaModel},
    {&ldaGibbsInfo, &makeLdaGibbsModel},
    {&ldaVbInfo, &makeLdaVbModel},
    {&ldaOnlineInfo, &makeLdaOnlineModel},
    {&sbmInfo, &makeSbmModel},
    {&mmsbInfo, &makeMmsbModel},
    {&irmInfo, &makeIrmModel},
    {&pmfInfo, &makePmfModel},
};

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

// An option as the command line spells it (`non_edges` -> `--non-edges`; both are accepted there,
// and `list models` shows the dashes).
std::string flag(std::string name) {
  std::replace(name.begin(), name.end(), '_', '-');
  return "--" + name;
}

nlohmann::json checkValue(const ModelInfo& model, const OptionSpec& spec, const nlohmann::json& value) {
  const std::string where = "option " + flag(spec.name) + " of " + model.name;
  switch (spec.type) {
    case OptionSpec::Type::Boolean:
      if (!value.is_boolean()) throw UsageError(where + " must be true or false");
      return value;
    case OptionSpec::Type::Choice: {
      const auto text = value.is_string() ? value.get<std::string>() : std::string();
      if (std::find(spec.choices.begin(), spec.choices.end(), text) == spec.choices.end()) {
        std::string list;
        for (const auto& c : spec.choices) list += (list.empty() ? "" : ", ") + c;
        throw UsageError(where + " must be one of: " + list);
      }
      return value;
    }
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

std::vector<const ModelInfo*> modelCatalogue() {
  std::vector<const ModelInfo*> out;
  for (const auto& e : kModels) out.push_back(&e.info());
  return out;
}

std::unique_ptr<Model> createModel(std::string_view name) {
  for (const auto& e : kModels)
    if (e.info().name == name) return e.make();
  std::string names;
  for (const auto& e : kModels) names += (names.empty() ? "" : ", ") + e.info().name;
  throw UsageError("unknown model '" + std::string(name) + "' (available: " + names + ")");
}

nlohmann::json resolveOptions(const ModelInfo& model, const nlohmann::json& given) {
  if (!given.is_null() && !given.is_object()) throw UsageError("model options must be a JSON object");
  nlohmann::json resolved = nlohmann::json::object();
  for (const auto& spec : model.options)
    resolved[spec.name] = given.is_object() && given.contains(spec.name) ? checkValue(model, spec, given[spec.name])
                                                                         : spec.defaultValue;
  if (given.is_object()) {
    for (const auto& [key, value] : given.items()) {
      const bool known = std::any_of(model.options.begin(), model.options.end(), [&](const auto& s) { return s.name == key; });
      if (!known) {
        std::string names;
        for (const auto& s : model.options) names += (names.empty() ? "" : ", ") + flag(s.name);
        throw UsageError("model " + model.name + " has no option " + flag(key) +
                         (names.empty() ? "" : " (its options: " + names + ")"));
      }
    }
  }
  return resolved;
}

nlohmann::json parseOptionValue(const OptionSpec& spec, std::string_view text) {
  switch (spec.type) {
    case OptionSpec::Type::Boolean:
      if (text == "true" || text == "1" || text == "yes") return true;
      if (text == "false" || text == "0" || text == "no") return false;
      throw UsageError("option " + flag(spec.name) + " must be true or false (got '" + std::string(text) + "')");
    case OptionSpec::Type::Choice:
      return std::string(text);
    case OptionSpec::Type::Integer:
      if (const auto v = parseInteger(text)) return *v;
      throw UsageError("option " + flag(spec.name) + " must be a whole number (got '" + std::string(text) + "')");
    case OptionSpec::Type::Real:
      if (const auto v = parseReal(text)) return *v;
      throw UsageError("option " + flag(spec.name) + " must be a number (got '" + std::string(text) + "')");
  }
  return nullptr;
}

}  // namespace latent::core
