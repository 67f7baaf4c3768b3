// SPDX-License-Identifier: GPL-3.0-or-later
// The model catalogue and option checking shared by the command line and the run panel.
#include <stdexcept>

#include "core/models/harmonium/gb_efh.hpp"
#include "core/models/harmonium/rbm.hpp"
#include "core/models/harmonium/rbm_gaussian.hpp"
#include "core/models/harmonium/rbm_ratings.hpp"
#include "core/models/harmonium/rsm.hpp"
#include "core/models/links/lda_mmsb.hpp"
#include "core/models/links/link_lda.hpp"
#include "core/models/links/rtm.hpp"
#include "core/models/model.hpp"
#include "core/models/network/irm.hpp"
#include "core/models/network/mirm.hpp"
#include "core/models/network/mmsb.hpp"
#include "core/models/network/sbm.hpp"
#include "core/models/ratings/pmf.hpp"
#include "core/models/topic/ctm.hpp"
#include "core/models/topic/dcatpca.hpp"
#include "core/models/topic/discrete_components.hpp"
#include "core/models/topic/dmr.hpp"
#include "core/models/topic/dtm.hpp"
#include "core/models/topic/epca.hpp"
#include "core/models/topic/labeled_lda.hpp"
#include "core/models/topic/lda_gibbs.hpp"
#include "core/models/topic/lda_hmm.hpp"
#include "core/models/topic/lda_online.hpp"
#include "core/models/topic/lda_vb.hpp"
#include "core/models/topic/lsa.hpp"
#include "core/models/topic/mixture.hpp"
#include "core/models/topic/nmf.hpp"
#include "core/models/topic/plsa.hpp"
#include "core/models/topic/slda.hpp"
#include "core/models/topic/unigram.hpp"
#include "core/util/errors.hpp"
#include "core/util/parse_number.hpp"

namespace latent::core {
namespace {

// One row per model, in the order of DESIGN §3.
const ModelDefinition kModels[] = {
    unigramModel(),    mixtureModel(), plsaModel(),        epcaModel(),    catpcaModel(),  dcatpcaModel(),
    ldaGibbsModel(),   ldaVbModel(),   ldaOnlineModel(),   ctmModel(),     dtmModel(),     sldaModel(),
    labeledLdaModel(), dmrModel(),     mpcaModel(),        urpModel(),     gapModel(),     nmfModel(),
    lsaModel(),        ldaHmmModel(),  rtmModel(),         linkLdaModel(), ldaMmsbModel(), sbmModel(),
    mmsbModel(),       irmModel(),     irmMultiModel(),    pmfModel(),     rbmModel(),     rsmModel(),
    rbmRatingsModel(), gbEfhModel(),   rbmGaussianModel(),
};

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

ModelInfo withFamily(ModelInfo info) {
  const auto& family = resultFamily(info.family);
  const HeldoutMetric* metric =
      info.heldoutKey.empty() ? &family.heldout.front() : findHeldoutMetric(family, info.heldoutKey);
  // A programming error, not a user's: the catalogue is built before any command runs.
  if (!metric)
    throw std::logic_error(info.name + ": the " + family.name + " family has no held-out metric '" + info.heldoutKey +
                           "'");
  info.heldoutKey = metric->key;
  info.heldoutName = metric->name;
  return info;
}

nlohmann::json resolveOptions(const ModelInfo& model, const nlohmann::json& given) {
  return resolveOptions(model.name, model.options, given);
}

nlohmann::json parseOptionValue(const OptionSpec& spec, std::string_view text) {
  switch (spec.type) {
    case OptionSpec::Type::Boolean:
      if (text == "true" || text == "1" || text == "yes") return true;
      if (text == "false" || text == "0" || text == "no") return false;
      throw UsageError("option " + optionFlag(spec.name) + " must be true or false (got '" + std::string(text) + "')");
    case OptionSpec::Type::Choice:
    case OptionSpec::Type::Text:
      return std::string(text);
    case OptionSpec::Type::Integer:
      if (const auto v = parseInteger(text)) return *v;
      throw UsageError("option " + optionFlag(spec.name) + " must be a whole number (got '" + std::string(text) + "')");
    case OptionSpec::Type::Real:
      if (const auto v = parseReal(text)) return *v;
      throw UsageError("option " + optionFlag(spec.name) + " must be a number (got '" + std::string(text) + "')");
  }
  return nullptr;
}

}  // namespace latent::core
