#include "mongo/db/ops/write_error.h"

#include <gtest/gtest.h>

namespace mongo {
namespace {

void failOn(size_t i, size_t bad) {
    if (i == bad)
        uasserted(ErrorCodes::BadValue, "bad statement");
}

TEST(RunStatements, OrderedStopsAtTheFirstFailure) {
    std::vector<WriteError> errors;
    std::vector<size_t> ran;
    runStatements(
        4, true, &errors, [](size_t) { return true; },
        [&](size_t i) {
            ran.push_back(i);
            failOn(i, 1);
        });
    EXPECT_EQ((std::vector<size_t>{0, 1}), ran);
    ASSERT_EQ(1u, errors.size());
    EXPECT_EQ(1, errors[0].index);
    EXPECT_EQ(ErrorCodes::BadValue, errors[0].status.code());
}

TEST(RunStatements, UnorderedRunsEveryStatementAndCollectsEachError) {
    std::vector<WriteError> errors;
    size_t ran = 0;
    runStatements(
        4, false, &errors, [](size_t) { return true; },
        [&](size_t i) {
            ++ran;
            if (i % 2 == 1)
                uasserted(ErrorCodes::DuplicateKey, "dup");
        });
    EXPECT_EQ(4u, ran);
    ASSERT_EQ(2u, errors.size());
    EXPECT_EQ(1, errors[0].index);
    EXPECT_EQ(3, errors[1].index);
}

TEST(RunStatements, BeforeSkipsAStatementAndItsErrorsFailTheWholeCommand) {
    std::vector<WriteError> errors;
    std::vector<size_t> ran;
    runStatements(
        3, true, &errors, [](size_t i) { return i != 1; }, [&](size_t i) { ran.push_back(i); });
    EXPECT_EQ((std::vector<size_t>{0, 2}), ran);
    EXPECT_TRUE(errors.empty());
    EXPECT_THROW(runStatements(
                     2, false, &errors, [](size_t i) -> bool { uasserted(40637, "mismatch"); },
                     [](size_t) {}),
                 DBException);
    EXPECT_TRUE(errors.empty());
}

TEST(AppendWriteErrors, WritesIndexCodeAndMessageOnlyWhenThereAreErrors) {
    BSONObjBuilder none;
    appendWriteErrors({}, none);
    EXPECT_TRUE(none.obj().isEmpty());
    BSONObjBuilder b;
    appendWriteErrors({WriteError{2, Status(ErrorCodes::BadValue, "no"), nullptr}}, b);
    BSONObj reply = b.obj();
    BSONObj e = reply["writeErrors"].Obj().firstElement().Obj();
    EXPECT_EQ(2, e["index"].numberInt());
    EXPECT_EQ(ErrorCodes::BadValue, e["code"].numberInt());
    EXPECT_EQ("no", e["errmsg"].str());
}

}  // namespace
}  // namespace mongo
