#include "mongo/db/matcher/json_schema.h"

#include <cmath>
#include <set>

#include "mongo/bson/bson_comparator.h"
#include "mongo/db/matcher/expression_leaf.h"
#include "mongo/db/matcher/expression_parser.h"

namespace mongo {

namespace {

const std::set<std::string>& knownKeywords() {
    static const std::set<std::string> k = {
        "bsonType", "type", "properties", "required", "additionalProperties", "minProperties",
        "maxProperties", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
        "minLength", "maxLength", "pattern", "enum", "items", "minItems", "maxItems",
        "uniqueItems", "allOf", "anyOf", "oneOf", "not", "title", "description",
        "patternProperties", "dependencies", "encrypt"};
    return k;
}

Status failed(std::string msg) {
    return Status(ErrorCodes::FailedToParse, std::move(msg));
}

bool typeNameMatches(StringData alias, const BSONElement& e, bool jsonType) {
    if (jsonType) {
        if (alias == "object")
            return e.type() == BSONType::kObject;
        if (alias == "array")
            return e.type() == BSONType::kArray;
        if (alias == "number")
            return e.isNumber();
        if (alias == "boolean")
            return e.type() == BSONType::kBool;
        if (alias == "string")
            return e.type() == BSONType::kString;
        if (alias == "null")
            return e.type() == BSONType::kNull;
        return false;
    }
    if (alias == "number")
        return e.isNumber();
    BSONType t;
    return typeFromAlias(alias, &t) && e.type() == t;
}

Status validateSchema(const BSONObj& schema, int depth) {
    if (depth > 100)
        return failed("$jsonSchema is nested too deeply");
    for (BSONElement kw : schema) {
        std::string name(kw.fieldNameStringData());
        if (!knownKeywords().count(name)) {
            if (name == "$ref" || name == "$schema" || name == "default" || name == "definitions" ||
                name == "format" || name == "id")
                return failed("$jsonSchema keyword '" + name + "' is not currently supported");
            return failed("Unknown $jsonSchema keyword: " + name);
        }
        if (name == "type" || name == "bsonType") {
            std::vector<BSONElement> names =
                kw.type() == BSONType::kArray ? kw.Array() : std::vector<BSONElement>{kw};
            for (const auto& n : names) {
                if (n.type() != BSONType::kString)
                    return Status(ErrorCodes::TypeMismatch,
                                  "$jsonSchema keyword '" + name +
                                      "' must be either a string or an array of strings");
                BSONType t;
                StringData s = n.valueStringData();
                if (name == "type" && s == "integer")
                    return failed("$jsonSchema type 'integer' is not currently supported.");
                if (name == "bsonType" && s != "number" && !typeFromAlias(s, &t))
                    return Status(ErrorCodes::BadValue, "Unknown type name alias: " + n.str());
            }
        } else if (name == "properties" || name == "patternProperties") {
            if (kw.type() != BSONType::kObject)
                return Status(ErrorCodes::TypeMismatch, "$jsonSchema keyword '" + name +
                                                            "' must be an object");
            for (BSONElement p : kw.Obj()) {
                if (p.type() != BSONType::kObject)
                    return Status(ErrorCodes::TypeMismatch,
                                  "Nested schema for $jsonSchema property '" +
                                      std::string(p.fieldNameStringData()) + "' must be an object");
                Status s = validateSchema(p.Obj(), depth + 1);
                if (!s.isOK())
                    return s;
            }
        } else if (name == "items" || name == "not" ||
                   (name == "additionalProperties" && kw.type() == BSONType::kObject)) {
            if (kw.type() == BSONType::kObject) {
                Status s = validateSchema(kw.Obj(), depth + 1);
                if (!s.isOK())
                    return s;
            } else if (name != "items" || kw.type() != BSONType::kArray) {
                if (name != "additionalProperties")
                    return Status(ErrorCodes::TypeMismatch,
                                  "$jsonSchema keyword '" + name + "' must be an object");
            }
        } else if (name == "allOf" || name == "anyOf" || name == "oneOf") {
            if (kw.type() != BSONType::kArray || kw.Obj().isEmpty())
                return Status(ErrorCodes::TypeMismatch,
                              "$jsonSchema keyword '" + name + "' must be a nonempty array");
            for (BSONElement sub : kw.Obj()) {
                if (sub.type() != BSONType::kObject)
                    return Status(ErrorCodes::TypeMismatch,
                                  "$jsonSchema keyword '" + name + "' must be an array of objects");
                Status s = validateSchema(sub.Obj(), depth + 1);
                if (!s.isOK())
                    return s;
            }
        } else if (name == "required" || name == "enum") {
            if (kw.type() != BSONType::kArray)
                return Status(ErrorCodes::TypeMismatch,
                              "$jsonSchema keyword '" + name + "' must be an array");
        } else if (name == "pattern") {
            if (kw.type() != BSONType::kString)
                return Status(ErrorCodes::TypeMismatch,
                              "$jsonSchema keyword 'pattern' must be a string");
            auto re = RegexMatcher::compile(kw.valueStringData(), "");
            if (!re.isOK())
                return re.getStatus();
        } else if (name == "minimum" || name == "maximum" || name == "minLength" ||
                   name == "maxLength" || name == "minItems" || name == "maxItems" ||
                   name == "minProperties" || name == "maxProperties") {
            if (!kw.isNumber())
                return Status(ErrorCodes::TypeMismatch,
                              "$jsonSchema keyword '" + name + "' must be a number");
        }
    }
    return Status::OK();
}

bool valid(const BSONObj& schema, const BSONElement& v);

size_t utf8Length(StringData s) {
    size_t n = 0;
    for (unsigned char c : s)
        if ((c & 0xC0) != 0x80)
            ++n;
    return n;
}

bool sameValue(const BSONElement& a, const BSONElement& b) {
    return canonicalizeBSONType(a.type()) == canonicalizeBSONType(b.type()) &&
        compareElementValues(a, b) == 0;
}

bool validObjectKeywords(const BSONObj& schema, const BSONObj& obj) {
    BSONElement props = schema["properties"];
    BSONElement patterns = schema["patternProperties"];
    BSONElement additional = schema["additionalProperties"];
    for (BSONElement f : obj) {
        StringData name = f.fieldNameStringData();
        bool covered = false;
        if (props.type() == BSONType::kObject) {
            BSONElement sub = props.Obj()[name];
            if (!sub.eoo()) {
                covered = true;
                if (!valid(sub.Obj(), f))
                    return false;
            }
        }
        if (patterns.type() == BSONType::kObject) {
            for (BSONElement p : patterns.Obj()) {
                auto re = RegexMatcher::compile(p.fieldNameStringData(), "");
                if (re.isOK() && re.getValue()->matchesString(name)) {
                    covered = true;
                    if (!valid(p.Obj(), f))
                        return false;
                }
            }
        }
        if (!covered && !additional.eoo()) {
            if (additional.type() == BSONType::kObject) {
                if (!valid(additional.Obj(), f))
                    return false;
            } else if (!additional.trueValue()) {
                return false;
            }
        }
    }
    if (BSONElement req = schema["required"]; req.type() == BSONType::kArray)
        for (BSONElement r : req.Obj())
            if (!obj.hasField(r.valueStringData()))
                return false;
    long long n = obj.nFields();
    if (BSONElement m = schema["minProperties"]; m.isNumber() && n < m.numberLong())
        return false;
    if (BSONElement m = schema["maxProperties"]; m.isNumber() && n > m.numberLong())
        return false;
    return true;
}

bool validArrayKeywords(const BSONObj& schema, const BSONObj& arr) {
    long long n = arr.nFields();
    if (BSONElement m = schema["minItems"]; m.isNumber() && n < m.numberLong())
        return false;
    if (BSONElement m = schema["maxItems"]; m.isNumber() && n > m.numberLong())
        return false;
    if (BSONElement items = schema["items"]; items.type() == BSONType::kObject) {
        for (BSONElement e : arr)
            if (!valid(items.Obj(), e))
                return false;
    }
    if (schema["uniqueItems"].trueValue()) {
        std::vector<BSONElement> v;
        for (BSONElement e : arr)
            v.push_back(e);
        for (size_t i = 0; i < v.size(); ++i)
            for (size_t j = 0; j < i; ++j)
                if (sameValue(v[i], v[j]))
                    return false;
    }
    return true;
}

bool valid(const BSONObj& schema, const BSONElement& v) {
    for (const char* kw : {"bsonType", "type"}) {
        BSONElement t = schema[kw];
        if (t.eoo())
            continue;
        bool json = std::string(kw) == "type";
        bool any = false;
        std::vector<BSONElement> names =
            t.type() == BSONType::kArray ? t.Array() : std::vector<BSONElement>{t};
        for (const auto& n : names)
            any = any || typeNameMatches(n.valueStringData(), v, json);
        if (!any)
            return false;
    }
    if (v.isNumber()) {
        double d = v.numberDouble();
        if (BSONElement m = schema["minimum"]; m.isNumber()) {
            int c = compareElementValues(v, m);
            if (c < 0 || (c == 0 && schema["exclusiveMinimum"].trueValue()) || std::isnan(d))
                return false;
        }
        if (BSONElement m = schema["maximum"]; m.isNumber()) {
            int c = compareElementValues(v, m);
            if (c > 0 || (c == 0 && schema["exclusiveMaximum"].trueValue()))
                return false;
        }
    }
    if (v.type() == BSONType::kString) {
        size_t len = utf8Length(v.valueStringData());
        if (BSONElement m = schema["minLength"]; m.isNumber() && len < static_cast<size_t>(m.numberLong()))
            return false;
        if (BSONElement m = schema["maxLength"]; m.isNumber() && len > static_cast<size_t>(m.numberLong()))
            return false;
        if (BSONElement p = schema["pattern"]; p.type() == BSONType::kString) {
            auto re = RegexMatcher::compile(p.valueStringData(), "");
            if (re.isOK() && !re.getValue()->matchesString(v.valueStringData()))
                return false;
        }
    }
    if (BSONElement en = schema["enum"]; en.type() == BSONType::kArray) {
        bool any = false;
        for (BSONElement c : en.Obj())
            any = any || sameValue(c, v);
        if (!any)
            return false;
    }
    if (v.type() == BSONType::kObject && !validObjectKeywords(schema, v.Obj()))
        return false;
    if (v.type() == BSONType::kArray && !validArrayKeywords(schema, v.Obj()))
        return false;
    if (BSONElement all = schema["allOf"]; all.type() == BSONType::kArray)
        for (BSONElement s : all.Obj())
            if (!valid(s.Obj(), v))
                return false;
    if (BSONElement any = schema["anyOf"]; any.type() == BSONType::kArray) {
        bool ok = false;
        for (BSONElement s : any.Obj())
            ok = ok || valid(s.Obj(), v);
        if (!ok)
            return false;
    }
    if (BSONElement one = schema["oneOf"]; one.type() == BSONType::kArray) {
        int count = 0;
        for (BSONElement s : one.Obj())
            count += valid(s.Obj(), v) ? 1 : 0;
        if (count != 1)
            return false;
    }
    if (BSONElement n = schema["not"]; n.type() == BSONType::kObject && valid(n.Obj(), v))
        return false;
    return true;
}

class JsonSchemaMatchExpression : public MatchExpression {
public:
    explicit JsonSchemaMatchExpression(BSONObj schema)
        : MatchExpression(MatchType::kInternalExpr), _schema(schema.getOwned()) {}
    bool matches(const BSONObj& doc, MatchDetails*) const override {
        BSONObjBuilder b;
        b.append("", doc);
        BSONObj holder = b.obj();
        return valid(_schema, holder.firstElement());
    }
    void serialize(BSONObjBuilder* out) const override {
        out->append("$jsonSchema", _schema);
    }

private:
    BSONObj _schema;
};

}  // namespace

StatusWith<std::unique_ptr<MatchExpression>> parseJsonSchema(const BSONElement& schema) {
    if (schema.type() != BSONType::kObject)
        return Status(ErrorCodes::TypeMismatch, "$jsonSchema must be an object");
    Status s = validateSchema(schema.Obj(), 0);
    if (!s.isOK())
        return s;
    return std::unique_ptr<MatchExpression>(
        std::make_unique<JsonSchemaMatchExpression>(schema.Obj()));
}

}  // namespace mongo
