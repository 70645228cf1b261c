// $currentOp (see the header). The spec is parsed by hand because upstream reports its
// errors with TypeMismatch/FailedToParse rather than IDL's codes.
#include "mongo/db/pipeline/document_source_current_op.h"

#include "mongo/db/pipeline/document_source.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

constexpr StringData kStageName = "$currentOp";

CurrentOpReporter& reporter() {
    static CurrentOpReporter r;
    return r;
}

class DocumentSourceCurrentOp final : public DocumentSourceMaterialized {
public:
    DocumentSourceCurrentOp(std::shared_ptr<ExpressionContext> expCtx, CurrentOpOptions options)
        : DocumentSourceMaterialized(std::move(expCtx)), _options(options) {}

    const char* getSourceName() const override {
        return "$currentOp";
    }
    void serialize(BSONArrayBuilder* out) const override {
        BSONObjBuilder stage(out->subobjStart());
        BSONObjBuilder spec(stage.subobjStart(kStageName));
        // Like upstream: only the options that differ from their defaults.
        if (_options.idleConnections)
            spec.append("idleConnections", true);
        if (!_options.idleSessions)
            spec.append("idleSessions", false);
        if (_options.allUsers)
            spec.append("allUsers", true);
        if (_options.localOps)
            spec.append("localOps", true);
        if (_options.truncateOps)
            spec.append("truncateOps", true);
        if (_options.idleCursors)
            spec.append("idleCursors", true);
        if (_options.backtrace)
            spec.append("backtrace", true);
        if (_options.targetAllNodes)
            spec.append("targetAllNodes", true);
    }
    StageConstraints constraints() const override {
        return StageConstraints::leadingSource();
    }

protected:
    std::vector<BSONObj> materialize() override {
        uassert(ErrorCodes::InternalError, "$currentOp is not available in this process",
                static_cast<bool>(reporter()));
        return reporter()(_expCtx->opCtx, _options);
    }

private:
    CurrentOpOptions _options;
};

bool* optionField(CurrentOpOptions* o, StringData name) {
    if (name == "allUsers")
        return &o->allUsers;
    if (name == "idleConnections")
        return &o->idleConnections;
    if (name == "idleCursors")
        return &o->idleCursors;
    if (name == "idleSessions")
        return &o->idleSessions;
    if (name == "localOps")
        return &o->localOps;
    if (name == "truncateOps")
        return &o->truncateOps;
    if (name == "backtrace")
        return &o->backtrace;
    if (name == "targetAllNodes")
        return &o->targetAllNodes;
    return nullptr;
}

std::string mustBeBoolean(StringData name, const BSONElement& e) {
    return "The '" + std::string(name) +
           "' parameter of the $currentOp stage must be a "
           "boolean value, but found: " +
           std::string(typeName(e.type()));
}

/**
 * Errors, in upstream's order: TypeMismatch 14 for a spec that is not an object and for
 * non-boolean allUsers/localOps (checked before the stage is built), InvalidNamespace 73
 * outside {aggregate: 1} on admin, FailedToParse 9 for other non-boolean or unknown options.
 */
std::vector<StagePtr> parseCurrentOp(const BSONElement& e,
                                     const std::shared_ptr<ExpressionContext>& expCtx) {
    uassert(ErrorCodes::TypeMismatch,
            "$currentOp options must be specified in an object, but found: " +
                std::string(typeName(e.type())),
            e.type() == BSONType::kObject);
    for (const auto& f : e.Obj()) {
        StringData n = f.fieldNameStringData();
        if (n == "allUsers" || n == "localOps")
            uassert(ErrorCodes::TypeMismatch, mustBeBoolean(n, f), f.type() == BSONType::kBool);
    }
    uassert(ErrorCodes::InvalidNamespace,
            "$currentOp must be run against the 'admin' database with {aggregate: 1}",
            expCtx->ns.db() == "admin" && expCtx->ns.coll() == "$cmd.aggregate");
    CurrentOpOptions options;
    for (const auto& f : e.Obj()) {
        StringData n = f.fieldNameStringData();
        bool* field = optionField(&options, n);
        uassert(ErrorCodes::FailedToParse,
                "Unrecognized option '" + std::string(n) + "' in $currentOp stage.", field);
        uassert(ErrorCodes::FailedToParse, mustBeBoolean(n, f), f.type() == BSONType::kBool);
        *field = f.boolean();
    }
    std::vector<StagePtr> out;
    out.push_back(std::make_unique<DocumentSourceCurrentOp>(expCtx, options));
    return out;
}

const bool kRegistered = [] {
    registerDocumentSource(kStageName, parseCurrentOp, StageStability::kNotInAPIVersion1);
    return true;
}();

}  // namespace

void setCurrentOpReporter(CurrentOpReporter r) {
    reporter() = std::move(r);
}

}  // namespace mongo
