// ExpressionContext: what one pipeline (or one $expr) shares while it is parsed and
// run: the operation, the namespace, $$NOW, `let` variables, disk-use permission
// and memory limits. Variables: the runtime values of user variables ($let, $map,
// $filter, $reduce, `let`) indexed by the ids handed out at parse time by
// VariablesParseState. The collator is the collation in force for the operation
// (null: simple); every user-visible comparison of the pipeline uses it, and
// sub-pipelines ($lookup, $facet, $unionWith) copy it.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/namespace_string.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/pipeline/value.h"
#include "mongo/db/query/collation/collator_interface.h"
#include "mongo/util/time_support.h"

namespace mongo {

class OperationContext;

using VariableId = int;

/**
 * Memoised top-level field lookups of one document: each element of the document
 * is decoded at most once however many expressions read it. Active only inside a
 * ScopedFieldCache, for the exact BSONObj object it was opened on.
 */
class DocumentFieldCache {
public:
    DocumentFieldCache() = default;
    // A copy (Variables are copied for $facet and $expr) starts closed.
    DocumentFieldCache(const DocumentFieldCache&) {}
    DocumentFieldCache& operator=(const DocumentFieldCache&) {
        close();
        return *this;
    }

    bool covers(const BSONObj& doc) const {
        return _doc == &doc;
    }
    BSONElement get(StringData name) {
        for (const auto& e : _seen)
            if (e.fieldNameStringData() == name)
                return e;
        while (_it.more()) {
            BSONElement e = _it.next();
            _seen.push_back(e);
            if (e.fieldNameStringData() == name)
                return e;
        }
        return BSONElement();
    }
    void open(const BSONObj* doc) {
        _doc = doc;
        _it = doc->begin();
        _seen.clear();
    }
    void close() {
        _doc = nullptr;
    }

private:
    const BSONObj* _doc = nullptr;
    BSONObj::iterator _it;
    std::vector<BSONElement> _seen;
};

/**
 * What the stages know of a document besides its fields, read by {$meta: ...}: the stage that
 * returns a document sets Variables::metadata to its own record of it (or null), and stages
 * that pass documents through leave it alone. Fields are unset when not known.
 */
struct DocumentMetadata {
    std::optional<Value> sortKey;       // an array: one value per part of the sort pattern
    std::optional<long long> recordId;  // of a document read from a collection
    std::optional<double> textScore;    // of a document a $text query found
};

class Variables {
public:
    static constexpr VariableId kRootId = -1;
    static constexpr VariableId kRemoveId = -2;
    static constexpr VariableId kNowId = -3;
    static constexpr VariableId kCurrentId = -4;
    static constexpr VariableId kClusterTimeId = -5;
    static constexpr VariableId kUserMetaId = -6;
    static constexpr VariableId kKeepId = -7;
    static constexpr VariableId kPruneId = -8;
    static constexpr VariableId kDescendId = -9;
    // $$IS_MR and $$JS_SCOPE (mapReduce's): they parse, and reading them is 51144.
    static constexpr VariableId kIsMapReduceId = -10;
    static constexpr VariableId kJsScopeId = -11;

    /** Value of user variable `id` (missing if never set). */
    const Value& getValue(VariableId id) const {
        static const Value kMissing;
        return id >= 0 && static_cast<size_t>(id) < _values.size() ? _values[id] : kMissing;
    }
    void setValue(VariableId id, Value v) {
        if (static_cast<size_t>(id) >= _values.size())
            _values.resize(id + 1);
        _values[id] = std::move(v);
    }
    /**
     * Throws the operation's interrupt (killOp: Interrupted 11601, ClientDisconnect 279,
     * InterruptedAtShutdown 11600, MaxTimeMSExpired 50) if one is due; no-op without an
     * operation (expressions evaluated outside one). A few atomic loads.
     */
    void checkForInterrupt() const {
        if (opCtx)
            opCtx->checkForInterrupt();
    }
    /**
     * checkForInterrupt() on every 128th call: for loops over user-sized input (array
     * elements of $map/$filter/$reduce/$range, window rows, generated documents).
     */
    void checkForInterruptEvery128() {
        if ((++_interruptTicks & 127) == 0)
            checkForInterrupt();
    }

    Date_t now;
    DocumentFieldCache fieldCache;
    OperationContext* opCtx = nullptr;
    /** The metadata of the document being processed (null: none); see DocumentMetadata. */
    const DocumentMetadata* metadata = nullptr;

private:
    std::vector<Value> _values;
    unsigned _interruptTicks = 0;
};

/** Opens the field cache on `doc` for the lifetime of this object. */
class ScopedFieldCache {
public:
    ScopedFieldCache(Variables* vars, const BSONObj& doc) : _vars(vars) {
        _vars->fieldCache.open(&doc);
    }
    ~ScopedFieldCache() {
        _vars->fieldCache.close();
    }
    ScopedFieldCache(const ScopedFieldCache&) = delete;
    ScopedFieldCache& operator=(const ScopedFieldCache&) = delete;

private:
    Variables* _vars;
};

/** Name -> id scopes while parsing; nested scopes copy the parent. */
class VariablesParseState {
public:
    explicit VariablesParseState(std::shared_ptr<VariableId> nextId) : _nextId(std::move(nextId)) {}
    /** Defines (or shadows) `name`; returns its id. */
    VariableId defineVariable(StringData name);
    /** The id of `name` ($$ROOT, $$NOW... included). Throws 17276 when undefined. */
    VariableId getVariable(StringData name) const;

private:
    std::shared_ptr<VariableId> _nextId;
    std::map<std::string, VariableId, std::less<>> _scope;
};

/** Throws 16866/16867/16868/16869/16870/16871 (upstream) when `name` is not a valid user variable
 * name. */
void validateVariableName(StringData name);

class ExpressionContext {
public:
    ExpressionContext(OperationContext* opCtx, NamespaceString ns)
        : opCtx(opCtx), ns(std::move(ns)), _nextVarId(std::make_shared<VariableId>(0)) {
        variables.now = Date_t::now();
        variables.opCtx = opCtx;
    }

    VariablesParseState makeParseState() const {
        return _topScope;
    }
    VariablesParseState& topScope() {
        return _topScope;
    }

    /**
     * The operation's collator (null: simple). Expressions and stages read it when they
     * compare, so it should be set before the pipeline runs; it stays owned here.
     */
    const CollatorInterface* getCollator() const {
        return _collator.get();
    }
    void setCollator(std::unique_ptr<CollatorInterface> collator) {
        _collator = std::shared_ptr<CollatorInterface>(std::move(collator));
    }
    /** A new context for a sub-pipeline over `nss`: same operation, options and collator. */
    std::shared_ptr<ExpressionContext> copyForSubPipeline(NamespaceString nss) const {
        auto sub = std::make_shared<ExpressionContext>(opCtx, std::move(nss));
        sub->allowDiskUse = allowDiskUse;
        sub->explain = explain;
        sub->maxMemoryBytes = maxMemoryBytes;
        sub->subPipelineDepth = subPipelineDepth;
        sub->facetNesting = facetNesting;
        sub->_collator = _collator;
        return sub;
    }

    /** Variables::checkForInterrupt() of this context's variables (the one implementation). */
    void checkForInterrupt() const {
        variables.checkForInterrupt();
    }
    void checkForInterruptEvery128() {
        variables.checkForInterruptEvery128();
    }
    /** Moves the context to another operation (a cursor's getMore); keeps `variables` in step. */
    void setOperationContext(OperationContext* op) {
        opCtx = op;
        variables.opCtx = op;
    }

    OperationContext* opCtx;
    NamespaceString ns;
    Variables variables;
    bool allowDiskUse = false;
    bool explain = false;
    long long maxMemoryBytes = 100LL * 1024 * 1024;
    int subPipelineDepth = 0;  // 0 for a top-level pipeline
    // While a $facet's sub-pipelines are parsed: "$facet" in its own sub-pipelines, the stage
    // name ("$lookup", "$unionWith") in theirs; empty outside any $facet. Stages refused in a
    // $facet throw 40600 with it (uassertNotInFacet).
    std::string facetNesting;
    /** Set by parsing {$meta: "sortKey"} / "recordId": stages then compute that metadata. */
    bool needsSortKeyMetadata = false;
    bool needsRecordIdMetadata = false;

private:
    std::shared_ptr<const CollatorInterface> _collator;  // shared with sub-pipeline contexts
    std::shared_ptr<VariableId> _nextVarId;
    VariablesParseState _topScope{_nextVarId};
};

}  // namespace mongo
