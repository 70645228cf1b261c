#include "mongo/db/exec/field_predicates.h"

#include "mongo/bson/bson_comparator.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/util/assert_util.h"

namespace mongo {

namespace {

BSONObj wrap(const BSONElement& e) {
    BSONObjBuilder b;
    b.appendAs(e, "");
    return b.obj();
}

/**
 * Whether a comparison with `e` maps to one interval of index keys. Arrays (which also match
 * elements) and regexes do not; an object does for equality only (its key is the object itself).
 */
bool usableValue(const BSONElement& e, bool equality = false) {
    return e.type() != BSONType::kArray && e.type() != BSONType::kRegEx &&
           e.type() != BSONType::kUndefined && (equality || e.type() != BSONType::kObject);
}

/** {"": /pattern/flags} from a regex element, or from `$regex` (string or regex) and `$options`. */
BSONObj regexValue(StringData pattern, StringData flags) {
    BSONObjBuilder b;
    b.appendRegex("", pattern, flags);
    return b.obj();
}

/** Adds `in` (the `$in` array) to the field's union; an array value makes it unusable. */
void addInValues(const BSONElement& in, FieldPredicate* p) {
    std::vector<BSONObj> values;
    std::vector<BSONObj> regexes;
    for (auto v : in.embeddedObject()) {
        if (v.type() == BSONType::kRegEx)
            regexes.push_back(regexValue(v.regex(), v.regexFlags()));
        else if (v.type() == BSONType::kArray || v.type() == BSONType::kUndefined)
            return;  // also matches arrays holding it: no interval of its own
        else
            values.push_back(wrap(v));
    }
    if (values.empty() && regexes.empty())
        return;
    p->inValues = std::move(values);
    p->regexes = std::move(regexes);
}

/**
 * The values of a `$or` whose branches are all equalities ({f: v}, {f: {$eq: v}}) or `$in`s on
 * one field f, as upstream rewrites such a `$or` into `$in`: {"": [v...]} under f's name, or
 * nullopt.
 */
std::optional<std::pair<std::string, BSONObj>> orOfEqualities(const BSONElement& orElem) {
    if (orElem.type() != BSONType::kArray || orElem.embeddedObject().isEmpty())
        return std::nullopt;
    std::string field;
    BSONArrayBuilder values;
    for (auto branch : orElem.embeddedObject()) {
        if (branch.type() != BSONType::kObject || branch.embeddedObject().nFields() != 1)
            return std::nullopt;
        BSONElement p = branch.embeddedObject().firstElement();
        StringData name = p.fieldNameStringData();
        if (name.starts_with("$") || (!field.empty() && name != field))
            return std::nullopt;
        field = std::string(name);
        if (p.type() == BSONType::kObject &&
            p.embeddedObject().firstElementFieldNameStringData().starts_with("$")) {
            BSONObj ops = p.embeddedObject();
            if (ops.nFields() != 1)
                return std::nullopt;
            BSONElement op = ops.firstElement();
            if (op.fieldNameStringData() == "$eq") {
                if (op.type() == BSONType::kObject || op.type() == BSONType::kArray ||
                    op.type() == BSONType::kRegEx)
                    return std::nullopt;
                values.append(op);
            } else if (op.fieldNameStringData() == "$in" && op.type() == BSONType::kArray) {
                for (auto v : op.embeddedObject())
                    values.append(v);
            } else {
                return std::nullopt;
            }
            continue;
        }
        if (p.type() == BSONType::kObject || p.type() == BSONType::kArray)
            return std::nullopt;  // an object or array value: not one interval of keys
        values.append(p);
    }
    BSONObjBuilder b;
    b.appendArray("", values.arr());
    return std::make_pair(field, b.obj());
}

}  // namespace

void analyzeFieldPredicates(const BSONObj& filter, std::map<std::string, FieldPredicate>* out) {
    for (auto e : filter) {
        StringData f = e.fieldNameStringData();
        if (f == "$and" && e.type() == BSONType::kArray) {
            for (auto sub : e.embeddedObject()) {
                if (sub.type() == BSONType::kObject)
                    analyzeFieldPredicates(sub.embeddedObject(), out);
            }
            continue;
        }
        if (f == "$or") {
            if (auto in = orOfEqualities(e)) {
                FieldPredicate& p = (*out)[in->first];
                if (!p.hasUnion())
                    addInValues(in->second.firstElement(), &p);
            }
            continue;
        }
        if (!f.empty() && f[0] == '$')
            continue;
        FieldPredicate& p = (*out)[std::string(f)];
        if (e.type() == BSONType::kRegEx) {
            p.inValues.emplace();
            p.regexes = {regexValue(e.regex(), e.regexFlags())};
            continue;
        }
        if (e.type() != BSONType::kObject ||
            e.embeddedObject().firstElementFieldNameStringData().substr(0, 1) != "$") {
            if (usableValue(e, true))
                p.eq = wrap(e);
            continue;
        }
        for (auto op : e.embeddedObject()) {
            StringData name = op.fieldNameStringData();
            if (name == "$in" && op.type() == BSONType::kArray) {
                addInValues(op, &p);
                continue;
            }
            if (name == "$regex" &&
                (op.type() == BSONType::kString || op.type() == BSONType::kRegEx)) {
                BSONElement options = e.embeddedObject()["$options"];
                std::string flags = op.type() == BSONType::kRegEx ? op.regexFlags() : "";
                if (options.type() == BSONType::kString)
                    flags += options.valueStringData();
                p.inValues.emplace();
                p.regexes = {regexValue(
                    op.type() == BSONType::kRegEx ? op.regex() : op.valueStringData(), flags)};
                continue;
            }
            if (!usableValue(op, name == "$eq"))
                continue;
            if (name == "$eq") {
                p.eq = wrap(op);
                continue;
            }
            // $gt/$gte/$lt/$lte, or their $_internalExpr forms (fromExpr).
            const bool fromExpr = name.starts_with("$_internalExpr");
            std::string cmp(fromExpr ? name.substr(std::strlen("$_internalExpr")) : name.substr(1));
            if (!cmp.empty())
                cmp[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(cmp[0])));
            const bool inclusive = cmp == "gte" || cmp == "lte";
            if (cmp == "gt" || cmp == "gte") {
                p.low = wrap(op);
                p.lowInclusive = inclusive;
                p.lowFromExpr = fromExpr;
            } else if (cmp == "lt" || cmp == "lte") {
                p.high = wrap(op);
                p.highInclusive = inclusive;
                p.highFromExpr = fromExpr;
            }
        }
    }
}

}  // namespace mongo
