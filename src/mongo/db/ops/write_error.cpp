#include "mongo/db/ops/write_error.h"

namespace mongo {

void appendWriteErrors(const std::vector<WriteError>& errors, BSONObjBuilder& result) {
    if (errors.empty())
        return;
    BSONArrayBuilder arr(result.subarrayStart("writeErrors"));
    for (const auto& e : errors) {
        BSONObjBuilder we(arr.subobjStart());
        we.append("index", e.index);
        we.append("code", static_cast<int>(e.status.code()));
        if (e.extra)
            e.extra->serialize(&we);
        we.append("errmsg", e.status.reason());
    }
}

}  // namespace mongo
