// Keys of "hashed" index fields: digests equal for equal values, stable on disk, arrays refused.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/catalog/index_key_generator.h"

namespace mongo {
namespace {

long long digest(const BSONObj& holder) {
    return hashIndexValue(holder.firstElement());
}

TEST(HashedIndexKeys, NumbersThatCompareEqualShareADigest) {
    const long long two = digest(BSON("" << 2));
    EXPECT_EQ(two, digest(BSON("" << 2LL)));
    EXPECT_EQ(two, digest(BSON("" << 2.0)));
    EXPECT_EQ(two, digest(fromjson(R"({"": {"$numberDecimal": "2"}})")));
    EXPECT_NE(two, digest(BSON("" << 3)));
}

TEST(HashedIndexKeys, FractionsAreTruncatedBeforeHashing) {
    EXPECT_EQ(digest(BSON("" << 2)), digest(BSON("" << 2.7)));
    EXPECT_EQ(digest(BSON("" << -2)), digest(BSON("" << -2.7)));
    EXPECT_EQ(digest(BSON("" << std::numeric_limits<long long>::max())), digest(BSON("" << 1e300)));
    EXPECT_EQ(digest(BSON("" << std::nan(""))), digest(BSON("" << -std::nan(""))));
}

TEST(HashedIndexKeys, TypesAndStructureAreDistinguished) {
    EXPECT_NE(digest(BSON(""
                          << "1")),
              digest(BSON("" << 1)));
    EXPECT_NE(digest(BSON("" << BSONNULL)), digest(BSON("" << 0)));
    EXPECT_NE(digest(BSON("" << BSON("a" << 1))), digest(BSON("" << BSON("b" << 1))));
    EXPECT_NE(digest(BSON("" << BSON("a" << 1 << "b" << 2))),
              digest(BSON("" << BSON("b" << 2 << "a" << 1))));
    EXPECT_NE(digest(BSON(""
                          << "ab")),
              digest(BSON(""
                          << "a")));
}

TEST(HashedIndexKeys, DigestsAreStableAcrossVersions) {
    // Stored in index tables: a change here would corrupt every existing hashed index.
    EXPECT_EQ(digest(BSON("" << 1)), -7815874946215077671LL);
    EXPECT_EQ(digest(BSON(""
                          << "hello")),
              5062913053664567263LL);
}

TEST(HashedIndexKeys, ArraysAreRefusedAndMissingIsNull) {
    IndexKeys keys;
    Status s = getIndexKeys(BSON("a"
                                 << "hashed"),
                            fromjson(R"({"a": [1, 2]})"), false, &keys);
    EXPECT_EQ(s.code(), 16766);
    s = getIndexKeys(BSON("a.b"
                          << "hashed"),
                     fromjson(R"({"a": [{"b": 1}]})"), false, &keys);
    EXPECT_EQ(s.code(), 16766);
    ASSERT_TRUE(getIndexKeys(BSON("a"
                                  << "hashed"),
                             fromjson(R"({"b": 1})"), false, &keys)
                    .isOK());
    ASSERT_EQ(keys.keys.size(), 1u);
    EXPECT_EQ(keys.keys[0].firstElement().numberLong(), digest(BSON("" << BSONNULL)));
    IndexKeys sparse;
    ASSERT_TRUE(getIndexKeys(BSON("a"
                                  << "hashed"),
                             fromjson(R"({"b": 1})"), true, &sparse)
                    .isOK());
    EXPECT_TRUE(sparse.keys.empty());
}

TEST(HashedIndexKeys, CompoundKeyHoldsTheDigestInItsPlace) {
    IndexKeys keys;
    ASSERT_TRUE(getIndexKeys(fromjson(R"({"x": 1, "a": "hashed"})"),
                             fromjson(R"({"x": [5, 6], "a": 7})"), false, &keys)
                    .isOK());
    ASSERT_EQ(keys.keys.size(), 2u);
    EXPECT_TRUE(keys.multikey);
    for (const auto& k : keys.keys) {
        std::vector<BSONElement> parts;
        for (auto e : k)
            parts.push_back(e);
        ASSERT_EQ(parts.size(), 2u);
        EXPECT_EQ(parts[1].numberLong(), digest(BSON("" << 7)));
    }
}

}  // namespace
}  // namespace mongo
