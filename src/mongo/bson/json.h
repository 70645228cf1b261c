// Conversions between BSON and extended JSON, through libbson: fromjson() accepts
// canonical and relaxed extended JSON ({"$oid": ...}, {"$date": ...},
// {"$numberLong": ...}); tojson() writes relaxed extended JSON.
#pragma once

#include <string>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"

namespace mongo {

/** Parses extended JSON; FailedToParse on bad input. */
StatusWith<BSONObj> fromjsonStatus(StringData json);
/** Parses extended JSON; throws on bad input (for tests and constant data). */
BSONObj fromjson(StringData json);
std::string tojson(const BSONObj& obj);
/**
 * Compact relaxed extended JSON as upstream's log lines write it: no spaces,
 * {"$date":"..."} dates, {"$oid":"..."} ids, plain numbers.
 */
std::string tojsonCompact(const BSONObj& obj);

/** Appends `s` as a quoted JSON string (escaping quotes, backslashes, control bytes). */
void appendJsonString(std::string& out, StringData s);

/** The shortest decimal text that reads back as exactly `d` (finite values only). */
std::string shortestDoubleString(double d);

}  // namespace mongo
