// BucketSpec: what a reader of time-series buckets unpacks (the collection's time and meta
// field names, a top-level field projection, fields computed from meta). Shared by the
// pipeline ($_internalUnpackBucket, the bucket unpacker, the rewrites) and the write path
// (deletes/updates through the view).
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "mongo/base/string_data.h"

namespace mongo {

/** What to unpack: the time/meta names and a top-level field projection. */
struct BucketSpec {
    enum class Behavior { kInclude, kExclude };

    std::string timeField;
    std::optional<std::string> metaField;
    Behavior behavior = Behavior::kExclude;
    std::set<std::string> fieldSet;  // include or exclude list (top-level names)
    /** Fields computed from meta before unpacking, copied from the bucket into each event. */
    std::vector<std::string> computedMetaProjFields;

    bool includes(StringData field) const {
        bool listed = fieldSet.count(std::string(field)) > 0;
        return behavior == Behavior::kInclude ? listed : !listed;
    }
};

}  // namespace mongo
