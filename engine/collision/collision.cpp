#include "engine/collision/collision.h"

#include "engine/model/model.h"
#include "engine/state/state.h"

namespace sim {

// TODO(collision): placeholder until the narrow phase lands in this issue.
void DetectContacts(const Model&, const State&, Real, Contacts* contacts, CollisionStats* stats) {
  contacts->Clear();
  *stats = {};
}

}  // namespace sim
