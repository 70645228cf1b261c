#include "mongo/db/auth/action_type.h"

#include <array>

namespace mongo::auth {
namespace {

constexpr std::array<StringData, static_cast<size_t>(ActionType::kNumActions)> kNames = {
#define MONGO_AUTH_ACTION_NAME(name) StringData(#name),
    MONGO_AUTH_ACTIONS(MONGO_AUTH_ACTION_NAME)
#undef MONGO_AUTH_ACTION_NAME
};

}  // namespace

StringData actionName(ActionType a) {
    return kNames[static_cast<size_t>(a)];
}

std::optional<ActionType> parseActionName(StringData name) {
    for (size_t i = 0; i < kNames.size(); ++i) {
        if (kNames[i] == name)
            return static_cast<ActionType>(i);
    }
    return std::nullopt;
}

std::vector<std::string> ActionSet::names() const {
    std::vector<std::string> out;
    for (size_t i = 0; i < kNames.size(); ++i) {
        if (_bits.test(i))
            out.emplace_back(kNames[i]);
    }
    return out;
}

}  // namespace mongo::auth
