// Identity of buckets and series (spec timeseries-semantics.md §3.3, §3.4).
//  * BucketKey: (collection UUID, normalised meta) = one series; its hash picks the stripe.
//  * BucketId: (collection UUID, bucket _id ObjectId).
//  * generateBucketOID(): bytes 0-3 = rounded bucket start in seconds (big-endian,
//    truncated to 32 bits), bytes 4-11 = a process-wide 64-bit counter (big-endian),
//    seeded from a secure random source and incremented per bucket.
#pragma once

#include <cstddef>
#include <string>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/oid.h"
#include "mongo/util/time_support.h"

namespace mongo::timeseries::bucket_catalog {

struct BucketKey {
    /** `metadata` is {meta: <normalised value>} or {} (see metadata::normalizeAs). */
    BucketKey(std::string collectionUUID, BSONObj metadata);

    std::string collectionUUID;
    BSONObj metadata;  // owned
    std::size_t hash = 0;

    /** The meta element (EOO when the measurements had no metaField value). */
    BSONElement metaElement() const {
        return metadata.firstElement();
    }
    bool operator==(const BucketKey& o) const;
};

struct BucketKeyHasher {
    std::size_t operator()(const BucketKey& k) const {
        return k.hash;
    }
};

struct BucketId {
    std::string collectionUUID;
    OID oid;
    bool operator==(const BucketId& o) const {
        return oid == o.oid && collectionUUID == o.collectionUUID;
    }
    bool operator<(const BucketId& o) const {
        return oid == o.oid ? collectionUUID < o.collectionUUID : oid < o.oid;
    }
};

/** A new bucket _id for a bucket starting at `roundedTime`. Thread-safe. */
OID generateBucketOID(Date_t roundedTime);

/** Reseeds the counter from the secure random source (after an _id collision). */
void resetBucketOIDCounter();

}  // namespace mongo::timeseries::bucket_catalog
