// {$meta: "<name>"}: the metadata of the current document (DocumentMetadata), as the stage
// that produced it recorded it: "sortKey" ($sort, $_internalBoundedSort, a sorted input from
// the find layer), "recordId" (documents read from a collection) and "textScore" (documents a
// $text query found; elsewhere 40218). The other names ("randVal",
// "geoNearDistance", "geoNearPoint", "indexKey", Atlas Search's) evaluate to missing.
#include "mongo/db/pipeline/expression.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

const char* const kMetaNames[] = {"textScore",
                                  "randVal",
                                  "searchScore",
                                  "searchHighlights",
                                  "geoNearDistance",
                                  "geoNearPoint",
                                  "recordId",
                                  "indexKey",
                                  "sortKey",
                                  "searchScoreDetails",
                                  "searchSequenceToken",
                                  "vectorSearchScore"};

class ExpressionMeta final : public Expression {
public:
    explicit ExpressionMeta(std::string name) : _name(std::move(name)) {}

    Value evaluate(const BSONObj&, Variables* vars) const override {
        const DocumentMetadata* md = vars->metadata;
        if (_name == "textScore") {
            uassert(40218, "query requires text score metadata, but it is not available",
                    md && md->textScore);
            return Value(*md->textScore);
        }
        if (!md)
            return Value();
        if (_name == "sortKey")
            return md->sortKey.value_or(Value());
        if (_name == "recordId")
            return md->recordId ? Value(*md->recordId) : Value();
        return Value();
    }
    /** Depends on the document as a whole: never evaluated as a constant, never pushed down. */
    void addDependencies(std::vector<std::string>* fields) const override {
        fields->push_back("");
    }
    void serialize(BSONObjBuilder* b, StringData name) const override {
        BSONObjBuilder sub(b->subobjStart(name));
        sub.append("$meta", _name);
    }

private:
    std::string _name;
};

ExprPtr parseMeta(ExpressionContext* expCtx, const BSONElement& e, const VariablesParseState&) {
    uassert(17307, "$meta only supports string arguments", e.type() == BSONType::kString);
    StringData name = e.valueStringData();
    bool known = false;
    for (const char* n : kMetaNames)
        known = known || n == name;
    uassert(17308, "Unsupported argument to $meta: " + std::string(name), known);
    if (name == "sortKey")
        expCtx->needsSortKeyMetadata = true;
    if (name == "recordId")
        expCtx->needsRecordIdMetadata = true;
    return std::make_unique<ExpressionMeta>(std::string(name));
}

const bool kRegistered = [] {
    Expression::registerParser("$meta", parseMeta);
    return true;
}();

}  // namespace
bool mentionsTextScore(const BSONObj& spec) {
    for (BSONElement e : spec) {
        if (e.fieldNameStringData() == "$meta" && e.type() == BSONType::kString &&
            e.valueStringData() == "textScore")
            return true;
        if ((e.type() == BSONType::kObject || e.type() == BSONType::kArray) &&
            mentionsTextScore(e.embeddedObject()))
            return true;
    }
    return false;
}

}  // namespace mongo
