// OpTime: the position of an oplog entry: its timestamp and the term in which
// it was written. Ordered by (ts, term) as upstream; serialised as {ts, t}.
#pragma once

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/timestamp.h"

namespace mongo {
namespace repl {

struct OpTime {
    static constexpr long long kUninitializedTerm = -1;

    Timestamp ts;
    long long term = kUninitializedTerm;

    bool isNull() const {
        return ts.isNull();
    }
    /** {ts: Timestamp, t: long}. */
    BSONObj toBSON() const {
        BSONObjBuilder b;
        b.append("ts", ts);
        b.append("t", term);
        return b.obj();
    }
    auto operator<=>(const OpTime& o) const = default;
};

}  // namespace repl
}  // namespace mongo
