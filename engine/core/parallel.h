// Data-parallel loops of the engine (oneTBB). Small loops run inline: below `min_parallel` items
// the task overhead costs more than it saves, and the tiny scenes of the tests stay on one thread.
// Callers write each index's result to its own slot, so results do not depend on the number of
// threads (`contact-sim bench --threads` sets it).
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace sim {

/// Calls body(begin, end) over [0, count) in chunks of about `grain` items, on the TBB worker
/// threads when count ≥ min_parallel, otherwise once inline.
template <class Body>
void ParallelFor(int count, int grain, int min_parallel, const Body& body) {
  if (count < min_parallel) {
    if (count > 0) body(0, count);
    return;
  }
  tbb::parallel_for(
      tbb::blocked_range<int>(0, count, grain),
      [&](const tbb::blocked_range<int>& range) { body(range.begin(), range.end()); },
      tbb::static_partitioner());
}

}  // namespace sim
