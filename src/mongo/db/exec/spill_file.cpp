#include "mongo/db/exec/spill_file.h"

#include <unistd.h>
#include <algorithm>
#include <cstring>
#include <vector>

#include "mongo/util/assert_util.h"

namespace mongo {

void SpillingStats::appendTo(BSONObjBuilder* b) const {
    b->append("usedDisk", spills > 0);
    b->append("spills", spills);
    b->append("spilledDataStorageSize", spilledDataStorageSize);
    b->append("spilledBytes", spilledBytes);
    b->append("spilledRecords", spilledRecords);
}
namespace {

/** Reads exactly `n` bytes at `pos`; false at or before the end of the file. */
bool readExactly(int fd, void* buf, size_t n, std::int64_t pos) {
    auto* p = static_cast<char*>(buf);
    while (n > 0) {
        ssize_t got = ::pread(fd, p, n, static_cast<off_t>(pos));
        if (got <= 0)
            return false;
        p += got;
        pos += got;
        n -= static_cast<size_t>(got);
    }
    return true;
}

}  // namespace

SpillFile::SpillFile() : _file(std::tmpfile()) {
    uassert(ErrorCodes::InternalError, "cannot create a temporary file to spill to disk", _file);
}

SpillFile::~SpillFile() {
    if (_file)
        std::fclose(_file);
}

std::int64_t SpillFile::append(std::int64_t tag, const BSONObj& a, const BSONObj& b) {
    std::int64_t at = _size;
    bool ok = std::fseek(_file, 0, SEEK_END) == 0 &&
              std::fwrite(&tag, sizeof(tag), 1, _file) == 1 &&
              std::fwrite(a.objdata(), a.objsize(), 1, _file) == 1 &&
              std::fwrite(b.objdata(), b.objsize(), 1, _file) == 1;
    uassert(ErrorCodes::InternalError, "failed writing to a spill file (is the disk full?)", ok);
    _size += static_cast<std::int64_t>(sizeof(tag)) + a.objsize() + b.objsize();
    _dirty = true;
    return at;
}

const char* SpillFile::bytesAt(std::int64_t pos, size_t n) {
    constexpr size_t kBlockBytes = 256 * 1024;
    uassert(ErrorCodes::InternalError, "corrupt spill file",
            pos >= 0 && pos + static_cast<std::int64_t>(n) <= _size);
    const std::int64_t blockEnd = _blockStart + static_cast<std::int64_t>(_block.size());
    if (pos < _blockStart || pos + static_cast<std::int64_t>(n) > blockEnd) {
        if (_dirty) {
            uassert(ErrorCodes::InternalError, "failed writing to a spill file (is the disk full?)",
                    std::fflush(_file) == 0);
            _dirty = false;
        }
        size_t len =
            static_cast<size_t>(std::min<std::int64_t>(std::max(kBlockBytes, n), _size - pos));
        _block.resize(len);
        _blockStart = pos;
        if (!readExactly(fileno(_file), _block.data(), len, pos)) {
            _block.clear();
            uasserted(ErrorCodes::InternalError, "failed reading a spill file");
        }
    }
    return _block.data() + (pos - _blockStart);
}

SpillFile::Record SpillFile::readAt(std::int64_t offset) {
    Record r;
    std::memcpy(&r.tag, bytesAt(offset, sizeof(r.tag)), sizeof(r.tag));
    std::int64_t pos = offset + static_cast<std::int64_t>(sizeof(r.tag));
    auto readObj = [&]() {
        std::int32_t size;
        std::memcpy(&size, bytesAt(pos, sizeof(size)), sizeof(size));
        uassert(ErrorCodes::InternalError, "corrupt spill file", size >= 5);
        BSONObj o = BSONObj::copyFrom(bytesAt(pos, static_cast<size_t>(size)), size);
        pos += size;
        return o;
    };
    r.a = readObj();
    r.b = readObj();
    _readPos = pos;
    return r;
}

void SpillFile::rewind() {
    _readPos = 0;
}

std::optional<SpillFile::Record> SpillFile::readNext() {
    if (_readPos >= _size)
        return std::nullopt;
    return readAt(_readPos);  // leaves _readPos after the record
}

void SpillFile::truncate() {
    std::fflush(_file);
    uassert(ErrorCodes::InternalError, "cannot truncate a spill file",
            ::ftruncate(fileno(_file), 0) == 0);
    _size = 0;
    _readPos = 0;
    _dirty = false;
    _block.clear();
    _blockStart = 0;
}

}  // namespace mongo
