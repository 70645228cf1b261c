// $out and $merge (document_source_out.cpp). $out into a time-series collection goes through
// a writer the time-series write path installs (it sits above the pipeline): see
// mongo/db/timeseries/timeseries_out.cpp.
#pragma once

#include <functional>
#include <optional>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/namespace_string.h"

namespace mongo {

class OperationContext;

/**
 * Writes the documents `next` yields (until nullopt) to `target` as $out does, when `target`
 * is a time-series collection or `timeseries` (the stage's options) is given; returns false,
 * having read nothing, when neither holds (the stage then writes a plain collection).
 */
using TimeseriesOutWriter = std::function<bool(
    OperationContext* opCtx, const NamespaceString& target,
    const std::optional<BSONObj>& timeseries, const std::function<std::optional<BSONObj>()>& next)>;

/** Installed once, from a static initialiser of the time-series write path. */
void setTimeseriesOutWriter(TimeseriesOutWriter writer);

}  // namespace mongo
