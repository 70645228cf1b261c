// Dotted-path traversal with MongoDB's array semantics, shared by match
// expressions, sort keys and projection. A path such as "a.b.0.c" is split into
// components; walking it through a document yields every value the path can
// reach: arrays met in the middle of the path are entered (each object element
// continues the path, and a numeric component may also index the array), and an
// array at the end is yielded element by element and then as a whole.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "mongo/base/string_data.h"
#include "mongo/bson/bsonobj.h"

namespace mongo {

/** A dotted path split into components ("a.b" -> {"a", "b"}). */
class FieldPath {
public:
    FieldPath() = default;
    explicit FieldPath(StringData dotted);

    const std::string& dotted() const {
        return _dotted;
    }
    size_t numParts() const {
        return _parts.size();
    }
    StringData part(size_t i) const {
        return _parts[i];
    }
    const std::vector<std::string>& parts() const {
        return _parts;
    }
    /** True when some component is empty ("a..b", ".a", "a."), or the path is empty. */
    bool hasEmptyComponent() const;

private:
    std::string _dotted;
    std::vector<std::string> _parts;
};

/**
 * True for the field names of a DBRef ($ref, $id, $db): the only '$'-prefixed names a field path
 * may hold (as upstream's FieldPath).
 */
inline bool isDBRefFieldName(StringData s) {
    return s == "$ref" || s == "$id" || s == "$db";
}

/** True when `s` is a non-empty run of decimal digits (an array index component). */
bool isArrayIndexComponent(StringData s);

/** How an array found at the end of the path is reported. */
enum class LeafArrayBehavior {
    kTraverse,     // each element, then the array itself
    kNoTraversal,  // only the array itself
};

/** One value reached by a path walk. */
struct PathValue {
    /** The value; EOO when the path is missing along this branch. */
    BSONElement element;
    /** Index within the first array crossed on the way (the positional `$` index), or -1. */
    int outerArrayIndex = -1;
    /** True when `element` is an array yielded whole after its elements (kTraverse). */
    bool isWholeLeafArray = false;
};

/**
 * Calls `fn` for each value `path` reaches in `doc`; stops early when `fn` returns
 * true and then returns true. Missing branches yield an EOO element; elements of
 * an array met before the last component that are neither objects nor addressed by
 * a numeric component yield nothing.
 */
bool walkPath(const BSONObj& doc, const FieldPath& path, LeafArrayBehavior leaf,
              const std::function<bool(const PathValue&)>& fn);

}  // namespace mongo
