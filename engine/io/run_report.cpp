#include "engine/io/run_report.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include "engine/visual/visual_frame.h"

namespace sim::io {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// |E_0| below this is treated as zero energy (the drift is then absolute, in J)
constexpr Real kEnergyFloor = 1e-9;

// pretty JSON with one-line arrays; non-finite numbers become null
class JsonOut {
 public:
  JsonOut() : writer_(buffer_) {
    writer_.SetIndent(' ', 2);
    writer_.SetFormatOptions(rapidjson::kFormatSingleLineArray);
  }

  void Key(const std::string& key) { writer_.Key(key.c_str(), key.size()); }
  void Number(double value) {
    if (std::isfinite(value)) {
      writer_.Double(value);
    } else {
      writer_.Null();
    }
  }
  void Int(std::int64_t value) { writer_.Int64(value); }
  void String(const std::string& value) { writer_.String(value.c_str(), value.size()); }
  void Bool(bool value) { writer_.Bool(value); }
  void Vec(const Vec3& v) {
    writer_.StartArray();
    for (int i = 0; i < 3; ++i) Number(v[i]);
    writer_.EndArray();
  }
  void QuatWxyz(const Quat& q) {
    writer_.StartArray();
    for (double c : {q.w(), q.x(), q.y(), q.z()}) Number(c);
    writer_.EndArray();
  }
  void StartObject() { writer_.StartObject(); }
  void EndObject() { writer_.EndObject(); }
  void StartArray() { writer_.StartArray(); }
  void EndArray() { writer_.EndArray(); }

  std::string Text() const { return std::string(buffer_.GetString(), buffer_.GetSize()) + "\n"; }

 private:
  rapidjson::StringBuffer buffer_;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> writer_;
};


std::string HexHash(std::uint64_t hash) {
  char text[17];
  std::snprintf(text, sizeof(text), "%016llx", static_cast<unsigned long long>(hash));
  return text;
}


// one setting as its descriptor's type: a number, an integer, a bool or a choice name
void WriteSetting(const SettingDescriptor& d, double value, JsonOut* out) {
  out->Key(std::string(d.name));
  switch (d.kind) {
    case SettingKind::kReal:
      out->Number(value);
      break;
    case SettingKind::kInt:
      out->Int(static_cast<std::int64_t>(value));
      break;
    case SettingKind::kBool:
      out->Bool(value != 0);
      break;
    case SettingKind::kChoice:
      out->String(SettingText(d, value));
      break;
  }
}


// the running solver's name, the step's settings and the solver's own, from their tables
void WriteSettings(const SolverOptions& options, JsonOut* out) {
  out->StartObject();
  out->Key("name");
  out->String(options.name);
  const SettingsTable& step = StepSettingsTable();
  for (int i = 0; i < static_cast<int>(step.size()); ++i) {
    WriteSetting(step[i], StepSettingValue(options, i), out);
  }
  if (const SettingValues* values = options.Find(options.name)) {
    for (int i = 0; i < values->size(); ++i) WriteSetting(values->table()[i], (*values)[i], out);
  }
  out->EndObject();
}


void WriteStatus(const StatusCounts& status, JsonOut* out) {
  out->StartObject();
  out->Key("ok");
  out->Int(status.ok);
  for (int i = 0; i < kStepStatusBitCount; ++i) {
    out->Key(StepStatusTable()[i].name);
    out->Int(status.bits[i]);
  }
  out->EndObject();
}


// the last step's outer-iteration history with each iteration's inner residuals
void WriteConvergence(const StepReport& report, JsonOut* out) {
  out->StartArray();
  for (const IterationRecord& record : report.iterations) {
    out->StartObject();
    out->Key("normal_error");
    out->Number(record.normal_error);
    out->Key("friction_error");
    out->Number(record.friction_error);
    out->Key("bilateral_error");
    out->Number(record.bilateral_error);
    out->Key("cone_error");
    out->Number(record.cone_error);
    out->Key("merit");
    out->Number(record.merit);
    out->Key("step_size");
    out->Number(record.step_size);
    out->Key("inner_residuals");
    out->StartArray();
    const int begin = std::max(record.inner_begin, 0);
    const int end = std::min<int>(begin + std::max(record.inner_count, 0),
                                  static_cast<int>(report.inner_residuals.size()));
    for (int i = begin; i < end; ++i) out->Number(report.inner_residuals[i]);
    out->EndArray();
    out->EndObject();
  }
  out->EndArray();
}


// the name of a probe's target and the names of its values
std::string ProbeTarget(const Model& model, const Probe& probe) {
  switch (probe.kind) {
    case ProbeKind::kJointPosition:
    case ProbeKind::kJointVelocity:
      return model.joint_name[probe.target];
    case ProbeKind::kParticlePosition:
      return model.particle_name[probe.target];
    case ProbeKind::kSoftBodyCentroid:
      return model.soft_bodies[probe.target].name;
    default:
      return model.body_name[probe.target];
  }
}

std::vector<const char*> ProbeColumns(ProbeKind kind) {
  switch (kind) {
    case ProbeKind::kBodyOrientation:
      return {"w", "x", "y", "z"};
    case ProbeKind::kJointPosition:
    case ProbeKind::kJointVelocity:
      return {"value"};
    default:
      return {"x", "y", "z"};
  }
}

// probes: per name its type, target, columns, sample times and values
void WriteProbes(const Model& model, const ProbeLog& log, JsonOut* out) {
  out->StartObject();
  for (std::size_t p = 0; p < model.probes.size(); ++p) {
    const Probe& probe = model.probes[p];
    out->Key(probe.name);
    out->StartObject();
    out->Key("type");
    out->String(ProbeKindName(probe.kind));
    out->Key("target");
    out->String(ProbeTarget(model, probe));
    out->Key("columns");
    out->StartArray();
    for (const char* column : ProbeColumns(probe.kind)) out->String(column);
    out->EndArray();
    out->Key("time");
    out->StartArray();
    for (Real t : log.time) out->Number(t);
    out->EndArray();
    out->Key("values");
    out->StartArray();
    const int count = ProbeValueCount(probe.kind);
    const std::vector<Real>* values = p < log.samples.size() ? &log.samples[p] : nullptr;
    for (int s = 0; values != nullptr && (s + 1) * count <= static_cast<int>(values->size()); ++s) {
      out->StartArray();
      for (int k = 0; k < count; ++k) out->Number((*values)[s * count + k]);
      out->EndArray();
    }
    out->EndArray();
    out->EndObject();
  }
  out->EndObject();
}


// every section of one run's report except the scene path
void WriteRunSections(const RunResult& run, JsonOut* out) {
  const Model& model = *run.model;
  const StepLog& log = run.log;
  const SolverOptions& settings = model.options.solver;

  // what ran
  out->Key("label");
  out->String(run.label);
  out->Key("solver");
  out->String(settings.name);
  out->Key("backend");
  out->String(run.backend);
  out->Key("dt");
  out->Number(settings.dt);
  out->Key("steps");
  out->Int(log.steps);
  out->Key("time");
  out->Number(run.final_state.time);
  out->Key("settings");
  WriteSettings(settings, out);
  out->Key("gravity");
  out->Vec(model.options.gravity);

  // sizes
  out->Key("counts");
  out->StartObject();
  out->Key("bodies");
  out->Int(model.body_count());
  out->Key("joints");
  out->Int(model.joint_count());
  out->Key("particles");
  out->Int(model.particle_count());
  out->Key("tets");
  out->Int(model.tet_count());
  out->Key("contacts_max");
  out->Int(log.contacts_max);
  out->Key("contacts_median");
  out->Number(Median(log.contacts));
  out->EndObject();

  // stage times pooled over steps
  out->Key("timing");
  out->StartObject();
  out->Key("step_ms_median");
  out->Number(Median(log.step_ms));
  out->Key("step_ms_p95");
  out->Number(Percentile(log.step_ms, 95));
  out->Key("step_ms_min");
  out->Number(Minimum(log.step_ms));
  out->Key("collision_ms_median");
  out->Number(Median(log.collision_ms));
  out->Key("assembly_ms_median");
  out->Number(Median(log.assembly_ms));
  out->Key("solve_ms_median");
  out->Number(Median(log.solve_ms));
  out->EndObject();

  // the solver's work per step
  out->Key("iterations");
  out->StartObject();
  for (const auto& [name, values] :
       {std::pair{"outer", &log.outer_iterations}, std::pair{"inner", &log.inner_iterations}}) {
    out->Key((std::string(name) + "_median").c_str());
    out->Number(Median(*values));
    out->Key((std::string(name) + "_mean").c_str());
    out->Number(Mean(*values));
    out->Key((std::string(name) + "_max").c_str());
    out->Number(Maximum(*values));
  }
  out->EndObject();

  // quality figures
  out->Key("quality");
  out->StartObject();
  out->Key("max_penetration_m");
  out->Number(log.max_penetration);
  out->Key("max_joint_error_m");
  out->Number(log.max_joint_error);
  out->Key("energy_drift_rel");
  out->Number(EnergyDriftRelative(model, run.initial_state, run.final_state));
  out->Key("nonfinite_steps");
  out->Int(log.status.count(kStepNonFinite));
  out->Key("final_residual_max");
  out->Number(log.final_residual_max);
  out->Key("final_residual_last");
  out->Number(log.final_residual_last);
  out->Key("last_problem");
  out->String(log.last_problem);
  out->EndObject();

  out->Key("status");
  WriteStatus(log.status, out);

  out->Key("state_hash");
  out->StartObject();
  out->Key("initial");
  out->String(HexHash(StateHash(run.initial_state)));
  out->Key("final");
  out->String(HexHash(StateHash(run.final_state)));
  out->EndObject();

  // final state by name
  const State& state = run.final_state;
  out->Key("bodies");
  out->StartObject();
  for (int b = 0; b < model.body_count() && b < static_cast<int>(state.body_X_WB.size()); ++b) {
    out->Key(model.body_name[b]);
    out->StartObject();
    out->Key("position");
    out->Vec(state.body_X_WB[b].p);
    out->Key("orientation_wxyz");
    out->QuatWxyz(state.body_X_WB[b].q);
    out->Key("linear_velocity");
    out->Vec(state.body_v_W[b]);
    out->Key("angular_velocity");
    out->Vec(state.body_w_W[b]);
    out->EndObject();
  }
  out->EndObject();
  out->Key("particles");
  out->StartObject();
  for (int p = 0; p < model.particle_count() && p < static_cast<int>(state.particle_x_W.size());
       ++p) {
    out->Key(model.particle_name[p]);
    out->StartObject();
    out->Key("position");
    out->Vec(state.particle_x_W[p]);
    out->Key("velocity");
    out->Vec(state.particle_v_W[p]);
    out->EndObject();
  }
  out->EndObject();

  out->Key("probes");
  WriteProbes(model, run.probes, out);

  out->Key("convergence");
  WriteConvergence(log.last, out);
}


}  // namespace


double Median(std::vector<double> samples) {
  if (samples.empty()) return kNaN;
  const std::size_t mid = samples.size() / 2;
  std::nth_element(samples.begin(), samples.begin() + mid, samples.end());
  const double upper = samples[mid];
  if (samples.size() % 2 == 1) return upper;
  const double lower = *std::max_element(samples.begin(), samples.begin() + mid);
  return 0.5 * (lower + upper);
}


double Percentile(std::vector<double> samples, double p) {
  if (samples.empty()) return kNaN;
  // nearest rank: the smallest value with at least p% of the samples at or below it
  const double rank = std::ceil(std::clamp(p, 0.0, 100.0) / 100.0 * samples.size());
  const std::size_t index = static_cast<std::size_t>(std::max(rank, 1.0)) - 1;
  std::nth_element(samples.begin(), samples.begin() + index, samples.end());
  return samples[index];
}


double Minimum(const std::vector<double>& samples) {
  if (samples.empty()) return kNaN;
  return *std::min_element(samples.begin(), samples.end());
}


double Maximum(const std::vector<double>& samples) {
  if (samples.empty()) return kNaN;
  return *std::max_element(samples.begin(), samples.end());
}


double Mean(const std::vector<double>& samples) {
  if (samples.empty()) return kNaN;
  return std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(samples.size());
}


void StatusCounts::Add(std::uint32_t status) {
  if (status == kStepOk) ++ok;
  if (ProblemBits(status) != 0) ++problems;
  for (int i = 0; i < kStepStatusBitCount; ++i) {
    if (status & StepStatusTable()[i].bit) ++bits[i];
  }
}


int StatusCounts::count(std::uint32_t bit) const { return bits[StepStatusIndex(bit)]; }


std::string StatusCounts::ToString() const {
  std::string text = ok > 0 ? "ok " + std::to_string(ok) : "";
  for (int i = 0; i < kStepStatusBitCount; ++i) {
    if (bits[i] == 0) continue;
    text += (text.empty() ? "" : ", ") + std::string(StepStatusTable()[i].name) + " " +
            std::to_string(bits[i]);
  }
  return text.empty() ? "no steps" : text;
}


void StepLog::Add(const StepReport& report) {
  ++steps;
  step_ms.push_back(report.total_ms);
  collision_ms.push_back(report.collision_ms);
  assembly_ms.push_back(report.assembly_ms);
  solve_ms.push_back(report.solve_ms);
  contacts.push_back(report.contact_count);
  outer_iterations.push_back(report.outer_iterations);
  inner_iterations.push_back(report.inner_iterations);
  contacts_max = std::max(contacts_max, report.contact_count);
  // fmax ignores NaN: a rejected step is counted in status.non_finite instead
  max_penetration = std::fmax(max_penetration, report.max_penetration);
  max_joint_error = std::fmax(max_joint_error, report.max_joint_error);
  final_residual_max = std::fmax(final_residual_max, report.final_residual);
  final_residual_last = report.final_residual;
  status.Add(report.status);
  if (ProblemBits(report.status) != 0) {
    last_problem = "step " + std::to_string(steps) + ": " +
                   StepStatusString(ProblemBits(report.status)) +
                   (report.message.empty() ? "" : ": " + report.message);
  }
  last = report;
}


Real EnergyDriftRelative(const Model& model, const State& initial, const State& final_state) {
  const Real e0 = MechanicalEnergy(model, initial);
  const Real e1 = MechanicalEnergy(model, final_state);
  return (e1 - e0) / std::max(std::abs(e0), kEnergyFloor);
}


std::string RunReportJson(const std::string& scene_path, const RunResult& run) {
  JsonOut out;
  out.StartObject();
  out.Key("scene");
  out.String(scene_path);
  WriteRunSections(run, &out);
  out.EndObject();
  return out.Text();
}


std::string CompareReportJson(const std::string& scene_path, const std::vector<RunResult>& runs,
                              int reference, const std::vector<UnsupportedConfig>& unsupported) {
  JsonOut out;
  out.StartObject();
  out.Key("scene");
  out.String(scene_path);
  out.Key("steps");
  out.Int(runs.empty() ? 0 : runs.front().log.steps);
  out.Key("dt");
  out.Number(runs.empty() ? kNaN : runs.front().model->options.solver.dt);
  out.Key("reference");
  out.String(reference >= 0 && reference < static_cast<int>(runs.size()) ? runs[reference].label
                                                                         : std::string());
  out.Key("configs");
  out.StartArray();
  for (const RunResult& run : runs) {
    out.StartObject();
    WriteRunSections(run, &out);
    // the divergence time series, one entry per step
    out.Key("divergence");
    out.StartObject();
    const auto series = [&](const char* key, Real DivergenceSample::*field) {
      out.Key(key);
      out.StartArray();
      for (const DivergenceSample& sample : run.divergence) out.Number(sample.*field);
      out.EndArray();
    };
    series("time_s", &DivergenceSample::time);
    series("distance_m", &DivergenceSample::distance);
    series("max_penetration_m", &DivergenceSample::max_penetration);
    series("max_joint_error_m", &DivergenceSample::max_joint_error);
    series("energy_J", &DivergenceSample::energy);
    series("step_ms", &DivergenceSample::step_ms);
    out.EndObject();
    out.EndObject();
  }
  out.EndArray();
  out.Key("unsupported");
  out.StartArray();
  for (const UnsupportedConfig& config : unsupported) {
    out.StartObject();
    out.Key("label");
    out.String(config.label);
    out.Key("reason");
    out.String(config.reason);
    out.EndObject();
  }
  out.EndArray();
  out.EndObject();
  return out.Text();
}


std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}


bool WriteTextFile(const std::string& path, const std::string& text, std::string* error) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) {
    *error = std::strerror(errno);
    return false;
  }
  const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  const bool closed = std::fclose(file) == 0;
  if (!written || !closed) {
    *error = "write failed";
    return false;
  }
  return true;
}


CsvWriter::~CsvWriter() {
  if (file_ != nullptr) std::fclose(file_);
}


bool CsvWriter::Open(const std::string& path, const char* header, std::string* error) {
  file_ = std::fopen(path.c_str(), "wb");
  if (file_ == nullptr) {
    *error = std::strerror(errno);
    return false;
  }
  std::fprintf(file_, "%s\n", header);
  return true;
}


bool CsvWriter::Close(std::string* error) {
  if (file_ == nullptr) return true;
  const bool failed = std::ferror(file_) != 0;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (failed || !closed) {
    *error = "write failed";
    return false;
  }
  return true;
}


bool TrajectoryWriter::Open(const std::string& path, std::string* error) {
  return CsvWriter::Open(path, "time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz", error);
}


void TrajectoryWriter::Append(const Model& model, const State& state) {
  if (file_ == nullptr) return;
  // %.9g keeps nanometre resolution at metre scale without 17-digit rows
  const auto row = [&](const std::string& name, const Vec3& x, const Quat& q, const Vec3& v,
                       const Vec3& w) {
    std::fprintf(file_,
                 "%.9g,%s,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n",
                 state.time, CsvField(name).c_str(), x.x(), x.y(), x.z(), q.w(), q.x(), q.y(),
                 q.z(), v.x(), v.y(), v.z(), w.x(), w.y(), w.z());
  };
  for (int b = 0; b < model.body_count(); ++b) {
    row(model.body_name[b], state.body_X_WB[b].p, state.body_X_WB[b].q, state.body_v_W[b],
        state.body_w_W[b]);
  }
  for (int p = 0; p < model.particle_count(); ++p) {
    row(model.particle_name[p], state.particle_x_W[p], Quat::Identity(), state.particle_v_W[p],
        Vec3::Zero());
  }
}


namespace {

// the name of a contact side: its soft body, particle or body, or "world"
std::string ContactSideName(const Model& model, const ContactSide& side) {
  return sim::ContactSideName(model, side.body, side.particle(), side.soft_body);
}

}  // namespace


bool ContactWriter::Open(const std::string& path, std::string* error) {
  return CsvWriter::Open(path,
                         "step,time,a,b,x,y,z,nx,ny,nz,tx,ty,tz,gap,mu_t,mu_b,anisotropy,"
                         "normal_force,friction_t,friction_b",
                         error);
}


void ContactWriter::Append(const Model& model, const State& state, const Contacts& contacts) {
  if (file_ == nullptr) return;
  for (const Contact& contact : contacts.items) {
    const Vec3 x = ContactMidpoint(state, contact);
    const Vec3& n = contact.normal_W;
    const Vec3& t = contact.tangent_W;
    std::fprintf(file_,
                 "%llu,%.9g,%s,%s,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.6g,%.9g,%.9g,"
                 "%.6g,%.9g,%.9g,%.9g\n",
                 static_cast<unsigned long long>(state.step), state.time,
                 CsvField(ContactSideName(model, contact.a)).c_str(),
                 CsvField(ContactSideName(model, contact.b)).c_str(), x.x(), x.y(), x.z(), n.x(),
                 n.y(), n.z(), t.x(), t.y(), t.z(), contact.gap, contact.friction_t,
                 contact.friction_b, contact.anisotropy, contact.normal_force,
                 contact.friction_force[0], contact.friction_force[1]);
  }
}

}  // namespace sim::io
