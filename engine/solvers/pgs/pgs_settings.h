// Settings of the projected Gauss-Seidel solver: its typed struct and the descriptor table the
// scene reader, `--set`, the run report, the studio's solver panel and docs/scene-format.md read
// (settings_table.h).
#pragma once

#include "engine/core/math.h"
#include "engine/solvers/settings_table.h"

namespace sim {

struct SolverOptions;

/// How PGS removes penetration (joints always use Baumgarte, as in Bullet).
enum class PgsPositionCorrection {
  /// a velocity bias β·c/Δt in the rows themselves (adds energy to what it corrects)
  kBaumgarte = 0,
  /// a second solve on pseudo-velocities that move positions only (Catto 2006, Bullet)
  kSplitImpulse,
};

struct PgsSettings {
  int iterations = 20;  ///< Gauss-Seidel sweeps over all rows per step
  /// sweeps past `iterations`, up to this many in all, while a sweep still changes some row's
  /// velocity by more than extra_sweep_tolerance (friction at its threshold, a fresh stack)
  int max_iterations = 60;
  Real extra_sweep_tolerance = 1e-5;  ///< [m/s]
  bool warm_start = true;
  PgsPositionCorrection position_correction = PgsPositionCorrection::kSplitImpulse;
  Real baumgarte = 0.2;  ///< fraction β of the position error removed per step [-]
  Real slop = 0.0005;    ///< penetration left uncorrected, against jitter [m]
  Real tolerance = 0;    ///< stop when no row's impulse changes more than this [N·s] (0: never)
  /// kStepUnconverged when the last sweep still met a row velocity residual above this [m/s]
  Real unconverged_velocity = 0.1;
};

/// The descriptor table of the PGS solver's settings.
const SettingsTable& PgsSettingsTable();

/// The PGS settings of `options` (its defaults where the options have none).
PgsSettings ReadPgsSettings(const SolverOptions& options);

}  // namespace sim
