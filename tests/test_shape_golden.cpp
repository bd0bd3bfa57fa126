// Golden jaxprs of shape ops, static indexing, iota and creation functions: fusejit's text must
// equal JAX's byte for byte. The expected strings were printed by JAX 0.10.2 from
// tests/golden/jaxpr_goldens.py (the `shape_cases`).
#include <doctest/doctest.h>

#include <fusejit/fusejit.hpp>

using fj::Tracer;

namespace {
const fj::Shape s23{2, 3}, s56{5, 6};
}  // namespace

TEST_CASE("shape golden: flip_all") {
  auto f = [](Tracer x) { return fj::flip(x); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s23)).str() == R"({ lambda ; a:f32[2,3]. let
    b:f32[2,3] = jit[
      name=_flip
      jaxpr={ lambda ; a:f32[2,3]. let
          b:f32[2,3] = rev[dimensions=(0, 1)] a
        in (b,) }
    ] a
  in (b,) })");
}

TEST_CASE("shape golden: flip_axes") {
  auto f = [](Tracer x) { return fj::flip(x, {1, 0}); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s23)).str() == R"({ lambda ; a:f32[2,3]. let
    b:f32[2,3] = jit[
      name=_flip
      jaxpr={ lambda ; a:f32[2,3]. let
          b:f32[2,3] = rev[dimensions=(1, 0)] a
        in (b,) }
    ] a
  in (b,) })");
}

TEST_CASE("shape golden: flip_negative_axis") {
  auto f = [](Tracer x) { return fj::flip(x, {-1}); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3)).str() == R"({ lambda ; a:i32[3]. let
    b:i32[3] = jit[
      name=_flip
      jaxpr={ lambda ; a:i32[3]. let b:i32[3] = rev[dimensions=(0,)] a in (b,) }
    ] a
  in (b,) })");
}

TEST_CASE("shape golden: flip_twice_shared") {
  auto f = [](Tracer x) { return fj::flip(x) + fj::flip(x * 2); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s23)).str() == R"(let _flip = { lambda ; a:f32[2,3]. let
    b:f32[2,3] = rev[dimensions=(0, 1)] a
  in (b,) } in
{ lambda ; c:f32[2,3]. let
    d:f32[2,3] = jit[name=_flip jaxpr=_flip] c
    e:f32[2,3] = mul c 2.0:f32[]
    f:f32[2,3] = jit[name=_flip jaxpr=_flip] e
    g:f32[2,3] = add d f
  in (g,) })");
}

TEST_CASE("shape golden: squeeze_all") {
  auto f = [](Tracer x) { return fj::squeeze(x); };
  CHECK(fj::make_jaxpr(f)(fj::ones({1, 3, 1})).str() ==
        R"({ lambda ; a:f32[1,3,1]. let b:f32[3] = squeeze[dimensions=(0, 2)] a in (b,) })");
}

TEST_CASE("shape golden: squeeze_axes") {
  auto f = [](Tracer x) { return fj::squeeze(x, {-1, 0}); };
  CHECK(fj::make_jaxpr(f)(fj::ones({1, 3, 1})).str() ==
        R"({ lambda ; a:f32[1,3,1]. let b:f32[3] = squeeze[dimensions=(0, 2)] a in (b,) })");
}

TEST_CASE("shape golden: squeeze_nothing") {
  auto f = [](Tracer x) { return fj::squeeze(x); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s23)).str() == R"({ lambda ; a:f32[2,3]. let  in (a,) })");
}

TEST_CASE("shape golden: expand_dims") {
  auto f = [](Tracer x) { return fj::expand_dims(x, {0, 3}); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s23)).str() == R"({ lambda ; a:f32[2,3]. let
    b:f32[1,2,3,1] = broadcast_in_dim[broadcast_dimensions=(1, 2)] a
  in (b,) })");
}

TEST_CASE("shape golden: expand_dims_negative") {
  auto f = [](Tracer x) { return fj::expand_dims(x, {-1}); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s23)).str() == R"({ lambda ; a:f32[2,3]. let
    b:f32[2,3,1] = broadcast_in_dim[broadcast_dimensions=(0, 1)] a
  in (b,) })");
}

TEST_CASE("shape golden: broadcast_to") {
  auto f = [](Tracer x) { return fj::broadcast_to(x, {5, 2, 3}); };
  CHECK(fj::make_jaxpr(f)(fj::ones({1, 3})).str() == R"({ lambda ; a:f32[1,3]. let
    b:f32[5,2,3] = broadcast_in_dim[broadcast_dimensions=(1, 2)] a
  in (b,) })");
}

TEST_CASE("shape golden: broadcast_to_scalar") {
  auto f = [](Tracer x) { return fj::broadcast_to(x, {3}); };
  CHECK(fj::make_jaxpr(f)(fj::array(2.0f)).str() ==
        R"({ lambda ; a:f32[]. let b:f32[3] = broadcast_in_dim a in (b,) })");
}

TEST_CASE("shape golden: transpose_3d") {
  auto f = [](Tracer x) { return x.T(); };
  CHECK(fj::make_jaxpr(f)(fj::ones({2, 3, 4})).str() == R"({ lambda ; a:f32[2,3,4]. let
    b:f32[4,3,2] = transpose[permutation=(2, 1, 0)] a
  in (b,) })");
}

TEST_CASE("shape golden: transpose_1d") {
  auto f = [](Tracer x) { return x.T(); };
  CHECK(fj::make_jaxpr(f)(fj::ones({4})).str() == R"({ lambda ; a:f32[4]. let  in (a,) })");
}

TEST_CASE("shape golden: index_range_int") {
  auto f = [](Tracer x) { return x(fj::range(1, 4), 2); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s56)).str() == R"({ lambda ; a:f32[5,6]. let
    b:f32[3,1] = slice[limit_indices=(4, 3) start_indices=(1, 2) strides=None] a
    c:f32[3] = squeeze[dimensions=(1,)] b
  in (c,) })");
}

TEST_CASE("shape golden: index_negative_int") {
  auto f = [](Tracer x) { return x(-1); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s56)).str() == R"({ lambda ; a:f32[5,6]. let
    b:f32[1,6] = slice[limit_indices=(5, 6) start_indices=(4, 0) strides=None] a
    c:f32[6] = squeeze[dimensions=(0,)] b
  in (c,) })");
}

TEST_CASE("shape golden: index_two_ints") {
  auto f = [](Tracer x) { return x(0, 1); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s56)).str() == R"({ lambda ; a:f32[5,6]. let
    b:f32[1,1] = slice[limit_indices=(1, 2) start_indices=(0, 1) strides=None] a
    c:f32[] = squeeze[dimensions=(0, 1)] b
  in (c,) })");
}

TEST_CASE("shape golden: index_negative_step") {
  auto f = [](Tracer x) { return x(fj::range(4, 0, -2)); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s56)).str() == R"({ lambda ; a:f32[5,6]. let
    b:f32[2,6] = slice[limit_indices=(5, 6) start_indices=(2, 0) strides=(2, 1)] a
    c:f32[2,6] = rev[dimensions=(0,)] b
  in (c,) })");
}

TEST_CASE("shape golden: index_reverse") {
  auto f = [](Tracer x) { return x(fj::range(fj::none, fj::none, -1)); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s56)).str() ==
        R"({ lambda ; a:f32[5,6]. let b:f32[5,6] = rev[dimensions=(0,)] a in (b,) })");
}

TEST_CASE("shape golden: index_clamped") {
  auto f = [](Tracer x) { return x(fj::range(1, 100), fj::range(fj::none, fj::none, 2)); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s56)).str() == R"({ lambda ; a:f32[5,6]. let
    b:f32[4,3] = slice[limit_indices=(5, 6) start_indices=(1, 0) strides=(1, 2)] a
  in (b,) })");
}

TEST_CASE("shape golden: index_whole") {
  auto f = [](Tracer x) { return x(fj::range(), fj::range()); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s56)).str() == R"({ lambda ; a:f32[5,6]. let  in (a,) })");
}

TEST_CASE("shape golden: index_empty") {
  auto f = [](Tracer x) { return x(fj::range(3, 1)); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s56)).str() == R"({ lambda ; a:f32[5,6]. let
    b:f32[0,6] = slice[limit_indices=(3, 6) start_indices=(3, 0) strides=None] a
  in (b,) })");
}

TEST_CASE("shape golden: index_reverse_stride") {
  auto f = [](Tracer x) { return x(fj::range(), fj::range(fj::none, fj::none, -4)); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s56)).str() == R"({ lambda ; a:f32[5,6]. let
    b:f32[5,2] = slice[limit_indices=(5, 6) start_indices=(0, 1) strides=(1, 4)] a
    c:f32[5,2] = rev[dimensions=(1,)] b
  in (c,) })");
}

TEST_CASE("shape golden: iota") {
  auto f = [] { return fj::iota(fj::i32, 5); };
  CHECK(fj::make_jaxpr(f)().str() == R"({ lambda ; . let
    a:i32[5] = iota[dimension=0 dtype=int32 shape=(5,) sharding=None] 
  in (a,) })");
}

TEST_CASE("shape golden: iota_where") {
  auto f = [](Tracer x) { return fj::where(fj::iota(fj::i32, {2, 3}, 1) > 0, x, 0.0); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s23)).str() == R"({ lambda ; a:f32[2,3]. let
    b:i32[2,3] = iota[dimension=1 dtype=int32 shape=(2, 3) sharding=None] 
    c:bool[2,3] = gt b 0:i32[]
    d:f32[2,3] = jit[
      name=_where
      jaxpr={ lambda ; c:bool[2,3] a:f32[2,3] e:f32[]. let
          f:f32[] = convert_element_type[new_dtype=float32 weak_type=False] e
          g:f32[2,3] = broadcast_in_dim f
          d:f32[2,3] = select_n c g a
        in (d,) }
    ] c a 0.0:f32[]
  in (d,) })");
}

TEST_CASE("shape golden: sum_flip_iota") {
  auto f = [](Tracer x) { return fj::sum(fj::flip(x) * fj::iota(fj::f32, 6)); };
  CHECK(fj::make_jaxpr(f)(fj::ones({6})).str() == R"({ lambda ; a:f32[6]. let
    b:f32[6] = jit[
      name=_flip
      jaxpr={ lambda ; a:f32[6]. let b:f32[6] = rev[dimensions=(0,)] a in (b,) }
    ] a
    c:f32[6] = iota[dimension=0 dtype=float32 shape=(6,) sharding=None] 
    d:f32[6] = mul b c
    e:f32[] = reduce_sum[axes=(0,) out_sharding=None] d
  in (e,) })");
}

TEST_CASE("shape golden: eye") {
  auto f = [] { return fj::eye(3); };
  CHECK(fj::make_jaxpr(f)().str() == R"({ lambda ; . let
    a:i32[3,3] = iota[dimension=0 dtype=int32 shape=(3, 3) sharding=None] 
    b:i32[3,3] = iota[dimension=1 dtype=int32 shape=(3, 3) sharding=None] 
    c:i32[3,3] = add a 0:i32[]
    d:bool[3,3] = eq c b
    e:f32[3,3] = convert_element_type[new_dtype=float32 weak_type=False] d
  in (e,) })");
}

TEST_CASE("shape golden: eye_rect_k") {
  auto f = [] { return fj::eye(3, 4, 1); };
  CHECK(fj::make_jaxpr(f)().str() == R"({ lambda ; . let
    a:i32[3,4] = iota[dimension=0 dtype=int32 shape=(3, 4) sharding=None] 
    b:i32[3,4] = iota[dimension=1 dtype=int32 shape=(3, 4) sharding=None] 
    c:i32[3,4] = add a 1:i32[]
    d:bool[3,4] = eq c b
    e:f32[3,4] = convert_element_type[new_dtype=float32 weak_type=False] d
  in (e,) })");
}

TEST_CASE("shape golden: eye_bool") {
  auto f = [] { return fj::eye(2, -1, 0, fj::bool_); };
  CHECK(fj::make_jaxpr(f)().str() == R"({ lambda ; . let
    a:i32[2,2] = iota[dimension=0 dtype=int32 shape=(2, 2) sharding=None] 
    b:i32[2,2] = iota[dimension=1 dtype=int32 shape=(2, 2) sharding=None] 
    c:i32[2,2] = add a 0:i32[]
    d:bool[2,2] = eq c b
  in (d,) })");
}

TEST_CASE("shape golden: zeros_like") {
  auto f = [](Tracer x) { return fj::zeros_like(x); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s23)).str() ==
        R"({ lambda ; a:f32[2,3]. let b:f32[2,3] = broadcast_in_dim 0.0:f32[] in (b,) })");
}

TEST_CASE("shape golden: ones_like_bool") {
  auto f = [](Tracer x) { return fj::ones_like(x); };
  CHECK(fj::make_jaxpr(f)(fj::array({true, true, true})).str() ==
        R"({ lambda ; a:bool[3]. let b:bool[3] = broadcast_in_dim True:bool[] in (b,) })");
}

TEST_CASE("shape golden: full_like_int") {
  auto f = [](Tracer x) { return fj::full_like(x, 3.5); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3)).str() ==
        R"({ lambda ; a:i32[3]. let b:i32[3] = broadcast_in_dim 3:i32[] in (b,) })");
}

TEST_CASE("shape golden: full_like_dtype") {
  auto f = [](Tracer x) { return fj::full_like(x, 2, fj::i32); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s23)).str() ==
        R"({ lambda ; a:f32[2,3]. let b:i32[2,3] = broadcast_in_dim 2:i32[] in (b,) })");
}

TEST_CASE("shape golden: zeros_like_scalar") {
  auto f = [](Tracer x) { return fj::zeros_like(x); };
  CHECK(fj::make_jaxpr(f)(fj::array(1.0f)).str() ==
        R"({ lambda ; a:f32[]. let  in (0.0:f32[],) })");
}

TEST_CASE("shape golden: linspace_one") {
  auto f = [] { return fj::linspace(0, 1, 1); };
  CHECK(fj::make_jaxpr(f)().str() == R"({ lambda ; . let
    a:f32[1] = jit[
      name=_linspace
      jaxpr={ lambda ; b:i32[] c:i32[]. let
          d:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b
          e:f32[] = convert_element_type[new_dtype=float32 weak_type=False] c
          a:f32[1] = reshape[dimensions=None new_sizes=(1,) sharding=None] d
        in (a,) }
    ] 0:i32[] 1:i32[]
  in (a,) })");
}

TEST_CASE("shape golden: linspace_zero") {
  auto f = [] { return fj::linspace(0, 1, 0); };
  CHECK(fj::make_jaxpr(f)().str() == R"({ lambda ; . let
    a:f32[0] = jit[
      name=_linspace
      jaxpr={ lambda ; b:i32[] c:i32[]. let
          d:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b
          e:f32[] = convert_element_type[new_dtype=float32 weak_type=False] c
          a:f32[0] = broadcast_in_dim 0.0:f32[]
        in (a,) }
    ] 0:i32[] 1:i32[]
  in (a,) })");
}

TEST_CASE("shape golden: astype") {
  auto f = [](Tracer x) { return x.astype(fj::i32); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s23)).str() == R"({ lambda ; a:f32[2,3]. let
    b:i32[2,3] = convert_element_type[new_dtype=int32 weak_type=False] a
  in (b,) })");
}

TEST_CASE("shape golden: reshape_method") {
  auto f = [](Tracer x) { return x.reshape({-1}); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s23)).str() == R"({ lambda ; a:f32[2,3]. let
    b:f32[6] = reshape[dimensions=None new_sizes=(6,) sharding=None] a
  in (b,) })");
}

// A reduction over no axes (a scalar, or an empty axis list) is still staged, as jnp's are.
TEST_CASE("shape golden: sum_mean_scalar") {
  auto f = [](Tracer x) { return std::tuple{fj::Array(fj::sum(x)), fj::Array(fj::mean(x))}; };
  CHECK(fj::make_jaxpr(f)(fj::ones({})).str() == R"({ lambda ; a:f32[]. let
    b:f32[] = reduce_sum[axes=() out_sharding=None] a
    c:f32[] = reduce_sum[axes=() out_sharding=None] a
    d:f32[] = div c 1.0:f32[]
  in (b, d) })");
}

TEST_CASE("shape golden: max_no_axes") {
  auto f = [](Tracer x) { return fj::Array(fj::max(x, std::initializer_list<int>{})); };
  CHECK(fj::make_jaxpr(f)(fj::ones({3})).str() ==
        R"({ lambda ; a:f32[3]. let b:f32[3] = reduce_max[axes=()] a in (b,) })");
}
