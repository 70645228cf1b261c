// Streaming BSONColumn decoder (spec §A.8.2-A.8.3, §A.9).
#include "mongo/bson/column/bsoncolumn_decoder.h"

#include <cstring>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/column/bsoncolumn.h"
#include "mongo/bson/column/bsoncolumn_util.h"

namespace mongo::bsoncolumn {

Status invalidColumn(const char* why) {
    return Status(ErrorCodes::InvalidBSONColumn, std::string("Invalid BSONColumn: ") + why);
}

Status tooManyPositions() {
    return Status(
        ErrorCodes::ExceededMemoryLimit,
        "BSONColumn decodes to more than " + std::to_string(BSONColumn::kMaxPositions) + " values");
}

int literalSize(const char* p, const char* end) {
    if (end - p < 2 || p[1] != 0)
        return -1;
    const uint8_t t = uint8_t(p[0]);
    const char* v = p + 2;
    const size_t remain = size_t(end - v);
    auto fixed = [&](size_t n) { return remain >= n ? int(2 + n) : -1; };
    switch (t) {
        case 0x01:
        case 0x09:
        case 0x11:
        case 0x12:
            return fixed(8);
        case 0x10:
            return fixed(4);
        case 0x08:
            return fixed(1);
        case 0x07:
            return fixed(12);
        case 0x13:
            return fixed(16);
        case 0x06:
        case 0x0A:
        case 0x7F:
        case 0xFF:
            return 2;
        case 0x02:
        case 0x0C:
        case 0x0D:
        case 0x0E: {
            if (remain < 4)
                return -1;
            const int32_t l = readLE<int32_t>(v);
            if (l < 1 || size_t(l) > remain - 4 || v[4 + l - 1] != 0)
                return -1;
            size_t n = 4 + size_t(l);
            if (t == 0x0C) {
                if (remain - n < 12)
                    return -1;
                n += 12;
            }
            return int(2 + n);
        }
        case 0x03:
        case 0x04: {
            if (remain < 5)
                return -1;
            const int32_t l = readLE<int32_t>(v);
            if (l < 5 || size_t(l) > remain ||
                !validateBSON(v, size_t(l), BSONBoolBytes::kAnyByte).isOK())
                return -1;
            return 2 + l;
        }
        case 0x05: {
            if (remain < 5)
                return -1;
            const int32_t l = readLE<int32_t>(v);
            if (l < 0 || size_t(l) > remain - 5)
                return -1;
            return 2 + 5 + l;
        }
        case 0x0B: {
            const char* a = static_cast<const char*>(std::memchr(v, 0, remain));
            if (!a)
                return -1;
            const char* b = static_cast<const char*>(std::memchr(a + 1, 0, size_t(end - a - 1)));
            if (!b)
                return -1;
            return int(b + 1 - p);
        }
        case 0x0F: {
            if (remain < 14)
                return -1;
            const int32_t total = readLE<int32_t>(v);
            if (total < 14 || size_t(total) > remain)
                return -1;
            const int32_t sl = readLE<int32_t>(v + 4);
            if (sl < 1 || sl > total - 8 - 5 || v[8 + sl - 1] != 0)
                return -1;
            const char* scope = v + 8 + sl;
            const int32_t ol = readLE<int32_t>(scope);
            if (ol != total - 8 - sl ||
                !validateBSON(scope, size_t(ol), BSONBoolBytes::kAnyByte).isOK())
                return -1;
            return 2 + total;
        }
        default:
            return -1;
    }
}

void DecodingStream::initFrom(BSONType type, const char* value, size_t len) {
    _prev.assign(1, char(type));
    _prev.push_back('\0');
    _prev.append(value, len);
    _base = 0;
    _delta = 0;
    _base128 = 0;
    _scale = kScaleRaw;
    _wordsLeft = 0;
    _slotCount = _slotIdx = 0;
    _rleLeft = 0;
    _lastSlot = 0;
    switch (type) {
        case BSONType::kNumberDouble:
        case BSONType::kNumberLong:
        case BSONType::kDate:
        case BSONType::kTimestamp:
            _base = readLE<int64_t>(value);
            break;
        case BSONType::kNumberInt:
            _base = readLE<int32_t>(value);
            break;
        case BSONType::kBool:
            _base = uint8_t(value[0]);
            break;
        case BSONType::kOid:
            _base = oidToInt(reinterpret_cast<const uint8_t*>(value));
            break;
        case BSONType::kString:
        case BSONType::kCode:
            _base128 = stringToInt(value + 4, len - 5).value_or(0);
            break;
        case BSONType::kBinData: {
            const int32_t l = readLE<int32_t>(value);
            _base128 = l <= 16 ? binDataToInt(value + 5, l) : 0;
            break;
        }
        case BSONType::kNumberDecimal:
            _base128 = readLE128(value);
            break;
        default:
            break;
    }
}

Status DecodingStream::readUnit(const char*& pos, const char* end, bool* missing) {
    const uint8_t c = uint8_t(*pos);
    if (isLiteralControl(c)) {
        const int n = literalSize(pos, end);
        if (n < 0)
            return invalidColumn("malformed literal");
        initFrom(BSONType(int8_t(c)), pos + 2, size_t(n - 2));
        pos += n;
        *missing = false;
        return Status::OK();
    }
    const int scale = scaleIndexForControl(c);
    if (scale < 0)
        return invalidColumn("invalid control byte");
    const int nWords = (c & 0xF) + 1;
    if (end - pos - 1 <= 8 * nWords)
        return invalidColumn("Simple-8b run overflows the buffer");
    const BSONType t = type();
    if (t == BSONType::kNumberDouble) {
        auto r = encodeDouble(readLE<double>(_prev.data() + 2), scale);
        if (!r)
            return invalidColumn("double does not encode at the control's scale");
        _base = *r;
        _scale = scale;
    } else if (scale != kScaleRaw) {
        return invalidColumn("scaled control for a non-double stream");
    }
    _is128 = uses128bit(t);
    _words = pos + 1;
    _wordsLeft = nWords;
    _slotCount = _slotIdx = 0;
    _rleLeft = 0;
    pos += 1 + 8 * nWords;
    return nextValue(missing);
}

Status DecodingStream::nextValue(bool* missing) {
    uint128_t slot;
    if (_rleLeft > 0) {
        --_rleLeft;
        slot = _lastSlot;
    } else {
        if (_slotIdx >= _slotCount) {
            if (_wordsLeft == 0)
                return invalidColumn("no values left in run");
            const uint64_t w = readLE<uint64_t>(_words);
            _words += 8;
            --_wordsLeft;
            if ((w & 0xF) == simple8b::kRleSelector) {
                _rleLeft = simple8b::valueCount(w) - 1;
                _slotCount = _slotIdx = 0;
                return _materialize(_lastSlot, missing);
            }
            if (!_layout.parse(w))
                return invalidColumn("invalid Simple-8b selector");
            _slotCount = _layout.count;
            _slotIdx = 0;
        }
        if (_is128) {
            slot = _layout.get<uint128_t>(_slotIdx++);
        } else {
            const uint64_t s = _layout.get<uint64_t>(_slotIdx++);
            slot = s == ~uint64_t(0) ? simple8b::missingValue<uint128_t>() : uint128_t(s);
        }
        _lastSlot = slot;
    }
    return _materialize(slot, missing);
}

Status DecodingStream::_materialize(uint128_t slot, bool* missing) {
    const BSONType t = type();
    if (slot == simple8b::missingValue<uint128_t>() || t == BSONType::kEOO) {
        *missing = true;
        return Status::OK();
    }
    *missing = false;
    if (!usesDeltaOfDelta(t) && slot == 0)
        return Status::OK();  // repeat the previous value verbatim
    char buf[24];
    if (_is128) {
        _base128 += unzigzag128(slot);
        switch (t) {
            case BSONType::kString:
            case BSONType::kCode: {
                const int n = intToString(_base128, buf + 4);
                writeLE<int32_t>(buf, n + 1);
                buf[4 + n] = 0;
                _setValue(buf, size_t(n + 5));
                return Status::OK();
            }
            case BSONType::kBinData: {
                const int32_t l = readLE<int32_t>(_prev.data() + 2);
                if (l > 16)
                    return invalidColumn("delta on binData longer than 16 bytes");
                std::memcpy(buf, _prev.data() + 2, 5);
                char le[16];
                writeLE128(le, _base128);
                std::memcpy(buf + 5, le, size_t(l));
                _setValue(buf, size_t(5 + l));
                return Status::OK();
            }
            case BSONType::kNumberDecimal:
                writeLE128(buf, _base128);
                _setValue(buf, 16);
                return Status::OK();
            default:
                return invalidColumn("non-zero delta for a type without deltas");
        }
    }
    const uint64_t d = uint64_t(unzigzag(uint64_t(slot)));
    switch (t) {
        case BSONType::kNumberDouble:
        case BSONType::kNumberInt:
        case BSONType::kNumberLong:
        case BSONType::kBool:
            _base = int64_t(uint64_t(_base) + d);
            break;
        case BSONType::kDate:
        case BSONType::kTimestamp:
        case BSONType::kOid:
            _delta = int64_t(uint64_t(_delta) + d);
            _base = int64_t(uint64_t(_base) + uint64_t(_delta));
            break;
        default:
            return invalidColumn("non-zero delta for a type without deltas");
    }
    switch (t) {
        case BSONType::kNumberDouble:
            writeLE<double>(buf, decodeDouble(_base, _scale));
            _setValue(buf, 8);
            break;
        case BSONType::kNumberInt:
            writeLE<int32_t>(buf, int32_t(uint32_t(uint64_t(_base))));
            _setValue(buf, 4);
            break;
        case BSONType::kBool:
            buf[0] = _base != 0 ? 1 : 0;
            _setValue(buf, 1);
            break;
        case BSONType::kOid:
            std::memcpy(buf, _prev.data() + 2, 12);
            intToOid(_base, reinterpret_cast<uint8_t*>(buf));
            _setValue(buf, 12);
            break;
        default:
            writeLE<int64_t>(buf, _base);
            _setValue(buf, 8);
            break;
    }
    return Status::OK();
}

ColumnDecoder::ColumnDecoder(const char* data, size_t size) : _pos(data), _end(data + size) {}

void ColumnDecoder::_fail(Status s) {
    _status = std::move(s);
    _done = true;
    _cur = nullptr;
}

bool ColumnDecoder::next() {
    if (_done)
        return false;
    Status s = _step();
    if (!s.isOK()) {
        _fail(std::move(s));
        return false;
    }
    return !_done;
}

Status ColumnDecoder::_step() {
    for (;;) {
        if (_inSection) {
            bool ended = false;
            Status s = _nextObject(&ended);
            if (!s.isOK() || !ended)
                return s;
            _inSection = false;
            continue;
        }
        bool m = false;
        if (_regular.hasValues()) {
            Status s = _regular.nextValue(&m);
            _missing = m;
            _cur = m ? nullptr : _regular.prev().data();
            return s;
        }
        if (_pos >= _end)
            return invalidColumn("missing terminating 00");
        const uint8_t c = uint8_t(*_pos);
        if (c == 0) {
            if (_pos + 1 != _end)
                return invalidColumn("bytes after the terminating 00");
            _done = true;
            _cur = nullptr;
            return Status::OK();
        }
        if (isInterleavedStart(c)) {
            Status s = _beginSection(c);
            if (!s.isOK())
                return s;
            continue;
        }
        Status s = _regular.readUnit(_pos, _end, &m);
        _missing = m;
        _cur = m ? nullptr : _regular.prev().data();
        return s;
    }
}

Status ColumnDecoder::_buildPlan(const char* obj, bool descendArrays, int depth) {
    if (depth > 200)
        return invalidColumn("reference object nests too deeply");
    BSONObj o(obj);
    for (BSONElement e : o) {
        const bool isObj = e.type() == BSONType::kObject;
        const bool isArr = e.type() == BSONType::kArray;
        if (isObj || (isArr && descendArrays)) {
            _plan.push_back({PlanStep::kOpen, e.type(), readLE<int32_t>(e.value()) <= 5,
                             std::string(e.fieldNameStringData()), -1});
            Status s = _buildPlan(e.value(), descendArrays, depth + 1);
            if (!s.isOK())
                return s;
            _plan.push_back({PlanStep::kClose, e.type(), false, {}, -1});
        } else {
            _plan.push_back({PlanStep::kLeaf, e.type(), false, std::string(e.fieldNameStringData()),
                             int(_streams.size())});
            _streams.emplace_back();
            _streams.back().initFrom(e.type(), e.value(), size_t(e.valuesize()));
        }
    }
    return Status::OK();
}

Status ColumnDecoder::_beginSection(uint8_t control) {
    const char* ref = _pos + 1;
    if (_end - ref < 5)
        return invalidColumn("truncated reference object");
    const int32_t len = readLE<int32_t>(ref);
    // Bool bytes other than 0/1 are carried verbatim (spec A.13.5), in objects too.
    if (len < 5 || len > _end - ref ||
        !validateBSON(ref, size_t(len), BSONBoolBytes::kAnyByte).isOK())
        return invalidColumn("malformed reference object");
    _rootType = control == kInterleavedStartArray ? BSONType::kArray : BSONType::kObject;
    _plan.clear();
    _streams.clear();
    Status s = _buildPlan(ref, control != kInterleavedStartLegacy, 0);
    if (!s.isOK())
        return s;
    if (_streams.empty())
        return invalidColumn("interleaved reference object without leaves");
    _streamMissing.assign(_streams.size(), false);
    _pos = ref + len;
    _inSection = true;
    _sectionHasValue = false;
    _obj.clear();
    return Status::OK();
}

Status ColumnDecoder::_nextObject(bool* sectionEnded) {
    for (size_t j = 0; j < _streams.size(); ++j) {
        DecodingStream& st = _streams[j];
        bool m = false;
        Status s = Status::OK();
        if (st.hasValues()) {
            s = st.nextValue(&m);
        } else {
            if (_pos >= _end)
                return invalidColumn("interleaved section not terminated");
            const uint8_t c = uint8_t(*_pos);
            if (c == 0) {
                if (j != 0)
                    return invalidColumn("interleaved section ended inside an object");
                if (!_sectionHasValue)
                    return invalidColumn("interleaved section without units");
                for (const DecodingStream& other : _streams) {
                    if (other.hasValues())
                        return invalidColumn("interleaved stream has values left at its end");
                }
                ++_pos;
                if (!_obj.empty())
                    _regular.initFrom(_rootType, _obj.data() + 2, _obj.size() - 2);
                *sectionEnded = true;
                return Status::OK();
            }
            if (isInterleavedStart(c))
                return invalidColumn("nested interleaved section");
            s = st.readUnit(_pos, _end, &m);
        }
        if (!s.isOK())
            return s;
        _streamMissing[j] = m;
    }
    _sectionHasValue = true;

    // Rebuild the object along the reference plan.
    std::string out;
    out.reserve(_obj.capacity());
    out.push_back(char(_rootType));
    out.push_back('\0');
    out.append(4, '\0');
    struct Open {
        size_t elemStart;
        size_t docStart;
        bool refEmpty;
    };
    std::vector<Open> stack;
    for (const PlanStep& p : _plan) {
        switch (p.kind) {
            case PlanStep::kOpen:
                stack.push_back({out.size(), 0, p.refEmpty});
                out.push_back(char(p.type));
                out.append(p.name);
                out.push_back('\0');
                stack.back().docStart = out.size();
                out.append(4, '\0');
                break;
            case PlanStep::kClose: {
                const Open o = stack.back();
                stack.pop_back();
                if (out.size() == o.docStart + 4 && !o.refEmpty) {
                    out.resize(o.elemStart);
                } else {
                    out.push_back('\0');
                    writeLE<int32_t>(&out[o.docStart], int32_t(out.size() - o.docStart));
                }
                break;
            }
            case PlanStep::kLeaf: {
                if (_streamMissing[size_t(p.stream)])
                    break;
                const std::string& v = _streams[size_t(p.stream)].prev();
                out.push_back(v[0]);
                out.append(p.name);
                out.append(v, 1, std::string::npos);
                break;
            }
        }
    }
    if (out.size() == 6) {
        _missing = true;
        _cur = nullptr;
        return Status::OK();
    }
    out.push_back('\0');
    writeLE<int32_t>(&out[2], int32_t(out.size() - 2));
    _obj.swap(out);
    _missing = false;
    _cur = _obj.data();
    return Status::OK();
}

}  // namespace mongo::bsoncolumn
