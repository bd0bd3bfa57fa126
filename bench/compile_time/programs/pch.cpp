// The translation unit that owns the precompiled <fusejit/fusejit.hpp> (FUSEJIT_CT_PCH=ON).
#include <fusejit/fusejit.hpp>
