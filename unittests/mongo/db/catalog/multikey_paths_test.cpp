// Multikey paths: what the key generator reports per key field, their catalog layout (one
// byte per path component) and explain's form.
#include "mongo/db/catalog/multikey_paths.h"

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"

namespace mongo {
namespace {

MultikeyPaths pathsOf(const char* keyPattern, const char* doc) {
    IndexKeys keys;
    Status s = getIndexKeys(fromjson(keyPattern), fromjson(doc), false, &keys);
    EXPECT_TRUE(s.isOK()) << s;
    return keys.multikeyPaths;
}

TEST(MultikeyPaths, KeyGeneratorReportsArrayComponents) {
    const char* kp = R"({"a.b.c": 1, "d": 1})";
    EXPECT_EQ(pathsOf(kp, R"({"a": {"b": {"c": 1}}, "d": 1})"), (MultikeyPaths{{}, {}}));
    EXPECT_EQ(pathsOf(kp, R"({"a": [{"b": {"c": 1}}], "d": 1})"), (MultikeyPaths{{0}, {}}));
    EXPECT_EQ(pathsOf(kp, R"({"a": {"b": [{"c": [1, 2]}]}, "d": 1})"), (MultikeyPaths{{1, 2}, {}}));
    EXPECT_EQ(pathsOf(kp, R"({"a": {"b": {"c": []}}, "d": 3})"), (MultikeyPaths{{2}, {}}));
    EXPECT_EQ(pathsOf(kp, R"({"a": {"b": {"c": 1}}, "d": [3]})"), (MultikeyPaths{{}, {0}}));
    // A positional component reads one element: not multikey through it.
    EXPECT_EQ(pathsOf(R"({"a.0.b": 1})", R"({"a": [{"b": 1}, {"b": 2}]})"), (MultikeyPaths{{}}));
}

TEST(MultikeyPaths, GeoFieldIsMultikeyWhenCoveredBySeveralCells) {
    const char* kp = R"({"g.loc": "2dsphere"})";
    EXPECT_EQ(pathsOf(kp, R"({"g": {"loc": {"type": "Point", "coordinates": [1, 2]}}})"),
              (MultikeyPaths{{}}));
    EXPECT_EQ(pathsOf(kp, R"({"g": {"loc": [1, 2]}})"), (MultikeyPaths{{}}));  // a legacy point
    EXPECT_EQ(pathsOf(kp, R"({"g": [{"loc": [1, 2]}, {"loc": [3, 4]}]})"), (MultikeyPaths{{0, 1}}));
}

TEST(MultikeyPaths, CatalogLayoutRoundTrips) {
    BSONObj kp = fromjson(R"({"a.b": 1, "c": -1})");
    MultikeyPaths paths{{1}, {}};
    BSONObj stored = multikeyPathsToCatalog(kp, paths);
    int len = 0;
    const char* bytes = stored["a.b"].binData(len);
    ASSERT_EQ(len, 2);
    EXPECT_EQ(bytes[0], 0);
    EXPECT_EQ(bytes[1], 1);
    EXPECT_EQ(stored["c"].binDataType(), BinDataGeneral);
    EXPECT_EQ(multikeyPathsFromCatalog(kp, stored), paths);
    EXPECT_EQ(multikeyPathsFromCatalog(kp, BSONObj()), (MultikeyPaths{{}, {}}));
}

TEST(MultikeyPaths, ExplainListsPrefixes) {
    BSONObj kp = fromjson(R"({"a.b.c": 1, "d": 1})");
    EXPECT_EQ(multikeyPathsForExplain(kp, MultikeyPaths{{0, 2}, {}}).toString(),
              fromjson(R"({"a.b.c": ["a", "a.b.c"], "d": []})").toString());
}

TEST(MultikeyPaths, MergeReportsNewComponents) {
    MultikeyPaths paths;
    EXPECT_TRUE(mergeMultikeyPaths(&paths, MultikeyPaths{{1}, {}}));
    EXPECT_FALSE(mergeMultikeyPaths(&paths, MultikeyPaths{{1}, {}}));
    EXPECT_TRUE(mergeMultikeyPaths(&paths, MultikeyPaths{{0}, {}}));
    EXPECT_EQ(paths, (MultikeyPaths{{0, 1}, {}}));
}

TEST(MultikeyPaths, KindsWithoutPaths) {
    EXPECT_TRUE(indexTracksMultikeyPaths(fromjson(R"({"a": 1, "b": "hashed"})")));
    EXPECT_TRUE(indexTracksMultikeyPaths(fromjson(R"({"a": "2dsphere"})")));
    EXPECT_FALSE(indexTracksMultikeyPaths(fromjson(R"({"a": "2d"})")));
    EXPECT_FALSE(indexTracksMultikeyPaths(fromjson(R"({"$**": 1})")));
    EXPECT_FALSE(indexTracksMultikeyPaths(fromjson(R"({"a.$**": 1})")));
}

}  // namespace
}  // namespace mongo
