// Pytrees (jax.tree_util): nested containers whose leaves every transformation maps over.
#pragma once
#include "fusejit/api/pytree/node.hpp"
#include "fusejit/api/pytree/register.hpp"
#include "fusejit/api/pytree/traced.hpp"
#include "fusejit/api/pytree/tree_util.hpp"
#include "fusejit/api/pytree/treedef.hpp"
