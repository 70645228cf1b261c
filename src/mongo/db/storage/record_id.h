// RecordId: the int64 key of a document in a collection's record store. Ids are
// assigned by the record store, start at 1 and only grow (they continue after a
// restart). A default-constructed RecordId is "null" (0) and names no record.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

namespace mongo {

class RecordId {
public:
    /** The null id. */
    constexpr RecordId() = default;
    constexpr explicit RecordId(std::int64_t v) : _v(v) {}

    constexpr std::int64_t getLong() const {
        return _v;
    }
    constexpr bool isNull() const {
        return _v == 0;
    }
    constexpr bool isValid() const {
        return _v > 0;
    }
    std::string toString() const {
        return "RecordId(" + std::to_string(_v) + ")";
    }

    friend constexpr auto operator<=>(const RecordId&, const RecordId&) = default;

private:
    std::int64_t _v = 0;
};

inline std::ostream& operator<<(std::ostream& os, const RecordId& id) {
    return os << id.toString();
}

}  // namespace mongo

template <>
struct std::hash<mongo::RecordId> {
    std::size_t operator()(const mongo::RecordId& id) const noexcept {
        return std::hash<std::int64_t>()(id.getLong());
    }
};
