#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/update/document_diff.h"
#include "mongo/db/update/update_driver.h"

namespace mongo {
namespace {

StatusWith<UpdateResult> run(StringData update, StringData doc, UpdateApplyParams p = {},
                             std::vector<BSONObj> filters = {}) {
    auto d = UpdateDriver::parse(fromjson(update), filters);
    if (!d.isOK())
        return d.getStatus();
    return d.getValue().apply(fromjson(doc), p);
}

std::string applied(StringData update, StringData doc, UpdateApplyParams p = {},
                    std::vector<BSONObj> filters = {}) {
    auto r = run(update, doc, p, filters);
    EXPECT_TRUE(r.isOK()) << r.getStatus() << " for " << update;
    return r.isOK() ? r.getValue().newDoc.toString() : "<error>";
}

int errCode(StringData update, StringData doc, std::vector<BSONObj> filters = {}) {
    auto r = run(update, doc, {}, filters);
    return r.isOK() ? 0 : static_cast<int>(r.getStatus().code());
}

TEST(UpdateDriver, SetCreatesPathsAndOrdersNewFieldsByName) {
    EXPECT_EQ(applied(R"({"$set": {"b": 1, "a": 2}})", R"({"_id": 1})"), "{ _id: 1, a: 2, b: 1 }");
    EXPECT_EQ(applied(R"({"$set": {"x.y.z": 1}})", R"({"_id": 1})"),
              "{ _id: 1, x: { y: { z: 1 } } }");
    EXPECT_EQ(applied(R"({"$set": {"a.2": 5}})", R"({"_id": 1, "a": [1]})"),
              "{ _id: 1, a: [ 1, null, 5 ] }");
    EXPECT_EQ(applied(R"({"$set": {"a": 5}})", R"({"_id": 1, "a": 1, "b": 2})"),
              "{ _id: 1, a: 5, b: 2 }");
    EXPECT_EQ(errCode(R"({"$set": {"a.b": 1}})", R"({"_id": 1, "a": 5})"),
              ErrorCodes::PathNotViable);
    EXPECT_EQ(errCode(R"({"$set": {"a.b": 1}})", R"({"_id": 1, "a": [1]})"),
              ErrorCodes::PathNotViable);
}

TEST(UpdateDriver, UnsetRemovesFieldsAndNullsArrayElements) {
    EXPECT_EQ(applied(R"({"$unset": {"a": ""}})", R"({"_id": 1, "a": 1, "b": 2})"),
              "{ _id: 1, b: 2 }");
    EXPECT_EQ(applied(R"({"$unset": {"a.1": ""}})", R"({"_id": 1, "a": [1, 2, 3]})"),
              "{ _id: 1, a: [ 1, null, 3 ] }");
    auto r = run(R"({"$unset": {"zz": ""}})", R"({"_id": 1})");
    ASSERT_TRUE(r.isOK());
    EXPECT_FALSE(r.getValue().changed);
}

TEST(UpdateDriver, IncAndMulArithmetic) {
    EXPECT_EQ(applied(R"({"$inc": {"a": 2}})", R"({"_id": 1, "a": 1})"), "{ _id: 1, a: 3 }");
    EXPECT_EQ(applied(R"({"$inc": {"a": 2}})", R"({"_id": 1})"), "{ _id: 1, a: 2 }");
    EXPECT_EQ(applied(R"({"$inc": {"a": 0.5}})", R"({"_id": 1, "a": 1})"), "{ _id: 1, a: 1.5 }");
    EXPECT_EQ(applied(R"({"$inc": {"a": 1}})", R"({"_id": 1, "a": 2147483647})"),
              "{ _id: 1, a: 2147483648 }");
    EXPECT_EQ(applied(R"({"$mul": {"a": 3}})", R"({"_id": 1, "a": 2})"), "{ _id: 1, a: 6 }");
    EXPECT_EQ(applied(R"({"$mul": {"a": 3}})", R"({"_id": 1})"), "{ _id: 1, a: 0 }");
    auto r = run(R"({"$inc": {"a": 1}})", R"({"_id": 1, "a": "x"})");
    EXPECT_EQ(r.getStatus().code(), ErrorCodes::TypeMismatch);
    EXPECT_EQ(r.getStatus().reason(),
              "Cannot apply $inc to a value of non-numeric type. {_id: 1} has the field 'a' of "
              "non-numeric type string");
    EXPECT_EQ(errCode(R"({"$inc": {"a": "x"}})", R"({"_id": 1})"), ErrorCodes::TypeMismatch);
    EXPECT_EQ(errCode(R"({"$inc": {"a": 1}})",
                      R"({"_id": 1, "a": {"$numberLong": "9223372036854775807"}})"),
              ErrorCodes::BadValue);
}

TEST(UpdateDriver, MinMaxRenameCurrentDateBit) {
    EXPECT_EQ(applied(R"({"$min": {"a": 1}})", R"({"_id": 1, "a": 3})"), "{ _id: 1, a: 1 }");
    EXPECT_EQ(applied(R"({"$min": {"a": 5}})", R"({"_id": 1, "a": 3})"), "{ _id: 1, a: 3 }");
    EXPECT_EQ(applied(R"({"$max": {"a": 5}})", R"({"_id": 1, "a": 3})"), "{ _id: 1, a: 5 }");
    EXPECT_EQ(applied(R"({"$rename": {"a": "c"}})", R"({"_id": 1, "a": 1, "b": 2})"),
              "{ _id: 1, b: 2, c: 1 }");
    EXPECT_EQ(applied(R"({"$rename": {"a": "b.c"}})", R"({"_id": 1, "a": 1})"),
              "{ _id: 1, b: { c: 1 } }");
    EXPECT_EQ(errCode(R"({"$rename": {"a": "a.b"}})", R"({"_id": 1})"), ErrorCodes::BadValue);
    EXPECT_EQ(errCode(R"({"$rename": {"a": 1}})", R"({"_id": 1})"), ErrorCodes::BadValue);
    auto r = run(R"({"$currentDate": {"d": true, "t": {"$type": "timestamp"}}})", R"({"_id": 1})");
    ASSERT_TRUE(r.isOK());
    EXPECT_EQ(r.getValue().newDoc["d"].type(), BSONType::kDate);
    EXPECT_EQ(r.getValue().newDoc["t"].type(), BSONType::kTimestamp);
    EXPECT_EQ(applied(R"({"$bit": {"a": {"and": 6, "or": 1}}})", R"({"_id": 1, "a": 12})"),
              "{ _id: 1, a: 5 }");
    EXPECT_EQ(errCode(R"({"$bit": {"a": {"nand": 1}}})", R"({"_id": 1})"), ErrorCodes::BadValue);
}

TEST(UpdateDriver, PushWithModifiers) {
    EXPECT_EQ(applied(R"({"$push": {"a": 3}})", R"({"_id": 1, "a": [1]})"),
              "{ _id: 1, a: [ 1, 3 ] }");
    EXPECT_EQ(applied(R"({"$push": {"a": 3}})", R"({"_id": 1})"), "{ _id: 1, a: [ 3 ] }");
    EXPECT_EQ(applied(R"({"$push": {"a": {"$each": [5, 2, 4], "$sort": 1, "$slice": 3}}})",
                      R"({"_id": 1, "a": [3, 1]})"),
              "{ _id: 1, a: [ 1, 2, 3 ] }");
    EXPECT_EQ(applied(R"({"$push": {"a": {"$each": [9], "$position": 0}}})",
                      R"({"_id": 1, "a": [1, 2]})"),
              "{ _id: 1, a: [ 9, 1, 2 ] }");
    EXPECT_EQ(applied(R"({"$push": {"a": {"$each": [{"s": 1}], "$sort": {"s": -1}}}})",
                      R"({"_id": 1, "a": [{"s": 3}, {"s": 0}]})"),
              "{ _id: 1, a: [ { s: 3 }, { s: 1 }, { s: 0 } ] }");
    EXPECT_EQ(applied(R"({"$push": {"a": {"$each": [4], "$slice": -2}}})",
                      R"({"_id": 1, "a": [1, 2, 3]})"),
              "{ _id: 1, a: [ 3, 4 ] }");
    EXPECT_EQ(errCode(R"({"$push": {"a": 1}})", R"({"_id": 1, "a": 1})"), ErrorCodes::BadValue);
    EXPECT_EQ(errCode(R"({"$push": {"a": {"$each": 1}}})", R"({"_id": 1})"), ErrorCodes::BadValue);
    EXPECT_EQ(errCode(R"({"$push": {"a": {"$each": [1], "$foo": 1}}})", R"({"_id": 1})"),
              ErrorCodes::BadValue);
}

TEST(UpdateDriver, AddToSetPopPullPullAll) {
    EXPECT_EQ(
        applied(R"({"$addToSet": {"a": {"$each": [1, 4, 4]}}})", R"({"_id": 1, "a": [1, 2]})"),
        "{ _id: 1, a: [ 1, 2, 4 ] }");
    EXPECT_EQ(applied(R"({"$pop": {"a": 1}})", R"({"_id": 1, "a": [1, 2]})"),
              "{ _id: 1, a: [ 1 ] }");
    EXPECT_EQ(applied(R"({"$pop": {"a": -1}})", R"({"_id": 1, "a": [1, 2]})"),
              "{ _id: 1, a: [ 2 ] }");
    EXPECT_EQ(errCode(R"({"$pop": {"a": 2}})", R"({"_id": 1})"), ErrorCodes::FailedToParse);
    EXPECT_EQ(errCode(R"({"$pop": {"a": 1}})", R"({"_id": 1, "a": 1})"), ErrorCodes::TypeMismatch);
    EXPECT_EQ(applied(R"({"$pull": {"a": {"$gte": 3}}})", R"({"_id": 1, "a": [1, 5, 3, 2]})"),
              "{ _id: 1, a: [ 1, 2 ] }");
    EXPECT_EQ(applied(R"({"$pull": {"a": 2}})", R"({"_id": 1, "a": [2, 1, 2]})"),
              "{ _id: 1, a: [ 1 ] }");
    EXPECT_EQ(applied(R"({"$pull": {"a": {"x": 1}}})",
                      R"({"_id": 1, "a": [{"x": 1, "y": 2}, {"x": 2}]})"),
              "{ _id: 1, a: [ { x: 2 } ] }");
    EXPECT_EQ(applied(R"({"$pullAll": {"a": [1, 3]}})", R"({"_id": 1, "a": [1, 2, 3]})"),
              "{ _id: 1, a: [ 2 ] }");
}

TEST(UpdateDriver, PositionalAndArrayFilters) {
    UpdateApplyParams p;
    p.matchedArrayIndex = "1";
    EXPECT_EQ(applied(R"({"$set": {"a.$": 9}})", R"({"_id": 1, "a": [1, 2, 3]})", p),
              "{ _id: 1, a: [ 1, 9, 3 ] }");
    EXPECT_EQ(errCode(R"({"$set": {"a.$": 9}})", R"({"_id": 1, "a": [1]})"), ErrorCodes::BadValue);
    EXPECT_EQ(applied(R"({"$inc": {"a.$[]": 1}})", R"({"_id": 1, "a": [1, 2]})"),
              "{ _id: 1, a: [ 2, 3 ] }");
    EXPECT_EQ(applied(R"({"$set": {"a.$[x].b": 0}})",
                      R"({"_id": 1, "a": [{"b": 5}, {"b": 1}, {"b": 7}]})", {},
                      {fromjson(R"({"x.b": {"$gt": 4}})")}),
              "{ _id: 1, a: [ { b: 0 }, { b: 1 }, { b: 0 } ] }");
    EXPECT_EQ(applied(R"({"$set": {"a.$[e]": 0}})", R"({"_id": 1, "a": [5, 1, 7]})", {},
                      {fromjson(R"({"e": {"$lt": 6}})")}),
              "{ _id: 1, a: [ 0, 0, 7 ] }");
    EXPECT_EQ(errCode(R"({"$set": {"a.$[y]": 0}})", R"({"_id": 1})", {fromjson(R"({"x": 1})")}),
              ErrorCodes::BadValue);
    EXPECT_EQ(errCode(R"({"$set": {"a": 0}})", R"({"_id": 1})", {fromjson(R"({"x": 1})")}),
              ErrorCodes::FailedToParse);
    EXPECT_EQ(errCode(R"({"$set": {"a.$[]": 0}})", R"({"_id": 1, "a": 5})"), ErrorCodes::BadValue);
}

TEST(UpdateDriver, ParseErrors) {
    EXPECT_EQ(errCode(R"({"$foo": {"a": 1}})", "{}"), ErrorCodes::FailedToParse);
    EXPECT_EQ(errCode(R"({"$set": 1})", "{}"), ErrorCodes::FailedToParse);
    EXPECT_EQ(errCode(R"({"$set": {"a": 1}, "$inc": {"a": 1}})", "{}"),
              ErrorCodes::ConflictingUpdateOperators);
    EXPECT_EQ(errCode(R"({"$set": {"a.b": 1, "a": 1}})", "{}"),
              ErrorCodes::ConflictingUpdateOperators);
    EXPECT_EQ(errCode(R"({"$set": {"a..b": 1}})", "{}"), ErrorCodes::EmptyFieldName);
    EXPECT_EQ(errCode(R"({"$set": {"a": 1}, "b": 1})", "{}"), ErrorCodes::FailedToParse);
    EXPECT_EQ(errCode(R"({"a": 1, "$set": {"b": 1}})", "{}"), ErrorCodes::DollarPrefixedFieldName);
    auto pipeline = BSON("u" << BSON_ARRAY(BSON("$set" << BSON("a" << 1))));
    EXPECT_EQ(UpdateDriver::parseElement(pipeline.firstElement()).getStatus().code(),
              ErrorCodes::NotImplemented);
    EXPECT_EQ(errCode(R"({"$set": {}})", R"({"_id": 1})"), 0);
}

TEST(UpdateDriver, IdIsImmutable) {
    EXPECT_EQ(errCode(R"({"$set": {"_id": 2}})", R"({"_id": 1})"), ErrorCodes::ImmutableField);
    EXPECT_EQ(errCode(R"({"$set": {"_id": 1}})", R"({"_id": 1})"), 0);
    EXPECT_EQ(errCode(R"({"_id": 2, "a": 1})", R"({"_id": 1})"), ErrorCodes::ImmutableField);
    EXPECT_EQ(applied(R"({"a": 1})", R"({"_id": 1, "b": 2})"), "{ _id: 1, a: 1 }");
    EXPECT_EQ(errCode(R"({"$set": {"_id": [1]}})", R"({})"), ErrorCodes::InvalidIdField);
}

TEST(UpdateDriver, UpsertSeedsFromQueryEqualities) {
    auto d = UpdateDriver::parse(fromjson(R"({"$set": {"c": 1}, "$setOnInsert": {"n": true}})"));
    ASSERT_TRUE(d.isOK());
    auto doc = d.getValue().produceUpsertDocument(
        fromjson(R"({"a": 1, "b.x": "s", "q": {"$gt": 5}, "_id": 7})"), {});
    ASSERT_TRUE(doc.isOK()) << doc.getStatus();
    EXPECT_EQ(doc.getValue().toString(), "{ _id: 7, a: 1, b: { x: \"s\" }, c: 1, n: true }");
    auto bad = d.getValue().seedUpsertDocument(fromjson(R"({"a": 1, "a.b": 2})"));
    EXPECT_EQ(bad.getStatus().code(), ErrorCodes::NotSingleValueField);
    // $setOnInsert does nothing on a plain update.
    auto r = d.getValue().apply(fromjson(R"({"_id": 1})"), {});
    ASSERT_TRUE(r.isOK());
    EXPECT_EQ(r.getValue().newDoc.toString(), "{ _id: 1, c: 1 }");
    auto repl = UpdateDriver::parse(fromjson(R"({"z": 1})"));
    auto rdoc = repl.getValue().produceUpsertDocument(fromjson(R"({"_id": 3, "a": 1})"), {});
    EXPECT_EQ(rdoc.getValue().toString(), "{ _id: 3, z: 1 }");
}

TEST(UpdateDriver, ComputesDiffThatReproducesTheNewDocument) {
    UpdateApplyParams p;
    p.computeDiff = true;
    auto r = run(R"({"$set": {"c.e": 3, "f": 5}, "$unset": {"b": 1}, "$inc": {"a": 9}})",
                 R"({"_id": 1, "a": 1, "b": 2, "c": {"d": 1, "e": 2}})", p);
    ASSERT_TRUE(r.isOK());
    BSONObj o = r.getValue().diff;
    EXPECT_EQ(o["$v"].numberInt(), 2);
    auto back = doc_diff::applyDiff(
        fromjson(R"({"_id": 1, "a": 1, "b": 2, "c": {"d": 1, "e": 2}})"), o["diff"].Obj());
    ASSERT_TRUE(back.isOK()) << back.getStatus() << " " << o;
    EXPECT_TRUE(back.getValue().binaryEqual(r.getValue().newDoc));
}

TEST(UpdateDriver, ArrayPaddingStopsAtUpstreamsLimit) {
    EXPECT_EQ(errCode(R"({"$set": {"a.1000000000": 1}})", R"({"a": []})"),
              ErrorCodes::CannotBackfillArray);
    EXPECT_EQ(errCode(R"({"$set": {"a.99999999999999999999999": 1}})", R"({"a": []})"),
              ErrorCodes::CannotBackfillArray);
    EXPECT_EQ(errCode(R"({"$set": {"a.1500000": 1}})", R"({"a": []})"), 0);
    EXPECT_EQ(applied(R"({"$set": {"a.2": 1}})", R"({"a": []})"), "{ a: [ null, null, 1 ] }");
}

}  // namespace
}  // namespace mongo
