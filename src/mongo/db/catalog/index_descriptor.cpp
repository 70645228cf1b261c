#include "mongo/db/catalog/index_descriptor.h"

#include <set>

#include "mongo/bson/bson_comparator.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/fts/fts_spec.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/matcher/expression_text.h"
#include "mongo/db/query/collation/collator_factory.h"
#include "mongo/db/storage/durable_catalog.h"
#include "mongo/logv2/log.h"

namespace mongo {

namespace {
const std::set<std::string> kAllowedFields = {"v",
                                              "key",
                                              "name",
                                              "unique",
                                              "sparse",
                                              "partialFilterExpression",
                                              "expireAfterSeconds",
                                              "hidden",
                                              "collation",
                                              "background",
                                              "ns",
                                              "storageEngine",
                                              "weights",
                                              "default_language",
                                              "language_override",
                                              "textIndexVersion",
                                              "2dsphereIndexVersion",
                                              "bits",
                                              "min",
                                              "max",
                                              "bucketSize",
                                              "wildcardProjection",
                                              "clustered",
                                              "prepareUnique",
                                              "originalSpec",
                                              "dropDups"};

std::string numberToKeyString(const BSONElement& e) {
    if (e.type() == BSONType::kString)
        return e.str();
    double d = e.numberDouble();
    if (d == static_cast<long long>(d))
        return std::to_string(static_cast<long long>(d));
    std::string s = e.toString(false);
    return s;
}

Status validateKeyPattern(const BSONObj& key) {
    if (key.isEmpty())
        return Status(ErrorCodes::CannotCreateIndex, "Index keys cannot be an empty field.");
    int hashed = 0;
    for (auto e : key)
        hashed += e.type() == BSONType::kString && e.valueStringData() == "hashed";
    // 2d: the index's only geo field, and its first field (upstream 16800, 16801).
    int geo = 0, twoDPosition = -1, position = 0;
    for (auto e : key) {
        geo += isGeoKeyType(e);
        if (isGeoKeyType(e) && e.valueStringData() == "2d")
            twoDPosition = position;
        ++position;
    }
    if (twoDPosition >= 0 && geo > 1)
        return Status(ErrorCodes::Error(16800), "can't have 2 geo fields");
    if (twoDPosition > 0)
        return Status(ErrorCodes::Error(16801), "2d has to be first in index");
    if (hashed > 1)
        return Status(ErrorCodes::Error(31303),
                      "A maximum of one index field is allowed to be hashed but found " +
                          std::to_string(hashed) + " for 'key' " + key.toString());
    for (auto e : key) {
        StringData f = e.fieldNameStringData();
        if (f.empty())
            return Status(ErrorCodes::CannotCreateIndex, "Index keys cannot be an empty field.");
        if (f.find("..") != StringData::npos || f.front() == '.' || f.back() == '.')
            return Status(ErrorCodes::CannotCreateIndex,
                          "Index key contains an illegal field name: " + std::string(f));
        if (f.front() == '$' && f != "$**")
            return Status(ErrorCodes::CannotCreateIndex,
                          "Index key contains an illegal field name: field name starts with '$'.");
        if (e.isNumber()) {
            double d = e.numberDouble();
            if (d == 0 || d != d)
                return Status(
                    ErrorCodes::CannotCreateIndex,
                    "Values in the index key pattern can't be all zero or NaN: " + key.toString());
            continue;
        }
        if (e.type() == BSONType::kString &&
            (e.valueStringData() == "2dsphere" || e.valueStringData() == "2dsphere_bucket" ||
             e.valueStringData() == "2d" || e.valueStringData() == "hashed" ||
             e.valueStringData() == "text"))
            continue;
        if (e.type() == BSONType::kString) {
            return Status(ErrorCodes::CannotCreateIndex,
                          "Index type '" + e.str() + "' is not supported yet by this server");
        }
        return Status(ErrorCodes::CannotCreateIndex,
                      "Values in v:2 index key pattern cannot be of type " +
                          std::string(typeName(e.type())) +
                          ". Only numbers > 0, numbers < 0, and strings are allowed.");
    }
    return Status::OK();
}

/** Checks spec.collation; `*normalised` gets the full spec or {locale: "simple"}. */
Status validateIndexCollation(const BSONObj& spec, BSONObj* normalised) {
    BSONElement c = spec["collation"];
    if (c.type() != BSONType::kObject)
        return Status(
            ErrorCodes::TypeMismatch,
            "The field 'collation' must be an object, but got " + std::string(typeName(c.type())));
    if (c.embeddedObject().isEmpty())
        return Status(ErrorCodes::BadValue, "The field 'collation' cannot be an empty object.");
    BSONElement v = spec["v"];
    if (v.isNumber() && v.numberInt() == 1)
        return Status(ErrorCodes::CannotCreateIndex,
                      "Invalid index specification " + spec.toString() +
                          "; cannot create an index with the \"collation\" option and v=1");
    auto sw = makeCollator(c.embeddedObject());
    if (!sw.isOK())
        return sw.getStatus();
    *normalised = sw.getValue() ? sw.getValue()->getSpec()
                                : BSON("locale"
                                       << "simple");
    return Status::OK();
}
}  // namespace

std::string defaultIndexName(const BSONObj& keyPattern) {
    std::string name;
    for (auto e : keyPattern) {
        if (!name.empty())
            name += "_";
        name += std::string(e.fieldNameStringData()) + "_" + numberToKeyString(e);
    }
    return name;
}

BSONObj removeUnknownIndexOptions(const BSONObj& spec) {
    BSONObjBuilder b;
    for (BSONElement e : spec)
        if (kAllowedFields.count(std::string(e.fieldNameStringData())))
            b.append(e);
    return b.obj();
}

StatusWith<BSONObj> validateIndexSpec(const BSONObj& given) {
    BSONElement key = given["key"];
    if (key.eoo())
        return Status(ErrorCodes::FailedToParse,
                      "The 'key' field is a required property of an index specification");
    if (key.type() != BSONType::kObject)
        return Status(ErrorCodes::TypeMismatch, "The field 'key' must be an object, but got " +
                                                    std::string(typeName(key.type())));
    // A text index is stored in its normal form: key {<prefix>, _fts: "text", _ftsx: 1,
    // <suffix>}, its weights and languages explicit (fts/README.md).
    BSONObj spec = given;
    const bool text = fts::FTSSpec::isTextKeyPattern(key.embeddedObject());
    if (text) {
        auto fixed = fts::FTSSpec::fixSpec(given);
        if (!fixed.isOK())
            return fixed.getStatus();
        spec = fixed.getValue();
        key = spec["key"];
    } else {
        for (StringData option :
             {"weights", "default_language", "language_override", "textIndexVersion"})
            if (given.hasField(option))
                return Status(ErrorCodes::CannotCreateIndex,
                              "Index options '" + std::string(option) +
                                  "' are only valid for text indexes: " + given.toString());
    }
    Status s = validateKeyPattern(key.embeddedObject());
    if (!s.isOK())
        return Status(s.code(), "Error in specification " + spec.toString() +
                                    " :: caused by :: " + s.reason());
    for (auto e : spec) {
        std::string f(e.fieldNameStringData());
        if (!kAllowedFields.count(f))
            return Status(
                ErrorCodes::InvalidIndexSpecificationOption,
                "The field '" + f +
                    "' is not valid for an index specification. Specification: " + spec.toString());
    }
    {
        bool twoD = false;
        for (auto e : key.embeddedObject())
            twoD = twoD || (e.type() == BSONType::kString && e.valueStringData() == "2d");
        if (twoD) {
            auto grid = TwoDGrid::fromSpec(spec);
            if (!grid.isOK())
                return grid.getStatus();
        }
    }
    BSONElement name = spec["name"];
    if (!name.eoo() && name.type() != BSONType::kString)
        return Status(ErrorCodes::TypeMismatch, "The field 'name' must be a string, but got " +
                                                    std::string(typeName(name.type())));
    if (!name.eoo() && name.valueStringData().empty())
        return Status(ErrorCodes::CannotCreateIndex, "index name cannot be empty");
    BSONElement v = spec["v"];
    if (!v.eoo() && (!v.isNumber() || (v.numberInt() != 1 && v.numberInt() != 2)))
        return Status(ErrorCodes::CannotCreateIndex,
                      "Invalid index specification " + spec.toString() +
                          "; cannot create an index with v=" + v.toString(false));
    BSONElement pfe = spec["partialFilterExpression"];
    if (!pfe.eoo() && pfe.type() != BSONType::kObject)
        return Status(ErrorCodes::TypeMismatch,
                      "The field 'partialFilterExpression' must be an object");
    if (pfe.type() == BSONType::kObject) {
        auto parsed = parseMatchExpression(pfe.embeddedObject());
        if (parsed.isOK() && !checkNoTextExpression(parsed.getValue().get()).isOK())
            return Status(ErrorCodes::CannotCreateIndex,
                          "Expression not supported in partial index: $text");
    }
    if (!pfe.eoo() && spec["sparse"].trueValue())
        return Status(ErrorCodes::CannotCreateIndex,
                      "cannot mix \"partialFilterExpression\" and \"sparse\" options");
    BSONElement ttl = spec["expireAfterSeconds"];
    if (!ttl.eoo()) {
        if (!ttl.isNumber())
            return Status(
                ErrorCodes::CannotCreateIndex,
                "TTL index 'expireAfterSeconds' option must be numeric, but received a type of '" +
                    std::string(typeName(ttl.type())) + "'. Index spec: " + spec.toString());
        if (key.embeddedObject().nFields() > 1)
            return Status(ErrorCodes::CannotCreateIndex,
                          "TTL indexes are single-field indexes, compound indexes do not support "
                          "TTL. Index spec: " +
                              spec.toString());
        double d = ttl.numberDouble();
        if (d < 0 || d > 2147483647.0 || d != d)
            return Status(ErrorCodes::InvalidOptions,
                          "TTL index 'expireAfterSeconds' option must be within an acceptable "
                          "range, try a lower number. Index spec: " +
                              spec.toString());
    }
    for (auto e : key.embeddedObject())
        if (spec["unique"].trueValue() && e.type() == BSONType::kString &&
            e.valueStringData() == "hashed")
            return Status(ErrorCodes::Error(16764),
                          "Currently hashed indexes cannot guarantee uniqueness. Use a regular "
                          "index.");
    if (spec["unique"].trueValue() && spec["prepareUnique"].trueValue())
        return Status(ErrorCodes::CannotCreateIndex,
                      "Cannot create an index with both 'unique' and 'prepareUnique' set to "
                      "true. Index spec: " +
                          spec.toString());
    BSONObj collation;
    if (!spec["collation"].eoo()) {
        Status cs = validateIndexCollation(spec, &collation);
        if (!cs.isOK())
            return cs;
        if (text && collation["locale"].str() != "simple")
            return Status(ErrorCodes::CannotCreateIndex,
                          "Index type 'text' does not support collation: " + collation.toString());
    }

    BSONObjBuilder b;
    b.append("v", 2);
    b.append("key", key.embeddedObject());
    b.append("name", name.eoo() ? defaultIndexName(key.embeddedObject()) : name.str());
    for (auto e : spec) {
        StringData f = e.fieldNameStringData();
        if (f == "v" || f == "key" || f == "name" || f == "ns" || f == "background" ||
            f == "dropDups")
            continue;
        if (f == "prepareUnique" && !e.trueValue())
            continue;  // false is the default: not stored
        if ((f == "unique" || f == "sparse" || f == "hidden" || f == "prepareUnique") &&
            e.type() != BSONType::kBool) {
            b.append(f, e.trueValue());
            continue;
        }
        if (f == "collation") {
            b.append("collation", collation);
            continue;
        }
        b.append(e);
    }
    if (spec["2dsphereIndexVersion"].eoo()) {
        for (auto e : key.embeddedObject())
            if (e.type() == BSONType::kString && e.valueStringData().substr(0, 8) == "2dsphere") {
                b.append("2dsphereIndexVersion", 3);
                break;
            }
    }
    BSONObj out = b.obj();
    if (out["name"].str() == IndexDescriptor::kIdIndexName &&
        !(key.embeddedObject().nFields() == 1 &&
          key.embeddedObject().firstElementFieldNameStringData() == "_id"))
        return Status(ErrorCodes::BadValue,
                      "The index name '_id_' is reserved for the _id index, which must have key "
                      "pattern {_id: 1}, found key: " +
                          key.embeddedObject().toString());
    return out;
}

Status IndexDescriptor::getKeys(const BSONObj& doc, IndexKeys* out) const {
    if (!textSpec)
        return getIndexKeys(keyPattern, doc, sparse, out, collator(), twoD);
    out->keys.clear();
    Status s = textSpec->getKeys(doc, &out->keys);
    if (!s.isOK())
        return s;
    std::sort(out->keys.begin(), out->keys.end(),
              [](const BSONObj& a, const BSONObj& b) { return a.woCompare(b, false) < 0; });
    // One key per term: the index is multikey on its text part (as upstream reports it).
    out->multikey = out->keys.size() > 1;
    out->multikeyPaths.assign(keyPattern.nFields(), MultikeyComponents());
    return Status::OK();
}

IndexDescriptor IndexDescriptor::fromSpec(const BSONObj& spec) {
    IndexDescriptor d;
    if (auto grid = TwoDGrid::fromSpec(spec); grid.isOK())
        d.twoD = grid.getValue();
    d.spec = spec.getOwned();
    d.name = spec["name"].str();
    d.keyPattern = spec["key"].embeddedObject().getOwned();
    if (fts::FTSSpec::isTextKeyPattern(d.keyPattern)) {
        auto sw = fts::FTSSpec::make(d.spec);
        if (sw.isOK())
            d.textSpec = std::move(sw.getValue());
        else  // only a spec this server did not write gets here
            LOGV2_WARNING(4915901, "Text index spec cannot be read; the index gets no keys",
                          BSON("index" << d.name << "error" << sw.getStatus().reason()));
    }
    d.unique = DurableCatalog::isUniqueIndexSpec(spec);
    d.sparse = spec["sparse"].trueValue();
    d.hidden = spec["hidden"].trueValue();
    d.prepareUnique = spec["prepareUnique"].trueValue() && !d.unique;
    if (spec["partialFilterExpression"].type() == BSONType::kObject)
        d.partialFilterExpression = spec["partialFilterExpression"].embeddedObject().getOwned();
    if (spec["expireAfterSeconds"].isNumber())
        d.expireAfterSeconds = spec["expireAfterSeconds"].numberLong();
    if (spec["collation"].type() == BSONType::kObject) {
        auto sw = makeCollator(spec["collation"].embeddedObject());
        if (sw.isOK()) {
            d.collatorOwner = std::move(sw.getValue());
        } else {
            // Only a spec stored by a server that knew this collation gets here.
            LOGV2_WARNING(4915900, "Index collation cannot be built; the index uses simple order",
                          BSON("index" << d.name << "error" << sw.getStatus().reason()));
        }
    }
    return d;
}

BSONObj applyCollationDefault(const BSONObj& spec, const CollatorInterface* collectionDefault) {
    BSONElement c = spec["collation"];
    if (c.eoo()) {
        if (!collectionDefault)
            return spec;
        BSONObjBuilder b;
        b.appendElements(spec);
        b.append("collation", collectionDefault->getSpec());
        return b.obj();
    }
    if (c.type() == BSONType::kObject && c.embeddedObject()["locale"].type() == BSONType::kString &&
        c.embeddedObject()["locale"].valueStringData() == "simple")
        return spec.removeField("collation");
    return spec;
}

BSONObj idIndexSpec(const BSONObj& collation) {
    if (!collation.isEmpty())
        return BSON("v" << 2 << "key" << BSON("_id" << 1) << "name"
                        << "_id_"
                        << "collation" << collation);
    return BSON("v" << 2 << "key" << BSON("_id" << 1) << "name"
                    << "_id_");
}

bool indexSpecsEquivalent(const BSONObj& a, const BSONObj& b) {
    auto norm = [](const BSONObj& s) {
        BSONObjBuilder bb;
        bb.append("key", s["key"].embeddedObject());
        bb.append("unique", s["unique"].trueValue());
        bb.append("sparse", s["sparse"].trueValue());
        bb.append("prepareUnique", s["prepareUnique"].trueValue());
        if (s["partialFilterExpression"].type() == BSONType::kObject)
            bb.append("pfe", s["partialFilterExpression"].embeddedObject());
        if (s["collation"].type() == BSONType::kObject)
            bb.append("collation", s["collation"].embeddedObject());
        // Text indexes: their options too, but not textIndexVersion (as upstream).
        for (StringData text : {"weights", "default_language", "language_override"})
            if (BSONElement e = s[text]; !e.eoo())
                bb.appendAs(e, text);
        return bb.obj();
    };
    return compareObjects(norm(a), norm(b), ComparisonRules::kConsiderFieldName) == 0;
}

}  // namespace mongo
