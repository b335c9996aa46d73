// NCP functions and the friction compliance of the non-smooth Newton solver. Pure functions on
// scalars, shared by the CPU solver and (later) its CUDA port.
//
// Equations (digest docs/seeds/nsn-and-friction.md, seed 002 = Macklin et al. 2019):
//   Fischer-Burmeister, r-scaled   φ = C + rλ − sqrt(C² + r²λ²)                 App. A eq. (93)
//     ∂φ/∂C = 1 − C/sqrt(·),  ∂φ/∂λ = (1 − rλ/sqrt(·))·r;  at (0,0): α = 1, β = 0    eq. (94-95)
//     (the digest takes α = 0, β = 1 there; both are elements of the Clarke subgradient, ncp.cpp)
//   minimum map, r-scaled          φ = C if C ≤ rλ, else rλ                        eq. (96-98)
//   friction compliance (isotropic, slack eliminated), with s = |Dᵀu| and g = μλ_n − |λ_f|:
//     FB:  W = r·(sqrt(s² + r²g²) − r g) / (s + rμλ_n − sqrt(s² + r²g²))         eq. (104),
//          with the erratum of digest §19 #12 (s, not s², in the denominator)
//     min: W = 0 if s ≤ r g, else (s − r g)/(μλ_n)                                 eq. (105)
//   anisotropic (Matchstick) cone ψ = λ_n² − λ_fᵀAλ_f, A = diag(1/μ_t², 1/μ_b²) in the contact
//   basis (t, b): the isotropic formulas with μ = 1 on the scaled quantities v̂ = diag(μ_t, μ_b)v,
//   λ̂ = diag(1/μ_t, 1/μ_b)λ_f, r̂ = r·mean(μ_t², μ_b²) give ŵ, and W = ŵ·A (digest §4.4.c).
//   For μ_t = μ_b = μ this is exactly eq. (104)/(105) (FB and min are positively homogeneous).
//   cone projection (Alart and Curnier 1991; digest §4.4 solves the same NCP): λ_f = P(z),
//     z = λ_f − s/r, P the projection on |λ_f| ≤ μλ_n. Stick (|z| ≤ μλ_n): the row s = 0.
//     Slide: along ẑ the force is μλ_n whatever the slip; across it the compliance
//     W⊥ = r(1 − κ)/κ with κ = μλ_n/|z|, the derivative of P. Eq. (104)'s W instead ties the
//     force to the slip along ẑ too (λ_f = −s/W), so a contact held at zero slip by another
//     contact of the same body loses its force and the pair trades stick and slide forever.
#pragma once

#include "engine/core/math.h"
#include "engine/model/model.h"
#include "engine/solvers/nsn/nsn_settings.h"

namespace sim::nsn {

/// Value and partial derivatives of an NCP function φ(C, rλ) of a unilateral row.
struct NcpValue {
  Real phi = 0;           ///< φ [m]
  Real dphi_dgap = 0;     ///< α = ∂φ/∂C [-]
  Real dphi_dlambda = 0;  ///< S = ∂φ/∂λ [m/N] (includes the factor r)
};

/// φ(C, rλ) for the chosen NCP function; `gap` C [m], `lambda` λ [N], `r` [m/N].
NcpValue EvalNcp(NcpFunction ncp, Real gap, Real lambda, Real r);

/// Friction compliance W [(m/s)/N] of one active contact (μ_t λ_n > 0) for the isotropic cone of
/// eq. (104)/(105). `slip` = |Dᵀu| [m/s], `friction` = |λ_f| [N], `mu_normal` = μλ_n [N],
/// `r` [(m/s)/N]. Never negative; 0 means "stick" (a hard tangential velocity row).
Real FrictionCompliance(NcpFunction ncp, Real slip, Real friction, Real mu_normal, Real r);

/// The 2×2 friction block of an active contact with cone axes μ_t, μ_b (tangent basis aligned
/// with the cone): W = ŵ·diag(1/μ_t², 1/μ_b²), returned as its diagonal (w_t, w_b).
/// `slip_tb` = Dᵀu, `force_tb` = λ_f in the (t, b) basis, `r` the isotropic friction r-factor.
Eigen::Vector2d AnisotropicFrictionCompliance(NcpFunction ncp, const Eigen::Vector2d& slip_tb,
                                              const Eigen::Vector2d& force_tb, Real normal_force,
                                              Real mu_t, Real mu_b, Real r);

/// The two Newton rows of one active contact's friction by the cone projection. The rows are
/// T·[∇_t; ∇_b] (the slip in the scaled, slide-aligned frame) and λ_f = Tᵀλ'; each row solves
/// Δs' + W'Δλ' = −h'. Anisotropic cones project in the frame scaled by diag(μ_t, μ_b)/μ̄,
/// μ̄ = sqrt((μ_t² + μ_b²)/2), where the cone is round with radius μ̄λ_n.
struct ProjectedFriction {
  Eigen::Matrix2d frame = Eigen::Matrix2d::Identity();   ///< T [-]
  Eigen::Vector2d compliance = Eigen::Vector2d::Zero();  ///< W' [(m/s)/N]
  Eigen::Vector2d residual = Eigen::Vector2d::Zero();    ///< h' [m/s]
  Real error = 0;  ///< r·|λ̃ − P(z)|, the projection's residual as a slip [m/s]
  bool sliding = false;
};

/// Compliance standing in for "the force is fixed" on the slide direction: so far above any
/// row's J M⁻¹ Jᵀ Δt that the slip moves the force by 1e-12 of the slip's own scale.
inline constexpr Real kSlideForceCompliance = 1e12;

/// The projected-friction rows of one active contact (λ_n > 0, μ_t, μ_b > 0): `slip_tb` = Dᵀu
/// [m/s] and `force_tb` = λ_f [N] in the contact basis (t, b), `r` the friction r-factor
/// [(m/s)/N].
ProjectedFriction ProjectFriction(const Eigen::Vector2d& slip_tb, const Eigen::Vector2d& force_tb,
                                  Real normal_force, Real mu_t, Real mu_b, Real r);

}  // namespace sim::nsn
