// $bitsAllSet, $bitsAllClear, $bitsAnySet, $bitsAnyClear: bit tests on integral numbers (two's
// complement, sign-extended past bit 63) and on BinData bytes (bit 8*i+j is bit j of byte i).
// Other values, and numbers that are not integers representable in 64 bits, never match.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/db/matcher/expression.h"

namespace mongo {

class BitTestMatchExpression final : public PathMatchExpression {
public:
    /** `type` is one of kBitsAllSet, kBitsAllClear, kBitsAnySet, kBitsAnyClear. */
    BitTestMatchExpression(MatchType type, StringData path, std::vector<std::uint32_t> positions);
    bool matchesSingleElement(const BSONElement& e, MatchDetails* details) const override;
    /** {path: {$bitsXxx: [positions...]}} */
    void serialize(BSONObjBuilder* out) const override;

private:
    std::vector<std::uint32_t> _positions;
};

/** True for "$bitsAllSet", "$bitsAllClear", "$bitsAnySet", "$bitsAnyClear". */
bool isBitTestOperator(StringData name);

/**
 * Parses `{<op>: arg}` on `path`; `arg` is a bitmask (a non-negative integral number that fits
 * a long), an array of bit positions (non-negative integers that fit an int) or a BinData.
 * Errors: BadValue for anything else.
 */
StatusWith<std::unique_ptr<MatchExpression>> parseBitTest(StringData path, const BSONElement& op);

}  // namespace mongo
