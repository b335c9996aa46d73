// VideoWriter: RGBA frames into an MP4 file with FFmpeg's libraries (libavformat muxes,
// libavcodec encodes H.264 with libx264, or MPEG-4 part 2 where libavcodec has no libx264,
// libswscale converts RGBA to YUV 4:2:0). Used by `contact-sim render --video` and the studio's
// Record Video. One video frame per 1/fps s of simulated time, so the video plays in real time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "render/offscreen_renderer.h"

namespace sim::render {

/// When the studio captures its next frame: the video frame (presentation index, 1/fps s each)
/// that a simulated time falls on, once it passes the next 1/fps boundary. Frames the simulation
/// jumped over are left out (the video holds the previous picture there, and still plays in real
/// time); a time that goes back (reset, a key frame restored, another scene) carries on from there.
class VideoFrameClock {
 public:
  explicit VideoFrameClock(int fps) : fps_(fps) {}
  /// The index of the video frame to write for a picture at simulated time `time` [s], or −1 when
  /// `time` has not passed the next boundary since the last frame.
  std::int64_t FrameAt(double time);

 private:
  int fps_;
  std::int64_t next_index_ = 0;  // the index of the next frame to write
  double next_time_ = 0;         // [s] simulated time of the next boundary
  double last_time_ = 0;         // [s] time of the last call
  bool started_ = false;
};

class VideoWriter {
 public:
  VideoWriter();
  /// Finishes the file when still open (errors are dropped; call Finish to see them).
  ~VideoWriter();
  VideoWriter(const VideoWriter&) = delete;
  VideoWriter& operator=(const VideoWriter&) = delete;

  /// Creates the MP4 file `path` for frames of `width`×`height` px (both even: 4:2:0 chroma has
  /// one sample per 2×2 pixels) at `fps` frames per second. `codec`: "libx264" or "mpeg4"; empty
  /// picks libx264 when libavcodec has it, else mpeg4. Returns false and sets `error` (a bad size
  /// or rate, a file that cannot be written, a missing codec).
  bool Open(const std::string& path, int width, int height, int fps, std::string* error,
            const std::string& codec = "");

  /// Encodes `image` as the video frame `index` (shown from index/fps s on; indices increase, a
  /// gap holds the previous picture). An image one pixel larger than the video in a direction is
  /// cropped there; other sizes are scaled to the video's. Returns false and sets `error`.
  bool AddFrame(const Image& image, std::int64_t index, std::string* error);
  /// The same as the frame after the last one.
  bool AddFrame(const Image& image, std::string* error) {
    return AddFrame(image, next_index_, error);
  }

  /// Flushes the encoder, writes the MP4 trailer and closes the file. Returns false and sets
  /// `error` when writing fails. The writer can be opened again afterwards.
  bool Finish(std::string* error);

  bool is_open() const { return impl_ != nullptr; }
  /// The encoder: "libx264" or "mpeg4" (empty before Open).
  const std::string& codec_name() const { return codec_name_; }
  int width() const { return width_; }
  int height() const { return height_; }
  int fps() const { return fps_; }
  /// Frames encoded since Open.
  std::int64_t frames_written() const { return frames_written_; }
  /// Video length so far [s]: up to the end of the last frame.
  double duration() const { return fps_ > 0 ? static_cast<double>(next_index_) / fps_ : 0.0; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string codec_name_;
  int width_ = 0, height_ = 0, fps_ = 0;
  std::int64_t next_index_ = 0;
  std::int64_t frames_written_ = 0;
};

}  // namespace sim::render
