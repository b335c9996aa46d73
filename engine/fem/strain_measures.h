// Strain measures of a deformed soft body for the viewport and reports: per tet and per node, the
// volumetric strain J − 1, the principal stretches and the von Mises stress of the body's
// material. Pure functions of the rest and current node positions (no solver state).
//
//   F = D_s D_m⁻¹            deformation gradient of a constant-strain tet, D_s = [x1−x0, x2−x0,
//                            x3−x0] deformed, D_m the same at rest (seed 002 §9.2, digest §2.6)
//   F = U diag(s) Vᵀ         s = principal stretches (rotation-variant SVD, digest §2.7)
//   J = s1 s2 s3             volume ratio; J − 1 is the volumetric strain
//   σ_i = s_i ∂Ψ/∂s_i / J    principal Cauchy stresses of an isotropic Ψ(s)
//   σ_vm = √(½[(σ1−σ2)² + (σ2−σ3)² + (σ3−σ1)²])
//
// σ_i comes from the body's material (engine/fem/fem_material.h). For the stable Neo-Hookean
// energy of digest §2.8, Ψ = C1(I_C − 3) + D1(J − α)², the volume term adds the same 2D1(J − α)
// to every σ_i, so σ_i − σ_j = 2C1(s_i² − s_j²)/J with C1 = μ_L/2, μ_L = Y/(2(1+ν)); for the
// linear co-rotational energy s_i ∂Ψ/∂s_i = 2μ s_i(s_i − 1) + λ s_i(Σs − 3).
#pragma once

#include <array>
#include <vector>

#include "engine/core/math.h"
#include "engine/fem/fem_material.h"

namespace sim {

struct Model;
struct State;

/// Strain of one tet.
struct TetStrain {
  Real volumetric = 0;            ///< J − 1 [-]
  Vec3 stretches = Vec3::Ones();  ///< principal stretches s1 ≥ s2 ≥ s3 (s3 < 0: inverted) [-]
  Real von_mises = 0;             ///< [Pa]
};

/// Strain of a tet with rest corners `rest` and deformed corners `x` [m], for Young's modulus
/// `youngs_modulus` [Pa] and Poisson ratio `poisson_ratio` [-] (stable Neo-Hookean stress).
TetStrain CalcTetStrain(const std::array<Vec3, 4>& rest, const std::array<Vec3, 4>& x,
                        Real youngs_modulus, Real poisson_ratio);

/// The same for a tet of material `material` (its model's principal stresses).
TetStrain CalcTetStrain(const std::array<Vec3, 4>& rest, const std::array<Vec3, 4>& x,
                        const FemMaterialParameters& material);

/// Per-node volumetric strain and von Mises stress of soft body `soft_body` in `state` (its own
/// material model): the rest-volume-weighted mean over the tets around each node. The strain is
/// measured from the mesh's rest shape, activation growth included; the stress is the material's
/// at the elastic part of the deformation, with the activation pressure (tet_elements.h). Uses the
/// body's rest inverses and volumes (InitSoftBodyElements). Outputs have one entry per node of the
/// body (local node ids), as float for the render snapshot.
void CalcSoftBodyNodeStrain(const Model& model, const State& state, int soft_body,
                            std::vector<float>* volumetric_strain, std::vector<float>* von_mises);

}  // namespace sim
