#include "mongo/bson/json.h"

#include <bson/bson.h>

#include <cmath>
#include <cstdio>

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

void appendJsonString(std::string& out, StringData s) {
    out += '"';
    for (char c : s) {
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof(buf), "\\u%04x", c);
                    out += buf;
                } else {
                    out += c;
                }
        }
    }
    out += '"';
}

std::string shortestDoubleString(double d) {
    char buf[32];
    for (int prec = 1; prec <= 17; ++prec) {
        std::snprintf(buf, sizeof(buf), "%.*g", prec, d);
        if (std::strtod(buf, nullptr) == d)
            break;
    }
    return buf;
}

namespace {

std::string base64(const char* data, int len) {
    static const char* kTable = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    int i = 0;
    for (; i + 2 < len; i += 3) {
        unsigned v = (static_cast<unsigned char>(data[i]) << 16) |
                     (static_cast<unsigned char>(data[i + 1]) << 8) |
                     static_cast<unsigned char>(data[i + 2]);
        out += kTable[v >> 18];
        out += kTable[(v >> 12) & 63];
        out += kTable[(v >> 6) & 63];
        out += kTable[v & 63];
    }
    if (i < len) {
        unsigned v = static_cast<unsigned char>(data[i]) << 16;
        if (i + 1 < len)
            v |= static_cast<unsigned char>(data[i + 1]) << 8;
        out += kTable[v >> 18];
        out += kTable[(v >> 12) & 63];
        out += i + 1 < len ? kTable[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

void appendValue(std::string& out, const BSONElement& e);

void appendObject(std::string& out, const BSONObj& o, bool array) {
    out += array ? '[' : '{';
    bool first = true;
    for (auto e : o) {
        if (!first)
            out += ',';
        first = false;
        if (!array) {
            appendJsonString(out, e.fieldNameStringData());
            out += ':';
        }
        appendValue(out, e);
    }
    out += array ? ']' : '}';
}

void appendValue(std::string& out, const BSONElement& e) {
    char buf[64];
    switch (e.type()) {
        case BSONType::kNumberDouble: {
            double d = e._numberDouble();
            if (std::isnan(d) || std::isinf(d)) {
                out += std::isnan(d) ? "{\"$numberDouble\":\"NaN\"}"
                                     : (d > 0 ? "{\"$numberDouble\":\"Infinity\"}"
                                              : "{\"$numberDouble\":\"-Infinity\"}");
            } else {
                out += shortestDoubleString(d);
            }
            break;
        }
        case BSONType::kString:
        case BSONType::kSymbol:
            appendJsonString(out, e.valueStringData());
            break;
        case BSONType::kCode:
            out += "{\"$code\":";
            appendJsonString(out, e.valueStringData());
            out += '}';
            break;
        case BSONType::kObject:
            appendObject(out, e.embeddedObject(), false);
            break;
        case BSONType::kArray:
            appendObject(out, e.embeddedObject(), true);
            break;
        case BSONType::kBinData: {
            int len;
            const char* d = e.binData(len);
            std::snprintf(buf, sizeof(buf), "%02x", static_cast<int>(e.binDataType()));
            out +=
                "{\"$binary\":{\"base64\":\"" + base64(d, len) + "\",\"subType\":\"" + buf + "\"}}";
            break;
        }
        case BSONType::kUndefined:
            out += "{\"$undefined\":true}";
            break;
        case BSONType::kOid:
            out += "{\"$oid\":\"" + e.OID().toString() + "\"}";
            break;
        case BSONType::kBool:
            out += e.boolean() ? "true" : "false";
            break;
        case BSONType::kDate: {
            std::string iso = e.date().toString();
            if (!iso.empty() && iso.back() == 'Z') {
                iso.pop_back();
                iso += "+00:00";
            }
            out += "{\"$date\":\"" + iso + "\"}";
            break;
        }
        case BSONType::kNull:
            out += "null";
            break;
        case BSONType::kRegEx:
            out += "{\"$regularExpression\":{\"pattern\":";
            appendJsonString(out, e.regex());
            out += ",\"options\":";
            appendJsonString(out, e.regexFlags());
            out += "}}";
            break;
        case BSONType::kNumberInt:
            out += std::to_string(e._numberInt());
            break;
        case BSONType::kNumberLong:
            out += std::to_string(e._numberLong());
            break;
        case BSONType::kTimestamp:
            out += "{\"$timestamp\":{\"t\":" + std::to_string(e.timestamp().getSecs()) +
                   ",\"i\":" + std::to_string(e.timestamp().getInc()) + "}}";
            break;
        case BSONType::kNumberDecimal:
            out += "{\"$numberDecimal\":\"" + e._numberDecimal().toString() + "\"}";
            break;
        case BSONType::kMinKey:
            out += "{\"$minKey\":1}";
            break;
        case BSONType::kMaxKey:
            out += "{\"$maxKey\":1}";
            break;
        default:
            appendJsonString(out, e.toString(false));
    }
}

}  // namespace

std::string tojsonCompact(const BSONObj& obj) {
    std::string out;
    appendObject(out, obj, false);
    return out;
}

}  // namespace mongo
