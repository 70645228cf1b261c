#include <gtest/gtest.h>

#include "mongo/db/pipeline/update_pipeline.h"
#include "mongo/util/assert_util.h"
#include "relaxed_json.h"

namespace mongo {
namespace {

using test::parseArray;
using test::relaxedJson;

UpdateDriver pipelineDriver(StringData stagesJson, std::optional<BSONObj> constants = std::nullopt,
                            BSONObj letVars = BSONObj()) {
    UpdatePipelineContext ctx{nullptr, NamespaceString("test", "c"), letVars, constants, nullptr};
    return parseUpdateStatement(parseArray(stagesJson), {}, ctx);
}

UpdateResult apply(const UpdateDriver& d, StringData docJson, bool computeDiff = false) {
    UpdateApplyParams p;
    p.computeDiff = computeDiff;
    return uassertStatusOK(d.apply(relaxedJson(docJson), p));
}

int parseError(StringData stagesJson) {
    try {
        pipelineDriver(stagesJson);
    } catch (const DBException& e) {
        return e.code();
    }
    return 0;
}

TEST(UpdatePipeline, StagesRunInOrderOverEachDocument) {
    UpdateDriver d = pipelineDriver("[{$set: {s: {$add: ['$a', 1]}}}, {$unset: 'a'}]");
    EXPECT_TRUE(d.isPipeline());
    EXPECT_FALSE(d.isReplacement());
    EXPECT_EQ(apply(d, "{_id: 1, a: 1}").newDoc.toString(), "{ _id: 1, s: 2 }");
    // The same driver serves the next document (multi updates).
    EXPECT_EQ(apply(d, "{_id: 2, a: 5, b: 1}").newDoc.toString(), "{ _id: 2, b: 1, s: 6 }");
}

TEST(UpdatePipeline, DroppedIdIsKeptChangedIdIsImmutable) {
    UpdateDriver d = pipelineDriver("[{$replaceWith: '$inner'}]");
    EXPECT_EQ(apply(d, "{_id: 1, inner: {x: 1}}").newDoc.toString(), "{ _id: 1, x: 1 }");
    UpdateDriver change = pipelineDriver("[{$set: {_id: 2}}]");
    UpdateApplyParams p;
    EXPECT_EQ(change.apply(relaxedJson("{_id: 1}"), p).getStatus().code(),
              ErrorCodes::ImmutableField);
    p.idIsMutable = true;  // a time-series measurement's _id
    EXPECT_EQ(uassertStatusOK(change.apply(relaxedJson("{_id: 1}"), p)).newDoc.toString(),
              "{ _id: 2 }");
}

TEST(UpdatePipeline, UnchangedDocumentIsNotModifiedAndChangesHaveADiff) {
    UpdateDriver d = pipelineDriver("[{$set: {a: 1}}]");
    EXPECT_FALSE(apply(d, "{_id: 1, a: 1}", true).changed);
    UpdateResult r = apply(d, "{_id: 1, a: 2, big: 'xxxxxxxxxxxxxxxxxxxxxxxx'}", true);
    EXPECT_TRUE(r.changed);
    EXPECT_EQ(r.diff.toString(), "{ $v: 2, diff: { u: { a: 1 } } }");
}

TEST(UpdatePipeline, ConstantsAreNotEvaluatedLetIs) {
    UpdateDriver d =
        pipelineDriver("[{$set: {c: '$$k', l: '$$v'}}]", relaxedJson("{k: {$add: [1, 2]}}"),
                       relaxedJson("{v: {$add: [1, 2]}}"));
    EXPECT_EQ(apply(d, "{_id: 1}").newDoc.toString(), "{ _id: 1, c: { $add: [ 1, 2 ] }, l: 3 }");
}

TEST(UpdatePipeline, UpsertStartsFromQueryEqualities) {
    UpdateDriver d = pipelineDriver("[{$set: {b: {$add: ['$a', 1]}}}]");
    UpdateApplyParams p;
    EXPECT_EQ(uassertStatusOK(d.produceUpsertDocument(relaxedJson("{a: 1, _id: 5}"), p)).toString(),
              "{ _id: 5, a: 1, b: 2 }");
    d.setSuppliedUpsertDocument(relaxedJson("{given: true}"));
    EXPECT_EQ(uassertStatusOK(d.produceUpsertDocument(relaxedJson("{a: 1, _id: 5}"), p)).toString(),
              "{ _id: 5, given: true }");
}

TEST(UpdatePipeline, RefusesStagesOtherThanOneDocumentTransformations) {
    EXPECT_EQ(parseError("[{$set: {a: 1}}, {$project: {a: 1}}, {$addFields: {b: 1}}, "
                         "{$unset: ['a']}, {$replaceRoot: {newRoot: '$$ROOT'}}]"),
              0);
    EXPECT_EQ(parseError("[]"), 0);
    EXPECT_EQ(parseError("[{$match: {a: 1}}]"), ErrorCodes::InvalidOptions);
    EXPECT_EQ(parseError("[{$sort: {a: 1}}]"), ErrorCodes::InvalidOptions);
    EXPECT_EQ(parseError("[{$count: 'n'}]"), ErrorCodes::InvalidOptions);
    EXPECT_EQ(parseError("[{$group: {_id: null}}]"), ErrorCodes::InvalidOptions);
    EXPECT_EQ(parseError("[{$nope: 1}]"), 40324);
    EXPECT_EQ(parseError("[{$set: {a: '$$missingVar'}}]"), 17276);
}

TEST(UpdatePipeline, StatementRules) {
    UpdatePipelineContext ctx{nullptr, NamespaceString("test", "c"), BSONObj(), std::nullopt,
                              nullptr};
    std::variant<BSONObj, std::vector<BSONObj>> pipeline = parseArray("[{$set: {a: 1}}]");
    std::variant<BSONObj, std::vector<BSONObj>> modifiers = relaxedJson("{$set: {a: 1}}");
    auto code = [](auto fn) {
        try {
            fn();
        } catch (const DBException& e) {
            return static_cast<int>(e.code());
        }
        return 0;
    };
    EXPECT_EQ(code([&] { parseUpdateStatement(pipeline, {relaxedJson("{'x.a': 1}")}, ctx); }),
              ErrorCodes::FailedToParse);
    ctx.constants = BSONObj();
    EXPECT_EQ(code([&] { parseUpdateStatement(modifiers, {}, ctx); }), 51198);
    EXPECT_EQ(code([&] { parseUpdateStatement(pipeline, {}, ctx); }), 0);
}

}  // namespace
}  // namespace mongo
