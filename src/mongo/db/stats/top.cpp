#include "mongo/db/stats/top.h"

namespace mongo {

Top& Top::get() {
    static Top top;
    return top;
}

void Top::recordLatency(const NamespaceString& nss, uint64_t micros, ReadWriteType type) {
    std::lock_guard lk(_mutex);
    _entries[nss.ns()].latency.increment(micros, type);
}

void Top::incrementCollectionScans(const NamespaceString& nss, bool tailable) {
    std::lock_guard lk(_mutex);
    Entry& e = _entries[nss.ns()];
    ++e.collectionScans;
    if (!tailable)
        ++e.collectionScansNonTailable;
}

void Top::collectionDropped(const NamespaceString& nss) {
    std::lock_guard lk(_mutex);
    _entries.erase(nss.ns());
}

void Top::appendLatencyStats(const NamespaceString& nss, bool includeHistograms,
                             BSONObjBuilder* builder) const {
    BSONObjBuilder b(builder->subobjStart("latencyStats"));
    std::lock_guard lk(_mutex);
    auto it = _entries.find(nss.ns());
    if (it != _entries.end()) {
        it->second.latency.append(includeHistograms, &b);
    } else {
        OperationLatencyHistogram().append(includeHistograms, &b);
    }
}

void Top::appendQueryExecStats(const NamespaceString& nss, BSONObjBuilder* builder) const {
    long long total = 0, nonTailable = 0;
    {
        std::lock_guard lk(_mutex);
        auto it = _entries.find(nss.ns());
        if (it != _entries.end()) {
            total = it->second.collectionScans;
            nonTailable = it->second.collectionScansNonTailable;
        }
    }
    BSONObjBuilder q(builder->subobjStart("queryExecStats"));
    BSONObjBuilder c(q.subobjStart("collectionScans"));
    c.append("total", total);
    c.append("nonTailable", nonTailable);
}

}  // namespace mongo
