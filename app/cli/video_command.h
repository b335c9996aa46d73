// `contact-sim render SCENE --video FILE.mp4`: the scene's own solver stepped in simulated time,
// one frame every 1/fps s of it rendered offscreen with the time in its top-left corner, into an
// MP4 that plays in real time (render/video_writer.h); and the flags of `render` it shares with
// the PNG path in app/sim_cli.cpp.
#pragma once

#include <string>

#include "engine/io/scene_file.h"
#include "render/render_options.h"

namespace sim::cli {

/// The flags of `contact-sim render`.
struct RenderCommandOptions {
  std::string scene;
  std::string out;   ///< the PNG to write (without --video)
  int width = 1280;  ///< [px]; even for --video
  int height = 720;  ///< [px]; even for --video
  int steps = 0;     ///< steps before the PNG's picture
  int samples = 4;   ///< MSAA samples
  std::string view = "shaded";
  std::string video;      ///< the MP4 to write instead of the PNG
  int fps = 30;           ///< video frames per second of simulated time
  double duration = 5.0;  ///< [s] of simulated time (and of video)
};

/// Renders `scene` in `view` into `options.video` and prints a summary line (frames, size, codec,
/// simulated seconds, wall time, file size). A step that goes non-finite stops the video: the
/// frames so far are written and the exit code is 1, as it is for a file that cannot be written or
/// a device failure; 2 for an odd size or a solver that cannot be made.
int RunRenderVideo(const io::Scene& scene, const RenderCommandOptions& options,
                   render::ViewMode view);

}  // namespace sim::cli
