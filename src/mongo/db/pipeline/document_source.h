// DocumentSource: one stage of an aggregation pipeline. Stages form a pull-based
// chain: getNext() asks the previous stage (setSource) for documents and returns
// the next output document, or nullopt at the end.
//
// Stages register a parser by name (registerDocumentSource); the parser may expand
// one user stage into several ($count -> $group + $project, $sortByCount...).
// Parse errors throw with upstream's codes.
#pragma once

#include <functional>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/pipeline/expression_context.h"
#include "mongo/db/query/sort_pattern.h"

namespace mongo {

class DocumentSource;
using StagePtr = std::unique_ptr<DocumentSource>;
using StageList = std::list<StagePtr>;

/** Where a stage may appear and what it needs. */
struct StageConstraints {
    bool requiresFirst = false;  // $documents, $collStats, $indexStats, $geoNear
    bool requiresLast = false;   // $out, $merge
    bool allowedInFacet = true;
    bool isWriteStage = false;
    bool needsInput = true;  // false for $documents (collectionless)

    /** A stage that must come first, makes its own documents and is refused inside $facet
     * ($collStats, $indexStats, $currentOp, $listCatalog). */
    static StageConstraints leadingSource() {
        StageConstraints c;
        c.requiresFirst = true;
        c.needsInput = false;
        c.allowedInFacet = false;
        return c;
    }
};

class DocumentSource {
public:
    explicit DocumentSource(std::shared_ptr<ExpressionContext> expCtx)
        : _expCtx(std::move(expCtx)) {}
    virtual ~DocumentSource() = default;

    /** The next output document, or nullopt when exhausted. */
    virtual std::optional<BSONObj> getNext() = 0;
    /** Upstream stage name ("$match"). */
    virtual const char* getSourceName() const = 0;
    /** Appends {<name>: <spec>} stages to `out` (one or more). */
    virtual void serialize(BSONArrayBuilder* out) const = 0;
    /** As explain prints the stage (upstream's explain form); serialize() unless overridden. */
    virtual void serializeExplained(BSONArrayBuilder* out) const {
        serialize(out);
    }
    virtual StageConstraints constraints() const {
        return {};
    }
    /**
     * Pipeline optimisation hook: may modify or remove the following stages. `it`
     * points at this stage inside `container`; return the position from which
     * optimisation should continue (usually std::next(it)).
     */
    virtual StageList::iterator optimizeAt(StageList::iterator it, StageList* container) {
        return std::next(it);
    }
    /** Releases resources at the end (used before disposing of the pipeline). */
    virtual void dispose() {}
    /** Adds explain-only stats (nReturned...) for executionStats. */
    virtual void appendExplainStats(BSONObjBuilder* b) const {}

    void setSource(DocumentSource* source) {
        _source = source;
    }
    DocumentSource* getSource() const {
        return _source;
    }
    const std::shared_ptr<ExpressionContext>& getExpCtx() const {
        return _expCtx;
    }

protected:
    /**
     * Makes `doc`'s key under `pattern` the sortKey metadata ({$meta: "sortKey"}) of the
     * document this stage returns next, when the pipeline reads it; otherwise does nothing.
     */
    void setSortKeyMetadata(const SortPattern& pattern, const BSONObj& doc);
    /** The document this stage returns next has no metadata (the stage made it). */
    void clearMetadata() {
        _expCtx->variables.metadata = nullptr;
    }

    std::shared_ptr<ExpressionContext> _expCtx;
    DocumentSource* _source = nullptr;
    DocumentMetadata _metadata;  // of the document last returned, when this stage sets it
};

/**
 * A stage that must see all of its input, or compute its whole output, before it returns
 * anything ($sample, $bucket, $densify, $setWindowFields, $collStats...): materialize()
 * runs once, on the first getNext(), and its documents are then returned in order.
 */
class DocumentSourceMaterialized : public DocumentSource {
public:
    using DocumentSource::DocumentSource;
    std::optional<BSONObj> getNext() final {
        if (!_materialized) {
            _materialized = true;
            _output = materialize();
        }
        clearMetadata();
        if (_pos >= _output.size())
            return std::nullopt;
        return std::move(_output[_pos++]);
    }

protected:
    /** The stage's whole output (called once). */
    virtual std::vector<BSONObj> materialize() = 0;

private:
    bool _materialized = false;
    std::vector<BSONObj> _output;
    size_t _pos = 0;
};

using StageParser = std::function<std::vector<StagePtr>(const BSONElement&,
                                                        const std::shared_ptr<ExpressionContext>&)>;

/**
 * Whether a stage is part of the Stable API, Version 1: under apiStrict a request naming one
 * that is not fails with APIStrictError 323 (any depth, view definitions included).
 */
enum class StageStability { kStable, kNotInAPIVersion1 };

void registerDocumentSource(StringData name, StageParser parser,
                            StageStability stability = StageStability::kStable);

/**
 * For the parsers of stages a $facet refuses even when they come in the sub-pipeline of a
 * $lookup or $unionWith inside it ($facet, $documents): throws 40600 ("<stage> [inside of
 * <owner>] is not allowed to be used within a $facet stage") when `expCtx` is a $facet's.
 */
void uassertNotInFacet(const ExpressionContext& expCtx, StringData stage);

/** The sortKey metadata of `doc` under `pattern`: an array of one value per part. */
Value makeSortKeyMetadata(const SortPattern& pattern, const BSONObj& doc);

/**
 * Parses one stage object. Errors: 40323 (not exactly one field), 40324 (unknown
 * stage name), and each stage's own codes.
 */
std::vector<StagePtr> parseDocumentSource(const BSONObj& stage,
                                          const std::shared_ptr<ExpressionContext>& expCtx);

/** A stage over a fixed list of documents ($documents, $facet inputs, tests). */
class DocumentSourceQueue final : public DocumentSource {
public:
    DocumentSourceQueue(std::shared_ptr<ExpressionContext> expCtx, std::vector<BSONObj> docs,
                        std::string name = "$queue")
        : DocumentSource(std::move(expCtx)), _docs(std::move(docs)), _name(std::move(name)) {}
    std::optional<BSONObj> getNext() override {
        if (_pos >= _docs.size())
            return std::nullopt;
        _expCtx->checkForInterruptEvery128();  // $facet and $documents inputs can be large
        return _docs[_pos++];
    }
    const char* getSourceName() const override {
        return _name.c_str();
    }
    void serialize(BSONArrayBuilder* out) const override;
    StageConstraints constraints() const override {
        StageConstraints c;
        c.requiresFirst = true;
        c.needsInput = false;
        return c;
    }

private:
    std::vector<BSONObj> _docs;
    size_t _pos = 0;
    std::string _name;
};

}  // namespace mongo
