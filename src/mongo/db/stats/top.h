// Top: per-collection usage counters since start-up, reported by $collStats: operation
// latencies by kind (latencyStats) and query plans that scanned the whole collection
// (queryExecStats.collectionScans). The command dispatcher records every command naming a
// collection; the planner counts collection scans.
// Thread safety: all methods may be called concurrently (one mutex).
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/namespace_string.h"
#include "mongo/db/stats/operation_latency_histogram.h"

namespace mongo {

class Top {
public:
    static Top& get();

    /** Adds one operation of `micros` on `nss` (a collection or view namespace). */
    void recordLatency(const NamespaceString& nss, uint64_t micros, ReadWriteType type);
    /** Counts a query plan over `nss` that reads the whole collection. */
    void incrementCollectionScans(const NamespaceString& nss, bool tailable);
    /** Forgets `nss` (dropped, or renamed away): a new collection starts from zero. */
    void collectionDropped(const NamespaceString& nss);

    /** Appends {reads, writes, commands, transactions} of `nss` (zeros if never used). */
    void appendLatencyStats(const NamespaceString& nss, bool includeHistograms,
                            BSONObjBuilder* builder) const;
    /** Appends {collectionScans: {total, nonTailable}} of `nss`. */
    void appendQueryExecStats(const NamespaceString& nss, BSONObjBuilder* builder) const;

private:
    struct Entry {
        OperationLatencyHistogram latency;
        long long collectionScans = 0;
        long long collectionScansNonTailable = 0;
    };
    mutable std::mutex _mutex;
    std::map<std::string, Entry> _entries;  // by full namespace
};

}  // namespace mongo
