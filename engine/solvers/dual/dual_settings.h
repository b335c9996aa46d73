// Settings of the dual ascent solver (seed 000 chapter 5, digest pd-sdf-robotics.md §1.9,
// §1.11): its typed struct and the descriptor table the scene reader, `--set`, the run report,
// the studio's solver panel and docs/scene-format.md read (settings_table.h).
#pragma once

#include "engine/core/math.h"
#include "engine/solvers/settings_table.h"

namespace sim {

struct SolverOptions;

struct DualSettings {
  /// Jacobi iterations per substep, a fixed count as in the thesis (Table 3: 15-100)
  int iterations = 20;
  int substeps = 1;  ///< the step Δt split into this many Algorithm 3 solves (Table 3 "Steps")
  /// α of eq. (123) on top of the mass splitting: 1 is the plain XPBD update
  Real step = 1;
  /// split each body's mass between the constraints acting on it (Tonge et al.; digest §1.9,
  /// §13): without it a body under several contacts overshoots
  bool mass_splitting = true;
  /// k⁻¹ of the contact normal rows [m/N]: 0 is hard contact (the thesis's dual)
  Real contact_compliance = 0;
  /// kStepUnconverged when the final iterate still violates a row by more than this speed:
  /// the position residual over the substep [m/s]
  Real unconverged_velocity = 0.1;
};

/// The descriptor table of the dual ascent solver's settings.
const SettingsTable& DualSettingsTable();

/// The dual settings of `options` (its defaults where the options have none).
DualSettings ReadDualSettings(const SolverOptions& options);

}  // namespace sim
