// Field names and fixed values of a collation document (the `collation` option of
// commands, collections, views and indexes). README.md in this folder describes
// the fields, their defaults and the validation rules.
#pragma once

#include "mongo/base/string_data.h"

namespace mongo {

struct CollationSpec {
    static constexpr StringData kLocaleField = "locale";
    static constexpr StringData kCaseLevelField = "caseLevel";
    static constexpr StringData kCaseFirstField = "caseFirst";
    static constexpr StringData kStrengthField = "strength";
    static constexpr StringData kNumericOrderingField = "numericOrdering";
    static constexpr StringData kAlternateField = "alternate";
    static constexpr StringData kMaxVariableField = "maxVariable";
    static constexpr StringData kNormalizationField = "normalization";
    static constexpr StringData kBackwardsField = "backwards";
    static constexpr StringData kVersionField = "version";

    /** {locale: "simple"} is the simple binary collation (a null collator). */
    static constexpr StringData kSimpleBinaryComparison = "simple";

    /** The one collator version this server offers (upstream's ICU version). */
    static constexpr StringData kVersion = "57.1";

    // String values of caseFirst, alternate and maxVariable.
    static constexpr StringData kCaseFirstUpper = "upper";
    static constexpr StringData kCaseFirstLower = "lower";
    static constexpr StringData kCaseFirstOff = "off";
    static constexpr StringData kAlternateNonIgnorable = "non-ignorable";
    static constexpr StringData kAlternateShifted = "shifted";
    static constexpr StringData kMaxVariablePunct = "punct";
    static constexpr StringData kMaxVariableSpace = "space";
};

}  // namespace mongo
