// SPDX-License-Identifier: GPL-3.0-or-later
// OptionForm: OptionSpec -> widget, and back to JSON.
#include "ui/runs/option_form.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

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
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  m_layout = new QFormLayout;
  m_layout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  m_layout->setRowWrapPolicy(QFormLayout::DontWrapRows);
  outer->addLayout(m_layout);
  m_advancedToggle = new QToolButton(this);
  m_advancedToggle->setObjectName(QStringLiteral("advancedOptions"));
  m_advancedToggle->setCheckable(true);
  m_advancedToggle->setAutoRaise(true);
  m_advancedToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  m_advancedToggle->setArrowType(Qt::RightArrow);
  m_advancedToggle->hide();
  outer->addWidget(m_advancedToggle, 0, Qt::AlignLeft);
  m_advanced = new QWidget(this);
  m_advancedLayout = new QFormLayout(m_advanced);
  m_advancedLayout->setContentsMargins(0, 0, 0, 0);
  m_advancedLayout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  m_advancedLayout->setRowWrapPolicy(QFormLayout::DontWrapRows);
  m_advanced->hide();
  outer->addWidget(m_advanced);
  m_help = new QLabel(this);
  m_help->setObjectName(QStringLiteral("optionHelp"));
  m_help->setWordWrap(true);
  m_help->setForegroundRole(QPalette::PlaceholderText);
  QFont small = m_help->font();
  small.setPointSizeF(small.pointSizeF() * 0.9);
  m_help->setFont(small);
  m_help->setMinimumHeight(m_help->fontMetrics().height() * 3);
  m_help->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  m_help->hide();
  outer->addWidget(m_help);
  connect(m_advancedToggle, &QToolButton::toggled, this, &OptionForm::setAdvancedShown);
}

bool OptionForm::advancedShown() const { return !m_advanced->isHidden(); }

void OptionForm::setAdvancedShown(bool shown) {
  m_advanced->setVisible(shown);
  {
    const QSignalBlocker block(m_advancedToggle);
    m_advancedToggle->setChecked(shown);
  }
  m_advancedToggle->setArrowType(shown ? Qt::DownArrow : Qt::RightArrow);
}

QString OptionForm::helpText() const { return m_help->isHidden() ? QString() : m_help->text(); }

void OptionForm::showHelpOf(QWidget* field) {
  const QString help = field ? field->toolTip() : QString();
  if (help.isEmpty()) return;
  const QString name = field->objectName();
  m_help->setText(QStringLiteral("<b>%1</b>: %2").arg(optionLabel(utf8(name)).toHtmlEscaped(), help.toHtmlEscaped()));
  m_help->show();
}

bool OptionForm::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() == QEvent::FocusIn || event->type() == QEvent::Enter)
    if (auto* w = qobject_cast<QWidget*>(watched); w && m_fields.value(w->objectName()) == w) showHelpOf(w);
  return QWidget::eventFilter(watched, event);
}

void OptionForm::setModel(const core::ModelInfo* model) {
  m_model = model;
  while (m_layout->rowCount() > 0) m_layout->removeRow(0);
  while (m_advancedLayout->rowCount() > 0) m_advancedLayout->removeRow(0);
  m_fields.clear();
  m_common.clear();
  m_help->clear();
  m_help->hide();
  setAdvancedShown(false);
  m_advancedToggle->hide();
  if (!model) return;
  if (model->options.empty()) {
    auto* none = new QLabel(tr("This model has no options."), this);
    none->setForegroundRole(QPalette::PlaceholderText);
    m_layout->addRow(none);
    return;
  }
  const bool fold = static_cast<int>(model->options.size()) > kFoldOptionsAbove;
  int advancedCount = 0;
  for (std::size_t i = 0; i < model->options.size(); ++i) {
    const auto& spec = model->options[i];
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
    // A spin box sizes itself for the widest value of its range (1e12 and more); in a narrow run
    // panel that pushed every field past the edge.
    field->setMinimumWidth(kOptionFieldMinimumWidth);
    if (spec.type != core::OptionSpec::Type::Boolean) guardWheel(field);
    m_fields.insert(qs(spec.name), field);
    field->installEventFilter(this);
    // The first options (a model lists its main ones first) and the document fields it needs stay
    // in view; the rest fold.
    const bool common = !fold || static_cast<int>(i) < kCommonOptionCount || spec.type == core::OptionSpec::Type::Text;
    if (common) m_common << qs(spec.name);
    auto* label = new QLabel(optionLabel(spec.name), common ? static_cast<QWidget*>(this) : m_advanced);
    label->setToolTip(help);
    label->setBuddy(field);
    if (!common) field->setParent(m_advanced);
    (common ? m_layout : m_advancedLayout)->addRow(label, field);
    if (!common) ++advancedCount;
  }
  if (advancedCount > 0) {
    m_advancedToggle->setText(tr("Advanced options (%1)").arg(advancedCount));
    m_advancedToggle->show();
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
  bool changedAdvanced = false;
  for (const auto& spec : m_model->options)
    if (options.contains(spec.name)) {
      setField(spec, options[spec.name]);
      if (!isCommon(qs(spec.name)) && options[spec.name] != spec.defaultValue) changedAdvanced = true;
    }
  // A run being repeated with changes shows every option it set away from its default.
  if (changedAdvanced) setAdvancedShown(true);
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
