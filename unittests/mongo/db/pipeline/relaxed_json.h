// Test helpers: JSON as the pipeline tests write it (bare keys, single quotes).
#pragma once

#include <regex>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/json.h"

namespace mongo {
namespace test {

/** fromjson() wants strict JSON: quote bare keys and turn single quotes into double. */
inline BSONObj relaxedJson(StringData s) {
    std::string in(s);
    for (auto& c : in)
        if (c == '\'')
            c = '"';
    static const std::regex kBareKey(R"(([{,]\s*)([A-Za-z_$][A-Za-z0-9_.$]*)\s*:)");
    return fromjson(std::regex_replace(in, kBareKey, "$1\"$2\":"));
}

/** The documents of a relaxed-JSON array of objects. */
inline std::vector<BSONObj> parseArray(StringData json) {
    BSONObj wrapper = relaxedJson(std::string("{a: ") + std::string(json) + "}");
    std::vector<BSONObj> out;
    for (auto e : wrapper["a"].Obj())
        out.push_back(e.Obj().getOwned());
    return out;
}

}  // namespace test
}  // namespace mongo
