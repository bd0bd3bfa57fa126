// Golden jaxprs of floor_divide, remainder and where (the composites JAX stages as jit calls):
// fusejit's text must equal what JAX 0.10.2 prints for tests/golden/jaxpr_goldens.py.
#include <doctest/doctest.h>

#include <fusejit/fusejit.hpp>

using fj::Tracer;

TEST_CASE("int ops golden: floor_divide_int") {
  auto f = [](Tracer x, Tracer y) { return fj::floor_divide(x, y); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3), fj::arange(3)).str() ==
        R"({ lambda ; a:i32[3] b:i32[3]. let
    c:i32[3] = jit[
      name=floor_divide
      jaxpr={ lambda ; a:i32[3] b:i32[3]. let
          d:i32[3] = div a b
          e:i32[3] = sign a
          f:i32[3] = sign b
          g:bool[3] = ne e f
          h:i32[3] = rem a b
          i:bool[3] = ne h 0:i32[]
          j:bool[3] = and g i
          k:i32[3] = sub d 1:i32[]
          c:i32[3] = jit[
            name=_where
            jaxpr={ lambda ; j:bool[3] k:i32[3] d:i32[3]. let
                c:i32[3] = select_n j d k
              in (c,) }
          ] j k d
        in (c,) }
    ] a b
  in (c,) })");
}

TEST_CASE("int ops golden: floor_divide_int_scalar") {
  auto f = [](Tracer x) { return fj::floor_divide(x, 2); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3)).str() == R"({ lambda ; a:i32[3]. let
    b:i32[3] = jit[
      name=floor_divide
      jaxpr={ lambda ; a:i32[3] c:i32[]. let
          d:i32[] = convert_element_type[new_dtype=int32 weak_type=False] c
          e:i32[3] = div a d
          f:i32[3] = sign a
          g:i32[] = sign d
          h:bool[3] = ne f g
          i:i32[3] = rem a d
          j:bool[3] = ne i 0:i32[]
          k:bool[3] = and h j
          l:i32[3] = sub e 1:i32[]
          b:i32[3] = jit[
            name=_where
            jaxpr={ lambda ; k:bool[3] l:i32[3] e:i32[3]. let
                b:i32[3] = select_n k e l
              in (b,) }
          ] k l e
        in (b,) }
    ] a 2:i32[]
  in (b,) })");
}

TEST_CASE("int ops golden: floor_divide_float_scalar") {
  auto f = [](Tracer x) { return fj::floor_divide(x, 2.0); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3.0f)).str() ==
        R"(let floor_divide = { lambda ; a:f32[3] b:f32[]. let
    c:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b
    d:f32[3] = rem a c
    e:bool[] = eq c 0.0:f32[]
    f:f32[3] = sub a d
    g:f32[3] = jit[
      name=_where
      jaxpr={ lambda ; e:bool[] a:f32[3] f:f32[3]. let
          g:f32[3] = select_n e f a
        in (g,) }
    ] e a f
    h:f32[3] = div g c
    i:bool[3] = ne d 0.0:f32[]
    j:f32[] = sign c
    k:f32[3] = sign d
    l:bool[3] = ne j k
    m:bool[3] = and i l
    n:f32[3] = add d c
    o:f32[3] = select_n m d n
    p:f32[3] = sub h 1.0:f32[]
    q:f32[3] = select_n m h p
    r:f32[3] = round[rounding_method=0] q
  in (r,) } in
{ lambda ; s:f32[3]. let
    t:f32[3] = jit[name=floor_divide jaxpr=floor_divide] s 2.0:f32[]
  in (t,) })");
}

TEST_CASE("int ops golden: floor_divide_unsigned") {
  auto f = [](Tracer x, Tracer y) { return fj::floor_divide(x, y); };
  CHECK(fj::make_jaxpr(f)(fj::array({0u, 1u, 2u}), fj::array({0u, 1u, 2u})).str() ==
        R"({ lambda ; a:u32[3] b:u32[3]. let
    c:u32[3] = jit[
      name=floor_divide
      jaxpr={ lambda ; a:u32[3] b:u32[3]. let c:u32[3] = div a b in (c,) }
    ] a b
  in (c,) })");
}

TEST_CASE("int ops golden: floor_divide_float") {
  auto f = [](Tracer x, Tracer y) { return fj::floor_divide(x, y); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3.0f), fj::arange(3.0f)).str() ==
        R"(let floor_divide = { lambda ; a:f32[3] b:f32[3]. let
    c:f32[3] = rem a b
    d:bool[3] = eq b 0.0:f32[]
    e:f32[3] = sub a c
    f:f32[3] = jit[
      name=_where
      jaxpr={ lambda ; d:bool[3] a:f32[3] e:f32[3]. let
          f:f32[3] = select_n d e a
        in (f,) }
    ] d a e
    g:f32[3] = div f b
    h:bool[3] = ne c 0.0:f32[]
    i:f32[3] = sign b
    j:f32[3] = sign c
    k:bool[3] = ne i j
    l:bool[3] = and h k
    m:f32[3] = add c b
    n:f32[3] = select_n l c m
    o:f32[3] = sub g 1.0:f32[]
    p:f32[3] = select_n l g o
    q:f32[3] = round[rounding_method=0] p
  in (q,) } in
{ lambda ; r:f32[3] s:f32[3]. let
    t:f32[3] = jit[name=floor_divide jaxpr=floor_divide] r s
  in (t,) })");
}

TEST_CASE("int ops golden: floor_divide_rank") {
  auto f = [](Tracer x, Tracer y) { return fj::floor_divide(x, y); };
  CHECK(fj::make_jaxpr(f)(fj::ones({2, 3}, fj::i32), fj::arange(3)).str() ==
        R"({ lambda ; a:i32[2,3] b:i32[3]. let
    c:i32[2,3] = jit[
      name=floor_divide
      jaxpr={ lambda ; a:i32[2,3] b:i32[3]. let
          d:i32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] b
          e:i32[2,3] = div a d
          f:i32[2,3] = sign a
          g:i32[1,3] = sign d
          h:bool[2,3] = ne f g
          i:i32[2,3] = rem a d
          j:bool[2,3] = ne i 0:i32[]
          k:bool[2,3] = and h j
          l:i32[2,3] = sub e 1:i32[]
          c:i32[2,3] = jit[
            name=_where
            jaxpr={ lambda ; k:bool[2,3] l:i32[2,3] e:i32[2,3]. let
                c:i32[2,3] = select_n k e l
              in (c,) }
          ] k l e
        in (c,) }
    ] a b
  in (c,) })");
}

TEST_CASE("int ops golden: floor_divide_rank_float") {
  auto f = [](Tracer x, Tracer y) { return fj::floor_divide(x, y); };
  CHECK(fj::make_jaxpr(f)(fj::ones({2, 3}), fj::ones({1, 3})).str() ==
        R"(let floor_divide = { lambda ; a:f32[2,3] b:f32[1,3]. let
    c:f32[2,3] = rem a b
    d:bool[1,3] = eq b 0.0:f32[]
    e:f32[2,3] = sub a c
    f:f32[2,3] = jit[
      name=_where
      jaxpr={ lambda ; d:bool[1,3] a:f32[2,3] e:f32[2,3]. let
          g:bool[2,3] = broadcast_in_dim[broadcast_dimensions=(0, 1)] d
          f:f32[2,3] = select_n g e a
        in (f,) }
    ] d a e
    h:f32[2,3] = div f b
    i:bool[2,3] = ne c 0.0:f32[]
    j:f32[1,3] = sign b
    k:f32[2,3] = sign c
    l:bool[2,3] = ne j k
    m:bool[2,3] = and i l
    n:f32[2,3] = add c b
    o:f32[2,3] = select_n m c n
    p:f32[2,3] = sub h 1.0:f32[]
    q:f32[2,3] = select_n m h p
    r:f32[2,3] = round[rounding_method=0] q
  in (r,) } in
{ lambda ; s:f32[2,3] t:f32[1,3]. let
    u:f32[2,3] = jit[name=floor_divide jaxpr=floor_divide] s t
  in (u,) })");
}

TEST_CASE("int ops golden: floor_divide_scalar_left") {
  auto f = [](Tracer x) { return fj::floor_divide(7, x); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3)).str() == R"({ lambda ; a:i32[3]. let
    b:i32[3] = jit[
      name=floor_divide
      jaxpr={ lambda ; c:i32[] a:i32[3]. let
          d:i32[] = convert_element_type[new_dtype=int32 weak_type=False] c
          e:i32[3] = div d a
          f:i32[] = sign d
          g:i32[3] = sign a
          h:bool[3] = ne f g
          i:i32[3] = rem d a
          j:bool[3] = ne i 0:i32[]
          k:bool[3] = and h j
          l:i32[3] = sub e 1:i32[]
          b:i32[3] = jit[
            name=_where
            jaxpr={ lambda ; k:bool[3] l:i32[3] e:i32[3]. let
                b:i32[3] = select_n k e l
              in (b,) }
          ] k l e
        in (b,) }
    ] 7:i32[] a
  in (b,) })");
}

TEST_CASE("int ops golden: floor_divide_bool") {
  auto f = [](Tracer x, Tracer y) { return fj::floor_divide(x, y); };
  CHECK(fj::make_jaxpr(f)(fj::array({true, false, true}), fj::array({true, false, true})).str() ==
        R"(let floor_divide = { lambda ; a:bool[3] b:bool[3]. let
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] b
    e:i32[3] = div c d
    f:i32[3] = sign c
    g:i32[3] = sign d
    h:bool[3] = ne f g
    i:i32[3] = rem c d
    j:bool[3] = ne i 0:i32[]
    k:bool[3] = and h j
    l:i32[3] = sub e 1:i32[]
    m:i32[3] = jit[
      name=_where
      jaxpr={ lambda ; k:bool[3] l:i32[3] e:i32[3]. let
          m:i32[3] = select_n k e l
        in (m,) }
    ] k l e
  in (m,) } in
{ lambda ; n:bool[3] o:bool[3]. let
    p:i32[3] = jit[name=floor_divide jaxpr=floor_divide] n o
  in (p,) })");
}

TEST_CASE("int ops golden: floor_divide_mixed") {
  auto f = [](Tracer x, Tracer y) { return fj::floor_divide(x, y); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3), fj::arange(3.0f)).str() ==
        R"(let floor_divide = { lambda ; a:i32[3] b:f32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[3] = rem c b
    e:bool[3] = eq b 0.0:f32[]
    f:f32[3] = sub c d
    g:f32[3] = jit[
      name=_where
      jaxpr={ lambda ; e:bool[3] c:f32[3] f:f32[3]. let
          g:f32[3] = select_n e f c
        in (g,) }
    ] e c f
    h:f32[3] = div g b
    i:bool[3] = ne d 0.0:f32[]
    j:f32[3] = sign b
    k:f32[3] = sign d
    l:bool[3] = ne j k
    m:bool[3] = and i l
    n:f32[3] = add d b
    o:f32[3] = select_n m d n
    p:f32[3] = sub h 1.0:f32[]
    q:f32[3] = select_n m h p
    r:f32[3] = round[rounding_method=0] q
  in (r,) } in
{ lambda ; s:i32[3] t:f32[3]. let
    u:f32[3] = jit[name=floor_divide jaxpr=floor_divide] s t
  in (u,) })");
}

TEST_CASE("int ops golden: remainder_arrays") {
  auto f = [](Tracer x, Tracer y) { return x % y; };
  CHECK(fj::make_jaxpr(f)(fj::arange(3), fj::arange(3)).str() ==
        R"(let remainder = { lambda ; a:i32[3] b:i32[3]. let
    c:bool[3] = eq b 0:i32[]
    d:i32[3] = broadcast_in_dim 1:i32[]
    e:i32[3] = jit[
      name=_where
      jaxpr={ lambda ; c:bool[3] d:i32[3] b:i32[3]. let
          e:i32[3] = select_n c b d
        in (e,) }
    ] c d b
    f:i32[3] = rem a e
    g:bool[3] = ne f 0:i32[]
    h:bool[3] = lt f 0:i32[]
    i:bool[3] = lt e 0:i32[]
    j:bool[3] = ne h i
    k:bool[3] = and j g
    l:i32[3] = add f e
    m:i32[3] = select_n k f l
  in (m,) } in
{ lambda ; n:i32[3] o:i32[3]. let
    p:i32[3] = jit[name=remainder jaxpr=remainder] n o
  in (p,) })");
}

TEST_CASE("int ops golden: remainder_rank") {
  auto f = [](Tracer x, Tracer y) { return x % y; };
  CHECK(fj::make_jaxpr(f)(fj::ones({2, 3}, fj::i32), fj::arange(3)).str() ==
        R"(let remainder = { lambda ; a:i32[2,3] b:i32[3]. let
    c:i32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] b
    d:bool[1,3] = eq c 0:i32[]
    e:i32[1,3] = broadcast_in_dim 1:i32[]
    f:i32[1,3] = jit[
      name=_where
      jaxpr={ lambda ; d:bool[1,3] e:i32[1,3] c:i32[1,3]. let
          f:i32[1,3] = select_n d c e
        in (f,) }
    ] d e c
    g:i32[2,3] = rem a f
    h:bool[2,3] = ne g 0:i32[]
    i:bool[2,3] = lt g 0:i32[]
    j:bool[1,3] = lt f 0:i32[]
    k:bool[2,3] = ne i j
    l:bool[2,3] = and k h
    m:i32[2,3] = add g f
    n:i32[2,3] = select_n l g m
  in (n,) } in
{ lambda ; o:i32[2,3] p:i32[3]. let
    q:i32[2,3] = jit[name=remainder jaxpr=remainder] o p
  in (q,) })");
}

TEST_CASE("int ops golden: where_scalar_cond") {
  auto f = [](Tracer c, Tracer x, Tracer y) { return fj::where(c, x, y); };
  CHECK(fj::make_jaxpr(f)(fj::array(true), fj::ones({3}), fj::ones({3})).str() ==
        R"({ lambda ; a:bool[] b:f32[3] c:f32[3]. let
    d:f32[3] = jit[
      name=_where
      jaxpr={ lambda ; a:bool[] b:f32[3] c:f32[3]. let
          d:f32[3] = select_n a c b
        in (d,) }
    ] a b c
  in (d,) })");
}
