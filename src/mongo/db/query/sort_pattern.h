// SortPattern: a parsed sort specification ({a: 1, "b.c": -1}) and the comparator
// that orders documents by it with MongoDB's array rules: an ascending key uses the
// smallest value the path reaches, a descending key the largest; a missing field
// sorts as null and an empty array as undefined (below null). `$natural` and
// `{$meta: ...}` parts are accepted and ignored by the comparator. With a collator
// (setCollator) strings, also inside objects and arrays, compare by the collation.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/matcher/path.h"

namespace mongo {

class CollatorInterface;

class SortPattern {
public:
    struct Part {
        FieldPath path;
        bool ascending = true;
        /** Set for {$meta: "<name>"} parts; such parts do not affect compare(). */
        std::string metaName;
    };

    /**
     * Parses a sort spec. Errors: 15974 (value neither number nor object), 15975
     * (number other than 1/-1), 17312 (object without $meta), 31138 (unknown $meta),
     * 40352/15998/16410 (empty path, empty component, '$'-prefixed component).
     * An empty spec is valid and orders nothing.
     */
    static StatusWith<SortPattern> parse(const BSONObj& spec);

    /**
     * Strings compare with `collator` from now on (null: binary order). Not owned:
     * it must outlive this pattern and its copies.
     */
    void setCollator(const CollatorInterface* collator) {
        _collator = collator;
    }
    const CollatorInterface* getCollator() const {
        return _collator;
    }

    /** <0, 0, >0 as `a` sorts before, with, or after `b`. Cost: walks each sort path. */
    int compare(const BSONObj& a, const BSONObj& b) const;

    static constexpr StringData kTextScoreMeta = "textScore";

    /**
     * The per-part sort key values, as {"": v1, "": v2, ...} (missing -> null); a
     * {$meta: "textScore"} part is `textScore` when given (highest first), else null.
     */
    BSONObj getSortKey(const BSONObj& doc, std::optional<double> textScore = std::nullopt) const;
    /** Compares two keys made by getSortKey(). */
    int compareSortKeys(const BSONObj& ka, const BSONObj& kb) const;

    const std::vector<Part>& parts() const {
        return _parts;
    }
    bool empty() const {
        return _parts.empty();
    }
    /** 1 or -1 when the spec contains $natural, 0 otherwise. */
    int naturalDirection() const {
        return _natural;
    }
    /** The spec as given. */
    const BSONObj& spec() const {
        return _spec;
    }

private:
    std::vector<Part> _parts;  // $natural excluded
    int _natural = 0;
    BSONObj _spec;
    const CollatorInterface* _collator = nullptr;
};

/** A strict-weak-ordering functor over documents, for std::sort and friends. */
struct SortPatternLess {
    const SortPattern* pattern;
    bool operator()(const BSONObj& a, const BSONObj& b) const {
        return pattern->compare(a, b) < 0;
    }
};

}  // namespace mongo
