// Tests of generated command parsers (namespaces, $db, generic arguments) over the
// test-only idl/unittest.idl.
#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/idl/unittest_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

using idl::test::TestFindCommand;
using idl::test::TestGetMoreCommand;
using idl::test::TestHelloCommand;

template <typename Cmd>
ErrorCodes::Error parseCode(const BSONObj& obj) {
    auto sw = Cmd::parseNoThrow(obj);
    return sw.isOK() ? ErrorCodes::OK : sw.getStatus().code();
}

TEST(IDLCommand, ConcatenateWithDbGivesNamespace) {
    auto cmd = TestFindCommand::parse(BSON("testFind"
                                           << "coll"
                                           << "filter" << BSON("a" << 1) << "$db"
                                           << "test"));
    EXPECT_EQ(cmd.getDbName(), "test");
    EXPECT_EQ(cmd.getCollectionName(), "coll");
    EXPECT_EQ(cmd.getNamespace(), "test.coll");
    EXPECT_EQ(cmd.getFilter()->nFields(), 1);
}

TEST(IDLCommand, NonStringCollectionNameIsInvalidNamespace) {
    EXPECT_EQ(parseCode<TestFindCommand>(BSON("testFind" << 1 << "$db"
                                                         << "test")),
              ErrorCodes::InvalidNamespace);
    EXPECT_EQ(parseCode<TestFindCommand>(BSON("testFind"
                                              << ""
                                              << "$db"
                                              << "test")),
              ErrorCodes::InvalidNamespace);
}

TEST(IDLCommand, MissingDbIsIDLFailedToParse) {
    auto sw = TestFindCommand::parseNoThrow(BSON("testFind"
                                                 << "c"));
    EXPECT_EQ(sw.getStatus().code(), ErrorCodes::IDLFailedToParse);
    EXPECT_EQ(sw.getStatus().reason(), "BSON field 'testFind.$db' is missing but a required field");
}

TEST(IDLCommand, UnknownFieldIsIDLUnknownField) {
    auto sw = TestFindCommand::parseNoThrow(BSON("testFind"
                                                 << "c"
                                                 << "bogus" << 1 << "$db"
                                                 << "d"));
    EXPECT_EQ(sw.getStatus().code(), ErrorCodes::IDLUnknownField);
    EXPECT_EQ(sw.getStatus().reason(), "BSON field 'testFind.bogus' is an unknown field.");
}

TEST(IDLCommand, GenericArgumentsAreAcceptedAndExposed) {
    auto cmd =
        TestFindCommand::parse(BSON("testFind"
                                    << "c"
                                    << "lsid" << BSON("id" << 1) << "writeConcern" << BSON("w" << 1)
                                    << "maxTimeMS" << 50 << "$readPreference"
                                    << BSON("mode"
                                            << "primary")
                                    << "apiVersion"
                                    << "1"
                                    << "comment"
                                    << "mine"
                                    << "$db"
                                    << "d"));
    EXPECT_EQ(cmd.getWriteConcern()->getField("w").numberInt(), 1);
    EXPECT_EQ(*cmd.getMaxTimeMS(), 50);
    EXPECT_EQ(cmd.getLsid()->nFields(), 1);
    EXPECT_EQ(*cmd.getApiVersion(), "1");
    EXPECT_FALSE(cmd.getReadConcern().has_value());
    // The command's own `comment` field shadows the generic one.
    EXPECT_EQ(*cmd.getComment(), "mine");
    EXPECT_FALSE(cmd.getGenericArguments().getComment().has_value());
}

TEST(IDLCommand, GenericArgumentTypesAreChecked) {
    EXPECT_EQ(parseCode<TestFindCommand>(BSON("testFind"
                                              << "c"
                                              << "maxTimeMS"
                                              << "x"
                                              << "$db"
                                              << "d")),
              ErrorCodes::TypeMismatch);
    EXPECT_EQ(parseCode<TestFindCommand>(BSON("testFind"
                                              << "c"
                                              << "maxTimeMS" << -1 << "$db"
                                              << "d")),
              ErrorCodes::BadValue);
    EXPECT_EQ(parseCode<TestFindCommand>(BSON("testFind"
                                              << "c"
                                              << "lsid" << BSON("id" << 1) << "lsid"
                                              << BSON("id" << 1) << "$db"
                                              << "d")),
              ErrorCodes::IDLDuplicateField);
}

TEST(IDLCommand, FieldValidatorNamesTheCommand) {
    auto sw = TestFindCommand::parseNoThrow(BSON("testFind"
                                                 << "c"
                                                 << "limit" << -1 << "$db"
                                                 << "d"));
    EXPECT_EQ(sw.getStatus().code(), ErrorCodes::BadValue);
    auto sw2 = TestFindCommand::parseNoThrow(BSON("testFind"
                                                  << "c"
                                                  << "limit"
                                                  << "x"
                                                  << "$db"
                                                  << "d"));
    EXPECT_EQ(sw2.getStatus().reason(),
              "BSON field 'testFind.limit' is the wrong type 'string', expected types "
              "'[long, int, decimal, double]'");
}

TEST(IDLCommand, TypedCommandParameter) {
    auto cmd = TestGetMoreCommand::parse(BSON("testGetMore" << 123LL << "collection"
                                                            << "c"
                                                            << "$db"
                                                            << "d"));
    EXPECT_EQ(cmd.getCommandParameter(), 123);
    EXPECT_EQ(cmd.getCollection(), "c");
    EXPECT_EQ(parseCode<TestGetMoreCommand>(BSON("testGetMore"
                                                 << "x"
                                                 << "collection"
                                                 << "c"
                                                 << "$db"
                                                 << "d")),
              ErrorCodes::TypeMismatch);
    EXPECT_EQ(parseCode<TestGetMoreCommand>(BSON("testGetMore" << 1LL << "$db"
                                                               << "d")),
              ErrorCodes::IDLFailedToParse);
}

TEST(IDLCommand, IgnoredNamespaceAcceptsAnyFirstValue) {
    auto cmd = TestHelloCommand::parse(BSON("testHello" << 1.0 << "helloOk" << true << "$db"
                                                        << "admin"));
    EXPECT_TRUE(*cmd.getHelloOk());
    EXPECT_EQ(cmd.getDbName(), "admin");
}

TEST(IDLCommand, SerializeRoundTrips) {
    BSONObj in = BSON("testFind"
                      << "c"
                      << "filter" << BSON("a" << 1) << "limit" << 3LL << "writeConcern"
                      << BSON("w"
                              << "majority")
                      << "$db"
                      << "d");
    auto cmd = TestFindCommand::parse(in);
    BSONObj out = cmd.toBSON();
    EXPECT_TRUE(out.binaryEqual(in)) << out.toString();
}

}  // namespace
}  // namespace mongo
