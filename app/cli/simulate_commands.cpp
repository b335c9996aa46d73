#include "app/cli/simulate_commands.h"

#include "app/cli/compare_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <tbb/global_control.h>
#include <tbb/info.h>

#include "engine/io/default_scene.h"
#include "engine/io/overrides.h"
#include "engine/io/run_report.h"
#include "engine/solvers/solver.h"
#include "engine/step/pipeline.h"

namespace sim::cli {

namespace {

// steps closer than this to a whole number are that number (1 s / (1/120 s) is 120, not 121)
constexpr double kStepRounding = 1e-9;

// the scene (a scene file, or the default scene around a robot, mesh or tet mesh file), or
// nullopt after printing why it did not load
std::optional<io::Scene> LoadOrReport(const std::string& path) {
  Expected<io::Scene> scene = io::LoadAnyScene(path);
  std::fputs(scene.diagnostics().Format().c_str(), stderr);
  if (!scene.ok()) return std::nullopt;
  return std::move(scene.value());
}


// a copy of `base` with --dt, --set and the config applied; null after printing the errors
std::shared_ptr<const Model> ConfiguredModel(const Model& base, const RunOptions* run,
                                             const std::vector<std::string>& sets,
                                             const io::SolverConfig* config) {
  auto model = std::make_shared<Model>(base);
  Diagnostics diagnostics;
  if (run != nullptr && run->dt_given) {
    char value[32];
    std::snprintf(value, sizeof(value), "%.17g", run->dt);
    diagnostics.Append(
        io::ApplyOverride("solver.dt", value, "--dt " + std::string(value), model.get()));
  }
  for (const std::string& assignment : sets) {
    diagnostics.Append(io::ApplyOverride(assignment, model.get()));
  }
  if (config != nullptr) diagnostics.Append(io::ApplySolverConfig(*config, model.get()));
  if (run != nullptr && !run->solver.empty()) model->options.solver.name = run->solver;
  std::fputs(diagnostics.Format().c_str(), stderr);
  if (diagnostics.has_errors()) return nullptr;
  return model;
}


// the simulation, or null after printing why the solver could not be made
std::unique_ptr<Simulation> CreateOrReport(std::shared_ptr<const Model> model,
                                           const State& initial_state) {
  const std::string name = model->options.solver.name;
  Expected<std::unique_ptr<Simulation>> simulation =
      Simulation::Create(std::move(model), initial_state, name);
  std::fputs(simulation.diagnostics().Format().c_str(), stderr);
  if (!simulation.ok()) return nullptr;
  return std::move(simulation.value());
}


// a simulation of `config` (scene model + --set + the config's own settings) and its label;
// null after reporting the error. With `unsupported`, a solver that refuses the scene is no
// error: its first reason goes there (and the diagnostics to stderr), and null is returned.
std::unique_ptr<Simulation> ConfigSimulation(const io::Scene& scene,
                                             const std::vector<std::string>& sets,
                                             const io::SolverConfig& config, std::string* label,
                                             std::string* unsupported = nullptr) {
  std::shared_ptr<const Model> model = ConfiguredModel(*scene.model, nullptr, sets, &config);
  if (!model) return nullptr;
  *label = config.label.empty() ? model->options.solver.name : config.label;
  const SolverInfo* info = FindSolver(model->options.solver.name);
  if (unsupported != nullptr && info != nullptr) {
    const Diagnostics refused = CheckSolverSupports(*info, *model);
    if (refused.has_errors()) {
      std::fputs(refused.Format().c_str(), stderr);
      *unsupported = refused.items().front().message;
      return nullptr;
    }
  }
  return CreateOrReport(model, scene.initial_state);
}


// this build has no CUDA solver: say so once and run on the CPU
std::string EffectiveBackend(const std::string& requested, const char* subcommand) {
  if (requested == "cuda") {
    std::fprintf(stderr,
                 "contact-sim %s: note: no CUDA solver in this build yet; running on the cpu "
                 "backend\n",
                 subcommand);
  }
  return "cpu";
}


// steps for `duration` seconds of `dt` (at least one)
int StepsFor(double duration, double dt) {
  return std::max(1, static_cast<int>(std::ceil(duration / dt - kStepRounding)));
}


// first dynamic body (the one compare tracks), or -1
int FirstDynamicBody(const Model& model) {
  for (int b = 0; b < model.body_count(); ++b) {
    if (!model.body_static[b]) return b;
  }
  return -1;
}


bool WriteOrReport(const std::string& path, const std::string& text) {
  std::string error;
  if (io::WriteTextFile(path, text, &error)) return true;
  std::cerr << path << ": error: cannot write: " << error << "\n";
  return false;
}


// the configs of --solvers, or nullopt after printing the errors
std::optional<std::vector<io::SolverConfig>> ParseConfigsOrReport(const std::string& list) {
  Expected<std::vector<io::SolverConfig>> configs = io::ParseSolverConfigs(list);
  std::fputs(configs.diagnostics().Format().c_str(), stderr);
  if (!configs.ok()) return std::nullopt;
  return std::move(configs.value());
}


void PrintRunSummary(const std::string& scene, const io::RunResult& run) {
  const io::StepLog& log = run.log;
  const SolverOptions& s = run.model->options.solver;
  std::printf("%s: %s (%s), %d steps of %.6g s, t = %.6g s\n", scene.c_str(), run.label.c_str(),
              run.backend.c_str(), log.steps, s.dt, run.final_state.time);
  std::printf("  step ms: median %.4f, p95 %.4f (collision %.4f, assembly %.4f, solve %.4f)\n",
              io::Median(log.step_ms), io::Percentile(log.step_ms, 95),
              io::Median(log.collision_ms), io::Median(log.assembly_ms), io::Median(log.solve_ms));
  std::printf("  status: %s\n", log.status.ToString().c_str());
  std::printf(
      "  final residual %.3g (max %.3g), max penetration %.3g m, energy drift %.3g, contacts max "
      "%d, tets %d\n",
      log.final_residual_last, log.final_residual_max, log.max_penetration,
      io::EnergyDriftRelative(*run.model, run.initial_state, run.final_state), log.contacts_max,
      run.model->tet_count());
  // each probe's last sample
  const Model& model = *run.model;
  for (std::size_t p = 0; p < model.probes.size() && run.probes.sample_count() > 0; ++p) {
    const int count = ProbeValueCount(model.probes[p].kind);
    const std::vector<Real>& values = run.probes.samples[p];
    std::printf("  probe '%s' (%s): final", model.probes[p].name.c_str(),
                ProbeKindName(model.probes[p].kind));
    for (int k = 0; k < count; ++k) std::printf(" %.6g", values[values.size() - count + k]);
    std::printf("\n");
  }
}

}  // namespace


int RunSimulation(const RunOptions& options) {
  std::optional<io::Scene> scene = LoadOrReport(options.scene);
  if (!scene) return kExitInputError;
  std::shared_ptr<const Model> model =
      ConfiguredModel(*scene->model, &options, options.sets, nullptr);
  if (!model) return kExitUsage;
  const std::string backend = EffectiveBackend(options.backend, "run");
  std::unique_ptr<Simulation> simulation = CreateOrReport(model, scene->initial_state);
  if (!simulation) return kExitUsage;

  // the output files open before stepping so a bad path fails fast
  io::TrajectoryWriter trajectory;
  io::ContactWriter contact_dump;
  std::string error;
  if (!options.trajectory.empty() && !trajectory.Open(options.trajectory, &error)) {
    std::cerr << options.trajectory << ": error: cannot write: " << error << "\n";
    return kExitInputError;
  }
  if (!options.contacts.empty() && !contact_dump.Open(options.contacts, &error)) {
    std::cerr << options.contacts << ": error: cannot write: " << error << "\n";
    return kExitInputError;
  }

  // step and record
  io::RunResult run;
  run.label = model->options.solver.name;
  run.backend = backend;
  run.model = model;
  run.initial_state = simulation->state();
  const int steps =
      options.steps > 0 ? options.steps : StepsFor(options.duration, model->options.solver.dt);
  run.probes.Reset(*model);
  for (int i = 0; i < steps; ++i) {
    run.log.Add(simulation->Step());
    if (!options.trajectory.empty()) trajectory.Append(*model, simulation->state());
    if (!options.contacts.empty()) {
      contact_dump.Append(*model, simulation->state(), simulation->contacts());
    }
    if (!model->probes.empty()) run.probes.Record(*model, simulation->state());
  }
  run.final_state = simulation->state();

  // outputs
  PrintRunSummary(options.scene, run);
  if (!trajectory.Close(&error)) {
    std::cerr << options.trajectory << ": error: " << error << "\n";
    return kExitInputError;
  }
  if (!contact_dump.Close(&error)) {
    std::cerr << options.contacts << ": error: " << error << "\n";
    return kExitInputError;
  }
  if (!options.report.empty() &&
      !WriteOrReport(options.report, io::RunReportJson(options.scene, run))) {
    return kExitInputError;
  }
  // a result the user must not trust is said on stderr; non-finite and runaway runs fail
  const io::StatusCounts& status = run.log.status;
  if (status.count(kStepUnconverged) > 0) {
    std::fprintf(stderr, "%s: warning: %d unconverged step(s), the last: %s\n",
                 options.scene.c_str(), status.count(kStepUnconverged),
                 run.log.last_problem.c_str());
  }
  if (status.count(kStepNonFinite) > 0 || status.count(kStepRunaway) > 0) {
    std::fprintf(stderr, "%s: error: %d non-finite and %d runaway step(s): %s\n",
                 options.scene.c_str(), status.count(kStepNonFinite), status.count(kStepRunaway),
                 run.log.last_problem.c_str());
    return kExitInputError;
  }
  return kExitOk;
}


int RunCompare(const CompareOptions& options) {
  std::optional<io::Scene> scene = LoadOrReport(options.scene);
  if (!scene) return kExitInputError;
  std::optional<std::vector<io::SolverConfig>> configs = ParseConfigsOrReport(options.solvers);
  if (!configs) return kExitUsage;

  // one simulation per config, all from the scene's initial state; a config whose solver
  // refuses the scene is listed as unsupported, with the reason, and the others run
  std::vector<std::unique_ptr<Simulation>> simulations;
  std::vector<io::RunResult> runs;
  std::vector<io::UnsupportedConfig> unsupported;
  for (const io::SolverConfig& config : *configs) {
    io::RunResult run;
    std::string refused;
    std::unique_ptr<Simulation> simulation =
        ConfigSimulation(*scene, options.sets, config, &run.label, &refused);
    if (!refused.empty()) {
      unsupported.push_back({run.label, refused});
      continue;
    }
    if (!simulation) return kExitUsage;
    run.model = simulation->model_ptr();
    run.initial_state = simulation->state();
    runs.push_back(std::move(run));
    simulations.push_back(std::move(simulation));
  }

  if (runs.empty()) {
    std::fprintf(stderr, "compare: error: no config's solver supports the scene\n");
    return kExitUsage;
  }

  // the reference config: an index or a label
  int reference = 0;
  if (!options.reference.empty()) {
    reference = -1;
    for (std::size_t c = 0; c < runs.size(); ++c) {
      if (runs[c].label == options.reference || std::to_string(c) == options.reference) {
        reference = static_cast<int>(c);
      }
    }
    if (reference < 0) {
      std::fprintf(stderr, "compare: error: --reference %s names no config (0-%zu or a label)\n",
                   options.reference.c_str(), runs.size() - 1);
      return kExitUsage;
    }
  }

  // lockstep: step i of every config before step i + 1, then each one's divergence from the
  // reference's state after that step
  const int steps = options.steps > 0
                        ? options.steps
                        : StepsFor(1.0, simulations.front()->model().options.solver.dt);
  for (int i = 0; i < steps; ++i) {
    for (std::size_t c = 0; c < simulations.size(); ++c) runs[c].log.Add(simulations[c]->Step());
    const State& reference_state = simulations[reference]->state();
    for (std::size_t c = 0; c < simulations.size(); ++c) {
      runs[c].divergence.push_back(MeasureDivergence(simulations[c]->model(),
                                                     simulations[c]->state(), reference_state,
                                                     simulations[c]->report()));
    }
  }
  for (std::size_t c = 0; c < simulations.size(); ++c) {
    runs[c].final_state = simulations[c]->state();
  }

  // table: one line per config; the tracked body's distance is from the first config's
  const Model& model = *scene->model;
  const int body = FirstDynamicBody(model);
  std::printf("%s: %d steps in lockstep; position of body '%s'\n", options.scene.c_str(), steps,
              body >= 0 ? model.body_name[body].c_str() : "(none)");
  std::printf("%-32s %10s %12s %12s  %-28s %-32s %10s\n", "config", "ms_median", "max_pen_m",
              "residual_max", "status", "position", "distance");
  int nonfinite = 0;
  for (const io::RunResult& run : runs) {
    const io::StepLog& log = run.log;
    nonfinite += log.status.count(kStepNonFinite);
    char position[96] = "-";
    char distance[32] = "-";
    if (body >= 0) {
      const Vec3& p = run.final_state.body_X_WB[body].p;
      std::snprintf(position, sizeof(position), "%.4f %.4f %.4f", p.x(), p.y(), p.z());
      std::snprintf(distance, sizeof(distance), "%.3g",
                    (p - runs.front().final_state.body_X_WB[body].p).norm());
    }
    std::printf("%-32s %10.4f %12.3g %12.3g  %-28s %-32s %10s\n", run.label.c_str(),
                io::Median(log.step_ms), log.max_penetration, log.final_residual_max,
                log.status.ToString().c_str(), position, distance);
  }
  for (const io::UnsupportedConfig& config : unsupported) {
    std::printf("%-32s unsupported: %s\n", config.label.c_str(), config.reason.c_str());
  }

  if (!options.report.empty() &&
      !WriteOrReport(options.report,
                     io::CompareReportJson(options.scene, runs, reference, unsupported))) {
    return kExitInputError;
  }
  if (!options.plot.empty() &&
      !WriteOrReport(options.plot,
                     ComparePlotSvg(scene->model->name.empty() ? options.scene : scene->model->name,
                                    runs, reference))) {
    return kExitInputError;
  }
  return nonfinite > 0 ? kExitInputError : kExitOk;
}


int RunBench(const BenchOptions& options) {
  // the engine's parallel loops use at most this many threads while the bench runs
  const int threads =
      options.threads > 0 ? options.threads : static_cast<int>(tbb::info::default_concurrency());
  tbb::global_control thread_limit(tbb::global_control::max_allowed_parallelism, threads);
  std::optional<std::vector<io::SolverConfig>> configs = ParseConfigsOrReport(options.solvers);
  if (!configs) return kExitUsage;
  const std::string backend = EffectiveBackend(options.backend, "bench");

  std::string csv =
      "scene,solver,backend,threads,steps,repeat,newton_iterations,linear_iterations,"
      "contacts_median,ms_min,ms_median,ms_p95,collision_ms_median,assembly_ms_median,"
      "solve_ms_median,status\n";
  // column widths fit the longest scene path and config label
  int scene_width = 5;
  int label_width = 6;
  for (const std::string& path : options.scenes) {
    scene_width = std::max(scene_width, static_cast<int>(path.size()));
  }
  for (const io::SolverConfig& config : *configs) {
    label_width = std::max(label_width, static_cast<int>(config.label.size()));
  }
  std::printf("%-*s  %-*s %10s %9s %10s %10s %10s %13s %12s %10s  %s\n", scene_width, "scene",
              label_width, "solver", "iters", "contacts", "ms_median", "ms_p95", "ms_min",
              "collision_ms", "assembly_ms", "solve_ms", "status");
  int exit_code = kExitOk;
  for (const std::string& path : options.scenes) {
    std::optional<io::Scene> scene = LoadOrReport(path);
    if (!scene) {
      exit_code = kExitInputError;
      continue;
    }
    for (const io::SolverConfig& config : *configs) {
      std::string label;
      std::unique_ptr<Simulation> simulation =
          ConfigSimulation(*scene, options.sets, config, &label);
      if (!simulation) return kExitUsage;

      // warm up to a typical state, then time every repeat from that same state
      bool finite = true;
      for (int i = 0; i < options.warmup; ++i) {
        finite &= (simulation->Step().status & kStepNonFinite) == 0;
      }
      const State saved = simulation->state();
      io::StepLog log;
      for (int r = 0; r < options.repeat; ++r) {
        simulation->set_state(saved);
        for (int i = 0; i < options.steps; ++i) log.Add(simulation->Step());
        // a fast but wrong run fails (style §3.9)
        finite &= IsFinite(simulation->state());
      }
      finite &= log.status.count(kStepNonFinite) == 0 && log.status.count(kStepRunaway) == 0;
      if (!finite) exit_code = kExitInputError;

      // one row
      // outer x inner iterations of the last step (Newton x linear, or PGS sweeps alone)
      const StepReport& last = simulation->report();
      // a fast but unconverged run is not "ok" either: its share of flagged steps
      std::string status = finite ? "ok" : "FAILED";
      if (finite && log.status.count(kStepUnconverged) > 0) {
        status = "unconverged " + std::to_string(log.status.count(kStepUnconverged)) + "/" +
                 std::to_string(options.repeat * options.steps);
      }
      char iterations[32];
      const int outer = std::max(1, last.outer_iterations);
      if (last.inner_iterations > 0) {
        std::snprintf(iterations, sizeof(iterations), "%dx%d", last.outer_iterations,
                      last.inner_iterations / outer);
      } else {
        std::snprintf(iterations, sizeof(iterations), "%d", last.outer_iterations);
      }
      std::printf("%-*s  %-*s %10s %9.0f %10.4f %10.4f %10.4f %13.4f %12.4f %10.4f  %s\n",
                  scene_width, path.c_str(), label_width, label.c_str(), iterations,
                  io::Median(log.contacts), io::Median(log.step_ms),
                  io::Percentile(log.step_ms, 95), io::Minimum(log.step_ms),
                  io::Median(log.collision_ms), io::Median(log.assembly_ms),
                  io::Median(log.solve_ms), status.c_str());
      std::fflush(stdout);
      char numbers[512];
      std::snprintf(numbers, sizeof(numbers), "%d,%d,%d,%d,%d,%g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%s",
                    threads, options.steps, options.repeat, last.outer_iterations,
                    last.inner_iterations / outer, io::Median(log.contacts),
                    io::Minimum(log.step_ms), io::Median(log.step_ms),
                    io::Percentile(log.step_ms, 95), io::Median(log.collision_ms),
                    io::Median(log.assembly_ms), io::Median(log.solve_ms), status.c_str());
      csv += io::CsvField(path) + "," + io::CsvField(label) + "," + backend + "," + numbers + "\n";
    }
  }

  if (!options.csv.empty() && !WriteOrReport(options.csv, csv)) return kExitInputError;
  return exit_code;
}


std::unique_ptr<Simulation> CreateSceneSimulation(const io::Scene& scene) {
  return CreateOrReport(scene.model, scene.initial_state);
}


int SimulateScene(const io::Scene& scene, int steps, State* state, Contacts* contacts) {
  std::unique_ptr<Simulation> simulation = CreateSceneSimulation(scene);
  if (!simulation) return kExitUsage;
  io::StatusCounts status;
  for (int i = 0; i < steps; ++i) status.Add(simulation->Step().status);
  if (status.count(kStepNonFinite) > 0) {
    std::fprintf(stderr, "%s: warning: %d non-finite step(s); rendering the last good state\n",
                 scene.path.c_str(), status.count(kStepNonFinite));
  }
  *state = simulation->state();
  if (contacts != nullptr) *contacts = simulation->contacts();
  return kExitOk;
}

}  // namespace sim::cli
