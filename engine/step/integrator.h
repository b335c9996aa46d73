// Time integration of the step. Every solver takes one backward-Euler step of some length h from a
// start state (q⁻, u⁻): q = q⁻ + h G u, M(u − u⁻) = h f (seed 002 eq. (82)-(84)). BDF2 (digest
// add-and-pbti.md §A.4, with the velocities kept rather than differenced) is that same step from an
// extrapolated start:
//
//   u = û + ĥ M⁻¹ f,  q = q̂ + ĥ G u,   û = (4uₙ − uₙ₋₁)/3,  q̂ = (4qₙ − qₙ₋₁)/3,  ĥ = 2Δt/3,
//
// i.e. u̇ = (3u − 4uₙ + uₙ₋₁)/(2Δt) and q̇ = (3q − 4qₙ + qₙ₋₁)/(2Δt). For an orientation q̂ is the
// last step's rotation continued by a third, q̂ = (qₙ qₙ₋₁⁻¹)^(1/3) qₙ. Contacts, joints and FEM
// rows are evaluated at the end-of-step iterate as always, so no solver changes.
//
// A position-level contact that closes at speed makes the BDF2 velocity inconsistent with the
// positions (the stencil still remembers the approach) and the next steps ring back up by about
// the approach speed. The step therefore falls back to backward Euler, plastic as with bdf1,
// in the step where a contact closes faster than solver.restitution_threshold and in the step
// after it; and on the first step, after the state was edited, or after Δt changed.
#pragma once

#include "engine/core/math.h"
#include "engine/state/state.h"

namespace sim {

/// The BDF2 start of a step of `dt` from `in`: (q̂, û) in `*start` (with in's warm starts, and the
/// time in.time + Δt/3 so that a step of ĥ = 2Δt/3 ends at in.time + Δt). False, leaving
/// `*start` alone, when in.history does not belong to `in` at this Δt or ends an impact.
bool Bdf2Start(const State& in, Real dt, State* start);

/// Makes `in` the history of its successor `*out` (after a step of `dt`; `impact`: a contact
/// closed at speed in it). Call once `*out` is final: the history is tied to its hash.
void RecordHistory(const State& in, Real dt, bool impact, State* out);

}  // namespace sim
