#include "mongo/db/pipeline/spillable_cache.h"

#include <algorithm>

#include "mongo/util/assert_util.h"

namespace mongo {

void SpillableCache::add(WindowRow row) {
    _memoryBytes += rowBytes(row);
    _memory.push_back(std::move(row));
    if (memoryBytes() >= static_cast<size_t>(_maxMemoryBytes) && _allowDiskUse)
        spillToDisk();
    uassert(5643011, "Exceeded max memory. Set 'allowDiskUse: true' to spill to disk",
            memoryBytes() < static_cast<size_t>(_maxMemoryBytes));
}

WindowRow SpillableCache::at(size_t i) {
    invariant(i < size());
    if (i >= _spilledOffsets.size())
        return _memory[i - _spilledOffsets.size()];
    auto r = _file->readAt(_spilledOffsets[i]);
    return WindowRow{std::move(r.a), std::move(r.b)};
}

void SpillableCache::spillToDisk() {
    invariant(_allowDiskUse);
    if (_memory.empty())
        return;
    if (!_file)
        _file = std::make_unique<SpillFile>();
    const auto before = _file->size();
    for (const auto& r : _memory)
        _spilledOffsets.push_back(_file->append(0, r.doc, r.sortKey));
    ++_stats.spills;
    _stats.spilledRecords += static_cast<long long>(_memory.size());
    _stats.spilledBytes += _file->size() - before;
    _stats.spilledDataStorageSize =
        std::max<long long>(_stats.spilledDataStorageSize, _file->size());
    _memory.clear();
    _memory.shrink_to_fit();
    _memoryBytes = 0;
}

void SpillableCache::clear() {
    _memory.clear();
    _memoryBytes = 0;
    _spilledOffsets.clear();
    if (_file)
        _file->truncate();
}

}  // namespace mongo
