#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/repl/op_observer_impl.h"
#include "mongo/db/repl/oplog.h"
#include "mongo/db/update/document_diff.h"

namespace mongo {
namespace repl {
namespace {

TEST(OplogEntry, UpdateEntryHasUpstreamFieldOrderAndTypes) {
    OplogEntryParams p;
    p.opType = 'u';
    p.ns = "test.c";
    p.uuid = std::string(16, '\x01');
    p.o = doc_diff::makeUpdateOplogObject(BSON("u" << BSON("a" << 2)));
    p.o2 = BSON("_id" << 7);
    OpTime t{Timestamp(100, 3), 1};
    BSONObj e = makeOplogEntry(p, t, Date_t::fromMillisSinceEpoch(100000));
    std::vector<std::string> names;
    for (auto el : e)
        names.push_back(el.fieldName());
    EXPECT_EQ(names,
              (std::vector<std::string>{"op", "ns", "ui", "o", "o2", "ts", "t", "v", "wall"}));
    EXPECT_EQ(e["op"].str(), "u");
    EXPECT_EQ(e["ui"].type(), BSONType::kBinData);
    EXPECT_EQ(e["ui"].binDataType(), newUUID);
    EXPECT_EQ(e["o"].Obj()["$v"].numberInt(), 2);
    EXPECT_EQ(e["ts"].timestamp(), Timestamp(100, 3));
    EXPECT_EQ(e["t"].type(), BSONType::kNumberLong);
    EXPECT_EQ(e["v"].type(), BSONType::kNumberLong);
    EXPECT_EQ(e["v"].numberLong(), 2);
    EXPECT_EQ(e["wall"].type(), BSONType::kDate);
}

TEST(OplogEntry, NoopEntryHasNoUuidNorO2) {
    OplogEntryParams p;
    p.o = BSON("msg"
               << "initiating set");
    BSONObj e = makeOplogEntry(p, OpTime{Timestamp(1, 1), -1}, Date_t::now());
    EXPECT_EQ(e["op"].str(), "n");
    EXPECT_TRUE(e["ui"].eoo());
    EXPECT_TRUE(e["o2"].eoo());
    EXPECT_EQ(e["ns"].str(), "");
}

TEST(OplogEntry, LocalDatabaseAndProfileAreNotReplicated) {
    EXPECT_FALSE(isReplicatedNamespace(NamespaceString("local", "oplog.rs")));
    EXPECT_FALSE(isReplicatedNamespace(NamespaceString("test", "system.profile")));
    EXPECT_TRUE(isReplicatedNamespace(NamespaceString("test", "c")));
    EXPECT_TRUE(isReplicatedNamespace(NamespaceString("test", "system.buckets.ts")));
}

TEST(OplogSize, DefaultIsBetween990MBAnd50GB) {
    long long n = defaultOplogSizeBytes("/tmp");
    EXPECT_GE(n, 990LL * 1024 * 1024);
    EXPECT_LE(n, 50LL * 1024 * 1024 * 1024);
}

TEST(OpTime, OrdersByTimestampThenTerm) {
    EXPECT_LT((OpTime{Timestamp(1, 2), 1}), (OpTime{Timestamp(1, 3), 0}));
    EXPECT_LT((OpTime{Timestamp(1, 2), 1}), (OpTime{Timestamp(1, 2), 2}));
    EXPECT_EQ((OpTime{Timestamp(5, 1), 1}).toBSON()["t"].numberLong(), 1);
}

}  // namespace
}  // namespace repl
}  // namespace mongo
