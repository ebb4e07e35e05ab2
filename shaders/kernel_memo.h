// Built kernels kept for the life of the process, one per key: an operator builds each DXBC blob once, however many
// cases or benchmark iterations plan the same kernel. Thread-safe (the runner's thread pool plans in parallel). Each
// instantiation (key type and build function) has its own memo.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "core/status.h"

namespace dmltool::shaders {

using KernelBlob = std::shared_ptr<const std::vector<uint8_t>>;

// The blob for `key`, built by build(key) -> Result<std::vector<uint8_t>> the first time; a failed build is not kept.
template <class Key, class Build>
Result<KernelBlob> memoized_kernel(const Key& key, Build build) {
    static std::mutex mutex;
    static std::map<Key, KernelBlob> memo;
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = memo.find(key); it != memo.end()) return it->second;
    DMLTOOL_ASSIGN_OR_RETURN(std::vector<uint8_t> blob, build(key));
    KernelBlob shared = std::make_shared<const std::vector<uint8_t>>(std::move(blob));
    memo.emplace(key, shared);
    return shared;
}

}  // namespace dmltool::shaders
