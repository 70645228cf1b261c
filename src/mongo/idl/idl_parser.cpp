// Runtime support for generated IDL parsers: error construction and scalar parsing.
#include "mongo/idl/idl_parser.h"

#include <algorithm>

namespace mongo {
namespace {

const std::vector<BSONType> kNumberTypes = {BSONType::kNumberLong, BSONType::kNumberInt,
                                            BSONType::kNumberDecimal, BSONType::kNumberDouble};

void assertTypeList(const IDLParserContext& ctx, const BSONElement& elem,
                    const std::vector<BSONType>& types) {
    if (std::find(types.begin(), types.end(), elem.type()) == types.end())
        ctx.throwBadType(elem, types);
}

}  // namespace

std::string IDLParserContext::getElementPath(StringData fieldName) const {
    std::string out = _path;
    out += '.';
    out.append(fieldName.data(), fieldName.size());
    return out;
}

void IDLParserContext::assertType(const BSONElement& elem,
                                  std::initializer_list<BSONType> types) const {
    for (BSONType t : types)
        if (elem.type() == t)
            return;
    throwBadType(elem, std::vector<BSONType>(types));
}

void IDLParserContext::throwMissingField(StringData fieldName) const {
    uasserted(ErrorCodes::IDLFailedToParse,
              "BSON field '" + getElementPath(fieldName) + "' is missing but a required field");
}

void IDLParserContext::throwUnknownField(StringData fieldName) const {
    uasserted(ErrorCodes::IDLUnknownField,
              "BSON field '" + getElementPath(fieldName) + "' is an unknown field.");
}

void IDLParserContext::throwDuplicateField(StringData fieldName) const {
    uasserted(ErrorCodes::IDLDuplicateField,
              "BSON field '" + getElementPath(fieldName) + "' is a duplicate field");
}

void IDLParserContext::throwBadType(const BSONElement& elem,
                                    const std::vector<BSONType>& expected) const {
    std::string msg = "BSON field '" + getElementPath(elem.fieldNameStringData()) +
                      "' is the wrong type '" + std::string(typeName(elem.type())) +
                      "', expected type";
    if (expected.size() == 1) {
        msg += " '" + std::string(typeName(expected[0])) + "'";
    } else {
        msg += "s '[";
        for (std::size_t i = 0; i < expected.size(); ++i) {
            if (i)
                msg += ", ";
            msg += std::string(typeName(expected[i]));
        }
        msg += "]'";
    }
    uasserted(ErrorCodes::TypeMismatch, msg);
}

void IDLParserContext::throwBadEnumValue(StringData value) const {
    uasserted(ErrorCodes::BadValue, "Enumeration value '" + std::string(value) + "' for field '" +
                                        _path + "' is not a valid value.");
}

IDLAnyTypeOwned::IDLAnyTypeOwned(const BSONElement& elem) {
    BSONObjBuilder b;
    b.appendAs(elem, "v");
    _holder = b.obj();
}

namespace idl {

std::string parseString(const IDLParserContext& ctx, const BSONElement& elem) {
    ctx.assertType(elem, {BSONType::kString});
    return elem.str();
}

std::int32_t parseInt(const IDLParserContext& ctx, const BSONElement& elem) {
    ctx.assertType(elem, {BSONType::kNumberInt});
    return elem._numberInt();
}

std::int64_t parseLong(const IDLParserContext& ctx, const BSONElement& elem) {
    ctx.assertType(elem, {BSONType::kNumberLong, BSONType::kNumberInt});
    return elem.numberLong();
}

std::int32_t parseSafeInt(const IDLParserContext& ctx, const BSONElement& elem) {
    assertTypeList(ctx, elem, kNumberTypes);
    return elem.numberInt();
}

std::int64_t parseSafeInt64(const IDLParserContext& ctx, const BSONElement& elem) {
    assertTypeList(ctx, elem, kNumberTypes);
    return elem.numberLong();
}

double parseDouble(const IDLParserContext& ctx, const BSONElement& elem) {
    ctx.assertType(elem, {BSONType::kNumberDouble});
    return elem._numberDouble();
}

double parseSafeDouble(const IDLParserContext& ctx, const BSONElement& elem) {
    assertTypeList(ctx, elem, kNumberTypes);
    return elem.numberDouble();
}

bool parseBool(const IDLParserContext& ctx, const BSONElement& elem) {
    ctx.assertType(elem, {BSONType::kBool});
    return elem.boolean();
}

bool parseSafeBool(const IDLParserContext& ctx, const BSONElement& elem) {
    ctx.assertType(elem, {BSONType::kBool, BSONType::kNumberLong, BSONType::kNumberInt,
                          BSONType::kNumberDecimal, BSONType::kNumberDouble});
    return elem.trueValue();
}

Date_t parseDate(const IDLParserContext& ctx, const BSONElement& elem) {
    ctx.assertType(elem, {BSONType::kDate});
    return elem.date();
}

Timestamp parseTimestamp(const IDLParserContext& ctx, const BSONElement& elem) {
    ctx.assertType(elem, {BSONType::kTimestamp});
    return elem.timestamp();
}

OID parseObjectId(const IDLParserContext& ctx, const BSONElement& elem) {
    ctx.assertType(elem, {BSONType::kOid});
    return elem.OID();
}

BSONObj parseObject(const IDLParserContext& ctx, const BSONElement& elem) {
    ctx.assertType(elem, {BSONType::kObject});
    if (ctx.getBuffer())
        return BSONObj(ctx.getBuffer(), elem.value());
    return elem.Obj();
}

BSONObj parseObjectOwned(const IDLParserContext& ctx, const BSONElement& elem) {
    ctx.assertType(elem, {BSONType::kObject});
    return elem.Obj().getOwned();
}

IDLAnyTypeOwned parseAny(const IDLParserContext& ctx, const BSONElement& elem) {
    return IDLAnyTypeOwned(elem);
}

IDLAnyTypeOwned parseSafeNumeric(const IDLParserContext& ctx, const BSONElement& elem) {
    assertTypeList(ctx, elem, kNumberTypes);
    return IDLAnyTypeOwned(elem);
}

void throwValidatorFailure(const IDLParserContext& ctx, StringData fieldName, StringData op,
                           const std::string& bound, const std::string& actual) {
    uasserted(ErrorCodes::BadValue, "BSON field '" + ctx.getElementPath(fieldName) +
                                        "' value must be " + std::string(op) + " " + bound +
                                        ", actual value '" + actual + "'");
}

}  // namespace idl
}  // namespace mongo
