// StringData: the project's one non-owning string type. It is std::string_view
// (Debian's Abseil is built without std::string_view interop, so absl::string_view
// is never used in our interfaces; toAbsl() converts at the boundary).
#pragma once

#include <string>
#include <string_view>

#include <absl/strings/string_view.h>

namespace mongo {

using StringData = std::string_view;

inline absl::string_view toAbsl(std::string_view s) {
    return absl::string_view(s.data(), s.size());
}

inline std::string_view fromAbsl(absl::string_view s) {
    return std::string_view(s.data(), s.size());
}

}  // namespace mongo
