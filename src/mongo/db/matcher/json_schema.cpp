#include "mongo/db/matcher/json_schema.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "mongo/bson/bson_comparator.h"
#include "mongo/db/matcher/expression_leaf.h"
#include "mongo/db/matcher/expression_parser.h"

namespace mongo {

namespace {

const std::set<std::string>& knownKeywords() {
    static const std::set<std::string> k = {"bsonType",
                                            "type",
                                            "properties",
                                            "required",
                                            "additionalProperties",
                                            "minProperties",
                                            "maxProperties",
                                            "minimum",
                                            "maximum",
                                            "exclusiveMinimum",
                                            "exclusiveMaximum",
                                            "minLength",
                                            "maxLength",
                                            "pattern",
                                            "enum",
                                            "items",
                                            "additionalItems",
                                            "minItems",
                                            "maxItems",
                                            "uniqueItems",
                                            "allOf",
                                            "anyOf",
                                            "oneOf",
                                            "not",
                                            "title",
                                            "description",
                                            "patternProperties",
                                            "dependencies",
                                            "multipleOf",
                                            "encrypt",
                                            "encryptMetadata"};
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
                return Status(ErrorCodes::TypeMismatch,
                              "$jsonSchema keyword '" + name + "' must be an object");
            for (BSONElement p : kw.Obj()) {
                if (p.type() != BSONType::kObject)
                    return Status(ErrorCodes::TypeMismatch,
                                  "Nested schema for $jsonSchema property '" +
                                      std::string(p.fieldNameStringData()) + "' must be an object");
                Status s = validateSchema(p.Obj(), depth + 1);
                if (!s.isOK())
                    return s;
            }
        } else if (name == "items" && kw.type() == BSONType::kArray) {
            for (BSONElement sub : kw.Obj()) {
                if (sub.type() != BSONType::kObject)
                    return Status(ErrorCodes::TypeMismatch,
                                  "$jsonSchema keyword 'items' requires that each element of the "
                                  "array is an object");
                Status s = validateSchema(sub.Obj(), depth + 1);
                if (!s.isOK())
                    return s;
            }
        } else if ((name == "additionalItems" || name == "additionalProperties") &&
                   kw.type() != BSONType::kObject) {
            if (kw.type() != BSONType::kBool)
                return Status(
                    ErrorCodes::TypeMismatch,
                    "$jsonSchema keyword '" + name + "' must be either an object or a boolean");
        } else if (name == "dependencies") {
            if (kw.type() != BSONType::kObject)
                return Status(ErrorCodes::TypeMismatch,
                              "$jsonSchema keyword 'dependencies' must be an object");
            for (BSONElement dep : kw.Obj()) {
                if (dep.type() == BSONType::kObject) {
                    Status s = validateSchema(dep.Obj(), depth + 1);
                    if (!s.isOK())
                        return s;
                    continue;
                }
                if (dep.type() != BSONType::kArray || dep.Obj().isEmpty())
                    return Status(ErrorCodes::TypeMismatch,
                                  "property '" + std::string(dep.fieldNameStringData()) +
                                      "' in $jsonSchema keyword 'dependencies' must be either an "
                                      "object or a nonempty array");
                for (BSONElement n : dep.Obj())
                    if (n.type() != BSONType::kString)
                        return Status(ErrorCodes::TypeMismatch,
                                      "array for property '" +
                                          std::string(dep.fieldNameStringData()) +
                                          "' in $jsonSchema keyword 'dependencies' must contain "
                                          "only strings");
            }
        } else if (name == "items" || name == "not" || name == "additionalItems" ||
                   name == "additionalProperties") {
            if (kw.type() != BSONType::kObject)
                return Status(ErrorCodes::TypeMismatch,
                              "$jsonSchema keyword '" + name + "' must be an object");
            Status s = validateSchema(kw.Obj(), depth + 1);
            if (!s.isOK())
                return s;
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
        } else if (name == "multipleOf") {
            if (!kw.isNumber())
                return Status(ErrorCodes::TypeMismatch,
                              "$jsonSchema keyword 'multipleOf' must be a number");
            if (!(kw.numberDouble() > 0))
                return failed("$jsonSchema keyword 'multipleOf' must have a positive value");
        } else if (name == "minimum" || name == "maximum" || name == "minLength" ||
                   name == "maxLength" || name == "minItems" || name == "maxItems" ||
                   name == "minProperties" || name == "maxProperties") {
            if (!kw.isNumber())
                return Status(ErrorCodes::TypeMismatch,
                              "$jsonSchema keyword '" + name + "' must be a number");
            // The length and count keywords are non-negative integers (upstream's
            // parseIntegerElementToNonNegativeLong): 12.5 and -1 fail to parse.
            if (name != "minimum" && name != "maximum") {
                double d = kw.numberDouble();
                if (kw.type() == BSONType::kNumberDecimal)
                    d = kw.numberDecimal().toDouble();
                if (!(d == std::floor(d)) || d > 9.2e18)
                    return failed("Expected an integer in: " + kw.toString());
                if (d < 0)
                    return failed("Expected a positive number in: " + kw.toString());
            }
        } else if (name == "uniqueItems") {
            if (kw.type() != BSONType::kBool)
                return Status(ErrorCodes::TypeMismatch,
                              "$jsonSchema keyword 'uniqueItems' must be a boolean");
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

/**
 * `e`'s value appended as `name` with every object's fields in name order (stable), at any
 * depth: two values that only differ in the order of fields come out the same, as JSON
 * Schema's equality of objects wants. Arrays keep their order.
 */
void appendFieldOrderFree(const BSONElement& e, StringData name, BSONObjBuilder* out) {
    if (e.type() == BSONType::kObject) {
        std::vector<BSONElement> fields;
        for (BSONElement f : e.Obj())
            fields.push_back(f);
        std::stable_sort(fields.begin(), fields.end(),
                         [](const BSONElement& l, const BSONElement& r) {
                             return l.fieldNameStringData() < r.fieldNameStringData();
                         });
        BSONObjBuilder sub(out->subobjStart(name));
        for (const auto& f : fields)
            appendFieldOrderFree(f, f.fieldNameStringData(), &sub);
    } else if (e.type() == BSONType::kArray) {
        BSONObjBuilder sub(out->subarrayStart(name));
        for (BSONElement f : e.Obj())
            appendFieldOrderFree(f, f.fieldNameStringData(), &sub);
    } else {
        out->appendAs(e, name);
    }
}

/** sameValue() with objects compared without regard to field order (enum, uniqueItems). */
bool sameValueFieldOrderFree(const BSONElement& a, const BSONElement& b) {
    auto nested = [](const BSONElement& e) {
        return e.type() == BSONType::kObject || e.type() == BSONType::kArray;
    };
    if (!nested(a) || !nested(b))
        return sameValue(a, b);
    BSONObjBuilder builder;
    appendFieldOrderFree(a, "a", &builder);
    appendFieldOrderFree(b, "b", &builder);
    BSONObj both = builder.obj();
    return sameValue(both["a"], both["b"]);
}

/**
 * Whether two items of `arr` are equal, objects compared without regard to field order
 * (uniqueItems). O(n log n) comparisons: the items are sorted, then neighbours compared.
 */
bool hasDuplicateItems(const BSONObj& arr) {
    BSONObjBuilder b;
    for (BSONElement e : arr)
        appendFieldOrderFree(e, e.fieldNameStringData(), &b);
    BSONObj items = b.obj();
    std::vector<BSONElement> v;
    for (BSONElement e : items)
        v.push_back(e);
    auto less = [](const BSONElement& l, const BSONElement& r) {
        const int lt = canonicalizeBSONType(l.type()), rt = canonicalizeBSONType(r.type());
        if (lt != rt)
            return lt < rt;
        return compareElementValues(l, r) < 0;
    };
    std::sort(v.begin(), v.end(), less);
    for (size_t i = 1; i < v.size(); ++i)
        if (sameValue(v[i - 1], v[i]))
            return true;
    return false;
}

/**
 * The keywords of one (already validated) schema object, found in one pass over it: the
 * evaluation below then never searches the schema again.
 */
struct Keywords {
    BSONElement bsonType, type, minimum, exclusiveMinimum, maximum, exclusiveMaximum;
    BSONElement minLength, maxLength, pattern, enumValues, allOf, anyOf, oneOf, notSchema;
    BSONElement multipleOf;
    BSONElement properties, patternProperties, additionalProperties, required;
    BSONElement minProperties, maxProperties, minItems, maxItems, items, additionalItems;
    BSONElement uniqueItems, dependencies;

    /** Like schema[name]: the first occurrence of a keyword counts. */
    static void first(BSONElement& slot, const BSONElement& e) {
        if (slot.eoo())
            slot = e;
    }

    explicit Keywords(const BSONObj& schema) {
        for (BSONElement e : schema) {
            StringData n = e.fieldNameStringData();
            switch (n.empty() ? '\0' : n[0]) {
                case 'a':
                    if (n == "allOf")
                        first(allOf, e);
                    else if (n == "anyOf")
                        first(anyOf, e);
                    else if (n == "additionalProperties")
                        first(additionalProperties, e);
                    else if (n == "additionalItems")
                        first(additionalItems, e);
                    break;
                case 'd':
                    if (n == "dependencies")
                        first(dependencies, e);
                    break;
                case 'b':
                    if (n == "bsonType")
                        first(bsonType, e);
                    break;
                case 'e':
                    if (n == "enum")
                        first(enumValues, e);
                    else if (n == "exclusiveMinimum")
                        first(exclusiveMinimum, e);
                    else if (n == "exclusiveMaximum")
                        first(exclusiveMaximum, e);
                    break;
                case 'i':
                    if (n == "items")
                        first(items, e);
                    break;
                case 'm':
                    if (n == "minimum")
                        first(minimum, e);
                    else if (n == "maximum")
                        first(maximum, e);
                    else if (n == "minLength")
                        first(minLength, e);
                    else if (n == "maxLength")
                        first(maxLength, e);
                    else if (n == "minProperties")
                        first(minProperties, e);
                    else if (n == "maxProperties")
                        first(maxProperties, e);
                    else if (n == "minItems")
                        first(minItems, e);
                    else if (n == "maxItems")
                        first(maxItems, e);
                    else if (n == "multipleOf")
                        first(multipleOf, e);
                    break;
                case 'n':
                    if (n == "not")
                        first(notSchema, e);
                    break;
                case 'o':
                    if (n == "oneOf")
                        first(oneOf, e);
                    break;
                case 'p':
                    if (n == "properties")
                        first(properties, e);
                    else if (n == "patternProperties")
                        first(patternProperties, e);
                    else if (n == "pattern")
                        first(pattern, e);
                    break;
                case 'r':
                    if (n == "required")
                        first(required, e);
                    break;
                case 't':
                    if (n == "type")
                        first(type, e);
                    break;
                case 'u':
                    if (n == "uniqueItems")
                        first(uniqueItems, e);
                    break;
                default:
                    break;
            }
        }
    }
};

bool validObjectKeywords(const Keywords& kw, const BSONObj& obj) {
    const BSONElement& props = kw.properties;
    const BSONElement& patterns = kw.patternProperties;
    const BSONElement& additional = kw.additionalProperties;
    if (props.eoo() && patterns.eoo() && additional.eoo() && kw.required.eoo() &&
        kw.minProperties.eoo() && kw.maxProperties.eoo() && kw.dependencies.eoo())
        return true;
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
    if (kw.required.type() == BSONType::kArray)
        for (BSONElement r : kw.required.Obj())
            if (!obj.hasField(r.valueStringData()))
                return false;
    // dependencies: {p: [names...]} - with p, those fields too; {p: schema} - with p, the
    // object matches the schema.
    if (kw.dependencies.type() == BSONType::kObject) {
        for (BSONElement dep : kw.dependencies.Obj()) {
            if (!obj.hasField(dep.fieldNameStringData()))
                continue;
            if (dep.type() == BSONType::kObject) {
                BSONObjBuilder holder;
                holder.append("", obj);
                if (!valid(dep.Obj(), holder.done().firstElement()))
                    return false;
                continue;
            }
            for (BSONElement n : dep.Obj())
                if (!obj.hasField(n.valueStringData()))
                    return false;
        }
    }
    if (kw.minProperties.isNumber() || kw.maxProperties.isNumber()) {
        long long n = obj.nFields();
        if (kw.minProperties.isNumber() && n < kw.minProperties.numberLong())
            return false;
        if (kw.maxProperties.isNumber() && n > kw.maxProperties.numberLong())
            return false;
    }
    return true;
}

bool validArrayKeywords(const Keywords& kw, const BSONObj& arr) {
    if (kw.minItems.isNumber() || kw.maxItems.isNumber()) {
        long long n = arr.nFields();
        if (kw.minItems.isNumber() && n < kw.minItems.numberLong())
            return false;
        if (kw.maxItems.isNumber() && n > kw.maxItems.numberLong())
            return false;
    }
    if (kw.items.type() == BSONType::kObject) {
        for (BSONElement e : arr)
            if (!valid(kw.items.Obj(), e))
                return false;
    } else if (kw.items.type() == BSONType::kArray) {
        // One schema per position; additionalItems decides for the elements past them.
        const BSONObj schemaList = kw.items.Obj();
        auto schemas = schemaList.begin();
        for (BSONElement e : arr) {
            if (schemas.more()) {
                if (!valid(schemas.next().Obj(), e))
                    return false;
            } else if (kw.additionalItems.type() == BSONType::kObject) {
                if (!valid(kw.additionalItems.Obj(), e))
                    return false;
            } else if (kw.additionalItems.type() == BSONType::kBool &&
                       !kw.additionalItems.trueValue()) {
                return false;
            }
        }
    }
    if (kw.uniqueItems.trueValue() && hasDuplicateItems(arr))
        return false;
    return true;
}

/** `type` (JSON names) or `bsonType` (BSON aliases): one name or an array of names. */
bool typeKeywordMatches(const BSONElement& t, const BSONElement& v, bool json) {
    if (t.type() != BSONType::kArray)
        return typeNameMatches(t.valueStringData(), v, json);
    for (BSONElement n : t.Obj())
        if (typeNameMatches(n.valueStringData(), v, json))
            return true;
    return false;
}

bool valid(const BSONObj& schema, const BSONElement& v) {
    const Keywords kw(schema);
    if (!kw.bsonType.eoo() && !typeKeywordMatches(kw.bsonType, v, false))
        return false;
    if (!kw.type.eoo() && !typeKeywordMatches(kw.type, v, true))
        return false;
    if (v.isNumber()) {
        double d = v.numberDouble();
        if (kw.minimum.isNumber()) {
            int c = compareElementValues(v, kw.minimum);
            if (c < 0 || (c == 0 && kw.exclusiveMinimum.trueValue()) || std::isnan(d))
                return false;
        }
        if (kw.maximum.isNumber()) {
            int c = compareElementValues(v, kw.maximum);
            if (c > 0 || (c == 0 && kw.exclusiveMaximum.trueValue()))
                return false;
        }
        if (kw.multipleOf.isNumber() && std::fmod(d, kw.multipleOf.numberDouble()) != 0)
            return false;
    }
    if (v.type() == BSONType::kString) {
        size_t len = utf8Length(v.valueStringData());
        if (kw.minLength.isNumber() && len < static_cast<size_t>(kw.minLength.numberLong()))
            return false;
        if (kw.maxLength.isNumber() && len > static_cast<size_t>(kw.maxLength.numberLong()))
            return false;
        if (kw.pattern.type() == BSONType::kString) {
            auto re = RegexMatcher::compile(kw.pattern.valueStringData(), "");
            if (re.isOK() && !re.getValue()->matchesString(v.valueStringData()))
                return false;
        }
    }
    if (kw.enumValues.type() == BSONType::kArray) {
        bool any = false;
        for (BSONElement c : kw.enumValues.Obj())
            any = any || sameValueFieldOrderFree(c, v);
        if (!any)
            return false;
    }
    if (v.type() == BSONType::kObject && !validObjectKeywords(kw, v.Obj()))
        return false;
    if (v.type() == BSONType::kArray && !validArrayKeywords(kw, v.Obj()))
        return false;
    if (kw.allOf.type() == BSONType::kArray)
        for (BSONElement s : kw.allOf.Obj())
            if (!valid(s.Obj(), v))
                return false;
    if (kw.anyOf.type() == BSONType::kArray) {
        bool ok = false;
        for (BSONElement s : kw.anyOf.Obj())
            ok = ok || valid(s.Obj(), v);
        if (!ok)
            return false;
    }
    if (kw.oneOf.type() == BSONType::kArray) {
        int count = 0;
        for (BSONElement s : kw.oneOf.Obj())
            count += valid(s.Obj(), v) ? 1 : 0;
        if (count != 1)
            return false;
    }
    if (kw.notSchema.type() == BSONType::kObject && valid(kw.notSchema.Obj(), v))
        return false;
    return true;
}

class JsonSchemaMatchExpression : public MatchExpression {
public:
    explicit JsonSchemaMatchExpression(BSONObj schema)
        : MatchExpression(MatchType::kInternalExpr), _schema(schema.getOwned()) {}
    bool matches(const BSONObj& doc, MatchDetails*) const override {
        // The schema evaluates elements: view the document as an object element with an
        // empty name (type byte, NUL, then the document) in a reused buffer.
        thread_local std::string holder;
        holder.assign(1, static_cast<char>(BSONType::kObject));
        holder.push_back('\0');
        holder.append(doc.objdata(), doc.objsize());
        return valid(_schema, BSONElement(holder.data(), 1));
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
