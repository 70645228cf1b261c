#include "mongo/db/query/collation/collator_interface_mock.h"

#include <algorithm>
#include <cctype>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {

namespace {
const char* mockLocale(CollatorInterfaceMock::MockType t) {
    switch (t) {
        case CollatorInterfaceMock::MockType::kReverseString:
            return "mock_reverse_string";
        case CollatorInterfaceMock::MockType::kAlwaysEqual:
            return "mock_always_equal";
        case CollatorInterfaceMock::MockType::kToLowerString:
            return "mock_to_lower_string";
    }
    return "mock";
}
}  // namespace

CollatorInterfaceMock::CollatorInterfaceMock(MockType type)
    : CollatorInterface(BSON("locale" << mockLocale(type) << "version"
                                      << "mock_version")),
      _type(type) {}

int CollatorInterfaceMock::compare(StringData l, StringData r) const {
    std::string lk = comparisonKey(l), rk = comparisonKey(r);
    int c = lk.compare(rk);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

void CollatorInterfaceMock::appendComparisonKey(StringData s, std::string* out) const {
    switch (_type) {
        case MockType::kReverseString:
            out->append(s.rbegin(), s.rend());
            return;
        case MockType::kAlwaysEqual:
            return;
        case MockType::kToLowerString:
            for (char c : s)
                out->push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
            return;
    }
}

std::unique_ptr<CollatorInterface> CollatorInterfaceMock::clone() const {
    return std::make_unique<CollatorInterfaceMock>(_type);
}

}  // namespace mongo
