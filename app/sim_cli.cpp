// contact-sim: the headless front-end (architecture §5). Wiring only: each subcommand parses its
// flags and calls the engine, io or render libraries.
//
// Exit codes: 0 success; 1 bad input (a file with errors, a scene that does not load, a
// non-finite simulation, a device failure); 2 usage errors and features not available in this
// version.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/cli/replay_command.h"
#include "app/cli/simulate_commands.h"
#include "app/cli/video_command.h"
#include "engine/io/default_scene.h"
#include "engine/io/file_check.h"
#include "engine/io/scene_catalog.h"
#include "engine/io/scene_file.h"
#include "engine/solvers/solver_options.h"
#include "engine/solvers/solver_registry.h"
#include "engine/visual/camera.h"
#include "engine/visual/visual_frame.h"
#include "render/offscreen_renderer.h"
#include "render/png_io.h"
#include "render/render_options.h"

namespace {

using sim::cli::kExitInputError;
using sim::cli::kExitOk;
using sim::cli::kExitUsage;
using sim::cli::RenderCommandOptions;

// step and repeat counts beyond this are typos (a billion steps is days of simulation)
constexpr int kMaxCount = 1000000000;

// `scenes`: one line per shipped scene
int RunScenes(const std::string& argv0, const std::string& scenes_dir_flag) {
  const std::string dir =
      scenes_dir_flag.empty() ? sim::io::FindScenesDirectory(argv0) : scenes_dir_flag;
  if (dir.empty()) {
    std::cerr << "contact-sim: error: cannot find the scenes directory (set "
                 "CONTACT_STUDIO_SCENES or pass --scenes-dir)\n";
    return kExitInputError;
  }
  sim::Diagnostics diagnostics;
  const std::vector<sim::io::SceneEntry> scenes = sim::io::ListScenes(dir, &diagnostics);
  std::size_t width = 0;
  for (const auto& s : scenes) width = std::max(width, s.id.size());
  for (const auto& s : scenes) {
    std::printf("%-*s  %s%s%s\n", static_cast<int>(width), s.id.c_str(), s.name.c_str(),
                s.name.empty() || s.description.empty() ? "" : " - ", s.description.c_str());
  }
  std::fputs(diagnostics.Format().c_str(), stderr);
  return diagnostics.has_errors() ? kExitInputError : kExitOk;
}


// `check FILE...`: diagnostics for each file, a summary line for each good one
int RunCheck(const std::vector<std::string>& files) {
  int failed = 0;
  for (const std::string& file : files) {
    sim::io::CheckSummary summary;
    const sim::Diagnostics diagnostics = sim::io::CheckFile(file, &summary);
    std::fputs(diagnostics.Format().c_str(), stderr);
    if (diagnostics.has_errors()) {
      ++failed;
      std::fprintf(stderr, "%s: %d error(s)\n", file.c_str(), diagnostics.error_count());
    } else {
      std::printf("%s: ok: %s %s\n", file.c_str(), summary.kind.c_str(), summary.details.c_str());
    }
  }
  return failed > 0 ? kExitInputError : kExitOk;
}


// `render`: the scene (after --steps of its own solver) through the offscreen Vulkan renderer
// into a PNG (no window or display), or with --video a real-time MP4 of it running
int RunRender(const RenderCommandOptions& options) {
  const std::optional<sim::render::ViewMode> view = sim::render::ParseViewMode(options.view);
  if (!view) {
    std::cerr << "contact-sim render: --view " << options.view
              << " is not a view (shaded, strain, contacts, structure)\n";
    return kExitUsage;
  }
  if (options.out.empty() == options.video.empty()) {
    std::cerr << "contact-sim render: error: give --out FILE.png or --video FILE.mp4\n";
    return kExitUsage;
  }
  sim::Expected<sim::io::Scene> scene = sim::io::LoadAnyScene(options.scene);
  std::fputs(scene.diagnostics().Format().c_str(), stderr);
  if (!scene.ok()) return kExitInputError;
  if (!options.video.empty()) return sim::cli::RunRenderVideo(scene.value(), options, *view);
  const sim::Model& model = *scene->model;
  sim::State state = scene->initial_state;
  sim::Contacts contacts;
  if (options.steps > 0) {
    const int code = sim::cli::SimulateScene(scene.value(), options.steps, &state, &contacts);
    if (code != kExitOk) return code;
  } else if (*view == sim::render::ViewMode::kContacts) {
    std::cerr << options.scene
              << ": warning: no contact forces before the first step (give --steps N)\n";
  }
  sim::render::RenderOptions render_options;
  render_options.view = *view;
  try {
    sim::render::OffscreenRenderer renderer(options.width, options.height, options.samples);
    const sim::render::Image image =
        renderer.Render(sim::MakeVisualFrame(model, state, contacts),
                        sim::OrbitCamera(model.camera, model.options.up), render_options);
    std::string error;
    if (!sim::render::WritePng(options.out, image, &error,
                               {{"Software", "contact-sim render"}, {"Scene", options.scene}})) {
      std::cerr << options.out << ": error: " << error << "\n";
      return kExitInputError;
    }
    std::printf(
        "%s: %dx%d, %s view, %zu shapes, %zu soft bodies, %d contacts, t = %.6g s, "
        "device %s\n",
        options.out.c_str(), image.width, image.height, options.view.c_str(),
        model.shape_geometry.size(), model.soft_bodies.size(), contacts.count(), state.time,
        renderer.device_name().c_str());
  } catch (const std::exception& e) {
    std::cerr << "contact-sim: error: " << e.what() << "\n";
    return kExitInputError;
  }
  return kExitOk;
}

}  // namespace


// `solvers`: one line per registered solver, or (--markdown) every settings table
int RunSolvers(bool markdown) {
  if (markdown) {
    std::fputs(sim::SettingsMarkdown().c_str(), stdout);
    return 0;
  }
  for (const sim::SolverInfo* info : sim::SolverRegistry()) {
    std::printf("%-6s %.*s\n", std::string(info->name).c_str(),
                static_cast<int>(info->summary.size()), info->summary.data());
  }
  return 0;
}


int main(int argc, char** argv) {
  CLI::App app{
      "contact-sim: headless runs, comparisons, benchmarks, rendering and file checks "
      "for Contact Studio scenes"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "contact-sim " SIM_VERSION);

  // run: one solver on one scene
  sim::cli::RunOptions run_options;
  CLI::App* run = app.add_subcommand("run", "simulate a scene headless and report");
  run->add_option("scene", run_options.scene, "scene file")->required();
  run->add_option("--solver", run_options.solver,
                  "solver name (see `contact-sim solvers`); default: the scene's");
  run->add_option("--backend", run_options.backend, "cpu or cuda (cuda falls back to cpu)")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  CLI::Option* run_steps = run->add_option("--steps", run_options.steps, "number of steps")
                               ->check(CLI::Range(1, kMaxCount));
  run->add_option("--duration", run_options.duration, "simulated time [s] (default 1)")
      ->check(CLI::Range(1e-6, 1e6))
      ->excludes(run_steps);
  CLI::Option* run_dt = run->add_option("--dt", run_options.dt, "time step [s], (0, 0.1]");
  run->add_option("--set", run_options.sets,
                  "override PATH=VALUE (repeatable), e.g. solver.ncp=min")
      ->allow_extra_args(false);
  run->add_option("--report", run_options.report, "write the JSON report here");
  run->add_option("--trajectory", run_options.trajectory, "write body trajectories (CSV) here");
  run->add_option("--contacts", run_options.contacts,
                  "write every step's contacts with their friction cones and forces (CSV) here");

  // compare: several solver configs in lockstep
  sim::cli::CompareOptions compare_options;
  CLI::App* compare = app.add_subcommand("compare", "step several solvers in lockstep");
  compare->add_option("scene", compare_options.scene, "scene file")->required();
  compare
      ->add_option("--solvers", compare_options.solvers,
                   "comma-separated configs: NAME or NAME:KEY=VALUE;KEY=VALUE "
                   "(e.g. nsn,nsn:linear_solver=jacobi;ncp=min)")
      ->required();
  compare->add_option("--steps", compare_options.steps, "number of steps (default: 1 s)")
      ->check(CLI::Range(1, kMaxCount));
  compare->add_option("--set", compare_options.sets, "override PATH=VALUE for every config")
      ->allow_extra_args(false);
  compare->add_option("--report", compare_options.report,
                      "write the JSON report here, with each config's divergence time series");
  compare->add_option("--plot", compare_options.plot,
                      "draw the divergence series (distance to the reference, penetration, "
                      "joint error, energy, step time) to this SVG file");
  compare->add_option("--reference", compare_options.reference,
                      "the config distances are measured to: its index from 0 or its label "
                      "(default: the first)");

  // bench: warm-up, then repeated timed runs from the saved state
  sim::cli::BenchOptions bench_options;
  CLI::App* bench = app.add_subcommand("bench", "time solvers on scenes (median, p95, min)");
  bench->add_option("scenes", bench_options.scenes, "scene files")->required();
  bench->add_option("--solvers", bench_options.solvers, "configs as in compare (default: scene's)");
  bench->add_option("--backend", bench_options.backend, "cpu or cuda (cuda falls back to cpu)")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  bench->add_option("--steps", bench_options.steps, "timed steps per repeat (default 120)")
      ->check(CLI::Range(1, kMaxCount));
  bench->add_option("--repeat", bench_options.repeat, "repeats (default 5)")
      ->check(CLI::Range(1, kMaxCount));
  bench->add_option("--warmup", bench_options.warmup, "untimed warm-up steps (default 60)")
      ->check(CLI::Range(0, kMaxCount));
  bench
      ->add_option("--threads", bench_options.threads,
                   "threads for the engine's parallel loops (default 1; 0: all cores)")
      ->check(CLI::Range(0, 1024));
  bench->add_option("--set", bench_options.sets, "override PATH=VALUE for every config")
      ->allow_extra_args(false);
  bench->add_option("--csv", bench_options.csv, "write results as CSV here");

  RenderCommandOptions render_command;
  CLI::App* render = app.add_subcommand(
      "render",
      "render a scene offscreen to a PNG, or a video of it running to an MP4 (no display)");
  render->add_option("scene", render_command.scene, "scene file")->required();
  CLI::Option* render_out = render->add_option("--out", render_command.out, "output PNG file");
  CLI::Option* render_video =
      render
          ->add_option("--video", render_command.video,
                       "write an MP4 of the scene running instead: one frame per 1/fps s of "
                       "simulated time (real-time playback), the time in its corner")
          ->excludes(render_out);
  render->add_option("--fps", render_command.fps, "with --video: frames per second (default 30)")
      ->check(CLI::Range(1, 240))
      ->needs(render_video);
  render
      ->add_option("--duration", render_command.duration,
                   "with --video: simulated time [s] (default 5)")
      ->check(CLI::Range(1e-3, 3600.0))
      ->needs(render_video);
  render->add_option("--width", render_command.width, "image width [px]")
      ->check(CLI::Range(16, 8192));
  render->add_option("--height", render_command.height, "image height [px]")
      ->check(CLI::Range(16, 8192));
  render->add_option("--samples", render_command.samples, "MSAA samples (1, 2, 4, 8)")
      ->check(CLI::IsMember({1, 2, 4, 8}));
  render->add_option("--steps", render_command.steps, "simulate N steps before rendering")
      ->check(CLI::Range(0, kMaxCount))
      ->excludes(render_video);
  render->add_option("--view", render_command.view, "shaded, strain, contacts or structure")
      ->check(CLI::IsMember({"shaded", "strain", "contacts", "structure"}));

  // replay: a teleop recording, checked against its recorded final state
  sim::cli::ReplayCommandOptions replay_options;
  CLI::App* replay = app.add_subcommand(
      "replay", "replay a teleop recording and check its final state hash; export demonstrations");
  replay->add_option("recording", replay_options.recording, "teleop recording (.teleop.json)")
      ->required();
  replay->add_option("--steps", replay_options.steps, "number of steps (default: the recording's)")
      ->check(CLI::Range(1, kMaxCount));
  replay->add_option("--record", replay_options.record,
                     "write the recording with this run's state hashes and steps here");
  replay->add_option("--hdf5", replay_options.hdf5,
                     "write the replay as a robomimic-style HDF5 demonstration here");
  replay->add_option("--contacts", replay_options.contacts,
                     "write every step's contacts with their friction cones and forces (CSV) here");

  std::vector<std::string> check_files;
  CLI::App* check = app.add_subcommand("check", "validate scene, URDF or mesh files");
  check->add_option("files", check_files, "files to check")->required();

  std::string scenes_dir;
  CLI::App* scenes = app.add_subcommand("scenes", "list the shipped scenes");
  scenes->add_option("--scenes-dir", scenes_dir, "directory to list instead of the shipped one");

  bool markdown = false;
  CLI::App* solvers = app.add_subcommand("solvers", "list the solvers and their settings");
  solvers->add_flag("--markdown", markdown,
                    "print every solver's settings table as markdown (docs/scene-format.md)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  }

  if (*scenes) return RunScenes(argv[0], scenes_dir);
  if (*solvers) return RunSolvers(markdown);
  if (*check) return RunCheck(check_files);
  if (*render) return RunRender(render_command);
  if (*run) {
    run_options.dt_given = run_dt->count() > 0;
    return sim::cli::RunSimulation(run_options);
  }
  if (*compare) return sim::cli::RunCompare(compare_options);
  if (*replay) return sim::cli::RunReplay(replay_options);
  if (*bench) return sim::cli::RunBench(bench_options);
  return kExitUsage;
}
