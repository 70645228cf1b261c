// ExternalSorter: sorts (key, document) pairs with a memory budget. Beyond the
// budget it writes sorted runs to temporary files (when allowed) and merges them
// when read back. Keys are SortPattern sort keys; ties keep insertion order.
//
// Runs are SpillFile records [seq][key][doc] (spill_file.h).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/exec/spill_file.h"
#include "mongo/db/query/sort_pattern.h"

namespace mongo {

class ExternalSorter {
public:
    /** `allowSpill` false: exceeding `maxMemoryBytes` throws 292. */
    ExternalSorter(std::shared_ptr<SortPattern> pattern, long long maxMemoryBytes, bool allowSpill);
    ~ExternalSorter();

    void add(BSONObj key, BSONObj doc);
    /** Ends input; afterwards call next() until it returns nullopt. */
    void finish();
    /** The next document in order; its key in `*key` when given. */
    std::optional<BSONObj> next(BSONObj* key = nullptr);

    bool usedDisk() const {
        return !_runs.empty();
    }
    size_t numRuns() const {
        return _runs.size();
    }
    /** Spills so far (one per run), bytes and records written, bytes on disk. */
    const SpillingStats& spillingStats() const {
        return _stats;
    }

private:
    struct Entry {
        BSONObj key;
        BSONObj doc;
        long long seq;
    };
    struct Run {
        std::unique_ptr<SpillFile> file;
        std::optional<Entry> head;
    };
    bool less(const Entry& a, const Entry& b) const;
    void spill();
    static std::optional<Entry> readEntry(SpillFile* f);

    std::shared_ptr<SortPattern> _pattern;
    long long _maxMemoryBytes;
    bool _allowSpill;
    std::vector<Entry> _buffer;
    size_t _bufferBytes = 0;
    long long _seq = 0;
    std::vector<Run> _runs;
    SpillingStats _stats;
    bool _finished = false;
    size_t _pos = 0;  // into _buffer when there are no runs
};

}  // namespace mongo
