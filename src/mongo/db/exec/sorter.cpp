#include "mongo/db/exec/sorter.h"

#include <algorithm>
#include <cstring>

#include "mongo/util/assert_util.h"

namespace mongo {

ExternalSorter::ExternalSorter(std::shared_ptr<SortPattern> pattern, long long maxMemoryBytes,
                               bool allowSpill)
    : _pattern(std::move(pattern)), _maxMemoryBytes(maxMemoryBytes), _allowSpill(allowSpill) {}

ExternalSorter::~ExternalSorter() {
    for (auto& r : _runs)
        if (r.file)
            std::fclose(r.file);
}

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
    std::FILE* f = std::tmpfile();
    uassert(ErrorCodes::InternalError, "cannot create a temporary file for an external sort", f);
    for (const auto& e : _buffer) {
        bool ok = std::fwrite(&e.seq, sizeof(e.seq), 1, f) == 1 &&
            std::fwrite(e.key.objdata(), e.key.objsize(), 1, f) == 1 &&
            std::fwrite(e.doc.objdata(), e.doc.objsize(), 1, f) == 1;
        if (!ok) {
            std::fclose(f);
            uasserted(ErrorCodes::InternalError, "failed writing an external sort run");
        }
    }
    std::rewind(f);
    _runs.push_back({f, std::nullopt});
    _buffer.clear();
    _bufferBytes = 0;
}

std::optional<ExternalSorter::Entry> ExternalSorter::readEntry(std::FILE* f) {
    Entry e;
    if (std::fread(&e.seq, sizeof(e.seq), 1, f) != 1)
        return std::nullopt;
    auto readObj = [f]() {
        std::int32_t size;
        uassert(ErrorCodes::InternalError, "corrupt external sort run",
                std::fread(&size, sizeof(size), 1, f) == 1 && size >= 5);
        std::vector<char> buf(size);
        std::memcpy(buf.data(), &size, sizeof(size));
        uassert(ErrorCodes::InternalError, "corrupt external sort run",
                std::fread(buf.data() + 4, size - 4, 1, f) == 1);
        return BSONObj::copyFrom(buf.data(), size);
    };
    e.key = readObj();
    e.doc = readObj();
    return e;
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
        r.head = readEntry(r.file);
}

std::optional<BSONObj> ExternalSorter::next() {
    invariant(_finished);
    if (_runs.empty()) {
        if (_pos >= _buffer.size())
            return std::nullopt;
        Entry& e = _buffer[_pos++];
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
    best->head = readEntry(best->file);
    return out;
}

}  // namespace mongo
