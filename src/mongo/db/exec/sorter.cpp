#include "mongo/db/exec/sorter.h"

#include <algorithm>

#include "mongo/util/assert_util.h"

namespace mongo {

ExternalSorter::ExternalSorter(std::shared_ptr<SortPattern> pattern, long long maxMemoryBytes,
                               bool allowSpill)
    : _pattern(std::move(pattern)), _maxMemoryBytes(maxMemoryBytes), _allowSpill(allowSpill) {}

ExternalSorter::~ExternalSorter() = default;

bool ExternalSorter::less(const Entry& a, const Entry& b) const {
    int c = _pattern->compareSortKeys(a.key, b.key);
    return c != 0 ? c < 0 : a.seq < b.seq;
}

void ExternalSorter::add(BSONObj key, BSONObj doc) {
    _bufferBytes += key.objsize() + doc.objsize() + sizeof(Entry);
    _buffer.push_back({key.getOwned(), doc.getOwned(), _seq++});
    if (_bufferBytes > static_cast<size_t>(_maxMemoryBytes)) {
        uassert(ErrorCodes::QueryExceededMemoryLimitNoDiskUseAllowed,
                "Sort exceeded memory limit of " + std::to_string(_maxMemoryBytes) +
                    " bytes, but did not opt in to external sorting.",
                _allowSpill);
        spill();
    }
}

void ExternalSorter::spill() {
    std::stable_sort(_buffer.begin(), _buffer.end(),
                     [this](const Entry& a, const Entry& b) { return less(a, b); });
    auto file = std::make_unique<SpillFile>();
    for (const auto& e : _buffer)
        file->append(e.seq, e.key, e.doc);
    file->rewind();
    ++_stats.spills;
    _stats.spilledRecords += static_cast<long long>(_buffer.size());
    _stats.spilledBytes += file->size();
    _stats.spilledDataStorageSize += file->size();
    _runs.push_back({std::move(file), std::nullopt});
    _buffer.clear();
    _bufferBytes = 0;
}

std::optional<ExternalSorter::Entry> ExternalSorter::readEntry(SpillFile* f) {
    auto r = f->readNext();
    if (!r)
        return std::nullopt;
    return Entry{std::move(r->a), std::move(r->b), r->tag};
}

void ExternalSorter::finish() {
    _finished = true;
    if (_runs.empty()) {
        std::stable_sort(_buffer.begin(), _buffer.end(),
                         [this](const Entry& a, const Entry& b) { return less(a, b); });
        return;
    }
    if (!_buffer.empty())
        spill();
    for (auto& r : _runs)
        r.head = readEntry(r.file.get());
}

std::optional<BSONObj> ExternalSorter::next(BSONObj* key) {
    invariant(_finished);
    if (_runs.empty()) {
        if (_pos >= _buffer.size())
            return std::nullopt;
        Entry& e = _buffer[_pos++];
        if (key)
            *key = std::move(e.key);
        e.key = BSONObj();
        return std::move(e.doc);
    }
    Run* best = nullptr;
    for (auto& r : _runs)
        if (r.head && (!best || less(*r.head, *best->head)))
            best = &r;
    if (!best)
        return std::nullopt;
    BSONObj out = std::move(best->head->doc);
    if (key)
        *key = std::move(best->head->key);
    best->head = readEntry(best->file.get());
    return out;
}

}  // namespace mongo
