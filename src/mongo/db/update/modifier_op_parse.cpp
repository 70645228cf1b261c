// ModifierOp::parse: argument validation for every modifier, with upstream's
// codes and messages.
#include <cmath>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/update/modifier_op.h"

namespace mongo {

namespace {

Status badValue(std::string msg) {
    return Status(ErrorCodes::BadValue, std::move(msg));
}

bool isPositionalComponent(StringData c) {
    return c == "$" || (c.size() >= 3 && c.substr(0, 2) == "$[" && c.back() == ']');
}

bool isIntegral(const BSONElement& e) {
    if (!e.isNumber())
        return false;
    double d = e.numberDouble();
    return std::isfinite(d) && d == std::floor(d);
}

Status checkPath(const FieldPath& fp, bool allowDynamic, StringData opName) {
    if (fp.dotted().empty())
        return Status(ErrorCodes::EmptyFieldName, "An empty update path is not valid.");
    if (fp.hasEmptyComponent())
        return Status(ErrorCodes::EmptyFieldName,
                      "The update path '" + fp.dotted() +
                          "' contains an empty field name, which is not allowed.");
    int dollars = 0;
    bool first = true;
    for (const auto& c : fp.parts()) {
        const bool isFirst = first;
        first = false;
        if (c.empty() || c[0] != '$')
            continue;
        // The fields of a DBRef below the top level; the result must still be a valid DBRef
        // (UpdateDriver::apply).
        if (!isFirst && (c == "$id" || c == "$ref" || c == "$db"))
            continue;
        if (!isPositionalComponent(c))
            return Status(ErrorCodes::DollarPrefixedFieldName, "The dollar ($) prefixed field '" +
                                                                   c + "' in '" + fp.dotted() +
                                                                   "' is not valid for storage.");
        if (!allowDynamic)
            return badValue("The source field for " + std::string(opName) +
                            " may not be dynamic: " + fp.dotted());
        if (c == "$" && ++dollars > 1)
            return badValue("Too many positional (i.e. '$') elements found in path '" +
                            fp.dotted() + "'");
    }
    return Status::OK();
}

}  // namespace

StatusWith<std::unique_ptr<ModifierOp>> ModifierOp::parse(Kind kind, StringData opName,
                                                          const BSONElement& field) {
    auto op = std::make_unique<ModifierOp>();
    op->_kind = kind;
    op->_opName = std::string(opName);
    op->_path = FieldPath(field.fieldNameStringData());
    op->_arg = field;
    Status s = checkPath(op->_path, kind != Kind::kRename, opName);
    if (!s.isOK())
        return s;

    switch (kind) {
        case Kind::kSet:
        case Kind::kSetOnInsert:
        case Kind::kMin:
        case Kind::kMax:
        case Kind::kUnset:
            break;
        case Kind::kInc:
        case Kind::kMul:
            if (!field.isNumber())
                return Status(
                    ErrorCodes::TypeMismatch,
                    std::string(kind == Kind::kInc ? "Cannot increment" : "Cannot multiply") +
                        " with non-numeric argument: {" + field.toString() + "}");
            break;
        case Kind::kRename: {
            if (field.type() != BSONType::kString)
                return badValue("The 'to' field for $rename must be a string: " + field.toString());
            op->_to = FieldPath(field.valueStringData());
            Status ts = checkPath(op->_to, false, "$rename");
            if (!ts.isOK())
                return ts.code() == ErrorCodes::BadValue
                           ? badValue("The destination field for $rename may not be dynamic: " +
                                      op->_to.dotted())
                           : ts;
            const std::string& from = op->_path.dotted();
            const std::string& to = op->_to.dotted();
            if (from == to)
                return badValue("The source and target field for $rename must differ: " +
                                field.toString());
            if ((to.size() > from.size() && to.compare(0, from.size() + 1, from + ".") == 0) ||
                (from.size() > to.size() && from.compare(0, to.size() + 1, to + ".") == 0))
                return badValue(
                    "The source and target field for $rename must not be on the same "
                    "path: " +
                    field.toString());
            break;
        }
        case Kind::kCurrentDate:
            if (field.type() == BSONType::kObject) {
                BSONObj o = field.Obj();
                BSONElement t = o["$type"];
                if (o.nFields() != 1 || t.type() != BSONType::kString ||
                    (t.valueStringData() != "date" && t.valueStringData() != "timestamp"))
                    return badValue(
                        "The '$type' string field is required to be 'date' or "
                        "'timestamp': {$currentDate: {field : {$type: 'date'}}}");
                op->_timestamp = t.valueStringData() == "timestamp";
            } else if (field.type() != BSONType::kBool) {
                return badValue(
                    field.toString() +
                    " is not valid type for $currentDate. Please use a boolean ('true') "
                    "or a $type expression ({$type: 'timestamp/date'}).");
            }
            break;
        case Kind::kPush:
        case Kind::kAddToSet: {
            bool modifierForm = field.type() == BSONType::kObject && field.Obj().hasField("$each");
            if (!modifierForm) {
                op->_each.push_back(field);
                break;
            }
            for (BSONElement m : field.Obj()) {
                StringData n = m.fieldNameStringData();
                if (n == "$each") {
                    if (m.type() != BSONType::kArray)
                        return badValue("The argument to $each in " + std::string(opName) +
                                        " must be an array but it was of type: " +
                                        std::string(typeName(m.type())));
                    op->_each = m.Array();
                } else if (kind == Kind::kAddToSet) {
                    return badValue("Found unexpected fields after $each in $addToSet: " +
                                    field.Obj().toString());
                } else if (n == "$slice") {
                    if (!isIntegral(m))
                        return badValue(
                            "The value for $slice must be an integer value but was "
                            "given type: " +
                            std::string(typeName(m.type())));
                    op->_slice = m.numberLong();
                } else if (n == "$position") {
                    if (!isIntegral(m))
                        return badValue(
                            "The value for $position must be an integer value, not "
                            "of type: " +
                            std::string(typeName(m.type())));
                    op->_position = m.numberLong();
                } else if (n == "$sort") {
                    const char* kBadSort =
                        "The $sort is invalid: use 1/-1 to sort the whole element, or {field:1/-1} "
                        "to sort embedded fields";
                    if (m.isNumber()) {
                        double d = m.numberDouble();
                        if (d != 1 && d != -1)
                            return badValue(kBadSort);
                        op->_sortDirection = d == 1 ? 1 : -1;
                    } else if (m.type() == BSONType::kObject) {
                        if (m.Obj().isEmpty())
                            return badValue(
                                "The $sort pattern is empty when it should be a set "
                                "of fields.");
                        for (BSONElement p : m.Obj())
                            if (!p.isNumber() || (p.numberDouble() != 1 && p.numberDouble() != -1))
                                return badValue(kBadSort);
                        auto sp = SortPattern::parse(m.Obj());
                        if (!sp.isOK())
                            return badValue(kBadSort);
                        op->_sortPattern = std::move(sp.getValue());
                    } else {
                        return badValue(kBadSort);
                    }
                } else {
                    return badValue("Unrecognized clause in $push: " + std::string(n));
                }
            }
            break;
        }
        case Kind::kPop:
            if (!field.isNumber())
                return Status(ErrorCodes::FailedToParse,
                              "Expected a number in: " + field.toString());
            if (field.numberDouble() != 1 && field.numberDouble() != -1)
                return Status(ErrorCodes::FailedToParse,
                              "$pop expects 1 or -1, found: " + field.toString(false));
            break;
        case Kind::kPullAll:
            if (field.type() != BSONType::kArray)
                return badValue("$pullAll requires an array argument but was given a " +
                                std::string(typeName(field.type())));
            op->_each = field.Array();
            break;
        case Kind::kPull:
            if (field.type() == BSONType::kObject && !field.Obj().isEmpty()) {
                BSONObj cond = field.Obj();
                StringData first = cond.firstElementFieldNameStringData();
                bool valueForm = first[0] == '$' && first != "$and" && first != "$or" &&
                                 first != "$nor" && first != "$expr" && first != "$comment";
                auto m = valueForm ? parseValueMatchExpression(cond) : parseMatchExpression(cond);
                if (!m.isOK())
                    return m.getStatus();
                op->_pullMatcher = std::move(m.getValue());
                op->_pullMatcherOnValues = valueForm;
            } else if (field.type() == BSONType::kRegEx) {
                auto re = RegexMatcher::compile(field.regex(), field.regexFlags());
                if (!re.isOK())
                    return re.getStatus();
                op->_pullRegex = re.getValue();
            }
            break;
        case Kind::kBit: {
            if (field.type() != BSONType::kObject)
                return badValue("The $bit modifier is not compatible with a " +
                                std::string(typeName(field.type())) +
                                ". You must pass in an embedded document: {$bit: {field: "
                                "{and/or/xor: #}}.");
            if (field.Obj().isEmpty())
                return badValue(
                    "You must pass in at least one bitwise operation. The format is: "
                    "{$bit: {field: {and/or/xor: #}}.");
            for (BSONElement b : field.Obj()) {
                StringData n = b.fieldNameStringData();
                if (n != "and" && n != "or" && n != "xor")
                    return badValue(
                        "The $bit modifier only supports 'and', 'or', and 'xor', not '" +
                        std::string(n) + "' which is an unknown operator: {" + b.toString() + "}");
                if (b.type() != BSONType::kNumberInt && b.type() != BSONType::kNumberLong)
                    return badValue("The $bit modifier field must be an Integer(32/64 bit); a '" +
                                    std::string(typeName(b.type())) + "' is not supported here: {" +
                                    b.toString() + "}");
            }
            break;
        }
    }
    return op;
}

}  // namespace mongo
