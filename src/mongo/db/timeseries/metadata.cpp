#include "mongo/db/timeseries/metadata.h"

#include <algorithm>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace mongo::timeseries::metadata {
namespace {

void normalizeArray(const BSONObj& arr, BSONObjBuilder& builder) {
    // Array element names stay "0", "1", ...: order is significant.
    for (auto&& e : arr)
        normalize(e, builder, e.fieldNameStringData());
}

}  // namespace

void normalize(const BSONObj& obj, BSONObjBuilder& builder) {
    std::vector<BSONElement> fields(obj.begin(), obj.end());
    std::stable_sort(fields.begin(), fields.end(), [](const BSONElement& l, const BSONElement& r) {
        return l.fieldNameStringData() < r.fieldNameStringData();
    });
    for (auto&& e : fields)
        normalize(e, builder, e.fieldNameStringData());
}

void normalize(const BSONElement& elem, BSONObjBuilder& builder, StringData asName) {
    switch (elem.type()) {
        case BSONType::kEOO:
            return;
        case BSONType::kObject: {
            BSONObjBuilder sub(builder.subobjStart(asName));
            normalize(elem.Obj(), sub);
            return;
        }
        case BSONType::kArray: {
            BSONObjBuilder sub(builder.subarrayStart(asName));
            normalizeArray(elem.Obj(), sub);
            return;
        }
        default:
            builder.appendAs(elem, asName);
    }
}

BSONObj normalizeAs(const BSONElement& elem, StringData asName) {
    BSONObjBuilder b;
    normalize(elem, b, asName);
    return b.obj();
}

bool equal(const BSONElement& a, const BSONElement& b) {
    if (a.type() != b.type())
        return false;
    if (a.eoo())
        return true;
    return a.valuesize() == b.valuesize() && std::memcmp(a.value(), b.value(), a.valuesize()) == 0;
}

std::size_t hash(const BSONElement& normalized) {
    const char type = static_cast<char>(normalized.type());
    std::size_t h = std::hash<std::string_view>{}(std::string_view(&type, 1));
    if (normalized.eoo())
        return h;
    std::size_t v =
        std::hash<std::string_view>{}(std::string_view(normalized.value(), normalized.valuesize()));
    return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
}

}  // namespace mongo::timeseries::metadata
