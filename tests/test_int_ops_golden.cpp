// Golden jaxprs of the bitwise operators, shifts and integer powers: fusejit's text
// must equal what JAX 0.10.2 prints for tests/golden/jaxpr_goldens.py (the same case names).
#include <doctest/doctest.h>

#include <fusejit/fusejit.hpp>

using fj::Tracer;

TEST_CASE("int ops golden: bitwise_and_scalar") {
  auto f = [](Tracer x) { return x & 3; };
  CHECK(fj::make_jaxpr(f)(fj::arange(3)).str() ==
        R"({ lambda ; a:i32[3]. let b:i32[3] = and a 3:i32[] in (b,) })");
}

TEST_CASE("int ops golden: bitwise_xor_bool") {
  auto f = [](Tracer x, Tracer y) { return x ^ y; };
  CHECK(fj::make_jaxpr(f)(fj::array({true, false, true}), fj::array({true, false, true})).str() ==
        R"({ lambda ; a:bool[3] b:bool[3]. let c:bool[3] = xor a b in (c,) })");
}

TEST_CASE("int ops golden: bitwise_not_int") {
  auto f = [](Tracer x) { return ~x; };
  CHECK(fj::make_jaxpr(f)(fj::arange(3)).str() ==
        R"({ lambda ; a:i32[3]. let b:i32[3] = not a in (b,) })");
}

TEST_CASE("int ops golden: bitwise_not_bool") {
  auto f = [](Tracer x) { return ~x; };
  CHECK(fj::make_jaxpr(f)(fj::array({true, false, true})).str() ==
        R"({ lambda ; a:bool[3]. let b:bool[3] = not a in (b,) })");
}

TEST_CASE("int ops golden: bitwise_rank_promotion") {
  auto f = [](Tracer x, Tracer y) { return (x & y) | (x ^ ~y); };
  CHECK(fj::make_jaxpr(f)(fj::ones({2, 3}, fj::i32), fj::arange(3)).str() ==
        R"({ lambda ; a:i32[2,3] b:i32[3]. let
    c:i32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] b
    d:i32[2,3] = and a c
    e:i32[3] = not b
    f:i32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] e
    g:i32[2,3] = xor a f
    h:i32[2,3] = or d g
  in (h,) })");
}

TEST_CASE("int ops golden: bool_and_int_scalar") {
  auto f = [](Tracer x) { return x & 1; };
  CHECK(fj::make_jaxpr(f)(fj::array({true, false, true})).str() == R"({ lambda ; a:bool[3]. let
    b:i32[3] = convert_element_type[new_dtype=int32 weak_type=True] a
    c:i32[3] = and b 1:i32[]
  in (c,) })");
}

TEST_CASE("int ops golden: shift_left") {
  auto f = [](Tracer x) { return x << 2; };
  CHECK(fj::make_jaxpr(f)(fj::arange(3)).str() ==
        R"({ lambda ; a:i32[3]. let b:i32[3] = shift_left a 2:i32[] in (b,) })");
}

TEST_CASE("int ops golden: right_shift_signed") {
  auto f = [](Tracer x) { return x >> 2; };
  CHECK(fj::make_jaxpr(f)(fj::arange(3)).str() ==
        R"({ lambda ; a:i32[3]. let b:i32[3] = shift_right_arithmetic a 2:i32[] in (b,) })");
}

TEST_CASE("int ops golden: right_shift_unsigned") {
  auto f = [](Tracer x) { return x >> 2; };
  CHECK(fj::make_jaxpr(f)(fj::array({0u, 1u, 2u})).str() ==
        R"({ lambda ; a:u32[3]. let b:u32[3] = shift_right_logical a 2:u32[] in (b,) })");
}

TEST_CASE("int ops golden: shifts_unsigned") {
  auto f = [](Tracer x) { return (x << 3) >> 1; };
  CHECK(fj::make_jaxpr(f)(fj::array({0u, 1u, 2u})).str() == R"({ lambda ; a:u32[3]. let
    b:u32[3] = shift_left a 3:u32[]
    c:u32[3] = shift_right_logical b 1:u32[]
  in (c,) })");
}

TEST_CASE("int ops golden: shift_bool") {
  auto f = [](Tracer x) { return x << 1; };
  CHECK(fj::make_jaxpr(f)(fj::array({true, false, true})).str() == R"({ lambda ; a:bool[3]. let
    b:i32[3] = convert_element_type[new_dtype=int32 weak_type=True] a
    c:i32[3] = shift_left b 1:i32[]
  in (c,) })");
}

TEST_CASE("int ops golden: left_shift_arrays") {
  auto f = [](Tracer x, Tracer y) { return fj::left_shift(x, y); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3), fj::arange(3)).str() ==
        R"({ lambda ; a:i32[3] b:i32[3]. let c:i32[3] = shift_left a b in (c,) })");
}

TEST_CASE("int ops golden: integer_pow_2") {
  auto f = [](Tracer x) { return fj::pow(x, 2); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3.0f)).str() ==
        R"({ lambda ; a:f32[3]. let b:f32[3] = integer_pow[y=2] a in (b,) })");
}

TEST_CASE("int ops golden: integer_pow_neg") {
  auto f = [](Tracer x) { return fj::pow(x, -2); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3.0f)).str() ==
        R"({ lambda ; a:f32[3]. let b:f32[3] = integer_pow[y=-2] a in (b,) })");
}

TEST_CASE("int ops golden: power_int") {
  auto f = [](Tracer x) { return fj::pow(x, 3); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3)).str() ==
        R"({ lambda ; a:i32[3]. let b:i32[3] = integer_pow[y=3] a in (b,) })");
}

TEST_CASE("int ops golden: integer_pow_bool") {
  auto f = [](Tracer x) { return fj::pow(x, 2); };
  CHECK(fj::make_jaxpr(f)(fj::array({true, false, true})).str() == R"({ lambda ; a:bool[3]. let
    b:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    c:i32[3] = integer_pow[y=2] b
  in (c,) })");
}

TEST_CASE("int ops golden: lax_integer_pow") {
  auto f = [](Tracer x) { return fj::integer_pow(x, 5) + 1.0; };
  CHECK(fj::make_jaxpr(f)(fj::arange(3.0f)).str() == R"({ lambda ; a:f32[3]. let
    b:f32[3] = integer_pow[y=5] a
    c:f32[3] = add b 1.0:f32[]
  in (c,) })");
}

TEST_CASE("int ops golden: power_int_arrays") {
  auto f = [](Tracer x, Tracer y) { return fj::pow(x, y); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3), fj::arange(3)).str() ==
        R"(let _where = { lambda ; a:i32[3] b:i32[3] c:i32[3]. let
    d:bool[3] = ne a 0:i32[]
    e:i32[3] = select_n d c b
  in (e,) } in
{ lambda ; f:i32[3] g:i32[3]. let
    h:bool[3] = eq f 0:i32[]
    i:bool[3] = ne g 0:i32[]
    j:bool[3] = and h i
    k:i32[3] = jit[
      name=_where
      jaxpr={ lambda ; j:bool[3] l:i32[] m:i32[]. let
          n:i32[3] = broadcast_in_dim l
          o:i32[3] = broadcast_in_dim m
          k:i32[3] = select_n j o n
        in (k,) }
    ] j 0:i32[] 1:i32[]
    p:i32[3] = and g 1:i32[]
    q:i32[3] = mul k f
    r:i32[3] = jit[name=_where jaxpr=_where] p q k
    s:i32[3] = mul f f
    t:i32[3] = shift_right_logical g 1:i32[]
    u:i32[3] = and t 1:i32[]
    v:i32[3] = mul r s
    w:i32[3] = jit[name=_where jaxpr=_where] u v r
    x:i32[3] = mul s s
    y:i32[3] = shift_right_logical t 1:i32[]
    z:i32[3] = and y 1:i32[]
    ba:i32[3] = mul w x
    bb:i32[3] = jit[name=_where jaxpr=_where] z ba w
    bc:i32[3] = mul x x
    bd:i32[3] = shift_right_logical y 1:i32[]
    be:i32[3] = and bd 1:i32[]
    bf:i32[3] = mul bb bc
    bg:i32[3] = jit[name=_where jaxpr=_where] be bf bb
    bh:i32[3] = mul bc bc
    bi:i32[3] = shift_right_logical bd 1:i32[]
    bj:i32[3] = and bi 1:i32[]
    bk:i32[3] = mul bg bh
    bl:i32[3] = jit[name=_where jaxpr=_where] bj bk bg
    bm:i32[3] = mul bh bh
    bn:i32[3] = shift_right_logical bi 1:i32[]
    bo:i32[3] = and bn 1:i32[]
    bp:i32[3] = mul bl bm
    bq:i32[3] = jit[name=_where jaxpr=_where] bo bp bl
    _:i32[3] = mul bm bm
    _:i32[3] = shift_right_logical bn 1:i32[]
  in (bq,) })");
}

TEST_CASE("int ops golden: power_int_rank") {
  auto f = [](Tracer x, Tracer y) { return fj::pow(x, y); };
  CHECK(fj::make_jaxpr(f)(fj::ones({2, 3}, fj::i32), fj::arange(3)).str() ==
        R"(let _where = { lambda ; a:i32[1,3] b:i32[2,3] c:i32[2,3]. let
    d:bool[1,3] = ne a 0:i32[]
    e:bool[2,3] = broadcast_in_dim[broadcast_dimensions=(0, 1)] d
    f:i32[2,3] = select_n e c b
  in (f,) } in
{ lambda ; g:i32[2,3] h:i32[3]. let
    i:i32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] h
    j:bool[2,3] = eq g 0:i32[]
    k:bool[1,3] = ne i 0:i32[]
    l:bool[2,3] = and j k
    m:i32[2,3] = jit[
      name=_where
      jaxpr={ lambda ; l:bool[2,3] n:i32[] o:i32[]. let
          p:i32[2,3] = broadcast_in_dim n
          q:i32[2,3] = broadcast_in_dim o
          m:i32[2,3] = select_n l q p
        in (m,) }
    ] l 0:i32[] 1:i32[]
    r:i32[1,3] = and i 1:i32[]
    s:i32[2,3] = mul m g
    t:i32[2,3] = jit[name=_where jaxpr=_where] r s m
    u:i32[2,3] = mul g g
    v:i32[1,3] = shift_right_logical i 1:i32[]
    w:i32[1,3] = and v 1:i32[]
    x:i32[2,3] = mul t u
    y:i32[2,3] = jit[name=_where jaxpr=_where] w x t
    z:i32[2,3] = mul u u
    ba:i32[1,3] = shift_right_logical v 1:i32[]
    bb:i32[1,3] = and ba 1:i32[]
    bc:i32[2,3] = mul y z
    bd:i32[2,3] = jit[name=_where jaxpr=_where] bb bc y
    be:i32[2,3] = mul z z
    bf:i32[1,3] = shift_right_logical ba 1:i32[]
    bg:i32[1,3] = and bf 1:i32[]
    bh:i32[2,3] = mul bd be
    bi:i32[2,3] = jit[name=_where jaxpr=_where] bg bh bd
    bj:i32[2,3] = mul be be
    bk:i32[1,3] = shift_right_logical bf 1:i32[]
    bl:i32[1,3] = and bk 1:i32[]
    bm:i32[2,3] = mul bi bj
    bn:i32[2,3] = jit[name=_where jaxpr=_where] bl bm bi
    bo:i32[2,3] = mul bj bj
    bp:i32[1,3] = shift_right_logical bk 1:i32[]
    bq:i32[1,3] = and bp 1:i32[]
    br:i32[2,3] = mul bn bo
    bs:i32[2,3] = jit[name=_where jaxpr=_where] bq br bn
    _:i32[2,3] = mul bo bo
    _:i32[1,3] = shift_right_logical bp 1:i32[]
  in (bs,) })");
}

TEST_CASE("int ops golden: power_scalar_base") {
  auto f = [](Tracer x) { return fj::pow(2, x); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3)).str() ==
        R"(let _where = { lambda ; a:i32[3] b:i32[3] c:i32[3]. let
    d:bool[3] = ne a 0:i32[]
    e:i32[3] = select_n d c b
  in (e,) } in
{ lambda ; f:i32[3]. let
    g:bool[] = eq 2:i32[] 0:i32[]
    h:bool[3] = ne f 0:i32[]
    i:bool[3] = and g h
    j:i32[3] = jit[
      name=_where
      jaxpr={ lambda ; i:bool[3] k:i32[] l:i32[]. let
          m:i32[3] = broadcast_in_dim k
          n:i32[3] = broadcast_in_dim l
          j:i32[3] = select_n i n m
        in (j,) }
    ] i 0:i32[] 1:i32[]
    o:i32[3] = and f 1:i32[]
    p:i32[3] = mul j 2:i32[]
    q:i32[3] = jit[name=_where jaxpr=_where] o p j
    r:i32[] = mul 2:i32[] 2:i32[]
    s:i32[3] = shift_right_logical f 1:i32[]
    t:i32[3] = and s 1:i32[]
    u:i32[3] = mul q r
    v:i32[3] = jit[name=_where jaxpr=_where] t u q
    w:i32[] = mul r r
    x:i32[3] = shift_right_logical s 1:i32[]
    y:i32[3] = and x 1:i32[]
    z:i32[3] = mul v w
    ba:i32[3] = jit[name=_where jaxpr=_where] y z v
    bb:i32[] = mul w w
    bc:i32[3] = shift_right_logical x 1:i32[]
    bd:i32[3] = and bc 1:i32[]
    be:i32[3] = mul ba bb
    bf:i32[3] = jit[name=_where jaxpr=_where] bd be ba
    bg:i32[] = mul bb bb
    bh:i32[3] = shift_right_logical bc 1:i32[]
    bi:i32[3] = and bh 1:i32[]
    bj:i32[3] = mul bf bg
    bk:i32[3] = jit[name=_where jaxpr=_where] bi bj bf
    bl:i32[] = mul bg bg
    bm:i32[3] = shift_right_logical bh 1:i32[]
    bn:i32[3] = and bm 1:i32[]
    bo:i32[3] = mul bk bl
    bp:i32[3] = jit[name=_where jaxpr=_where] bn bo bk
    _:i32[] = mul bl bl
    _:i32[3] = shift_right_logical bm 1:i32[]
  in (bp,) })");
}
