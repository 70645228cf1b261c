// IndexDescriptor: one index of a collection as the catalog knows it (spec,
// name, key pattern, options), plus validation and normalisation of user index
// specifications for createIndexes, with upstream's error codes.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/catalog/index_key_generator.h"

namespace mongo {

class CollatorInterface;
class MatchExpression;
namespace fts {
class FTSSpec;
}  // namespace fts

struct IndexDescriptor {
    static constexpr StringData kIdIndexName = "_id_";

    BSONObj spec;  // {v: 2, key, name, ...options}
    std::string name;
    BSONObj keyPattern;
    bool unique = false;
    bool sparse = false;
    bool hidden = false;
    /** Rejects new duplicate keys (existing ones stay) before a collMod conversion to unique. */
    bool prepareUnique = false;
    BSONObj partialFilterExpression;  // empty if none
    TwoDGrid twoD;                    // the grid of a "2d" key field
    std::optional<long long> expireAfterSeconds;
    bool multikey = false;
    /** Built from spec.collation by fromSpec(); null for the simple collation. */
    std::shared_ptr<const CollatorInterface> collatorOwner;
    /** A text index's spec (weights, languages; fts/fts_spec.h); null for other indexes. */
    std::shared_ptr<const fts::FTSSpec> textSpec;

    /** The index's collation (agreed name); null: simple. Keys hold comparison keys. */
    const CollatorInterface* collator() const {
        return collatorOwner.get();
    }
    bool isIdIndex() const {
        return name == kIdIndexName || spec["clustered"].trueValue();
    }
    /** True when some key field is a geo type ("2dsphere"/"2dsphere_bucket", "2d"): its keys
     * are S2 cell ids or grid cells, so the btree planner must not use it for ordinary
     * predicates or sorts. */
    bool isGeoIndex() const {
        for (auto e : keyPattern)
            if (isGeoKeyType(e))
                return true;
        return false;
    }
    /** True when every key field is ascending or descending (no 2dsphere, hashed...): keys
     * are the values themselves, in order. */
    bool isBtreeOnly() const {
        for (auto e : keyPattern)
            if (!e.isNumber())
                return false;
        return true;
    }
    bool isTextIndex() const {
        return textSpec != nullptr || keyPattern.hasField("_fts");
    }
    /**
     * The keys `doc` contributes to this index: getIndexKeys() with this index's options, or
     * for a text index one key per term ({prefix.., term, score, suffix..}; fts_spec.h).
     * Errors: getIndexKeys()'s, FTSSpec::getKeys()'s (language override 17261/17262, 16675).
     */
    Status getKeys(const BSONObj& doc, IndexKeys* out) const;
    /** Builds from a validated spec. */
    static IndexDescriptor fromSpec(const BSONObj& spec);
};

/** The default name of a key pattern: {a: 1, b: -1} -> "a_1_b_-1". */
std::string defaultIndexName(const BSONObj& keyPattern);

/**
 * Validates a createIndexes spec and returns it normalised ({v: 2, key, name, ...}).
 * Errors: CannotCreateIndex 67 (bad key pattern, unsupported index kind, collation with
 * v: 1), InvalidIndexSpecificationOption 197 (unknown field), TypeMismatch 14 (also a
 * non-object collation), BadValue 2 (also an empty collation), and makeCollator's errors
 * for a bad collation. A collation becomes its full spec, or stays {locale: "simple"}
 * (kSimpleCollationSpec) so that applyCollationDefault() can tell "simple" from "absent".
 */
StatusWith<BSONObj> validateIndexSpec(const BSONObj& spec);

/** `spec` without the fields validateIndexSpec() does not know (ignoreUnknownIndexOptions). */
BSONObj removeUnknownIndexOptions(const BSONObj& spec);

/**
 * The final form of a validated spec on a collection with `collectionDefault` (null:
 * simple): no collation -> the collection's (its full spec, if any); {locale: "simple"}
 * -> no collation field. Upstream: an index inherits the collection default only at
 * creation; a stored spec without collation is simple.
 */
BSONObj applyCollationDefault(const BSONObj& spec, const CollatorInterface* collectionDefault);

/** The spec of the {_id: 1} index (with `collation` when given a non-empty spec). */
BSONObj idIndexSpec(const BSONObj& collation = BSONObj());

/** True when the two specs describe the same index apart from the name. */
bool indexSpecsEquivalent(const BSONObj& a, const BSONObj& b);

}  // namespace mongo
