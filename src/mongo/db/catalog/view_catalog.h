// The view catalog: views are documents {_id: "<db>.<view>", viewOn: "<coll>",
// pipeline: [...]} in the collection <db>.system.views. This module reads and writes
// them (with an in-memory cache per database, refreshed after every change made
// through it) and resolves a view, through views on views, to its source
// collection and the concatenated pipeline.
//
// Thread safety: all functions may be called concurrently; changes are serialised
// by an internal mutex.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/namespace_string.h"

namespace mongo {

class OperationContext;

struct ViewDefinition {
    NamespaceString name;
    NamespaceString viewOn;
    std::vector<BSONObj> pipeline;
    BSONObj collation;
    /** The stored document ({_id, viewOn, pipeline}). */
    BSONObj toBSON() const;
};

struct ResolvedView {
    NamespaceString nss;  // the backing collection
    std::vector<BSONObj> pipeline;
    /** The view's default collation (full spec; empty: simple, or `nss` was no view). */
    BSONObj collation;
};

/** Maximum depth of views on views (upstream: 20). */
constexpr int kMaxViewDepth = 20;

/** True when `nss` names a view. */
bool isView(OperationContext* opCtx, const NamespaceString& nss);

/** The view definition, or nullopt. */
std::optional<ViewDefinition> lookupView(OperationContext* opCtx, const NamespaceString& nss);

/** The views of `db`, ordered by name. */
std::vector<ViewDefinition> viewsInDb(OperationContext* opCtx, StringData db);

/**
 * Follows `nss` through views to a collection; returns the collection and the
 * pipeline to run on it (outermost view's stages last). ViewDepthLimitExceeded 165
 * beyond kMaxViewDepth. A non-view gives itself with an empty pipeline.
 */
StatusWith<ResolvedView> resolveView(OperationContext* opCtx, const NamespaceString& nss);

/**
 * Stores a new view. NamespaceExists 48 when a collection or view of that name
 * exists; GraphContainsCycle 5 for a cycle; ViewDepthLimitExceeded 165;
 * OptionNotSupportedOnView 167 when `def.collation` differs from the collation of the
 * view it is defined on, or of a view already defined on it. `def.collation` must be
 * normalised (full spec, empty for simple). The caller validates the pipeline first.
 */
Status createView(OperationContext* opCtx, const ViewDefinition& def);

/**
 * Replaces viewOn/pipeline of an existing view (collMod). NamespaceNotFound 26 if absent;
 * OptionNotSupportedOnView 167 when the new viewOn is a view of another collation.
 */
Status modifyView(OperationContext* opCtx, const ViewDefinition& def);

/** Removes a view; false when there was none. */
bool dropView(OperationContext* opCtx, const NamespaceString& nss);

/** Forgets the cached views of `db` (after system.views was dropped or changed elsewhere). */
void invalidateViewCache(StringData db);

}  // namespace mongo
