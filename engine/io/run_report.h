// What `contact-sim run`, `compare` and `bench` measure and write: per-step figures pooled from
// StepReports, their statistics, the JSON report of architecture §5 and the trajectory CSV.
//
// JSON has no NaN or infinity: every non-finite number is written as null.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "engine/io/divergence.h"
#include "engine/model/model.h"
#include "engine/solvers/solver.h"
#include "engine/state/contacts.h"
#include "engine/state/state.h"
#include "engine/step/probes.h"

namespace sim::io {

/// Median of `samples` (mean of the two middle values for an even count); NaN when empty.
double Median(std::vector<double> samples);

/// Nearest-rank percentile, `p` in [0, 100] (p95 of 120 samples is the 114th smallest); NaN when
/// empty.
double Percentile(std::vector<double> samples, double p);

/// Smallest sample; NaN when empty.
double Minimum(const std::vector<double>& samples);

/// Largest sample; NaN when empty.
double Maximum(const std::vector<double>& samples);

/// Arithmetic mean; NaN when empty.
double Mean(const std::vector<double>& samples);

/// Number of steps with each StepStatus bit set (`ok`: steps with no bit set).
struct StatusCounts {
  int ok = 0;
  std::array<int, kStepStatusBitCount> bits = {};  ///< per entry of StepStatusTable()

  void Add(std::uint32_t status);
  /// Steps with `bit` (one StepStatus bit) set.
  int count(std::uint32_t bit) const;
  /// Steps with any bit that marks a result not to trust (ProblemBits).
  int problems = 0;
  /// "ok 118, max_iterations 2": the non-zero counts, or "no steps".
  std::string ToString() const;
};

/// Per-step figures of one run, accumulated step by step from the solver's StepReports.
struct StepLog {
  int steps = 0;
  std::vector<double> step_ms;       ///< StepReport::total_ms of every step [ms]
  std::vector<double> collision_ms;  ///< [ms]
  std::vector<double> assembly_ms;   ///< [ms]
  std::vector<double> solve_ms;      ///< [ms]
  std::vector<double> contacts;      ///< contact count of every step
  /// the solver's outer (Newton, sweep) and inner iterations of every step: the work a step
  /// took, independent of the machine's load
  std::vector<double> outer_iterations, inner_iterations;
  int contacts_max = 0;
  Real max_penetration = 0;      ///< max over steps of StepReport::max_penetration [m]
  Real max_joint_error = 0;      ///< max over steps of StepReport::max_joint_error [m]
  Real final_residual_max = 0;   ///< max over steps of StepReport::final_residual
  Real final_residual_last = 0;  ///< the last step's final residual
  StatusCounts status;
  StepReport last;  ///< a copy of the last step's report (its convergence history)
  /// "step 12: unconverged: ..." of the last step with a ProblemBits status, else empty
  std::string last_problem;

  /// Adds one step; NaN figures (from a rejected step) do not enter the maxima.
  void Add(const StepReport& report);
};

/// One simulated configuration: what it ran and what it measured.
struct RunResult {
  std::string label;                   ///< the config as the user wrote it ("nsn:ncp=min")
  std::string backend = "cpu";         ///< backend that actually ran
  std::shared_ptr<const Model> model;  ///< with the overrides applied (solver name and settings)
  State initial_state;
  State final_state;
  StepLog log;
  ProbeLog probes;  ///< the scene's probes after every step (empty when it has none)
  /// compare: every step against the reference run (CompareReportJson's "divergence")
  std::vector<DivergenceSample> divergence;
};

/// (E_end − E_0) / max(|E_0|, 1e-9) with MechanicalEnergy.
Real EnergyDriftRelative(const Model& model, const State& initial, const State& final_state);

/// The `run --report` document (architecture §5): scene, solver, backend, dt, steps, settings,
/// counts, timing, quality, status, bodies, particles, probes ({name: {type, target, columns,
/// time: [...], values: [[...] per step]}}) and the last step's convergence history.
std::string RunReportJson(const std::string& scene_path, const RunResult& run);

/// The `compare --report` document: {scene, steps, dt, reference, configs: [the run sections per
/// config, each with "divergence": {time_s, distance_m, max_penetration_m, max_joint_error_m,
/// energy_J, step_ms}, one entry per step, distance to the config `reference` (an index)],
/// unsupported: [{label, reason} per config whose solver refused the scene]}.
struct UnsupportedConfig {
  std::string label;
  std::string reason;
};
std::string CompareReportJson(const std::string& scene_path, const std::vector<RunResult>& runs,
                              int reference = 0,
                              const std::vector<UnsupportedConfig>& unsupported = {});

/// Writes `text` to `path`; false with `*error` set on failure.
bool WriteTextFile(const std::string& path, const std::string& text, std::string* error);

/// `text` as one CSV field: quoted, with quotes doubled, when it holds a comma, a quote or a line
/// break (RFC 4180); unchanged otherwise.
std::string CsvField(const std::string& text);

/// A CSV file written row by row: created with its header line, closed with a check that every
/// write reached the file.
class CsvWriter {
 public:
  CsvWriter() = default;
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;
  ~CsvWriter();

  /// Creates the file and writes `header` (one line, without its line break); false with
  /// `*error` set on failure.
  bool Open(const std::string& path, const char* header, std::string* error);
  /// Flushes and closes; false with `*error` set when a write failed.
  bool Close(std::string* error);

 protected:
  std::FILE* file_ = nullptr;
};

/// The `run --trajectory` CSV: `time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz`, one row per body
/// and then one per particle (q = 1,0,0,0, w = 0) for every appended state.
class TrajectoryWriter : public CsvWriter {
 public:
  bool Open(const std::string& path, std::string* error);
  void Append(const Model& model, const State& state);
};

/// The `run --contacts` CSV, one row per contact of every appended step (after its solve):
/// `step,time,a,b,x,y,z,nx,ny,nz,tx,ty,tz,gap,mu_t,mu_b,anisotropy,normal_force,friction_t,
/// friction_b` — the sides (body or particle name, "world" for static shapes), the point midway
/// between the surfaces [m], the normal n from B to A, the friction cone's principal tangent t
/// (b = n × t), the gap at the step's end [m], the cone's coefficients μ_t along t and μ_b along
/// b with the structure-field blend d (contacts.h), and the forces on A: λ_n and λ_f along t and
/// b [N].
class ContactWriter : public CsvWriter {
 public:
  bool Open(const std::string& path, std::string* error);
  void Append(const Model& model, const State& state, const Contacts& contacts);
};

}  // namespace sim::io
