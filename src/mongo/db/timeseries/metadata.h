// Normalisation of time-series meta values (spec timeseries-semantics.md §3.3): object
// fields are sorted by binary comparison of their names, recursively (also inside
// arrays); array order and scalars are kept. Two measurements belong to the same series
// exactly when their normalised meta values are byte-identical (types included).
//
// Called by the write path before hashing into a stripe and before storing `meta`.
// Thread safety: stateless.
#pragma once

#include <cstddef>

#include "mongo/base/string_data.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/bson/bsonobjbuilder.h"

namespace mongo::timeseries::metadata {

/** Appends `elem`'s value, normalised, to `builder` under `asName`. */
void normalize(const BSONElement& elem, BSONObjBuilder& builder, StringData asName);

/** Appends the fields of `obj`, normalised and sorted, to `builder`. */
void normalize(const BSONObj& obj, BSONObjBuilder& builder);

/**
 * {<asName>: <normalised value>} (owned); the empty object when `elem` is EOO (a
 * measurement without the metaField is its own series with no `meta`).
 */
BSONObj normalizeAs(const BSONElement& elem, StringData asName);

/** True when the two (normalised) meta elements are the same series. Names ignored. */
bool equal(const BSONElement& a, const BSONElement& b);

/** A hash of a normalised meta element (type and value bytes, name ignored); EOO hashes too. */
std::size_t hash(const BSONElement& normalized);

}  // namespace mongo::timeseries::metadata
