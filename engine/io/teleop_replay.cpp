#include "engine/io/teleop_replay.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "engine/io/overrides.h"
#include "engine/io/scene_file.h"
#include "engine/io/text_util.h"

namespace sim::io {

namespace {

// simulated time replayed after the last action when the recording has no `steps` [s]
constexpr double kTailSeconds = 1.0;
// steps closer than this to a whole number are that number (1 s / (1/120 s) is 120, not 121)
constexpr double kStepRounding = 1e-9;

// `from`'s errors and warnings moved to `line` of the recording, their text prefixed by `what`
void Relocate(const Diagnostics& from, const std::string& path, int line, const std::string& what,
              Diagnostics* to) {
  for (Diagnostic diagnostic : from.items()) {
    diagnostic.message = what + ": " + diagnostic.message;
    diagnostic.source = path;
    diagnostic.line = line;
    diagnostic.element_path.clear();
    to->Add(std::move(diagnostic));
  }
}


// the scene's model with the recording's overrides and solver; errors at their lines
std::shared_ptr<Model> ConfiguredModel(const TeleopRecordingFile& file, const Model& scene_model,
                                       Diagnostics* diagnostics) {
  auto model = std::make_shared<Model>(scene_model);
  const TeleopRecording& recording = file.recording;
  for (std::size_t k = 0; k < recording.overrides.size(); ++k) {
    const int line = k < file.override_lines.size() ? file.override_lines[k] : 0;
    Relocate(ApplyOverride(recording.overrides[k], model.get()), file.path, line,
             "override '" + recording.overrides[k] + "'", diagnostics);
  }
  if (!recording.solver.empty()) {
    Relocate(ApplyOverride("solver.name", recording.solver, "solver", model.get()), file.path,
             file.solver_line, "'solver'", diagnostics);
  }
  return model;
}


// per name of the recording, the model's target of that name; errors at the lines naming them
std::vector<int> MapTargets(const TeleopRecordingFile& file, const Model& model,
                            Diagnostics* diagnostics) {
  std::vector<std::string> model_names;
  for (const TeleopTarget& target : model.teleop_targets) model_names.push_back(target.name);
  std::vector<int> map;
  for (std::size_t k = 0; k < file.recording.target_names.size(); ++k) {
    const std::string& name = file.recording.target_names[k];
    const auto found = std::find(model_names.begin(), model_names.end(), name);
    map.push_back(found == model_names.end() ? -1 : static_cast<int>(found - model_names.begin()));
    if (found != model_names.end()) continue;
    diagnostics->Error(file.path, k < file.target_lines.size() ? file.target_lines[k] : 0, "",
                       "teleop target '" + name + "' is not a target of scene '" +
                           file.recording.scene_path + "' (" +
                           (model_names.empty() ? std::string("it declares none")
                                                : "its targets: " + Join(model_names)) +
                           ")");
  }
  return map;
}


std::uint64_t DefaultSteps(const TeleopRecording& recording, std::uint64_t first_step, Real dt) {
  if (recording.steps > 0) return recording.steps;
  const std::uint64_t tail =
      static_cast<std::uint64_t>(std::max(1.0, std::ceil(kTailSeconds / dt - kStepRounding)));
  if (recording.actions.empty()) return tail;
  const std::uint64_t last = recording.actions.back().step;
  return (last > first_step ? last - first_step : 0) + tail;
}

}  // namespace


Expected<ReplayResult> ReplayTeleopRecording(const std::string& path,
                                             const ReplayOptions& options) {
  Expected<TeleopRecordingFile> file = ReadTeleopRecording(path);
  if (!file.ok()) return file.diagnostics();
  Expected<ReplayResult> result = ReplayTeleopRecording(file.value(), options);
  if (!result.ok() || file.diagnostics().empty()) return result;
  // the file's warnings come first
  Diagnostics warnings = file.diagnostics();
  warnings.Append(result.diagnostics());
  return Expected<ReplayResult>(std::move(result.value()), std::move(warnings));
}


Expected<ReplayResult> ReplayTeleopRecording(const TeleopRecordingFile& file,
                                             const ReplayOptions& options) {
  const TeleopRecording& recording = file.recording;
  Diagnostics diagnostics;
  SceneOptions scene_options;
  scene_options.draw_fields = false;  // replays are not drawn
  Expected<Scene> scene = LoadScene(file.scene_file, scene_options);
  diagnostics.Append(scene.diagnostics());
  if (!scene.ok()) {
    diagnostics.Error(file.path, file.scene_line, "",
                      "scene '" + recording.scene_path + "' does not load (errors above)");
    return diagnostics;
  }

  // the run as recorded: overrides, solver, targets, and the same initial state
  std::shared_ptr<Model> model = ConfiguredModel(file, *scene->model, &diagnostics);
  const std::vector<int> target_map = MapTargets(file, *model, &diagnostics);
  if (!recording.actions.empty() && model->teleop_targets.empty()) {
    diagnostics.Error(file.path, file.action_lines.empty() ? 0 : file.action_lines.front(), "",
                      "scene '" + recording.scene_path +
                          "' declares no teleop targets, so its actions cannot be applied");
  }
  const std::uint64_t initial_hash = StateHash(scene->initial_state);
  if (recording.initial_state_hash != 0 && recording.initial_state_hash != initial_hash) {
    diagnostics.Error(file.path, file.initial_state_hash_line, "",
                      "the scene starts from state " + FormatStateHash(initial_hash) +
                          ", not the recorded " + FormatStateHash(recording.initial_state_hash) +
                          ": scene '" + recording.scene_path +
                          "' (or a file it uses) changed since the recording");
  }
  if (diagnostics.has_errors()) return diagnostics;
  Expected<std::unique_ptr<Simulation>> created =
      Simulation::Create(model, scene->initial_state, model->options.solver.name);
  if (!created.ok()) {
    Relocate(created.diagnostics(), file.path, file.solver_line, "solver", &diagnostics);
    return diagnostics;
  }
  Simulation& simulation = *created.value();

  ReplayResult result;
  result.file = file;
  result.model = model;
  result.solver = std::string(simulation.solver().name());
  result.initial_state_hash = initial_hash;
  const std::uint64_t first_step = scene->initial_state.step;
  result.steps = options.steps > 0 ? options.steps
                                   : DefaultSteps(recording, first_step, model->options.solver.dt);

  // each action before the step it was applied at; step i of the run is State::step
  // first_step + i (counted by calls, as TeleopRecorder does)
  if (options.on_start) options.on_start(simulation);
  std::size_t next = 0;
  const std::size_t action_count = recording.actions.size();
  for (std::uint64_t i = 0; i < result.steps; ++i) {
    const std::uint64_t step = first_step + i;
    for (; next < action_count && recording.actions[next].step <= step; ++next) {
      TeleopAction action = recording.actions[next].action;
      if (action.target >= 0) action.target = target_map[action.target];
      simulation.teleop()->Submit(action);
    }
    result.status.Add(simulation.Step().status);
    if (simulation.teleop() != nullptr) {
      result.actions_applied += static_cast<int>(simulation.teleop()->last_applied().size());
    }
    if (options.observer) options.observer(simulation);
  }
  result.actions_not_reached = static_cast<int>(action_count - next);
  result.final_state = simulation.state();
  result.final_state_hash = StateHash(result.final_state);
  result.compared = recording.final_state_hash != 0 && recording.steps == result.steps;
  result.matches = result.compared && recording.final_state_hash == result.final_state_hash;

  // the verified recording: this run's hashes and length, the model's targets
  TeleopRecording& verified = result.verified;
  verified = recording;
  verified.actions.resize(next);  // a shorter run keeps only the actions it applied
  verified.solver = result.solver;
  verified.target_names.clear();
  for (const TeleopTarget& target : model->teleop_targets) {
    verified.target_names.push_back(target.name);
  }
  for (RecordedAction& recorded : verified.actions) {
    if (recorded.action.target >= 0) recorded.action.target = target_map[recorded.action.target];
  }
  verified.initial_state_hash = initial_hash;
  verified.steps = result.steps;
  verified.final_state_hash = result.final_state_hash;
  return Expected<ReplayResult>(std::move(result), std::move(diagnostics));
}

}  // namespace sim::io
