#include "render/video_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <utility>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

namespace sim::render {

namespace {

// frame rates beyond this are typos (no display shows them)
constexpr int kMaxFps = 240;
// a key frame every this many seconds of video, so that players can seek
constexpr int kKeyFrameSeconds = 2;
// libx264: constant quality (lower is better; 18-23 look clean) at a fast preset
constexpr const char* kX264Crf = "20";
constexpr const char* kX264Preset = "veryfast";
// mpeg4: fixed quantiser (2-31, lower is better)
constexpr int kMpeg4Quantiser = 3;

std::string AvError(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, text, sizeof(text));
  return text;
}


// FFmpeg logs its encoders' notes (libx264's settings and statistics) to stderr: errors only
void QuietFfmpegLog() {
  static std::once_flag once;
  std::call_once(once, [] { av_log_set_level(AV_LOG_ERROR); });
}

}  // namespace


std::int64_t VideoFrameClock::FrameAt(double time) {
  // the first picture, and any after the time went back, is due at once
  if (!started_ || time < last_time_) {
    started_ = true;
    next_time_ = time;
  }
  last_time_ = time;
  // a tolerance far below a frame so that steps landing on a boundary count as on it
  const double period = 1.0 / fps_;
  const double slack = 1e-9 * std::max(1.0, std::abs(time));
  if (time + slack < next_time_) return -1;
  // boundaries passed since the last frame beyond the next one are skipped frames
  const auto skipped = static_cast<std::int64_t>(std::floor((time + slack - next_time_) / period));
  const std::int64_t index = next_index_ + skipped;
  next_index_ = index + 1;
  next_time_ += static_cast<double>(skipped + 1) * period;
  return index;
}


struct VideoWriter::Impl {
  ~Impl() {
    sws_freeContext(scaler);
    av_frame_free(&frame);
    av_packet_free(&packet);
    avcodec_free_context(&encoder);
    if (format != nullptr) {
      if (format->pb != nullptr) avio_closep(&format->pb);
      avformat_free_context(format);
    }
  }
  // sends `input` (null: flush) and writes every packet the encoder has ready
  bool Encode(AVFrame* input, std::string* error);

  AVFormatContext* format = nullptr;
  AVStream* stream = nullptr;
  AVCodecContext* encoder = nullptr;
  AVFrame* frame = nullptr;
  AVPacket* packet = nullptr;
  SwsContext* scaler = nullptr;
  std::string path;
};


bool VideoWriter::Impl::Encode(AVFrame* input, std::string* error) {
  int code = avcodec_send_frame(encoder, input);
  if (code < 0) {
    *error = path + ": cannot encode a frame: " + AvError(code);
    return false;
  }
  while (true) {
    code = avcodec_receive_packet(encoder, packet);
    if (code == AVERROR(EAGAIN) || code == AVERROR_EOF) return true;
    if (code < 0) {
      *error = path + ": cannot encode a frame: " + AvError(code);
      return false;
    }
    av_packet_rescale_ts(packet, encoder->time_base, stream->time_base);
    packet->stream_index = stream->index;
    code = av_interleaved_write_frame(format, packet);
    av_packet_unref(packet);
    if (code < 0) {
      *error = path + ": cannot write: " + AvError(code);
      return false;
    }
  }
}


VideoWriter::VideoWriter() = default;


VideoWriter::~VideoWriter() {
  std::string ignored;
  if (is_open()) Finish(&ignored);
}


bool VideoWriter::Open(const std::string& path, int width, int height, int fps, std::string* error,
                       const std::string& codec) {
  if (is_open()) {
    *error = path + ": the video writer is still writing " + impl_->path;
    return false;
  }
  if (width < 2 || height < 2 || width % 2 != 0 || height % 2 != 0) {
    *error = path + ": video size " + std::to_string(width) + "x" + std::to_string(height) +
             ": width and height must be even and at least 2 (4:2:0 video keeps one colour "
             "sample per 2x2 pixels)";
    return false;
  }
  if (fps < 1 || fps > kMaxFps) {
    *error = path + ": video frame rate " + std::to_string(fps) + " is not in [1, " +
             std::to_string(kMaxFps) + "] frames per second";
    return false;
  }
  if (!codec.empty() && codec != "libx264" && codec != "mpeg4") {
    *error = path + ": unknown video codec '" + codec + "' (libx264 or mpeg4)";
    return false;
  }
  QuietFfmpegLog();

  // the encoder: H.264 where libavcodec was built with libx264, else MPEG-4 part 2
  const AVCodec* encoder = nullptr;
  for (const char* name : {"libx264", "mpeg4"}) {
    if (!codec.empty() && codec != name) continue;
    encoder = avcodec_find_encoder_by_name(name);
    if (encoder != nullptr) break;
  }
  if (encoder == nullptr) {
    *error = path + ": libavcodec has no " + (codec.empty() ? "libx264 or mpeg4" : codec) +
             " encoder (install libavcodec59 from Debian)";
    return false;
  }

  auto impl = std::make_unique<Impl>();
  impl->path = path;
  // MP4 whatever the file is called
  int code = avformat_alloc_output_context2(&impl->format, nullptr, "mp4", path.c_str());
  if (code < 0 || impl->format == nullptr) {
    *error = path + ": libavformat has no MP4 muxer: " + AvError(code);
    return false;
  }
  impl->stream = avformat_new_stream(impl->format, nullptr);
  impl->encoder = avcodec_alloc_context3(encoder);
  impl->frame = av_frame_alloc();
  impl->packet = av_packet_alloc();
  if (impl->stream == nullptr || impl->encoder == nullptr || impl->frame == nullptr ||
      impl->packet == nullptr) {
    *error = path + ": out of memory for the video encoder";
    return false;
  }

  // one tick per frame; sRGB pictures as BT.709 limited-range 4:2:0
  AVCodecContext* context = impl->encoder;
  context->width = width;
  context->height = height;
  context->time_base = AVRational{1, fps};
  context->framerate = AVRational{fps, 1};
  context->pix_fmt = AV_PIX_FMT_YUV420P;
  context->gop_size = kKeyFrameSeconds * fps;
  context->colorspace = AVCOL_SPC_BT709;
  context->color_primaries = AVCOL_PRI_BT709;
  context->color_trc = AVCOL_TRC_IEC61966_2_1;
  context->color_range = AVCOL_RANGE_MPEG;
  if (std::string(encoder->name) == "libx264") {
    av_opt_set(context->priv_data, "preset", kX264Preset, 0);
    av_opt_set(context->priv_data, "crf", kX264Crf, 0);
  } else {
    context->flags |= AV_CODEC_FLAG_QSCALE;
    context->global_quality = FF_QP2LAMBDA * kMpeg4Quantiser;
  }
  if ((impl->format->oformat->flags & AVFMT_GLOBALHEADER) != 0) {
    context->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  }
  code = avcodec_open2(context, encoder, nullptr);
  if (code < 0) {
    *error = path + ": cannot start the " + encoder->name + " encoder: " + AvError(code);
    return false;
  }
  code = avcodec_parameters_from_context(impl->stream->codecpar, context);
  if (code < 0) {
    *error = path + ": cannot set up the video stream: " + AvError(code);
    return false;
  }
  impl->stream->time_base = context->time_base;
  impl->stream->avg_frame_rate = context->framerate;

  // the picture the encoder reads
  impl->frame->format = AV_PIX_FMT_YUV420P;
  impl->frame->width = width;
  impl->frame->height = height;
  code = av_frame_get_buffer(impl->frame, 0);
  if (code < 0) {
    *error = path + ": out of memory for a video frame: " + AvError(code);
    return false;
  }

  code = avio_open(&impl->format->pb, path.c_str(), AVIO_FLAG_WRITE);
  if (code < 0) {
    *error = path + ": cannot open for writing: " + AvError(code);
    return false;
  }
  code = avformat_write_header(impl->format, nullptr);
  if (code < 0) {
    *error = path + ": cannot write the MP4 header: " + AvError(code);
    impl.reset();
    std::remove(path.c_str());
    return false;
  }

  impl_ = std::move(impl);
  codec_name_ = encoder->name;
  width_ = width;
  height_ = height;
  fps_ = fps;
  next_index_ = 0;
  frames_written_ = 0;
  return true;
}


bool VideoWriter::AddFrame(const Image& image, std::int64_t index, std::string* error) {
  if (!is_open()) {
    *error = "video writer: no file is open";
    return false;
  }
  Impl& r = *impl_;
  if (index < next_index_) {
    *error = r.path + ": video frame " + std::to_string(index) + " comes after frame " +
             std::to_string(next_index_ - 1);
    return false;
  }
  if (image.width < 1 || image.height < 1 ||
      image.rgba.size() != static_cast<std::size_t>(image.width) * image.height * 4) {
    *error = r.path + ": video frame " + std::to_string(index) + " is an empty or short image (" +
             std::to_string(image.width) + "x" + std::to_string(image.height) + ")";
    return false;
  }
  // one pixel over (an odd window) is cropped, anything else is scaled
  const int source_width = image.width == width_ + 1 ? width_ : image.width;
  const int source_height = image.height == height_ + 1 ? height_ : image.height;
  r.scaler =
      sws_getCachedContext(r.scaler, source_width, source_height, AV_PIX_FMT_RGBA, width_, height_,
                           AV_PIX_FMT_YUV420P, SWS_BILINEAR, nullptr, nullptr, nullptr);
  if (r.scaler == nullptr) {
    *error = r.path + ": libswscale cannot convert " + std::to_string(image.width) + "x" +
             std::to_string(image.height) + " RGBA to the video's YUV 4:2:0";
    return false;
  }
  // RGB into BT.709 limited range, as the stream is tagged
  sws_setColorspaceDetails(r.scaler, sws_getCoefficients(SWS_CS_DEFAULT), 1,
                           sws_getCoefficients(SWS_CS_ITU709), 0, 0, 1 << 16, 1 << 16);
  int code = av_frame_make_writable(r.frame);
  if (code < 0) {
    *error = r.path + ": cannot reuse the video frame: " + AvError(code);
    return false;
  }
  const std::uint8_t* source[1] = {image.rgba.data()};
  const int source_stride[1] = {image.width * 4};
  sws_scale(r.scaler, source, source_stride, 0, source_height, r.frame->data, r.frame->linesize);
  r.frame->pts = index;
  if (!r.Encode(r.frame, error)) return false;
  next_index_ = index + 1;
  ++frames_written_;
  return true;
}


bool VideoWriter::Finish(std::string* error) {
  if (!is_open()) {
    *error = "video writer: no file is open";
    return false;
  }
  std::unique_ptr<Impl> impl = std::move(impl_);
  bool ok = impl->Encode(nullptr, error);
  const int code = av_write_trailer(impl->format);
  if (ok && code < 0) {
    *error = impl->path + ": cannot write the MP4 trailer: " + AvError(code);
    ok = false;
  }
  const int closed = avio_closep(&impl->format->pb);
  if (ok && closed < 0) {
    *error = impl->path + ": cannot close: " + AvError(closed);
    ok = false;
  }
  return ok;
}

}  // namespace sim::render
