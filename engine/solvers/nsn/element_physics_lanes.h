// The element kernels of the NSN solver's FEM rows (element_rows.h), written once for a vector
// type V of two or four doubles (engine/core/real_lanes.h): the evaluation of the rows (SVD,
// material derivatives, compliance), the residual and Schur diagonal, the Schur products J t,
// Jᵀ x and A x, and the rotation stiffness, each running kTetLanes tets of a group in lanes. The
// SIMD plumbing (gathering and scattering node vectors, loading and storing rows, the padded
// node copies of the quads) is in element_gather_lanes.h. Each per-width file
// (element_kernels_sse2.cpp, element_kernels_avx2.cpp) includes this header and builds its
// ElementKernels table (element_kernels.h) with MakeElementKernels<V>.
#pragma once

#include <algorithm>
#include <vector>

#include "engine/core/real_lanes.h"
#include "engine/fem/fem_material_lanes.h"
#include "engine/fem/svd3_lanes.h"
#include "engine/solvers/nsn/element_gather_lanes.h"
#include "engine/solvers/nsn/element_kernels.h"
#include "engine/solvers/nsn/element_rows.h"

namespace sim::nsn::element_lanes {

// smallest stiffness of a filtered element Hessian, relative to the rest shear stiffness 2μV_e:
// it bounds the compliance of a direction the energy barely resists to 1000× the rest shear
// compliance, so one Newton step cannot fling a node along it
inline constexpr Real kHessianFloor = 1e-3;

// Jacobi sweeps of the SVD per evaluation: the guess is the last iteration's V, so one or two
// sweeps reach the tolerance; the bound only matters for a wildly changed element
inline constexpr int kSvdSweeps = 6;
// their stopping point: an off-diagonal of FᵀF below 1e-8 of its trace leaves the stretches exact
// to round-off where they are distinct (the error is quadratic in it) and within 1e-8 where they
// are not, and the frame within ~1e-8 rad, far below what the inexact Newton solve resolves; the
// default 1e-15 costs one more sweep per tet and evaluation (measured)
inline constexpr Real kSvdTolerance = 1e-8;

// The element kernels for one vector type V: the Schur products (AddJt, MultiplyJ, Apply: the
// inner loop of every PCR iteration), the evaluation, the residual and the rotation stiffness.
// Each group of kTetLanes tets runs as kTetLanes / kLaneCount<V> parts of that many lanes. On
// x86-64 with AVX2 and FMA (checked at run time, element_kernels.cpp) they run on quads, from the
// one file compiled for x86-64-v3, so the binary stays portable; elsewhere on pairs. Measured on
// sphere1K.msh at 6 × 20 (alternating runs against the former two-tet groups on SSE2 pairs): the
// quads take 14 % less solve time, the pairs 3 % more; the same four-tet code compiled for SSE2
// alone took 18 % more (its vectors of four spill registers).
struct ElementProducts {
  // tets of group gi in the last (shorter) group, else kTetLanes
  static int GroupLanes(const ElementRows& rows, int gi) {
    return std::min(kTetLanes, rows.tet_count() - gi * kTetLanes);
  }

  // the 6 rows applied to node vectors t for lanes [part·W, part·W + W) of group gi (J t):
  // d_a = t_a − t_0 (a = 1..3),
  // w_n = Σ_a d_a B(a, n), T_mn = u_m · w_n; stretch T_ii, shear (T_ij + T_ji)/√2
  template <class V>
  [[gnu::always_inline]] static void Rates(const ElementRows& rows, int gi, int part, const Real* t,
                                           V* y) {
    constexpr int W = kLaneCount<V>;
    const ElementRows::TetGroup& g = rows.groups_[gi];
    const int o = part * W;
    V t0[3], d[3][3];  // d[edge][axis]
    GatherNodes<V>(t, g.block[0] + o, t0);
    for (int a = 0; a < 3; ++a) {
      GatherNodes<V>(t, g.block[a + 1] + o, d[a]);
      for (int k = 0; k < 3; ++k) d[a][k] -= t0[k];
    }
    V w[3][3];  // w[n][axis]
    for (int n = 0; n < 3; ++n) {
      const V b0 = LoadLanes<V>(g.B[3 * n] + o), b1 = LoadLanes<V>(g.B[3 * n + 1] + o),
              b2 = LoadLanes<V>(g.B[3 * n + 2] + o);
      for (int k = 0; k < 3; ++k) w[n][k] = d[0][k] * b0 + d[1][k] * b1 + d[2][k] * b2;
    }
    const auto T = [&](int m, int n) {
      return LoadLanes<V>(g.U[3 * m] + o) * w[n][0] + LoadLanes<V>(g.U[3 * m + 1] + o) * w[n][1] +
             LoadLanes<V>(g.U[3 * m + 2] + o) * w[n][2];
    };
    for (int i = 0; i < 3; ++i) y[i] = T(i, i);
    for (int p = 0; p < 3; ++p) {
      const int i = kPairs[p][0], j = kPairs[p][1];
      y[3 + p] = rows.shear_rows_ ? kInvSqrt2 * (T(i, j) + T(j, i)) : V{};
    }
  }

  // lin += Jᵀx: NodeForces for the lanes of each group: X̂ symmetric with the stretch multipliers
  // on the diagonal and shear/√2 off it, Y = U X̂, node a = 1..3 gets Σ_n Y_:n B(a − 1, n), node
  // 0 minus their sum
  template <class V>
  [[gnu::always_inline]] static void AddJt(const ElementRows& rows, const Real* x, Real* out) {
    constexpr int W = kLaneCount<V>;
    const Real shear = rows.shear_rows_ ? kInvSqrt2 : 0;
    for (int gi = 0; gi < static_cast<int>(rows.groups_.size()); ++gi) {
      const ElementRows::TetGroup& g = rows.groups_[gi];
      const int lanes = GroupLanes(rows, gi);
      for (int part = 0; part * W < lanes; ++part) {
        const int o = part * W;
        V xs[kElementRows];
        LoadRows<V>(x, gi, lanes, part, xs);
        const V x01 = shear * xs[3], x02 = shear * xs[4], x12 = shear * xs[5];
        const V xh[3][3] = {{xs[0], x01, x02}, {x01, xs[1], x12}, {x02, x12, xs[2]}};
        V Y[3][3];  // Y[n][axis] = (U X̂)(axis, n)
        for (int n = 0; n < 3; ++n) {
          for (int k = 0; k < 3; ++k) {
            Y[n][k] = LoadLanes<V>(g.U[k] + o) * xh[0][n] +
                      LoadLanes<V>(g.U[3 + k] + o) * xh[1][n] +
                      LoadLanes<V>(g.U[6 + k] + o) * xh[2][n];
          }
        }
        V f[4][3];  // [node][axis]
        for (int a = 0; a < 3; ++a) {
          const V b0 = LoadLanes<V>(g.B[a] + o), b1 = LoadLanes<V>(g.B[3 + a] + o),
                  b2 = LoadLanes<V>(g.B[6 + a] + o);
          for (int k = 0; k < 3; ++k) f[a + 1][k] = Y[0][k] * b0 + Y[1][k] * b1 + Y[2][k] * b2;
        }
        for (int k = 0; k < 3; ++k) f[0][k] = -(f[1][k] + f[2][k] + f[3][k]);
        // scatter tet by tet (the tets of a group may share nodes)
        for (int a = 0; a < 4; ++a) ScatterNodes<V>(f[a], g.block[a] + o, lanes - o, out);
      }
    }
  }

  // y = J t
  template <class V>
  [[gnu::always_inline]] static void MultiplyJ(const ElementRows& rows, const Real* t, Real* y) {
    for (int gi = 0; gi < static_cast<int>(rows.groups_.size()); ++gi) {
      const int lanes = GroupLanes(rows, gi);
      for (int part = 0; part * kLaneCount<V> < lanes; ++part) {
        V rates[kElementRows];
        Rates<V>(rows, gi, part, t, rates);
        StoreRows<V>(rates, gi, lanes, part, y);
      }
    }
  }

  // y = J t + C x + εx; returns xᵀy per lane
  template <class V>
  [[gnu::always_inline]] static V Apply(const ElementRows& rows, const Real* t, const Real* x,
                                        Real regularization, Real* y) {
    V dot{};
    for (int gi = 0; gi < static_cast<int>(rows.groups_.size()); ++gi) {
      const ElementRows::TetGroupCompliance& c = rows.group_compliance_[gi];
      const int lanes = GroupLanes(rows, gi);
      for (int part = 0; part * kLaneCount<V> < lanes; ++part) {
        const int o = part * kLaneCount<V>;
        V ys[kElementRows], xs[kElementRows];
        Rates<V>(rows, gi, part, t, ys);
        LoadRows<V>(x, gi, lanes, part, xs);
        // + C x + εx: the symmetric stretch block, then the shear diagonal
        const V c00 = LoadLanes<V>(c.stretch[0] + o), c11 = LoadLanes<V>(c.stretch[1] + o),
                c22 = LoadLanes<V>(c.stretch[2] + o);
        const V c01 = LoadLanes<V>(c.stretch[3] + o), c02 = LoadLanes<V>(c.stretch[4] + o),
                c12 = LoadLanes<V>(c.stretch[5] + o);
        ys[0] += c00 * xs[0] + c01 * xs[1] + c02 * xs[2];
        ys[1] += c01 * xs[0] + c11 * xs[1] + c12 * xs[2];
        ys[2] += c02 * xs[0] + c12 * xs[1] + c22 * xs[2];
        for (int p = 0; p < 3; ++p) ys[3 + p] += LoadLanes<V>(c.shear[p] + o) * xs[3 + p];
        for (int r = 0; r < kElementRows; ++r) {
          ys[r] += regularization * xs[r];
          dot += xs[r] * ys[r];  // zero in padding lanes (x is)
        }
        StoreRows<V>(ys, gi, lanes, part, y);
      }
    }
    return dot;
  }

  // Assemble for the lanes of each group (see ElementRows::Assemble); returns max |E φ| per lane
  template <class V>
  [[gnu::always_inline]] static V Assemble(const ElementRows& rows, const Real* v,
                                           const Real* lambda, const Real* inv_mass,
                                           Real regularization, Real* h, Real* diag) {
    constexpr int W = kLaneCount<V>;
    V error{};
    // error = max(error, |a|), leaving error as it is where a is NaN (as std::max)
    const auto keep_max = [&error](const V& a) {
      const V magnitude = a < 0 ? -a : a;
      error = magnitude > error ? magnitude : error;
    };
    for (int gi = 0; gi < static_cast<int>(rows.groups_.size()); ++gi) {
      const ElementRows::TetGroup& g = rows.groups_[gi];
      const ElementRows::TetGroupCompliance& c = rows.group_compliance_[gi];
      const ElementRows::TetGroupResidual& s = rows.group_residual_[gi];
      const ElementRows::TetGroupMaterial& m = rows.group_material_[gi];
      for (int part = 0; part * W < GroupLanes(rows, gi); ++part) {
        const int o = part * W;
        const int lanes = GroupLanes(rows, gi);
        const auto load = [o](const Real* entries) { return LoadLanes<V>(entries + o); };
        V rate[kElementRows], le[kElementRows], he[kElementRows], de[kElementRows];
        Rates<V>(rows, gi, part, v, rate);
        LoadRows<V>(lambda, gi, lanes, part, le);
        const V beta = load(m.damping);
        const V dt_beta = rows.dt_ + beta;
        // stretch rows: φ = ∂U/∂s + βH ṡ + λ, h = Eφ/(Δt + β)
        V phi[3];
        for (int i = 0; i < 3; ++i) {
          const V h_rate =
              load(s.H[i]) * rate[0] + load(s.H[3 + i]) * rate[1] + load(s.H[6 + i]) * rate[2];
          phi[i] = load(s.gradient[i]) + beta * h_rate + le[i];
        }
        for (int i = 0; i < 3; ++i) {
          const V e_phi =
              load(s.E[i]) * phi[0] + load(s.E[3 + i]) * phi[1] + load(s.E[6 + i]) * phi[2];
          he[i] = e_phi / dt_beta;
          keep_max(e_phi);
        }
        // shear rows: φ = βk ċ + λ; inactive (sources' 3-row form): J = 0, C = 1/Δt, h = λ, which
        // only decays a stale multiplier (as inactive friction rows, digest §6.6)
        for (int p = 0; p < 3; ++p) {
          if (!rows.shear_rows_) {
            he[3 + p] = le[3 + p];
            continue;
          }
          const V k = load(s.shear_k[p]);
          const V e_phi = (beta * k * rate[3 + p] + le[3 + p]) / k;
          he[3 + p] = e_phi / dt_beta;
          keep_max(e_phi);
        }
        // diag A_rr = Σ_a J_ra · diag(H⁻¹_a) J_ra + C_rr + ε, with the rows' node coefficients
        // J_ra = c_an u_n (stretch n = r) or (c_aj u_i + c_ai u_j)/√2 (shear pair (i, j)), c_an =
        // B(a − 1, n) and c_0n = −Σ_a c_an, through w_mn = u_m · diag(H⁻¹_a) u_n per node
        V u[3][3];  // u[n][axis] = U(axis, n)
        for (int n = 0; n < 3; ++n) {
          for (int k = 0; k < 3; ++k) u[n][k] = load(g.U[3 * n + k]);
        }
        V sum[kElementRows] = {};
        for (int a = 0; a < 4; ++a) {
          V coefficient[3];
          for (int n = 0; n < 3; ++n) {
            coefficient[n] =
                a > 0 ? load(g.B[3 * n + a - 1])
                      : -(load(g.B[3 * n]) + load(g.B[3 * n + 1]) + load(g.B[3 * n + 2]));
          }
          V d[3];
          GatherNodes<V>(inv_mass, g.block[a] + o, d);
          const auto w = [&](int m, int n) {
            return u[m][0] * d[0] * u[n][0] + u[m][1] * d[1] * u[n][1] + u[m][2] * d[2] * u[n][2];
          };
          const V w_diag[3] = {w(0, 0), w(1, 1), w(2, 2)};
          for (int n = 0; n < 3; ++n) sum[n] += coefficient[n] * coefficient[n] * w_diag[n];
          if (!rows.shear_rows_) continue;
          for (int p = 0; p < 3; ++p) {
            const int i = kPairs[p][0], j = kPairs[p][1];
            const V ci = coefficient[i], cj = coefficient[j];
            sum[3 + p] += 0.5 * (cj * cj * w_diag[i] + ci * ci * w_diag[j] + 2 * ci * cj * w(i, j));
          }
        }
        for (int i = 0; i < 3; ++i) de[i] = sum[i] + load(c.stretch[i]) + regularization;
        for (int p = 0; p < 3; ++p) de[3 + p] = sum[3 + p] + load(c.shear[p]) + regularization;
        StoreRows<V>(he, gi, lanes, part, h);
        StoreRows<V>(de, gi, lanes, part, diag);
      }
    }
    return error;
  }

  // c[block] += Δt² diag(K_rot) for the lanes of each group (ElementRows::AddRotationStiffness)
  template <class V>
  [[gnu::always_inline]] static void RotationStiffness(const ElementRows& rows, const Real* lambda,
                                                       Real dt, Real* out) {
    constexpr int W = kLaneCount<V>;
    constexpr Real kTinyStretchSum = 1e-6;  // s_i + s_j away from 0 (flat or inverted tets)
    for (int gi = 0; gi < static_cast<int>(rows.groups_.size()); ++gi) {
      const ElementRows::TetGroup& g = rows.groups_[gi];
      const ElementRows::TetGroupResidual& h = rows.group_residual_[gi];
      const int lanes = GroupLanes(rows, gi);
      for (int part = 0; part * W < lanes; ++part) {
        const int o = part * W;
        const auto load = [o](const Real* lanes_of) { return LoadLanes<V>(lanes_of + o); };
        V le[kElementRows];
        LoadRows<V>(lambda, gi, lanes, part, le);
        V diagonal[4][3] = {};  // [node][axis]
        for (const auto& pair : kPairs) {
          const int i = pair[0], j = pair[1];
          const V sum = load(h.stretch[i]) + load(h.stretch[j]);
          const V b = (le[i] + le[j]) / (sum < kTinyStretchSum ? V{} + kTinyStretchSum : sum);
          V g0[3] = {};
          for (int a = 1; a < 4; ++a) {
            const V bj = kInvSqrt2 * load(g.B[3 * j + a - 1]);
            const V bi = kInvSqrt2 * load(g.B[3 * i + a - 1]);
            for (int k = 0; k < 3; ++k) {
              const V coefficient = bj * load(g.U[3 * i + k]) - bi * load(g.U[3 * j + k]);
              diagonal[a][k] += b * coefficient * coefficient;
              g0[k] -= coefficient;
            }
          }
          for (int k = 0; k < 3; ++k) diagonal[0][k] += b * g0[k] * g0[k];
        }
        for (int a = 0; a < 4; ++a) {
          for (int k = 0; k < 3; ++k) diagonal[a][k] *= dt * dt;
          ScatterNodes<V>(diagonal[a], g.block[a] + o, lanes - o, out);
        }
      }
    }
  }

  // Evaluate for W tets at a time: the SVDs of F = D_s D_m⁻¹ with the last V as the guess
  // (CalcSvd3 semantics, svd3_lanes.h), then the rows' energy derivatives, filtered Hessians,
  // compliance and shear stiffness (fem_material_lanes.h; the scalar CalcProjectedCompliance for
  // a lane whose Hessian needs its eigenvalues filtered), stored into the packed groups, the only
  // copy of the rows. The padding lanes of a shorter last group evaluate copies of the group's
  // first tet (finite), and their rows are cleared at the end. Measured
  // on sphere1K.msh at 6 × 20 (alternating runs): the SVDs side by side took assembly 21.4-22.1
  // ms → 15.0-15.5 on quads (17.8-18.5 on pairs); the materials and the packing side by side,
  // 11.95 → 9.4-9.8 ms; F and the guesses in lanes without per-tet copies, 9.1-10.5 → 7.5-8.05
  template <class V>
  [[gnu::always_inline]] static void Evaluate(ElementRows& rows, const Real* x,
                                              FemComplianceMode mode) {
    constexpr int W = kLaneCount<V>;
    const int tets = rows.tet_count();
    for (int first = 0; first < tets; first += W) {
      const int o = first % kTetLanes;
      ElementRows::TetGroup& g = rows.groups_[first / kTetLanes];
      ElementRows::TetGroupCompliance& c = rows.group_compliance_[first / kTetLanes];
      ElementRows::TetGroupResidual& h = rows.group_residual_[first / kTetLanes];
      const ElementRows::TetGroupMaterial& m = rows.group_material_[first / kTetLanes];
      ElementRows::TetGroupFrame& frame = rows.group_frame_[first / kTetLanes];
      const auto load = [o](const Real* lanes_of) { return LoadLanes<V>(lanes_of + o); };
      const auto store = [o](Real* lanes_of, const V& v) { StoreLanes<V>(lanes_of + o, v); };
      // the SVDs of F = D_s D_m⁻¹ (D_s = [x1 − x0, x2 − x0, x3 − x0]), the last V as the guess
      V x0[3], edge[3][3];  // edge[c][axis]: column c of D_s
      GatherNodes<V>(x, g.block[0] + o, x0);
      for (int a = 0; a < 3; ++a) {
        GatherNodes<V>(x, g.block[a + 1] + o, edge[a]);
        for (int k = 0; k < 3; ++k) edge[a][k] -= x0[k];
      }
      Mat3Lanes<V> F, Vm, U, B;
      for (int r = 0; r < 3; ++r) {
        for (int col = 0; col < 3; ++col) {
          F.m[r][col] = edge[0][r] * load(m.rest_inverse[3 * col]) +
                        edge[1][r] * load(m.rest_inverse[3 * col + 1]) +
                        edge[2][r] * load(m.rest_inverse[3 * col + 2]);
          Vm.m[r][col] = load(frame.V[3 * col + r]);
        }
      }
      V sigma[3];
      CalcSvd3Lanes(F, &Vm, kSvdSweeps, kSvdTolerance, &U, sigma);
      // B = D_m⁻¹ V
      for (int r = 0; r < 3; ++r) {
        for (int col = 0; col < 3; ++col) {
          B.m[r][col] = load(m.rest_inverse[r]) * Vm.m[0][col] +
                        load(m.rest_inverse[3 + r]) * Vm.m[1][col] +
                        load(m.rest_inverse[6 + r]) * Vm.m[2][col];
        }
      }
      // stretch rows: V ∂Ψ/∂s and the filtered V ∂²Ψ/∂s² with its inverse E
      const MaterialLanes<V> material{load(m.mu), load(m.lambda), load(m.c1),
                                      load(m.d1), load(m.alpha),  load(m.corotational)};
      const V volume = load(m.volume), activation = load(m.activation), beta = load(m.damping);
      V gradient[3];
      Mat3Lanes<V> hessian, E, H;
      EvalPrincipalDerivativesLanes(material, sigma, activation, gradient, &hessian);
      for (auto& row : hessian.m) {
        for (V& entry : row) entry *= volume;
      }
      const V floor = kHessianFloor * 2 * material.mu * volume;
      const auto direct = CalcProjectedComplianceLanes(hessian, mode, floor, &E, &H);
      for (int l = 0; l < W; ++l) {
        if (direct[l]) continue;
        Mat3 H_l;
        const Mat3 E_l = CalcProjectedCompliance(hessian.Lane(l), mode, floor[l], &H_l);
        for (int i = 0; i < 3; ++i) {
          for (int j = 0; j < 3; ++j) {
            E.m[i][j][l] = E_l(i, j);
            H.m[i][j][l] = H_l(i, j);
          }
        }
      }
      // C = E/(Δt(Δt + β)) for the Schur products (symmetrized: E inverts a symmetric H up to
      // round-off, and the products keep one triangle)
      const V scale = 1 / (rows.dt_ * (rows.dt_ + beta));
      V C[3][3];
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) C[i][j] = (0.5 * scale) * (E.m[i][j] + E.m[j][i]);
      }
      // shear rows: the pair stiffness a, by magnitude (the same absolute-value filter); inactive
      // rows (sources' 3-row form) get C = 1/Δt and no stiffness (see Assemble)
      V shear_k[3], shear_C[3];
      if (rows.shear_rows_) {
        V a[3];
        EvalPairShearLanes(material, sigma, activation, a);
        for (int p = 0; p < 3; ++p) {
          const V k = volume * (a[p] < 0 ? -a[p] : a[p]);
          shear_k[p] = k > floor ? k : floor;
          shear_C[p] = scale * (1 / shear_k[p]);
        }
      } else {
        for (int p = 0; p < 3; ++p) {
          shear_k[p] = V{} + 1;
          shear_C[p] = V{} + 1 / rows.dt_;
        }
      }
      // the packed groups (entry (r, c) at [3c + r]) ...
      for (int i = 0; i < 9; ++i) {
        store(g.U[i], U.m[i % 3][i / 3]);
        store(g.B[i], B.m[i % 3][i / 3]);
        store(h.E[i], E.m[i % 3][i / 3]);
        store(h.H[i], H.m[i % 3][i / 3]);
      }
      const V stretch_c[6] = {C[0][0], C[1][1], C[2][2], C[0][1], C[0][2], C[1][2]};
      for (int i = 0; i < 6; ++i) store(c.stretch[i], stretch_c[i]);
      for (int p = 0; p < 3; ++p) {
        store(c.shear[p], shear_C[p]);
        store(h.gradient[p], volume * gradient[p]);
        store(h.shear_k[p], shear_k[p]);
      }
      for (int i = 0; i < 3; ++i) store(h.stretch[i], sigma[i]);
      for (int i = 0; i < 9; ++i) store(frame.V[i], Vm.m[i % 3][i / 3]);
    }
    // padding lanes of a shorter last group: zero rows, compliance and residual terms (on a valid
    // node, set by Begin), and a unit shear stiffness (Assemble divides by it)
    for (int l = tets % kTetLanes; l > 0 && l < kTetLanes; ++l) {
      ElementRows::TetGroup& g = rows.groups_.back();
      ElementRows::TetGroupCompliance& c = rows.group_compliance_.back();
      ElementRows::TetGroupResidual& h = rows.group_residual_.back();
      for (int i = 0; i < 9; ++i) g.U[i][l] = g.B[i][l] = h.E[i][l] = h.H[i][l] = 0;
      for (int i = 0; i < 6; ++i) c.stretch[i][l] = 0;
      for (int p = 0; p < 3; ++p) {
        c.shear[p][l] = h.gradient[p][l] = h.stretch[p][l] = 0;
        h.shear_k[p][l] = 1;
      }
    }
  }

  // The table's entries for width V: the ElementRows members of the same name, the node vectors
  // in the layout of V (NodesIn, NodesOut: ElementRows' scratch padded_nodes_ on quads) and the
  // per-lane results reduced in a fixed order (MaxOfLanes, SumOfLanes)
  template <class V>
  static void EvaluateAll(ElementRows& rows, const std::vector<Vec3>& x, FemComplianceMode mode) {
    Evaluate<V>(rows, NodesIn<V>(x, &rows.padded_nodes_[0]), mode);
  }
  template <class V>
  static Real AssembleAll(const ElementRows& rows, const std::vector<Vec3>& v, const Real* lambda,
                          const std::vector<Vec3>& inv_mass, Real regularization, Real* h,
                          Real* diag) {
    const V error =
        Assemble<V>(rows, NodesIn<V>(v, &rows.padded_nodes_[0]), lambda,
                    NodesIn<V>(inv_mass, &rows.padded_nodes_[1]), regularization, h, diag);
    return MaxOfLanes(error);
  }
  template <class V>
  static Real ApplyAll(const ElementRows& rows, const std::vector<Vec3>& t, const Real* x,
                       Real regularization, Real* y) {
    return SumOfLanes(Apply<V>(rows, NodesIn<V>(t, &rows.padded_nodes_[0]), x, regularization, y));
  }
  template <class V>
  static void AddJtAll(const ElementRows& rows, const Real* x, std::vector<Vec3>* lin) {
    Real* out = NodesOut<V>(lin, &rows.padded_nodes_[0]);
    AddJt<V>(rows, x, out);
    AddNodesOut<V>(out, lin);
  }
  template <class V>
  static void MultiplyJAll(const ElementRows& rows, const std::vector<Vec3>& t, Real* y) {
    MultiplyJ<V>(rows, NodesIn<V>(t, &rows.padded_nodes_[0]), y);
  }
  template <class V>
  static void AddRotationStiffnessAll(const ElementRows& rows, const Real* lambda, Real dt,
                                      std::vector<Vec3>* c) {
    Real* out = NodesOut<V>(c, &rows.padded_nodes_[0]);
    RotationStiffness<V>(rows, lambda, dt, out);
    AddNodesOut<V>(out, c);
  }
};

// The table of width V (constant, so a per-width file defines it without code run at load)
template <class V>
constexpr ElementKernels MakeElementKernels(const char* name) {
  using P = ElementProducts;
  return {name,
          &P::EvaluateAll<V>,
          &P::AssembleAll<V>,
          &P::ApplyAll<V>,
          &P::AddJtAll<V>,
          &P::MultiplyJAll<V>,
          &P::AddRotationStiffnessAll<V>};
}

}  // namespace sim::nsn::element_lanes
