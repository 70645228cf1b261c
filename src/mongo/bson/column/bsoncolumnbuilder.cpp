// BSONColumnBuilder: routing between regular and interleaved mode, reference
// determination and merge, unit ordering, intermediate() (spec §A.8, §A.10).
#include "mongo/bson/column/bsoncolumnbuilder.h"

#include <algorithm>
#include <queue>

#include "mongo/bson/column/bsoncolumn.h"
#include "mongo/bson/column/bsoncolumn_util.h"

namespace mongo {

using bsoncolumn::Val;

namespace bsoncolumn {
namespace {

bool isSubdoc(const BSONElement& e) {
    return e.type() == BSONType::kObject || e.type() == BSONType::kArray;
}
bool subdocEmpty(const BSONElement& e) {
    return readLE<int32_t>(e.value()) <= 5;
}
BSONObj subdoc(const BSONElement& e) {
    return BSONObj(e.value());
}
Val valOf(const BSONElement& e) {
    return Val{e.type(), e.value(), size_t(e.valuesize())};
}

/** True if `e` is, or contains, an empty object or array. */
bool containsEmpty(const BSONElement& e) {
    if (!isSubdoc(e))
        return false;
    if (subdocEmpty(e))
        return true;
    for (BSONElement c : subdoc(e)) {
        if (containsEmpty(c))
            return true;
    }
    return false;
}

bool anyEmpty(const BSONObj& o) {
    for (BSONElement e : o) {
        if (containsEmpty(e))
            return true;
    }
    return false;
}

void countLeaves(const BSONObj& r, int* count) {
    for (BSONElement e : r) {
        if (isSubdoc(e))
            countLeaves(subdoc(e), count);
        else
            ++*count;
    }
}

// §A.8.6, counting the reference leaves visited. InterleavedSchema::match is the same walk
// for a fixed reference, producing the leaf values.
bool walk(const BSONObj& r, const BSONObj& o, int* count) {
    auto oit = o.begin();
    for (BSONElement re : r) {
        const BSONElement oe = oit.more() ? *oit : BSONElement();
        const bool same = oe.ok() && oe.fieldNameStringData() == re.fieldNameStringData();
        if (isSubdoc(re)) {
            if (same) {
                if (oe.type() != re.type() || subdocEmpty(oe) != subdocEmpty(re))
                    return false;
                if (!walk(subdoc(re), subdoc(oe), count))
                    return false;
                ++oit;
            } else {
                if (containsEmpty(re))
                    return false;
                countLeaves(subdoc(re), count);
            }
        } else if (same) {
            if (isSubdoc(oe))
                return false;
            ++*count;
            ++oit;
        } else {
            ++*count;
        }
    }
    return !oit.more();
}

// §A.8.7, writing the merged document into `out`.
bool mergeInto(const BSONObj& r, const BSONObj& o, std::string& out) {
    const size_t start = out.size();
    out.append(4, '\0');
    std::vector<StringData> names;
    auto add = [&](const BSONElement& e) {
        const StringData name = e.fieldNameStringData();
        if (containsEmpty(e) || std::find(names.begin(), names.end(), name) != names.end())
            return false;
        names.push_back(name);
        out.append(e.rawdata(), size_t(e.size()));
        return true;
    };
    auto ri = r.begin(), oi = o.begin();
    while (ri.more() && oi.more()) {
        const BSONElement re = *ri, oe = *oi;
        const StringData rname = re.fieldNameStringData();
        if (rname == oe.fieldNameStringData()) {
            const bool rs = isSubdoc(re), os = isSubdoc(oe);
            if (rs && os) {
                if (re.type() != oe.type() || subdocEmpty(re) != subdocEmpty(oe))
                    return false;
                out.push_back(char(re.type()));
                out.append(rname);
                out.push_back('\0');
                if (!mergeInto(subdoc(re), subdoc(oe), out))
                    return false;
            } else if (rs || os) {
                return false;
            } else {
                out.append(re.rawdata(), size_t(re.size()));
            }
            names.push_back(rname);
            ++ri;
            ++oi;
            continue;
        }
        bool later = false;
        for (auto it = oi; it.more() && !later; ++it)
            later = (*it).fieldNameStringData() == rname;
        if (!later) {
            if (!add(re))
                return false;
            ++ri;
        } else {
            if (!add(oe))
                return false;
            ++oi;
        }
    }
    for (; ri.more(); ++ri) {
        if (!add(*ri))
            return false;
    }
    for (; oi.more(); ++oi) {
        if (!add(*oi))
            return false;
    }
    out.push_back('\0');
    writeLE<int32_t>(&out[start], int32_t(out.size() - start));
    return true;
}

void collectLeaves(const BSONObj& r, std::vector<BSONElement>* leaves) {
    for (BSONElement e : r) {
        if (isSubdoc(e))
            collectLeaves(subdoc(e), leaves);
        else
            leaves->push_back(e);
    }
}

}  // namespace

bool hasScalars(const BSONObj& obj) {
    for (BSONElement e : obj) {
        if (!isSubdoc(e) || hasScalars(subdoc(e)))
            return true;
    }
    return false;
}

bool compatible(const BSONObj& r, const BSONObj& o, int* count) {
    *count = 0;
    return walk(r, o, count);
}

bool mergeReference(const BSONObj& r, const BSONObj& o, BSONObj* merged) {
    std::string out;
    if (!mergeInto(r, o, out))
        return false;
    *merged = BSONObj::copyFrom(out.data(), int(out.size()));
    return true;
}

}  // namespace bsoncolumn

BSONColumnBuilder::BSONColumnBuilder() = default;
BSONColumnBuilder::BSONColumnBuilder(const BSONColumnBuilder&) = default;
BSONColumnBuilder& BSONColumnBuilder::operator=(const BSONColumnBuilder&) = default;
BSONColumnBuilder::~BSONColumnBuilder() = default;

StatusWith<BSONColumnBuilder> BSONColumnBuilder::fromBinary(const char* data, size_t size) {
    BSONColumnBuilder b;
    BSONColumn::Iterator it = BSONColumn(data, size).begin();
    while (it.next()) {
        if (it.missing())
            b.skip();
        else
            b.append(it.value());
    }
    if (!it.status().isOK())
        return it.status();
    b._stableStart = size_t(-1);
    b._diffAgainstStored = true;
    b._stored.assign(data, size);
    return b;
}

BSONColumnBuilder& BSONColumnBuilder::append(const BSONElement& e) {
    if (e.eoo())
        return skip();
    ++_count;
    if ((e.type() == BSONType::kObject || e.type() == BSONType::kArray) &&
        readLE<int32_t>(e.value()) > 5) {
        _appendObject(BSONObj(e.value()), e.type());
        return *this;
    }
    if (_mode != Mode::kRegular)
        _endSection();
    _regular.append(bsoncolumn::valOf(e));
    return *this;
}

BSONColumnBuilder& BSONColumnBuilder::skip() {
    ++_count;
    if (_mode == Mode::kRegular) {
        _regular.skip();
    } else if (_mode == Mode::kAppending ? _schema.anyEmpty() : bsoncolumn::anyEmpty(_ref)) {
        _endSection();
        _regular.skip();
    } else if (_mode == Mode::kDetermining) {
        _buffered.push_back(BSONObj());
    } else {
        for (auto& s : _streams)
            s.skip();
    }
    return *this;
}

void BSONColumnBuilder::_appendValue(const Val& v) {
    _regular.append(v);
}

void BSONColumnBuilder::_appendObject(const BSONObj& obj, BSONType type) {
    if (_mode != Mode::kRegular && type != _rootType)
        _endSection();
    if (_mode == Mode::kAppending) {
        if (_appendToStreams(obj))
            return;
        _endSection();
    }
    const bool scalars = bsoncolumn::hasScalars(obj);
    if (_mode == Mode::kDetermining) {
        _offerToDetermining(obj, type, scalars);
        return;
    }
    if (scalars)
        _startSection(obj, type);
    else
        _appendValue(Val{type, obj.objdata(), size_t(obj.objsize())});
}

void BSONColumnBuilder::_startSection(const BSONObj& obj, BSONType type) {
    _regular.flush();
    _mode = Mode::kDetermining;
    _rootType = type;
    _ref = obj.copy();
    _buffered.clear();
    _buffered.push_back(_ref);
}

void BSONColumnBuilder::_offerToDetermining(const BSONObj& obj, BSONType type, bool scalars) {
    int count = 0;
    if (!bsoncolumn::compatible(_ref, obj, &count)) {
        BSONObj merged;
        if (!bsoncolumn::mergeReference(_ref, obj, &merged)) {
            _endSection();
            if (scalars)
                _startSection(obj, type);
            else
                _appendValue(Val{type, obj.objdata(), size_t(obj.objsize())});
            return;
        }
        _ref = merged;
    }
    if (2 * size_t(count) >= _buffered.size()) {
        _buffered.push_back(obj.copy());
        return;
    }
    _freeze();
    if (!_appendToStreams(obj)) {
        _endSection();
        _startSection(obj, type);
    }
}

bool BSONColumnBuilder::_appendToStreams(const BSONObj& obj) {
    if (!_schema.match(obj, &_leafVals))
        return false;
    for (size_t i = 0; i < _leafVals.size(); ++i) {
        if (_leafVals[i].type == BSONType::kEOO)
            _streams[i].skip();
        else
            _streams[i].append(_leafVals[i]);
    }
    return true;
}

void BSONColumnBuilder::_freeze() {
    std::string& out = _regular.buf();
    out.push_back(char(_rootType == BSONType::kArray ? bsoncolumn::kInterleavedStartArray
                                                     : bsoncolumn::kInterleavedStart));
    out.append(_ref.objdata(), size_t(_ref.objsize()));
    std::vector<BSONElement> leaves;
    bsoncolumn::collectLeaves(_ref, &leaves);
    _schema.build(_ref);
    _streams.assign(leaves.size(), bsoncolumn::EncodingStream());
    for (size_t i = 0; i < leaves.size(); ++i) {
        _streams[i].setRecordUnits(true);
        _streams[i].initFromLeaf(bsoncolumn::valOf(leaves[i]));
    }
    _mode = Mode::kAppending;
    std::vector<BSONObj> buffered;
    buffered.swap(_buffered);
    for (const BSONObj& b : buffered)
        _appendToStreams(b);
}

void BSONColumnBuilder::_endSection() {
    if (_mode == Mode::kDetermining)
        _freeze();
    for (auto& s : _streams)
        s.flush();
    // Emit units ordered by (values the stream emitted before the unit, stream index).
    using Key = std::pair<int64_t, size_t>;
    std::priority_queue<Key, std::vector<Key>, std::greater<Key>> heap;
    std::vector<size_t> next(_streams.size(), 0);
    for (size_t j = 0; j < _streams.size(); ++j) {
        if (!_streams[j].units().empty())
            heap.push({0, j});
    }
    std::string& out = _regular.buf();
    while (!heap.empty()) {
        const auto [before, j] = heap.top();
        heap.pop();
        const bsoncolumn::Unit& u = _streams[j].units()[next[j]++];
        out.append(_streams[j].buf(), u.offset, u.length);
        if (next[j] < _streams[j].units().size())
            heap.push({before + u.values, j});
    }
    out.push_back('\0');
    _streams.clear();
    _buffered.clear();
    _schema.clear();
    _ref = BSONObj();
    _mode = Mode::kRegular;
    _regular.resetState();
}

void BSONColumnBuilder::_finish() {
    if (_mode != Mode::kRegular)
        _endSection();
    _regular.flush();
    _regular.buf().push_back('\0');
}

std::string BSONColumnBuilder::finalize() const {
    BSONColumnBuilder copy(*this);
    copy._finish();
    return std::move(copy._regular.buf());
}

BSONColumnBuilder::BinaryDiff BSONColumnBuilder::intermediate() {
    if (_mode == Mode::kRegular && !_diffAgainstStored) {
        // Regular columns only ever change after the stable start (the open control byte
        // at most): finish a copy of the tail instead of the whole column.
        const size_t off = std::min(_stableStart, _regular.buf().size());
        BinaryDiff d;
        d.offset = int(off);
        d.data = _regular.flushedTail(off);
        d.data.push_back('\0');
        _stableStart =
            _regular.openControl() >= 0 ? size_t(_regular.openControl()) : _regular.buf().size();
        return d;
    }
    std::string full = finalize();
    size_t off = std::min(_stableStart, full.size());
    if (_diffAgainstStored) {
        size_t common = 0;
        const size_t lim = std::min(_stored.size(), full.size());
        while (common < lim && _stored[common] == full[common])
            ++common;
        off = std::min(off, common);
        _diffAgainstStored = false;
        _stored.clear();
    }
    BinaryDiff d;
    d.offset = int(off);
    d.data = full.substr(off);
    if (_mode == Mode::kRegular && _regular.openControl() >= 0)
        _stableStart = size_t(_regular.openControl());
    else
        _stableStart = _regular.buf().size();
    return d;
}

}  // namespace mongo
