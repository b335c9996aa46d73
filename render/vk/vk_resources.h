// Small RAII owners of Vulkan buffers and images with their memory, plus one-shot command helpers.
// The renderer holds only a handful of resources, so each owns one dedicated allocation (no
// sub-allocator). All functions throw DeviceError on failure.
#pragma once

#include <cstdint>
#include <functional>

#include <vulkan/vulkan.h>

namespace sim::render {

/// Index of a memory type allowed by `type_bits` that has all `properties`; throws DeviceError.
std::uint32_t FindMemoryType(VkPhysicalDevice physical_device, std::uint32_t type_bits,
                             VkMemoryPropertyFlags properties);

/// A VkBuffer with its own memory. Host-visible buffers stay mapped for their whole life.
class Buffer {
 public:
  Buffer() = default;
  /// Creates a buffer of `size` bytes (> 0) in memory with `properties`.
  Buffer(VkPhysicalDevice physical_device, VkDevice device, VkDeviceSize size,
         VkBufferUsageFlags usage, VkMemoryPropertyFlags properties);
  ~Buffer() { Reset(); }
  Buffer(Buffer&& other) noexcept { *this = std::move(other); }
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  /// Destroys the buffer and frees its memory (the GPU must be done with it).
  void Reset();

  VkBuffer handle() const { return buffer_; }
  VkDeviceSize size() const { return size_; }
  /// Host pointer of a host-visible buffer, nullptr otherwise.
  void* mapped() const { return mapped_; }

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkDeviceSize size_ = 0;
  void* mapped_ = nullptr;
};

/// A 2D device-local VkImage (one layer, `mip_levels` mip levels) with its memory and a view of
/// all levels.
class DeviceImage {
 public:
  DeviceImage() = default;
  DeviceImage(VkPhysicalDevice physical_device, VkDevice device, VkExtent2D extent, VkFormat format,
              VkSampleCountFlagBits samples, VkImageUsageFlags usage, VkImageAspectFlags aspect,
              std::uint32_t mip_levels = 1);
  ~DeviceImage() { Reset(); }
  DeviceImage(DeviceImage&& other) noexcept { *this = std::move(other); }
  DeviceImage& operator=(DeviceImage&& other) noexcept;
  DeviceImage(const DeviceImage&) = delete;
  DeviceImage& operator=(const DeviceImage&) = delete;

  void Reset();

  VkImage image() const { return image_; }
  VkImageView view() const { return view_; }

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  VkImage image_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkImageView view_ = VK_NULL_HANDLE;
};

/// Records `record` into a temporary command buffer, submits it to `queue` and waits for it.
/// For one-time work at load time (uploads), not for per-frame work.
void RunOneTimeCommands(VkDevice device, VkQueue queue, std::uint32_t queue_family,
                        const std::function<void(VkCommandBuffer)>& record);

/// Creates a device-local vertex or index buffer (`usage`) holding `size` bytes of `data`, through
/// a staging buffer and a one-time copy on `queue`; later vertex input on `queue` sees the data.
Buffer MakeDeviceLocalBuffer(VkPhysicalDevice physical_device, VkDevice device, VkQueue queue,
                             std::uint32_t queue_family, const void* data, VkDeviceSize size,
                             VkBufferUsageFlags usage);

}  // namespace sim::render
