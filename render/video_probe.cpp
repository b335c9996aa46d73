#include "render/video_probe.h"

#include <algorithm>
#include <memory>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/log.h>
#include <libswscale/swscale.h>
}

namespace sim::render {

namespace {

std::string AvError(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, text, sizeof(text));
  return text;
}


// the FFmpeg objects of one probe, freed together
struct Decoding {
  ~Decoding() {
    sws_freeContext(converter);
    av_frame_free(&frame);
    av_packet_free(&packet);
    avcodec_free_context(&decoder);
    avformat_close_input(&format);
  }
  AVFormatContext* format = nullptr;
  AVCodecContext* decoder = nullptr;
  AVPacket* packet = nullptr;
  AVFrame* frame = nullptr;
  SwsContext* converter = nullptr;
};


// the decoded `frame` as RGBA, with the colour matrix and range it is tagged with
bool ToRgba(Decoding* d, Image* picture, std::string* error) {
  const AVFrame* frame = d->frame;
  d->converter = sws_getCachedContext(
      d->converter, frame->width, frame->height, static_cast<AVPixelFormat>(frame->format),
      frame->width, frame->height, AV_PIX_FMT_RGBA, SWS_BILINEAR, nullptr, nullptr, nullptr);
  if (d->converter == nullptr) {
    *error = "libswscale cannot convert the decoded frames to RGBA";
    return false;
  }
  const int matrix =
      frame->colorspace == AVCOL_SPC_BT709 ? SWS_CS_ITU709 : SWS_CS_DEFAULT;  // BT.601 otherwise
  sws_setColorspaceDetails(d->converter, sws_getCoefficients(matrix),
                           frame->color_range == AVCOL_RANGE_JPEG ? 1 : 0,
                           sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16);
  picture->width = frame->width;
  picture->height = frame->height;
  picture->rgba.assign(static_cast<std::size_t>(frame->width) * frame->height * 4, 0);
  std::uint8_t* destination[1] = {picture->rgba.data()};
  const int destination_stride[1] = {frame->width * 4};
  sws_scale(d->converter, frame->data, frame->linesize, 0, frame->height, destination,
            destination_stride);
  return true;
}

}  // namespace


bool ProbeVideo(const std::string& path, VideoInfo* info, std::string* error, int picture_frame,
                Image* picture) {
  av_log_set_level(AV_LOG_ERROR);
  *info = VideoInfo();
  Decoding d;
  int code = avformat_open_input(&d.format, path.c_str(), nullptr, nullptr);
  if (code < 0) {
    *error = path + ": cannot open: " + AvError(code);
    return false;
  }
  code = avformat_find_stream_info(d.format, nullptr);
  if (code < 0) {
    *error = path + ": cannot read the streams: " + AvError(code);
    return false;
  }
  const AVCodec* codec = nullptr;
  const int stream_index = av_find_best_stream(d.format, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
  if (stream_index < 0 || codec == nullptr) {
    *error = path + ": no video stream that libavcodec can decode";
    return false;
  }
  const AVStream* stream = d.format->streams[stream_index];
  d.decoder = avcodec_alloc_context3(codec);
  d.packet = av_packet_alloc();
  d.frame = av_frame_alloc();
  if (d.decoder == nullptr || d.packet == nullptr || d.frame == nullptr) {
    *error = path + ": out of memory for the decoder";
    return false;
  }
  avcodec_parameters_to_context(d.decoder, stream->codecpar);
  code = avcodec_open2(d.decoder, codec, nullptr);
  if (code < 0) {
    *error = path + ": cannot start the " + codec->name + " decoder: " + AvError(code);
    return false;
  }
  info->codec = codec->name;
  info->width = stream->codecpar->width;
  info->height = stream->codecpar->height;
  if (stream->avg_frame_rate.den > 0) info->fps = av_q2d(stream->avg_frame_rate);
  if (d.format->duration > 0)
    info->duration = static_cast<double>(d.format->duration) / AV_TIME_BASE;

  // every packet, then the decoder's delayed frames (a null packet flushes)
  bool flushing = false;
  while (true) {
    if (!flushing) {
      code = av_read_frame(d.format, d.packet);
      if (code == AVERROR_EOF) {
        flushing = true;
      } else if (code < 0) {
        *error = path + ": cannot read: " + AvError(code);
        return false;
      } else if (d.packet->stream_index != stream_index) {
        av_packet_unref(d.packet);
        continue;
      }
    }
    code = avcodec_send_packet(d.decoder, flushing ? nullptr : d.packet);
    av_packet_unref(d.packet);
    if (code < 0 && code != AVERROR_EOF) {
      *error =
          path + ": frame " + std::to_string(info->frames) + " does not decode: " + AvError(code);
      return false;
    }
    while ((code = avcodec_receive_frame(d.decoder, d.frame)) >= 0) {
      const std::int64_t pts = d.frame->best_effort_timestamp;
      info->frame_times.push_back(
          pts == AV_NOPTS_VALUE ? 0.0 : static_cast<double>(pts) * av_q2d(stream->time_base));
      if (info->frames == picture_frame && picture != nullptr && !ToRgba(&d, picture, error)) {
        return false;
      }
      ++info->frames;
      av_frame_unref(d.frame);
    }
    if (code == AVERROR_EOF) break;
    if (code != AVERROR(EAGAIN)) {
      *error =
          path + ": frame " + std::to_string(info->frames) + " does not decode: " + AvError(code);
      return false;
    }
  }
  if (picture_frame >= info->frames && picture != nullptr) {
    *error = path + ": has " + std::to_string(info->frames) + " frames, no frame " +
             std::to_string(picture_frame);
    return false;
  }
  return true;
}

}  // namespace sim::render
