// SQL LIKE matching: '%' matches any sequence, '_' one code point, and an optional escape character
// makes the next pattern character literal. Shared by the LIKE function and by SHOW ... LIKE.
#pragma once

#include <string_view>

namespace sluice::fn {

// True when `s` matches `pattern`; `escape` is the escape character, or -1 for none.
bool LikeMatch(std::string_view s, std::string_view pattern, int escape = -1);

}  // namespace sluice::fn
