// Per-bucket summaries of the measurements seen so far (spec timeseries-semantics.md
// §3.5 schema, §3.6 control.min/max):
//  * MinMax: control.min / control.max, objects and arrays min/max-ed per sub-field,
//    values of different types ordered by canonical type, first-appearance field order.
//  * Schema: the shape of every field path (object, array or canonical scalar class),
//    to detect a measurement whose shape differs (rollover reason kSchemaChange).
// Both skip the metaField. A bucket owns one of each; they are guarded by its stripe lock.
// MinMax compares strings with the collection's default collation (a StringComparator,
// null = simple) but stores the original strings.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/base/string_data.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/string_comparator.h"

namespace mongo::timeseries::bucket_catalog {

class MinMax {
public:
    /**
     * `strings` (null: simple binary order) compares string values; it is not owned and
     * must outlive this object and its copies (a Bucket keeps its collator alive).
     */
    explicit MinMax(const StringComparator* strings = nullptr);
    ~MinMax();
    MinMax(const MinMax&);
    MinMax& operator=(const MinMax&);
    MinMax(MinMax&&) noexcept;
    MinMax& operator=(MinMax&&) noexcept;

    /** Rebuilds the state from stored control.min / control.max (reopening). */
    static MinMax parseFromBSON(const BSONObj& min, const BSONObj& max,
                                const StringComparator* strings = nullptr);

    /** Folds every field of `doc` except `metaField` into the minimum and maximum. */
    void update(const BSONObj& doc, std::optional<StringData> metaField);
    /**
     * Folds one (non-meta) field; `position` is its ordinal among the measurement's non-meta
     * fields (where it usually sits in min/max too). update() is this over all fields.
     */
    void updateField(const BSONElement& e, size_t position);

    /** The current control.min / control.max documents (owned). */
    BSONObj min() const;
    BSONObj max() const;

    struct Node;

private:
    std::unique_ptr<Node> _min;
    std::unique_ptr<Node> _max;
    const StringComparator* _strings = nullptr;
};

class Schema {
public:
    enum class UpdateStatus { kUpdated, kFailed };

    /** Rebuilds the shapes from stored control.min / control.max (reopening). */
    static StatusWith<Schema> parseFromBSON(const BSONObj& min, const BSONObj& max);

    /**
     * kFailed (and no change) when a field of `doc` (metaField excepted) has another
     * shape than before; kUpdated otherwise, recording new paths.
     */
    UpdateStatus update(const BSONObj& doc, std::optional<StringData> metaField);

    /** Same check as update() without recording anything. */
    bool compatible(const BSONObj& doc, std::optional<StringData> metaField) const;

    struct PathHash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const {
            return std::hash<std::string_view>{}(s);
        }
    };
    using ShapeMap = std::unordered_map<std::string, int, PathHash, std::equal_to<>>;

private:
    ShapeMap _shapes;  // field path -> shape class
};

}  // namespace mongo::timeseries::bucket_catalog
