// make_jaxpr of fj::pmap: JAX 0.10.2's text, jit[name=_fun] around a shard_map whose body is
// one device's view (goldens printed by JAX 0.10.2 with jax_num_cpu_devices=4), and the values
// of the staged pmap (its `lowered` graph) against the pmap that runs on the devices.
#include <doctest/doctest.h>
#include <fusejit/fusejit.hpp>

#include <string>
#include <tuple>
#include <vector>

#include "../examples/seed_functions.hpp"

using fj::Array;

namespace {

std::vector<float> values(const Array& a) {
  return Array(a.astype(fj::DType::f32)).to_vector<float>();
}

Array iota(std::int64_t n, std::initializer_list<std::int64_t> shape) {
  return fj::arange(static_cast<float>(n)).reshape(shape);
}

}  // namespace

TEST_CASE("pmap jaxpr: x / psum(x) is a shard_map with the collective in its body") {
  auto f = fj::pmap([](const Array& x) { return x / fj::lax::psum(x, "i"); }, fj::axis_name{"i"});
  CHECK(fj::make_jaxpr(f)(fj::arange(4.0f)).str() == R"({ lambda ; a:f32[4]. let
    b:f32[4] = jit[
      name=_fun
      jaxpr={ lambda ; a:f32[4]. let
          b:f32[4] = shard_map[
            check_vma=False
            in_specs=(P('i',),)
            jaxpr={ lambda ; c:f32[1]. let
                d:f32[] = squeeze[dimensions=(0,)] c
                e:f32[] = psum[axes=('i',) axis_index_groups=None] d
                f:f32[] = div d e
                g:f32[1] = broadcast_in_dim f
              in (g,) }
            mesh=Mesh('i': 4, axis_types=(Auto,))
            newly_manual_axes=frozenset({'i'})
            out_specs=(P('i',),)
          ] a
        in (b,) }
    ] a
  in (b,) })");
}

TEST_CASE("pmap jaxpr: grad inside pmap differentiates the device body (psum's transpose)") {
  auto g = fj::pmap(fj::grad([](const Array& v) { return fj::lax::psum(v * v, "i"); }),
                    fj::axis_name{"i"});
  CHECK(fj::make_jaxpr(g)(fj::arange(4.0f)).str() == R"({ lambda ; a:f32[4]. let
    b:f32[4] = jit[
      name=_fun
      jaxpr={ lambda ; a:f32[4]. let
          b:f32[4] = shard_map[
            check_vma=False
            in_specs=(P('i',),)
            jaxpr={ lambda ; c:f32[1]. let
                d:f32[] = squeeze[dimensions=(0,)] c
                e:f32[] = mul d d
                f:f32[] = psum[axes=('i',) axis_index_groups=None] e
                g:f32[] = psum[axes=('i',) axis_index_groups=None] 1.0:f32[]
                h:f32[] = mul d g
                i:f32[] = mul g d
                j:f32[] = add_any h i
                k:f32[1] = broadcast_in_dim j
              in (k,) }
            mesh=Mesh('i': 4, axis_types=(Auto,))
            newly_manual_axes=frozenset({'i'})
            out_specs=(P('i',),)
          ] a
        in (b,) }
    ] a
  in (b,) })");
}

TEST_CASE("pmap jaxpr: in_axes and out_axes 1, and the unnamed axis's internal name") {
  auto f = fj::pmap([](const Array& a) { return a * 2.f; }, fj::in_axes{1}, fj::out_axes{1});
  CHECK(fj::make_jaxpr(f)(iota(12, {3, 4})).str() == R"({ lambda ; a:f32[3,4]. let
    b:f32[3,4] = jit[
      name=_fun
      jaxpr={ lambda ; a:f32[3,4]. let
          b:f32[3,4] = shard_map[
            check_vma=False
            in_specs=(P(None, '_internal_pmap_axis_name'),)
            jaxpr={ lambda ; c:f32[3,1]. let
                d:f32[3] = squeeze[dimensions=(1,)] c
                e:f32[3] = mul d 2.0:f32[]
                f:f32[3,1] = broadcast_in_dim[broadcast_dimensions=(0,)] e
              in (f,) }
            mesh=Mesh('_internal_pmap_axis_name': 4, axis_types=(Auto,))
            newly_manual_axes=frozenset({'_internal_pmap_axis_name'})
            out_specs=(P(None, '_internal_pmap_axis_name'),)
          ] a
        in (b,) }
    ] a
  in (b,) })");
}

TEST_CASE("pmap jaxpr: out_axes none returns the device value whole, P() in out_specs") {
  auto f = fj::pmap(
      [](const Array& a) {
        const Array doubled = a * 2.f;  // staged first, as in the JAX function
        return std::make_tuple(doubled, fj::lax::psum(a, "i"));
      },
      fj::axis_name{"i"}, fj::out_axes{0, fj::none});
  CHECK(fj::make_jaxpr(f)(iota(12, {4, 3})).str() == R"({ lambda ; a:f32[4,3]. let
    b:f32[4,3] c:f32[3] = jit[
      name=_fun
      jaxpr={ lambda ; a:f32[4,3]. let
          b:f32[4,3] c:f32[3] = shard_map[
            check_vma=False
            in_specs=(P('i',),)
            jaxpr={ lambda ; d:f32[1,3]. let
                e:f32[3] = squeeze[dimensions=(0,)] d
                f:f32[3] = mul e 2.0:f32[]
                g:f32[3] = psum[axes=('i',) axis_index_groups=None] e
                h:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] f
              in (h, g) }
            mesh=Mesh('i': 4, axis_types=(Auto,))
            newly_manual_axes=frozenset({'i'})
            out_specs=(P('i',), P())
          ] a
        in (b, c) }
    ] a
  in (b, c) })");
}

TEST_CASE("pmap jaxpr: a pmap inside a traced function, and axis_index without operands") {
  auto inside = [](const Array& z) {
    return fj::pmap([](const Array& a) { return a + 1.f; })(z) * 2.f;
  };
  CHECK(fj::make_jaxpr(inside)(iota(12, {4, 3})).str() == R"({ lambda ; a:f32[4,3]. let
    b:f32[4,3] = jit[
      name=_fun
      jaxpr={ lambda ; a:f32[4,3]. let
          b:f32[4,3] = shard_map[
            check_vma=False
            in_specs=(P('_internal_pmap_axis_name',),)
            jaxpr={ lambda ; c:f32[1,3]. let
                d:f32[3] = squeeze[dimensions=(0,)] c
                e:f32[3] = add d 1.0:f32[]
                f:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] e
              in (f,) }
            mesh=Mesh('_internal_pmap_axis_name': 4, axis_types=(Auto,))
            newly_manual_axes=frozenset({'_internal_pmap_axis_name'})
            out_specs=(P('_internal_pmap_axis_name',),)
          ] a
        in (b,) }
    ] a
    g:f32[4,3] = mul b 2.0:f32[]
  in (g,) })");
  auto index = fj::pmap([](const Array&) { return fj::lax::axis_index("i"); }, fj::axis_name{"i"});
  CHECK(fj::make_jaxpr(index)(iota(12, {4, 3})).str() == R"({ lambda ; a:f32[4,3]. let
    b:i32[4] = jit[
      name=_fun
      jaxpr={ lambda ; a:f32[4,3]. let
          b:i32[4] = shard_map[
            check_vma=False
            in_specs=(P('i',),)
            jaxpr={ lambda ; c:f32[1,3]. let
                d:f32[3] = squeeze[dimensions=(0,)] c
                e:i32[] = axis_index[axis_name=i] 
                f:i32[1] = broadcast_in_dim e
              in (f,) }
            mesh=Mesh('i': 4, axis_types=(Auto,))
            newly_manual_axes=frozenset({'i'})
            out_specs=(P('i',),)
          ] a
        in (b,) }
    ] a
  in (b,) })");
}

TEST_CASE("pmap jaxpr: a body of more than 10 equations is printed once on top, as JAX does") {
  auto f = fj::pmap(
      [](const Array& a, const Array& b) {
        Array y = a * b;
        for (int k = 1; k <= 10; ++k) y = y + static_cast<float>(k);
        return y;
      },
      fj::in_axes{0, fj::none});
  CHECK(fj::make_jaxpr(f)(iota(12, {4, 3}), fj::array({2.f, 3.f, 4.f})).str() ==
        R"(let jaxpr = { lambda ; a:f32[1,3] b:f32[3]. let
    c:f32[3] = squeeze[dimensions=(0,)] a
    d:f32[3] = mul c b
    e:f32[3] = add d 1.0:f32[]
    f:f32[3] = add e 2.0:f32[]
    g:f32[3] = add f 3.0:f32[]
    h:f32[3] = add g 4.0:f32[]
    i:f32[3] = add h 5.0:f32[]
    j:f32[3] = add i 6.0:f32[]
    k:f32[3] = add j 7.0:f32[]
    l:f32[3] = add k 8.0:f32[]
    m:f32[3] = add l 9.0:f32[]
    n:f32[3] = add m 10.0:f32[]
    o:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] n
  in (o,) } in
{ lambda ; p:f32[4,3] q:f32[3]. let
    r:f32[4,3] = jit[
      name=_fun
      jaxpr={ lambda ; p:f32[4,3] q:f32[3]. let
          r:f32[4,3] = shard_map[
            check_vma=False
            in_specs=(P('_internal_pmap_axis_name',), P())
            jaxpr=jaxpr
            mesh=Mesh('_internal_pmap_axis_name': 4, axis_types=(Auto,))
            newly_manual_axes=frozenset({'_internal_pmap_axis_name'})
            out_specs=(P('_internal_pmap_axis_name',),)
          ] p q
        in (r,) }
    ] p q
  in (r,) })");
}

TEST_CASE("grad jaxpr: x * x sums operand 1's cotangent first, as JAX's transpose does") {
  auto g = fj::grad([](const Array& v) { return fj::sin(v * v); });
  CHECK(fj::make_jaxpr(g)(fj::array(1.f)).str() == R"({ lambda ; a:f32[]. let
    b:f32[] = mul a a
    _:f32[] = sin b
    c:f32[] = cos b
    d:f32[] = mul 1.0:f32[] c
    e:f32[] = mul a d
    f:f32[] = mul d a
    g:f32[] = add_any e f
  in (g,) })");
}

TEST_CASE("pmap jaxpr: the collectives' params in the body") {
  auto f = fj::pmap(
      [](const Array& v) {
        const Array d = fj::lax::all_gather(v, "i", 1, true);
        const Array g = fj::lax::ppermute(v, "i", {{0, 1}, {1, 2}});
        return std::make_tuple(fj::lax::pmax(v, "i"), d, g);
      },
      fj::axis_name{"i"});
  CHECK(fj::make_jaxpr(f)(iota(24, {4, 2, 3})).str() == R"({ lambda ; a:f32[4,2,3]. let
    b:f32[4,2,3] c:f32[4,2,12] d:f32[4,2,3] = jit[
      name=_fun
      jaxpr={ lambda ; a:f32[4,2,3]. let
          b:f32[4,2,3] c:f32[4,2,12] d:f32[4,2,3] = shard_map[
            check_vma=False
            in_specs=(P('i',),)
            jaxpr={ lambda ; e:f32[1,2,3]. let
                f:f32[2,3] = squeeze[dimensions=(0,)] e
                g:f32[2,12] = all_gather[
                  all_gather_dimension=1
                  axis_index_groups=None
                  axis_name=('i',)
                  axis_size=4
                  tiled=True
                ] f
                h:f32[2,3] = ppermute[axis_name=('i',) perm=((0, 1), (1, 2))] f
                i:f32[2,3] = pmax[axes=('i',) axis_index_groups=None] f
                j:f32[1,2,3] = broadcast_in_dim[broadcast_dimensions=(1, 2)] i
                k:f32[1,2,12] = broadcast_in_dim[broadcast_dimensions=(1, 2)] g
                l:f32[1,2,3] = broadcast_in_dim[broadcast_dimensions=(1, 2)] h
              in (j, k, l) }
            mesh=Mesh('i': 4, axis_types=(Auto,))
            newly_manual_axes=frozenset({'i'})
            out_specs=(P('i',), P('i',), P('i',))
          ] a
        in (b, c, d) }
    ] a
  in (b, c, d) })");
}

TEST_CASE("pmap staged under jit runs its lowered graph: the devices' values") {
  const Array x = iota(12, {4, 3}), w = fj::array({2.f, 3.f, 4.f});
  auto conv = fj::pmap(fusejit_seeds::convolve, fj::in_axes{0, fj::none});
  const Array xs = iota(20, {4, 5});
  CHECK(values(fj::jit(conv)(xs, w)) == values(conv(xs, w)));
  auto cols = fj::pmap([](const Array& a) { return a * 2.f + fj::lax::psum(a, "i"); },
                       fj::axis_name{"i"}, fj::in_axes{1}, fj::out_axes{1});
  const Array xt = iota(12, {3, 4});
  CHECK(values(fj::jit(cols)(xt)) == values(cols(xt)));
  auto halves = fj::pmap(
      [](const Array& a) {
        return std::make_tuple(a * 2.f, fj::lax::psum(a, "i"), fj::lax::axis_index("i"));
      },
      fj::axis_name{"i"}, fj::out_axes{0, fj::none, 0});
  const auto [a0, s0, i0] = halves(x);
  const auto [a1, s1, i1] = fj::jit(halves)(x);
  CHECK(values(a1) == values(a0));
  CHECK(s1.shape() == s0.shape());
  CHECK(values(s1) == values(s0));
  CHECK(i1.to_vector<std::int32_t>() == i0.to_vector<std::int32_t>());
  // A captured array is an operand of the shard_map, whole on every device.
  const Array bias = fj::array({1.f, 10.f, 100.f});
  auto shifted = fj::pmap([&bias](const Array& a) { return a + bias; });
  CHECK(values(fj::jit(shifted)(x)) == values(shifted(x)));
  auto g = fj::pmap(fj::grad([](const Array& v) { return fj::lax::psum(v * v, "i"); }),
                    fj::axis_name{"i"});
  CHECK(values(fj::jit(g)(fj::arange(4.0f))) == std::vector<float>{0, 8, 16, 24});
}
