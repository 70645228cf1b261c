// BSON type bytes, their names, and the canonical type order used when values of
// different types are compared (MinKey < null < numbers < string < object < array
// < binData < ObjectId < bool < date < timestamp < regex < ... < MaxKey).
#pragma once

#include <cstdint>
#include <string>

#include "mongo/base/string_data.h"

namespace mongo {

enum class BSONType : std::int8_t {
    kMinKey = -1,
    kEOO = 0,
    kNumberDouble = 1,
    kString = 2,
    kObject = 3,
    kArray = 4,
    kBinData = 5,
    kUndefined = 6,
    kOid = 7,
    kBool = 8,
    kDate = 9,
    kNull = 10,
    kRegEx = 11,
    kDBRef = 12,
    kCode = 13,
    kSymbol = 14,
    kCodeWScope = 15,
    kNumberInt = 16,
    kTimestamp = 17,
    kNumberLong = 18,
    kNumberDecimal = 19,
    kMaxKey = 127,
};

/** BinData subtypes. */
enum BinDataType : std::uint8_t {
    BinDataGeneral = 0,
    Function = 1,
    ByteArrayDeprecated = 2,
    bdtUUIDOld = 3,
    newUUID = 4,
    MD5Type = 5,
    Encrypt = 6,
    Column = 7,
    Sensitive = 8,
    bdtCustom = 128,
};

/** The name used by $type and error messages ("double", "string", "objectId", ...). */
StringData typeName(BSONType t);

/** True for a byte that is a valid BSON element type. */
bool isValidBSONType(int t);

/**
 * Rank of a type in the canonical comparison order. Types of equal rank compare by
 * value (all numbers share one rank; string and symbol share one).
 */
int canonicalizeBSONType(BSONType t);

inline bool isNumericBSONType(BSONType t) {
    return t == BSONType::kNumberDouble || t == BSONType::kNumberInt ||
           t == BSONType::kNumberLong || t == BSONType::kNumberDecimal;
}

}  // namespace mongo
