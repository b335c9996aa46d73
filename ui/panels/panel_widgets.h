// Small widget makers the panels share.
#pragma once

#include <QDoubleSpinBox>
#include <QString>

namespace sim::ui {

/// A spin box over [lower, upper] at `value`, stepping by `step`, showing `decimals` decimals and
/// `suffix` (a unit).
inline QDoubleSpinBox* SpinBox(double lower, double upper, double value, double step, int decimals,
                               const QString& suffix, QWidget* parent) {
  auto* box = new QDoubleSpinBox(parent);
  box->setRange(lower, upper);
  box->setDecimals(decimals);
  box->setSingleStep(step);
  box->setValue(value);
  box->setSuffix(suffix);
  return box;
}

}  // namespace sim::ui
