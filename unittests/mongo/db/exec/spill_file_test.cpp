#include "mongo/db/exec/spill_file.h"

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

TEST(SpillFile, RecordsReadBackAtTheirOffsetsAndInOrder) {
    SpillFile f;
    std::vector<std::int64_t> at;
    for (int i = 0; i < 50; ++i)
        at.push_back(f.append(i, BSON("k" << i), BSON("s" << std::string(i * 10, 'x'))));
    auto r = f.readAt(at[17]);
    EXPECT_EQ(17, r.tag);
    EXPECT_EQ(17, r.a["k"].numberInt());
    EXPECT_EQ(170u, r.b["s"].str().size());
    f.rewind();
    int n = 0;
    while (auto next = f.readNext()) {
        EXPECT_EQ(n, next->tag);
        EXPECT_EQ(n, next->a["k"].numberInt());
        ++n;
    }
    EXPECT_EQ(50, n);
}

TEST(SpillFile, TruncateStartsOver) {
    SpillFile f;
    f.append(1, BSON("a" << 1), BSONObj());
    EXPECT_GT(f.size(), 0);
    f.truncate();
    EXPECT_EQ(0, f.size());
    EXPECT_EQ(0, f.append(2, BSON("b" << 2), BSONObj()));
    EXPECT_EQ(2, f.readAt(0).a["b"].numberInt());
}

TEST(SpillFile, AnOffsetOutsideTheFileIsAnError) {
    SpillFile f;
    f.append(1, BSON("a" << 1), BSONObj());
    EXPECT_THROW(f.readAt(f.size()), DBException);
    EXPECT_THROW(f.readAt(-1), DBException);
    EXPECT_THROW(f.readAt(3), DBException);  // not a record boundary: sizes do not fit
}

}  // namespace
}  // namespace mongo
