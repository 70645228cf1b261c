// Keeping the rollup levels of time-series collections equal to their raw data (README.md,
// "Maintenance"): writes to a buckets collection with rollups record the touched bins in
// the same unit of work; catchUp() recomputes them. Thread safety: all functions may run
// concurrently; one catch-up per collection runs at a time.
#pragma once

#include "mongo/db/namespace_string.h"

namespace mongo {
class OperationContext;
}  // namespace mongo

namespace mongo::timeseries::rollups {

/**
 * Brings every rollup level of the time-series collection `viewNss` up to date with the
 * writes committed before the call: afterwards each level's rows equal what
 * makeRowComputationPipeline() computes from the raw data (bins older than the raw data's
 * retention excepted, README.md). No-op when `viewNss` is not a time-series view with
 * rollups. Cost: proportional to the bins written since the last catch-up. Throws the
 * errors of the reads and writes it runs (Interrupted when killed).
 */
void catchUp(OperationContext* opCtx, const NamespaceString& viewNss);

}  // namespace mongo::timeseries::rollups
