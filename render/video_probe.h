// ProbeVideo: opens a video file with libavformat and decodes every frame with libavcodec, to say
// what a viewer would get: frame count, size, duration, codec, and a picture of a chosen frame.
// The tests of `contact-sim render --video` and the studio's recording read their MP4s with it.
#pragma once

#include <string>
#include <vector>

#include "render/offscreen_renderer.h"

namespace sim::render {

struct VideoInfo {
  std::string codec;  ///< decoder name, e.g. "h264", "mpeg4"
  int width = 0;      ///< [px]
  int height = 0;     ///< [px]
  int frames = 0;     ///< frames decoded
  double fps = 0;     ///< the stream's frame rate [1/s] (0 when it does not say)
  /// [s] presentation time of each decoded frame, in display order
  std::vector<double> frame_times;
  /// [s] from the first frame's start to the last frame's end (the container's duration)
  double duration = 0;
};

/// Decodes all of `path`'s first video stream into `*info`. With `picture_frame` >= 0 and
/// `picture` given, that frame (in display order) is converted to RGBA into `*picture`. Returns
/// false and sets `error` when the file cannot be opened, has no video stream, does not decode or
/// has fewer frames than `picture_frame` asks for.
bool ProbeVideo(const std::string& path, VideoInfo* info, std::string* error,
                int picture_frame = -1, Image* picture = nullptr);

}  // namespace sim::render
