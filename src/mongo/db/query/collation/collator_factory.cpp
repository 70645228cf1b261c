// makeCollator: parses and validates a collation document and builds a CollatorICU.
// The rules, defaults and error codes are listed in README.md.
#include "mongo/db/query/collation/collator_factory.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string>

#include <unicode/ucol.h>
#include <unicode/uenum.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/query/collation/collation_spec.h"
#include "mongo/db/query/collation/collator_icu.h"
#include "mongo/idl/error_codes_gen.h"

namespace mongo {

namespace {

using CS = CollationSpec;

/** The attributes a collation document sets; unset ones keep the locale's default. */
struct RequestedAttributes {
    std::optional<bool> caseLevel;
    std::optional<UColAttributeValue> caseFirst;
    std::optional<UColAttributeValue> strength;
    std::optional<bool> numericOrdering;
    std::optional<UColAttributeValue> alternate;
    std::optional<UColReorderCode> maxVariable;
    std::optional<bool> normalization;
    std::optional<bool> backwards;
    std::optional<std::string> version;
};

Status wrongType(StringData field, const BSONElement& e, StringData expected) {
    return Status(ErrorCodes::TypeMismatch,
                  std::string("\"") + std::string(field) + "\" had the wrong type. Expected " +
                      std::string(expected) + ", found " + std::string(typeName(e.type())));
}

Status badEnumValue(StringData field, const BSONElement& e, const BSONObj& spec) {
    return Status(ErrorCodes::FailedToParse,
                  std::string("Field '") + std::string(field) + "' must be one of the allowed " +
                      "values, got: \"" + e.str() + "\" in: " + spec.toString());
}

Status expectString(StringData field, const BSONElement& e, std::string* out) {
    if (e.type() != BSONType::kString)
        return wrongType(field, e, "string");
    *out = e.str();
    return Status::OK();
}

StatusWith<bool> parseBool(StringData field, const BSONElement& e) {
    if (e.type() != BSONType::kBool)
        return wrongType(field, e, "bool");
    return e.boolean();
}

StatusWith<UColAttributeValue> parseStrength(const BSONElement& e, const BSONObj& spec) {
    if (!e.isNumber())
        return Status(ErrorCodes::TypeMismatch,
                      std::string("Expected field \"strength\" to have numeric type, but found ") +
                          std::string(typeName(e.type())));
    // Any numeric type holding an exact integer is accepted, as upstream does.
    double d = e.numberDouble();
    if (e.type() == BSONType::kNumberDecimal)
        d = e.numberDecimal().toDouble();
    if (std::isnan(d) || d != std::trunc(d))
        return Status(ErrorCodes::BadValue,
                      "Expected field \"strength\" to have a value exactly representable as a "
                      "64-bit integer, but found " +
                          e.toString());
    static constexpr UColAttributeValue kLevels[] = {UCOL_PRIMARY, UCOL_SECONDARY, UCOL_TERTIARY,
                                                     UCOL_QUATERNARY, UCOL_IDENTICAL};
    if (d < 1 || d > 5)
        return Status(ErrorCodes::FailedToParse,
                      "Field 'strength' must be an integer 1 through 5. Got: " + e.toString() +
                          " in: " + spec.toString());
    return kLevels[static_cast<int>(d) - 1];
}

/** Reads every field but `locale` into `out`; unknown fields and bad values fail. */
Status parseAttributes(const BSONObj& spec, RequestedAttributes* out) {
    for (const BSONElement& e : spec) {
        const StringData name = e.fieldNameStringData();
        if (name == CS::kLocaleField)
            continue;
        std::string s;
        if (name == CS::kCaseLevelField || name == CS::kNumericOrderingField ||
            name == CS::kNormalizationField || name == CS::kBackwardsField) {
            auto b = parseBool(name, e);
            if (!b.isOK())
                return b.getStatus();
            std::optional<bool>* target = name == CS::kCaseLevelField ? &out->caseLevel
                                          : name == CS::kNumericOrderingField
                                              ? &out->numericOrdering
                                          : name == CS::kNormalizationField ? &out->normalization
                                                                            : &out->backwards;
            *target = b.getValue();
        } else if (name == CS::kStrengthField) {
            auto st = parseStrength(e, spec);
            if (!st.isOK())
                return st.getStatus();
            out->strength = st.getValue();
        } else if (name == CS::kCaseFirstField) {
            if (Status st = expectString(name, e, &s); !st.isOK())
                return st;
            if (s == CS::kCaseFirstUpper)
                out->caseFirst = UCOL_UPPER_FIRST;
            else if (s == CS::kCaseFirstLower)
                out->caseFirst = UCOL_LOWER_FIRST;
            else if (s == CS::kCaseFirstOff)
                out->caseFirst = UCOL_OFF;
            else
                return badEnumValue(name, e, spec);
        } else if (name == CS::kAlternateField) {
            if (Status st = expectString(name, e, &s); !st.isOK())
                return st;
            if (s == CS::kAlternateNonIgnorable)
                out->alternate = UCOL_NON_IGNORABLE;
            else if (s == CS::kAlternateShifted)
                out->alternate = UCOL_SHIFTED;
            else
                return badEnumValue(name, e, spec);
        } else if (name == CS::kMaxVariableField) {
            if (Status st = expectString(name, e, &s); !st.isOK())
                return st;
            if (s == CS::kMaxVariablePunct)
                out->maxVariable = UCOL_REORDER_CODE_PUNCTUATION;
            else if (s == CS::kMaxVariableSpace)
                out->maxVariable = UCOL_REORDER_CODE_SPACE;
            else
                return badEnumValue(name, e, spec);
        } else if (name == CS::kVersionField) {
            if (Status st = expectString(name, e, &s); !st.isOK())
                return st;
            out->version = s;
        } else {
            return Status(ErrorCodes::FailedToParse, "unknown collation spec field \"" +
                                                         std::string(name) +
                                                         "\" in: " + spec.toString());
        }
    }
    return Status::OK();
}

Status invalidLocale(const BSONObj& spec) {
    return Status(ErrorCodes::BadValue, "Field '" + std::string(CS::kLocaleField) +
                                            "' is invalid in: " + spec.toString());
}

/** The locales ICU has collation data for, in ICU's canonical spelling. */
const std::set<std::string>& availableLocales() {
    static const std::set<std::string> locales = [] {
        std::set<std::string> out;
        for (int32_t i = 0, n = ucol_countAvailable(); i < n; ++i)
            out.insert(ucol_getAvailable(i));
        return out;
    }();
    return locales;
}

/** The non-default collation types of `base` (e.g. "phonebook" for "de"). */
bool isAlternativeCollationType(const std::string& base, const std::string& type) {
    UErrorCode status = U_ZERO_ERROR;
    UEnumeration* values =
        ucol_getKeywordValuesForLocale("collation", base.c_str(), false, &status);
    if (U_FAILURE(status) || !values)
        return false;
    bool found = false, first = true;
    const char* v;
    int32_t len = 0;
    while (!found && (v = uenum_next(values, &len, &status)) != nullptr && U_SUCCESS(status)) {
        // ICU lists the locale's default type first; naming it explicitly is refused.
        found = !first && type == StringData(v, len);
        first = false;
    }
    uenum_close(values);
    return found;
}

/**
 * Checks that `locale` names exactly a locale ICU has collation data for, spelled
 * canonically ("en_US", "zh_Hant", "de@collation=phonebook"); fall-backs to a
 * parent, the root or the process default locale, aliases ("zh_TW", "iw") and other
 * spellings ("en-US", "en_us", "ZH_hant", "en_") are refused with BadValue. This is
 * the outcome of upstream's "valid locale must equal the request" rule, computed
 * from ICU's locale lists because ICU 72's reported valid locale depends on which
 * collators its cache already holds.
 */
Status validateLocale(const std::string& locale, const BSONObj& spec) {
    if (locale.empty())
        return Status(ErrorCodes::BadValue,
                      "Field 'locale' cannot be the empty string in: " + spec.toString());
    if (locale.find('\0') != std::string::npos)
        return Status(ErrorCodes::BadValue,
                      "Field 'locale' cannot contain null byte in: " + spec.toString());
    const size_t at = locale.find('@');
    const std::string base = locale.substr(0, at);
    // ICU 72 made "no" (an alias of "nb" in upstream's ICU 57.1) a locale of its own.
    if (base == "no" || !availableLocales().count(base))
        return invalidLocale(spec);
    if (at == std::string::npos)
        return Status::OK();
    static constexpr StringData kCollationKeyword = "collation=";
    const StringData keywords = StringData(locale).substr(at + 1);
    if (keywords.substr(0, kCollationKeyword.size()) != kCollationKeyword)
        return invalidLocale(spec);
    const std::string type(keywords.substr(kCollationKeyword.size()));
    if (type.empty() || !std::all_of(type.begin(), type.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        }))
        return invalidLocale(spec);
    if (!isAlternativeCollationType(base, type))
        return invalidLocale(spec);
    return Status::OK();
}

StatusWith<CollatorICU::UCollatorPtr> openCollator(const std::string& locale, const BSONObj& spec) {
    if (Status s = validateLocale(locale, spec); !s.isOK())
        return s;
    UErrorCode status = U_ZERO_ERROR;
    CollatorICU::UCollatorPtr coll(ucol_open(locale.c_str(), &status));
    if (U_FAILURE(status) || !coll)
        return invalidLocale(spec);
    return coll;
}

Status setAttribute(UCollator* coll, UColAttribute attr, UColAttributeValue value) {
    UErrorCode status = U_ZERO_ERROR;
    ucol_setAttribute(coll, attr, value, &status);
    if (U_FAILURE(status))
        return Status(ErrorCodes::BadValue,
                      std::string("Failed to set collation attribute: ") + u_errorName(status));
    return Status::OK();
}

UColAttributeValue onOff(bool b) {
    return b ? UCOL_ON : UCOL_OFF;
}

Status applyAttributes(UCollator* coll, const RequestedAttributes& a) {
    // Strength first: ICU resets nothing on it, but later reads depend on it.
    std::pair<UColAttribute, std::optional<UColAttributeValue>> settings[] = {
        {UCOL_STRENGTH, a.strength},
        {UCOL_CASE_LEVEL, a.caseLevel ? std::optional(onOff(*a.caseLevel)) : std::nullopt},
        {UCOL_CASE_FIRST, a.caseFirst},
        {UCOL_NUMERIC_COLLATION,
         a.numericOrdering ? std::optional(onOff(*a.numericOrdering)) : std::nullopt},
        {UCOL_ALTERNATE_HANDLING, a.alternate},
        {UCOL_NORMALIZATION_MODE,
         a.normalization ? std::optional(onOff(*a.normalization)) : std::nullopt},
        {UCOL_FRENCH_COLLATION, a.backwards ? std::optional(onOff(*a.backwards)) : std::nullopt},
    };
    for (const auto& [attr, value] : settings) {
        if (!value)
            continue;
        if (Status s = setAttribute(coll, attr, *value); !s.isOK())
            return s;
    }
    if (a.maxVariable) {
        UErrorCode status = U_ZERO_ERROR;
        ucol_setMaxVariable(coll, *a.maxVariable, &status);
        if (U_FAILURE(status))
            return Status(
                ErrorCodes::BadValue,
                std::string("Failed to set collation maxVariable: ") + u_errorName(status));
    }
    return Status::OK();
}

bool isOn(const UCollator* coll, UColAttribute attr) {
    UErrorCode status = U_ZERO_ERROR;
    return ucol_getAttribute(coll, attr, &status) == UCOL_ON;
}

int strengthNumber(UColAttributeValue v) {
    switch (v) {
        case UCOL_PRIMARY:
            return 1;
        case UCOL_SECONDARY:
            return 2;
        case UCOL_QUATERNARY:
            return 4;
        case UCOL_IDENTICAL:
            return 5;
        default:
            return 3;
    }
}

/** The full spec in upstream's field order, every attribute read back from ICU. */
BSONObj fullSpec(const std::string& locale, const UCollator* coll) {
    UErrorCode status = U_ZERO_ERROR;
    const UColAttributeValue caseFirst = ucol_getAttribute(coll, UCOL_CASE_FIRST, &status);
    const UColAttributeValue strength = ucol_getAttribute(coll, UCOL_STRENGTH, &status);
    const UColAttributeValue alternate = ucol_getAttribute(coll, UCOL_ALTERNATE_HANDLING, &status);
    const UColReorderCode maxVariable = ucol_getMaxVariable(coll);
    BSONObjBuilder b;
    b.append(CS::kLocaleField, locale);
    b.append(CS::kCaseLevelField, isOn(coll, UCOL_CASE_LEVEL));
    b.append(CS::kCaseFirstField, caseFirst == UCOL_UPPER_FIRST   ? CS::kCaseFirstUpper
                                  : caseFirst == UCOL_LOWER_FIRST ? CS::kCaseFirstLower
                                                                  : CS::kCaseFirstOff);
    b.append(CS::kStrengthField, strengthNumber(strength));
    b.append(CS::kNumericOrderingField, isOn(coll, UCOL_NUMERIC_COLLATION));
    b.append(CS::kAlternateField,
             alternate == UCOL_SHIFTED ? CS::kAlternateShifted : CS::kAlternateNonIgnorable);
    b.append(CS::kMaxVariableField, maxVariable == UCOL_REORDER_CODE_SPACE ? CS::kMaxVariableSpace
                                                                           : CS::kMaxVariablePunct);
    b.append(CS::kNormalizationField, isOn(coll, UCOL_NORMALIZATION_MODE));
    b.append(CS::kBackwardsField, isOn(coll, UCOL_FRENCH_COLLATION));
    b.append(CS::kVersionField, CS::kVersion);
    return b.obj();
}

/** Combinations upstream refuses once defaults are filled in (BadValue). */
Status validateCombination(const BSONObj& full, const BSONObj& spec) {
    const int strength = full[CS::kStrengthField].numberInt();
    const bool caseLevel = full[CS::kCaseLevelField].boolean();
    if (full[CS::kCaseFirstField].str() != CS::kCaseFirstOff && strength < 3 && !caseLevel)
        return Status(ErrorCodes::BadValue,
                      "Field 'caseFirst' must be 'off' unless 'strength' is at least 3 or "
                      "'caseLevel' is true in: " +
                          spec.toString());
    if (full[CS::kBackwardsField].boolean() && strength == 1)
        return Status(
            ErrorCodes::BadValue,
            "Field 'backwards' must be false when 'strength' is 1 in: " + spec.toString());
    return Status::OK();
}

}  // namespace

StatusWith<std::unique_ptr<CollatorInterface>> makeCollator(const BSONObj& spec) {
    const BSONElement localeElem = spec[CS::kLocaleField];
    if (localeElem.eoo())
        return Status(ErrorCodes::NoSuchKey, "Missing expected field \"locale\"");
    if (localeElem.type() != BSONType::kString)
        return wrongType(CS::kLocaleField, localeElem, "string");
    const std::string locale = localeElem.str();
    if (locale == CS::kSimpleBinaryComparison) {
        if (spec.nFields() > 1)
            return Status(
                ErrorCodes::FailedToParse,
                "If locale=simple, no other fields should be present in: " + spec.toString());
        return std::unique_ptr<CollatorInterface>();
    }

    RequestedAttributes requested;
    if (Status s = parseAttributes(spec, &requested); !s.isOK())
        return s;
    if (requested.version && *requested.version != CS::kVersion)
        return Status(ErrorCodes::IncompatibleCollationVersion,
                      "Requested collation version " + *requested.version +
                          " but the only available collator version was " +
                          std::string(CS::kVersion) +
                          ". Requested collation spec: " + spec.toString());

    auto coll = openCollator(locale, spec);
    if (!coll.isOK())
        return coll.getStatus();
    if (Status s = applyAttributes(coll.getValue().get(), requested); !s.isOK())
        return s;
    BSONObj full = fullSpec(locale, coll.getValue().get());
    if (Status s = validateCombination(full, spec); !s.isOK())
        return s;
    return std::unique_ptr<CollatorInterface>(
        std::make_unique<CollatorICU>(std::move(full), std::move(coll.getValue())));
}

StatusWith<std::unique_ptr<CollatorInterface>> makeCollatorFromElement(const BSONElement& e) {
    if (e.type() != BSONType::kObject)
        return Status(ErrorCodes::TypeMismatch, std::string("collation must be an object, found ") +
                                                    std::string(typeName(e.type())));
    return makeCollator(e.embeddedObject());
}

}  // namespace mongo
