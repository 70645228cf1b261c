// Test collators with predictable orders (used by unit tests that need a
// collation without depending on ICU's tables).
#pragma once

#include "mongo/db/query/collation/collator_interface.h"

namespace mongo {

class CollatorInterfaceMock : public CollatorInterface {
public:
    enum class MockType {
        kReverseString,  // compares the reversed strings
        kAlwaysEqual,    // every string equals every other
        kToLowerString,  // compares the ASCII-lower-cased strings
    };

    explicit CollatorInterfaceMock(MockType type);

    int compare(StringData l, StringData r) const override;
    void appendComparisonKey(StringData s, std::string* out) const override;
    std::unique_ptr<CollatorInterface> clone() const override;

private:
    MockType _type;
};

}  // namespace mongo
