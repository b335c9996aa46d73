// The simulating subcommands of contact-sim (architecture §5): `run`, `compare`, `bench`, and the
// stepping behind `render --steps`. Each takes its parsed flags and returns the exit code; human
// output goes to stdout, diagnostics and notes to stderr.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/io/scene_file.h"
#include "engine/state/contacts.h"
#include "engine/state/state.h"
#include "engine/step/pipeline.h"

namespace sim::cli {

/// Exit codes of contact-sim: success; bad input (a file with errors, a scene that does not load,
/// a non-finite simulation, a device failure); usage errors.
inline constexpr int kExitOk = 0;
inline constexpr int kExitInputError = 1;
inline constexpr int kExitUsage = 2;

struct RunOptions {
  std::string scene;
  std::string solver;  ///< empty: the scene's solver
  std::string backend = "cpu";
  int steps = 0;                  ///< 0: use `duration`
  double duration = 1.0;          ///< simulated time [s] when `steps` is 0
  bool dt_given = false;          ///< --dt was passed
  double dt = 0;                  ///< [s]
  std::vector<std::string> sets;  ///< PATH=VALUE overrides, applied in order after --dt
  std::string report;             ///< JSON report path, empty for none
  std::string trajectory;         ///< CSV trajectory path, empty for none
  std::string contacts;           ///< CSV contact dump path, empty for none
};

/// `run`: steps one solver on one scene, prints a summary, writes the report, the trajectory and
/// the contact dump.
/// 0 when the run completes, 1 when the scene does not load, a file cannot be written or a step
/// was non-finite, 2 for a bad --set/--dt/--solver.
int RunSimulation(const RunOptions& options);

struct CompareOptions {
  std::string scene;
  std::string solvers;  ///< comma-separated configs: `nsn,nsn:linear_solver=jacobi;ncp=min`
  int steps = 0;        ///< 0: one simulated second of the first config's dt
  std::vector<std::string> sets;  ///< applied to every config before its own settings
  std::string report;
  std::string plot;       ///< SVG of the divergence series (compare_plot.h)
  std::string reference;  ///< index or label of the reference config; empty: the first
};

/// `compare`: every config from the same initial state, stepped in lockstep; one table line each.
int RunCompare(const CompareOptions& options);

struct BenchOptions {
  std::vector<std::string> scenes;
  std::string solvers;  ///< as in compare; empty: each scene's own solver
  std::string backend = "cpu";
  int steps = 120;  ///< timed steps per repeat
  int repeat = 5;   ///< repeats, each from the state saved after the warm-up
  int warmup = 60;  ///< untimed steps from the initial state
  int threads = 1;  ///< worker threads of the engine's parallel loops; 0: all cores
  std::vector<std::string> sets;
  std::string csv;  ///< CSV path, empty for none
};

/// `bench`: warm-up, save, then `repeat` × `steps` timed steps per scene × config (style §3.9).
/// A run that ends non-finite or runs away (StepStatus kStepRunaway) is reported as FAILED and
/// makes the exit code 1.
int RunBench(const BenchOptions& options);

/// The scene's own solver from its initial state (`render --steps`, `render --video`), or null
/// after printing why it could not be made.
std::unique_ptr<Simulation> CreateSceneSimulation(const io::Scene& scene);

/// `render --steps`: steps the scene's own solver `steps` times from its initial state into
/// `*state`, and the last step's contacts with their forces into `*contacts` when given. Returns
/// kExitOk, or the exit code after printing why not.
int SimulateScene(const io::Scene& scene, int steps, State* state, Contacts* contacts = nullptr);

}  // namespace sim::cli
