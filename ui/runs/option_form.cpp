// SPDX-License-Identifier: GPL-3.0-or-later
// OptionForm: OptionSpec -> widget, and back to JSON.
#include "ui/runs/option_form.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>

#include <algorithm>
#include <climits>
#include <cmath>

#include "ui/util/qt_convert.hpp"
#include "ui/util/wheel_guard.hpp"

namespace latent::ui {
namespace {

// Enough decimals to show the default and small steps below it (0.01 -> 4 decimals).
int decimalsFor(double value) {
  if (value == 0.0 || !std::isfinite(value)) return 3;
  const int leading = static_cast<int>(std::floor(std::log10(std::abs(value))));
  return std::clamp(2 - leading, 2, 8);
}

}  // namespace

QString optionLabel(const std::string& name) {
  if (name == "k") return QObject::tr("K (topics or blocks)");
  QString label = qs(name);
  label.replace(QLatin1Char('_'), QLatin1Char(' ')).replace(QLatin1Char('-'), QLatin1Char(' '));
  if (!label.isEmpty()) label[0] = label[0].toUpper();
  return label;
}

OptionForm::OptionForm(QWidget* parent) : QWidget(parent) {
  m_layout = new QFormLayout(this);
  m_layout->setContentsMargins(0, 0, 0, 0);
  m_layout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  m_layout->setRowWrapPolicy(QFormLayout::DontWrapRows);
}

void OptionForm::setModel(const core::ModelInfo* model) {
  m_model = model;
  while (m_layout->rowCount() > 0) m_layout->removeRow(0);
  m_fields.clear();
  if (!model) return;
  if (model->options.empty()) {
    auto* none = new QLabel(tr("This model has no options."), this);
    none->setForegroundRole(QPalette::PlaceholderText);
    m_layout->addRow(none);
    return;
  }
  for (const auto& spec : model->options) {
    QWidget* field = nullptr;
    const QString help = qs(spec.help);
    switch (spec.type) {
      case core::OptionSpec::Type::Integer: {
        auto* box = new QSpinBox(this);
        const double lo = std::isfinite(spec.minimum) ? spec.minimum + (spec.minimumExclusive ? 1 : 0) : INT_MIN;
        const double hi = std::isfinite(spec.maximum) ? spec.maximum : INT_MAX;
        box->setRange(static_cast<int>(std::max<double>(lo, INT_MIN)), static_cast<int>(std::min<double>(hi, INT_MAX)));
        box->setGroupSeparatorShown(true);
        field = box;
        break;
      }
      case core::OptionSpec::Type::Real: {
        auto* box = new QDoubleSpinBox(this);
        const double def = spec.defaultValue.is_number() ? spec.defaultValue.get<double>() : 0.0;
        const int decimals = decimalsFor(def);
        box->setDecimals(decimals);
        const double step = std::pow(10.0, -decimals);
        const double lo = std::isfinite(spec.minimum) ? spec.minimum + (spec.minimumExclusive ? step : 0.0) : -1e12;
        const double hi = std::isfinite(spec.maximum) ? spec.maximum : 1e12;
        box->setRange(lo, hi);
        box->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
        field = box;
        break;
      }
      case core::OptionSpec::Type::Boolean:
        field = new QCheckBox(tr("on"), this);
        break;
      case core::OptionSpec::Type::Choice: {
        auto* box = new QComboBox(this);
        for (const auto& c : spec.choices) box->addItem(qs(c), qs(c));
        field = box;
        break;
      }
      case core::OptionSpec::Type::Text: {
        // Editable: the dataset's fields are offered (setTextSuggestions), anything may be typed.
        auto* box = new QComboBox(this);
        box->setEditable(true);
        box->setInsertPolicy(QComboBox::NoInsert);
        box->setProperty("freeText", true);
        field = box;
        break;
      }
    }
    field->setObjectName(qs(spec.name));
    field->setToolTip(help);
    if (spec.type != core::OptionSpec::Type::Boolean) guardWheel(field);
    m_fields.insert(qs(spec.name), field);
    auto* label = new QLabel(optionLabel(spec.name), this);
    label->setToolTip(help);
    label->setBuddy(field);
    m_layout->addRow(label, field);
    if (!help.isEmpty()) {
      auto* helpLabel = new QLabel(help, this);
      helpLabel->setWordWrap(true);
      helpLabel->setForegroundRole(QPalette::PlaceholderText);
      QFont small = helpLabel->font();
      small.setPointSizeF(small.pointSizeF() * 0.9);
      helpLabel->setFont(small);
      m_layout->addRow(QString(), helpLabel);
    }
  }
  resetToDefaults();
}

void OptionForm::setField(const core::OptionSpec& spec, const nlohmann::json& value) {
  QWidget* w = field(qs(spec.name));
  if (!w) return;
  if (auto* box = qobject_cast<QSpinBox*>(w)) {
    if (value.is_number()) box->setValue(static_cast<int>(value.get<double>()));
  } else if (auto* box = qobject_cast<QDoubleSpinBox*>(w)) {
    if (value.is_number()) box->setValue(value.get<double>());
  } else if (auto* box = qobject_cast<QCheckBox*>(w)) {
    if (value.is_boolean()) box->setChecked(value.get<bool>());
  } else if (auto* box = qobject_cast<QComboBox*>(w)) {
    if (!value.is_string()) return;
    if (box->isEditable())
      box->setEditText(qs(value.get<std::string>()));
    else
      box->setCurrentIndex(std::max(0, box->findData(qs(value.get<std::string>()))));
  }
}

void OptionForm::resetToDefaults() {
  if (!m_model) return;
  for (const auto& spec : m_model->options) setField(spec, spec.defaultValue);
}

void OptionForm::setValues(const nlohmann::json& options) {
  resetToDefaults();
  if (!m_model || !options.is_object()) return;
  for (const auto& spec : m_model->options)
    if (options.contains(spec.name)) setField(spec, options[spec.name]);
}

nlohmann::json OptionForm::values() const {
  nlohmann::json out = nlohmann::json::object();
  if (!m_model) return out;
  for (const auto& spec : m_model->options) {
    QWidget* w = field(qs(spec.name));
    if (auto* box = qobject_cast<QSpinBox*>(w))
      out[spec.name] = static_cast<std::int64_t>(box->value());
    else if (auto* box = qobject_cast<QDoubleSpinBox*>(w))
      out[spec.name] = box->value();
    else if (auto* box = qobject_cast<QCheckBox*>(w))
      out[spec.name] = box->isChecked();
    else if (auto* box = qobject_cast<QComboBox*>(w))
      out[spec.name] = utf8(box->isEditable() ? box->currentText().trimmed() : box->currentData().toString());
  }
  return out;
}

void OptionForm::setTextSuggestions(const QStringList& suggestions) {
  if (!m_model) return;
  for (const auto& spec : m_model->options) {
    if (spec.type != core::OptionSpec::Type::Text) continue;
    auto* box = qobject_cast<QComboBox*>(field(qs(spec.name)));
    if (!box) continue;
    const QString text = box->currentText();
    box->clear();
    box->addItems(suggestions);
    box->setEditText(text);
  }
}

}  // namespace latent::ui
