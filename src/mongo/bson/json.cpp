#include "mongo/bson/json.h"

#include <bson/bson.h>

#include "mongo/util/assert_util.h"

namespace mongo {

StatusWith<BSONObj> fromjsonStatus(StringData json) {
    bson_error_t err;
    bson_t* b = bson_new_from_json(reinterpret_cast<const uint8_t*>(json.data()),
                                   static_cast<ssize_t>(json.size()), &err);
    if (!b)
        return Status(ErrorCodes::FailedToParse, std::string("invalid JSON: ") + err.message);
    BSONObj out = BSONObj::copyFrom(reinterpret_cast<const char*>(bson_get_data(b)),
                                    static_cast<int>(b->len));
    bson_destroy(b);
    return out;
}

BSONObj fromjson(StringData json) {
    return uassertStatusOK(fromjsonStatus(json));
}

std::string tojson(const BSONObj& obj) {
    return obj.jsonString();
}

}  // namespace mongo
