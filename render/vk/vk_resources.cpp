// Vulkan buffer and image owners with dedicated memory, and one-time command submission used for
// uploads at load time.
#include "render/vk/vk_resources.h"

#include <cstring>
#include <string>
#include <utility>

#include "render/vk/vk_check.h"

namespace sim::render {

std::uint32_t FindMemoryType(VkPhysicalDevice physical_device, std::uint32_t type_bits,
                             VkMemoryPropertyFlags properties) {
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(physical_device, &memory);
  for (std::uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
    if ((type_bits & (1u << i)) &&
        (memory.memoryTypes[i].propertyFlags & properties) == properties) {
      return i;
    }
  }
  throw DeviceError("no Vulkan memory type with properties 0x" + std::to_string(properties) +
                    " for type bits 0x" + std::to_string(type_bits));
}


namespace {

// one dedicated allocation satisfying `requirements` in memory with `properties`
VkDeviceMemory AllocateMemory(VkPhysicalDevice physical_device, VkDevice device,
                              const VkMemoryRequirements& requirements,
                              VkMemoryPropertyFlags properties) {
  VkMemoryAllocateInfo allocate_info{};
  allocate_info.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  allocate_info.allocationSize = requirements.size;
  allocate_info.memoryTypeIndex =
      FindMemoryType(physical_device, requirements.memoryTypeBits, properties);
  VkDeviceMemory memory = VK_NULL_HANDLE;
  SIM_VK_CHECK(vkAllocateMemory(device, &allocate_info, nullptr, &memory));
  return memory;
}

}  // namespace


Buffer::Buffer(VkPhysicalDevice physical_device, VkDevice device, VkDeviceSize size,
               VkBufferUsageFlags usage, VkMemoryPropertyFlags properties)
    : device_(device), size_(size) {
  VkBufferCreateInfo buffer_info{};
  buffer_info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  buffer_info.size = size;
  buffer_info.usage = usage;
  buffer_info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  SIM_VK_CHECK(vkCreateBuffer(device, &buffer_info, nullptr, &buffer_));

  // one dedicated allocation; on failure the destructor is not run, so release by hand
  try {
    VkMemoryRequirements requirements;
    vkGetBufferMemoryRequirements(device, buffer_, &requirements);
    memory_ = AllocateMemory(physical_device, device, requirements, properties);
    SIM_VK_CHECK(vkBindBufferMemory(device, buffer_, memory_, 0));
    if (properties & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
      SIM_VK_CHECK(vkMapMemory(device, memory_, 0, VK_WHOLE_SIZE, 0, &mapped_));
    }
  } catch (...) {
    Reset();
    throw;
  }
}


Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    Reset();
    device_ = std::exchange(other.device_, VK_NULL_HANDLE);
    buffer_ = std::exchange(other.buffer_, VK_NULL_HANDLE);
    memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
    size_ = std::exchange(other.size_, 0);
    mapped_ = std::exchange(other.mapped_, nullptr);
  }
  return *this;
}


void Buffer::Reset() {
  if (device_ == VK_NULL_HANDLE) return;
  if (buffer_ != VK_NULL_HANDLE) vkDestroyBuffer(device_, buffer_, nullptr);
  // freeing mapped memory unmaps it implicitly
  if (memory_ != VK_NULL_HANDLE) vkFreeMemory(device_, memory_, nullptr);
  device_ = VK_NULL_HANDLE;
  buffer_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
  size_ = 0;
  mapped_ = nullptr;
}


DeviceImage::DeviceImage(VkPhysicalDevice physical_device, VkDevice device, VkExtent2D extent,
                         VkFormat format, VkSampleCountFlagBits samples, VkImageUsageFlags usage,
                         VkImageAspectFlags aspect, std::uint32_t mip_levels)
    : device_(device) {
  VkImageCreateInfo image_info{};
  image_info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
  image_info.imageType = VK_IMAGE_TYPE_2D;
  image_info.format = format;
  image_info.extent = {extent.width, extent.height, 1};
  image_info.mipLevels = mip_levels;
  image_info.arrayLayers = 1;
  image_info.samples = samples;
  image_info.tiling = VK_IMAGE_TILING_OPTIMAL;
  image_info.usage = usage;
  image_info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  image_info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  SIM_VK_CHECK(vkCreateImage(device, &image_info, nullptr, &image_));

  // memory and view; on failure the destructor is not run, so release by hand
  try {
    VkMemoryRequirements requirements;
    vkGetImageMemoryRequirements(device, image_, &requirements);
    memory_ =
        AllocateMemory(physical_device, device, requirements, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    SIM_VK_CHECK(vkBindImageMemory(device, image_, memory_, 0));

    VkImageViewCreateInfo view_info{};

    view_info.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
    view_info.image = image_;
    view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view_info.format = format;
    view_info.subresourceRange = {aspect, 0, mip_levels, 0, 1};
    SIM_VK_CHECK(vkCreateImageView(device, &view_info, nullptr, &view_));
  } catch (...) {
    Reset();
    throw;
  }
}


DeviceImage& DeviceImage::operator=(DeviceImage&& other) noexcept {
  if (this != &other) {
    Reset();
    device_ = std::exchange(other.device_, VK_NULL_HANDLE);
    image_ = std::exchange(other.image_, VK_NULL_HANDLE);
    memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
    view_ = std::exchange(other.view_, VK_NULL_HANDLE);
  }
  return *this;
}


void DeviceImage::Reset() {
  if (device_ == VK_NULL_HANDLE) return;
  if (view_ != VK_NULL_HANDLE) vkDestroyImageView(device_, view_, nullptr);
  if (image_ != VK_NULL_HANDLE) vkDestroyImage(device_, image_, nullptr);
  if (memory_ != VK_NULL_HANDLE) vkFreeMemory(device_, memory_, nullptr);
  device_ = VK_NULL_HANDLE;
  image_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
  view_ = VK_NULL_HANDLE;
}


void RunOneTimeCommands(VkDevice device, VkQueue queue, std::uint32_t queue_family,
                        const std::function<void(VkCommandBuffer)>& record) {
  // a transient pool and a fence of our own, so the host's command pools stay untouched
  VkCommandPoolCreateInfo pool_info{};
  pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pool_info.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  pool_info.queueFamilyIndex = queue_family;
  VkCommandPool pool = VK_NULL_HANDLE;
  SIM_VK_CHECK(vkCreateCommandPool(device, &pool_info, nullptr, &pool));
  VkFence fence = VK_NULL_HANDLE;
  const auto release = [&] {
    if (fence != VK_NULL_HANDLE) vkDestroyFence(device, fence, nullptr);
    vkDestroyCommandPool(device, pool, nullptr);  // frees its command buffers too
  };

  try {
    VkCommandBufferAllocateInfo allocate_info{};
    allocate_info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    allocate_info.commandPool = pool;
    allocate_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate_info.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    SIM_VK_CHECK(vkAllocateCommandBuffers(device, &allocate_info, &cmd));

    VkCommandBufferBeginInfo begin_info{};

    begin_info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    begin_info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    SIM_VK_CHECK(vkBeginCommandBuffer(cmd, &begin_info));
    record(cmd);
    SIM_VK_CHECK(vkEndCommandBuffer(cmd));

    VkFenceCreateInfo fence_info{};

    fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    SIM_VK_CHECK(vkCreateFence(device, &fence_info, nullptr, &fence));
    VkSubmitInfo submit{};
    submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd;
    SIM_VK_CHECK(vkQueueSubmit(queue, 1, &submit, fence));
    SIM_VK_CHECK(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX));
  } catch (...) {
    // a submitted but unfinished batch must not lose its pool under it
    vkQueueWaitIdle(queue);
    release();
    throw;
  }
  release();
}


Buffer MakeDeviceLocalBuffer(VkPhysicalDevice physical_device, VkDevice device, VkQueue queue,
                             std::uint32_t queue_family, const void* data, VkDeviceSize size,
                             VkBufferUsageFlags usage) {
  Buffer staging(physical_device, device, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                 VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  std::memcpy(staging.mapped(), data, static_cast<std::size_t>(size));
  Buffer buffer(physical_device, device, size, usage | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  RunOneTimeCommands(device, queue, queue_family, [&](VkCommandBuffer cmd) {
    const VkBufferCopy region{0, 0, size};
    vkCmdCopyBuffer(cmd, staging.handle(), buffer.handle(), 1, &region);
    // make the copy visible to every later vertex and index fetch on this queue
    VkMemoryBarrier barrier{};
    barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_INDEX_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_VERTEX_INPUT_BIT, 0,
                         1, &barrier, 0, nullptr, 0, nullptr);
  });
  return buffer;
}

}  // namespace sim::render
