#include "app/cli/video_command.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <system_error>

#include "app/cli/simulate_commands.h"
#include "engine/visual/camera.h"
#include "engine/visual/visual_frame.h"
#include "render/offscreen_renderer.h"
#include "render/video_writer.h"

namespace sim::cli {

namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}


// the scene's camera, its target carried along with the body it follows (scene `follow`)
OrbitCamera FrameCamera(const Model& model, const State& initial, const State& state) {
  OrbitCamera camera(model.camera, model.options.up);
  const int body = model.camera.follow_body;
  if (body >= 0 && body < static_cast<int>(state.body_X_WB.size())) {
    camera.target += (state.body_X_WB[body].p - initial.body_X_WB[body].p).cast<float>();
  }
  return camera;
}

}  // namespace


int RunRenderVideo(const io::Scene& scene, const RenderCommandOptions& options,
                   render::ViewMode view) {
  const Clock::time_point start = Clock::now();
  if (options.width % 2 != 0 || options.height % 2 != 0) {
    std::fprintf(stderr,
                 "contact-sim render: error: --video needs an even --width and --height (4:2:0 "
                 "video keeps one colour sample per 2x2 pixels), got %dx%d\n",
                 options.width, options.height);
    return kExitUsage;
  }
  std::unique_ptr<Simulation> simulation = CreateSceneSimulation(scene);
  if (!simulation) return kExitUsage;
  const Model& model = simulation->model();
  const State initial = simulation->state();

  // the frames at 0, 1/fps, 2/fps, ... s of simulated time, each from the first step at or after
  // its time; the video is as long as asked
  const int frames = std::max(1, static_cast<int>(std::lround(options.duration * options.fps)));
  render::RenderOptions render_options;
  render_options.view = view;
  double simulate_s = 0, render_s = 0, encode_s = 0;
  int steps = 0;
  int written = 0;
  std::string failure;  // why the video stopped early
  render::VideoWriter writer;
  std::string error;
  try {
    render::OffscreenRenderer renderer(options.width, options.height, options.samples);
    if (!writer.Open(options.video, options.width, options.height, options.fps, &error)) {
      std::cerr << "contact-sim render: error: " << error << "\n";
      return kExitInputError;
    }
    for (int k = 0; k < frames && failure.empty(); ++k) {
      const double time = static_cast<double>(k) / options.fps;
      const Clock::time_point simulate_start = Clock::now();
      while (simulation->state().time < time - 1e-9 * std::max(1.0, time)) {
        const StepReport& report = simulation->Step();
        ++steps;
        if ((report.status & kStepNonFinite) != 0) {
          char text[512];
          std::snprintf(text, sizeof(text), "non-finite step at t = %.6g s: %s",
                        simulation->state().time, report.message.c_str());
          failure = text;
          break;
        }
      }
      simulate_s += SecondsSince(simulate_start);
      if (!failure.empty()) break;

      const Clock::time_point render_start = Clock::now();
      const State& state = simulation->state();
      char caption[64];
      std::snprintf(caption, sizeof(caption), "t = %.3f s", state.time);
      renderer.SetCaption(caption);
      const VisualFrame frame = view == render::ViewMode::kContacts
                                    ? MakeVisualFrame(model, state, simulation->contacts())
                                    : MakeVisualFrame(model, state);
      const render::Image image =
          renderer.Render(frame, FrameCamera(model, initial, state), render_options);
      render_s += SecondsSince(render_start);

      const Clock::time_point encode_start = Clock::now();
      if (!writer.AddFrame(image, k, &error)) {
        std::cerr << "contact-sim render: error: " << error << "\n";
        return kExitInputError;
      }
      encode_s += SecondsSince(encode_start);
      ++written;
    }
    const Clock::time_point finish_start = Clock::now();
    if (!writer.Finish(&error)) {
      std::cerr << "contact-sim render: error: " << error << "\n";
      return kExitInputError;
    }
    encode_s += SecondsSince(finish_start);

    // one summary line
    std::error_code size_error;
    const auto bytes = std::filesystem::file_size(options.video, size_error);
    std::printf(
        "%s: %d frames (%d fps, %.3g s of video), %dx%d, %s, sim time 0 .. %.6g s in %d steps, "
        "wall %.1f s (simulate %.1f s, render %.1f s, encode %.1f s), %.2f MB, device %s\n",
        options.video.c_str(), written, options.fps, writer.duration(), options.width,
        options.height, writer.codec_name().c_str(), simulation->state().time, steps,
        SecondsSince(start), simulate_s, render_s, encode_s,
        size_error ? 0.0 : static_cast<double>(bytes) / 1e6, renderer.device_name().c_str());
  } catch (const std::exception& e) {
    std::cerr << "contact-sim: error: " << e.what() << "\n";
    return kExitInputError;
  }
  if (!failure.empty()) {
    std::fprintf(stderr, "%s: error: %s; the video stops there: %d of %d frames in %s\n",
                 scene.path.c_str(), failure.c_str(), written, frames, options.video.c_str());
    return kExitInputError;
  }
  return kExitOk;
}

}  // namespace sim::cli
